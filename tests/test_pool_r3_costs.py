"""Round 3, family `costs`: costs acting on chosen cards, costs with a choice, click quantities in costs, and
additional costs to rez, score, steal and trash with the basic action. Assertions are on events, choice points
and cited rules."""
from __future__ import annotations

from pathlib import Path

import pytest
from pool_scenarios import replay_named as _out

from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.nodes import At
from judgebook.engine.scenario.load import parse_scenario

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"


def _points(out, kind: str) -> list:  # type: ignore[no-untyped-def]
    return [g.point for g in out.states if g.point is not None and g.point.kind == kind]


def test_a_card_cost_is_chosen_by_the_payer_and_cannot_be_prevented(cards_root: Path):
    out = _out("card-azef_protocol-1", cards_root)
    targets = [p for p in _points(out, "target") if p.rule == "rule_cost"]
    assert targets and targets[0].player == "corp"
    kinds = [s.kind for s in out.steps]
    # Gaslight is trashed as the cost, with no interrupt window, before Azef Protocol is scored.
    trashed = next(i for i, s in enumerate(out.steps) if s.kind == "trashed" and s.card == "Gaslight")
    assert kinds.index("scored") > trashed
    assert not any(s.kind == "would_trash" and "Gaslight" in s.text for s in out.steps)


def test_an_unpayable_additional_cost_to_score_refuses_the_score(cards_root: Path):
    out = _out("card-azef_protocol-2", cards_root)
    assert out.error is not None and out.error.rule == "rule_additional_cost"


def test_an_either_cost_offers_only_the_choices_that_can_be_paid(cards_root: Path):
    out = _out("card-valentao-1", cards_root)
    point = _points(out, "choose")[0]
    assert point.rule == "rule_cost" and point.player == "corp"
    assert [o.decision.value for o in point.options] == [1]
    assert [(r.decision.value, r.rule) for r in point.refused] == [(2, "rule_cost")]


def test_the_additional_cost_to_steal_is_paid_with_a_chosen_program(cards_root: Path):
    out = _out("card-sds_drone_deployment-1", cards_root)
    kinds = [s.kind for s in out.steps]
    trashed = next(i for i, s in enumerate(out.steps) if s.kind == "trashed" and s.card == "Nga")
    assert kinds.index("stolen") > trashed


def test_a_derez_cost_emits_the_derezzed_event_before_the_rez(cards_root: Path):
    out = _out("card-bloop-1", cards_root)
    derez = next(i for i, s in enumerate(out.steps) if s.kind == "derezzed")
    rez = next(i for i, s in enumerate(out.steps) if s.kind == "rezzed")
    assert out.steps[derez].card == "Bloop-B" and derez < rez


def test_an_additional_cost_to_trash_with_the_basic_action_is_paid_by_the_corp(cards_root: Path):
    out = _out("card-sebastiao_souza_pessoa_activist_organizer-1", cards_root)
    point = [p for p in _points(out, "target") if p.rule == "rule_cost"][0]
    assert point.player == "corp"
    order = [s.card for s in out.steps if s.kind == "trashed"]
    assert order == ["Hedge Fund", "The Artist"]


def test_a_cost_returning_its_own_card_keeps_its_last_counters(cards_root: Path):
    out = _out("card-janaina_jk_dumont_kindelan-1", cards_root)
    assert out.final.cards["JK"].zone == "corp.hand"
    assert out.final.corp.credits == 8


def test_the_card_paid_to_play_an_event_is_its_chosen_card(cards_root: Path):
    out = _out("card-rejig-1", cards_root)
    installs = [s for s in out.steps if s.kind == "installed"]
    assert [s.card for s in installs] == ["Penrose"]
    assert out.final.runner.credits == 0


@pytest.mark.parametrize(
    "cost, message",
    [
        ("{trash: target}", "selector finds"),
        ("{either: [{tags: 1}]}", "two or more costs"),
        ("{either: [{tags: 1}, {either: [{tags: 1}, {tags: 2}]}]}", "inside an `either`"),
        ("{remove_from_game: {zone: hand, count: 1}}", "remove_from_game: self"),
        ("{derez: self}", "selector finds"),
    ],
)
def test_malformed_card_costs_are_errors(cost: str, message: str, cards_root: Path):
    with pytest.raises(ScenarioError, match=message):
        parse_scenario(f"""
title: t
card_defs:
  - name: X
    side: runner
    type: resource
    abilities: [{{id: a, cost: {cost}, effects: [{{draw: 1}}]}}]
start: {{turn: runner, at: action_phase}}
""", "test", LIBRARY, cards_root)


def test_cost_rendering_of_the_new_parts():
    from judgebook.engine.language.costs import parse_cost

    at = At("cost", None)
    assert parse_cost({"either": [{"bad_publicity": 1}, {"remove_tags": 1}]}, at).render() == (
        "take 1 bad publicity or remove 1 tag")
    c = parse_cost({"trash": {"zone": "hand", "side": "you", "count": 2}}, at)
    assert c.chooses and c.render().startswith("trash 2 cards")
    assert not parse_cost({"trash": {"top": 1, "deck": "you"}}, at).chooses
    assert parse_cost({"clicks": {"counters": {"kind": "power"}}}, at).clicks_of is not None


def test_abilities_met_by_paying_an_additional_cost_resolve_before_the_effect(cards_root: Path):
    # rule_additional_cost_checkpoint: Ob's ability resolves before Azef Protocol is scored.
    out = _out("card-azef_protocol-3", cards_root)
    kinds = [(s.kind, s.card) for s in out.steps]
    ob = next(i for i, (k, c) in enumerate(kinds) if k == "resolve" and c and c.startswith("Ob Superheavy"))
    assert ob < [k for k, _ in kinds].index("scored")


def test_an_access_ability_of_an_event_in_the_play_area(cards_root: Path):
    out = _out("card-eye_for_an_eye-1", cards_root)
    points = [g.point for g in out.states if g.point is not None and g.point.kind == "mid_access"]
    assert points and any(o.decision.value == "Eye for an Eye" for o in points[0].options)


def test_a_persistent_additional_cost_outlives_its_trashed_card_for_the_run(cards_root: Path):
    out = _out("card-daniela_jorge_inacio-1", cards_root)
    pay = [g.point for g in out.states if g.point is not None and g.point.kind == "pay"]
    assert pay and [r.rule for r in pay[-1].refused] == ["rule_cost"]
    assert "declined" in [s.kind for s in out.steps] and "stolen" not in [s.kind for s in out.steps]


def test_an_x_paid_in_tags_is_read_by_the_played_card(cards_root: Path):
    out = _out("card-ip_enforcement-1", cards_root)
    removed = [s for s in out.steps if s.kind == "tags_removed"]
    assert removed and removed[0].anchor == "rule_remove_tags_or_bad_publicity_as_cost"
    assert out.final.runner.tags == 1 and out.final.cards["Azef Protocol"].count("advancement") == 1
    err = _out("card-ip_enforcement-2", cards_root).error
    assert err is not None and err.rule == "rule_cost"


def test_a_card_played_and_removed_is_never_trashed(cards_root: Path):
    out = _out("card-plutus-2", cards_root)
    assert out.final.cards["Hedge Fund"].zone == "corp.removed"
    assert not any(s.kind == "trashed" and s.card == "Hedge Fund" for s in out.steps)
    assert "rule_rfg_move" in [s.anchor for s in out.steps if s.card == "Hedge Fund"]
