"""Positions (engine/rules/positions.py): the Runner's position is a position, not an index into the
server's ice (rule_ice_change_can_affect_position), and ice installs in the outermost position unless the
instruction says otherwise (rule_create_position_outermost). Each test fails on an engine that keeps the
Runner's position as a bare list index or installs ice innermost. Assertions are on state values, events
and cited anchors."""

from __future__ import annotations

from dataclasses import replace

from judgebook.engine import ChoicePoint, Game, advance, choices
from judgebook.engine.driver.step import settle, start
from judgebook.engine.rules.effects import trash
from judgebook.engine.rules.frames import swap
from judgebook.engine.rules.positions import place_ice
from judgebook.engine.rules.run import INDEX, Run
from judgebook.engine.scenario.load import parse, setup
from judgebook.engine.state.model import Step

# Three unrezzed walls on R&D (ids Wall, Wall#2, Wall#3, outermost first); a fourth in HQ (the Corp's hand).
BOARD = """
title: positions
start: {turn: runner, run: {server: R&D, at: approach_ice, ice: 2}}
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
  credits: 0
  hand: [{card: Wall, id: New Wall}]
  servers:
    R&D: {ice: [Wall, Wall, Wall]}
"""


def _approaching_second() -> Game:
    g, _ = start(setup(parse(BOARD)))
    assert _run(g).ice_at(g) == "Wall#2"
    return g


def _run(g: Game) -> Run:
    run = next(f for f in g.stack if isinstance(f, Run))
    assert isinstance(run, Run)
    return run


def _point(g: Game) -> ChoicePoint:
    point = choices(g)
    assert point is not None
    return point


def _defaults_until_run_ends(g: Game) -> list[Step]:
    steps: list[Step] = []
    for _ in range(80):
        if not any(isinstance(f, Run) for f in g.stack):
            return steps
        point = _point(g)
        g, more = advance(g, point.options[point.default if point.default is not None else 0].decision)
        steps += more
    raise AssertionError("the run never ended")


def test_ice_leaving_outward_of_the_runner_leaves_them_where_they_are():
    g = trash(_approaching_second(), "Wall", "corp")
    run = _run(g)
    assert run.ice_at(g) == "Wall#2" and run.vacated is None


def test_ice_installed_outermost_during_the_run_is_outward_of_the_runner():
    g = place_ice(_approaching_second(), "New Wall", "R&D", None, "New Wall")
    assert g.zone("corp.server.R&D.ice") == ("New Wall", "Wall", "Wall#2", "Wall#3")
    assert _run(g).ice_at(g) == "Wall#2"
    assert [(s.kind, s.anchor) for s in g.out[-2:]] == [
        ("ice_position", "rule_create_position_outermost"),
        ("ice_position", "rule_ice_change_outward"),
    ]


def test_the_runners_own_ice_leaving_leaves_a_vacant_position_then_the_next_ice_inward_is_approached():
    g = trash(_approaching_second(), "Wall#2", "corp")
    run = _run(g)
    assert run.vacated == "Wall#2" and run.ice_at(g) is None
    steps = _defaults_until_run_ends(g)
    seen = [(s.kind, s.card) for s in steps if s.kind in ("approach_ice", "pass_ice", "position")]
    # nothing passed at the vacant position; the Runner moves on from it and approaches Wall#3, not past it
    assert seen == [("position", "Wall#2"), ("approach_ice", "Wall#3"), ("pass_ice", "Wall#3")]
    assert ("position", "rule_ice_change_can_affect_position") in [(s.kind, s.anchor) for s in steps]
    assert "None" not in " ".join(s.text for s in steps)


def test_ice_leaving_the_position_the_runner_moved_to_sends_them_on_inward():
    # The Runner has passed Wall and moved to Wall#2's position; before they approach it (step_approach_new_ice),
    # Wall#2 leaves: with no ice in their position the movement phase goes on from the vacant position, and
    # they approach Wall#3, the next position inward.
    g = _approaching_second()
    run = _run(g)
    at = g.stack.index(run)
    g = replace(g, stack=g.stack[: at + 1], point=None)
    g = swap(g, run, replace(run, at=INDEX["approach_next"], now=INDEX["approach_next"], position=1,
                             approached=None))
    g = trash(g, "Wall#2", "corp")
    assert _run(g).vacated == "Wall#2" and _run(g).ice_at(g) is None
    g, steps = settle(g)
    steps_all = list(steps) + _defaults_until_run_ends(g)
    assert [(s.kind, s.card) for s in steps_all if s.kind in ("approach_ice", "pass_ice", "position")] == [
        ("position", "Wall#2"), ("approach_ice", "Wall#3"), ("pass_ice", "Wall#3")]
