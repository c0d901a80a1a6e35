"""The engine's arrows (issue 18): which of its folders may import which, read from the source with `ast`.

Held today: the timing structures import nothing of the engine's above them, the choice point's vocabulary
(`state/choice.py`) imports only `state/`, the grammar and the rules import neither the driver nor the
scenario loader, and no import loop runs at import time anywhere in the package (measured by
`tools/engine_layout.py`, the script that gives issue 18's figures). Not yet held, and so not asserted:
`state/model.py` and `state/queries.py` still name the language's and the rules' classes (type-only).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "judgebook" / "engine"


def _imported(path: Path) -> set[str]:
    """Every judgebook module a file names in an import statement, wherever the statement stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("judgebook")}


def _offending(folder: str, allowed: tuple[str, ...]) -> list[str]:
    bad = []
    for path in sorted((ENGINE / folder).rglob("*.py")):
        for name in sorted(_imported(path)):
            if not name.startswith(allowed):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    return bad


def test_timing_imports_nothing_above_it() -> None:
    allowed = ("judgebook.engine.timing", "judgebook.engine.errors", "judgebook.engine.citations")
    assert _offending("timing", allowed) == []


def test_the_choice_point_vocabulary_imports_only_the_state() -> None:
    bad = [
        f"state/choice.py imports {name}"
        for name in sorted(_imported(ENGINE / "state" / "choice.py"))
        if not name.startswith("judgebook.engine.state")
    ]
    assert bad == []


def test_grammar_and_rules_import_neither_the_driver_nor_the_scenario_loader() -> None:
    above = ("judgebook.engine.driver", "judgebook.engine.scenario", "judgebook.web", "judgebook.commands")
    for folder in ("language", "rules", "state", "timing"):
        bad = [line for line in _offending(folder, ("judgebook",)) if line.split(" imports ")[1].startswith(above)]
        assert bad == [], folder


def test_no_import_loop_runs_at_import_time() -> None:
    spec = importlib.util.spec_from_file_location("engine_layout", ROOT / "tools" / "engine_layout.py")
    assert spec is not None and spec.loader is not None
    layout = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = layout  # its dataclass looks its module up while the class is made
    try:
        spec.loader.exec_module(layout)
    finally:
        del sys.modules[spec.name]
    figures, detail = layout.measure(ROOT)
    assert detail["import_time_loops"] == []
    assert figures.import_time_loops == 0
