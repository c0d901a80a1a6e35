"""The constructs of `language/identities.py` carried out: flipping an identity, converting a card to an
agenda in a score area, remote servers counted for a limit, and the score a player needs to win."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.effects import move
from judgebook.engine.rules.frames import Frame, event, log, path, pop, push
from judgebook.engine.rules.triggers import emit
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, decision
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


def choose_server(g: Game, ctx: Ctx, among: str) -> Game:
    servers = tuple(s for s in g.servers if (s in q.CENTRAL or s in existing_remotes(g))
                    and (among == "any" or (among == "protected" and bool(g.zone(q.ice_zone(s))))
                         or (among in ("central", "remote") and (among == "central") == (s in q.CENTRAL))))
    if not servers:
        return log(g, "no_target", "no server to choose: nothing happens", "rule_do_as_much_as_you_can",
                   ctx.controller, card=ctx.source)
    return push(g, ChooseServerFrame(ctx, servers))


@dataclass(frozen=True)
class ChooseServerFrame(Frame):
    """The controller chooses a server the card remembers: `{target: [server]}`."""

    ctx: Ctx
    servers: tuple[str, ...]
    label = "choose a server"

    def step(self, g: Game) -> ChoicePoint:
        why = "rule_object_subroutine_targets"  # a server is chosen as the instruction resolves
        opts = tuple(Option(decision("target", [s]), f"choose {s}", why) for s in self.servers)
        return ChoicePoint(self.ctx.controller, "target", f"choose a server for {self.ctx.source}", why, opts, (),
                           default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        g = pop(g)
        server = str(option.decision.value[0])
        cid = self.ctx.source
        if cid not in g.cards:
            return g
        g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], chosen=server)))
        return log(g, "chosen", f"{cid}: {server} is the chosen server", "rule_object_subroutine_targets",
                   self.ctx.controller, how="chosen", card=cid)


def _drawn_this_turn(g: Game, side: Side, action: bool = False) -> int:
    return sum(1 for f in g.history if f.turn == g.turn and f.event.name == "drawn" and f.event.get("player") == side
               and (not action or f.event.get("action")))


def draw_action_count(g: Game, side: Side) -> int:
    """How many cards the basic action to draw draws: 1, unless a `draw_action` static replaces it."""
    from judgebook.engine.language.identities import DrawAction
    from judgebook.engine.rules.values import statics

    for effect, ctx in statics(g):
        if isinstance(effect, DrawAction) and ctx.side(effect.player) == side:
            if not effect.first_this_turn or _drawn_this_turn(g, side, action=True) == 0:
                return effect.draw
    return 1


def look_before_draw(g: Game, side: Side, n: int, action: bool) -> Game | None:
    """The first draw of the turn with a `look_before_draw` static active: the player looks at the top X cards
    and chooses which go to the bottom, then draws (a frame); None when no such static applies."""
    from judgebook.engine.language.identities import LookBeforeDraw
    from judgebook.engine.rules.values import statics

    if n <= 0 or _drawn_this_turn(g, side) > 0:
        return None
    for effect, ctx in statics(g):
        if isinstance(effect, LookBeforeDraw) and ctx.side(effect.player) == side:
            top = g.zone(f"{side}.deck")[: n + effect.extra]
            if not top:
                return None
            g = log(g, "look_at", f"the {side} looks at the top {len(top)} card(s) of their deck before drawing",
                    "rule_interrupt", side, card=ctx.source)
            return push(g, LookBeforeDrawFrame(ctx.source, side, n, action, top, min(effect.bottom, len(top))))
    return None


@dataclass(frozen=True)
class LookBeforeDrawFrame(Frame):
    """The cards looked at that go to the bottom of the deck (`{target: [cards]}`); then the draw happens."""

    source: str
    side: Side
    n: int
    action: bool
    top: tuple[str, ...]
    bottom: int
    label = "look before drawing"

    def step(self, g: Game) -> ChoicePoint:
        from itertools import combinations

        opts = tuple(Option(decision("target", list(c)), f"{', '.join(c)} to the bottom", "rule_interrupt")
                     for c in combinations(self.top, self.bottom))
        return ChoicePoint(self.side, "target", f"{self.source}: cards to the bottom of the deck", "rule_interrupt",
                           opts, (), default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.rules.effects import draw

        g = pop(g)
        for cid in (str(c) for c in option.decision.value):
            g = move(g, cid, f"{self.side}.deck")
            g = log(g, "moved", f"{cid} goes to the bottom of the {self.side}'s deck", "rule_interrupt", self.side,
                    how="chosen", card=self.source)
        return draw(g, self.side, self.n, action=self.action, looked=True)


def other_remotes(g: Game, ctx: Ctx) -> list[str]:
    """The existing remote servers other than the one the triggering event's card was installed in ("install 1 card
    … in the root of or protecting another remote server")."""
    here = ctx.event.get("server") if ctx.event is not None else None
    return [s for s in existing_remotes(g) if s != here]


@dataclass(frozen=True)
class FaceupChoice(Frame):
    """A card installed by an ability that its owner may install faceup: `{choose: 1}` facedown (the default),
    `{choose: 2}` faceup."""

    card: str
    label = "install faceup?"

    def step(self, g: Game) -> ChoicePoint:
        opts = (Option(decision("choose", 1), f"{self.card} stays facedown", "rule_rezzed_unrezzed"),
                Option(decision("choose", 2), f"{self.card} is installed faceup", "rule_rezzed_unrezzed"))
        return ChoicePoint("corp", "choose", f"install {self.card} faceup?", "rule_rezzed_unrezzed", opts, (),
                           default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        g = pop(g)
        if option.decision.value != 2 or self.card not in g.cards:
            return g
        g = evolve(g, cards=g.cards.set(self.card, replace(g.cards[self.card], faceup=True)))
        return log(g, "faceup", f"{self.card} is installed faceup", "rule_rezzed_unrezzed", "corp", how="chosen",
                   card=self.card)


def entered_score(g: Game, cid: str, before: str) -> Game:
    """A card just moved from `before` into a score area: its own `enters_score_area` replacement puts its counters
    on it as it arrives."""
    from judgebook.engine.language.identities import EntersScoreArea

    card = g.cards[cid]
    side: Side = "runner" if card.zone.startswith("runner.") else "corp"
    for ab in g.library.card(card.name).abilities:
        effect = ab.static
        if not isinstance(effect, EntersScoreArea) or effect.player != side:
            continue
        zone = "installed" if before.startswith(("corp.server.", "hosted.")) else before.split(".")[-1]
        if effect.not_from == zone:
            continue
        for kind, n in effect.counters:
            card = card.with_counter(kind, n)
        g = evolve(g, cards=g.cards.set(cid, card))
        g = log(g, "counters", f"{cid} is added to the {side}'s score area with "
                f"{', '.join(f'{n} {k}' for k, n in effect.counters)} counter(s)", "rule_interrupt", side, card=cid)
    return g
