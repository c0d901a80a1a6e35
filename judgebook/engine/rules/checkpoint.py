"""The checkpoint (rule_checkpoint): durations expire, the game may be won, restrictions are enforced."""

from __future__ import annotations

from dataclasses import replace

from judgebook.engine.rules.frames import current_encounter, log
from judgebook.engine.rules.identities import points_to_win
from judgebook.engine.rules.restrictions import enforce
from judgebook.engine.state.model import SIDES, Game, Lasting, evolve


def checkpoint(g: Game) -> Game:
    if g.over:
        return g
    for side in SIDES:
        from judgebook.engine.rules.values import agenda_points

        points = agenda_points(g, side)
        if points >= points_to_win(g, side):  # 7, unless a static effect changes it (rule_game_win)
            from judgebook.engine.rules.effects import win

            return win(g, side, "agenda_points", "step_checkpoint_agenda_points")
    kept = tuple(lasting for lasting in g.lasting if not _expired(g, lasting))
    if len(kept) != len(g.lasting):
        g = log(
            evolve(g, lasting=kept),
            "expired",
            f"{len(g.lasting) - len(kept)} lasting effect(s) end",
            "step_checkpoint_duration_abilities",
        )
    from judgebook.engine.rules.currents import ended

    g = ended(g)
    # Uniqueness and card restrictions (step_checkpoint_uniqueness, step_checkpoint_card_restrictions): a frame
    # above the caller's when one is broken, so a player's choice can wait on it.
    return enforce(g)


def _expired(g: Game, lasting: Lasting) -> bool:
    d = lasting.duration
    if d.kind == "encounter":
        enc = current_encounter(g)
        return enc is None or enc.seq != d.key
    if d.kind == "run":
        # "For the remainder of the run": until the run is complete, though it may have ended already.
        from judgebook.engine.rules.frames import find
        from judgebook.engine.rules.run import Run

        run = find(g, Run)
        return d.key <= g.runs and (run is None or run.seq != d.key)
    if d.kind == "turn":
        return g.turn != d.key
    if d.kind == "while":
        from judgebook.engine.language.context import Ctx

        return not d.condition.holds(g, Ctx(lasting.source, lasting.controller))
    if d.kind == "checkpoint":
        return True
    return False


def turn_boundary(g: Game, side: str, begins: bool) -> Game:
    """Durations "until the beginning / end of <player>'s next turn" end here."""
    kept = []
    for lasting in g.lasting:
        d = lasting.duration
        if d.player == side and d.kind == ("until_turn_begins" if begins else "until_turn_end"):
            if d.started or begins:
                continue
        if d.player == side and d.kind == "until_turn_end" and begins:
            lasting = replace(lasting, duration=replace(d, started=True))
        kept.append(lasting)
    ended = [x for x in g.lasting if x not in kept]
    g = evolve(g, lasting=tuple(kept))
    for lasting in ended:
        g = _leave_play_area(g, lasting)
    return g


def _leave_play_area(g: Game, lasting: Lasting) -> Game:
    """A lockdown kept in the play area "until your next turn begins" is trashed now (rule_operation_lockdown)."""
    from judgebook.engine.language.statics import NotTrashed

    card = g.cards.get(lasting.source)
    if not isinstance(lasting.effect, NotTrashed) or card is None or card.zone != "play":
        return g
    from judgebook.engine.rules.effects import move

    g = move(g, lasting.source, f"{card.owner}.discard")
    text = f"{lasting.source} leaves the play area: trashed"
    return log(g, "trashed", text, "rule_play_not_trashed_until", card.owner)
