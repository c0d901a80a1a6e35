"""Cards remembered as a set: revealed or set-aside cards, a trashed card as a reference, a card type or name chosen.

Constructs of the card language added for the Standard pool (round 3, family `reveal`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.instructions import Instruction, Mods, instruction, parse_instructions, render_all
from judgebook.engine.language.nodes import At, check_keys
from judgebook.engine.language.quantities import Quantity, parse_quantity
from judgebook.engine.language.selectors import FILTERS, Filter
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game


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
