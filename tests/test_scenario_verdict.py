"""Every `expect` key can fail: for each, a small scenario whose outcome violates it, and the verdict must
name that key. The base run: the Runner (5[c], Sure Gamble in grip) runs HQ, behind rezzed Tollbooth
(outermost) and unrezzed Ice Wall; pays Tollbooth's 3[c] tax, and Tollbooth's subroutine ends the run."""
from __future__ import annotations

from pathlib import Path

import pytest

from judgebook.engine.driver.script import replay
from judgebook.engine.errors import ScenarioError
from judgebook.engine.scenario.load import load, parse
from judgebook.engine.scenario.verdict import check

LIBRARY = Path(__file__).resolve().parents[1] / "rules_source" / "cards"

BASE = """\
title: a run into Tollbooth
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Tollbooth, rezzed: true}, {card: Ice Wall}]}
runner:
  credits: 5
  hand: [Sure Gamble]
decisions:
  - {action: run, server: HQ}
"""
# The same board, the Runner with 1[c] trying to play Sure Gamble (5[c]) after the run: refused.
REFUSED = BASE.replace("credits: 5", "credits: 4") + "  - {action: play, card: Sure Gamble}\n"


def outcome_of(text: str, expect: str) -> list[str]:
    sc = parse(text + "expect:\n" + "".join(f"  {line}\n" for line in expect.splitlines()), "t.yaml", LIBRARY)
    return check(sc, replay(sc))


# What the base run does, every key stated true: the table below breaks one key at a time from here.
TRUE = """\
winner: none
run: {successful: false, ended_by: end_the_run, server: HQ}
resolved: ["Tollbooth:tax", "Tollbooth:sub1"]
not_resolved: ["Ice Wall:sub1"]
resolved_in: {"Tollbooth:sub1": resolve unbroken subroutines}
state:
  runner: {credits: 2, clicks: 3, tags: 0, core_damage: 0, hand: [Sure Gamble], deck: 0, discard: 0}
  corp: {bad_publicity: 0, score: 0}
  cards:
    Tollbooth: {zone: installed, server: HQ, position: 1, rezzed: true, strength: 5, counters: {advancement: 0}}
    Ice Wall: {zone: installed, server: HQ, position: 2, rezzed: false}
"""

HAND = "  hand: [Sure Gamble]\n"
VIOLATIONS = {
    "winner": (BASE, "winner: runner"),
    "win_reason": (BASE, "win_reason: agenda_points"),
    "run.successful": (BASE, "run: {successful: true}"),
    "run.ended_by": (BASE, "run: {ended_by: jack_out}"),
    "run.server": (BASE, "run: {server: R&D}"),
    "resolved": (BASE, 'resolved: ["Ice Wall:sub1"]'),
    # the order: both resolved, the other way round
    "resolved: expected the order": (BASE, 'resolved: ["Tollbooth:sub1", "Tollbooth:tax"]'),
    # a subroutine that did resolve (this check once saw only abilities, so it could not fail)
    "not_resolved": (BASE, 'not_resolved: ["Tollbooth:sub1"]'),
    "resolved_in": (BASE, 'resolved_in: {"Tollbooth:sub1": access}'),
    "runner.credits": (BASE, "state: {runner: {credits: 5}}"),
    "runner.clicks": (BASE, "state: {runner: {clicks: 4}}"),
    "runner.tags": (BASE, "state: {runner: {tags: 1}}"),
    "runner.core_damage": (BASE, "state: {runner: {core_damage: 1}}"),
    "corp.bad_publicity": (BASE, "state: {corp: {bad_publicity: 1}}"),
    "runner.hand": (BASE, "state: {runner: {hand: 2}}"),
    "runner.deck": (BASE, "state: {runner: {deck: [Sure Gamble]}}"),
    "runner.discard": (BASE, "state: {runner: {discard: 1}}"),
    "runner.installed": (BASE, "state: {runner: {installed: [Sure Gamble]}}"),
    "runner.trashed": (BASE, "state: {runner: {trashed: [Sure Gamble]}}"),
    "corp.score": (BASE, "state: {corp: {score: 1}}"),
    "corp.scored": (BASE, "state: {corp: {scored: [Tollbooth]}}"),
    "corp.rezzed": (BASE, "state: {corp: {rezzed: [Ice Wall]}}"),
    "cards.Ice Wall.zone": (BASE, "state: {cards: {Ice Wall: {zone: hand}}}"),
    "cards.Ice Wall.rezzed": (BASE, "state: {cards: {Ice Wall: {rezzed: true}}}"),
    "cards.Ice Wall.strength": (BASE, "state: {cards: {Ice Wall: {strength: 2}}}"),
    "cards.Ice Wall.counters": (BASE, "state: {cards: {Ice Wall: {counters: {advancement: 1}}}}"),
    "cards.Ice Wall.server": (BASE, "state: {cards: {Ice Wall: {server: R&D}}}"),
    "cards.Ice Wall.position": (BASE, "state: {cards: {Ice Wall: {position: 1}}}"),
    # an empty list says none (it once asserted nothing: a check that could not fail)
    "runner.installed: expected none": (BASE.replace(HAND, HAND + "  installed: [Corroder]\n"),
                                        "state: {runner: {installed: []}}"),
    "runner.trashed: expected none": (BASE.replace(HAND, HAND + "  discard: [Corroder]\n"),
                                      "state: {runner: {trashed: []}}"),
    "corp.scored: expected none": (BASE.replace("corp:\n", "corp:\n  score: [Hostile Takeover]\n"),
                                   "state: {corp: {scored: []}}"),
    "error": (REFUSED, "error: {rule: rule_memory_limit}"),
    # an error expected where the replay ran to its end
    "error: expected rule": (BASE, "error: {rule: rule_cost}"),
    # the refusal met, the board after it not: `error` no longer ends the comparison
    "runner.credits: expected 5": (REFUSED, "error: {rule: rule_cost}\nstate: {runner: {credits: 5}}"),
}


def test_the_base_meets_every_key_stated_true():
    # the table's scenarios differ from this one only in the key they break
    assert outcome_of(BASE, TRUE) == []
    assert outcome_of(REFUSED, "error: {rule: rule_cost}\nstate: {runner: {credits: 1, hand: [Sure Gamble]}}") == []


@pytest.mark.parametrize("key", VIOLATIONS, ids=str)
def test_every_expect_key_can_fail(key):
    text, expect = VIOLATIONS[key]
    diffs = outcome_of(text, expect)
    assert diffs, f"{key}: the verdict passed a scenario built to violate it"
    assert any(d.startswith(key) for d in diffs), diffs


def test_the_table_covers_every_key_the_reader_accepts():
    from judgebook.engine.scenario import board

    named = {k.split(":")[0].split(".")[0] for k in VIOLATIONS}
    sides = {k.split(":")[0].split(".")[1] for k in VIOLATIONS if k.startswith(("runner.", "corp."))}
    cards = {k.split(".")[2].split(":")[0] for k in VIOLATIONS if k.startswith("cards.")}
    assert {"winner", "win_reason", "run", "resolved", "not_resolved", "resolved_in", "error"} <= named
    assert sides == set(board.STATE_KEYS)
    assert cards == set(board.CARD_EXPECT_KEYS)


@pytest.mark.parametrize(("expect", "field"), [
    ("state: {cards: {Ice Wall: {floor: 1}}}", "expect.state.cards.Ice Wall"),
    ("state: {cards: {Ice Wall: {position: 0}}}", "expect.state.cards.Ice Wall.position"),
    ("state: {cards: {Ice Wall: {position: two}}}", "expect.state.cards.Ice Wall.position"),
    ("state: {cards: {Ice Wall: {server: [HQ]}}}", "expect.state.cards.Ice Wall.server"),
])
def test_a_bad_card_key_is_an_error_naming_file_line_and_field(expect, field, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BASE + "expect:\n  " + expect + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load(path, LIBRARY)
    assert err.value.field is not None and err.value.field.startswith(field)
    assert err.value.line == 12   # the `expect` block starts on line 11
    assert err.value.file == str(path)
