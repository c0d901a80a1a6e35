"""Compare a replay with the outcome a scenario's `expect` block states (LANGUAGE.md §8)."""
from __future__ import annotations

from typing import Any

from judgebook.engine.errors import IllegalDecision
from judgebook.engine.scenario import Scenario
from judgebook.engine.timeline import Timeline


def verify(scenario: Scenario) -> list[str]:
    """Replay the scenario and return every mismatch with its `expect` block (empty: it matches)."""
    from judgebook.engine.replay import replay
    try:
        timeline = replay(scenario)
    except IllegalDecision as exc:
        return check_expectations(scenario, None, exc)
    return check_expectations(scenario, timeline)


def check_expectations(scenario: Scenario, timeline: Timeline | None,
                       error: IllegalDecision | None = None) -> list[str]:
    exp = scenario.expect
    if exp is None:
        return [] if error is None else [f"unexpected error: {error}"]
    if exp.error_rule:
        if error is None:
            return [f"expected an illegal decision citing {exp.error_rule}, the replay succeeded"]
        return [] if error.rule == exp.error_rule else [
            f"expected an error citing {exp.error_rule}, got {error.rule}: {error}"]
    if error is not None:
        return [f"unexpected error: {error}"]
    out = t_outcome(exp, timeline)
    out += t_run(exp, timeline)
    out += t_resolved(exp, timeline)
    out += t_resolved_in(exp, timeline)
    for side, fields in exp.state:
        if side == "cards":
            out += t_cards(timeline, fields)
            continue
        for key, want in fields:
            out += t_state(scenario, timeline, side, key, want)
    return out


def t_cards(timeline: Timeline, fields) -> list[str]:
    out = []
    views = timeline.outcome.final.get("cards", {})
    for cid, body in fields:
        view = views.get(str(cid))
        if view is None:
            out.append(f"state.cards.{cid}: no such card")
            continue
        for key, want in body.items():
            got = view.get(key)
            if key == "counters":
                got = {k: view["counters"].get(k, 0) for k in want}
                want = {k: v for k, v in want.items()}
            if got != want:
                out.append(f"state.cards.{cid}.{key}: expected {want!r}, got {got!r}")
    return out


def t_outcome(exp, timeline: Timeline) -> list[str]:
    out = []
    winner = timeline.outcome.winner or "none"
    if exp.winner and exp.winner != winner:
        out.append(f"winner: expected {exp.winner}, got {winner}")
    if exp.win_reason and exp.win_reason != timeline.outcome.reason:
        out.append(f"win_reason: expected {exp.win_reason}, got {timeline.outcome.reason}")
    return out


def t_run(exp, timeline: Timeline) -> list[str]:
    if not exp.run:
        return []
    if not timeline.outcome.runs:
        return ["run: expected a run, none completed"]
    last = timeline.outcome.runs[-1]
    got = {"successful": last.successful, "ended_by": last.ended_by, "server": last.server}
    return [f"run.{k}: expected {v!r}, got {got[k]!r}" for k, v in exp.run if got[k] != v]


def _hits(label: str, resolved: tuple[str, ...]) -> list[int]:
    return [i for i, r in enumerate(resolved) if r == label or r.split(":")[0] == label]


def t_resolved(exp, timeline: Timeline) -> list[str]:
    resolved = timeline.outcome.resolved
    out, last = [], -1
    for label in exp.resolved:
        later = [i for i in _hits(label, resolved) if i > last]
        if not later:
            out.append(f"resolved: expected {label} to resolve after the previous ones; resolved order "
                       f"was {list(resolved)}")
            continue
        last = later[0]
    out += [f"not_resolved: {label} resolved" for label in exp.not_resolved if _hits(label, resolved)]
    return out


def t_resolved_in(exp, timeline: Timeline) -> list[str]:
    """Where an ability began resolving: a phase or step label on the step's path, or its anchor."""
    out = []
    for label, where in exp.resolved_in:
        steps = [s for s in timeline.steps if s.ability and (s.ability == label or s.ability.split(":")[0] == label)]
        if not steps:
            out.append(f"resolved_in: {label} never resolved")
            continue
        step = steps[0]
        near = [x for x in timeline.steps if x.n <= step.n]
        anchors = {x.rule for x in near[-3:]}
        if where not in step.path and where != step.phase and where not in anchors:
            out.append(f"resolved_in: {label} resolved at {' > '.join(step.path)} (step {step.n}), "
                       f"not {where!r}")
    return out


def t_state(scenario: Scenario, timeline: Timeline, side: str, key: str, want: Any) -> list[str]:
    final = timeline.outcome.final
    if key in ("credits", "clicks", "tags", "bad_publicity", "core_damage"):
        got = final.get(f"{side}.{key}")
    elif key in ("hand", "deck", "discard"):
        ids = final.get(f"{side}.{key}", [])
        got = len(ids) if isinstance(want, int) else ids
        if isinstance(want, list):
            return [] if sorted(map(str, want)) == sorted(ids) else [f"state.{side}.{key}: expected {want}, got {ids}"]
    elif key == "installed":
        zones = [z for z in final if z == "runner.installed" or z.startswith("corp.server.")]
        have = {c for z in zones if z.startswith(side) for c in final[z]}
        missing = [c for c in want if c not in have]
        return [f"state.{side}.installed: {missing} not installed"] if missing else []
    elif key == "trashed":
        missing = [c for c in want if c not in final.get(f"{side}.discard", [])]
        return [f"state.{side}.trashed: {missing} not in the discard pile"] if missing else []
    elif key == "scored":
        missing = [c for c in want if c not in final.get(f"{side}.score", [])]
        return [f"state.{side}.scored: {missing} not in the score area"] if missing else []
    elif key == "score":
        points = {n: d.agenda_points for n, d in scenario.cards.items()}
        got = sum(points.get(_name(c), 0) for c in final.get(f"{side}.score", []))
    elif key == "rezzed":
        missing = [c for c in want if not final.get(f"{c}.rezzed")]
        return [f"state.{side}.rezzed: {missing} not rezzed"] if missing else []
    else:  # pragma: no cover - keys are validated when the scenario loads
        return [f"state.{side}.{key}: unknown"]
    return [] if got == want else [f"state.{side}.{key}: expected {want!r}, got {got!r}"]


def _name(cid: str) -> str:
    return cid.split("#")[0]
