"""The arrows between judgebook's packages run one way, read from the source with `ast`.

Every import counts: module level, inside functions, under `if TYPE_CHECKING`,
and `importlib.import_module("...")` with a literal name. The web app and the
CLI share what they both need through modules below them (store/, the model),
never through each other; linking knows the model and nothing built on it.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "judgebook"

# (folder or module, under the package) -> prefixes it must never import
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "web": ("judgebook.commands", "judgebook.cli"),
    # the built corpus and search serve both front ends and know neither
    "store": ("judgebook.web", "judgebook.commands", "judgebook.cli"),
    "search": ("judgebook.web", "judgebook.commands", "judgebook.cli"),
    "linking": ("judgebook.store", "judgebook.search", "judgebook.web", "judgebook.commands", "judgebook.cli"),
    "ingestion": ("judgebook.linking", "judgebook.store", "judgebook.search", "judgebook.web",
                  "judgebook.commands", "judgebook.cli"),
    # the replay engine is a library the web and the CLI call: it imports nothing of the rest of judgebook
    "engine": ("judgebook.model", "judgebook.numbers", "judgebook.text", "judgebook.config", "judgebook.ingestion",
               "judgebook.linking", "judgebook.store", "judgebook.search", "judgebook.web", "judgebook.commands",
               "judgebook.cli"),
    # the CLI's build and search reach the scenarios' titles and citations in store/, not in the web (issue 23)
    "commands/build.py": ("judgebook.web",),
    "commands/search.py": ("judgebook.web",),
    # the model layer: every stage speaks it, so it imports none of them
    "model.py": ("judgebook.",),
    "numbers.py": ("judgebook.",),
    "text.py": ("judgebook.",),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, "from a import b" as "a.b"."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return sorted(found)


def files_of(key: str) -> list[Path]:
    target = PACKAGE / key
    return sorted(target.rglob("*.py")) if target.is_dir() else [target]


def violations(key: str) -> list[str]:
    out = []
    for path in files_of(key):
        for line, name in imported_modules(path):
            if any(name == p.rstrip(".") or name.startswith(p if p.endswith(".") else p + ".")
                   for p in FORBIDDEN[key]):
                out.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}")
    return out


@pytest.mark.parametrize("key", sorted(FORBIDDEN))
def test_no_import_runs_against_the_arrows(key):
    assert files_of(key), key        # the rule is about files that exist
    assert violations(key) == []


def test_the_reader_sees_every_kind_of_import(tmp_path, monkeypatch):
    """The check itself: each spelling of a forbidden import is caught."""
    fake = tmp_path / "judgebook"
    (fake / "linking").mkdir(parents=True)
    (fake / "linking" / "__init__.py").write_text("")
    (fake / "linking" / "bad.py").write_text(
        "import importlib\n"
        "from typing import TYPE_CHECKING\n"
        "from judgebook.store.corpus import Corpus\n"
        "from ..store import paths\n"
        "if TYPE_CHECKING:\n"
        "    import judgebook.store.build\n"
        "def f():\n"
        "    from judgebook.store import corpus\n"
        "    return importlib.import_module('judgebook.store.paths')\n", "utf-8")
    (fake / "linking" / "good.py").write_text("from judgebook.model import Section\nfrom . import bad\n", "utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert violations("linking") == [
        "judgebook/linking/bad.py:3 imports judgebook.store.corpus.Corpus",
        "judgebook/linking/bad.py:4 imports judgebook.store.paths",
        "judgebook/linking/bad.py:6 imports judgebook.store.build",
        "judgebook/linking/bad.py:8 imports judgebook.store.corpus",
        "judgebook/linking/bad.py:9 imports judgebook.store.paths",
    ]


def test_web_and_cli_share_replay_citations_from_below():
    """The arrow turned for the replay page: both import `rule_ref` from store.citations."""
    from judgebook.commands import replay as cli_replay
    from judgebook.store import citations
    from judgebook.web import routes_replay
    assert cli_replay.rule_ref is citations.rule_ref is routes_replay.rule_ref
    assert routes_replay.timeline_data is citations.timeline_data


def test_the_cli_names_every_command_module():
    """cli.py imports only the command named on the line (by name, which the ast reader cannot follow):
    each name in its table is a module under commands/ that registers a sub-command of that name."""
    import argparse

    from judgebook import cli
    assert sorted(cli.COMMANDS) == sorted(p.stem for p in (PACKAGE / "commands").glob("*.py")
                                          if p.stem != "__init__" and hasattr(cli.command_module(p.stem), "register"))
    for name in cli.COMMANDS:
        sub = argparse.ArgumentParser().add_subparsers()
        cli.command_module(name).register(sub)
        assert name in sub.choices, name
    assert cli._named(["--index", "search", "search", "x"]) == "search"     # --index's value is no command
    assert cli._named(["--index", "i", "nonsense"]) is None and cli._named([]) is None
