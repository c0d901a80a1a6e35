"""Which credits pay (rule_spend_credits, CR 26.03 1.10.3c): the spending player divides a payment among the
allowed locations. Every payment that hosted credits may share is offered once per source (`using:`), the
scripted `using` is carried out for the install, play, rez, trace and basic actions, and the timeline's step
says which credits paid and cites the rule; a `using` where no credits are spent is refused, never ignored."""

from __future__ import annotations

import textwrap

from judgebook.engine.driver.script import Outcome, replay
from judgebook.engine.scenario.load import Scenario, parse
from judgebook.engine.state.model import Step

DEFS = """
  - {name: Purse, side: runner, type: resource, cost: 0, credits_for: any}
  - {name: Kit, side: runner, type: hardware, cost: 2}
  - {name: Windfall, side: runner, type: event, cost: 2}
  - {name: Vault, side: corp, type: asset, cost: 0, credits_for: any}
  - {name: Kiosk, side: corp, type: asset, cost: 2}
  - {name: Zeta, side: corp, type: agenda, advancement_requirement: 3, agenda_points: 2}
  - {name: Wire, side: runner, type: resource, cost: 0, credits_for: traces}
  - name: Tracer
    side: corp
    type: ice
    subtypes: [sentry]
    cost: 0
    strength: 1
    subroutines:
      - text: "Trace[1]. If successful, give the Runner 1 tag."
        effects: [{trace: {base: 1, success: [{give_tags: 1}]}}]
  - name: Booster
    side: runner
    type: hardware
    cost: 0
    abilities:
      - {id: go, cost: {credits: 1}, effects: [{gain_credits: 2}]}
  - name: Oracle
    side: corp
    type: upgrade
    cost: 0
    abilities:
      - id: psi
        trigger: successful_run
        condition: {server: this}
        effects: [{psi_game: {match: [{give_tags: 1}], differ: []}}]
"""


def scenario(body: str) -> Scenario:
    text = "title: test\ncard_defs:\n" + textwrap.indent(textwrap.dedent(DEFS).strip("\n"), "  ") + "\n"
    return parse(text + textwrap.dedent(body), file="inline.yaml")


def run(body: str) -> Outcome:
    return replay(scenario(body))


def spent(out: Outcome) -> list[Step]:
    return [s for s in out.steps if s.kind == "credits_spent"]


RUNNER = """
start: {turn: runner, at: action_phase}
runner:
  credits: 2
  hand: [Kit, Windfall]
  installed: [{card: Purse, counters: {credit: 3}}]
"""


def test_the_action_point_offers_each_source_that_may_pay():
    point = run(RUNNER).final.point  # no decision: the replay stops at the action
    assert point is not None
    labels = [o.label for o in point.options]
    assert "install Kit" in labels and "install Kit, spending Purse's 3[c] first" in labels
    assert "play Windfall" in labels and "play Windfall, spending Purse's 3[c] first" in labels
    using = next(o for o in point.options if o.label == "install Kit, spending Purse's 3[c] first")
    assert using.decision.get("using") == ["Purse"] and using.rule == "runner_basic_action_install"


def test_install_spends_the_credits_the_runner_chose():
    out = run(RUNNER + "decisions:\n  - {action: install, card: Kit, using: [Purse]}\n")
    (paid,) = spent(out)
    assert paid.anchor == "rule_spend_credits" and paid.text == "the runner pays 2[c]: 2[c] from Purse"
    assert out.final.runner.credits == 2 and out.final.card("Purse").count("credit") == 1


def test_without_using_the_pool_pays_first_and_the_step_says_so():
    out = run(RUNNER + "decisions:\n  - {action: install, card: Kit}\n")
    (paid,) = spent(out)
    assert paid.anchor == "rule_spend_credits"
    assert paid.text == "the runner pays 2[c]: the pool first, as no `using:` chose, 2[c] from the pool (2 → 0)"
    assert out.final.card("Purse").count("credit") == 3


def test_play_spends_the_credits_the_runner_chose():
    out = run(RUNNER + "decisions:\n  - {action: play, card: Windfall, using: [Purse]}\n")
    (paid,) = spent(out)
    assert paid.anchor == "rule_spend_credits" and "2[c] from Purse" in paid.text
    assert out.final.runner.credits == 2


def test_rez_spends_the_credits_the_corp_chose():
    out = run(
        """
        start: {turn: corp, at: action_phase}
        corp:
          credits: 2
          servers: {Remote: {root: [{card: Vault, rezzed: true, counters: {credit: 2}}, Kiosk]}}
        decisions:
          - {rez: Kiosk, using: [Vault]}
        """
    )
    (paid,) = spent(out)
    assert paid.anchor == "rule_spend_credits" and paid.text == "the corp pays 2[c]: 2[c] from Vault"
    assert out.final.corp.credits == 2 and out.final.card("Kiosk").rezzed


def test_the_runner_spends_trace_credits_from_the_card_chosen():
    out = run(
        """
        start: {turn: runner, at: action_phase}
        corp:
          credits: 0
          servers: {HQ: {ice: [{card: Tracer, rezzed: true}]}}
        runner:
          credits: 3
          installed: [{card: Wire, counters: {credit: 2}}]
        decisions:
          - {action: run, server: HQ}
          - {trace: 0, player: corp}
          - {trace: 1, player: runner, using: [Wire]}
        """
    )
    (paid,) = spent(out)
    assert paid.anchor == "rule_spend_credits" and paid.text == "the runner pays 1[c]: 1[c] from Wire"
    assert out.final.runner.credits == 3 and out.final.runner.tags == 0


def test_using_where_no_credits_are_spent_is_refused():
    out = run(RUNNER + "decisions:\n  - {action: gain_credit, using: [Purse]}\n")
    assert out.error is not None and out.error.rule == "rule_spend_credits"


def test_using_a_card_whose_credits_cannot_pay_is_refused():
    out = run(
        """
        start: {turn: runner, at: action_phase}
        runner:
          credits: 2
          hand: [Kit]
          installed: [{card: Wire, counters: {credit: 2}}]
        decisions:
          - {action: install, card: Kit, using: [Wire]}
        """
    )
    assert out.error is not None and out.error.rule == "rule_spend_credits"


def test_a_psi_bid_spends_the_credits_each_player_chose():
    out = run(
        """
        start: {turn: runner, at: action_phase}
        corp:
          credits: 1
          servers: {Remote: {root: [{card: Oracle, rezzed: true}]}}
        runner:
          credits: 2
          installed: [{card: Purse, counters: {credit: 3}}]
        decisions:
          - {action: run, server: Remote}
          - {trace: 1, player: corp}
          - {trace: 2, player: runner, using: [Purse]}
        """
    )
    corp, runner = spent(out)
    assert (corp.anchor, corp.text) == ("rule_cost", "the corp pays 1[c]: 1[c] from the pool (1 → 0)")
    assert (runner.anchor, runner.text) == ("rule_spend_credits", "the runner pays 2[c]: 2[c] from Purse")
    assert out.final.runner.credits == 2 and out.final.card("Purse").count("credit") == 1


def test_a_paid_ability_is_offered_once_per_source_and_spends_the_chosen_credits():
    out = run(
        """
        start: {turn: runner, at: action_phase}
        runner:
          credits: 2
          installed: [{card: Purse, counters: {credit: 3}}, Booster]
        decisions:
          - {use: Booster, ability: go, using: [Purse]}
        """
    )
    first = out.states[0].point
    assert first is not None
    labels = [o.label for o in first.options if o.decision.kind == "use"]
    assert labels == ["Booster: go", "Booster: go, spending Purse's 3[c] first"]
    (paid,) = spent(out)
    assert (paid.anchor, paid.text) == ("rule_spend_credits", "the runner pays 1[c]: 1[c] from Purse")
    assert out.final.runner.credits == 4


def test_the_advance_action_is_offered_per_source_and_spends_the_chosen_credits():
    body = """
        start: {turn: corp, at: action_phase}
        corp:
          credits: 3
          servers: {Remote: {root: [{card: Vault, rezzed: true, counters: {credit: 2}}, Zeta]}}
"""
    point = run(body).final.point  # no decision: the replay stops at the action
    assert point is not None
    labels = [o.label for o in point.options if o.decision.get("card") == "Zeta"]
    assert labels == ["advance Zeta", "advance Zeta, spending Vault's 2[c] first"]
    out = run(body + "        decisions:\n          - {action: advance, card: Zeta, using: [Vault]}\n")
    (paid,) = spent(out)
    assert (paid.anchor, paid.text) == ("rule_spend_credits", "the corp pays 1[c]: 1[c] from Vault")
    assert out.final.corp.credits == 3 and out.final.card("Zeta").count("advancement") == 1
