"""The driver that walks the timing structures of timing.py (the walker only).

A handler is named `_<structure>_<step>` (turns.py, runs.py, access.py); it may
log, change the state and return a jump `(phase, step)` or END. After each step
the walker emits the step's event, opens the step's paid ability window, runs a
checkpoint, and applies the structure's redirects (the run ended, the ice was
bypassed, the approached ice left).
"""
from __future__ import annotations

from typing import Any

from judgebook.engine.timing import CORP_TURN, RUNNER_TURN, Phase, Structure, TimingStep

END = "end"
TURNS = {"corp": CORP_TURN, "runner": RUNNER_TURN}


class FlowsMixin:
    # --- the walker ----------------------------------------------------------------
    def walk(self, st: Structure, phase_key: str, step_key: str | None, scope: Any) -> None:
        pi = next(i for i, p in enumerate(st.phases) if p.key == phase_key)
        si = st.phases[pi].index(step_key) if step_key else 0
        while True:
            phase = st.phases[pi]
            step = phase.steps[si]
            with self.within(phase.label, step.label, keys=(phase.key, step.key)):
                jump = self.do_step(st, phase, step, scope)
            if jump == END:
                return
            if jump:
                pi = next(i for i, p in enumerate(st.phases) if p.key == jump[0])
                si = st.phases[pi].index(jump[1])
                continue
            si += 1
            if si >= len(phase.steps):
                pi, si = pi + 1, 0
                if pi >= len(st.phases):
                    return

    def do_step(self, st: Structure, phase: Phase, step: TimingStep, scope: Any) -> Any:
        self.current_anchor = step.anchor
        handler = getattr(self, f"_{st.key}_{step.key}", None)
        jump = handler(step) if handler else None
        if handler is None and not step.window:
            self.log("step", step.label, step.anchor)
        if step.event and jump != END:
            self.emit(step.event, **self.event_fields(st))
        if step.window and not jump:
            self.paw(step.window)
        if jump != END:
            self.settle(closes_with=self.scope_now(st) if step.begins else None)
        return self.redirect(st, phase) or jump

    def scope_now(self, st: Structure) -> Any:
        run = self.state.run
        if st.key == "run" and run:
            if run.encounter and not run.encounter_over:
                return ("encounter", run.seq, run.encounter_seq)
            return ("run", run.seq)
        if st.key == "access":
            return ("access", self.accessing, len(self.steps))
        return (st.key, self.state.turn)

    def event_fields(self, st: Structure) -> dict:
        run = self.state.run
        fields: dict[str, Any] = {"player": self.state.active}
        if run:
            fields["server"] = run.server
            ice = self.approached_ice()
            if ice:
                fields["ice"] = ice
            fields["successful"] = run.successful
        if st.key == "access" and self.accessing:
            fields.update(card=self.accessing, type=self.cdef(self.accessing).type)
        return fields

    def redirect(self, st: Structure, phase: Phase) -> Any:
        run = self.state.run
        if st.key == "run" and run:
            if run.ended and phase.key != "run_ends":
                return ("run_ends", "close_windows")
            if phase.key == "encounter_ice" and run.encounter_over:
                return ("movement", "pass_ice")
            if phase.key in ("approach_ice", "encounter_ice") and run.vacated:
                return ("movement", "pass_ice")
        if st.key == "forced_encounter" and (run is None or run.ended or run.encounter_over):
            return END
        if st.key in ("breach", "access") and (run is None or run.ended) and self.in_run_breach:
            return END
        if st.key == "access" and self.accessing and self.zone(self.accessing) != self.access_zone:
            return END
        return None

    in_run_breach = False
    access_zone: str | None = None
    current_anchor: str | None = None
