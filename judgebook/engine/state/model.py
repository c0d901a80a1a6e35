"""The game state: one immutable value holding everything rules-relevant.

Zones, cards and their counters, both players' pools, lasting effects with
their durations, once-per-turn/run/encounter use records, pending abilities,
the facts of this turn that conditions read ("the first time this turn"), and
the stack of timing structures in progress (turn, run, encounter, access,
ability resolution, priority windows) as frames. Nothing the rules care about
lives anywhere else, so two equal values are the same situation, and undo is
keeping the previous value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Literal

from judgebook.engine.state.fmap import FMap

if TYPE_CHECKING:
    from judgebook.engine.language.cards import Ability, CardLibrary
    from judgebook.engine.language.statics import Static
    from judgebook.engine.rules.frames import Frame
    from judgebook.engine.state.choice import ChoicePoint

Side = Literal["corp", "runner"]
SIDES: tuple[Side, Side] = ("corp", "runner")
Counters = FMap[str, int]
NO_COUNTERS: Counters = FMap()


def other(side: Side) -> Side:
    return "runner" if side == "corp" else "corp"


@dataclass(frozen=True)
class Card:
    """A card object. Moving to a new zone makes a new object (rule_new_object) but keeps the id,
    so scenarios can follow it; `incarnation` tells the objects apart."""

    id: str
    name: str
    owner: Side
    zone: str
    rezzed: bool = False
    faceup: bool = True
    counters: Counters = NO_COUNTERS
    host: str | None = None
    # Hosted without being installed (rule_host_without_install): set where an ability hosts a card that was
    # not installed; an install, or any move to a new zone, clears it.
    hosted_only: bool = False
    chosen: str | None = None  # a choice the card maintains (Femme Fatale's ice)
    incarnation: int = 0
    # The counters it had when it last moved to a new zone: its last known information, for an ability
    # still resolving after its card left play ("[trash]: gain 2[c] for each hosted counter").
    last_counters: Counters = NO_COUNTERS
    flipped: bool = False  # a double-faced identity shows its other face (language/identities.py)
    # Added to a score area "as an agenda" (rule_add_card_to_score_area): (agenda points, subtypes) it has there.
    as_agenda: tuple[int, tuple[str, ...]] | None = None

    def count(self, kind: str) -> int:
        return self.counters.get(kind, 0)

    def with_counter(self, kind: str, delta: int) -> Card:
        n = max(0, self.count(kind) + delta)
        return replace(self, counters=self.counters.set(kind, n) if n else self.counters.remove(kind))


@dataclass(frozen=True)
class Player:
    side: Side
    credits: int = 5
    clicks: int = 0
    tags: int = 0
    bad_publicity: int = 0
    core_damage: int = 0
    base_hand_size: int = 5
    base_link: int = 0
    base_memory: int = 4


@dataclass(frozen=True)
class Duration:
    """How long a lasting effect lasts: `kind` is encounter | run | turn | until_turn_end (of `player`'s
    next turn) | until_turn_begins | while (a condition holds); `key` pins the encounter/run/turn."""

    kind: str
    key: int = 0
    player: Side | None = None
    started: bool = False  # until a player's *next* turn: that turn has begun
    condition: Any = None  # kind `while`: the Condition it lasts while


@dataclass(frozen=True)
class Lasting:
    effect: Static | None  # a lingering static effect, or
    duration: Duration
    source: str
    controller: Side
    target: str | None = None  # the card the creating ability chose ("that program")
    ability: Ability | None = None  # a delayed conditional ability (rule_delayed_conditional_ability)
    since: int = 0  # the game's sequence number when it was created
    named: str = ""  # the card name its creating ability chose ("the next time you access ... the chosen name")
    # A delayed ability of an installed card: the object that created it. Its "this card" is that object only;
    # once the card changes zones it is a new object the ability cannot act on (rule_abilities_resolution_independent).
    incarnation: int | None = None


@dataclass(frozen=True)
class Use:
    """A once-per-scope ability was used: `scope` is turn | run | encounter, `key` which one; `incarnation`
    the object that used it (a card that changed zones is a new object with no memory of it, rule_no_memory)."""

    card: str
    ability: str
    scope: str
    key: int
    incarnation: int = 0


@dataclass(frozen=True)
class GameEvent:
    """Something that happened, which trigger conditions and history read."""

    name: str
    fields: FMap[str, Any] = field(default_factory=FMap)

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass(frozen=True)
class Fact:
    """A past event of this turn, with the run it belonged to (for 'first time this turn/run')."""

    event: GameEvent
    turn: int
    run: int


@dataclass(frozen=True)
class Pending:
    """A conditional ability whose trigger condition was met, waiting to resolve."""

    card: str
    ability: str
    controller: Side
    event: GameEvent
    lki: bool = False  # its source left play: it resolves with last known information
    target: str | None = None  # delayed abilities: the card their creator chose
    serial: int = field(default=0, compare=False)  # only tells instances apart in the timeline
    delayed: Ability | None = None  # a delayed conditional ability (it has no card definition)
    since: int = 0
    incarnation: int | None = None  # delayed: the object that created it (Lasting.incarnation)

    @property
    def label(self) -> str:
        return f"{self.card}:{self.ability}"


@dataclass(frozen=True)
class Step:
    """One line of the timeline: what happened, the rule behind it, and how it was decided."""

    kind: str  # an event name, a decision kind, or a structure step
    text: str
    anchor: str
    player: Side | None = None
    how: str = "engine"  # engine | chosen | only | default | assumed
    path: tuple[str, ...] = ()  # where in the timing structures: ("Runner's turn", "run", ...)
    card: str | None = None
    ability: str | None = None
    changes: tuple[str, ...] = ()  # state changes in plain words


@dataclass(frozen=True)
class Game:
    turn: int
    active: Side
    corp: Player
    runner: Player
    cards: FMap[str, Card]
    zones: FMap[str, tuple[str, ...]]
    servers: tuple[str, ...]
    stack: tuple[Frame, ...] = ()
    lasting: tuple[Lasting, ...] = ()
    uses: frozenset[Use] = frozenset()
    pending: tuple[Pending, ...] = ()
    history: tuple[Fact, ...] = ()
    # The facts of the turn before this one: "during their last turn" (Oppo Research, Public Trail...).
    last_turn: tuple[Fact, ...] = ()
    seq: int = 0  # the last number handed out to an encounter or a pending ability
    runs: int = 0  # runs begun this game (a run's own number)
    winner: str | None = None
    win_reason: str | None = None
    ended: str | None = None  # why the replay stopped, when it did not stop at a choice point
    # Not part of the situation: the card definitions (constant for the game), the steps produced
    # since the last `advance`, and the open choice point (derived, cached).
    library: CardLibrary = field(compare=False, hash=False, repr=False, default=None)  # type: ignore[assignment]
    out: tuple[Step, ...] = field(compare=False, hash=False, repr=False, default=())
    point: ChoicePoint | None = field(compare=False, hash=False, repr=False, default=None)
    # The states passed through since the last real decision (only single-option points in between), for
    # the loop rule; part of no situation, so not compared.
    trail: tuple[Game, ...] = field(compare=False, hash=False, repr=False, default=())

    def player(self, side: Side) -> Player:
        return self.corp if side == "corp" else self.runner

    def card(self, cid: str) -> Card:
        return self.cards[cid]

    def zone(self, name: str) -> tuple[str, ...]:
        return self.zones.get(name, ())

    @property
    def over(self) -> bool:
        return self.winner is not None or self.ended is not None

    def top(self) -> Frame | None:
        return self.stack[-1] if self.stack else None


_FIELDS = frozenset(f.name for f in fields(Game))


def evolve(g: Game, **changes: Any) -> Game:
    """`dataclasses.replace` for the game state, without its per-call introspection: the step function
    makes a new state for every step, and `replace` was half of a replay's time."""
    unknown = changes.keys() - _FIELDS
    if unknown:
        raise TypeError(f"Game has no field {sorted(unknown)}")
    new = object.__new__(Game)
    new.__dict__.update(g.__dict__)
    new.__dict__.update(changes)
    return new
