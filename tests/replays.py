"""Each shipped scenario replayed once per test run, whichever test files ask for it.

The engine is a pure function of a scenario and the card definitions it reads, so a replay is kept under
exactly those (the parsed `Scenario`, which compares every field but its library, and the library's
definitions by value) and handed to every test that replays the same input: the worked examples, the real
cards, every pool family and slice file, the whole-library table test. A test that changes anything (the
decisions, a definition, the library a card comes from) brings a different key and gets its own replay;
a test that patches the engine, or checks that two replays agree, calls `replay` itself.

Loading is kept too (per file, library and card data): parsing a Standard scenario costs more than
replaying it. Both live for the pytest process, which is one test run.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from judgebook.engine.driver import script
from judgebook.engine.driver.script import check, replay
from judgebook.engine.language.nrdb import CardSource
from judgebook.engine.scenario import load
from judgebook.engine.scenario.load import Scenario, load_scenario

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "rules_source" / "scenarios"

_LOADED: dict[tuple[str, tuple[str, ...] | str | None, str | None], Scenario] = {}
# By title: (scenario, its definitions, the outcome), compared by value (a scenario holds lists: no hash).
_REPLAYS: dict[str, list[tuple[Scenario, dict[str, Any], Any]]] = {}
# How many replays this process ran and how many it handed out again (tests/test_replays.py reads them).
COUNTS = {"replayed": 0, "shared": 0}


@dataclass(frozen=True)
class Replayed:
    """A loaded scenario, its replay and its verdict against the `expect` block."""

    sc: Scenario
    out: Any  # judgebook.engine.driver.session.Outcome (a copy: a test may not change another's)
    misses: list[str]


def _library_key(library: Any) -> tuple[str, ...] | str | None:
    if library is None:
        return None
    if isinstance(library, list | tuple):
        return tuple(str(Path(p).resolve()) for p in library)
    return str(Path(library).resolve())


def load_shipped(path: Path, library: Any, cards_root: Path | None) -> Scenario:
    """`load_scenario(path, library, cards_root)`, read once per run for a shipped file."""
    if not Path(path).resolve().is_relative_to(SHIPPED):
        raise ValueError(f"{path} is not a shipped scenario: replay it in the test itself")
    # The path as given: the scenario remembers it (`file`), and messages name it.
    key = (str(path), _library_key(library), None if cards_root is None else str(cards_root))
    if key not in _LOADED:
        _LOADED[key] = load_scenario(path, library, cards_root)
    return _LOADED[key]


def loaded(path: Any, library: Any = None, cards_source: Any = None) -> Scenario:
    """`load_scenario` for the front ends under `through_front_ends`: a shipped file read once per run."""
    if not Path(path).resolve().is_relative_to(SHIPPED):
        return load_scenario(path, library, cards_source)
    source = cards_source.root if isinstance(cards_source, CardSource) else cards_source
    return load_shipped(path, library, None if source is None else Path(source))


def replayed(sc: Scenario, stop_when_used: bool = False) -> Any:
    """`replay(sc)`, run once per run for equal input (scenario and definitions)."""
    if stop_when_used:     # the judge's table's way: not what the tests share
        return replay(sc, stop_when_used)
    # The file's name only labels a ScenarioError (which is raised, never kept): the same text read from
    # another path is the same input.
    same = replace(sc, file=None)
    kept = _REPLAYS.setdefault(sc.title, [])
    found = [out for other, cards, out in kept if other == same and cards == sc.library.cards]
    if found:
        COUNTS["shared"] += 1
        out = found[0]
    else:
        COUNTS["replayed"] += 1
        out = replay(sc)
        kept.append((same, dict(sc.library.cards), out))
    return replace(out, states=list(out.states), steps=list(out.steps), marks=list(out.marks),
                   used=list(out.used))


def shipped(path: Path, library: Any, cards_root: Path | None) -> Replayed:
    """A shipped scenario loaded with `library` and card data from `cards_root`, replayed, and checked."""
    sc = load_shipped(path, library, cards_root)
    out = replayed(sc)
    return Replayed(sc, out, check(sc, out))


@contextmanager
def through_front_ends() -> Iterator[None]:
    """While it lasts, the front ends that import the engine's loader and replay when they run (`judgebook
    replay`, the rule pages' citations in `store/scenario_refs.py`) take shipped scenarios from here; the
    rest of their work (libraries, verdicts, output) is theirs, under test as before."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(script, "replay", replayed)
        mp.setattr(load, "load_scenario", loaded)
        yield
