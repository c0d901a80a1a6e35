"""A scripted replay: a driver over `choices`/`advance` that takes the script's decisions first and the
stated defaults otherwise, and checks the outcome against the scenario's `expect`."""

from __future__ import annotations

from dataclasses import dataclass, field

from judgebook.engine.driver.choice import ChoicePoint, Decision, Refused, decision
from judgebook.engine.driver.step import advance, start
from judgebook.engine.errors import EngineLimit, IllegalDecision, ScenarioError
from judgebook.engine.scenario.board import Decision as ScriptDecision
from judgebook.engine.scenario.load import Scenario, setup
from judgebook.engine.scenario.verdict import check as check  # the verdict's old home, still imported by tests
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
