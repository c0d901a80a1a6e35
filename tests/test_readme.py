"""The README's promises: its set-up commands exist, and its table of covered
worked examples names every scenario and says truthfully whether it replays."""
from __future__ import annotations

import re
from pathlib import Path

from test_game_scenarios import SCENARIOS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\|.*\| `([\w.-]+\.yaml)` \| (yes|no)\b", re.M)


def _is_engine_model(path: Path) -> bool:
    """Scenarios written to exercise the engine, not worked examples of a document."""
    return path.name.startswith("engine-")


def _table() -> dict[str, str]:
    return dict(ROW.findall(README))


def test_readme_names_the_two_setup_commands_and_ci_calls_one():
    assert "make run" in README and "make test" in README
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)


def test_coverage_table_lists_every_worked_example_scenario():
    worked = {p.name for p in SCENARIOS if not _is_engine_model(p)}
    assert len(worked) >= 40
    assert set(_table()) == worked


def test_coverage_table_says_which_replay():
    # tests/test_game_scenarios.py replays every one to its documented outcome, so each row says "yes".
    for name, replays in _table().items():
        assert replays == "yes", name
