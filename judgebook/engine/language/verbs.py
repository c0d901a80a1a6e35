"""Verbs cards use that move or rearrange cards: arrange, search, host, move, swap.

    {arrange: {top: 5, deck: corp}}                       "arrange them in any order" (Precognition)
    {search: {zone: deck, side: you, type: hardware}, then: [{add_to_hand: target}]}
    {host: <selector>, onto: <selector>}                    host a card onto another without installing it
    {move: <selector>, to: hand | deck_top | deck_bottom | discard | score}
    {swap: <selector of 2 installed cards>}  |  {swap: <selector of 1>, with: <a reference, or a selector of 1>}
    {move_to_root: self, server: another}                  move an installed upgrade to another server's root
    {move_to_root: self, server: chosen}                   ... to the root of the server the chosen card is in

Each is parsed, rendered and run here; the frames they push for their decisions (the order chosen,
the card found, the cards swapped) and their state changes are in `judgebook.engine.rules.verbs`.
Look at, reveal, expose, rez, derez, trash and install by selector are the instructions of
`instructions.py`; this module adds only what was missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgebook.engine.language.context import PLAYER_WORDS, Ctx
from judgebook.engine.language.grammar import agreeing
from judgebook.engine.language.instructions import (
    Instruction,
    Mods,
    instruction,
    parse_instructions,
    render_all,
)
from judgebook.engine.language.nodes import At, want_str
from judgebook.engine.language.selectors import InZone, Matching, OfSide, Selector, TopOfDeck, parse_selector
from judgebook.engine.state.model import Game

SEARCHABLE = ("deck", "hand", "discard")
DESTINATIONS = ("hand", "deck_top", "deck_bottom", "discard", "score", "removed")  # removed: from the game
SWAPPABLE = ("installed", "ice", "root", "rig")


@instruction("arrange", "by")
@dataclass(frozen=True)
class Arrange(Instruction):
    """Arrange the top cards of a deck in any order (rule_arrange_secretly): the player chooses the
    order, and every arranged card becomes a new object."""

    cards: TopOfDeck
    by: str = "you"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Arrange:
        sel = parse_selector(arg, at)
        if not isinstance(sel, TopOfDeck):
            # Arranging installed ice is a sequence of swaps (rule_arrange_ice): not implemented yet.
            at.fail("arrange takes the top cards of a deck ({top: N, deck: ...}); arranging installed "
                    "cards is not implemented")
        if sel.n > 6:
            at.fail("arranging more than 6 cards is not implemented (the orders are listed as options)")
        return cls(sel, want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you")

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import verbs

        return verbs.arrange(g, ctx, self)

    def render(self) -> str:
        said = "arrange" if self.by == "you" else agreeing(self.by, "arrange")
        return f"{said} {self.cards.render()} in any order"


@instruction("search", "by", "then")
@dataclass(frozen=True)
class Search(Instruction):
    """Search a zone for cards matching filters (rule_search): the player finds them (or, searching a
    deck with criteria, may find nothing: rule_fail_to_find), a searched deck is shuffled at once
    (rule_shuffle_deck_after_search), then `then` acts on the found cards as `target`. A search does
    not target (rule_searching_does_not_target), so the found cards are chosen by this instruction's
    own decision, not before it."""

    within: Matching
    zone: str
    then: tuple[Instruction, ...] = ()
    by: str = "you"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Search:
        sel = parse_selector(arg, at)
        if not isinstance(sel, Matching):
            at.fail("search takes filters: {zone: deck|hand|discard, side: ..., type: ..., count: N}")
        zones = [f.zone for f in sel.filters if isinstance(f, InZone)]
        if not zones or zones[0] not in SEARCHABLE:
            at.fail(f"search needs `zone`: one of {', '.join(SEARCHABLE)}")
        if not any(isinstance(f, OfSide) for f in sel.filters):
            at.fail("search needs `side` (whose zone is searched)")
        if sel.count is None:
            at.fail("search finds a number of cards: `count: N` or `count: {up_to: N}`, not all")
        then = parse_instructions(mods.get("then"), whole.key(mods, "then"))
        return cls(sel, zones[0], then, want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you")

    @property
    def criteria(self) -> bool:
        return any(not isinstance(f, InZone | OfSide) for f in self.within.filters)

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.within.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import verbs

        return verbs.search(g, ctx, self)

    def render(self) -> str:
        text = f"search for {self.within.render()}"
        return text + (f"; then {render_all(self.then)}" if self.then else "")


@instruction("host", "onto", "as_counter")
@dataclass(frozen=True)
class Host(Instruction):
    """Host a card on another (rule_host_without_install: a card that was not installed does not
    become installed by being hosted). `onto` names the host, or chooses it (`count: 1`: "host 1 installed trojan
    on a piece of ice protecting the attacked server"), once the hosted card is chosen. An installed card hosted on
    an installed card stays installed, the same object (rule_object_move_known_location).
    `as_counter: true` (with `host: self`): an operation or event converts itself into a condition counter and
    installs itself hosted on the card (rule_condition_counter, Oversight AI): hosted *and* installed."""

    on: Selector
    selector: Selector
    mods: Mods = field(default_factory=Mods)
    as_counter: bool = False

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Host:
        if "onto" not in mods:
            whole.fail(f"{cls.name} needs `onto` (the host card)")
        on = parse_selector(mods["onto"], whole.key(mods, "onto"))
        if on.chooses and on.count != 1:
            whole.key(mods, "onto").fail("`onto` names one card (self, target, host, ...) or chooses one (`count: 1`)")
        as_counter = mods.get("as_counter", False)
        if "as_counter" in mods and (as_counter is not True or arg != "self"):
            whole.key(mods, "as_counter").fail("`as_counter: true` goes with `host: self` (the card converting "
                                               "itself into a condition counter)")
        return cls(on, parse_selector(arg, at), as_counter=as_counter)

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx)) and bool(self.on.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import verbs

        return verbs.host(g, ctx, self)

    def render(self) -> str:
        if self.as_counter:
            return f"install {self.selector.render()} on {self.on.render()} as a hosted condition counter"
        return f"host {self.selector.render()} on {self.on.render()}"


@instruction("move", "to")
@dataclass(frozen=True)
class Move(Instruction):
    """Move cards to a zone of their owner's (hand, top or bottom of deck, discard) or to your score
    area; each becomes a new object (rule_object)."""

    to: str
    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Move:
        to = want_str(mods, "to", whole, None, DESTINATIONS)
        if to is None:
            whole.fail(f"move needs `to`: one of {', '.join(DESTINATIONS)}")
        return cls(to, parse_selector(arg, at))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import verbs

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        return verbs.move_cards(g, ctx, targets, self.to, self.who(ctx))

    def render(self) -> str:
        where = {"hand": "its owner's hand", "deck_top": "the top of its owner's deck",
                 "deck_bottom": "the bottom of its owner's deck", "discard": "its owner's discard pile",
                 "score": "your score area", "removed": "the removed-from-game zone"}[self.to]
        return f"move {self.selector.render()} to {where}"


@instruction("move_to_root", "server")
@dataclass(frozen=True)
class MoveToRoot(Instruction):
    """Move an installed upgrade to the root of another server ("you may move this upgrade to the root of
    another server"): the Corp chooses the server (`server: chosen`: the server of the card chosen earlier, "the
    server that piece of ice is protecting"); the card stays installed, rezzed or not, with its counters,
    the same object (rule_object_move_known_location)."""

    selector: Selector
    server: str = "another"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> MoveToRoot:
        server = want_str(mods, "server", whole, "another", ("another", "chosen")) or "another"
        return cls(parse_selector(arg, at), server)

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules import verbs

        return any(verbs.roots_to_move_to(g, cid) for cid in self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import verbs

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        if self.server == "chosen":  # the server the card chosen earlier is in ("that piece of ice is protecting")
            return verbs.move_to_root_of_chosen(g, ctx, targets[0]) if targets else g
        return verbs.move_to_root(g, ctx, targets[0]) if targets else g

    def render(self) -> str:
        if self.server == "chosen":
            return f"move {self.selector.render()} to the root of the server that card is in"
        return f"move {self.selector.render()} to the root of another server"


@instruction("swap", "with")
@dataclass(frozen=True)
class Swap(Instruction):
    """Swap two installed cards (rule_swap_installed_cards): each takes the other's place, both stay
    installed, keep their counters, hosted cards and rez state, and stay the same objects."""

    selector: Selector
    other: Selector | None = None
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Swap:
        sel = parse_selector(arg, at)
        other = parse_selector(mods["with"], whole.key(mods, "with")) if "with" in mods else None
        for s, where in ((sel, at), (other, whole.key(mods, "with") if other else at)):
            if isinstance(s, Matching):
                zones = [f.zone for f in s.filters if isinstance(f, InZone)]
                if zones and zones[0] not in SWAPPABLE:
                    where.fail("swapping cards between zones is not implemented: swap installed cards "
                               f"(zone: {', '.join(SWAPPABLE)})")
            if isinstance(s, TopOfDeck):
                where.fail("swapping cards in a deck is not implemented: swap installed cards")
        if other is None and sel.count != 2:
            at.fail("swap picks two cards (`count: 2`), or one card and `with:` the other")
        if other is not None and (sel.count != 1 or (other.chooses and other.count != 1)):
            whole.key(mods, "with").fail("with `with:`, the selector picks one card and `with` names the other "
                                         "(self, target, ...) or chooses it (`count: 1`)")
        return cls(sel, other)

    def possible(self, g: Game, ctx: Ctx) -> bool:
        need = 1 if self.other is not None else 2
        return len(self.selector.candidates(g, ctx)) >= need

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import verbs

        cards = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))[:2]
        if self.other is not None and self.other.chooses:
            # "Swap 1 piece of ice protecting that server with another installed piece of ice": the second is
            # chosen once the first is, among the other cards that match.
            others = tuple(c for c in self.other.candidates(g, ctx) if c not in cards[:1])
            return verbs.choose_swap_partner(g, ctx, tuple(cards[:1]), others)
        if self.other is not None:
            cards = tuple(cards[:1]) + tuple(self.other.candidates(g, ctx)[:1])
        return verbs.swap(g, ctx, cards)

    def render(self) -> str:
        if self.other is not None:
            return f"swap {self.selector.render()} with {self.other.render()}"
        return f"swap {self.selector.render()}"
