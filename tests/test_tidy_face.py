"""The engine's face (issue 18 "the face is bypassed", §7): code outside the engine imports `judgebook.engine`
and nothing past it. Read from the source with `ast`.

Held today for the web's board and builder (`web/board_view.py`, `web/routes_builder.py`, issue 21). The files
that still import past the face are listed exactly, so the list can only shrink: a new file importing an
engine internal, or an old one importing one more module, fails here.
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "judgebook"
FACE = "judgebook.engine"

# file -> the engine internals it still imports (to be routed through the face)
NOT_YET = {
    "cards/coverage.py": {"judgebook.engine.language.nrdb"},
    "cards/definitions.py": {"judgebook.engine.errors", "judgebook.engine.language.cards",
                             "judgebook.engine.language.nodes", "judgebook.engine.language.nrdb"},
    "cards/rulings.py": {"judgebook.engine.driver.script", "judgebook.engine.errors",
                         "judgebook.engine.language.nrdb", "judgebook.engine.scenario.load",
                         "judgebook.engine.scenario.verdict"},
    "commands/cards.py": {"judgebook.engine.errors", "judgebook.engine.language.nrdb"},
    "commands/play.py": {"judgebook.engine.driver.script", "judgebook.engine.driver.session",
                         "judgebook.engine.driver.step", "judgebook.engine.errors", "judgebook.engine.scenario.load",
                         "judgebook.engine.state.choice", "judgebook.engine.state.model"},
    "commands/replay.py": {"judgebook.engine.driver.script", "judgebook.engine.driver.timeline",
                           "judgebook.engine.errors", "judgebook.engine.scenario.load",
                           "judgebook.engine.scenario.verdict"},
    "scenario_text.py": {"judgebook.engine.driver.session", "judgebook.engine.scenario", "judgebook.engine.yamlnodes"},
    "store/scenario_refs.py": {"judgebook.engine.driver.script", "judgebook.engine.errors",
                               "judgebook.engine.scenario.load", "judgebook.engine.yamlnodes"},
    "web/board_form.py": {"judgebook.engine.errors", "judgebook.engine.yamlnodes"},
    "web/card_catalog.py": {"judgebook.engine.errors", "judgebook.engine.language.cards",
                            "judgebook.engine.language.nodes", "judgebook.engine.language.nrdb"},
    "web/card_pool.py": {"judgebook.engine.language.nrdb", "judgebook.engine.language.render"},
    "web/routes_replay.py": {"judgebook.engine.driver.script", "judgebook.engine.driver.timeline",
                             "judgebook.engine.errors", "judgebook.engine.scenario.load",
                             "judgebook.engine.scenario.verdict", "judgebook.engine.timing.structures",
                             "judgebook.engine.yamlnodes"},
    "web/session_download.py": {"judgebook.engine.driver.script", "judgebook.engine.errors",
                                "judgebook.engine.scenario.verdict", "judgebook.engine.state"},
    "web/session_parse.py": {"judgebook.engine.errors", "judgebook.engine.scenario",
                             "judgebook.engine.scenario.load", "judgebook.engine.yamlnodes"},
    "web/table_session.py": {"judgebook.engine.driver.script", "judgebook.engine.driver.session",
                             "judgebook.engine.driver.timeline", "judgebook.engine.errors",
                             "judgebook.engine.state.choice"},
}


def past_the_face(path: Path) -> set[str]:
    """The engine modules past its face that a file imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith(FACE + "."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(FACE + "."))
    return found


def outside_files() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).parts[0] != "engine"]


def test_the_board_and_the_builder_import_only_the_face():
    for name in ("web/board_view.py", "web/routes_builder.py"):
        assert past_the_face(PACKAGE / name) == set(), name


def test_the_files_past_the_face_are_exactly_the_known_ones():
    found = {str(p.relative_to(PACKAGE)): past_the_face(p) for p in outside_files()}
    assert {k: v for k, v in found.items() if v} == NOT_YET


def test_the_check_sees_each_spelling(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("import judgebook.engine.rules.values\n"
                 "from judgebook.engine.state import queries\n"
                 "from judgebook.engine import start\n"
                 "def g():\n    from judgebook.engine.rules.frames import current_run\n", "utf-8")
    assert past_the_face(f) == {"judgebook.engine.rules.values", "judgebook.engine.state",
                                "judgebook.engine.rules.frames"}
