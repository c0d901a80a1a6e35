"""Each shipped scenario replayed once per test run, whichever test files ask for it.

The engine is a pure function of a scenario and the card definitions it reads, so a replay is kept under
exactly those (the parsed `Scenario` by value, but for the file name it was read from, and its library's
definitions by value) and handed to every test that replays the same input: the worked examples, the real
cards, every pool family and slice file, the whole-library table test, and (`through_front_ends`) the
rule map's citations and `judgebook replay --check` over every file. A test that changes anything (the
decisions, a definition, the library a card comes from) brings a different key and gets its own replay;
a test that patches the engine, or checks that two replays agree, calls `replay` itself.

Loading is kept too (per file as named, library and card data): parsing a Standard scenario costs more
than replaying it. Both live for the pytest process, which is one test run; tests/test_replays.py holds
the plumbing to this.
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

# One reading per (file, library, card data): tests that load a file alike share its card definitions too.
_LOADED: dict[tuple[Path, tuple[str, ...] | str | None, str | None], Scenario] = {}
# By title: (scenario without its file name, its library, its definitions' repr, the outcome).
_REPLAYS: dict[str, list[tuple[Scenario, Any, str, Any]]] = {}
# How many replays this process ran and how many it handed out again.
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
    where = Path(path).resolve()
    if not where.is_relative_to(SHIPPED):
        raise ValueError(f"{path} is not a shipped scenario: replay it in the test itself")
    if library is None and cards_root is None:     # load_scenario's default: the cards/ beside the folder
        beside = where.parent.parent / "cards"
        library = beside if beside.is_dir() else None
    key = (where, _library_key(library), None if cards_root is None else str(cards_root))
    if key not in _LOADED:
        _LOADED[key] = load_scenario(path, library, cards_root)
    sc = _LOADED[key]
    # The file as this test names it (messages name it); the definitions, the same objects.
    return sc if sc.file == str(path) else replace(sc, file=str(path))


def loaded(path: Any, library: Any = None, cards_source: Any = None) -> Scenario:
    """`load_scenario` for the front ends under `through_front_ends`: a shipped file read once per run."""
    if not Path(path).resolve().is_relative_to(SHIPPED):
        return load_scenario(path, library, cards_source)
    source = cards_source.root if isinstance(cards_source, CardSource) else cards_source
    return load_shipped(path, library, None if source is None else Path(source))


def definitions(sc: Scenario) -> str:
    """The scenario's card definitions by value. Their `repr`, since not every part of a definition compares
    by value (`instructions.Mods` compares by identity: two readings of one card differ); a repr holds every
    field of these frozen dataclasses, and where one shows an object's address the two simply differ."""
    return repr(sorted(sc.library.cards.items()))


def replayed(sc: Scenario, stop_when_used: bool = False, by_value: bool = False) -> Any:
    """`replay(sc)`, run once per run for the same input: the same scenario (by value; the file name only
    labels a ScenarioError, which is raised, never kept) over the same reading of its definitions.

    `by_value`: definitions read apart but equal will do. Only for a test that reads the verdict or the
    timeline: a state of such a replay holds the other reading's objects (`instructions.Mods` compares
    by identity), so it is equal to no state of this reading's own games."""
    if stop_when_used:     # the judge's table's way: not what the tests share
        return replay(sc, stop_when_used)
    same = replace(sc, file=None)
    kept = _REPLAYS.setdefault(sc.title, [])
    found = [out for other, library, _, out in kept if other == same and library is sc.library]
    if not found and by_value:
        cards = definitions(sc)
        found = [out for other, _, defs, out in kept if other == same and defs == cards]
    if found:
        COUNTS["shared"] += 1
        out = found[0]
    else:
        COUNTS["replayed"] += 1
        out = replay(sc)
        kept.append((same, sc.library, definitions(sc), out))
    return replace(out, states=list(out.states), steps=list(out.steps), marks=list(out.marks),
                   used=list(out.used))


def verdict_only(sc: Scenario, stop_when_used: bool = False) -> Any:
    """`replayed(sc, by_value=True)`: for a test (or a front end) that reads only the verdict or timeline."""
    return replayed(sc, stop_when_used, by_value=True)


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
        mp.setattr(script, "replay", verdict_only)
        mp.setattr(load, "load_scenario", loaded)
        yield
