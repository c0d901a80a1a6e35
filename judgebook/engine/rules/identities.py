"""The constructs of `language/identities.py` carried out: flipping an identity, converting a card to an
agenda in a score area, remote servers counted for a limit, and the score a player needs to win."""

from __future__ import annotations

from dataclasses import replace

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.effects import move
from judgebook.engine.rules.frames import event, log
from judgebook.engine.rules.triggers import emit
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game, Side, evolve

WIN_SCORE = 7  # rule_game_win


def flip(g: Game, ctx: Ctx, cid: str) -> Game:
    card = g.cards[cid]
    d = g.library.card(card.name)
    if d.back is None:
        return log(g, "no_flip", f"{cid} has no other face: nothing happens", "rule_identity_double_sided",
                   ctx.controller, card=cid)
    now = not card.flipped
    g = evolve(g, cards=g.cards.set(cid, replace(card, flipped=now)))
    face = d.back.face_title if now else d.name
    return emit(g, event("flipped", card=cid, player=card.owner), f"{cid} flips: {face} is faceup",
                "rule_identity_double_sided", card.owner)


def add_as_agenda(g: Game, ctx: Ctx, cid: str, side: Side, points: int, subtypes: tuple[str, ...]) -> Game:
    if cid not in g.cards:
        return g
    before = q.zone_name(g.cards[cid])
    g = move(g, cid, f"{side}.score")
    g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], as_agenda=(points, subtypes), faceup=True)))
    return log(g, "add_to_score", f"{cid} is added from {before} to the {side}'s score area as an agenda worth "
               f"{points} agenda point(s)", "rule_add_card_to_score_area", side, card=cid,
               changes=(f"{cid}: {before} → {side}.score (agenda, {points} points)",))


def existing_remotes(g: Game) -> list[str]:
    """The remote servers that exist: those with a card in their root or protecting them
    (rule_remote_server_existence)."""
    return [s for s in g.servers if s not in q.CENTRAL and (g.zone(q.root_zone(s)) or g.zone(q.ice_zone(s)))]


def points_to_win(g: Game, side: Side) -> int:
    """The score a player needs to win: 7, as static effects change it (rule_game_win)."""
    from judgebook.engine.language.identities import AgendaPointsToWin
    from judgebook.engine.rules.values import statics

    need = WIN_SCORE
    for effect, ctx in statics(g):
        if isinstance(effect, AgendaPointsToWin) and ctx.side(effect.player) == side:
            n = effect.amount.value(g, ctx)
            need += -n if effect.minus else n
    return need
