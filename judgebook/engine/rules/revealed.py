"""State changes and frames of the `reveal` family's constructs (judgebook.engine.language.revealed)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.frames import Frame, pop, push
from judgebook.engine.state.model import Game


@dataclass(frozen=True)
class TrashedThisWay(Frame):
    """Waits below the instructions of a `with_trashed`; when they are done, the cards trashed since `start`
    (the history's length as they began) are `chosen` for `then` (rule_checkpoint_after_instruction_resolution)."""

    ctx: Ctx
    then: tuple[Any, ...]
    start: int

    def step(self, g: Game) -> Game:
        from judgebook.engine.rules.resolve import resolve_now

        cards = tuple(
            f.event.get("card") for f in g.history[self.start :] if f.event.name == "trashed" and f.event.get("card")
        )
        ctx = replace(self.ctx, targets=(), chosen=cards)
        return resolve_now(pop(g), ctx, self.then, "rule_checkpoint_after_instruction_resolution")


def with_trashed(g: Game, ctx: Ctx, body: tuple[Any, ...], then: tuple[Any, ...]) -> Game:
    from judgebook.engine.rules.resolve import resolve_now

    g = push(g, TrashedThisWay(ctx, then, len(g.history)))
    return resolve_now(g, replace(ctx, targets=()), body, "rule_checkpoint_after_instruction_resolution")
