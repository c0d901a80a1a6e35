"""The session driver (engine/driver/session.py): pick checked against the choice point, undo, the decisions
taken, and the prefix cache giving the same session as a replay from the start."""
from __future__ import annotations

from pathlib import Path

import pytest

from judgebook.engine.driver.session import Prefixes, Session
from judgebook.engine.errors import IllegalDecision
from judgebook.engine.scenario.load import parse

LIBRARY = Path(__file__).resolve().parents[1] / "rules_source" / "cards"

BOARD = """\
title: a run into Tollbooth
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Tollbooth, rezzed: true}, {card: Ice Wall}]}
runner:
  credits: 5
  hand: [Sure Gamble]
"""


def scenario(decisions: str = ""):
    return parse(BOARD + (f"decisions:\n{decisions}" if decisions else ""), "s.yaml", LIBRARY)


def option_number(s: Session, label_start: str) -> int:
    point = s.point
    assert point is not None
    return next(n for n, o in enumerate(point.options, 1) if o.label.startswith(label_start))


def test_pick_advances_one_step_and_undo_returns_to_the_state_before():
    s = Session.begin(scenario()).follow([], stop_when_used=True)
    assert s.ended == "decisions used" and s.point is not None
    while s.point is not None and s.point.kind != "action":   # the windows before the action phase's first action
        s = s.pick(1)
    assert s.point is not None and s.point.player == "runner"
    passes = len(s.taken)
    n = option_number(s, "gain 1[c]")
    after = s.pick(n)
    assert len(after.states) == len(s.states) + 1
    assert after.final.runner.credits == 6 and after.final.runner.clicks == 3
    assert after.decisions()[-1] == s.point.options[n - 1].decision
    back = after.undo(passes)
    assert back.states == s.states and back.steps == s.steps and back.decisions() == s.decisions()
    assert s.final.runner.credits == 5          # a value: picking made a new session


def test_pick_is_checked_against_the_point_not_the_text():
    s = Session.begin(scenario()).follow([], stop_when_used=True)
    assert s.point is not None
    with pytest.raises(IllegalDecision, match="no option 99"):
        s.pick(99)
    with pytest.raises(IllegalDecision, match="no card 'Nobody'"):
        s.pick(1, using=["Nobody"])


def test_the_prefix_cache_gives_the_session_a_replay_from_the_start_gives():
    cache = Prefixes(cap=2)
    one = scenario("  - {action: run, server: HQ}\n")
    two = scenario("  - {action: run, server: HQ}\n  - {action: gain_credit}\n")
    first = cache.follow("board", one)
    assert first.ended == "decisions used"
    kept = cache.follow("board", two)           # followed on from `first`: one decision more
    fresh = Session.begin(two).follow(two.decisions, stop_when_used=True)
    assert kept.states == fresh.states
    assert [(s.kind, s.anchor, s.how) for s in kept.steps] == [(s.kind, s.anchor, s.how) for s in fresh.steps]
    assert kept.states[: len(first.states)] == first.states     # the kept states were reused
    assert kept.states[0] is first.states[0]
    cache.follow("other", one)
    cache.follow("third", one)
    assert len(cache.items) == 2                # the cap holds


def test_a_decision_too_late_for_the_kept_prefix_is_refused_as_a_replay_refuses_it():
    # the Runner spends all four clicks, then a fifth action: the action phase ended before it
    four = "  - {action: gain_credit}\n" * 4
    cache = Prefixes()
    cache.follow("b", scenario(four))
    late = scenario(four + "  - {action: gain_credit}\n")
    kept = cache.follow("b", late)
    fresh = Session.begin(late).follow(late.decisions, stop_when_used=True)
    assert kept.error is not None and fresh.error is not None
    assert kept.error.rule == fresh.error.rule and str(kept.error) == str(fresh.error)
