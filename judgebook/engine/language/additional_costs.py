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
