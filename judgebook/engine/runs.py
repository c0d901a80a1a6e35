"""The run's step handlers (initiation to run ends) and forced encounters."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from judgebook.engine.citations import cite
from judgebook.engine.flows import END
from judgebook.engine.game import Ctx
from judgebook.engine.scenario import Decision
from judgebook.engine.state import RunState, with_run
from judgebook.engine.timeline import RunRecord
from judgebook.engine.timing import FORCED_ENCOUNTER, RUN, TimingStep


class RunMixin:
    # --- the run -------------------------------------------------------------------------
    def run(self, server: str) -> None:
        seq = len(self.runs) + 1
        self.state = replace(self.state, run=RunState(server, seq))
        self.run_events.clear()
        self.turn_counts["run"] += 1
        self.trashed_this_run = set()
        with self.within("run", keys=("run",)):
            self.walk(RUN, "initiation", None, ("run", seq))
        self.settle()

    def _run_announce(self, step: TimingStep) -> None:
        self.log("announce", f"the Runner announces {self.state.run.server} as the attacked server", step.anchor)

    def _run_bad_publicity(self, step: TimingStep) -> None:
        bp = self.state.corp.bad_publicity
        if bp:
            self.state = with_run(self.state, bp_fund=bp)
            self.log("bad_publicity", f"{bp}[c] added to the bad publicity fund", step.anchor)

    def _run_run_begins(self, step: TimingStep) -> None:
        self.log("run_begins", f"the run on {self.state.run.server} formally begins", step.anchor)

    def _run_position(self, step: TimingStep) -> None:
        ice = self.state.zones.get(f"corp.server.{self.state.run.server}.ice", ())
        self.state = with_run(self.state, position=0 if ice else None)
        self.log("position", f"the Runner's position: the outermost ice, {ice[0]}" if ice else
                 "no ice protects the server: the Runner has no position", step.anchor)

    def _run_initiation_complete(self, step: TimingStep) -> Any:
        if self.state.run.position is not None:
            return ("approach_ice", "approach_begins")
        return ("movement", "pass_ice")

    def _run_approach_begins(self, step: TimingStep) -> None:
        self.log("approach", f"the Runner approaches {self.approached_ice()}", step.anchor)

    def _run_approach_complete(self, step: TimingStep) -> Any:
        ice = self.approached_ice()
        if ice and self.card(ice).rezzed:
            return ("encounter_ice", "encounter_begins")
        if ice:
            self.log("unrezzed", f"{ice} is unrezzed: the Runner does not encounter it", step.anchor)
        return ("movement", "pass_ice")

    # a forced encounter (rule_forced_encounter) walks the encounter phase on its own
    def encounter(self, ice: str, why: str) -> None:
        run = self.state.run
        if run is None or run.ended:
            self.log("no_effect", f"{why}: no run in progress, no forced encounter", cite("forced_encounter"))
            return
        saved = (run.encounter, run.encounter_seq, run.broken, run.encounter_over, run.bypassed, run.strength,
                 run.fully_broken)
        self.forced_ice = ice
        self.log("forced_encounter", f"{why}: the Runner encounters {ice} without changing position",
                 cite("forced_encounter"))
        try:
            with self.within("forced encounter", keys=("forced_encounter",)):
                self.walk(FORCED_ENCOUNTER, "encounter_ice", None, ("run", run.seq))
        finally:
            self.forced_ice = None
        if self.state.run and not self.state.run.ended:
            self.state = with_run(self.state, encounter=saved[0], encounter_seq=saved[1], broken=saved[2],
                                  encounter_over=saved[3], bypassed=saved[4], strength=saved[5],
                                  fully_broken=saved[6])

    def _run_encounter_begins(self, step: TimingStep) -> None:
        ice = self.approached_ice()
        self.encounters += 1
        self.state = with_run(self.state, encounter=ice, encounter_seq=self.encounters,
                              encounter_over=False, bypassed=False, broken=(), strength=(),
                              fully_broken=False)
        self.log("encounter", f"the Runner encounters {ice}; its subroutines are unbroken", step.anchor)

    def _run_encounter_paw(self, step: TimingStep) -> None:
        ice = self.state.run.encounter
        if not self.cdef(ice).subroutines:
            self.state = with_run(self.state, fully_broken=True)
            self.log("fully_broken", f"{ice} has no subroutines: the Runner fully breaks it as the "
                     "paid ability window begins", cite("fully_break_no_subroutines"))
            self.emit("fully_broken", ice=ice, server=self.state.run.server, by=None)

    def _run_resolve_subroutines(self, step: TimingStep) -> None:
        ice = self.state.run.encounter
        subs = self.cdef(ice).subroutines
        if not subs:
            return
        for i, sub in enumerate(subs):
            run = self.state.run
            if run is None or run.ended or run.encounter_over:
                self.log("subs_stop", f"the encounter has ended: no more subroutines on {ice} resolve",
                         cite("subroutines_stop"))
                return
            if i in run.broken:
                self.log("broken", f"subroutine {i + 1} of {ice} is broken and does not resolve",
                         cite("subroutines_in_order"))
                continue
            label = f"{ice}:sub{i + 1}"
            self.log("subroutine", f"{ice} subroutine {i + 1} resolves" + (f": {sub.text}" if sub.text else ""),
                     step.anchor, ability=label)
            self.resolved.append(label)
            self.resolve_effects(sub.effects, Ctx(ice, "corp", label), "subroutine_checkpoint")

    def _forced_encounter_encounter_begins(self, step: TimingStep) -> None:
        self._run_encounter_begins(step)

    def _forced_encounter_encounter_paw(self, step: TimingStep) -> None:
        self._run_encounter_paw(step)

    def _forced_encounter_resolve_subroutines(self, step: TimingStep) -> None:
        self._run_resolve_subroutines(step)

    def _forced_encounter_encounter_complete(self, step: TimingStep) -> None:
        self._run_encounter_complete(step)

    def _run_encounter_complete(self, step: TimingStep) -> None:
        self.log("encounter_complete", f"the encounter with {self.state.run.encounter} is complete", step.anchor)
        self.encounter_ends()
        self.state = with_run(self.state, encounter_over=True)

    def _run_pass_ice(self, step: TimingStep) -> None:
        run = self.state.run
        ice = self.approached_ice()
        if run.encounter:
            self.ended_scopes.add(("encounter", run.seq, run.encounter_seq))
        self.state = with_run(self.state, encounter=None, encounter_over=False, strength=())
        if ice:
            self.log("pass_ice", f"the Runner passes {ice}", step.anchor)

    def _run_jack_out(self, step: TimingStep) -> None:
        def fit(d: Decision) -> Any:
            if d.value and self.cannot("jack_out"):
                raise self.illegal(d, f"{self.cannot('jack_out')}: the Runner cannot jack out", "cannot")
            return True
        d = self.take("runner", ("jack_out",), fit)
        if d and d.value:
            self.end_run("jack_out", "the Runner jacks out", "jack_out")
            self.steps[-1] = replace(self.steps[-1], decision=d.index, player="runner")
            return
        self.log("no_jack_out", "the Runner does not jack out" + ("" if d else " (assumed)"), step.anchor,
                 assumed=d is None, decision=d, player="runner")

    def _run_move(self, step: TimingStep) -> None:
        run = self.state.run
        ice = self.state.zones.get(f"corp.server.{run.server}.ice", ())
        # a vacated position has closed up: the next inward ice now sits at the same index
        nxt = None if run.position is None else run.position + (0 if run.vacated else 1)
        self.moved = nxt is not None and nxt < len(ice)
        if self.moved:
            self.state = with_run(self.state, position=nxt, vacated=False)
            self.log("move", f"the Runner moves inward to {ice[nxt]}", step.anchor)
        else:
            self.state = with_run(self.state, position=None, vacated=False)

    moved = False

    def _run_approach_next(self, step: TimingStep) -> Any:
        return ("approach_ice", "approach_begins") if self.moved else None

    def _run_approach_server(self, step: TimingStep) -> None:
        self.log("approach_server", f"the Runner approaches {self.state.run.server}", step.anchor)

    def _run_movement_complete(self, step: TimingStep) -> None:
        return None

    def _run_declared_successful(self, step: TimingStep) -> None:
        self.state = with_run(self.state, reached_success=True, successful=True)
        self.log("successful", f"the run on {self.state.run.server} is declared successful", step.anchor)

    def _run_breach(self, step: TimingStep) -> None:
        self.breach(self.state.run.server)

    def _run_success_complete(self, step: TimingStep) -> None:
        return None

    def _run_close_windows(self, step: TimingStep) -> None:
        self.log("run_ends_phase", "the run ends phase begins", step.anchor)
        if self.deferred:
            pending, self.deferred = self.deferred, []
            self.log("run_ends_windows", "abilities that became pending as the run ended are "
                     "processed now", cite("run_ends_windows"))
            self.react(pending)

    def _run_return_bp(self, step: TimingStep) -> None:
        if self.state.run.bp_fund:
            self.state = with_run(self.state, bp_fund=0)
            self.log("bad_publicity", "bad publicity credits return to the bank", step.anchor)

    def _run_unsuccessful(self, step: TimingStep) -> None:
        run = self.state.run
        if run.reached_success:
            self.log("not_unsuccessful", "the run reached the success phase: it is not unsuccessful",
                     cite("not_unsuccessful"))
            return
        self.log("unsuccessful", f"the run on {run.server} is unsuccessful", step.anchor)
        self.emit("run_unsuccessful", server=run.server)

    def _run_run_complete(self, step: TimingStep) -> Any:
        run = self.state.run
        self.runs.append(RunRecord(run.server, run.successful, run.ended_by or "complete", run.breached))
        self.ended_scopes.add(("run", run.seq))
        self.state = replace(self.state, run=None)
        self.log("run_complete", f"the run on {run.server} is complete", step.anchor)
        self.emit("run_ends", server=run.server, successful=run.successful)
        return END
