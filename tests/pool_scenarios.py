"""Replaying a shipped Standard scenario by name, and a timeline's (kind, cited rule) pairs: the pool tests'
shared scaffolding (each family's and slice's test file asserts on these)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import replays

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"


def replay_named(name: str, cards_root: Path) -> Any:
    """The outcome of `rules_source/scenarios/standard/<name>.yaml`, cards from the Standard library (replayed
    once per run: tests/replays.py)."""
    return replays.shipped(SCENARIOS / f"{name}.yaml", LIBRARY, cards_root).out


def kinds_and_rules(out: Any) -> list[tuple[str, str]]:
    return [(s.kind, s.anchor) for s in out.steps]
