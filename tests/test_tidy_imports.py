"""judgebook imports its own modules plainly, read from the source with `ast`.

- No import of a judgebook module under a `try` whose handler catches the
  import failure (ImportError, ModuleNotFoundError, Exception, a bare except):
  that turns a renamed module into a silently missing feature.
- An import inside a function (kept lazy for start-up speed) is allowed when
  its module says so ("lazy"/"lazily" in a comment or docstring of the module
  or its package); it is unguarded, so it still fails loudly.
The old replay engine (judgebook/engine/) is being rebuilt and is left out.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "judgebook"
SKIP = ("engine",)
CATCHES_IMPORT_FAILURE = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def package_files() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py"))
            if p.relative_to(PACKAGE).parts[0] not in SKIP]


def _is_self_import(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name == "judgebook" or a.name.startswith("judgebook.") for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "judgebook"
    if isinstance(node, ast.Call):   # importlib.import_module(...) / __import__(...), any argument
        f = node.func
        return (isinstance(f, ast.Attribute) and f.attr in ("import_module", "find_spec")) or \
            (isinstance(f, ast.Name) and f.id in ("import_module", "__import__"))
    return False


def _caught(handler: ast.ExceptHandler) -> set[str]:
    if handler.type is None:
        return {"BaseException"}
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute) else "" for t in types}


def guarded_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        if not any(_caught(h) & CATCHES_IMPORT_FAILURE for h in node.handlers):
            continue
        for stmt in node.body:
            for sub in ast.walk(stmt):
                if _is_self_import(sub):
                    out.append(f"{path.relative_to(PACKAGE.parent)}:{sub.lineno}")
    return sorted(set(out), key=lambda s: int(s.rsplit(":", 1)[1]))


def unexplained_lazy_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"), str(path))
    lazy = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lazy += [n.lineno for n in ast.walk(fn)
                     if isinstance(n, (ast.Import, ast.ImportFrom)) and _is_self_import(n)]
    if not lazy:
        return []
    said = path.read_text("utf-8").lower()
    init = path.parent / "__init__.py"
    if init.exists():
        said += init.read_text("utf-8").lower()
    if "lazy" in said or "lazily" in said:
        return []
    return [f"{path.relative_to(PACKAGE.parent)}:{n}" for n in sorted(set(lazy))]


def test_no_guarded_import_of_judgebook_modules():
    files = package_files()
    assert len(files) > 40          # the walk found the package
    assert [hit for p in files for hit in guarded_imports(p)] == []


def test_every_lazy_import_of_judgebook_modules_says_why():
    assert [hit for p in package_files() for hit in unexplained_lazy_imports(p)] == []


def test_the_checks_catch_each_spelling(tmp_path, monkeypatch):
    fake = tmp_path / "judgebook"
    fake.mkdir()
    (fake / "optional.py").write_text(
        "import importlib\n"
        "try:\n"
        "    from judgebook.linking.versions import word_diff\n"
        "except ImportError:\n"
        "    word_diff = None\n"
        "try:\n"
        "    import judgebook.search\n"
        "except (ValueError, ModuleNotFoundError):\n"
        "    pass\n"
        "def f(name):\n"
        "    try:\n"
        "        return importlib.import_module(name)\n"
        "    except Exception:\n"
        "        return None\n"
        "try:\n"
        "    import yaml\n"                      # a third-party optional import is not ours to judge
        "except ImportError:\n"
        "    yaml = None\n"
        "try:\n"
        "    from judgebook import model\n"     # a handler that does not catch import failures
        "except KeyError:\n"
        "    pass\n", "utf-8")
    (fake / "quiet.py").write_text("def f():\n    from . import optional\n    return optional\n", "utf-8")
    (fake / "explained.py").write_text("# lazy: start-up speed\ndef f():\n    from . import optional\n", "utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert guarded_imports(fake / "optional.py") == ["judgebook/optional.py:3", "judgebook/optional.py:7",
                                                     "judgebook/optional.py:12"]
    assert unexplained_lazy_imports(fake / "quiet.py") == ["judgebook/quiet.py:2"]
    assert unexplained_lazy_imports(fake / "explained.py") == []
