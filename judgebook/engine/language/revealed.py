"""Cards remembered as a set: revealed or set-aside cards, a trashed card as a reference, a card type or name chosen.

Constructs of the card language added for the Standard pool (round 3, family `reveal`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from judgebook.engine.language.context import Ctx, player_phrase
from judgebook.engine.language.events import EVENT_FILTERS, EventFilter
from judgebook.engine.language.grammar import possessive
from judgebook.engine.language.instructions import Instruction, Mods, instruction, parse_instructions, render_all
from judgebook.engine.language.nodes import At, check_keys
from judgebook.engine.language.quantities import QUANTITIES, Quantity, parse_quantity
from judgebook.engine.language.selectors import (
    FILTERS,
    Filter,
    InZone,
    Matching,
    Selector,
    _flag_filter,
    parse_selector,
)
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game, GameEvent


@instruction("do_times")
@dataclass(frozen=True, eq=False)
class DoTimes(Instruction):
    """{do_times: {times: QUANTITY, do: [...]}}: "for each agenda revealed this way, you may place 1 advancement
    counter on an installed card". The quantity is read once, as the instruction resolves; the instructions
    then resolve that many times, each time choosing afresh (unlike `for_each`, whose body acts on each card).
    The cards chosen earlier in the ability stay `chosen` for the quantity."""

    times: Quantity
    body: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> DoTimes:
        check_keys(arg, ("times", "do"), at)
        if not isinstance(arg, dict) or "times" not in arg or "do" not in arg:
            at.fail("do_times needs `times` (a quantity) and `do` (instructions)")
        return cls(parse_quantity(arg["times"], at.key(arg, "times")), parse_instructions(arg["do"], at.key(arg, "do")))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.resolve import resolve_now

        n = self.times.value(g, ctx)
        if n <= 0 or not self.body:
            return g
        return resolve_now(g, replace(ctx, targets=()), self.body * n, "rule_checkpoint_after_instruction_resolution")

    def render(self) -> str:
        return f"for each of {self.times.render()}: {render_all(self.body)}"


@instruction("with_trashed", "then")
@dataclass(frozen=True, eq=False)
class WithTrashed(Instruction):
    """{with_trashed: [instructions], then: [...]}: "do 1 net damage. If you trash a card this way with ...":
    the instructions resolve, then `then` resolves with the cards they trashed (by damage or by trashing) as
    `chosen` (none: `chosen` is empty, so `{exists: {zone: any, is: chosen}}` is false)."""

    body: tuple[Instruction, ...]
    then: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> WithTrashed:
        body = parse_instructions(arg, at)
        if not body or "then" not in mods:
            whole.fail("with_trashed is a list of instructions, with `then`: what is done with the cards they trash")
        return cls(body, parse_instructions(mods["then"], whole.key(mods, "then")))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import revealed

        return revealed.with_trashed(g, ctx, self.body, self.then)

    def render(self) -> str:
        return f"{render_all(self.body)}; with the cards trashed this way: {render_all(self.then)}"


def _odd_printed_cost(g: Game, ctx: Ctx, cid: str) -> bool:
    """A printed play or install cost that is an odd number (0 is not odd; a card with neither, an agenda or an
    identity, has none, so it is not odd)."""
    d = q.definition(g, cid)
    cost = d.cost if d.type in ("program", "hardware", "resource", "event", "operation") else None
    return cost is not None and cost % 2 == 1


_flag_filter("odd_printed_cost", _odd_printed_cost, "with an odd printed play or install cost")


# --- choosing a card type -------------------------------------------------------------------------

CARD_TYPES = ("agenda", "asset", "upgrade", "ice", "operation", "event", "program", "hardware", "resource")
CHOSEN_TYPE = "chosen_type"  # the placeholder `then` names the chosen type with, wherever a type is written


def _put_type(node: Any, kind: Any, placeholder: str = CHOSEN_TYPE) -> Any:
    """The YAML of `then` with the chosen value written in for the placeholder (rebuilt as plain mappings and
    lists only where they hold it: an error inside names the nearest line still known)."""
    if node == placeholder:
        return kind
    if isinstance(node, dict) and _holds(node, placeholder):
        return {k: _put_type(v, kind, placeholder) for k, v in node.items()}
    if isinstance(node, list) and _holds(node, placeholder):
        return [_put_type(v, kind, placeholder) for v in node]
    return node


def _holds(node: Any, placeholder: str = CHOSEN_TYPE) -> bool:
    if node == placeholder:
        return True
    if isinstance(node, dict):
        return any(_holds(v, placeholder) for v in node.values())
    if isinstance(node, list):
        return any(_holds(v, placeholder) for v in node)
    return False


@dataclass(frozen=True, eq=False)
class _Then(Instruction):
    """The instructions of one chosen type, resolved together (not a construct of the language: never parsed)."""

    body: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.resolve import resolve_now

        return resolve_now(g, ctx, self.body, "rule_choice_instruction")

    def render(self) -> str:
        return render_all(self.body)


@instruction("choose_type", "then", "by")
@dataclass(frozen=True, eq=False)
class ChooseType(Instruction):
    """{choose_type: any | [types], then: [...]}: "choose a card type", then `then` with that type wherever it
    writes `chosen_type` (a `type:` filter of a selector or of an event, a lasting ability's condition, …).
    The chooser picks one of the types (decision `{choose: N}`, N the 1-based place of the type in
    `types`): each type's `then` is read when the card is, so a lasting ability created by it keeps the type
    for its duration. `any` is every card type a card in play or in a zone can have; an identity is never
    revealed, trashed or damaged, so choosing it is choosing no card."""

    types: tuple[str, ...]
    branches: tuple[tuple[Instruction, ...], ...]
    by: str = "you"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseType:
        from judgebook.engine.language.context import PLAYER_WORDS
        from judgebook.engine.language.nodes import want_str

        types = CARD_TYPES if arg == "any" else arg
        if not isinstance(types, list | tuple) or len(types) < 2 or not all(t in CARD_TYPES for t in types):
            at.fail(f"choose_type is `any` or a list of at least 2 card types: {', '.join(CARD_TYPES)}")
        if "then" not in mods or not _holds(mods["then"]):
            whole.fail(f"choose_type needs `then`, naming the chosen type `{CHOSEN_TYPE}` somewhere")
        where = whole.key(mods, "then")
        branches = tuple(parse_instructions(_put_type(mods["then"], t), where) for t in types)
        return cls(tuple(types), branches, want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you")

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.language.instructions import ChooseOne
        from judgebook.engine.rules.resolve import push_choose

        # Any type can be chosen, even one no card of which is then found (rule_choice_instruction asks only
        # that the choice be possible: naming a type always is).
        options = tuple((_Then(branch),) for branch in self.branches)
        return push_choose(g, ctx, ChooseOne(options, self.by))

    def render(self) -> str:
        a, b = self.types[0], self.types[1]
        first = re.sub(rf"\b{a}\b", "the chosen type", render_all(self.branches[0]))
        second = re.sub(rf"\b{b}\b", "the chosen type", render_all(self.branches[1]))
        said = "choose" if self.by == "you" else f"{player_phrase(self.by)} chooses"
        then = first if first == second else render_all(self.branches[0])  # a type word of its own: plainly
        among = "" if self.types == CARD_TYPES else f" ({', '.join(self.types[:-1])} or {self.types[-1]})"
        return f"{said} a card type{among}; then {then}"


@EVENT_FILTERS.register("by_subroutine")
@dataclass(frozen=True, eq=False)
class BySubroutine(EventFilter):
    """{by_subroutine: self}: the event happened as a subroutine on this ice resolved during its encounter
    ("with net damage from a subroutine on this ice"), not as another ability (a reaction to it, a delayed
    ability) resolved. Read from the timing structures in progress as the event happens."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> BySubroutine:
        if arg != "self":
            at.fail("by_subroutine is self (this ice)")
        return cls()

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        from judgebook.engine.rules import revealed

        return revealed.by_subroutine(g, ctx.source)

    def render(self) -> str:
        return "from a subroutine on this ice"


def _event_cards(g: Game, ctx: Ctx, cid: str) -> bool:
    return ctx.event is not None and cid in (ctx.event.get("cards") or ())


# "1 revealed card": among the cards of the triggering event (a `revealed` trigger's revealed cards)
_flag_filter("event_cards", _event_cards, "among those cards")


@FILTERS.register("same_type_as")
@dataclass(frozen=True, eq=False)
class SameTypeAs(Filter):
    """{same_type_as: chosen}: a card of the same card type as the card a reference names ("search your stack
    for 1 card of the same type" as the trashed card); the named card is read wherever it is now."""

    ref: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> SameTypeAs:
        if not isinstance(arg, str):
            at.fail("same_type_as is a card reference (chosen, target, event_card, ...)")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        from judgebook.engine.language.selectors import resolve_ref

        types = {q.definition(g, c).type for c in resolve_ref(g, ctx, self.ref) if c in g.cards}
        return q.definition(g, cid).type in types

    def render(self) -> str:
        from judgebook.engine.language.selectors import Ref

        return f"of the same type as {Ref(self.ref).render()}"


# --- the set-aside zone ---------------------------------------------------------------------------


@instruction("set_aside")
@dataclass(frozen=True, eq=False)
class SetAside(Instruction):
    """{set_aside: {top: 6, deck: you}} (or any selector): the cards move to the set-aside zone, faceup
    (rule_set_aside, rule_set_aside_default_faceup); `{zone: set_aside, ...}` selects them there."""

    selector: Selector
    mods: Mods = field(default_factory=Mods)

    top: Quantity | None = None  # `{top: QUANTITY, deck: corp}`: "the top X cards", X known as it resolves
    deck: str = "you"

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> SetAside:
        if isinstance(arg, dict) and "top" in arg and not isinstance(arg["top"], int):
            check_keys(arg, ("top", "deck"), at)
            deck = arg.get("deck", "you")
            from judgebook.engine.language.context import PLAYER_WORDS

            if deck not in PLAYER_WORDS:
                at.key(arg, "deck").fail(f"deck is one of: {', '.join(PLAYER_WORDS)}")
            return cls(parse_selector("self", at), top=parse_quantity(arg["top"], at.key(arg, "top")), deck=str(deck))
        return cls(parse_selector(arg, at))

    def cards(self, g: Game, ctx: Ctx) -> tuple[str, ...]:
        if self.top is not None:
            return g.zone(f"{ctx.side(self.deck)}.deck")[: max(0, self.top.value(g, ctx))]
        return tuple(self.selector.candidates(g, ctx))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.cards(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import revealed

        targets = ctx.targets if self.selector.chooses and self.top is None else self.cards(g, ctx)
        return revealed.set_aside(g, ctx, targets)

    def render(self) -> str:
        if self.top is not None:
            return f"set aside the top {self.top.render()} cards of {possessive(self.deck)} deck faceup"
        return f"set aside {self.selector.render()} faceup"


@instruction("set_aside_until")
@dataclass(frozen=True, eq=False)
class SetAsideUntil(Instruction):
    """{set_aside_until: {deck: you, type: program, count: 1}}: "set aside cards from the top of your stack
    faceup until you set aside a program": one card at a time from the top of the deck, until `count` cards
    matching the filters are set aside or the deck is empty."""

    deck: str
    filters: tuple[Filter, ...]
    count: int
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> SetAsideUntil:
        from judgebook.engine.language.context import PLAYER_WORDS

        if not isinstance(arg, dict) or arg.get("deck") not in PLAYER_WORDS:
            at.fail("set_aside_until needs `deck` (you, opponent, corp, runner), filters and `count: N`")
        count = arg.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            at.key(arg, "count").fail("count is a number of matching cards (1 or more)")
        rest = {k: v for k, v in arg.items() if k not in ("deck", "count")}
        if not rest:
            at.fail("set_aside_until needs the filters of the cards it stops at (type: program, ...)")
        sel = parse_selector({**rest, "count": "all"}, at)
        if not isinstance(sel, Matching) or any(isinstance(f, InZone) for f in sel.filters):
            at.fail("set_aside_until takes filters of a card (not `zone`: the cards come from the top of the deck)")
        return cls(str(arg["deck"]), sel.filters, count)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import revealed

        return revealed.set_aside_until(g, ctx, ctx.side(self.deck), self.filters, self.count)

    def render(self) -> str:
        what = Matching(self.filters, self.count).render()
        return f"set aside cards from the top of {possessive(self.deck)} deck faceup until you set aside {what}"


@FILTERS.register("any_of")
@dataclass(frozen=True, eq=False)
class AnyOf(Filter):
    """{any_of: [{type: program}, {type: resource, subtype: virtual}]}: a card matching all the filters of one
    of the alternatives ("1 program or virtual resource")."""

    alternatives: tuple[tuple[Filter, ...], ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> AnyOf:
        if not isinstance(arg, list) or len(arg) < 2 or not all(isinstance(a, dict) and a for a in arg):
            at.fail("any_of is a list of at least 2 mappings of filters")
        alts = []
        for i, alt in enumerate(arg):
            if "count" in alt or "zone" in alt:
                at.key(arg, i).fail("an alternative of any_of holds filters only (no count, no zone)")
            sel = parse_selector(alt, at.key(arg, i))
            assert isinstance(sel, Matching)
            alts.append(sel.filters)
        return cls(tuple(alts))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return any(all(f.matches(g, ctx, cid) for f in alt) for alt in self.alternatives)

    def render(self) -> str:
        return "either " + " or ".join(" ".join(f.render() for f in alt) for alt in self.alternatives)


# --- cards trashed together -----------------------------------------------------------------------


def _together(g: Game, event: GameEvent) -> list[GameEvent]:
    """The events of the same kind that happened together with `event`: the unbroken run of such facts around
    its last place in this turn's history (one instruction's trashes follow each other with nothing between;
    the next instruction's begin with its imminent `would_…` event, damage's end with the `damage` event)."""
    from judgebook.engine.rules.memory import ADDED_TO_ARCHIVES

    # A move's own silent records (the card entered Archives, it was uninstalled) sit between the events of one
    # instruction's moves: they do not break the run.
    facts = [f.event for f in g.history if f.event.name not in (ADDED_TO_ARCHIVES, "uninstalled")]
    at = max((i for i, e in enumerate(facts) if e == event), default=-1)
    if at < 0:
        return [event]
    lo, hi = at, at
    while lo > 0 and facts[lo - 1].name == event.name:
        lo -= 1
    while hi + 1 < len(facts) and facts[hi + 1].name == event.name:
        hi += 1
    return facts[lo : hi + 1]


@EVENT_FILTERS.register("together")
@dataclass(frozen=True, eq=False)
class FirstTogether(EventFilter):
    """{together: true}: "whenever you trash 1 or more cards": only the first of the events that happened
    together (one instruction's cards) and pass the trigger's other filters makes the ability pending.
    {together: turn}: "the first time each turn 1 or more cards are trashed": only the first such event of the
    turn's first such group."""

    scope: str = "each"

    @classmethod
    def parse(cls, arg: Any, at: At) -> FirstTogether:
        if arg not in (True, "turn"):
            at.fail("together is true (each group of events) or turn (the first group of the turn)")
        return cls("turn" if arg == "turn" else "each")

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return self.first_among(g, ctx, event, ())

    def first_among(self, g: Game, ctx: Ctx, event: GameEvent, others: tuple[EventFilter, ...]) -> bool:
        def passes(e: GameEvent) -> bool:
            return all(o.matches(g, ctx, e) for o in others)

        if not passes(event):
            return False
        if self.scope == "turn":
            first = next((i for i, f in enumerate(g.history) if f.turn == g.turn and f.event.name == event.name
                          and passes(f.event)), None)
            return first is None or first == len(g.history) - 1
        batch = _together(g, event)
        before = batch[: batch.index(event)] if event in batch else []
        return not any(passes(e) for e in before)

    def render(self) -> str:
        return "the first time each turn, 1 or more at once" if self.scope == "turn" else "1 or more at once"


@FILTERS.register("trashed_together")
@dataclass(frozen=True, eq=False)
class TrashedTogether(Filter):
    """{trashed_together: [hand, deck]}: "1 of those cards": among the cards trashed together with the
    triggering `trashed` event (one instruction's cards) from the zones listed."""

    zones: tuple[str, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> TrashedTogether:
        from judgebook.engine.language.events import FROM_ZONES

        vals = arg if isinstance(arg, list) else [arg]
        if not vals or not all(v in FROM_ZONES for v in vals):
            at.fail(f"trashed_together is one or a list of: {', '.join(FROM_ZONES)}")
        return cls(tuple(vals))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        if ctx.event is None or ctx.event.name != "trashed":
            return False
        return any(e.get("card") == cid and e.get("from_zone") in self.zones for e in _together(g, ctx.event))

    def render(self) -> str:
        return "among the cards trashed together from " + " or ".join(self.zones)


# --- the breach in progress -----------------------------------------------------------------------


@QUANTITIES.register("access_limit")
@dataclass(frozen=True)
class AccessLimit(Quantity):
    """{access_limit: breach}: how many cards of R&D or HQ the Runner is allowed to access during the breach in
    progress (rule_default_random_access_limit: 1, plus any additional accesses); 0 with no such breach."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> AccessLimit:
        if arg != "breach":
            at.fail("access_limit is `breach` (the breach in progress)")
        return cls()

    def value(self, g: Game, ctx: Ctx) -> int:
        from judgebook.engine.rules.access import Breach
        from judgebook.engine.rules.frames import find

        breach = find(g, Breach)
        return breach.limit(g) if breach is not None and breach.server in ("R&D", "HQ") else 0

    def render(self) -> str:
        return "the number of cards you are allowed to access during this breach"


@instruction("access_card")
@dataclass(frozen=True, eq=False)
class AccessCard(Instruction):
    """{access_card: {zone: set_aside, side: corp, count: 1}}: the Runner accesses the chosen card where it is
    (outside a breach: "access 1 of those cards"), with the steps of accessing a card (sec_steps_accessing_card):
    an agenda is stolen, another card may be trashed by paying its trash cost."""

    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> AccessCard:
        return cls(parse_selector(arg, at))

    def chooser(self, ctx: Ctx) -> Any:
        return "runner"

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import revealed

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        return revealed.access_cards(g, targets)

    def render(self) -> str:
        sel = self.selector
        if isinstance(sel, Matching) and sel.count == 1 and not sel.up_to and sel.count_of is None:
            return f"access 1 of the {sel.render_kind()}"  # "access 1 of those cards"
        return f"access {sel.render()}"


@FILTERS.register("not_is")
@dataclass(frozen=True, eq=False)
class NotRef(Filter):
    """{not_is: chosen}: not the card(s) a reference names ("access another 1 of those cards": not the one
    accessed first, still `chosen`)."""

    ref: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> NotRef:
        if not isinstance(arg, str):
            at.fail("not_is is a card reference")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        from judgebook.engine.language.selectors import resolve_ref

        return cid not in resolve_ref(g, ctx, self.ref)

    def render(self) -> str:
        from judgebook.engine.language.selectors import Ref

        return f"other than {Ref(self.ref).render()}"


# --- choosing an install cost ---------------------------------------------------------------------

CHOSEN_COST = "chosen_cost"
_SHOWN = 987654321  # stands for the chosen cost in the rendering
COST_RANGE = range(1, 16)  # "an install cost greater than 0": none in the pool is above 15 (any higher one is
# the same as a cost no installed card has, which 15 stands for as well as any other)


@instruction("choose_cost", "then", "by")
@dataclass(frozen=True, eq=False)
class ChooseCost(Instruction):
    """{choose_cost: positive, then: [...]}: "choose an install cost greater than 0[credit]", then `then` with the
    number in place of `chosen_cost` (decision `{choose: N}`: the cost N)."""

    branches: tuple[tuple[Instruction, ...], ...]
    shown: tuple[Instruction, ...]  # `then` with a number no card costs, rendered as "the chosen cost"
    by: str = "you"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseCost:
        from judgebook.engine.language.context import PLAYER_WORDS
        from judgebook.engine.language.nodes import want_str

        if arg != "positive":
            at.fail("choose_cost is `positive` (an install cost greater than 0)")
        if "then" not in mods or not _holds(mods["then"], CHOSEN_COST):
            whole.fail(f"choose_cost needs `then`, naming the chosen cost `{CHOSEN_COST}` somewhere")
        where = whole.key(mods, "then")
        branches = tuple(parse_instructions(_put_type(mods["then"], n, CHOSEN_COST), where) for n in COST_RANGE)
        shown = parse_instructions(_put_type(mods["then"], _SHOWN, CHOSEN_COST), where)
        return cls(branches, shown, want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you")

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.language.instructions import ChooseOne
        from judgebook.engine.rules.resolve import push_choose

        return push_choose(g, ctx, ChooseOne(tuple((_Then(b),) for b in self.branches), self.by))

    def render(self) -> str:
        said = "choose" if self.by == "you" else f"{player_phrase(self.by)} chooses"
        body = render_all(self.shown).replace(str(_SHOWN), "the chosen cost")
        return f"{said} an install cost greater than 0[c]; then {body}"


@FILTERS.register("printed_install_cost")
@dataclass(frozen=True, eq=False)
class PrintedInstallCost(Filter):
    """{printed_install_cost: N}: a card with a printed install cost of N (a program, hardware or resource; an
    X cost counts 0)."""

    n: int

    @classmethod
    def parse(cls, arg: Any, at: At) -> PrintedInstallCost:
        if isinstance(arg, bool) or not isinstance(arg, int) or arg < 0:
            at.fail("printed_install_cost is a number")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        d = q.definition(g, cid)
        return d.type in ("program", "hardware", "resource") and (d.cost or 0) == self.n

    def render(self) -> str:
        return f"with a printed install cost of {self.n}"


# --- "cards with [trash] abilities", "the first time each turn ... during a run" --------------------


def _trash_ability(g: Game, ctx: Ctx, cid: str) -> bool:
    """A card with a [trash] ability: a paid ability whose cost trashes the card itself."""
    return any(ab.cost is not None and ab.cost.trash_self for ab in q.definition(g, cid).abilities)


_flag_filter("trash_ability", _trash_ability, "with [trash] abilities")


@EVENT_FILTERS.register("first_during_run")
@dataclass(frozen=True, eq=False)
class FirstDuringRun(EventFilter):
    """{first_during_run: turn}: "the first time each turn you use a piece of hardware during a run": the event
    happens during a run and is the first this turn, passing the other filters, that happened during one."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> FirstDuringRun:
        if arg != "turn":
            at.fail("first_during_run is turn")
        return cls()

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return self.first_among(g, ctx, event, ())

    def first_among(self, g: Game, ctx: Ctx, event: GameEvent, others: tuple[EventFilter, ...]) -> bool:
        from judgebook.engine.rules.frames import current_run

        if current_run(g) is None or not all(o.matches(g, ctx, event) for o in others):
            return False
        # the event is the last fact of the history as it happens (equal events are told apart by place)
        first = next((i for i, f in enumerate(g.history) if f.turn == g.turn and f.run >= 0
                      and f.event.name == event.name and all(o.matches(g, ctx, f.event) for o in others)), None)
        return first is None or first == len(g.history) - 1

    def render(self) -> str:
        return "the first time each turn, during a run"


# --- choosing a card name; repeating a process ----------------------------------------------------


@instruction("choose_name", "then", "by")
@dataclass(frozen=True, eq=False)
class ChooseName(Instruction):
    """{choose_name: true, then: [...]}: "choose a card name": the chooser names a card (decision
    `{choose: NAME}`: any card name; the engine offers the names of the cards in this game and one name none of
    them has, which stands for every other), then `then` resolves with it (`named_chosen` tests it)."""

    then: tuple[Instruction, ...]
    by: str = "you"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseName:
        from judgebook.engine.language.context import PLAYER_WORDS
        from judgebook.engine.language.nodes import want_str

        if arg is not True:
            at.fail("choose_name is true")
        if "then" not in mods:
            whole.fail("choose_name needs `then`: what is done with the name")
        then = parse_instructions(mods["then"], whole.key(mods, "then"))
        return cls(then, want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you")

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import revealed

        return revealed.choose_name(g, ctx, ctx.side(self.by), self.then)

    def render(self) -> str:
        said = "choose" if self.by == "you" else f"{player_phrase(self.by)} chooses"
        return f"{said} a card name, then {render_all(self.then)}"


def _named_chosen(g: Game, ctx: Ctx, cid: str) -> bool:
    """A card with the name the ability chose (`choose_name`)."""
    return bool(ctx.named) and g.cards[cid].name == ctx.named


_flag_filter("named_chosen", _named_chosen, "with the chosen name")


@instruction("process")
@dataclass(frozen=True, eq=False)
class Process(Instruction):
    """{process: [...]}: a process an `again` inside it repeats from its start ("if ..., repeat this process")."""

    body: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Process:
        body = parse_instructions(arg, at)
        if not body:
            at.fail("process is a list of instructions")
        return cls(body)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import revealed

        return revealed.process(g, ctx, self.body)

    def render(self) -> str:
        return f"({render_all(self.body)})"


@instruction("again")
@dataclass(frozen=True, eq=False)
class Again(Instruction):
    """`again`: "repeat this process": the enclosing `process` resolves once more, from its start."""

    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Again:
        if arg not in (None, True):
            at.fail("again takes no value")
        return cls()

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import revealed

        return revealed.again(g)

    def render(self) -> str:
        return "repeat this process"


# --- "a card that matches the faction of the Runner's identity" ------------------------------------


def runner_faction(g: Game) -> str | None:
    """The faction of the Runner's identity (NetrunnerDB's faction id; None: no identity, or no faction known)."""
    ident = g.zone("runner.identity")
    return q.definition(g, ident[0]).faction if ident else None


@EVENT_FILTERS.register("runner_faction")
@dataclass(frozen=True, eq=False)
class RunnerFaction(EventFilter):
    """{runner_faction: true}: "a card that matches the faction of the Runner's identity": the event's card has
    the faction of the Runner's identity (factions are joined from NetrunnerDB; a card or identity without one
    matches nothing)."""

    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> RunnerFaction:
        if not isinstance(arg, bool):
            at.fail("runner_faction is true or false")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        card, faction = event.get("card"), runner_faction(g)
        same = card in g.cards and faction is not None and q.definition(g, card).faction == faction
        return same == self.want

    def render(self) -> str:
        return f"the card {'matches' if self.want else 'does not match'} the faction of the Runner's identity"


# --- "steal it, ignoring all costs (you are no longer accessing it)" --------------------------------


@instruction("steal_accessed")
@dataclass(frozen=True, eq=False)
class StealAccessed(Instruction):
    """{steal_accessed: true}: "the next time you access an agenda ..., steal it, ignoring all costs. (You are no
    longer accessing it.)": the agenda of the triggering access event, still being accessed, is stolen at once;
    its access ends (the "when accessed" abilities still pending for it no longer resolve)."""

    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> StealAccessed:
        if arg is not True:
            at.fail("steal_accessed is true")
        return cls()

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import revealed

        return revealed.steal_accessed(g, ctx)

    def render(self) -> str:
        return "steal it, ignoring all costs (you are no longer accessing it)"


@EVENT_FILTERS.register("named_chosen")
@dataclass(frozen=True, eq=False)
class EventNamedChosen(EventFilter):
    """{named_chosen: true}: the event's card has the name the ability chose (a delayed ability created after
    `choose_name` keeps the name)."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> EventNamedChosen:
        if arg is not True:
            at.fail("write named_chosen: true")
        return cls()

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        card = event.get("card")
        return bool(ctx.named) and card in g.cards and g.cards[card].name == ctx.named

    def render(self) -> str:
        return "the card has the chosen name"


@EVENT_FILTERS.register("next_this_run")
@dataclass(frozen=True, eq=False)
class NextThisRun(EventFilter):
    """{next_this_run: true}: a delayed ability's "the next time this run ...": the event happens during this
    run and is the first of this run passing the other filters. Counted from the run's start: the delayed
    abilities written with it are created as the run is successful, before any access of its breach."""

    within = "run"  # it says its duration itself: a `lasting` for the run adds no "for the remainder of this run"

    @classmethod
    def parse(cls, arg: Any, at: At) -> NextThisRun:
        if arg is not True:
            at.fail("write next_this_run: true")
        return cls()

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return self.first_among(g, ctx, event, ())

    def first_among(self, g: Game, ctx: Ctx, event: GameEvent, others: tuple[EventFilter, ...]) -> bool:
        from judgebook.engine.rules.frames import current_run
        from judgebook.engine.rules.history import count_matching

        return current_run(g) is not None and count_matching(g, ctx, event, "run", others) <= 1

    def render(self) -> str:
        return "the next time this run"
