"""The run (rule_sec_run_*): its steps walked from the timing-structure data, one frame per run."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.frames import (
    Frame,
    current_run,
    event,
    find,
    log,
    path,
    pop,
    push,
    react_first,
    set_top,
    swap,
)
from judgebook.engine.rules.triggers import emit
from judgebook.engine.rules.windows import PriorityWindow
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, decision
from judgebook.engine.state.model import Game, evolve
from judgebook.engine.timing.structures import RUN

STEPS = RUN.steps()
INDEX = {s.key: i for i, (_, s) in enumerate(STEPS)}


@dataclass(frozen=True)
class Run(Frame):
    server: str
    seq: int
    at: int = 0  # index into the run's steps
    # The Runner's position: an index into the attacked server's ice (outermost first; len(ice): past the
    # innermost), kept on the same position as ice come and go (rules/positions.py shift).
    position: int = 0
    vacated: str | None = None  # the ice that left the Runner's position: the index names the next one inward
    approached: str | None = None  # the ice whose approach is in progress
    ended: bool = False
    ended_by: str | None = None
    successful: bool = False
    success_prevented: bool = False  # "this run cannot be declared successful": nor is it unsuccessful
    now: int = 0  # the step in progress (for the timeline's path)
    bp_credits: int = 0
    access_bonus: int = 0
    strength: tuple[tuple[str, int], ...] = ()  # strength changes lasting for the run
    # "If successful, instead of breaching ...": what resolves at the breach step instead, and for whom.
    instead_of_breach: tuple[object, ...] = ()
    instead_ctx: Ctx | None = None
    label = "run"

    @property
    def phase(self) -> str:
        return STEPS[self.at][0].key

    def labels(self) -> tuple[str, ...]:
        """("run", phase, step) of the timing structure (labels of the data in timing/structures.py)."""
        if STEPS[min(self.at, len(STEPS) - 1)][0].key == "encounter_ice":
            return ("run", "encounter ice")  # the Encounter frame above names the step
        phase, st = STEPS[self.now]
        return ("run", phase.label, st.label)

    def ice_at(self, g: Game) -> str | None:
        """The ice in the Runner's position; None for no position or a vacant one."""
        ice = g.zone(q.ice_zone(self.server))
        return ice[self.position] if self.position < len(ice) and self.vacated is None else None

    def goto(self, g: Game, key: str, **changes: object) -> Game:
        return set_top(g, replace(self, at=INDEX[key], now=INDEX[key], **changes))  # type: ignore[arg-type]

    def step(self, g: Game) -> Game | ChoicePoint:
        if g.over:
            return pop(g)
        if self.ended and STEPS[self.at][0].key != "run_ends":
            # The run ended: straight to the run ends phase, where what is pending resolves.
            return self.goto(g, "close_windows")
        reacted = react_first(g)
        if reacted is not None:
            return reacted
        phase, st = STEPS[self.at]
        nxt = self.at + 1
        g = set_top(g, replace(self, at=nxt, now=self.at)) if nxt < len(STEPS) else g
        me: Run = g.stack[-1]  # type: ignore[assignment]
        key = st.key
        if key == "announce":
            return log(g, "run", f"the Runner announces a run on {self.server}", st.anchor, "runner")
        if key == "bad_publicity":
            return set_top(g, replace(me, bp_credits=g.corp.bad_publicity)) if g.corp.bad_publicity else g
        if st.event == "run_begins":
            return emit(g, event("run_begins", server=self.server), f"the run on {self.server} begins", st.anchor)
        if key == "position":
            return set_top(g, replace(me, position=0, vacated=None))
        if key == "initiation_complete":
            return me.goto(g, "approach_begins" if me.ice_at(g) else "before_jack_out_paw")
        if key == "approach_begins":
            ice = me.ice_at(g)
            g = set_top(g, replace(me, approached=ice))
            return emit(
                g,
                event("approach_ice", ice=ice, server=self.server),
                f"the Runner approaches {ice}",
                st.anchor,
                "runner",
            )
        if key == "approach_complete":
            ice = me.ice_at(g)
            if me.approached is not None and ice != me.approached:
                # The approached ice was uninstalled: the approach ends, the Runner passes its (vacant) position
                # and the run goes on to the movement phase.
                g = log(
                    g,
                    "approach_ends",
                    f"{me.approached} is no longer installed: the approach ends and the Runner passes its position",
                    "rule_uninstall_ice_during_run",
                    "runner",
                    card=me.approached,
                )
                return me.goto(g, "pass_ice", approached=None)
            if ice is None:
                return me.goto(g, "approach_next")
            if g.cards[ice].rezzed:
                from judgebook.engine.rules.encounter import Encounter

                g = me.goto(g, "encounter_begins")
                return push(evolve(g, seq=g.seq + 1), Encounter(ice, g.seq + 1, self.seq))
            g = log(g, "not_rezzed", f"{ice} is unrezzed: the Runner passes it", st.anchor, "runner")
            return me.goto(g, "pass_ice")
        if phase.key == "encounter_ice":
            return g  # encounters run in their own frame (Encounter)
        if key == "pass_ice":
            ice = me.ice_at(g)
            if ice is None:
                return g  # no ice in the Runner's position (it left, or there is none): nothing to pass
            return emit(
                g, event("pass_ice", ice=ice, server=self.server), f"the Runner passes {ice}", st.anchor, "runner"
            )
        if key == "jack_out":
            return push(g, JackOutChoice(self.seq))
        if key == "move":
            if me.vacated is None:
                return set_top(g, replace(me, position=me.position + 1))
            # The Runner's ice left its position: the next position inward is the next ice still there, now at
            # the index the vacant position had; none is skipped (rule_ice_change_can_affect_position).
            g = set_top(g, replace(me, vacated=None))
            inward = replace(me, vacated=None).ice_at(g)
            return log(g, "position", f"the Runner moves inward from the position {me.vacated} occupied"
                       f"{f' to the position of {inward}' if inward else ', past the innermost position'}",
                       "rule_ice_change_can_affect_position", "runner", card=me.vacated)
        if key == "approach_next":
            if me.vacated is not None:
                # The ice in the Runner's new position left it before the approach: as at the end of the
                # initiation phase with no ice in the position, back to the movement phase (step_initiation_complete).
                return me.goto(g, "pass_ice")
            if me.ice_at(g) is not None:
                return me.goto(g, "approach_begins")
            return g
        if key == "approach_server":
            from judgebook.engine.rules.movement import redirect_approach

            g = redirect_approach(g, me)  # "when you would approach Archives, instead ... approach HQ"
            me = g.stack[-1]  # type: ignore[assignment]
            return emit(
                g,
                event("approach_server", server=me.server),
                f"the Runner approaches {me.server}",
                st.anchor,
                "runner",
            )
        if key == "declared_successful":
            from judgebook.engine.rules.costs import cannot

            if cannot(g, "declare_successful", "runner", self.server):
                g = set_top(g, replace(me, success_prevented=True))
                return log(g, "not_successful", "the run cannot be declared successful", "rule_cannot_precedence")
            g = set_top(g, replace(me, successful=True))
            return emit(
                g, event("successful_run", server=self.server), f"the run on {self.server} is successful", st.anchor
            )
        if key == "breach":
            from judgebook.engine.rules.access import Breach

            if me.instead_of_breach and me.instead_ctx is not None:
                from judgebook.engine.rules.resolve import Resolve

                anchor = "rule_if_successful_lingering_effect"
                g = log(g, "instead_of_breach", f"instead of breaching {self.server}", anchor, "runner")
                return push(g, Resolve(me.instead_of_breach, me.instead_ctx, anchor))  # type: ignore[arg-type]
            return push(g, Breach(self.server, self.seq))
        if key == "close_windows":
            return g
        if key == "unsuccessful":
            if me.successful or me.success_prevented:
                return g
            return emit(g, event("run_unsuccessful", server=self.server), "the run is unsuccessful", st.anchor)
        if key == "run_complete":
            g = pop(g)
            return emit(
                g,
                event("run_ends", server=self.server, successful=me.successful, ended_by=me.ended_by or "complete"),
                f"the run on {self.server} ends",
                st.anchor,
            )
        if st.window:
            kinds = set(st.window)
            return push(g, PriorityWindow(frozenset(kinds), st.anchor, run_seq=self.seq))
        return g


@dataclass(frozen=True)
class JackOutChoice(Frame):
    run_seq: int

    def step(self, g: Game) -> Game | ChoicePoint:
        run = current_run(g)
        if run is None or run.seq != self.run_seq:
            return pop(g)
        from judgebook.engine.rules.costs import cannot

        opts = [Option(decision("jack_out", False), "continue the run", "step_jack_out_choice")]
        refused = []
        if cannot(g, "jack_out", "runner"):
            from judgebook.engine.state.choice import Refused

            refused.append(
                Refused(decision("jack_out", True), "jack out", "rule_cannot_precedence", "a card forbids jacking out")
            )
        else:
            opts.append(Option(decision("jack_out", True), "jack out", "step_jack_out_choice"))
        return ChoicePoint(
            "runner",
            "jack_out",
            "the Runner may jack out",
            "step_jack_out_choice",
            tuple(opts),
            tuple(refused),
            default=0,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        g = pop(g)
        if option.decision.value:
            g = log(g, "jack_out", "the Runner jacks out", "step_jack_out_choice", "runner", how="chosen")
            return end_run(g, "jack_out")
        return g


def end_run(g: Game, how: str) -> Game:
    run = find(g, Run)
    if run is None or run.ended:
        return g
    g = swap(g, run, replace(run, ended=True, ended_by=how))
    from judgebook.engine.rules.encounter import Encounter

    enc = find(g, Encounter)
    if enc is not None and not enc.over:
        g = swap(g, enc, replace(enc, over=True))
    return g


def instruction(g: Game, ctx: Ctx, name: str) -> Game:
    if name == "end_the_run":
        from judgebook.engine.rules.damage import imminent_end_run

        return imminent_end_run(g, ctx)
    if name == "jack_out":
        g = log(g, "jack_out", "the Runner jacks out", "rule_jacking_out", "runner")
        return end_run(g, "jack_out")
    if name == "bypass":
        from judgebook.engine.rules.encounter import bypass

        return bypass(g)
    raise ValueError(name)


def start_run(g: Game, server: str, instead: Any = None) -> Game:
    """`instead`: (instructions, ctx) replacing the breach if the run is successful ("Run R&D. If successful,
    instead of breaching R&D, ...": rule_if_successful_lingering_effect)."""
    seq = g.runs + 1
    instrs, ctx = instead if instead is not None else ((), None)
    return push(evolve(g, runs=seq), Run(server, seq, instead_of_breach=tuple(instrs), instead_ctx=ctx))


def replace_breach(g: Game, ctx: Ctx, instrs: tuple[object, ...]) -> Game:
    """A replacement of this run's breach, made by an "if successful" ability (rule_if_successful_lingering_effect)."""
    run = current_run(g)
    if run is None:
        return g
    return swap(g, run, replace(run, instead_of_breach=instrs, instead_ctx=ctx))


def run_in_progress(g: Game, server: str, at: str, position: int) -> Game:
    """A run already under way when a scenario starts (SCENARIOS.md §1.1 `start.run`), its frame placed just
    before the step `at` begins, with what the earlier steps leave in it: bad publicity credits taken, the ice
    outward of `position` passed. Those steps' events are not replayed (they happened before the situation the
    scenario sets up); the run's own next step does the rest (emits the approach, pushes the encounter)."""
    g = start_run(g, server)
    run: Run = g.stack[-1]  # type: ignore[assignment]
    ice = g.zone(q.ice_zone(server))
    bp = g.corp.bad_publicity
    if at == "approach_ice":
        return run.goto(g, "approach_begins", position=position, bp_credits=bp)
    if at == "encounter_ice":
        # approach_complete on a rezzed ice starts the encounter (the Encounter frame) as in play.
        return run.goto(g, "approach_complete", position=position, approached=ice[position], bp_credits=bp)
    return run.goto(g, "approach_server", position=len(ice), approached=ice[-1] if ice else None, bp_credits=bp)
