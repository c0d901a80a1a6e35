"""Refusals and citations around costs and counters (issue 19 §1): each asserted on the step or error and the
rule it cites. Paying a cost cannot be modified by optional interrupts (rule_cost_no_interrupt); additional
costs are paid together (rule_additonal_cost_simultaenous, the CR's spelling); gaining credits is
rule_gain_credits; counters placed or removed cite their counter rule; simultaneous pending abilities are
ordered active player first (rule_simultaneous_active_player_first)."""

from __future__ import annotations

import textwrap

from judgebook.engine.driver.script import Outcome, replay
from judgebook.engine.scenario.load import Scenario, parse
from judgebook.engine.state.model import Step

DEFS = """
  - name: Scar
    side: runner
    type: resource
    cost: 0
    abilities:
      - {id: pain, cost: {damage: {net: 1}}, effects: [{gain_credits: 2}]}
  - name: Shield
    side: runner
    type: resource
    cost: 0
    abilities:
      - id: soak
        trigger: would_damage
        interrupt: true
        optional: true
        effects: [{prevent: {what: damage, amount: 1}}]
  - name: Guard
    side: runner
    type: hardware
    cost: 0
    abilities:
      - {id: block, cost: {credits: 1}, interrupt: true, effects: [{prevent: {what: damage, amount: 1}}]}
  - {name: Filler, side: runner, type: event, cost: 0}
"""


def scenario(body: str, defs: str = DEFS) -> Scenario:
    text = "title: test\ncard_defs:\n" + textwrap.indent(textwrap.dedent(defs).strip("\n"), "  ") + "\n"
    return parse(text + textwrap.dedent(body), file="inline.yaml")


def run(body: str, defs: str = DEFS) -> Outcome:
    return replay(scenario(body, defs))


def steps(out: Outcome, kind: str) -> list[Step]:
    return [s for s in out.steps if s.kind == kind]


PAIN = """
start: {turn: runner, at: action_phase}
runner:
  credits: 5
  hand: [Filler, Filler]
  installed: [Scar, Shield, Guard]
decisions:
  - {use: Scar, ability: pain}
"""


def test_an_optional_conditional_interrupt_against_a_cost_is_refused_by_the_cost_rule():
    out = run(PAIN + "  - {trigger: Shield, ability: soak}\n")
    assert out.error is not None and out.error.rule == "rule_cost_no_interrupt"
    (shown,) = steps(out, "not_offered")
    assert (shown.card, shown.anchor) == ("Shield", "rule_cost_no_interrupt")


def test_a_paid_interrupt_against_damage_paid_as_a_cost_is_refused_by_the_cost_rule():
    out = run(PAIN + "  - {use: Guard, ability: block}\n")
    assert out.error is not None and out.error.rule == "rule_cost_no_interrupt"
    assert "paying a cost cannot be prevented" in str(out.error)


STEAL = """
  - name: Pricey
    side: corp
    type: agenda
    advancement_requirement: 3
    agenda_points: 2
    abilities:
      - {id: extra, static: {additional_cost: {to: steal, card: self, cost: {credits: 2}}}}
  - name: Toll
    side: corp
    type: upgrade
    cost: 0
    abilities:
      - {id: toll, static: {additional_cost: {to: steal, server: this, cost: {credits: 2}}}}
"""


def test_additional_costs_that_cannot_all_be_paid_at_once_cite_the_rule_on_paying_them_together():
    # 3[c]: enough for either additional cost, not for both; the Runner pays none (CR 26.03 1.16.10b).
    out = run(
        """
        corp:
          servers: {Remote: {root: [Pricey, {card: Toll, rezzed: true}]}}
        runner:
          credits: 3
        decisions:
          - {action: run, server: Remote}
        """,
        STEAL,
    )
    declined = steps(out, "declined")
    assert [s.anchor for s in declined] == ["rule_additonal_cost_simultaenous"]
    assert declined[0].text.endswith("at once, so pays none of it: Pricey is not stolen")
    assert out.final.zone("runner.score") == () and out.final.runner.credits == 3
    refused = [r for g in out.states if g.point for r in g.point.refused if r.decision.kind == "pay"]
    assert refused and {r.rule for r in refused} == {"rule_additonal_cost_simultaenous"}


COUNTING = """
  - name: Jar
    side: runner
    type: resource
    cost: 0
    abilities:
      - {id: fill, cost: {clicks: 1}, effects: [{counters: {add: 2, kind: power, card: self}}]}
      - {id: drain, cost: {clicks: 1}, effects: [{counters: {remove: 1, kind: power, card: self}}, {gain_credits: 1}]}
"""


def test_gaining_credits_cites_the_rule_on_gaining_and_counters_cite_the_bank_and_their_type():
    out = run(
        """
        start: {turn: runner, at: action_phase}
        runner:
          credits: 0
          installed: [Jar]
        decisions:
          - {action: use, card: Jar, ability: fill}
          - {action: use, card: Jar, ability: drain}
        """,
        COUNTING,
    )
    placed, removed = steps(out, "counters")
    assert (placed.text, placed.anchor) == ("2 power counter(s) placed on Jar", "rule_bank_default")
    assert (removed.text, removed.anchor) == ("1 power counter(s) removed from Jar", "rule_type_power_counter")
    (gained,) = steps(out, "credits")
    assert (gained.text, gained.anchor) == ("the runner gains 1[c] (0 → 1)", "rule_gain_credits")


PENDING = """
  - name: Alpha
    side: runner
    type: resource
    abilities:
      - {id: a, trigger: run_begins, effects: [{gain_credits: 1}]}
  - name: Beta
    side: runner
    type: resource
    abilities:
      - {id: b, trigger: run_begins, effects: [{gain_credits: 2}]}
  - name: Gamma
    side: corp
    type: asset
    abilities:
      - {id: g, trigger: run_begins, effects: [{gain_credits: 1}]}
"""


def test_simultaneous_pending_abilities_cite_the_rule_that_orders_them():
    out = run(
        """
        corp:
          servers: {Remote: {root: [{card: Gamma, rezzed: true}]}}
        runner:
          installed: [Alpha, Beta]
        decisions:
          - {action: run, server: HQ}
          - {trigger: Beta}
        """,
        PENDING,
    )
    order = [(s.card, s.anchor) for s in steps(out, "resolve")]
    # The Runner (active) resolves theirs while the Corp's waits; the Corp's last one needs no ordering.
    assert order == [("Beta", "rule_reaction_window_priority"), ("Alpha", "rule_reaction_window_priority"),
                     ("Gamma", "step_conditional_ability_resolution")]
