"""Cards remembered as a set: revealed or set-aside cards, a trashed card as a reference, a card type or name chosen.

Constructs of the card language added for the Standard pool (round 3, family `reveal`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from judgebook.engine.language.context import Ctx, player_phrase
from judgebook.engine.language.events import EVENT_FILTERS, EventFilter
from judgebook.engine.language.instructions import Instruction, Mods, instruction, parse_instructions, render_all
from judgebook.engine.language.nodes import At, check_keys
from judgebook.engine.language.quantities import Quantity, parse_quantity
from judgebook.engine.language.selectors import FILTERS, Filter
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game, GameEvent


@instruction("repeat")
@dataclass(frozen=True, eq=False)
class Repeat(Instruction):
    """{repeat: {times: QUANTITY, do: [...]}}: "for each agenda revealed this way, you may place 1 advancement
    counter on an installed card". The quantity is read once, as the instruction resolves; the instructions
    then resolve that many times, each time choosing afresh (unlike `for_each`, whose body acts on each card).
    The cards chosen earlier in the ability stay `chosen` for the quantity."""

    times: Quantity
    body: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Repeat:
        check_keys(arg, ("times", "do"), at)
        if not isinstance(arg, dict) or "times" not in arg or "do" not in arg:
            at.fail("repeat needs `times` (a quantity) and `do` (instructions)")
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


@FILTERS.register("odd_printed_cost")
@dataclass(frozen=True, eq=False)
class OddPrintedCost(Filter):
    """A printed play or install cost that is (not) an odd number (0 is not odd; a card with neither, an agenda
    or an identity, has none, so it is not odd)."""

    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> OddPrintedCost:
        if not isinstance(arg, bool):
            at.fail("expected true or false")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        d = q.definition(g, cid)
        cost = d.cost if d.type in ("program", "hardware", "resource", "event", "operation") else None
        return (cost is not None and cost % 2 == 1) == self.want

    def render(self) -> str:
        return f"with {'an odd' if self.want else 'no odd'} printed play or install cost"


# --- choosing a card type -------------------------------------------------------------------------

CARD_TYPES = ("agenda", "asset", "upgrade", "ice", "operation", "event", "program", "hardware", "resource")
CHOSEN_TYPE = "chosen_type"  # the placeholder `then` names the chosen type with, wherever a type is written


def _put_type(node: Any, kind: str) -> Any:
    """The YAML of `then` with the chosen type written in for the placeholder (rebuilt as plain mappings and
    lists only where they hold it: an error inside names the nearest line still known)."""
    if node == CHOSEN_TYPE:
        return kind
    if isinstance(node, dict) and _holds(node):
        return {k: _put_type(v, kind) for k, v in node.items()}
    if isinstance(node, list) and _holds(node):
        return [_put_type(v, kind) for v in node]
    return node


def _holds(node: Any) -> bool:
    if node == CHOSEN_TYPE:
        return True
    if isinstance(node, dict):
        return any(_holds(v) for v in node.values())
    if isinstance(node, list):
        return any(_holds(v) for v in node)
    return False


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

        return push_choose(g, ctx, ChooseOne(self.branches, self.by))

    def render(self) -> str:
        a, b = self.types[0], self.types[1]
        first = re.sub(rf"\b{a}\b", "the chosen type", render_all(self.branches[0]))
        second = re.sub(rf"\b{b}\b", "the chosen type", render_all(self.branches[1]))
        said = "choose" if self.by == "you" else f"{player_phrase(self.by)} chooses"
        then = first if first == second else render_all(self.branches[0])  # a type word of its own: plainly
        return f"{said} a card type; then {then}"


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


@FILTERS.register("event_cards")
@dataclass(frozen=True, eq=False)
class EventCards(Filter):
    """{event_cards: true}: among the cards of the triggering event ("1 revealed card", for a `revealed`
    trigger: the cards that reveal revealed)."""

    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> EventCards:
        if arg is not True:
            at.fail("event_cards is true")
        return cls(True)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return _event_cards(g, ctx, cid)

    def render(self) -> str:
        return "among those cards"


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
