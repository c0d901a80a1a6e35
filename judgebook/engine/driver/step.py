"""The step function: `start`, `choices`, `advance`.

`advance` applies a decision to the open choice point, then lets the frames on
the stack move the game on by themselves until the next choice point (or the
end). The states it passes through are compared whole: coming back to one of
them with no real decision in between (only steps the engine took alone, or
choice points with a single legal option) is a mandatory infinite loop
(rule_mandatory_infinite_loop): the player resolving it names a number, the loop
resolves that many times — which, since each round comes back to the same
state, is that state — and then ends.
"""

from __future__ import annotations

from dataclasses import replace

from judgebook.engine.errors import EngineLimit, IllegalDecision
from judgebook.engine.state.choice import ChoicePoint, Decision
from judgebook.engine.state.model import Game, Step, evolve

MAX_AUTOMATIC = 2000


def loop_key(g: Game) -> Game:
    """The state as the loop rule compares it: everything but the record of past events and the counter
    that numbers them, which a loop makes grow each round."""
    return evolve(g, history=(), seq=0, trail=(), point=None, out=())


def choices(g: Game) -> ChoicePoint | None:
    return g.point


def advance(g: Game, choice: Decision | None = None, how: str = "chosen") -> tuple[Game, tuple[Step, ...]]:
    g = evolve(g, out=())
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
        forced = len(point.options) == 1
        trail = (g.trail + (loop_key(g),)) if forced else ()
        g = evolve(g, point=None, trail=())
        g = top.choose(g, replace(option, decision=option.decision.with_payment(choice)))
        if how != "chosen":  # a default or the only option: the timeline says so
            g = evolve(g, out=tuple(replace(s, how=how) if s.how == "chosen" else s for s in g.out))
        g, steps = settle(g)
        if forced and g.point is not None and len(g.point.options) == 1 and g.point.kind != "loop":
            key = loop_key(g)
            if key in trail:
                return _loop_found(g, trail[trail.index(key) :], steps)
            g = evolve(g, trail=trail)
        return g, steps
    elif choice is not None:
        raise IllegalDecision("no decision is open here", "rule_action_window")
    return settle(g)


def settle(g: Game) -> tuple[Game, tuple[Step, ...]]:
    seen: list[Game] = []
    index: dict[Game, int] = {}
    for _ in range(MAX_AUTOMATIC):
        if g.over or not g.stack:
            return evolve(g, point=None, out=()), g.out
        result = g.stack[-1].step(g)
        if isinstance(result, ChoicePoint):
            return evolve(g, point=result, out=()), g.out
        g = result
        key = loop_key(g)
        if key in index:
            return _loop_found(g, tuple(seen[index[key] :]), g.out)
        index[key] = len(seen)
        seen.append(key)
    raise EngineLimit(
        f"more than {MAX_AUTOMATIC} steps with no decision, each changing the game: an "
        "infinite loop the engine cannot end",
        "rule_mandatory_infinite_loop",
    )


def _loop_found(g: Game, cycle: tuple[Game, ...], steps: tuple[Step, ...]) -> tuple[Game, tuple[Step, ...]]:
    """The game is back in a state of `cycle`: push the choice of a number of repetitions, remembering how
    much of the stack the loop does not touch (ending the loop removes the rest)."""
    from judgebook.engine.rules.loops import LoopChoice

    stacks = [s.stack for s in cycle] + [g.stack]
    keep = 0
    while all(len(st) > keep for st in stacks) and all(st[keep] == stacks[0][keep] for st in stacks):
        keep += 1
    g = evolve(g, trail=(), point=None, stack=g.stack + (LoopChoice(keep, len(cycle)),))
    g, more = settle(g)
    return g, steps + more


def start(g: Game) -> tuple[Game, tuple[Step, ...]]:
    """Settle a freshly set-up game to its first choice point."""
    return settle(g)
