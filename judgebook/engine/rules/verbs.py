"""The verbs of `language/verbs.py` carried out: their decisions (frames) and state changes.

A decision is a frame whose `step` returns the ChoicePoint and whose `choose` applies the option; the
options are spelled as scenario decisions: `{target: [cards, in order]}` for an arrangement (top
first), `{target: [found cards]}` (or `[]`) for a search, and the target decision of the instruction
itself for the cards swapped or hosted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations, permutations
from typing import TYPE_CHECKING

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.effects import move
from judgebook.engine.rules.frames import Frame, event, log, path, pop, push
from judgebook.engine.rules.resolve import resolve_now
from judgebook.engine.rules.triggers import emit
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, Refused, decision
from judgebook.engine.state.fmap import FMap
from judgebook.engine.state.model import Game, Side

if TYPE_CHECKING:
    from judgebook.engine.language.verbs import Arrange, Search

MAX_OPTIONS = 720                        # every order of 6 cards


def _set_zone(g: Game, zone: str, cards: tuple[str, ...]) -> Game:
    return replace(g, zones=g.zones.set(zone, cards))


# --- arrange ------------------------------------------------------------------------------------


def arrange(g: Game, ctx: Ctx, instr: Arrange) -> Game:
    cards = tuple(instr.cards.candidates(g, ctx))
    chooser = ctx.side(instr.by)
    if len(cards) <= 1:
        return log(g, "arrange_nothing", f"{len(cards)} card(s) to arrange: nothing happens",
                   "rule_arrange_1_or_fewer", chooser, card=ctx.source)
    return push(g, ArrangeFrame(ctx.source, chooser, f"{ctx.side(instr.cards.deck)}.deck", cards))


@dataclass(frozen=True)
class ArrangeFrame(Frame):
    source: str
    chooser: Side
    deck: str
    cards: tuple[str, ...]

    def step(self, g: Game) -> Game | ChoicePoint:
        orders = list(permutations(self.cards))[:MAX_OPTIONS]
        return ChoicePoint(self.chooser, "arrange", f"arrange {len(self.cards)} cards (top first)",
                           "rule_arrange_secretly",
                           tuple(Option(decision("target", list(o)), ", ".join(o), "rule_arrange_secretly")
                                 for o in orders), default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        order = tuple(str(c) for c in option.decision.value)
        g = pop(g)
        rest = tuple(c for c in g.zone(self.deck) if c not in self.cards)
        g = _set_zone(g, self.deck, order + rest)
        # Every arranged card is a new object, even one back in the same place (rule_arrange_secretly).
        cards = g.cards
        for cid in order:
            cards = cards.set(cid, replace(cards[cid], incarnation=cards[cid].incarnation + 1, counters=FMap()))
        g = replace(g, cards=cards)
        return log(g, "arrange", f"the {self.chooser} arranges {len(order)} cards", "rule_arrange_secretly",
                   self.chooser, how="chosen", card=self.source,
                   changes=(f"{self.deck} top: {', '.join(order)}",))


# --- search -------------------------------------------------------------------------------------


def search(g: Game, ctx: Ctx, instr: Search) -> Game:
    return push(g, SearchFrame(ctx, instr))


@dataclass(frozen=True)
class SearchFrame(Frame):
    ctx: Ctx
    instr: Search

    def step(self, g: Game) -> Game | ChoicePoint:
        found = self.instr.within.candidates(g, self.ctx)
        n = min(self.instr.within.count or 1, len(found))
        sizes = range(0, n + 1) if self.instr.within.up_to else [n]
        picks: list[tuple[str, ...]] = []
        for size in sizes:
            picks += list(combinations(found, size))
        opts = [Option(decision("target", list(p)), ", ".join(p) or "find nothing",
                       "rule_valid_search_target_criteria" if p else "rule_fail_to_find") for p in picks]
        if self.instr.zone == "deck" and self.instr.criteria and () not in picks:
            # Searching a deck with criteria, a player may fail to find (rule_fail_to_find).
            opts.append(Option(decision("target", []), "find nothing", "rule_fail_to_find"))
        chooser = self.ctx.side(self.instr.by)
        return ChoicePoint(chooser, "search", f"search: {self.instr.within.render()}", "rule_search",
                           tuple(opts), default=0, default_reason="default", path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        found = tuple(str(c) for c in option.decision.value or ())
        chooser = self.ctx.side(self.instr.by)
        g = pop(g)
        g = log(g, "search", f"the {chooser} searches and finds {', '.join(found) or 'nothing'}", "rule_find",
                chooser, how="chosen", card=self.ctx.source)
        if self.instr.zone == "deck":
            for side in _searched_sides(g, self.ctx, self.instr):
                g = log(g, "shuffle", f"the {side}'s deck is shuffled after the search",
                        "rule_shuffle_deck_after_search", side)
        if not found:
            g = log(g, "found_nothing", "no card found: effects on found cards do nothing",
                    "rule_continue_after_search", chooser, card=self.ctx.source)
        if not self.instr.then:
            return g
        ctx = replace(self.ctx, targets=(), chosen=found)
        return resolve_now(g, ctx, self.instr.then, "rule_continue_after_search")


def _searched_sides(g: Game, ctx: Ctx, instr: Search) -> list[Side]:
    from judgebook.engine.language.selectors import OfSide

    sides = [ctx.side(f.who) for f in instr.within.filters if isinstance(f, OfSide)]
    return sides or ["corp", "runner"]


# --- host, move, swap ---------------------------------------------------------------------------


def host(g: Game, ctx: Ctx, instr: object) -> Game:
    from judgebook.engine.language.verbs import Host

    assert isinstance(instr, Host)
    targets = ctx.targets if instr.selector.chooses else tuple(instr.selector.candidates(g, ctx))
    hosts = [h for h in instr.on.candidates(g, ctx) if h not in targets]
    if not hosts or not targets:
        return log(g, "no_target", "no card to host on", "rule_valid_hosts", ctx.controller, card=ctx.source)
    if instr.on.chooses and len(hosts) > 1:
        return push(g, ChooseHost(ctx, tuple(targets), tuple(hosts), as_counter=instr.as_counter))
    return host_on(g, ctx, tuple(targets), hosts[0], instr.as_counter)


@dataclass(frozen=True)
class ChooseHost(Frame):
    """The card the chosen cards are hosted on: `{target: [card]}`."""

    ctx: Ctx
    cards: tuple[str, ...]
    hosts: tuple[str, ...]
    install: bool = False  # installed on the host, paying the cost (`install_hosted`), not only hosted
    as_counter: bool = False  # installed as a hosted condition counter (`host: self, as_counter: true`)

    def step(self, g: Game) -> ChoicePoint:
        verb = "install" if self.install else "host"
        opts = tuple(Option(decision("target", [h]), f"{verb} {', '.join(self.cards)} on {h}", "rule_valid_hosts")
                     for h in self.hosts)
        return ChoicePoint(self.ctx.controller, "target", f"choose the card to {verb} {', '.join(self.cards)} on",
                           "rule_valid_hosts", opts, (), default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        on = str(option.decision.value[0])
        if self.install:
            from judgebook.engine.rules.movement import install_on

            return install_on(pop(g), self.ctx, self.cards[0], on)
        return host_on(pop(g), self.ctx, self.cards, on, self.as_counter)


def host_on(g: Game, ctx: Ctx, targets: tuple[str, ...], on: str, as_counter: bool = False) -> Game:
    for cid in targets:
        if cid == on or cid not in g.cards:
            continue
        # An installed Corp card hosted on a Runner card becomes uninstalled (rule_host_corp_card_uninstall).
        uninstalls = g.cards[cid].owner == "corp" and g.cards[on].owner == "runner" and q.is_installed(g, cid)
        origin = q.from_zone(g, cid)
        if q.is_installed(g, cid) and q.is_installed(g, on) and not uninstalls:
            # Moved from one place in play to another: still installed, the same object.
            before = g.cards[cid].zone
            zones = dict(g.zones)
            zones[before] = tuple(c for c in zones[before] if c != cid)
            zones[f"hosted.{on}"] = tuple(zones.get(f"hosted.{on}", ())) + (cid,)
            g = replace(g, zones=FMap(zones), cards=g.cards.set(cid, replace(g.cards[cid], zone=f"hosted.{on}")))
            hosted_only = False
        else:
            # A card that was not installed stays uninstalled (rule_host_without_install), and an installed Corp
            # card hosted on a Runner card becomes uninstalled: a new object; unless it installs itself as a
            # condition counter (rule_condition_counter).
            g = move(g, cid, f"hosted.{on}")
            hosted_only = not as_counter
        g = replace(g, cards=g.cards.set(cid, replace(g.cards[cid], host=on, hosted_only=hosted_only)))
        if as_counter:
            g = emit(g, event("installed", card=cid, type=q.definition(g, cid).type, player=ctx.controller,
                              server=q.server_of(g, cid), from_hand=False, from_zone=origin),
                     f"{cid} is installed on {on} as a hosted condition counter", "rule_condition_counter",
                     ctx.controller)
            continue
        # An installed card moved onto another stays installed (rule_change_hosted: an ability hosts it anew).
        rule = "rule_host_corp_card_uninstall" if uninstalls else \
            "rule_host_without_install" if hosted_only else "rule_change_hosted"
        g = emit(g, event("hosted", card=cid, host=on, player=ctx.controller), f"{cid} is hosted on {on}", rule,
                 ctx.controller)
    return g


def move_cards(g: Game, ctx: Ctx, targets: tuple[str, ...], to: str, side: Side) -> Game:
    for cid in targets:
        if cid not in g.cards:
            continue
        owner = g.cards[cid].owner
        zone, index, where = {
            "hand": (f"{owner}.hand", None, "hand"),
            "deck_top": (f"{owner}.deck", 0, "top of deck"),
            "deck_bottom": (f"{owner}.deck", None, "bottom of deck"),
            "discard": (f"{owner}.discard", None, "discard pile"),
            "score": (f"{side}.score", None, "score area"),
            "removed": (f"{owner}.removed", None, "removed-from-game zone"),  # inactive for good
        }[to]
        before = q.zone_name(g.cards[cid])
        g = move(g, cid, zone, index)
        g = log(g, "moved", f"{cid} moves from {before} to the {owner if to != 'score' else side}'s {where}",
                "rule_object", ctx.controller, card=cid, changes=(f"{cid}: {before} → {zone}",))
    return g


def roots_to_move_to(g: Game, cid: str) -> list[str]:
    """The servers whose root an installed Corp card may move to: any other existing server that its
    "... server only" allows (rule_x_server_only) and, for a region, that holds no region (rule_region_swap)."""
    from judgebook.engine.language.statics import server_only_refuses

    here = q.server_of(g, cid)
    if here is None or not q.is_installed(g, cid):
        return []
    d = q.definition(g, cid)
    region = "region" in d.subtypes
    return [s for s in g.servers if s != here and not server_only_refuses(d, s)
            and not (region and any("region" in q.definition(g, c).subtypes for c in g.zone(q.root_zone(s))))]


def move_to_root(g: Game, ctx: Ctx, cid: str) -> Game:
    servers = roots_to_move_to(g, cid)
    if not servers:
        return log(g, "no_move", f"{cid} has no other server to move to: nothing happens",
                   "rule_install_to_invalid_destination", ctx.controller, card=cid)
    return push(g, ChooseRoot(ctx, cid, tuple(servers)))


@dataclass(frozen=True)
class ChooseRoot(Frame):
    """The Corp chooses the server whose root the card moves to: `{target: [server]}`."""

    ctx: Ctx
    card: str
    servers: tuple[str, ...]
    label = "move to another server"

    def step(self, g: Game) -> ChoicePoint:
        opts = tuple(Option(decision("target", [s]), f"move {self.card} to the root of {s}",
                            "rule_object_move_known_location") for s in self.servers)
        return ChoicePoint(self.ctx.controller, "target", f"choose the server {self.card} moves to",
                           "rule_object_move_known_location", opts, (), default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        return _to_root(pop(g), self.ctx, self.card, str(option.decision.value[0]))


def _to_root(g: Game, ctx: Ctx, card: str, server: str) -> Game:
    before = g.cards[card].zone
    zone = q.root_zone(server)
    zones = dict(g.zones)
    zones[before] = tuple(c for c in zones[before] if c != card)
    zones[zone] = tuple(zones.get(zone, ())) + (card,)
    # The same object (rule_object_move_known_location): rez state, counters and hosted cards stay.
    g = replace(g, zones=FMap(zones), cards=g.cards.set(card, replace(g.cards[card], zone=zone)))
    return emit(g, event("moved_to_root", card=card, server=server, player=ctx.controller),
                f"{card} moves to the root of {server}", "rule_object_move_known_location", ctx.controller)


def move_to_root_of_chosen(g: Game, ctx: Ctx, cid: str) -> Game:
    """To the root of the server the card chosen earlier is in (Mercia B4LL4RD: the ice just installed)."""
    server = q.server_of(g, ctx.chosen[0]) if ctx.chosen and ctx.chosen[0] in g.cards else None
    if server is None or server not in roots_to_move_to(g, cid):
        return log(g, "no_move", f"{cid} cannot move to the root of that server: nothing happens",
                   "rule_install_to_invalid_destination", ctx.controller, card=cid)
    return _to_root(g, ctx, cid, server)


def choose_swap_partner(g: Game, ctx: Ctx, first: tuple[str, ...], others: tuple[str, ...]) -> Game:
    if not first or not others:
        return log(g, "no_swap", "no two installed cards to swap: nothing happens", "rule_swap_only_to_valid_location",
                   ctx.controller, card=ctx.source)
    return push(g, ChooseSwapWith(ctx, first[0], others))


@dataclass(frozen=True)
class ChooseSwapWith(Frame):
    """The second card of a swap, chosen once the first is: `{target: [card]}`."""

    ctx: Ctx
    first: str
    others: tuple[str, ...]

    def step(self, g: Game) -> ChoicePoint:
        opts = tuple(Option(decision("target", [c]), f"swap {self.first} with {c}", "rule_swap_installed_cards")
                     for c in self.others)
        return ChoicePoint(self.ctx.controller, "target", f"choose the card to swap with {self.first}",
                           "rule_swap_installed_cards", opts, (), default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        return swap(pop(g), self.ctx, (self.first, str(option.decision.value[0])))


def swap(g: Game, ctx: Ctx, cards: tuple[str, ...]) -> Game:
    if len(cards) != 2 or cards[0] == cards[1] or not all(c in g.cards and q.is_installed(g, c) for c in cards):
        return log(g, "no_swap", "no two installed cards to swap: nothing happens", "rule_swap_only_to_valid_location",
                   ctx.controller, card=ctx.source)
    a, b = cards
    za, zb = g.cards[a].zone, g.cards[b].zone
    zones = dict(g.zones)
    la, lb = list(zones[za]), list(zones[zb])
    ia, ib = la.index(a), lb.index(b)
    if za == zb:
        la[ia], la[ib] = b, a
        zones[za] = tuple(la)
    else:
        la[ia], lb[ib] = b, a
        zones[za], zones[zb] = tuple(la), tuple(lb)
    card_a, card_b = g.cards[a], g.cards[b]
    # Both stay installed and stay the same objects (rule_swap_installed_cards); hosted cards and counters
    # keep their hosts (rule_swap_installed_cards_preserves_hosting).
    cards_map = g.cards.set(a, replace(card_a, zone=zb)).set(b, replace(card_b, zone=za))
    g = replace(g, zones=FMap(zones), cards=cards_map)
    return emit(g, event("swapped", card=a, other=b, player=ctx.controller),
                f"{a} and {b} swap places", "rule_swap_installed_cards", ctx.controller)


# --- sabotage, remove from the game ----------------------------------------------------------


def sabotage(g: Game, ctx: Ctx, n: int) -> Game:
    return push(g, SabotageFrame(ctx.source, n)) if n > 0 else g


@dataclass(frozen=True)
class SabotageFrame(Frame):
    """The Corp chooses the cards trashed from HQ; the rest come from the top of R&D (rule_sabotage_resolution).
    With too few cards in R&D it must take enough from HQ (rule_sabotage_hq_first); with too few in both, all
    go (rule_sabotage_all_remaining_cards)."""

    source: str
    n: int

    def step(self, g: Game) -> Game | ChoicePoint:
        hq, rnd = g.zone("corp.hand"), g.zone("corp.deck")
        low, high = max(0, self.n - len(rnd)), min(self.n, len(hq))
        picks = [p for k in range(low, high + 1) for p in combinations(hq, k)][:MAX_OPTIONS]
        if not picks:  # fewer than N cards in HQ and R&D: every card goes
            picks = [tuple(hq)]
        why = "rule_sabotage_all_remaining_cards" if len(hq) + len(rnd) <= self.n else "rule_sabotage_resolution"
        opts = tuple(
            Option(decision("target", list(p)), f"trash {', '.join(p) or 'nothing'} from HQ and "
                   f"{min(self.n - len(p), len(rnd))} from the top of R&D", why)
            for p in picks
        )
        # Too few from HQ would leave more to trash from R&D than it holds (rule_sabotage_hq_first).
        short = [p for k in range(0, min(low, len(hq) + 1)) for p in combinations(hq, k)][:MAX_OPTIONS]
        refused = tuple(Refused(decision("target", list(p)), f"trash {', '.join(p) or 'nothing'} from HQ",
                                "rule_sabotage_hq_first", f"R&D holds only {len(rnd)} card(s)") for p in short)
        return ChoicePoint("corp", "target", f"sabotage {self.n}", "rule_sabotage", opts, refused, default=0,
                           path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.rules.effects import trash

        g = pop(g)
        from_hq = tuple(str(c) for c in option.decision.value or ())
        from_rnd = g.zone("corp.deck")[: max(0, self.n - len(from_hq))]
        g = log(g, "sabotage", f"the Corp trashes {len(from_hq)} card(s) from HQ and {len(from_rnd)} from R&D",
                "rule_sabotage_resolution", "corp", how="chosen", card=self.source)
        for cid in from_hq + from_rnd:  # all at once, facedown (rule_sabotage_facedown)
            g = trash(g, cid, "corp")
            g = replace(g, cards=g.cards.set(cid, replace(g.cards[cid], faceup=False)))
        return log(g, "facedown", "the sabotaged cards enter Archives facedown", "rule_sabotage_facedown", "corp")


def remove_from_game(g: Game, ctx: Ctx, targets: tuple[str, ...]) -> Game:
    from judgebook.engine.rules.effects import remove_from_game as remove_one

    for cid in targets:
        if cid in g.cards:
            g = remove_one(g, cid, ctx.controller)
    return g
