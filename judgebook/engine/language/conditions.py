"""Conditions: true or false of the state, for `if:` branches, `while:` durations and static abilities.

{at_least: [q, q]} | {at_most: [q, q]} | {equals: [q, q]} | {more_than: [q, q]} | {less_than: [q, q]} |
{all: [c, ...]} | {any: [c, ...]} | {not: c} | during_run | {run_on: this|central|remote|HQ|...} |
{protecting: HQ|central|remote|...} |
{encountering: self|any} | during_trace | {tagged: true} | {threat: N} |
{rezzed_this_turn: true} | {resolving_subroutines: self} | {exists: <selector>} | {rezzed: true} |
{first_this_turn: <event name>} | {first_this_run: <event name>} | {installed_this_turn: true}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.grammar import possessive
from judgebook.engine.language.nodes import At
from judgebook.engine.language.quantities import Quantity, parse_quantity
from judgebook.engine.language.registry import Registry
from judgebook.engine.language.selectors import SERVER_WORDS, Selector, parse_selector, server_matches
from judgebook.engine.language.value import Value
from judgebook.engine.state.model import Game


class Condition(Value):
    name = ""

    def holds(self, g: Game, ctx: Ctx) -> bool:
        raise NotImplementedError

    def render(self) -> str:
        raise NotImplementedError


CONDITIONS: Registry[Condition] = Registry("condition")


def parse_condition(node: Any, at: At) -> Condition:
    return CONDITIONS.parse(node, at)


def _comparison(name: str, test: Any, words: str) -> None:
    @dataclass(frozen=True, eq=False)
    class Compare(Condition):
        left: Quantity
        right: Quantity

        @classmethod
        def parse(cls, arg: Any, at: At) -> Compare:
            if not isinstance(arg, list) or len(arg) != 2:
                at.fail(f"{name} compares two quantities: [{name}_left, right]")
            return cls(parse_quantity(arg[0], at.key(arg, 0)), parse_quantity(arg[1], at.key(arg, 1)))

        def holds(self, g: Game, ctx: Ctx) -> bool:
            return bool(test(self.left.value(g, ctx), self.right.value(g, ctx)))

        def render(self) -> str:
            return f"{self.left.render()} is {words} {self.right.render()}"

    Compare.__name__ = Compare.__qualname__ = f"Compare_{name}"
    CONDITIONS.register(name)(Compare)


for _name, _test, _words in (
    ("at_least", lambda a, b: a >= b, "at least"),
    ("at_most", lambda a, b: a <= b, "at most"),
    ("equals", lambda a, b: a == b, "equal to"),
    ("more_than", lambda a, b: a > b, "more than"),
    ("less_than", lambda a, b: a < b, "less than"),
):
    _comparison(_name, _test, _words)


def _parts(arg: Any, at: At) -> tuple[Condition, ...]:
    if not isinstance(arg, list) or not arg:
        at.fail("expected a list of conditions")
    return tuple(parse_condition(c, at.key(arg, i)) for i, c in enumerate(arg))


@CONDITIONS.register("all")
@dataclass(frozen=True, eq=False)
class AllOf(Condition):
    parts: tuple[Condition, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> AllOf:
        return cls(_parts(arg, at))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return all(p.holds(g, ctx) for p in self.parts)

    def render(self) -> str:
        return " and ".join(p.render() for p in self.parts)


@CONDITIONS.register("any")
@dataclass(frozen=True, eq=False)
class AnyOf(Condition):
    parts: tuple[Condition, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> AnyOf:
        return cls(_parts(arg, at))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return any(p.holds(g, ctx) for p in self.parts)

    def render(self) -> str:
        return " or ".join(p.render() for p in self.parts)


@CONDITIONS.register("not")
@dataclass(frozen=True, eq=False)
class Not(Condition):
    part: Condition

    @classmethod
    def parse(cls, arg: Any, at: At) -> Not:
        return cls(parse_condition(arg, at))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return not self.part.holds(g, ctx)

    def render(self) -> str:
        return f"not ({self.part.render()})"


@CONDITIONS.register("during_run")
@dataclass(frozen=True, eq=False)
class DuringRun(Condition):
    @classmethod
    def parse(cls, arg: Any, at: At) -> DuringRun:
        if arg not in (None, True):
            at.fail("write `during_run` (no value)")
        return cls()

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.frames import current_run

        return current_run(g) is not None

    def render(self) -> str:
        return "during a run"


@CONDITIONS.register("turn_of")
@dataclass(frozen=True, eq=False)
class TurnOf(Condition):
    """Whose turn it is ("use this ability only during your turn")."""

    who: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> TurnOf:
        from judgebook.engine.language.context import PLAYER_WORDS

        if arg not in PLAYER_WORDS:
            at.fail(f"turn_of is one of: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return bool(g.active == ctx.side(self.who))

    def render(self) -> str:
        return f"during {possessive(self.who)} turn"


@CONDITIONS.register("run_on")
@dataclass(frozen=True, eq=False)
class RunOn(Condition):
    server: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> RunOn:
        if not isinstance(arg, str):
            at.fail(f"run_on is a server name or one of: {', '.join(SERVER_WORDS)}")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.frames import current_run

        run = current_run(g)
        return run is not None and server_matches(g, ctx, self.server, run.server)

    def render(self) -> str:
        return f"during a run on {'this server' if self.server == 'this' else self.server}"


@CONDITIONS.register("protecting")
@dataclass(frozen=True, eq=False)
class ProtectingServer(Condition):
    """This card is ice protecting a server ("while this ice is protecting HQ")."""

    server: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> ProtectingServer:
        if not isinstance(arg, str) or arg in ("this", "attacked"):
            at.fail("protecting is a server name, central or remote")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.state import queries as q

        card = g.cards.get(ctx.source)
        return card is not None and card.zone.endswith(".ice") and \
            server_matches(g, ctx, self.server, q.server_of(g, ctx.source))

    def render(self) -> str:
        where = f"a {self.server} server" if self.server in SERVER_WORDS else self.server
        return f"this ice is protecting {where}"


@CONDITIONS.register("encountering")
@dataclass(frozen=True, eq=False)
class Encountering(Condition):
    ice: str  # self | any | chosen

    @classmethod
    def parse(cls, arg: Any, at: At) -> Encountering:
        if arg not in ("self", "any", "chosen", "host"):
            at.fail("encountering is self, chosen, host (a trojan's host ice) or any")
        return cls(str(arg))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.language.selectors import resolve_ref
        from judgebook.engine.rules.frames import current_encounter

        enc = current_encounter(g)
        if enc is None:
            return False
        return self.ice == "any" or enc.ice in resolve_ref(g, ctx, self.ice)

    def render(self) -> str:
        return {
            "self": "during the encounter with this ice",
            "any": "during an encounter",
            "chosen": "during the encounter with the chosen ice",
            "host": "during the encounter with the host ice",
        }[self.ice]


@CONDITIONS.register("resolving_subroutines")
@dataclass(frozen=True, eq=False)
class ResolvingSubroutines(Condition):
    """The subroutines of this ice are resolving: its encounter has reached the resolve-subroutines step
    ("while subroutines on this ice are resolving")."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> ResolvingSubroutines:
        if arg != "self":
            at.fail("resolving_subroutines is self (this ice)")
        return cls()

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.frames import current_encounter

        enc = current_encounter(g)
        return enc is not None and enc.ice == ctx.source and getattr(enc, "at", "") == "subroutines"

    def render(self) -> str:
        return "while subroutines on this ice are resolving"


@CONDITIONS.register("during_trace")
@dataclass(frozen=True, eq=False)
class DuringTrace(Condition):
    @classmethod
    def parse(cls, arg: Any, at: At) -> DuringTrace:
        if arg not in (None, True):
            at.fail("write `during_trace` (no value)")
        return cls()

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return any(getattr(f, "is_trace", False) for f in g.stack)

    def render(self) -> str:
        return "during a trace"


@CONDITIONS.register("tagged")
@dataclass(frozen=True, eq=False)
class Tagged(Condition):
    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> Tagged:
        if not isinstance(arg, bool):
            at.fail("tagged is true or false")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return (g.runner.tags > 0) == self.want

    def render(self) -> str:
        return "the Runner is tagged" if self.want else "the Runner is not tagged"


@CONDITIONS.register("threat")
@dataclass(frozen=True, eq=False)
class Threat(Condition):
    """The "Threat N" flag: the threat level (the greatest score of any player) is N or more."""

    level: int

    @classmethod
    def parse(cls, arg: Any, at: At) -> Threat:
        if isinstance(arg, bool) or not isinstance(arg, int) or arg < 1:
            at.fail("threat is a number (the threat level the ability needs)")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.state import queries as q

        return max(q.agenda_points(g, "corp"), q.agenda_points(g, "runner")) >= self.level

    def render(self) -> str:
        return f"the threat level is {self.level} or more"


@CONDITIONS.register("exists")
@dataclass(frozen=True, eq=False)
class Exists(Condition):
    selector: Selector

    @classmethod
    def parse(cls, arg: Any, at: At) -> Exists:
        return cls(parse_selector(arg, at, default_count=None))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def render(self) -> str:
        return f"there are {self.selector.render_kind()}"


@CONDITIONS.register("rezzed")
@dataclass(frozen=True, eq=False)
class SelfRezzed(Condition):
    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> SelfRezzed:
        if not isinstance(arg, bool):
            at.fail("rezzed is true or false")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return g.cards[ctx.source].rezzed == self.want

    def render(self) -> str:
        return "this card is rezzed" if self.want else "this card is not rezzed"


@CONDITIONS.register("rezzed_this_turn")
@dataclass(frozen=True, eq=False)
class RezzedThisTurn(Condition):
    """This card was (not) rezzed this turn ("if it was rezzed this turn")."""

    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> RezzedThisTurn:
        if not isinstance(arg, bool):
            at.fail("rezzed_this_turn is true or false")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        rezzed = any(f.event.name == "rezzed" and f.event.get("card") == ctx.source and f.turn == g.turn
                     for f in g.history)
        return rezzed == self.want

    def render(self) -> str:
        return "this card was rezzed this turn" if self.want else "this card was not rezzed this turn"


@CONDITIONS.register("installed_this_turn")
@dataclass(frozen=True, eq=False)
class InstalledThisTurn(Condition):
    """"Only if this program was installed this turn": this card's install is in this turn's history."""

    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> InstalledThisTurn:
        if not isinstance(arg, bool):
            at.fail("installed_this_turn is true or false")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        done = any(
            f.event.name == "installed" and f.event.get("card") == ctx.source and f.turn == g.turn for f in g.history
        )
        return done == self.want

    def render(self) -> str:
        return "this card was installed this turn" if self.want else "this card was not installed this turn"


def _first(scope: str) -> None:
    @dataclass(frozen=True, eq=False)
    class FirstThis(Condition):
        event: str

        @classmethod
        def parse(cls, arg: Any, at: At) -> FirstThis:
            from judgebook.engine.language.events import EVENTS

            if arg not in EVENTS:
                at.fail(f"expected an event name ({', '.join(EVENTS)})")
            return cls(str(arg))

        def holds(self, g: Game, ctx: Ctx) -> bool:
            from judgebook.engine.rules.history import count_this

            return count_this(g, self.event, scope) <= 1

        def render(self) -> str:
            return f"this is the first {self.event.replace('_', ' ')} this {scope}"

    FirstThis.__name__ = FirstThis.__qualname__ = f"First_{scope}"
    CONDITIONS.register(f"first_this_{scope}")(FirstThis)


_first("turn")
_first("run")


@CONDITIONS.register("this_turn")
@dataclass(frozen=True, eq=False)
class ThisCardThisTurn(Condition):
    """This card was the card of such an event this turn ("if it was installed this turn")."""

    event: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> ThisCardThisTurn:
        from judgebook.engine.language.events import EVENTS

        if arg not in EVENTS:
            at.fail(f"expected an event name ({', '.join(EVENTS)})")
        return cls(str(arg))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        return any(
            f.turn == g.turn and f.event.name == self.event and f.event.get("card") == ctx.source for f in g.history
        )

    def render(self) -> str:
        return f"this card was {self.event.replace('_', ' ')} this turn"
