"""Frames: the timing structures and procedures in progress, kept on the state's stack.

A frame is a frozen dataclass. `step(g)` either moves the game on (returning the
new state, with this frame replaced, popped, or with frames pushed above it) or
returns the `ChoicePoint` it waits on; `choose(g, option)` applies a decision
taken at that point. The nesting turn → run → encounter → access → ability is
the stack itself, never the Python call stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judgebook.engine.state.model import Game, GameEvent, Side, Step, evolve

if TYPE_CHECKING:
    from judgebook.engine.state.choice import ChoicePoint, Option


class Frame:
    label = ""  # its name in the timeline's path ("" keeps it out of the path)

    def labels(self) -> tuple[str, ...]:
        """Its place in the timeline's path: its name, and the phase it is in where it has phases."""
        return (self.label,) if self.label else ()

    def step(self, g: Game) -> Game | ChoicePoint:
        raise NotImplementedError

    def choose(self, g: Game, option: Option) -> Game:
        raise NotImplementedError(f"{type(self).__name__} offers no choice")


def react_first(g: Game) -> Game | None:
    """Abilities that became pending in the last step resolve before the timing structure moves on
    (a checkpoint, then a reaction window: rule_reaction_window)."""
    if not g.pending or g.over:
        return None
    from judgebook.engine.rules.windows import ReactionWindow

    return push(g, ReactionWindow())


def push(g: Game, *frames: Frame) -> Game:
    return evolve(g, stack=g.stack + frames)


def pop(g: Game) -> Game:
    return evolve(g, stack=g.stack[:-1])


def set_top(g: Game, frame: Frame) -> Game:
    return evolve(g, stack=g.stack[:-1] + (frame,))


def swap(g: Game, old: Frame, new: Frame) -> Game:
    """Replace a frame further down the stack (an ended run, a modified imminent value)."""
    index = max(i for i, f in enumerate(g.stack) if f is old)
    return evolve(g, stack=g.stack[:index] + (new,) + g.stack[index + 1 :])


def path(g: Game) -> tuple[str, ...]:
    return tuple(label for f in g.stack for label in f.labels())


def log(
    g: Game,
    kind: str,
    text: str,
    anchor: str,
    player: Side | None = None,
    how: str = "engine",
    card: str | None = None,
    ability: str | None = None,
    changes: tuple[str, ...] = (),
) -> Game:
    return evolve(g, out=g.out + (Step(kind, text, anchor, player, how, path(g), card, ability, changes),))


def event(name: str, **fields: Any) -> GameEvent:
    from judgebook.engine.state.fmap import FMap

    return GameEvent(name, FMap({k: v for k, v in fields.items() if v is not None}))


def find(g: Game, kind: type) -> Any:
    for f in reversed(g.stack):
        if isinstance(f, kind):
            return f
    return None


def current_run(g: Game) -> Any:
    from judgebook.engine.rules.run import Run

    run = find(g, Run)
    return run if run is not None and not run.ended else None


def current_encounter(g: Game) -> Any:
    from judgebook.engine.rules.encounter import Encounter

    enc = find(g, Encounter)
    return enc if enc is not None and not enc.over else None


@dataclass(frozen=True)
class Call(Frame):
    """Run a pure function of the state once: the glue between steps of a procedure
    (`fn` is a module-level function, so the frame stays a comparable value)."""

    fn: Any
    args: tuple[Any, ...] = ()

    def step(self, g: Game) -> Game:
        return self.fn(pop(g), *self.args)  # type: ignore[no-any-return]
