"""Trigger events and the filters a conditional ability puts on them (`trigger:` and `when:`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.language.context import PLAYER_WORDS, Ctx, player_phrase
from judgebook.engine.language.grammar import article
from judgebook.engine.language.nodes import At
from judgebook.engine.language.registry import Registry
from judgebook.engine.language.selectors import resolve_ref, server_matches
from judgebook.engine.language.value import Value
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game, GameEvent

# Each event the language knows, as it reads in a printed trigger ("When the Runner encounters ..."); the
# trigger's filters follow it. The imminent events (would_*) are what an interrupt waits for.
EVENT_PHRASES = {
    "turn_begins": "your turn begins",
    "turn_ends": "your turn ends",
    "action_phase_ends": "your action phase ends",
    "run_begins": "a run begins",
    "approach_ice": "the Runner approaches a piece of ice",
    "encounter_ice": "the Runner encounters a piece of ice",
    "bypass": "the Runner bypasses a piece of ice",
    "pass_ice": "the Runner passes a piece of ice",
    "approach_server": "the Runner approaches a server",
    "successful_run": "the Runner makes a successful run",
    "breach": "the Runner breaches a server",
    "access": "the Runner accesses a card",
    "run_ends": "a run ends",
    "run_unsuccessful": "a run is unsuccessful",
    "installed": "a player installs a card",
    "rezzed": "the Corp rezzes a card",
    "derezzed": "a card is derezzed",
    "played": "a card is played",
    "trashed": "a card is trashed",
    "moved_to_root": "a card is moved to the root of a server",
    "uninstalled": "a card is uninstalled",
    "scored": "an agenda is scored",
    "stolen": "an agenda is stolen",
    "forfeited": "an agenda is forfeited",
    "damage": "damage is done",
    "tags_taken": "tags are taken",
    "tags_removed": "tags are removed",
    "purge": "virus counters are purged",
    "drawn": "a card is drawn",
    "subroutine_broken": "a subroutine is broken",
    "subroutine_resolved": "a subroutine resolves",
    "fully_broken": "a piece of ice is fully broken",
    "encounter_ends": "an encounter ends",
    "ability_used": "an ability is used",
    "advanced": "a card is advanced",
    "clicks_spent": "[click] are spent",
    "credits_spent": "credits are spent",
    "credits_gained": "a player gains credits",
    "credits_lost_or_spent": "an ability makes a player lose or spend credits",
    "finished_resolving": "a player finishes resolving a played card or an action",
    "hosted_credits_spent": "hosted credits are spent",
    "action_completed": "a player finishes taking an action",
    "would_damage": "damage would be taken",
    "would_tags": "tags would be taken",
    "would_trash": "a card would be trashed",
    "would_end_run": "the run would end",
    "revealed": "cards are revealed",
    "discarded": "cards are discarded to maximum hand size",
}
EVENTS = tuple(EVENT_PHRASES)


class EventFilter(Value):
    name = ""

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        raise NotImplementedError

    def render(self) -> str:
        raise NotImplementedError


EVENT_FILTERS: Registry[EventFilter] = Registry("event filter")


def _card_field(key: str, words: str) -> None:
    @dataclass(frozen=True, eq=False)
    class CardField(EventFilter):
        ref: str

        @classmethod
        def parse(cls, arg: Any, at: At) -> CardField:
            if not isinstance(arg, str):
                at.fail(f"{key} is self, chosen, host or a card id")
            return cls(arg)

        def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
            roles = event.get("roles")
            if roles is not None and self.ref in ("accessed", "encountered", "approached"):
                # a role held for a while: judged by the state the event happened in (rules/triggers.py)
                return f"{key}:{self.ref}" in roles
            return event.get(key) in resolve_ref(g, ctx, self.ref)

        def render(self) -> str:
            return f"{words} is {'this card' if self.ref == 'self' else 'the ' + self.ref + ' card'}"

    CardField.__name__ = CardField.__qualname__ = f"EventCard_{key}"
    EVENT_FILTERS.register(key)(CardField)


_card_field("card", "the card")
_card_field("ice", "the ice")
_card_field("breaker", "the breaking card")  # "whenever this program fully breaks a piece of ice"


@EVENT_FILTERS.register("player")
@dataclass(frozen=True, eq=False)
class ByPlayer(EventFilter):
    who: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> ByPlayer:
        if arg not in PLAYER_WORDS:
            at.fail(f"player is one of: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return bool(event.get("player") == ctx.side(self.who))

    def render(self) -> str:
        return f"the player is {player_phrase(self.who)}"


@EVENT_FILTERS.register("by")
@dataclass(frozen=True, eq=False)
class DoneBy(EventFilter):
    who: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> DoneBy:
        if arg not in PLAYER_WORDS:
            at.fail(f"by is one of: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return bool(event.get("by") == ctx.side(self.who))

    def render(self) -> str:
        return f"done by {player_phrase(self.who)}"


@EVENT_FILTERS.register("server")
@dataclass(frozen=True, eq=False)
class OnServer(EventFilter):
    server: str
    among: tuple[str, ...] = ()  # a list: on any of these servers ("a run on HQ or R&D")

    @classmethod
    def parse(cls, arg: Any, at: At) -> OnServer:
        if isinstance(arg, list) and len(arg) >= 2 and all(isinstance(a, str) for a in arg):
            return cls("among", tuple(arg))
        if not isinstance(arg, str):
            at.fail("server is a server name, this, central, remote, mark or a list of servers")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        if self.among:
            return any(server_matches(g, ctx, s, event.get("server")) for s in self.among)
        if self.server == "this" and event.get("card") == ctx.source and q.server_of(g, ctx.source) is None:
            # Its own move out of its server ("a card (including this upgrade) trashed from this server"): this
            # server is the one the event says it left.
            return event.get("server") is not None
        if self.server == "mark" and event.get("mark") is not None:
            # The mark when the event happened, not the present one (rule_mark_designated_condition_check).
            return bool(event.get("mark")) and event.get("server") == event.get("mark")
        return server_matches(g, ctx, self.server, event.get("server"))

    def place(self) -> str:
        """The server as a trigger names it ("when the Runner approaches this server")."""
        if self.among:
            return " or ".join(self.among)
        return {"this": "this server", "central": "a central server", "remote": "a remote server",
                "mark": "the Runner's mark", "chosen": "the chosen server"}.get(self.server, self.server)

    def render(self) -> str:
        return f"on {self.place()}"


def _value_field(key: str, choices: tuple[str, ...] | None) -> None:
    @dataclass(frozen=True, eq=False)
    class ValueField(EventFilter):
        value: Any

        @classmethod
        def parse(cls, arg: Any, at: At) -> ValueField:
            # A list is "any of these" ("whenever you install a program or piece of hardware").
            if isinstance(arg, list) and choices is not None and arg and all(a in choices for a in arg):
                return cls(tuple(arg))
            if choices is not None and arg not in choices:
                at.fail(f"{key} is one of: {', '.join(choices)} (or a list of them)")
            return cls(arg)

        def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
            if isinstance(self.value, tuple):
                return event.get(key) in self.value
            return bool(event.get(key) == self.value)

        def render(self) -> str:
            return f"{key.replace('_', ' ')} {self.value}"

    ValueField.__name__ = ValueField.__qualname__ = f"EventValue_{key}"
    EVENT_FILTERS.register(key)(ValueField)


_value_field("type", ("agenda", "asset", "upgrade", "ice", "operation", "event", "program", "hardware", "resource"))
_value_field("damage_type", ("net", "meat", "core"))
_value_field("ability", None)
_value_field("trash_cost", (True, False))  # type: ignore[arg-type]
_value_field("fully_broken", (True, False))  # type: ignore[arg-type]
_value_field("successful", (True, False))  # type: ignore[arg-type]  # a run that ends: was it successful
_value_field("action", (True, False))  # type: ignore[arg-type]  # the used ability was an action ([click] cost)
_value_field("from_hand", (True, False))  # type: ignore[arg-type]  # an installed card came from its owner's hand


@EVENT_FILTERS.register("ice_subtype")
@dataclass(frozen=True, eq=False)
class IceSubtype(EventFilter):
    subtype: str  # one subtype, or several joined by " or " ("AP, destroyer, or observer ice")

    @classmethod
    def parse(cls, arg: Any, at: At) -> IceSubtype:
        names = arg if isinstance(arg, list) else [arg]
        if not names or not all(isinstance(n, str) for n in names):
            at.fail("ice_subtype is a subtype or a list of subtypes")
        return cls(" or ".join(names))

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        from judgebook.engine.rules.gained_abilities import subtypes  # as effects change them

        ice = event.get("ice") or event.get("card")  # an encounter's ice, or the card rezzed / installed
        return ice in g.cards and any(s in subtypes(g, ice) for s in self.subtype.split(" or "))

    def render(self) -> str:
        return f"the ice is {article(self.subtype)}"


@EVENT_FILTERS.register("subtype")
@dataclass(frozen=True, eq=False)
class CardSubtype(EventFilter):
    """The event's card has a subtype ("whenever you install a virus program", "play a run event")."""

    subtype: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> CardSubtype:
        if not isinstance(arg, str):
            at.fail("subtype is a subtype")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        from judgebook.engine.rules.gained_abilities import subtypes  # as effects change them

        card = event.get("card")
        return card in g.cards and self.subtype in subtypes(g, card)

    def render(self) -> str:
        return f"the card is {article(self.subtype)}"


@EVENT_FILTERS.register("not_subtype")
@dataclass(frozen=True, eq=False)
class CardNotSubtype(EventFilter):
    """The event's card (or, for an encounter, its ice) lacks a subtype ("a non-AI icebreaker", "if it is
    not a barrier")."""

    subtype: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> CardNotSubtype:
        if not isinstance(arg, str):
            at.fail("not_subtype is a subtype")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        from judgebook.engine.rules.gained_abilities import subtypes  # as effects change them

        card = event.get("card") or event.get("ice")
        return card in g.cards and self.subtype not in subtypes(g, card)

    def render(self) -> str:
        return f"the card is not {article(self.subtype)}"


def _first(scope: str) -> None:
    @dataclass(frozen=True, eq=False)
    class First(EventFilter):
        @classmethod
        def parse(cls, arg: Any, at: At) -> First:
            if arg is not True:
                at.fail(f"write first_this_{scope}: true")
            return cls()

        def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
            return self.first_among(g, ctx, event, ())

        def first_among(self, g: Game, ctx: Ctx, event: GameEvent, others: tuple[EventFilter, ...]) -> bool:
            from judgebook.engine.rules.frames import current_run
            from judgebook.engine.rules.history import count_matching

            if scope == "run" and current_run(g) is None:
                return False
            if scope == "encounter":
                # Events of one encounter carry its number ("the first time you break a subroutine during each
                # encounter with host ice").
                seq = event.get("encounter_seq")
                earlier = [f.event for f in g.history
                           if f.event.name == event.name and f.event.get("encounter_seq") == seq]
                return seq is not None and sum(1 for e in earlier if all(o.matches(g, ctx, e) for o in others)) <= 1
            return count_matching(g, ctx, event, scope, others) <= 1

        def render(self) -> str:
            return f"the first time this {scope}"

    First.__name__ = First.__qualname__ = f"FirstEvent_{scope}"
    EVENT_FILTERS.register(f"first_this_{scope}")(First)


_first("turn")
_first("run")
_first("encounter")


@EVENT_FILTERS.register("rezzed")
@dataclass(frozen=True, eq=False)
class CardRezzed(EventFilter):
    """The event's card or ice is rezzed; a trashed card's event says whether it was."""

    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> CardRezzed:
        if not isinstance(arg, bool):
            at.fail("rezzed is true or false")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        was = event.get("rezzed")
        if was is None:
            card = event.get("ice") or event.get("card")
            was = card in g.cards and g.cards[card].rezzed
        return bool(was) == self.want

    def render(self) -> str:
        return "the card is rezzed" if self.want else "the card is not rezzed"


@EVENT_FILTERS.register("installed")
@dataclass(frozen=True, eq=False)
class CardInstalled(EventFilter):
    want: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> CardInstalled:
        if not isinstance(arg, bool):
            at.fail("installed is true or false")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        # A trashed card is no longer installed: its event says whether it was (the Runner trashes an installed card).
        was = event.get("installed")
        if was is not None:
            return bool(was) == self.want
        card = event.get("card")
        return card in g.cards and q.is_installed(g, card) == self.want

    def render(self) -> str:
        return "the card is installed" if self.want else "the card is not installed"


FROM_ZONES = ("hand", "deck", "discard", "play", "installed")


@EVENT_FILTERS.register("from_zone")
@dataclass(frozen=True, eq=False)
class FromZone(EventFilter):
    """Where the event's card was before it moved ("when this event is trashed from your grip or stack")."""

    zones: tuple[str, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> FromZone:
        zones = tuple(arg) if isinstance(arg, list) else (arg,)
        if not zones or any(z not in FROM_ZONES for z in zones):
            at.fail(f"from_zone is one or a list of: {', '.join(FROM_ZONES)}")
        return cls(tuple(str(z) for z in zones))

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return event.get("from_zone") in self.zones

    def render(self) -> str:
        return f"from {' or '.join(self.zones)}"


@dataclass(frozen=True, eq=False)
class Trigger(Value):
    event: str
    filters: tuple[EventFilter, ...]

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        if event.name != self.event:
            return False
        # "The first time" counts only the earlier events that pass this trigger's other filters too.
        others = tuple(f for f in self.filters if not hasattr(f, "first_among"))
        return all(
            f.first_among(g, ctx, event, others) if hasattr(f, "first_among") else f.matches(g, ctx, event)
            for f in self.filters
        )

    def render(self) -> str:
        words = ", ".join(f.render() for f in self.filters)
        return f"when {EVENT_PHRASES[self.event]}" + (f" ({words})" if words else "")


def parse_trigger(event: Any, filters: Any, at_event: At, at_filters: At) -> Trigger:
    if event not in EVENTS:
        at_event.fail(f"unknown event {event!r} (known: {', '.join(EVENTS)})")
    parsed: list[EventFilter] = []
    if filters is not None:
        if not isinstance(filters, dict):
            at_filters.fail("condition is a mapping of event filters")
        for key, value in filters.items():
            if key not in EVENT_FILTERS.by_name:
                at_filters.key(filters, str(key)).fail(
                    f"unknown event filter {key!r} (known: {', '.join(EVENT_FILTERS.names())}); "
                    "a condition on the state goes in `if:`"
                )
            parsed.append(EVENT_FILTERS.by_name[key].parse(value, at_filters.key(filters, str(key))))  # type: ignore
    return Trigger(str(event), tuple(parsed))


@EVENT_FILTERS.register("next_ice")
@dataclass(frozen=True, eq=False)
class NextIce(EventFilter):
    """Delayed abilities: the event belongs to the first encounter after the ability was created."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> NextIce:
        if arg is not True:
            at.fail("write next_ice: true")
        return cls()

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        seq = event.get("encounter_seq")
        if seq is None or seq <= ctx.since:
            return False
        firsts = [
            f.event.get("encounter_seq")
            for f in g.history
            if f.event.name == "encounter_ice" and (f.event.get("encounter_seq") or 0) > ctx.since
        ]
        return bool(firsts) and min(firsts) == seq

    def render(self) -> str:
        return "the next ice encountered"


@EVENT_FILTERS.register("during_install")
@dataclass(frozen=True, eq=False)
class DuringInstall(EventFilter):
    """A card trashed as part of an install (or, `false`, not: "except during installation"), such as a region
    the Corp trashes as it installs another in the same root (rule_region_install)."""

    value: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> DuringInstall:
        if not isinstance(arg, bool):
            at.fail("during_install is true or false")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return bool(event.get("during_install")) == self.value

    def render(self) -> str:
        return "during installation" if self.value else "except during installation"


@EVENT_FILTERS.register("source_type")
@dataclass(frozen=True, eq=False)
class SourceType(EventFilter):
    """The type of the card whose ability caused the event (credits_gained: "gain credits through an ability
    on an agenda or operation"), or one of a list."""

    types: tuple[str, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> SourceType:
        names = arg if isinstance(arg, list) else [arg]
        if not names or not all(isinstance(n, str) for n in names):
            at.fail("source_type is a card type or a list of card types")
        return cls(tuple(names))

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return event.get("source_type") in self.types

    def render(self) -> str:
        return f"through an ability on {article(' or '.join(self.types))}"


@EVENT_FILTERS.register("source_side")
@dataclass(frozen=True, eq=False)
class SourceSide(EventFilter):
    """Whose card's ability caused the event (credits_lost_or_spent: "a Corp card ability")."""

    side: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> SourceSide:
        if arg not in ("corp", "runner"):
            at.fail("source_side is corp or runner")
        return cls(str(arg))

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return bool(event.get("source_side") == self.side)

    def render(self) -> str:
        return f"because of a {'Corp' if self.side == 'corp' else 'Runner'} card ability"


@EVENT_FILTERS.register("any_of")
@dataclass(frozen=True, eq=False)
class AnyOf(EventFilter):
    """The event passes every filter of at least one of the groups ("an operation or an action on an
    expendable card": `any_of: [{type: operation}, {action: true, subtype: expendable}]`)."""

    groups: tuple[tuple[EventFilter, ...], ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> AnyOf:
        if not isinstance(arg, list) or len(arg) < 2 or not all(isinstance(a, dict) and a for a in arg):
            at.fail("any_of is a list of at least 2 mappings of event filters")
        groups = []
        for i, group in enumerate(arg):
            here = at.key(arg, i)
            for key in group:
                if key not in EVENT_FILTERS.by_name or key in ("any_of", "first_this_turn", "first_this_run"):
                    here.key(group, str(key)).fail(f"unknown event filter {key!r} inside any_of")
            groups.append(tuple(EVENT_FILTERS.by_name[k].parse(v, here.key(group, str(k)))  # type: ignore
                                for k, v in group.items()))
        return cls(tuple(groups))

    def matches(self, g: Game, ctx: Ctx, event: GameEvent) -> bool:
        return any(all(f.matches(g, ctx, event) for f in group) for group in self.groups)

    def render(self) -> str:
        return " or ".join("(" + ", ".join(f.render() for f in group) + ")" for group in self.groups)
