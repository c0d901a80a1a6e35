"""The checkpoint (rule_checkpoint): durations expire, the game may be won, limits are applied."""
from __future__ import annotations

from dataclasses import replace

from judgebook.game.rules.frames import current_encounter, current_run, log
from judgebook.game.state import queries as q
from judgebook.game.state.model import SIDES, Game, Lasting


def checkpoint(g: Game) -> Game:
    if g.over:
        return g
    for side in SIDES:
        if q.agenda_points(g, side) >= 7:
            from judgebook.game.rules.effects import win
            return win(g, side, "agenda_points", "step_checkpoint_agenda_points")
    kept = tuple(lasting for lasting in g.lasting if not _expired(g, lasting))
    if len(kept) != len(g.lasting):
        g = log(replace(g, lasting=kept), "expired", f"{len(g.lasting) - len(kept)} lasting effect(s) end",
                "step_checkpoint_duration_abilities")
    return g


def _expired(g: Game, lasting: Lasting) -> bool:
    d = lasting.duration
    if d.kind == "encounter":
        enc = current_encounter(g)
        return enc is None or enc.seq != d.key
    if d.kind == "run":
        run = current_run(g)
        return d.key <= g.runs and (run is None or run.seq != d.key)
    if d.kind == "turn":
        return g.turn != d.key
    return False
