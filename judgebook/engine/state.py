"""The game state as a value: frozen dataclasses, replaced (never mutated) on change."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from judgebook.engine.cards import Modifier


@dataclass(frozen=True)
class CardState:
    id: str
    name: str
    owner: str                           # corp | runner
    rezzed: bool = False
    faceup: bool = True
    counters: tuple[tuple[str, int], ...] = ()
    chosen: str | None = None

    def count(self, kind: str) -> int:
        return dict(self.counters).get(kind, 0)

    def with_counter(self, kind: str, delta: int) -> CardState:
        counts = dict(self.counters)
        counts[kind] = max(0, counts.get(kind, 0) + delta)
        return replace(self, counters=tuple(sorted((k, v) for k, v in counts.items() if v)))


@dataclass(frozen=True)
class PlayerState:
    side: str
    credits: int = 5
    clicks: int = 0
    hand_size: int = 5
    tags: int = 0
    bad_publicity: int = 0
    core_damage: int = 0
    link: int = 0
    memory: int = 4                      # the Runner's memory limit


@dataclass(frozen=True)
class RunState:
    server: str
    seq: int
    position: int | None = None          # index into the server's ice, outermost = 0
    phase: str = "initiation"
    ended: bool = False
    ended_by: str | None = None
    reached_success: bool = False
    successful: bool = False
    breached: bool = False
    encounter: str | None = None         # id of the ice being encountered
    encounter_seq: int = 0
    encounter_over: bool = False
    bypassed: bool = False
    broken: tuple[int, ...] = ()         # 0-based subroutine indexes broken this encounter
    strength: tuple[tuple[str, int], ...] = ()   # (card id, delta) for this encounter
    run_strength: tuple[tuple[str, int], ...] = ()  # (card id, delta) for this run
    access_bonus: int = 0
    bp_fund: int = 0
    vacated: bool = False                # the ice at the Runner's position left it
    fully_broken: bool = False           # the encountered ice was fully broken this encounter


@dataclass(frozen=True)
class Lasting:
    modifier: Modifier | None
    duration: str                        # run | turn | encounter
    source: str
    turn: int
    run_seq: int | None
    encounter_seq: int | None
    ability: Any = None                  # a delayed conditional ability (cards.Ability)
    target: str | None = None            # the card the creating ability chose ("that program")


@dataclass(frozen=True)
class GameState:
    active: str
    turn: int
    corp: PlayerState
    runner: PlayerState
    cards: dict[str, CardState]          # never mutated: replaced with a new dict on change
    zones: dict[str, tuple[str, ...]]    # "corp.hand", "corp.server.HQ.ice", "runner.installed", ...
    servers: tuple[str, ...]
    run: RunState | None = None
    lasting: tuple[Lasting, ...] = ()
    used: frozenset = frozenset()        # (card id, ability id) used this turn
    winner: str | None = None
    win_reason: str | None = None

    def player(self, side: str) -> PlayerState:
        return self.corp if side == "corp" else self.runner


def other(side: str) -> str:
    return "runner" if side == "corp" else "corp"


def with_player(state: GameState, side: str, **changes: Any) -> GameState:
    return replace(state, **{side: replace(state.player(side), **changes)})


def with_card(state: GameState, card: CardState) -> GameState:
    return replace(state, cards={**state.cards, card.id: card})


def with_run(state: GameState, **changes: Any) -> GameState:
    return replace(state, run=replace(state.run, **changes)) if state.run else state


def zone_of(state: GameState, card_id: str) -> str | None:
    return next((z for z, ids in state.zones.items() if card_id in ids), None)


def move(state: GameState, card_id: str, zone: str, top: bool = False, index: int | None = None) -> GameState:
    """Move a card to the end of `zone` (its front when `top`, or before position `index`)."""
    zones = {z: tuple(i for i in ids if i != card_id) for z, ids in state.zones.items()}
    current = zones.get(zone, ())
    if index is not None:
        zones[zone] = current[:index] + (card_id,) + current[index:]
    else:
        zones[zone] = (card_id,) + current if top else current + (card_id,)
    return replace(state, zones=zones)


def ice_of(state: GameState, server: str) -> tuple[str, ...]:
    return state.zones.get(f"corp.server.{server}.ice", ())


def root_of(state: GameState, server: str) -> tuple[str, ...]:
    return state.zones.get(f"corp.server.{server}.root", ())


def installed_ids(state: GameState) -> list[str]:
    """Installed cards in board order: Corp servers (ice outermost first, then root), then Runner."""
    out: list[str] = []
    for server in state.servers:
        out += list(ice_of(state, server)) + list(root_of(state, server))
    return out + list(state.zones.get("runner.installed", ()))


def score_points(state: GameState, side: str, points: dict[str, int]) -> int:
    return sum(points.get(state.cards[c].name, 0) for c in state.zones.get(f"{side}.score", ()))


def summary(state: GameState) -> dict[str, Any]:
    """A flat view used for the timeline's state changes and for expectations."""
    out: dict[str, Any] = {}
    for side in ("corp", "runner"):
        p = state.player(side)
        out[f"{side}.credits"] = p.credits
        out[f"{side}.clicks"] = p.clicks
        if side == "runner":
            out["runner.tags"] = p.tags
            out["runner.core_damage"] = p.core_damage
        else:
            out["corp.bad_publicity"] = p.bad_publicity
    for zone, ids in state.zones.items():
        out[zone] = list(ids)
    for card in state.cards.values():
        if card.rezzed:
            out[f"{card.id}.rezzed"] = True
        for kind, n in card.counters:
            out[f"{card.id}.{kind}"] = n
    if state.run:
        out["run.server"] = state.run.server
        out["run.position"] = state.run.position
    out["active"] = state.active
    return out


def diff(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list]:
    keys = list(dict.fromkeys(list(before) + list(after)))
    return {k: [before.get(k), after.get(k)] for k in keys if before.get(k) != after.get(k)}
