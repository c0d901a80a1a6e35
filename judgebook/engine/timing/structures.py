"""The timing structures of CR 26.03 (chapters 5–7, summarised in the appendix) as data.

Each step names the anchor of the rule step it is, the priority window it
opens (P: paid abilities, R: rez non-ice, S: score, I: rez the approached ice)
and the event whose conditions it meets. The driver walks these lists; card
abilities never hand-code "what comes next".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

P, R, S, I = "paid", "rez", "score", "rez_ice"


@dataclass(frozen=True)
class TimingStep:
    key: str  # unique within its structure; the driver's handler name
    label: str
    anchor: str
    window: frozenset[str] = frozenset()
    event: str | None = None
    begins: bool = False  # the step where the structure (or phase) formally begins


@dataclass(frozen=True)
class Phase:
    key: str
    label: str
    anchor: str
    steps: tuple[TimingStep, ...]

    def index(self, step_key: str) -> int:
        return next(i for i, s in enumerate(self.steps) if s.key == step_key)


@dataclass(frozen=True)
class Structure:
    key: str
    label: str
    phases: tuple[Phase, ...]

    def phase(self, key: str) -> Phase:
        return next(p for p in self.phases if p.key == key)

    def steps(self) -> list[tuple[Phase, TimingStep]]:
        return [(p, s) for p in self.phases for s in p.steps]


def _w(*kinds: str) -> frozenset[str]:
    return frozenset(kinds)


CORP_TURN = Structure(
    "corp_turn",
    "Corp's turn",
    (
        Phase(
            "draw_phase",
            "draw phase",
            "subsec_corp_draw_phase",
            (
                TimingStep("allotted_clicks", "gain allotted clicks", "step_corp_turn_allotted_clicks"),
                TimingStep("draw_paw", "paid ability window", "step_corp_turn_draw_phase_paw", _w(P, R, S)),
                TimingStep("refill", "recurring credits refill", "step_corp_turn_recurring_credits_refill"),
                TimingStep(
                    "turn_begins",
                    "turn formally begins",
                    "step_corp_turn_turn_formal_begin",
                    event="turn_begins",
                    begins=True,
                ),
                TimingStep("mandatory_draw", "mandatory draw", "step_corp_turn_mandatory_draw"),
                TimingStep("draw_complete", "draw phase complete", "step_corp_turn_draw_phase_complete"),
            ),
        ),
        Phase(
            "action_phase",
            "action phase",
            "subsec_corp_action_phase",
            (
                TimingStep("action_paw", "paid ability window", "step_corp_turn_action_phase_paw", _w(P, R, S)),
                TimingStep("action", "take an action", "step_corp_turn_action"),
                TimingStep("action_loop", "return to the paid ability window", "step_corp_turn_action_phase_loop"),
                TimingStep(
                    "action_phase_ends",
                    "action phase formally ends",
                    "step_corp_turn_action_phase_end",
                    event="action_phase_ends",
                ),
                TimingStep("action_complete", "action phase complete", "step_corp_turn_action_phase_complete"),
            ),
        ),
        Phase(
            "discard_phase",
            "discard phase",
            "subsec_corp_discard_phase",
            (
                TimingStep("discard", "discard to maximum hand size", "step_corp_turn_discard"),
                TimingStep("discard_paw", "paid ability window", "step_corp_turn_discard_phase_paw", _w(P, R)),
                TimingStep("lose_clicks", "lose unspent clicks", "step_corp_turn_lose_unspent_clicks"),
                TimingStep("turn_ends", "turn formally ends", "step_corp_turn_formal_end", event="turn_ends"),
                TimingStep("turn_complete", "turn complete", "step_corp_turn_complete"),
            ),
        ),
    ),
)

RUNNER_TURN = Structure(
    "runner_turn",
    "Runner's turn",
    (
        Phase(
            "action_phase",
            "action phase",
            "subsec_runner_action_phase",
            (
                TimingStep("allotted_clicks", "gain allotted clicks", "step_runner_turn_allotted_clicks"),
                TimingStep("start_paw", "paid ability window", "step_runner_turn_action_phase_paw", _w(P, R)),
                TimingStep("refill", "recurring credits refill", "step_runner_turn_recurring_credits_refill"),
                TimingStep(
                    "turn_begins",
                    "turn formally begins",
                    "step_runner_turn_recurring_formal_begin",
                    event="turn_begins",
                    begins=True,
                ),
                TimingStep("action_paw", "paid ability window", "step_runner_turn_loop_paw", _w(P, R)),
                TimingStep("action", "take an action", "step_runner_turn_action"),
                TimingStep("action_loop", "return to the paid ability window", "step_runner_turn_action_loop"),
                TimingStep(
                    "action_phase_ends",
                    "action phase formally ends",
                    "step_runner_turn_action_phase_end",
                    event="action_phase_ends",
                ),
                TimingStep("action_complete", "action phase complete", "step_runner_turn_action_phase_complete"),
            ),
        ),
        Phase(
            "discard_phase",
            "discard phase",
            "subsec_runner_discard_phase",
            (
                TimingStep("discard", "discard to maximum hand size", "step_runner_turn_discard"),
                TimingStep("discard_paw", "paid ability window", "step_runner_turn_discard_phase_paw", _w(P, R)),
                TimingStep("lose_clicks", "lose unspent clicks", "step_runner_turn_lose_unspent_clicks"),
                TimingStep("turn_ends", "turn formally ends", "step_runner_turn_formal_end", event="turn_ends"),
                TimingStep("turn_complete", "turn complete", "step_runner_turn_complete"),
            ),
        ),
    ),
)

RUN = Structure(
    "run",
    "run",
    (
        Phase(
            "initiation",
            "initiation phase",
            "rule_sec_run_initiation_phase",
            (
                TimingStep("announce", "announce the attacked server", "step_initiation_announce"),
                TimingStep("bad_publicity", "bad publicity credits", "step_initiation_bad_publicity"),
                TimingStep(
                    "run_begins", "run formally begins", "step_initiation_formal_begin", event="run_begins", begins=True
                ),
                TimingStep("position", "set the Runner's position", "step_runner_position"),
                TimingStep("initiation_paw", "paid ability window", "step_initiation_paw", _w(P, R)),
                TimingStep("initiation_complete", "initiation phase complete", "step_initiation_complete"),
            ),
        ),
        Phase(
            "approach_ice",
            "approach ice",
            "rule_sec_run_approach_ice_phase",
            (
                TimingStep(
                    "approach_begins", "approach begins", "step_approach_begins", event="approach_ice", begins=True
                ),
                TimingStep(
                    "approach_paw", "paid ability window (rez the approached ice)", "step_approach_paw", _w(P, R, I)
                ),
                TimingStep("approach_complete", "approach complete", "step_approach_complete"),
            ),
        ),
        Phase(
            "encounter_ice",
            "encounter ice",
            "rule_sec_run_encounter_ice_phase",
            (
                TimingStep(
                    "encounter_begins", "encounter begins", "step_encounter_begins", event="encounter_ice", begins=True
                ),
                TimingStep("encounter_paw", "paid ability window (break subroutines)", "step_encounter_paw", _w(P)),
                TimingStep("resolve_subroutines", "resolve unbroken subroutines", "step_resolve_subroutine"),
                TimingStep("encounter_complete", "encounter complete", "step_encounter_complete"),
            ),
        ),
        Phase(
            "movement",
            "movement",
            "rule_sec_run_movement_phase",
            (
                TimingStep("pass_ice", "pass the ice", "step_pass_ice", event="pass_ice"),
                TimingStep("before_jack_out_paw", "paid ability window", "step_before_jack_out_paw", _w(P)),
                TimingStep("jack_out", "the Runner may jack out", "step_jack_out_choice"),
                TimingStep("move", "move inward", "step_move_position"),
                TimingStep("after_jack_out_paw", "paid ability window", "step_after_jack_out_paw", _w(P, R)),
                TimingStep("approach_next", "approach the next ice or the server", "step_approach_new_ice"),
                TimingStep("approach_server", "approach the server", "step_approach_server", event="approach_server"),
                TimingStep("movement_complete", "movement complete", "step_movement_complete"),
            ),
        ),
        Phase(
            "success",
            "success",
            "rule_sec_run_success_phase",
            (
                TimingStep(
                    "declared_successful",
                    "run declared successful",
                    "step_run_declared_successful",
                    event="successful_run",
                    begins=True,
                ),
                TimingStep("breach", "breach the attacked server", "step_breach"),
                TimingStep("success_complete", "success phase complete", "step_success_complete"),
            ),
        ),
        Phase(
            "run_ends",
            "run ends",
            "rule_sec_run_run_ends_phase",
            (
                TimingStep("close_windows", "open priority windows close", "step_open_priority_windows_closed"),
                TimingStep("return_bp", "bad publicity credits return", "step_run_ends_bad_publicity"),
                TimingStep("unsuccessful", "unsuccessful?", "step_run_declared_unsuccessful"),
                TimingStep("run_complete", "the run is complete", "step_run_complete", event="run_ends"),
            ),
        ),
    ),
)

BREACH = Structure(
    "breach",
    "breach",
    (
        Phase(
            "breach",
            "breach",
            "sec_breaching_steps",
            (
                TimingStep("breach_begins", "breach begins", "step_breaching_begins", event="breach", begins=True),
                TimingStep("flip_archives", "turn Archives faceup", "step_flip_archives"),
                TimingStep("access_limit", "random access limit", "step_determine_candidates_limit"),
                TimingStep("choose_candidate", "choose a candidate", "step_choose_candidate"),
                TimingStep("access_candidate", "access the candidate", "step_access_candidate"),
                TimingStep("repeat", "repeat", "step_repeat_candidate_selection"),
                TimingStep("breach_complete", "breach complete", "step_breach_complete"),
            ),
        ),
    ),
)

ACCESS = Structure(
    "access",
    "access",
    (
        Phase(
            "access",
            "access",
            "sec_steps_accessing_card",
            (
                TimingStep("accessed", "the card is accessed", "step_card_accessed", event="access", begins=True),
                TimingStep("mid_access", "mid-access ability", "step_mid_access_ability"),
                TimingStep("steal", "steal an agenda", "step_access_agenda"),
                TimingStep("access_complete", "access complete", "step_access_complete"),
            ),
        ),
    ),
)

# rule_forced_encounter: an Encounter Ice Phase resolved on its own, without moving the Runner
FORCED_ENCOUNTER = Structure("forced_encounter", "forced encounter", (RUN.phase("encounter_ice"),))

STRUCTURES = (CORP_TURN, RUNNER_TURN, RUN, BREACH, ACCESS)


def all_anchors() -> set[str]:
    return {a for st in STRUCTURES for p in st.phases for a in [p.anchor] + [s.anchor for s in p.steps]}


def outline() -> list[dict[str, Any]]:
    """The timing structures as plain data, for a page that draws where a step is."""
    return [
        {
            "key": st.key,
            "label": st.label,
            "phases": [
                {
                    "key": p.key,
                    "label": p.label,
                    "anchor": p.anchor,
                    "steps": [
                        {
                            "key": s.key,
                            "label": s.label,
                            "anchor": s.anchor,
                            "window": sorted(s.window),
                            "event": s.event,
                        }
                        for s in p.steps
                    ],
                }
                for p in st.phases
            ],
        }
        for st in STRUCTURES
    ]
