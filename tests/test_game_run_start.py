"""A scenario that starts inside a run (`start.run`, engine/SCENARIOS.md §1.1; issue 10).

The strongest check: the state a run start sets up equals the state reached by playing the run from the
action phase, passing to the same point. Assertions are on events, cited anchors and state values.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from judgebook.engine import ChoicePoint, Game, advance, choices
from judgebook.engine.driver.step import start
from judgebook.engine.errors import ScenarioError
from judgebook.engine.rules.encounter import Encounter
from judgebook.engine.rules.run import INDEX, Run
from judgebook.engine.scenario.load import parse, parse_scenario, setup
from judgebook.engine.state.choice import decision
from judgebook.engine.state.model import Step

# Three unrezzed walls on R&D (ids Wall, Wall#2, Wall#3, outermost first), a rezzed one on HQ.
BOARD = """
card_defs:
  - name: Wall
    side: corp
    type: ice
    subtypes: [barrier]
    cost: 2
    strength: 1
    subroutines:
      - {text: "End the run.", effects: [end_the_run]}
corp:
  credits: 7
  bad_publicity: 1
  servers:
    R&D: {ice: [Wall, Wall, Wall]}
    HQ: {ice: [{card: Wall, id: Gate, rezzed: true}]}
"""


def _scenario(start_line: str) -> str:
    return f"title: run start\nstart: {start_line}\n" + BOARD


def _begin(start_line: str) -> tuple[Game, tuple[Step, ...]]:
    return start(setup(parse(_scenario(start_line))))


def _point(g: Game) -> ChoicePoint:
    point = choices(g)
    assert point is not None
    return point


def _run(g: Game) -> Run:
    run = next(f for f in g.stack if isinstance(f, Run))
    assert isinstance(run, Run)
    return run


def _in_run(g: Game) -> bool:
    return any(isinstance(f, Run) for f in g.stack)


def _take_defaults(g: Game, until: Callable[[Game, ChoicePoint], bool]) -> tuple[Game, list[Step]]:
    """Take each choice's default (the first option when there is none: a pass) until `until` holds."""
    steps: list[Step] = []
    for _ in range(60):
        point = _point(g)
        if until(g, point):
            return g, steps
        option = point.options[point.default if point.default is not None else 0]
        g, more = advance(g, option.decision)
        steps += more
    raise AssertionError("the condition never held")


def test_approach_of_ice_2_of_3_offers_the_approach_window_then_the_corps_rez():
    g, steps = _begin("{turn: runner, run: {server: R&D, at: approach_ice, ice: 2}}")
    # The approach of the second ice from the outside begins: its event, nothing of the earlier steps.
    assert [(s.kind, s.anchor, s.card) for s in steps] == [("approach_ice", "step_approach_begins", "Wall#2")]
    assert g.active == "runner" and g.runner.clicks == 3  # the run's [click] is spent
    point = _point(g)
    assert (point.player, point.kind, point.rule) == ("runner", "priority", "step_approach_paw")
    g, _ = advance(g, decision("pass", "runner"))
    point = _point(g)
    assert (point.player, point.kind, point.rule) == ("corp", "priority", "step_approach_paw")
    assert [(o.decision.kind, o.decision.value, o.rule) for o in point.options] == [
        ("pass", "corp", "rule_pass"),
        ("rez", "Wall#2", "rule_rez_procedure"),
    ]
    # the other ice is not approached: refused, with the rule refusing it
    assert {(r.decision.value, r.rule) for r in point.refused} == {
        ("Wall", "rule_rez_ice_restriction"),
        ("Wall#3", "rule_rez_ice_restriction"),
    }


def test_rezzing_the_approached_ice_starts_its_encounter():
    g, _ = _begin("{turn: runner, run: {server: R&D, at: approach_ice, ice: 2}}")
    g, _ = advance(g, decision("pass", "runner"))
    g, _ = advance(g, decision("rez", "Wall#2"))
    assert g.cards["Wall#2"].rezzed and g.corp.credits == 7 - 2
    g, steps = _take_defaults(g, lambda g, p: any(isinstance(f, Encounter) for f in g.stack))
    assert ("encounter_ice", "step_encounter_begins", "Wall#2") in [(s.kind, s.anchor, s.card) for s in steps]


def test_passing_goes_on_to_the_innermost_ice_then_the_server():
    g, _ = _begin("{turn: runner, run: {server: R&D, at: approach_ice, ice: 2}}")
    g, steps = _take_defaults(g, lambda g, p: p.kind == "access" or not _in_run(g))
    moves = [(s.kind, s.anchor, s.card) for s in steps if s.kind in ("approach_ice", "pass_ice", "approach_server")]
    assert moves == [
        ("pass_ice", "step_pass_ice", "Wall#2"),
        ("approach_ice", "step_approach_begins", "Wall#3"),
        ("pass_ice", "step_pass_ice", "Wall#3"),
        ("approach_server", "step_approach_server", None),
    ]


def _played_to(server: str, stop: Callable[[Game, ChoicePoint], bool]) -> Game:
    """The same board from the Runner's action phase: run on `server`, every choice its default, until `stop`."""
    g, _ = _begin("{turn: runner, at: action_phase}")
    g, _ = _take_defaults(g, lambda g, p: p.kind == "action")
    g, _ = advance(g, decision("action", "run", server=server))
    g, _ = _take_defaults(g, stop)
    return g


def _same_state(started: Game, played: Game) -> None:
    assert started.stack == played.stack
    assert (started.runner, started.corp, started.cards, started.zones, started.runs) == (
        played.runner,
        played.corp,
        played.cards,
        played.zones,
        played.runs,
    )


def test_approach_start_equals_the_run_played_from_the_action_phase():
    started, _ = _begin("{turn: runner, run: {server: R&D, at: approach_ice, ice: 2}}")
    played = _played_to("R&D", lambda g, p: p.rule == "step_approach_paw" and _run(g).position == 1)
    _same_state(started, played)
    assert _run(started).bp_credits == 1  # the initiation's bad publicity credits (step_initiation_bad_publicity)


def test_outermost_approach_equals_the_played_run():
    started, _ = _begin("{turn: runner, run: {server: R&D, at: approach_ice, ice: 1}}")
    played = _played_to("R&D", lambda g, p: p.rule == "step_approach_paw")
    _same_state(started, played)


def test_encounter_start_equals_the_played_encounter():
    started, steps = _begin("{turn: runner, run: {server: HQ, at: encounter_ice, ice: 1}}")
    assert ("encounter_ice", "step_encounter_begins", "Gate") in [(s.kind, s.anchor, s.card) for s in steps]
    played = _played_to("HQ", lambda g, p: any(isinstance(f, Encounter) for f in g.stack))
    _same_state(started, played)


def test_server_approach_start_equals_the_played_approach():
    started, steps = _begin("{turn: runner, run: {server: R&D, at: approach_server}}")
    assert [(s.kind, s.anchor) for s in steps][:1] == [("approach_server", "step_approach_server")]
    # R&D is empty: the breach accesses nothing and the run ends; both stop at the Runner's next choice
    played = _played_to("R&D", lambda g, p: not _in_run(g) or _run(g).at > INDEX["approach_server"])
    _same_state(started, played)


@pytest.mark.parametrize(
    "start_line, field, message",
    [
        ("{turn: runner, run: {server: Server 9, at: approach_ice, ice: 1}}", "start.run.server", "no server"),
        ("{turn: runner, run: {server: R&D, at: approach_ice, ice: 4}}", "start.run.ice", "R&D has 3 ice"),
        ("{turn: runner, run: {server: R&D, at: approach_ice, ice: 0}}", "start.run.ice", "outermost"),
        ("{turn: runner, run: {server: R&D, at: approach_ice}}", "start.run.ice", "outermost"),
        ("{turn: runner, run: {server: Archives, at: approach_ice, ice: 1}}", "start.run.ice", "no ice"),
        ("{turn: runner, run: {server: R&D, at: approach_server, ice: 1}}", "start.run.ice", "after all its ice"),
        ("{turn: runner, run: {server: R&D, at: encounter_ice, ice: 1}}", "start.run.at", "unrezzed"),
        ("{turn: runner, run: {server: R&D, at: breach}}", "start.run.at", "expected one of"),
        ("{turn: runner, run: {server: R&D, ice: 1}}", "start.run.at", "one of"),
        ("{turn: runner, run: {server: R&D, at: approach_ice, ice: 1, x: 2}}", "start.run.x", "unknown key"),
        ("{turn: corp, run: {server: R&D, at: approach_ice, ice: 1}}", "start.turn", "Runner's turn"),
        ("{turn: runner, at: action_phase, run: {server: R&D, at: approach_server}}", "start.at", "not both"),
    ],
)
def test_a_wrong_run_start_names_the_field_and_line(start_line: str, field: str, message: str) -> None:
    readers = (parse, lambda text: parse_scenario(text, None, None, None))  # the engine's loader, the web's
    for read in readers:
        with pytest.raises(ScenarioError) as err:
            read(_scenario(start_line))
        assert err.value.field == field and err.value.line == 2 and message in str(err.value)
