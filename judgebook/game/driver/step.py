"""The step function: `start`, `choices`, `advance`.

`advance` applies a decision to the open choice point, then lets the frames on
the stack move the game on by themselves until the next choice point (or the
end). The states it passes through are compared whole: coming back to one of
them without any decision in between is the infinite-loop rule.
"""
from __future__ import annotations

from dataclasses import replace

from judgebook.game.driver.choice import ChoicePoint, Decision
from judgebook.game.errors import EngineLimit, IllegalDecision
from judgebook.game.state.model import Game, Step

MAX_AUTOMATIC = 5000


def choices(g: Game) -> ChoicePoint | None:
    return g.point


def advance(g: Game, choice: Decision | None = None, how: str = "chosen") -> tuple[Game, tuple[Step, ...]]:
    g = replace(g, out=())
    point = g.point
    if point is not None:
        if choice is None:
            raise IllegalDecision(f"the {point.player} must decide: {point.prompt}", point.rule)
        option = point.find(choice)
        if option is None:
            refused = point.refusal(choice)
            if refused is not None:
                raise IllegalDecision(f"{refused.label}: {refused.reason}", refused.rule)
            raise IllegalDecision(f"{choice.as_yaml()} is not an option here ({point.prompt})", point.rule)
        top = g.stack[-1]
        g = replace(g, point=None)
        g = top.choose(g, replace(option, decision=option.decision.with_payment(choice)))
        if how != "chosen":      # a default or the only option: the timeline says so
            g = replace(g, out=tuple(replace(s, how=how) if s.how == "chosen" else s for s in g.out))
    elif choice is not None:
        raise IllegalDecision("no decision is open here", "rule_action_window")
    return settle(g)


def settle(g: Game) -> tuple[Game, tuple[Step, ...]]:
    seen: set[Game] = set()
    for _ in range(MAX_AUTOMATIC):
        if g.over or not g.stack:
            return replace(g, point=None, out=()), g.out
        result = g.stack[-1].step(g)
        if isinstance(result, ChoicePoint):
            return replace(g, point=result, out=()), g.out
        g = result
        if g in seen:
            raise EngineLimit("the game came back to the same state with no decision in between: an infinite "
                              "loop nobody can end", "rule_mandatory_infinite_loop")
        seen.add(g)
    raise EngineLimit(f"more than {MAX_AUTOMATIC} steps with no decision", "rule_mandatory_infinite_loop")


def start(g: Game) -> tuple[Game, tuple[Step, ...]]:
    """Settle a freshly set-up game to its first choice point."""
    return settle(g)
