"""A scripted replay: a driver over `choices`/`advance` that takes the script's decisions first and the
stated defaults otherwise, and checks the outcome against the scenario's `expect`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgebook.engine.driver.choice import ChoicePoint, Decision, Refused, decision
from judgebook.engine.driver.step import advance, start
from judgebook.engine.errors import EngineLimit, IllegalDecision, ScenarioError
from judgebook.engine.scenario.board import Decision as ScriptDecision
from judgebook.engine.scenario.load import Scenario, setup
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game, Step


@dataclass
class Outcome:
    states: list[Game] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    ended: str = ""
    error: IllegalDecision | None = None
    limit: EngineLimit | None = None
    marks: list[int] = field(default_factory=list)  # len(steps) after each state: which steps led to it
    used: list[int] = field(default_factory=list)  # scripted decisions used when each state was reached

    @property
    def final(self) -> Game:
        return self.states[-1]


RUN_PHASES = ("run", "initiation", "approach_ice", "encounter_ice", "movement", "success", "breach", "access")


def as_decision(d: ScriptDecision) -> Decision:
    params = {k: v for k, v in d.params if k not in ("at", "if_able")}
    value = d.value
    if d.kind == "pass" and value is None:
        value = d.player
    return decision(d.kind, value, **params)


def _fits_here(d: ScriptDecision, point: ChoicePoint) -> bool:
    if d.player is not None and d.player != point.player:
        return False
    at = d.get("at")
    if at is None:
        return True
    words = str(at).replace("_", " ")
    return any(label == words or label.startswith(words + " ") for label in point.path)


CARD_DECISIONS = ("use", "rez", "score", "trigger", "decline")  # decision kinds whose value is a card id


def check_names(sc: Scenario, g: Game) -> None:
    """A decision naming a card that is not in the game can never fit: a malformed scenario, not a rule."""
    for d in sc.decisions:
        name = d.value if d.kind in CARD_DECISIONS else d.get("card") if d.kind == "action" else None
        if name is not None and str(name) not in g.cards:
            raise ScenarioError(f"no card {name!r} in this scenario", field=d.field, line=d.line, file=sc.file)


def replay(sc: Scenario, stop_when_used: bool = False) -> Outcome:
    """The scripted replay. `stop_when_used` (a session at the judge's table): stop at the first choice point
    after the last decision instead of taking defaults from there on; `ended` is then "decisions used"."""
    out = Outcome()
    first = setup(sc)
    check_names(sc, first)
    try:
        g, steps = start(first)
    except EngineLimit as exc:
        out.limit = exc
        return out
    out.states.append(g)
    out.steps += steps
    out.marks.append(len(out.steps))
    out.used.append(0)
    script = list(sc.decisions)
    i = 0
    unchosen = 0  # advances in a row with no scripted decision
    waiting: Refused | None = None  # the last refusal of the next scripted decision at a point it fitted
    while g.point is not None:
        if stop_when_used and i >= len(script):
            out.ended = "decisions used"
            break
        if unchosen > sc.max_steps:
            out.limit = EngineLimit(
                f"more than {sc.max_steps} steps with no scripted decision: an infinite loop nobody ends",
                "rule_mandatory_infinite_loop",
            )
            out.ended = "loop"
            break
        point = g.point
        chosen: Decision | None = None
        how = "chosen"
        if (
            i < len(script)
            and point.kind == "action"
            and script[i].kind == "action"
            and not _fits_here(script[i], point)
        ):
            # an action scripted for the other player: only the active player has an action window
            waiting = Refused(as_decision(script[i]), "an action", "rule_action_window_priority", "not their turn")
        if i < len(script) and _fits_here(script[i], point):
            wanted = as_decision(script[i])
            if point.find(wanted) is not None:
                chosen = wanted
                i += 1
                waiting = None
            else:
                refused = point.refusal(wanted)
                waiting = refused or waiting
                if refused is not None and not refused.later and script[i].get("if_able"):
                    # "Rez it if able": the decision falls back to the point's default, with the reason.
                    out.steps.append(
                        Step(
                            "not_able",
                            f"{refused.label}: {refused.reason}; the decision falls back to the default",
                            refused.rule,
                            point.player,
                            "chosen",
                            point.path,
                        )
                    )
                    i += 1
                    waiting = None
                elif refused is not None and not refused.later:
                    out.error = IllegalDecision(
                        f"{refused.label}: {refused.reason}", refused.rule, field=script[i].field, line=script[i].line
                    )
                    out.ended = "illegal decision"
                    break
        if chosen is None:
            if point.default is None or not point.options:
                out.ended = "script complete"
                break
            chosen = point.options[point.default].decision
            how = "only" if len(point.options) == 1 else "assumed"
            unchosen += 1
        else:
            unchosen = 0
        try:
            g, steps = advance(g, chosen, how)
        except IllegalDecision as exc:
            if how == "chosen" and i > 0:
                exc.field, exc.line = script[i - 1].field, script[i - 1].line
            out.error = exc
            out.ended = "illegal decision"
            break
        except EngineLimit as exc:
            out.limit = exc
            out.ended = "loop"
            break
        out.states.append(g)
        out.steps += steps
        out.marks.append(len(out.steps))
        out.used.append(i)
        if (
            i < len(script)
            and script[i].kind == "action"
            and any(s.kind == "action_phase_ends" and s.player == (script[i].player or s.player) for s in steps)
        ):
            d = script[i]
            side = next(s.player for s in steps if s.kind == "action_phase_ends")
            out.error = IllegalDecision(
                f"decision {d.describe()}: the {side} has no [click] left, so the action phase ends",
                f"step_{side}_turn_action",
                field=d.field,
                line=d.line,
            )
            out.ended = "illegal decision"
            break
        if i < len(script) and script[i].get("at") in RUN_PHASES and any(s.kind == "run_ends" for s in steps):
            d = script[i]
            out.error = IllegalDecision(
                f"decision {d.describe()} waits for a point of the run, but the run ended: its priority windows closed",
                "rule_run_ends_close_paws",
                field=d.field,
                line=d.line,
            )
            out.ended = "illegal decision"
            break
    else:
        out.ended = "game over" if g.winner else "no choice left"
    if out.error is None and i < len(script) and out.ended != "loop":
        d = script[i]
        # Refused for now at a point that may allow it later (ice rezzed outside its approach), and no later
        # point did: the refusal's rule is why it was never used.
        why = (
            (f"refused where it fitted: {waiting.reason}", waiting.rule)
            if waiting
            else ("no point fitted it", "rule_action_window")
        )
        out.error = IllegalDecision(
            f"decision {d.describe()} was never used: {why[0]}",
            why[1],
            field=d.field,
            line=d.line,
        )
    return out


def check(sc: Scenario, out: Outcome) -> list[str]:
    """The differences between the outcome and the scenario's `expect` (empty: as expected)."""
    exp = sc.expect
    if exp is None:
        return []
    diffs: list[str] = []
    if exp.error_rule:
        got = out.error.rule if out.error else None
        if got != exp.error_rule:
            diffs.append(f"error: expected rule {exp.error_rule}, got {got} ({out.error})")
        return diffs
    if out.error is not None:
        diffs.append(f"the replay stopped: {out.error}")
    if out.limit is not None:
        diffs.append(f"the replay stopped: {out.limit}")
    if not out.states:
        return diffs
    g = out.final
    if exp.winner is not None:
        got_w = g.winner or "none"
        if got_w != exp.winner:
            diffs.append(f"winner: expected {exp.winner}, got {got_w}")
    if exp.win_reason and g.win_reason != exp.win_reason:
        diffs.append(f"win reason: expected {exp.win_reason}, got {g.win_reason}")
    runs = [s for s in out.steps if s.kind == "run_ends"]
    if exp.run:
        ends = [e for e in _run_events(out)]
        if not ends:
            diffs.append("run: no run ended")
        else:
            last = ends[-1]
            for key, want in exp.run:
                if last.get(key) != want:
                    diffs.append(f"run.{key}: expected {want}, got {last.get(key)}")
    _ = runs
    resolved = [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]
    for label in exp.resolved:
        if not any(r == label or r.startswith(label + ":") for r in resolved):
            diffs.append(f"resolved: {label} never resolved")
    order = [
        next((k for k, r in enumerate(resolved) if r == lab or r.startswith(lab + ":")), -1) for lab in exp.resolved
    ]
    if all(o >= 0 for o in order) and order != sorted(order):
        diffs.append(f"resolved: expected the order {list(exp.resolved)}")
    for label in exp.not_resolved:
        if any(r == label or r.startswith(label + ":") for r in resolved):
            diffs.append(f"not_resolved: {label} resolved")
    for label, where in exp.resolved_in:
        places = [s for s in out.steps if s.kind == "resolve" and f"{s.card}:{s.ability}" in (label, f"{label}")]
        places = places or [s for s in out.steps if s.kind == "resolve" and f"{s.card}:{s.ability}".startswith(label)]
        if not places:
            diffs.append(f"resolved_in: {label} never resolved")
        elif not any(where in s.path or where == s.anchor for s in places):
            diffs.append(f"resolved_in: {label} resolved in {' > '.join(places[0].path)}, not in {where!r}")
    for side, fields in exp.state:
        diffs += _state_diffs(g, side, dict(fields))
    return diffs


def _run_events(out: Outcome) -> list[dict[str, Any]]:
    found = []
    for g in out.states:
        for fact in g.history:
            if fact.event.name == "run_ends":
                found.append(dict(fact.event.fields))
    seen: list[dict[str, Any]] = []
    for f in found:
        if f not in seen:
            seen.append(f)
    return seen


def _state_diffs(g: Game, side: str, fields: dict[str, Any]) -> list[str]:
    if side == "cards":
        diffs = []
        for cid, body in fields.items():
            card = g.cards.get(cid)
            if card is None:
                diffs.append(f"cards.{cid}: no such card")
                continue
            for key, want in body.items():
                if key == "rezzed" and card.rezzed != want:
                    diffs.append(f"cards.{cid}.rezzed: expected {want}, got {card.rezzed}")
                elif key == "counters":
                    for kind, n in want.items():
                        if card.count(kind) != n:
                            diffs.append(f"cards.{cid}.counters.{kind}: expected {n}, got {card.count(kind)}")
                elif key == "zone":
                    if _zone_word(g, cid) != want:
                        diffs.append(f"cards.{cid}.zone: expected {want}, got {_zone_word(g, cid)}")
                elif key == "strength":
                    from judgebook.engine.rules.values import strength

                    if strength(g, cid) != want:
                        diffs.append(f"cards.{cid}.strength: expected {want}, got {strength(g, cid)}")
        return diffs
    p = g.player(side)  # type: ignore[arg-type]
    diffs = []
    got: Any
    for key, want in fields.items():
        if key in ("credits", "clicks", "tags", "bad_publicity", "core_damage"):
            got = getattr(p, key)
        elif key in ("hand", "deck", "discard"):
            ids = list(g.zone(f"{side}.{key}"))
            got = len(ids) if isinstance(want, int) else ids
            if isinstance(want, list):
                got = [c for c in want if c in ids] if set(want) <= set(ids) else ids
        elif key == "installed":
            inst = q.installed(g, side)  # type: ignore[arg-type]
            missing = [c for c in want if c not in inst]
            if missing:
                diffs.append(f"{side}.installed: {missing} not installed")
            continue
        elif key == "trashed":
            missing = [c for c in want if c not in g.cards or not g.cards[c].zone.endswith("discard")]
            if missing:
                diffs.append(f"{side}.trashed: {missing} not in a discard pile")
            continue
        elif key == "score":
            got = q.agenda_points(g, side)  # type: ignore[arg-type]
        elif key == "scored":
            missing = [c for c in want if c not in g.zone(f"{side}.score")]
            if missing:
                diffs.append(f"{side}.scored: {missing} not in the score area")
            continue
        elif key == "rezzed":
            missing = [c for c in want if not g.cards[c].rezzed]
            if missing:
                diffs.append(f"{side}.rezzed: {missing} not rezzed")
            continue
        else:
            diffs.append(f"{side}.{key}: not checked by this engine yet")
            continue
        if got != want:
            diffs.append(f"{side}.{key}: expected {want}, got {got}")
    return diffs


def _zone_word(g: Game, cid: str) -> str:
    z = g.cards[cid].zone
    if q.is_installed(g, cid):
        return "installed"
    for word in ("hand", "deck", "discard", "score", "identity", "play", "removed"):
        if z.endswith(word):
            return word
    return z
