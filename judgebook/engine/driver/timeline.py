"""A scripted replay as a numbered timeline of plain data, for the command line and the web page.

Each step carries where it happened in the timing structures (structure, phase, step labels), the
anchor of the rule behind it, how it was decided, and — on the last step a decision led to — what changed
on the board, in a player's words.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from judgebook.engine.driver.script import Outcome
from judgebook.engine.scenario.load import Scenario
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import SIDES, Game
from judgebook.engine.step_warnings import Known, StepWarning, replay_warnings


@dataclass(frozen=True)
class TimelineStep:
    n: int
    phase: str  # innermost structure and phase, e.g. "run: encounter ice"
    path: tuple[str, ...]
    event: str
    text: str
    rule: str | None
    state: dict[str, list[Any]]  # what changed: key -> [before, after]
    assumed: bool = False  # a default was taken, not a scripted decision
    how: str = "engine"
    player: str | None = None
    ability: str | None = None  # "Card:ability" that begins resolving at this step
    warnings: tuple[StepWarning, ...] = ()  # what the engine may get wrong here (step_warnings)


@dataclass(frozen=True)
class RunRecord:
    server: str
    successful: bool
    ended_by: str


@dataclass(frozen=True)
class Summary:
    winner: str | None
    reason: str | None
    stopped: str
    runs: tuple[RunRecord, ...] = ()
    resolved: tuple[str, ...] = ()
    loop: str | None = None
    error: str | None = None
    error_rule: str | None = None


@dataclass(frozen=True)
class Timeline:
    title: str
    source: str
    steps: tuple[TimelineStep, ...]
    outcome: Summary
    misses: tuple[str, ...] = field(default=())  # differences from the scenario's `expect`

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["steps"] = [dict(s, path=list(s["path"]), warnings=[w.as_json() for w in step.warnings])
                        for s, step in zip(out["steps"], self.steps, strict=True)]
        out["outcome"]["runs"] = list(out["outcome"]["runs"])
        out["outcome"]["resolved"] = list(out["outcome"]["resolved"])
        out["misses"] = list(self.misses)
        return out


def board(g: Game) -> dict[str, Any]:
    """The board in a player's words: what a step can change."""
    out: dict[str, Any] = {}
    for side in SIDES:
        p = g.player(side)
        out[f"{side} credits"] = p.credits
        out[f"{side} clicks"] = p.clicks
        from judgebook.engine.rules.values import agenda_points

        out[f"{side} agenda points"] = agenda_points(g, side)
        out[f"{side} cards in hand"] = len(g.zone(f"{side}.hand"))
        out[f"{side} discard pile"] = list(g.zone(f"{side}.discard"))
        out[f"{side} installed"] = q.installed(g, side)
    out["runner tags"] = g.runner.tags
    out["corp bad publicity"] = g.corp.bad_publicity
    out["runner core damage"] = g.runner.core_damage
    out["rezzed"] = sorted(c for c, card in g.cards.items() if card.rezzed)
    out["counters"] = {c: dict(card.counters) for c, card in sorted(g.cards.items()) if card.counters}
    return out


def _diff(before: Game, after: Game) -> dict[str, list[Any]]:
    a, b = board(before), board(after)
    return {k: [a[k], b[k]] for k in b if a.get(k) != b[k]}


def timeline(sc: Scenario, out: Outcome, misses: list[str] | None = None, known: Known | None = None) -> Timeline:
    """The replay as numbered steps; with `known` (the rule map's "not yet" rows, a live mismatch), each step
    carries its warnings."""
    warned = replay_warnings(out.steps, out.states[-1], known) if known is not None and out.states else ()
    changes: dict[int, dict[str, list[Any]]] = {}
    for k in range(1, len(out.states)):
        last = out.marks[k] - 1
        if last >= 0:
            changes[last] = _diff(out.states[k - 1], out.states[k])
    steps = []
    for i, s in enumerate(out.steps):
        phase = " / ".join(s.path[-3:-1]) if len(s.path) >= 3 else " / ".join(s.path)
        steps.append(
            TimelineStep(
                n=i + 1,
                phase=phase,
                path=s.path,
                event=s.kind,
                text=s.text,
                rule=s.anchor,
                state=changes.get(i, {}),
                assumed=s.how == "assumed",
                how=s.how,
                player=s.player,
                ability=f"{s.card}:{s.ability}" if s.kind in ("resolve", "subroutine") else None,
                warnings=warned[i] if warned else (),
            )
        )
    g = out.states[-1] if out.states else None
    runs: list[RunRecord] = []
    seen: set[int] = set()
    for state in out.states:
        for fact in state.history:
            if fact.event.name == "run_ends" and fact.run not in seen:
                seen.add(fact.run)
                runs.append(
                    RunRecord(
                        str(fact.event.get("server")),
                        bool(fact.event.get("successful")),
                        str(fact.event.get("ended_by") or "complete"),
                    )
                )
    summary = Summary(
        winner=g.winner if g else None,
        reason=g.win_reason if g else None,
        stopped=out.ended,
        runs=tuple(runs),
        resolved=tuple(s.ability for s in steps if s.ability),
        loop=str(out.limit) if out.limit else None,
        error=str(out.error) if out.error else None,
        error_rule=out.error.rule if out.error else None,
    )
    return Timeline(sc.title, sc.source, tuple(steps), summary, tuple(misses or ()))
