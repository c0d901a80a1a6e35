"""Identities and the score area: flipping identities, cards scored as agendas, replaced draws.

Constructs of the card language added for the Standard pool (round 3, family `identities`); each registers
itself in its kind's registry when `instructions.py` imports this module.

    flip: self                                        "flip this identity" (its other face: the card's `flip:`)
    {add_as_agenda: self, points: -1, subtypes: [assassination]}
                                                      "add this card to your score area as an agenda worth N"
    {remote_server_limit: 1}                          static: "Limit 1 remote server."
    {agenda_points_to_win: {by: N, minus: true}}      static: you need N fewer/more agenda points to win

State changes and their decisions are in `judgebook.engine.rules.identities`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from judgebook.engine.language.conditions import CONDITIONS, Condition
from judgebook.engine.language.context import PLAYER_WORDS, Ctx, player_phrase
from judgebook.engine.language.events import _card_field
from judgebook.engine.language.instructions import Instruction, Mods, instruction
from judgebook.engine.language.nodes import At, check_keys, want_bool, want_int, want_str
from judgebook.engine.language.quantities import Quantity, parse_quantity
from judgebook.engine.language.selectors import Selector, parse_selector
from judgebook.engine.language.statics import STATICS, Static
from judgebook.engine.state.model import Card, Game

if TYPE_CHECKING:
    from judgebook.engine.language.cards import CardDef


# --- the face a card shows ----------------------------------------------------------------------


def current_face(d: CardDef, card: Card) -> CardDef:
    """The definition that applies to a card now: a flipped identity's other face (rule_identity_double_sided),
    or a card added to a score area as an agenda, which has only what the converting effect gave it
    (rule_add_card_to_score_area)."""
    if card.as_agenda is not None:
        return _converted(d, card.as_agenda)
    if card.flipped and d.back is not None:
        return d.back
    return d


@functools.lru_cache(maxsize=256)
def _converted(d: CardDef, as_agenda: tuple[int, tuple[str, ...]]) -> CardDef:
    points, subtypes = as_agenda
    return replace(d, type="agenda", subtypes=subtypes, agenda_points=points, abilities=(), subroutines=(),
                   cost=None, strength=None, trash_cost=None, advancement_requirement=None, memory=0, link=0,
                   recurring=0, unique=False, install_faceup=False, install_on=None, back=None)


# --- flip ---------------------------------------------------------------------------------------


@instruction("flip")
@dataclass(frozen=True, eq=False)
class Flip(Instruction):
    """Flip a double-faced identity: its other face becomes faceup and only that face is active
    (rule_identity_double_sided); it stays the same card, in the same place, with its counters."""

    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Flip:
        if arg != "self":
            at.fail("flip names the identity itself: `flip: self`")
        return cls(parse_selector(arg, at))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.state import queries as q

        return ctx.source in g.cards and g.library.card(g.cards[ctx.source].name).back is not None \
            and q.is_active(g, ctx.source)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import identities

        return identities.flip(g, ctx, ctx.source)

    def render(self) -> str:
        return "flip this identity"


# --- a card added to a score area as an agenda --------------------------------------------------


@instruction("add_as_agenda", "points", "subtypes")
@dataclass(frozen=True, eq=False)
class AddAsAgenda(Instruction):
    """Add a card to a score area "as an agenda worth N agenda points" (rule_add_card_to_score_area): it loses
    every other property and is an agenda (of the subtypes given) worth N points there, not scored or stolen
    (rule_add_agenda_to_score_area); it returns to its printed self when it leaves the score area.
    `player:` whose score area (default the ability's controller)."""

    selector: Selector
    points: int = 0
    subtypes: tuple[str, ...] = ()
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> AddAsAgenda:
        points = want_int(mods, "points", whole, None)
        if points is None:
            whole.fail("add_as_agenda needs `points`: what the card is worth as an agenda")
        subtypes = mods.get("subtypes", [])
        if not isinstance(subtypes, list) or not all(isinstance(s, str) for s in subtypes):
            whole.key(mods, "subtypes").fail("subtypes is a list of subtype names")
        return cls(parse_selector(arg, at, default_count=None), points, tuple(subtypes))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import identities

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        for cid in targets:
            g = identities.add_as_agenda(g, ctx, cid, self.who(ctx), self.points, self.subtypes)
        return g

    def render(self) -> str:
        whose = "your" if (self.mods.player or "you") == "you" else player_phrase(self.mods.player or "you") + "'s"
        kind = " ".join(self.subtypes + ("agenda",))
        article = "an" if kind[0] in "aeiou" else "a"
        worth = f"{self.points} agenda point" + ("" if abs(self.points) == 1 else "s")
        return f"add {self.selector.render()} to {whose} score area as {article} {kind} worth {worth}"


# --- limits on remote servers and on the points needed to win -----------------------------------


@STATICS.register("remote_server_limit")
@dataclass(frozen=True, eq=False)
class RemoteServerLimit(Static):
    """"Limit N remote servers": the Corp cannot create a remote server that would raise their number above N
    (rule_limit_remote_servers)."""

    limit: int

    @classmethod
    def parse(cls, arg: Any, at: At) -> RemoteServerLimit:
        if isinstance(arg, bool) or not isinstance(arg, int) or arg < 0:
            at.fail("remote_server_limit is a number of remote servers")
        return cls(arg)

    def render(self) -> str:
        return f"limit {self.limit} remote server" + ("" if self.limit == 1 else "s")


def remote_limit_refuses(g: Game, server: str | None) -> bool:
    """Whether an active "Limit N remote servers" forbids creating a new remote server for an install now."""
    if server not in (None, "new"):
        return False
    from judgebook.engine.rules.identities import existing_remotes
    from judgebook.engine.rules.values import statics

    limits = [effect.limit for effect, _ in statics(g) if isinstance(effect, RemoteServerLimit)]
    return bool(limits) and len(existing_remotes(g)) + 1 > min(limits)


@STATICS.register("agenda_points_to_win")
@dataclass(frozen=True, eq=False)
class AgendaPointsToWin(Static):
    """"You need 1 less agenda point to win the game" (for each …): changes the score a player needs to win
    (rule_game_win: 7 unless changed); `player` (default you)."""

    amount: Quantity
    minus: bool
    player: str = "you"

    @classmethod
    def parse(cls, arg: Any, at: At) -> AgendaPointsToWin:
        check_keys(arg, ("by", "minus", "player"), at)
        if "by" not in arg:
            at.fail("agenda_points_to_win needs `by`")
        return cls(parse_quantity(arg["by"], at.key(arg, "by")), want_bool(arg, "minus", at),
                   want_str(arg, "player", at, "you", PLAYER_WORDS) or "you")

    def render(self) -> str:
        who = player_phrase(self.player)
        need = "need" if self.player == "you" else "needs"
        return f"{who} {need} {self.amount.render()} {'less' if self.minus else 'more'} agenda point(s) to win"


# --- what happened to a card this turn ------------------------------------------------------------

VERBS = {"installed": "install", "advanced": "advance", "rezzed": "rez", "played": "play", "trashed": "trash"}


@CONDITIONS.register("card_this_turn")
@dataclass(frozen=True, eq=False)
class CardThisTurn(Condition):
    """Whether a card (a reference: the event's card, the chosen one) was the card of one of these events this
    turn ("an agenda that you did not install or advance this turn": only the Corp installs or advances it)."""

    card: Selector
    events: tuple[str, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> CardThisTurn:
        check_keys(arg, ("card", "events"), at)
        events = arg.get("events")
        if not isinstance(events, list) or not events or not all(e in VERBS for e in events):
            at.fail(f"card_this_turn needs `events`: a list of {', '.join(VERBS)}")
        card = parse_selector(arg.get("card", "self"), at.key(arg, "card") if "card" in arg else at)
        if card.chooses:
            at.key(arg, "card").fail("card_this_turn names one card (self, event_card, chosen, ...)")
        return cls(card, tuple(events))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        cards = set(self.card.candidates(g, ctx))
        return any(f.turn == g.turn and f.event.name in self.events and f.event.get("card") in cards
                   for f in g.history)

    def render(self) -> str:
        return f"someone did {' or '.join(VERBS[e] for e in self.events)} {self.card.render()} this turn"


# --- a server the card remembers ------------------------------------------------------------------


@instruction("choose_server")
@dataclass(frozen=True, eq=False)
class ChooseServer(Instruction):
    """"Choose a server": the controller chooses one of the servers that exist (`any`, or `remote` / `central`);
    the card remembers it while it stays where it is, and `server: chosen` (an event filter, `run_on`) names it.
    Decision: `{target: [SERVER]}`."""

    among: str = "any"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseServer:
        if arg not in ("any", "remote", "central", "protected"):
            at.fail("choose_server is any, remote, central or protected (by ice)")
        return cls(str(arg))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import identities

        return identities.choose_server(g, ctx, self.among)

    def render(self) -> str:
        if self.among == "protected":
            return "choose a server protected by ice"
        return "choose a server" if self.among == "any" else f"choose a {self.among} server"


# --- draws replaced or looked ahead of ------------------------------------------------------------


@STATICS.register("draw_action")
@dataclass(frozen=True, eq=False)
class DrawAction(Static):
    """"The first time each turn you take the basic action to draw 1 card, instead draw N cards": the basic
    action's draw is replaced as the action resolves, after its cost is paid and before any draw is imminent
    (NetrunnerDB ruling on Verbal Plasticity, 2021-10-11); `player` (default you)."""

    draw: int
    first_this_turn: bool
    player: str = "you"

    @classmethod
    def parse(cls, arg: Any, at: At) -> DrawAction:
        check_keys(arg, ("draw", "first_this_turn", "player"), at)
        n = want_int(arg, "draw", at)
        if n is None or n < 0:
            at.fail("draw_action needs `draw`: how many cards the basic action draws instead")
        return cls(n, want_bool(arg, "first_this_turn", at),
                   want_str(arg, "player", at, "you", PLAYER_WORDS) or "you")

    def render(self) -> str:
        when = "the first time each turn " if self.first_this_turn else "whenever "
        who = player_phrase(self.player)
        return f"{when}{who} take the basic action to draw 1 card, instead draw {self.draw} cards"


@STATICS.register("look_before_draw")
@dataclass(frozen=True, eq=False)
class LookBeforeDraw(Static):
    """"[interrupt] → The first time each turn you would draw any number of cards, look at the top X cards of
    your stack. Add 1 of those cards to the bottom of your stack. X is the number of cards you would draw plus
    `extra`": before the first draw of the turn (a draw of the basic action included) the player looks at the
    top X cards and puts `bottom` of them at the bottom of their deck (decision `{target: [cards]}`), then draws."""

    extra: int
    bottom: int
    player: str = "you"

    @classmethod
    def parse(cls, arg: Any, at: At) -> LookBeforeDraw:
        check_keys(arg, ("extra", "bottom", "player"), at)
        extra, bottom = want_int(arg, "extra", at, 0) or 0, want_int(arg, "bottom", at, 1) or 0
        if bottom < 1:
            at.fail("look_before_draw puts at least 1 card at the bottom (`bottom`)")
        return cls(extra, bottom, want_str(arg, "player", at, "you", PLAYER_WORDS) or "you")

    def render(self) -> str:
        who = player_phrase(self.player)
        return (f"[interrupt] the first time each turn {who} would draw any number of cards, look at the top X "
                f"cards of {'your' if self.player == 'you' else 'their'} deck; add {self.bottom} of those cards to "
                f"the bottom of the deck (X: the number of cards {who} would draw plus {self.extra})")


# --- the card an imminent instruction comes from ------------------------------------------------------

# `source: self` on a `would_…` event: the imminent damage, tags, trash or end of run comes from this card's
# ability ("they may lose all their [click] to prevent this damage").
_card_field("source", "the source")


# --- installing faceup ----------------------------------------------------------------------------


@STATICS.register("may_install_faceup")
@dataclass(frozen=True, eq=False)
class MayInstallFaceup(Static):
    """"You may install agendas faceup. (This does not make their abilities active.)": the Corp's basic action to
    install offers each such card faceup too (decision `{action: install, card: C, server: S, faceup: true}`); a
    faceup installed agenda is not rezzed, so its abilities stay inactive (rule_active_cards)."""

    types: tuple[str, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> MayInstallFaceup:
        check_keys(arg, ("type",), at)
        types = arg.get("type")
        types = [types] if isinstance(types, str) else types
        if not isinstance(types, list) or not types or not all(t in ("agenda", "asset", "upgrade", "ice")
                                                               for t in types):
            at.fail("may_install_faceup needs `type`: agenda, asset, upgrade or ice (or a list)")
        return cls(tuple(types))

    def render(self) -> str:
        return f"you may install {' or '.join(t + 's' for t in self.types)} faceup"


def may_install_faceup(g: Game, cid: str) -> bool:
    """Whether a `may_install_faceup` static of the card's owner lets this card be installed faceup."""
    from judgebook.engine.rules.values import statics
    from judgebook.engine.state import queries as q

    kind = q.definition(g, cid).type
    owner = g.cards[cid].owner
    return any(isinstance(e, MayInstallFaceup) and kind in e.types and ctx.controller == owner
               for e, ctx in statics(g))


# --- how a card enters a score area -------------------------------------------------------------------


@STATICS.register("enters_score_area")
@dataclass(frozen=True, eq=False)
class EntersScoreArea(Static):
    """"[interrupt] → When this agenda would be added to the Runner's score area from anywhere except Archives,
    instead it is added to their score area with 4 hosted agenda counters": a replacement of how this card enters a
    score area (`player`: whose), with `counters` on it as it arrives (before any checkpoint counts its points);
    `not_from`: a zone it does not apply from (hand, deck, discard, installed). Active in every zone, as the card's
    own replacement of its move."""

    player: str
    counters: tuple[tuple[str, int], ...]
    not_from: str | None = None

    @classmethod
    def parse(cls, arg: Any, at: At) -> EntersScoreArea:
        check_keys(arg, ("player", "counters", "not_from"), at)
        player = want_str(arg, "player", at, None, ("corp", "runner"))
        counters = arg.get("counters")
        if player is None or not isinstance(counters, dict) or not counters or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v > 0
                for k, v in counters.items()):
            at.fail("enters_score_area needs `player` (corp or runner) and `counters` ({KIND: N})")
        not_from = want_str(arg, "not_from", at, None, ("hand", "deck", "discard", "installed"))
        return cls(player, tuple((str(k), int(v)) for k, v in counters.items()), not_from)

    def render(self) -> str:
        where = {"hand": "HQ", "deck": "R&D", "discard": "Archives", "installed": "an installed position"}
        src = f" from anywhere except {where[self.not_from]}" if self.not_from else ""
        hosted = ", ".join(f"{n} hosted {k} counters" for k, n in self.counters)
        return (f"[interrupt] when this card would be added to {player_phrase(self.player)}'s score area{src}, "
                f"instead it is added with {hosted}")
