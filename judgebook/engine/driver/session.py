"""A session: the states of one game and the decisions between them, over the engine's pure step (`advance`).

Every driver of the engine is a session: a scripted replay (`follow` a scenario's decisions, taking the stated
defaults where none fits), `judgebook play` and the judge's table (`pick` an option of the open choice point,
`undo`). `follow` holds the one policy by which a scripted decision meets a choice point: it is taken where it
fits; a decision the point refuses with `if_able` falls back to the point's default, with the reason; one
refused for good stops the session with the rule; one that waits for a point of a run or an action window that
has gone by is too late. A session is a value: `follow`, `pick` and `undo` return a new one.

Text (YAML, the share link) is not this module's business: the edges turn a session into text and back.
`PREFIXES` keeps recent sessions by their decision prefix, so a session one decision longer than a kept one
costs one `follow` step from it, not a replay from the start.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

from judgebook.engine.driver.step import advance, start
from judgebook.engine.errors import EngineLimit, IllegalDecision, ScenarioError
from judgebook.engine.scenario.board import Decision as ScriptDecision
from judgebook.engine.scenario.load import Scenario, setup
from judgebook.engine.state.choice import ANY_NUMBER, ChoicePoint, Decision, Refused, decision
from judgebook.engine.state.model import Game, Step

RUN_PHASES = ("run", "initiation", "approach_ice", "encounter_ice", "movement", "success", "breach", "access")
CARD_DECISIONS = ("use", "rez", "score", "trigger", "decline")  # decision kinds whose value is a card id


@dataclass
class Outcome:
    """What a replay shows: the states, the steps between them, and how it ended."""

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


def as_decision(d: ScriptDecision) -> Decision:
    params = {k: v for k, v in d.params if k not in ("at", "if_able")}
    value = d.value
    if d.kind == "pass" and value is None:
        value = d.player
    return decision(d.kind, value, **params)


def fits_here(d: ScriptDecision, point: ChoicePoint) -> bool:
    """A scripted decision is meant for this point: its player's, at the step its `at:` names."""
    if d.player is not None and d.player != point.player:
        return False
    at = d.get("at")
    if at is None:
        return True
    words = str(at).replace("_", " ")
    return any(label == words or label.startswith(words + " ") for label in point.path)


def check_names(sc: Scenario, g: Game) -> None:
    """A decision naming a card that is not in the game can never fit: a malformed scenario, not a rule."""
    for d in sc.decisions:
        name = d.value if d.kind in CARD_DECISIONS else d.get("card") if d.kind == "action" else None
        if name is not None and str(name) not in g.cards:
            raise ScenarioError(f"no card {name!r} in this scenario", field=d.field, line=d.line, file=sc.file)


def too_late(d: ScriptDecision, steps: Sequence[Step]) -> IllegalDecision | None:
    """The next scripted decision waits for something the last steps closed: its player's action phase
    ended, or the run whose point it names ended."""
    if d.kind == "action" and any(s.kind == "action_phase_ends" and s.player == (d.player or s.player)
                                  for s in steps):
        side = next(s.player for s in steps if s.kind == "action_phase_ends")
        return IllegalDecision(f"decision {d.describe()}: the {side} has no [click] left, so the action phase ends",
                               f"step_{side}_turn_action", field=d.field, line=d.line)
    if d.get("at") in RUN_PHASES and any(s.kind == "run_ends" for s in steps):
        return IllegalDecision(
            f"decision {d.describe()} waits for a point of the run, but the run ended: its priority windows closed",
            "rule_run_ends_close_paws", field=d.field, line=d.line)
    return None


@dataclass(frozen=True)
class Session:
    """The states of a game from its start, the steps between them, the scripted decisions met so far."""

    scenario: Scenario
    states: tuple[Game, ...] = ()
    steps: tuple[Step, ...] = ()
    marks: tuple[int, ...] = ()     # len(steps) after each state
    used: tuple[int, ...] = ()      # scripted decisions used when each state was reached
    script: tuple[ScriptDecision, ...] = ()   # the decisions followed so far (the first `used[-1]` taken)
    taken: tuple[Decision, ...] = ()   # the decision that led to each state after the first
    unchosen: int = 0               # advances in a row with no scripted decision
    waiting: Refused | None = None  # the last refusal of the next scripted decision at a point it fitted
    ended: str = ""
    error: IllegalDecision | None = None
    limit: EngineLimit | None = None

    # ---- starting -------------------------------------------------------------------------------
    @classmethod
    def begin(cls, sc: Scenario) -> Session:
        first = setup(sc)
        check_names(sc, first)
        try:
            g, steps = start(first)
        except EngineLimit as exc:
            return cls(sc, limit=exc)
        return cls(sc, (g,), tuple(steps), (len(steps),), (0,))

    @property
    def final(self) -> Game:
        return self.states[-1]

    @property
    def point(self) -> ChoicePoint | None:
        """The open choice point: None when the game is over or the session stopped on an error."""
        if not self.states or self.error is not None or self.limit is not None:
            return None
        return self.final.point

    def decisions(self) -> tuple[Decision | None, ...]:
        """The decision taken at each step (None where the engine started the game)."""
        return (None, *self.taken)

    def outcome(self) -> Outcome:
        return Outcome(list(self.states), list(self.steps), self.ended, self.error, self.limit,
                       list(self.marks), list(self.used))

    # ---- one step ------------------------------------------------------------------------------
    def _advanced(self, chosen: Decision, how: str, script_used: int, extra: tuple[Step, ...] = (),
                  unchosen: int = 0) -> Session:
        g, steps = advance(self.final, chosen, how)
        all_steps = self.steps + extra + tuple(steps)
        return replace(self, states=self.states + (g,), steps=all_steps, marks=self.marks + (len(all_steps),),
                       used=self.used + (script_used,), taken=self.taken + (chosen,), unchosen=unchosen,
                       waiting=None, ended="")

    def pick(self, option: int, number: int | None = None, x: int | None = None,
             using: Sequence[str] = ()) -> Session:
        """Take option `option` (1-based) of the open choice point; `number` for an option taking any number
        of repetitions, `x` for an X cost, `using` the cards whose credits pay. Checked against the point:
        IllegalDecision (with the point's rule) when it cannot be taken as asked."""
        point = self.point
        if point is None:
            raise IllegalDecision("no choice is open in this session", "rule_action_window")
        if not 1 <= option <= len(point.options):
            raise IllegalDecision(f"no option {option} here: choose 1 to {len(point.options)}", point.rule)
        d = point.options[option - 1].decision
        value = d.value
        if d.value == ANY_NUMBER:
            if number is None or number < 1:
                raise IllegalDecision(f"{point.options[option - 1].label}: give a number of repetitions from 1",
                                      point.rule)
            value = number
        params = dict(d.params)
        if x is not None:
            params["x"] = x
        if using:
            unknown = [c for c in using if c not in self.final.cards]
            if unknown:
                raise IllegalDecision(f"no card {unknown[0]!r} in this game", point.rule)
            params["using"] = list(using)
        wanted = decision(d.kind, value, **params)
        if point.find(wanted) is None:
            refused = point.refusal(wanted)
            if refused is not None:
                raise IllegalDecision(f"{refused.label}: {refused.reason}", refused.rule)
            raise IllegalDecision(f"{point.options[option - 1].label}: not allowed as asked", point.rule)
        return self._advanced(wanted, "chosen", self.used[-1])

    def undo(self, keep: int) -> Session:
        """The session as it was after its first `keep` decisions (0: at the start)."""
        keep = max(0, min(keep, len(self.taken)))
        n = keep + 1
        return replace(self, states=self.states[:n], steps=self.steps[: self.marks[keep]], marks=self.marks[:n],
                       used=self.used[:n], taken=self.taken[:keep], script=self.script[: self.used[keep]],
                       unchosen=0, waiting=None, ended="", error=None, limit=None)

    # ---- the scripted policy -------------------------------------------------------------------
    def follow(self, script: Sequence[ScriptDecision], stop_when_used: bool = False) -> Session:
        """Go on with `script` (this session's script followed by more decisions): each decision where it fits,
        the point's stated default elsewhere. `stop_when_used` (the judge's table): stop at the first choice
        point after the last decision instead of taking defaults from there on ("decisions used")."""
        script = tuple(script)
        if script[: len(self.script)] != self.script:
            raise ValueError("follow: the script does not continue this session's decisions")
        s = replace(self, script=script, ended="")
        if not s.states or s.error is not None or s.limit is not None:
            return s
        i = s.used[-1]
        if len(s.states) > 1 and i < len(script):
            # the steps that led here may have closed what the next decision waits for
            late = too_late(script[i], s.steps[s.marks[-2]:])
            if late is not None:
                return replace(s, error=late, ended="illegal decision")
        while s.final.point is not None:
            if stop_when_used and i >= len(script):
                return replace(s, ended="decisions used")
            s, i, stop = s._step(script, i)
            if stop:
                break
        else:
            s = replace(s, ended="game over" if s.final.winner else "no choice left")
        if s.error is None and i < len(script) and s.ended != "loop":
            d = script[i]
            # Refused for now at a point that may allow it later (ice rezzed outside its approach), and no later
            # point did: the refusal's rule is why it was never used.
            w = s.waiting
            # An ability the engine said it did not offer, and why (rule_cost_no_interrupt: paying a cost).
            shown = next((st for st in reversed(s.steps) if st.kind == "not_offered" and st.card == str(d.value)
                          and d.kind in ("trigger", "use")), None)
            why = (f"refused where it fitted: {w.reason}", w.rule) if w \
                else (shown.text, shown.anchor) if shown is not None \
                else ("no point fitted it", "rule_action_window")
            s = replace(s, error=IllegalDecision(f"decision {d.describe()} was never used: {why[0]}", why[1],
                                                 field=d.field, line=d.line))
        return s

    def _step(self, script: tuple[ScriptDecision, ...], i: int) -> tuple[Session, int, bool]:
        """One advance of `follow`: the session after it, the next scripted decision, and whether to stop."""
        sc, point = self.scenario, self.final.point
        assert point is not None
        if self.unchosen > sc.max_steps:
            return replace(self, ended="loop", limit=EngineLimit(
                f"more than {sc.max_steps} steps with no scripted decision: an infinite loop nobody ends",
                "rule_mandatory_infinite_loop")), i, True
        waiting = self.waiting
        chosen: Decision | None = None
        extra: tuple[Step, ...] = ()
        nxt = script[i] if i < len(script) else None
        if nxt is not None and point.kind == "action" and nxt.kind == "action" and not fits_here(nxt, point):
            # an action scripted for the other player: only the active player has an action window
            waiting = Refused(as_decision(nxt), "an action", "rule_action_window_priority", "not their turn")
        if nxt is not None and fits_here(nxt, point):
            wanted = as_decision(nxt)
            if point.find(wanted) is not None:
                chosen, i, waiting = wanted, i + 1, None
            else:
                refused = point.refusal(wanted)
                waiting = refused or waiting
                if refused is not None and not refused.later and nxt.get("if_able"):
                    # "Rez it if able": the decision falls back to the point's default, with the reason.
                    extra = (Step("not_able", f"{refused.label}: {refused.reason}; the decision falls back to the "
                                  "default", refused.rule, point.player, "chosen", point.path),)
                    i, waiting = i + 1, None
                elif refused is not None and not refused.later:
                    return replace(self, waiting=waiting, ended="illegal decision", error=IllegalDecision(
                        f"{refused.label}: {refused.reason}", refused.rule, field=nxt.field, line=nxt.line)), i, True
        how = "chosen"
        unchosen = 0
        if chosen is None:
            if point.default is None or not point.options:
                return replace(self, steps=self.steps + extra, waiting=waiting, ended="script complete"), i, True
            chosen = point.options[point.default].decision
            how = "only" if len(point.options) == 1 else "assumed"
            unchosen = self.unchosen + 1
        try:
            s = self._advanced(chosen, how, i, extra, unchosen)
        except IllegalDecision as exc:
            if how == "chosen" and i > 0:
                exc.field, exc.line = script[i - 1].field, script[i - 1].line
            return replace(self, steps=self.steps + extra, error=exc, ended="illegal decision"), i, True
        except EngineLimit as exc:
            return replace(self, steps=self.steps + extra, limit=exc, ended="loop"), i, True
        s = replace(s, waiting=waiting if how != "chosen" else None)
        if i < len(script):
            late = too_late(script[i], s.steps[s.marks[-2]:])
            if late is not None:
                return replace(s, error=late, ended="illegal decision"), i, True
        return s, i, False


# ---- sessions kept by their decision prefix ------------------------------------------------------
class Prefixes:
    """The last sessions followed with `stop_when_used`, by (a key for the scenario without its decisions, the
    decisions): a session one decision longer than a kept one is followed on from it. Least recently used out
    first; at most `cap` sessions (each holds its states, which share most of their structure)."""

    def __init__(self, cap: int = 64) -> None:
        self.cap = cap
        # decisions are keyed by their repr: a decision holds YAML lists (its `using:`), which do not hash
        self.items: OrderedDict[tuple[Hashable, tuple[str, ...]], Session] = OrderedDict()
        self.lock = threading.Lock()

    def _get(self, key: tuple[Hashable, tuple[str, ...]]) -> Session | None:
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def _put(self, key: tuple[Hashable, tuple[str, ...]], s: Session) -> None:
        with self.lock:
            self.items[key] = s
            while len(self.items) > self.cap:
                self.items.popitem(last=False)

    def follow(self, base: Hashable, sc: Scenario) -> Session:
        """`sc`'s decisions followed to the open point after the last (`stop_when_used`), from the longest kept
        prefix that stopped there: one decision past a kept session costs one `follow`, not a replay."""
        script = tuple(sc.decisions)
        names = tuple(map(repr, script))
        hit = self._get((base, names))
        if hit is not None:
            return hit
        start_from: Session | None = None
        for n in (len(script) - 1, len(script) - 2):
            if n < 0:
                break
            prev = self._get((base, names[:n]))
            if prev is not None and prev.ended == "decisions used":
                start_from = replace(prev, scenario=sc)
                break
        s = (start_from or Session.begin(sc)).follow(script, stop_when_used=True)
        self._put((base, names), s)
        return s


PREFIXES = Prefixes()
