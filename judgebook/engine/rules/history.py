"""What happened earlier this turn or run, for "the first time this turn" conditions."""

from __future__ import annotations

from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.state.model import Fact, Game, GameEvent


def _run_key(g: Game) -> int:
    from judgebook.engine.rules.frames import current_run

    run = current_run(g)
    # After a run, "this run" / "that run" is the run that just ended.
    return int(run.seq) if run is not None else g.runs


def facts_this(g: Game, scope: str) -> list[Fact]:
    run = _run_key(g)
    return [f for f in g.history if f.turn == g.turn and (scope == "turn" or f.run == run)]


def count_this(g: Game, name: str, scope: str, same: Any = None) -> int:
    run = _run_key(g)
    return sum(
        1
        for f in g.history
        if f.event.name == name
        and f.turn == g.turn
        and (scope == "turn" or f.run == run)
        and (same is None or same(f.event))
    )


def count_matching(g: Game, ctx: Ctx, event: GameEvent, scope: str, others: tuple[Any, ...] = ()) -> int:
    """Events of this kind by the same player (and of the same damage type) in the scope, this one included,
    that also pass the trigger's other filters ("the first time each turn the Runner trashes an installed
    card" counts only such trashes)."""
    run = _run_key(g)
    # a card trashed by damage is trashed like any other: "the first time each turn you trash a card" counts both
    keys = ("player",) if event.name == "trashed" else ("player", "damage_type")
    return sum(
        1
        for f in g.history
        if f.event.name == event.name
        and f.turn == g.turn
        and (scope == "turn" or f.run == run)
        and all(f.event.get(k) == event.get(k) for k in keys)
        and all(o.matches(g, ctx, f.event) for o in others)
    )
