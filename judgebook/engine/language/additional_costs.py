"""Additional costs and costs that choose: trashing or forfeiting a chosen card, X costs paid in tags or
counters, costs with a choice.

Constructs of the card language added for the Standard pool (round 3, family `costs`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.nodes import At
from judgebook.engine.language.quantities import Quantity, parse_quantity
from judgebook.engine.language.selectors import FILTERS, Filter
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game


@FILTERS.register("printed_agenda_points")
@dataclass(frozen=True, eq=False)
class PrintedAgendaPoints(Filter):
    """An agenda whose printed agenda point value equals a quantity ("with a printed agenda point value equal to
    X": X paid in an additional cost, IP Enforcement)."""

    amount: Quantity

    @classmethod
    def parse(cls, arg: Any, at: At) -> PrintedAgendaPoints:
        return cls(parse_quantity(arg, at))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        d = q.definition(g, cid)
        return d.type == "agenda" and d.agenda_points == self.amount.value(g, ctx)

    def render(self) -> str:
        return f"with a printed agenda point value equal to {self.amount.render()}"


def _register_play_and_remove() -> None:
    from dataclasses import field

    from judgebook.engine.language.instructions import Instruction, Mods, instruction
    from judgebook.engine.language.nodes import want_bool
    from judgebook.engine.language.selectors import Selector, parse_selector

    @instruction("play_and_remove", "pay_cost")
    @dataclass(frozen=True, eq=False)
    class PlayAndRemove(Instruction):
        """"Play 1 transaction operation from Archives. After it resolves, remove it from the game": the card is
        played (`pay_cost`) and, instead of being trashed when it finishes resolving, removed from the game
        (rule_rfg_move); no "trashed" event."""

        selector: Selector
        pay_cost: bool = False
        mods: Mods = field(default_factory=Mods)

        @classmethod
        def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> PlayAndRemove:
            return cls(parse_selector(arg, at), want_bool(mods, "pay_cost", whole))

        def possible(self, g: Game, ctx: Ctx) -> bool:
            return bool(self.selector.candidates(g, ctx))

        def run(self, g: Game, ctx: Ctx) -> Game:
            from judgebook.engine.rules.additional_costs import play_and_remove

            targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
            for cid in reversed(targets):
                g = play_and_remove(g, ctx.controller, cid, self.pay_cost)
            return g

        def render(self) -> str:
            return f"play {self.selector.render()}; after it resolves, remove it from the game"


_register_play_and_remove()
