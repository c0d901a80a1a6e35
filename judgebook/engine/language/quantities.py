"""Quantities: numbers the card language reads from the state, with arithmetic.

3 | X | {credits: runner} | {count: <selector>} | {counters: virus} |
{counters: {kind: virus, cards: <selector>}} | {strength: <card>} | {install_cost: <card>} |
{plus: [q, q]} | {minus: [q, q]} | {times: [q, q]} | {half_down: q} | {half_up: q} |
{min: [q, ...]} | {max: [q, ...]} | {event: amount}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judgebook.engine.language.context import PLAYER_WORDS, Ctx
from judgebook.engine.language.grammar import agreeing
from judgebook.engine.language.nodes import At
from judgebook.engine.language.registry import Registry
from judgebook.engine.state.model import Game

if TYPE_CHECKING:
    from judgebook.engine.language.selectors import Selector


class Quantity:
    name = ""

    def value(self, g: Game, ctx: Ctx) -> int:
        raise NotImplementedError

    def render(self) -> str:
        raise NotImplementedError


QUANTITIES: Registry[Quantity] = Registry("quantity")


@dataclass(frozen=True)
class Number(Quantity):
    n: int

    def value(self, g: Game, ctx: Ctx) -> int:
        return self.n

    def render(self) -> str:
        return str(self.n)


@dataclass(frozen=True)
class TheX(Quantity):
    def value(self, g: Game, ctx: Ctx) -> int:
        return ctx.x

    def render(self) -> str:
        return "X"


def parse_quantity(node: Any, at: At) -> Quantity:
    if isinstance(node, bool):
        at.fail("expected a number, X or a quantity")
    if isinstance(node, int):
        if node < 0:
            at.fail("a quantity is 0 or more")
        return Number(node)
    if node == "X":
        return TheX()
    return QUANTITIES.parse(node, at)


def _player_stat(stat: str, words: str) -> type:
    @dataclass(frozen=True)
    class PlayerStat(Quantity):
        who: str

        @classmethod
        def parse(cls, arg: Any, at: At) -> PlayerStat:
            if arg not in PLAYER_WORDS:
                at.fail(f"expected one of: {', '.join(PLAYER_WORDS)}")
            return cls(str(arg))

        def value(self, g: Game, ctx: Ctx) -> int:
            from judgebook.engine.rules import values

            return values.player_stat(g, ctx.side(self.who), stat)

        def render(self) -> str:
            return f"the number of {words} {agreeing(self.who, 'have')}"

    PlayerStat.__name__ = PlayerStat.__qualname__ = f"Stat_{stat}"
    return QUANTITIES.register(stat)(PlayerStat)


for _stat, _words in (
    ("credits", "credits"),
    ("clicks", "clicks"),
    ("tags", "tags"),
    ("bad_publicity", "bad publicity"),
    ("agenda_points", "agenda points"),
    ("hand_size", "cards of maximum hand size"),
    ("core_damage", "core damage"),
    ("link", "link"),
    ("unused_mu", "unused memory units"),
    ("cards_in_hand", "cards in hand"),
    ("cards_in_deck", "cards in deck"),
):
    _player_stat(_stat, _words)


@QUANTITIES.register("count")
@dataclass(frozen=True)
class CountOf(Quantity):
    selector: Selector

    @classmethod
    def parse(cls, arg: Any, at: At) -> CountOf:
        from judgebook.engine.language.selectors import parse_selector

        return cls(parse_selector(arg, at))

    def value(self, g: Game, ctx: Ctx) -> int:
        return len(self.selector.candidates(g, ctx))

    def render(self) -> str:
        return f"the number of {self.selector.render_kind()}"


@QUANTITIES.register("card_types")
@dataclass(frozen=True)
class CardTypes(Quantity):
    """The number of card types among the cards a selector finds ("for each card type among faceup cards in
    Archives")."""

    selector: Selector

    @classmethod
    def parse(cls, arg: Any, at: At) -> CardTypes:
        from judgebook.engine.language.selectors import parse_selector

        return cls(parse_selector(arg, at))

    def value(self, g: Game, ctx: Ctx) -> int:
        from judgebook.engine.state import queries as q

        return len({q.definition(g, c).type for c in self.selector.candidates(g, ctx)})

    def render(self) -> str:
        return f"the number of card types among {self.selector.render()}"


@QUANTITIES.register("counters")
@dataclass(frozen=True)
class Counters(Quantity):
    kind: str
    on: Selector | None  # None: this card

    @classmethod
    def parse(cls, arg: Any, at: At) -> Counters:
        from judgebook.engine.language.nodes import check_keys, want_str
        from judgebook.engine.language.selectors import parse_selector

        if isinstance(arg, str):
            return cls(arg, None)
        check_keys(arg, ("kind", "cards"), at)
        kind = want_str(arg, "kind", at)
        if kind is None:
            at.fail("counters needs `kind`")
        return cls(kind, parse_selector(arg["cards"], at.key(arg, "cards"), None) if "cards" in arg else None)

    def value(self, g: Game, ctx: Ctx) -> int:
        cards = self.on.candidates(g, ctx) if self.on else [ctx.source]
        return sum(_known_counters(g, c, self.kind) for c in cards if c in g.cards)

    def render(self) -> str:
        where = f"on {self.on.render()}" if self.on else "on this card"
        return f"the number of {self.kind} counters {where}"


def _known_counters(g: Game, cid: str, kind: str) -> int:
    """Counters on a card; a card no longer in play has none, so its last known information counts (the
    counters it left play with: an ability paid for by trashing its card still sees them)."""
    from judgebook.engine.state import queries as q

    card = g.cards[cid]
    in_play = q.is_installed(g, cid) or card.zone.endswith((".score", ".identity", ".current")) or card.zone == "play"
    return card.count(kind) if in_play else card.last_counters.get(kind, 0)


def _card_stat(stat: str, words: str) -> type:
    @dataclass(frozen=True)
    class CardStat(Quantity):
        card: Selector

        @classmethod
        def parse(cls, arg: Any, at: At) -> CardStat:
            from judgebook.engine.language.selectors import parse_selector

            return cls(parse_selector(arg, at))

        def value(self, g: Game, ctx: Ctx) -> int:
            from judgebook.engine.rules import values

            return sum(values.card_stat(g, c, stat) for c in self.card.candidates(g, ctx))

        def render(self) -> str:
            return f"the {words} of {self.card.render()}"

    CardStat.__name__ = CardStat.__qualname__ = f"CardStat_{stat}"
    return QUANTITIES.register(stat)(CardStat)


for _stat, _words in (
    ("strength", "strength"),
    ("install_cost", "install cost"),
    ("rez_cost", "rez cost"),
    ("play_cost", "play cost"),
    ("trash_cost", "trash cost"),
    ("printed_agenda_points", "agenda points"),
    ("memory_cost", "memory cost"),
    ("subroutine_count", "number of subroutines"),
    ("advancement_requirement", "advancement requirement"),
):
    _card_stat(_stat, _words)


def _parse_list(arg: Any, at: At, least: int) -> tuple[Quantity, ...]:
    if not isinstance(arg, list) or len(arg) < least:
        at.fail(f"expected a list of at least {least} quantities")
    return tuple(parse_quantity(q, at.key(arg, i)) for i, q in enumerate(arg))


@QUANTITIES.register("plus")
@dataclass(frozen=True)
class Plus(Quantity):
    parts: tuple[Quantity, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> Plus:
        return cls(_parse_list(arg, at, 2))

    def value(self, g: Game, ctx: Ctx) -> int:
        return sum(p.value(g, ctx) for p in self.parts)

    def render(self) -> str:
        return " plus ".join(p.render() for p in self.parts)


@QUANTITIES.register("minus")
@dataclass(frozen=True)
class Minus(Quantity):
    parts: tuple[Quantity, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> Minus:
        parts = _parse_list(arg, at, 2)
        if len(parts) != 2:
            at.fail("minus takes exactly two quantities")
        return cls(parts)

    def value(self, g: Game, ctx: Ctx) -> int:
        # A quantity the card uses is never below 0 (rule_negative_values).
        return max(0, self.parts[0].value(g, ctx) - self.parts[1].value(g, ctx))

    def render(self) -> str:
        return f"{self.parts[0].render()} minus {self.parts[1].render()}"


@QUANTITIES.register("times")
@dataclass(frozen=True)
class Times(Quantity):
    parts: tuple[Quantity, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> Times:
        return cls(_parse_list(arg, at, 2))

    def value(self, g: Game, ctx: Ctx) -> int:
        out = 1
        for p in self.parts:
            out *= p.value(g, ctx)
        return out

    def render(self) -> str:
        return " times ".join(p.render() for p in self.parts)


@QUANTITIES.register("half_down")
@dataclass(frozen=True)
class HalfDown(Quantity):
    of: Quantity

    @classmethod
    def parse(cls, arg: Any, at: At) -> HalfDown:
        return cls(parse_quantity(arg, at))

    def value(self, g: Game, ctx: Ctx) -> int:
        return self.of.value(g, ctx) // 2

    def render(self) -> str:
        return f"half {self.of.render()} (rounded down)"


@QUANTITIES.register("half_up")
@dataclass(frozen=True)
class HalfUp(Quantity):
    of: Quantity

    @classmethod
    def parse(cls, arg: Any, at: At) -> HalfUp:
        return cls(parse_quantity(arg, at))

    def value(self, g: Game, ctx: Ctx) -> int:
        return -(-self.of.value(g, ctx) // 2)

    def render(self) -> str:
        return f"half {self.of.render()} (rounded up)"


@QUANTITIES.register("min")
@dataclass(frozen=True)
class Min(Quantity):
    parts: tuple[Quantity, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> Min:
        return cls(_parse_list(arg, at, 2))

    def value(self, g: Game, ctx: Ctx) -> int:
        return min(p.value(g, ctx) for p in self.parts)

    def render(self) -> str:
        return "the smaller of " + " and ".join(p.render() for p in self.parts)


@QUANTITIES.register("max")
@dataclass(frozen=True)
class Max(Quantity):
    parts: tuple[Quantity, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> Max:
        return cls(_parse_list(arg, at, 2))

    def value(self, g: Game, ctx: Ctx) -> int:
        return max(p.value(g, ctx) for p in self.parts)

    def render(self) -> str:
        return "the larger of " + " and ".join(p.render() for p in self.parts)


EVENT_AMOUNTS = ("amount", "advancements")  # advancements: a scored agenda's counters as it began to be scored


@QUANTITIES.register("event")
@dataclass(frozen=True)
class EventField(Quantity):
    field: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> EventField:
        if arg not in EVENT_AMOUNTS:
            at.fail(f"expected one of: {', '.join(EVENT_AMOUNTS)}")
        return cls(str(arg))

    def value(self, g: Game, ctx: Ctx) -> int:
        return int(ctx.event.get(self.field, 0)) if ctx.event else 0

    def render(self) -> str:
        return f"the {self.field} of the triggering event"


@QUANTITIES.register("paid")
@dataclass(frozen=True)
class Paid(Quantity):
    """The credits paid by this ability's last nested cost ("gain credits equal to the credits paid")."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> Paid:
        if arg is not True:
            at.fail("write `paid: true`")
        return cls()

    def value(self, g: Game, ctx: Ctx) -> int:
        return ctx.paid

    def render(self) -> str:
        return "the credits paid"


def _event_with_filters(arg: Any, at: At) -> Any:
    """`NAME` or `{event: NAME, <event filters>}`: an events.Trigger to count matching events with."""
    from judgebook.engine.language.events import parse_trigger
    from judgebook.engine.language.nodes import check_keys

    if isinstance(arg, str):
        return parse_trigger(arg, None, at, at)
    body = check_keys(arg, tuple(arg) if isinstance(arg, dict) else (), at)
    if "event" not in body:
        at.fail("expected an event name or {event: NAME, <event filters>}")
    filters = {k: v for k, v in body.items() if k != "event"} or None
    return parse_trigger(body["event"], filters, at.key(body, "event"), at)


def _events(scope: str) -> None:
    @dataclass(frozen=True)
    class EventsThis(Quantity):
        event: str
        trigger: Any = None  # with event filters: only the matching events count

        @classmethod
        def parse(cls, arg: Any, at: At) -> EventsThis:
            trigger = _event_with_filters(arg, at)
            return cls(trigger.event, trigger if trigger.filters else None)

        def value(self, g: Game, ctx: Ctx) -> int:
            from judgebook.engine.rules.history import count_this, facts_this

            if self.trigger is not None:
                return sum(1 for f in facts_this(g, scope) if self.trigger.matches(g, ctx, f.event))
            return count_this(g, self.event, scope)

        def render(self) -> str:
            from judgebook.engine.language.events import EVENT_PHRASES

            what = self.trigger.render().removeprefix("when ") if self.trigger else EVENT_PHRASES[self.event]
            return f"the number of times {what} happened this {scope}"

    EventsThis.__name__ = EventsThis.__qualname__ = f"Events_{scope}"
    QUANTITIES.register(f"events_this_{scope}")(EventsThis)


_events("turn")
_events("run")


@QUANTITIES.register("sum_this_turn")
@dataclass(frozen=True)
class SumThisTurn(Quantity):
    """A card statistic summed over this turn's events ("the printed agenda points on agendas you scored this
    turn"): `{sum_this_turn: {event: scored, player: you, of: printed_agenda_points}}`."""

    trigger: Any
    of: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> SumThisTurn:
        if not isinstance(arg, dict) or "of" not in arg or "event" not in arg:
            at.fail("sum_this_turn needs `event`, its event filters and `of` (a card statistic)")
        stats = [n for n, c in QUANTITIES.by_name.items() if c.__name__.startswith("CardStat_")]
        if arg["of"] not in stats:
            at.key(arg, "of").fail(f"`of` is a card statistic: {', '.join(stats)}")
        rest = {k: v for k, v in arg.items() if k != "of"}
        return cls(_event_with_filters(rest, at), str(arg["of"]))

    def value(self, g: Game, ctx: Ctx) -> int:
        from judgebook.engine.rules import values
        from judgebook.engine.rules.history import facts_this

        cards = [f.event.get("card") for f in facts_this(g, "turn") if self.trigger.matches(g, ctx, f.event)]
        return sum(values.card_stat(g, c, self.of) for c in cards if c in g.cards)

    def render(self) -> str:
        what = self.trigger.render().removeprefix("when ")
        return f"the total {self.of.replace('_', ' ')} of the cards of each {what} this turn"


@QUANTITIES.register("events_last_turn")
@dataclass(frozen=True)
class EventsLastTurn(Quantity):
    """How often an event happened during the turn before this one ("if the Runner made a successful run
    during their last turn"): `successful_run` or `{event: trashed, player: corp, by: runner}` with event
    filters."""

    trigger: Any  # events.Trigger: the event and its filters

    @classmethod
    def parse(cls, arg: Any, at: At) -> EventsLastTurn:
        return cls(_event_with_filters(arg, at))

    def value(self, g: Game, ctx: Ctx) -> int:
        return sum(1 for f in g.last_turn if self.trigger.matches(g, ctx, f.event))

    def render(self) -> str:
        return f"the number of times {self.trigger.render().removeprefix('when ')} happened during the last turn"
