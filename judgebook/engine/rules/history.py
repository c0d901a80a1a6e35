"""What happened earlier this turn or run, for "the first time this turn" conditions."""

from __future__ import annotations

from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.state.model import Game, GameEvent


def _run_key(g: Game) -> int:
    from judgebook.engine.rules.frames import current_run

    run = current_run(g)
    # After a run, "this run" / "that run" is the run that just ended.
    return int(run.seq) if run is not None else g.runs


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


def count_matching(g: Game, ctx: Ctx, event: GameEvent, scope: str, same: Any = None) -> int:
    """Events of this kind by the same player (and of the same damage type) in the scope, this one included;
    with `same`, only those it accepts ("the first time each turn you make a successful run on HQ" counts
    the runs on HQ, not every successful run)."""
    run = _run_key(g)
    keys = ("player", "damage_type")
    return sum(
        1
        for f in g.history
        if f.event.name == event.name
        and f.turn == g.turn
        and (scope == "turn" or f.run == run)
        and all(f.event.get(k) == event.get(k) for k in keys)
        and (same is None or same(f.event))
    )
