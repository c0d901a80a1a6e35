""""Break up to N subroutines" (issue 19 §1): the Runner chooses 1 to N unbroken subroutines as the targets of
such a break ability (CR 26.03 rule_target, its example: Cleaver's targets are "the 1 or 2 subroutines that it
will break"); a break ability without "up to" targets N while N unbroken remain (rule_distinct_targets). The
printed texts are NetrunnerDB's (Makler: "2[credit]: Break up to 2 barrier subroutines."); assertions are on
the choice point's options and refusals, the events and the cited anchors, and on the English of card pages."""
from __future__ import annotations

from pathlib import Path

import pytest

from judgebook.engine import ChoicePoint, Game, IllegalDecision, advance
from judgebook.engine.driver.session import Session
from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.cards import library_items, parse_card
from judgebook.engine.language.nodes import At
from judgebook.engine.language.nrdb import card_source, parse_with_stats
from judgebook.engine.language.render import render_ability
from judgebook.engine.scenario.load import Scenario, load_scenario
from judgebook.engine.state.choice import decision

ROOT = Path(__file__).resolve().parents[1]
STANDARD = ROOT / "rules_source" / "cards" / "standard"

# A barrier whose first subroutine gives the Corp 1[c] and whose second ends the run; Twin Cutter is a made-up
# breaker that breaks 2 barrier subroutines, without "up to".
BOARD = """\
title: up to
card_defs:
  - name: Toll Barrier
    side: corp
    type: ice
    subtypes: [barrier]
    cost: 0
    strength: 2
    subroutines:
      - {text: "The Corp gains 1[c].", effects: [{gain_credits: 1}]}
      - {text: "End the run.", effects: [end_the_run]}
  - name: Twin Cutter
    side: runner
    type: program
    subtypes: [icebreaker, fracter]
    cost: 0
    memory: 1
    strength: 3
    abilities:
      - {id: break, cost: {credits: 1}, break: {subtype: barrier, count: 2}}
  - {name: Hedge Fund}
start: {turn: runner, at: action_phase}
corp:
  credits: 0
  hand: [Hedge Fund]
  servers:
    HQ: {ice: [{card: Toll Barrier, rezzed: true}]}
runner:
  credits: 5
  installed: [Makler, Twin Cutter]
decisions:
  - {action: run, server: HQ}
"""


@pytest.fixture()
def scenario(tmp_path, cards_root) -> Scenario:
    f = tmp_path / "up-to.yaml"
    f.write_text(BOARD, "utf-8")
    return load_scenario(f, [STANDARD, ROOT / "rules_source" / "cards"], cards_root)


def _encounter(sc: Scenario) -> tuple[Session, ChoicePoint]:
    """The session at the Runner's first priority in the encounter with Toll Barrier (defaults up to there)."""
    s = Session.begin(sc).follow(sc.decisions, stop_when_used=True)
    for _ in range(20):
        point = s.point
        assert point is not None
        if any(o.decision.get("ability") == "break" for o in point.options):
            return s, point
        s = s.pick((point.default or 0) + 1)
    raise AssertionError("never offered a break")


def _breaks(point: ChoicePoint, card: str) -> list[tuple[list[int], str]]:
    return [(o.decision.get("subroutines"), o.rule) for o in point.options
            if o.decision.value == card and o.decision.get("ability") == "break"]


def test_an_up_to_breaker_offers_one_or_two_targets_the_most_first(scenario):
    _, point = _encounter(scenario)
    assert _breaks(point, "Makler") == [([1, 2], "rule_break_subroutine"), ([1], "rule_target"),
                                        ([2], "rule_target")]
    assert not [r for r in point.refused if r.decision.value == "Makler"]


def test_an_exact_breaker_cannot_target_fewer_than_it_can(scenario):
    s, point = _encounter(scenario)
    assert _breaks(point, "Twin Cutter") == [([1, 2], "rule_break_subroutine")]
    refused = [(r.decision.get("subroutines"), r.rule) for r in point.refused if r.decision.value == "Twin Cutter"]
    assert refused == [([1], "rule_distinct_targets"), ([2], "rule_distinct_targets")]
    with pytest.raises(IllegalDecision) as err:
        advance(s.final, decision("use", "Twin Cutter", ability="break", subroutines=[2]))
    assert err.value.rule == "rule_distinct_targets"


def test_breaking_one_of_two_leaves_the_other_to_resolve_and_the_ice_not_fully_broken(scenario):
    s, point = _encounter(scenario)
    pick = next(i for i, o in enumerate(point.options, 1)
                if o.decision.value == "Makler" and o.decision.get("subroutines") == [2])
    s = s.pick(pick)
    steps = [(x.kind, x.anchor, x.text) for x in s.outcome().steps]
    assert ("chosen", "rule_target",
            "the runner chooses 1 of up to 2 subroutines for Makler to break (subroutine 2)") in steps
    assert [t for k, _, t in steps if k == "subroutine_broken"] == ["Makler breaks Toll Barrier subroutine 2"]
    assert "fully_broken" not in [k for k, _, _ in steps]
    # the rest of the encounter: subroutine 1 resolves (the Corp gains 1[c]); nothing ends the run
    out = s.follow(scenario.decisions).outcome()
    final: Game = out.final
    assert final.player("corp").credits == 1 and final.player("runner").credits == 3
    assert [x.text for x in out.steps if x.kind == "subroutine"] == [
        "Toll Barrier subroutine 1 resolves: The Corp gains 1[c]."]
    assert "Makler:gain" not in [f"{x.card}:{x.ability}" for x in out.steps if x.kind == "resolve"]
    assert "successful_run" in [x.kind for x in out.steps]


def test_the_card_page_english_keeps_up_to(cards_root):
    source = card_source(cards_root)
    cards = {stem: parse_with_stats(item, source, At("card", 1), str(STANDARD / f"{stem}.yaml"))
             for stem in ("makler", "euler") for item in library_items(STANDARD / f"{stem}.yaml")}
    cards = {c.name: c for c in cards.values()}
    makler = cards["Makler"].ability("break")
    assert makler is not None and render_ability(makler).endswith("break up to 2 barrier subroutines")
    free = cards["Euler"].ability("break-free")      # "Break 1 code gate subroutine": no "up to" printed
    assert free is not None and "break 1 code gate subroutine" in render_ability(free)
    assert "up to" not in render_ability(free)


@pytest.mark.parametrize("count, message", [
    ({"up_to": "X"}, "`count: {up_to: N}` takes a number N of at least 1"),
    ({"up_to": 0}, "count is a number, {up_to: N}, X or `all`"),
    ({"at_most": 2}, "count is a number, {up_to: N}, X or `all`"),
])
def test_a_malformed_up_to_is_an_error(count, message):
    node = {"id": "x", "name": "X", "side": "runner", "type": "program",
            "abilities": [{"id": "break", "cost": {"credits": 1}, "break": {"count": count}}]}
    with pytest.raises(ScenarioError) as err:
        parse_card(node, At("card", 1))
    assert message in str(err.value)
