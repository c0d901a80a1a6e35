"""Engine side of the round-3 `costs` family's instructions: a card played and then removed from the game instead
of being trashed (Plutus)."""

from __future__ import annotations

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.statics import NotTrashed
from judgebook.engine.rules.effects import create_lasting, remove_from_game
from judgebook.engine.rules.frames import Call, push
from judgebook.engine.state.model import Game, Side, evolve


def play_and_remove(g: Game, side: Side, cid: str, pay: bool) -> Game:
    """Play `cid`; while it resolves it is not trashed (a lingering effect for the turn), and after it has resolved
    it is removed from the game (rule_rfg_move) and that effect ends."""
    from judgebook.engine.rules.turn import play

    g = push(g, Call(_remove_played, (cid, side)))
    g = create_lasting(g, Ctx(cid, side), NotTrashed(), "turn")
    return play(g, side, cid, pay=pay)


def _remove_played(g: Game, cid: str, side: Side) -> Game:
    kept = tuple(x for x in g.lasting if not (x.source == cid and isinstance(x.effect, NotTrashed)))
    g = evolve(g, lasting=kept)
    if g.cards[cid].zone != "play":
        return g
    return remove_from_game(g, cid, side)

