"""Mandatory infinite loops (rule_mandatory_infinite_loop): the player resolving the loop names a number,
the loop resolves that many times and ends."""

from __future__ import annotations

from dataclasses import dataclass

from judgebook.engine.rules.frames import Frame, log, path, pop
from judgebook.engine.state.choice import ChoicePoint, Option, decision
from judgebook.engine.state.model import Game, Side, evolve


@dataclass(frozen=True)
class LoopChoice(Frame):
    keep: int  # frames below the loop: ending it removes every frame above them
    period: int  # states in one round of the loop

    def resolver(self, g: Game) -> Side:
        from judgebook.engine.rules.resolve import Resolve

        for f in reversed(g.stack[:-1]):
            if isinstance(f, Resolve):
                return f.ctx.controller
        return g.active

    def step(self, g: Game) -> ChoicePoint:
        who = self.resolver(g)
        return ChoicePoint(
            who,
            "loop",
            f"a mandatory infinite loop: the {who} names how many times it resolves",
            "rule_mandatory_infinite_loop",
            (Option(decision("loop", "*"), "name a number of repetitions", "rule_mandatory_infinite_loop"),),
            default=0,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        value = option.decision.value
        times = 1 if value == "*" else int(value)
        who = self.resolver(g)
        g = pop(g)
        # Each round returns to this very state, so N rounds leave the game as it is; then the loop ends.
        g = log(
            g,
            "loop",
            f"the loop resolves {times} time(s), then ends",
            "rule_mandatory_infinite_loop",
            who,
            how="chosen",
        )
        return evolve(g, stack=g.stack[: self.keep], pending=())
