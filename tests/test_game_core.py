"""Core rules of the rebuilt engine (judgebook.game) on small inline scenarios.

Ported from the old engine's tests/test_engine_core.py (issue 8): each test sets up the same situation, with
the cards rewritten in the new card language (judgebook/game/LANGUAGE.md), and pins the same rule. Assertions
are on step kinds, cited anchors (`Step.anchor`), `IllegalDecision.rule`, `ScenarioError.field`/`.line`
and state values, never on English wording.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from judgebook.game import IllegalDecision, advance, choices
from judgebook.game.driver.choice import decision
from judgebook.game.driver.script import Outcome, check, replay
from judgebook.game.driver.step import start
from judgebook.game.errors import ScenarioError
from judgebook.game.scenario.load import Scenario, load, parse, setup
from judgebook.game.state.model import Game, Step

ICE_WALL = """
  - name: Ice Wall
    side: corp
    type: ice
    subtypes: [barrier]
    cost: 1
    strength: 1
    subroutines:
      - {text: "End the run.", effects: [end_the_run]}
"""
CORRODER = """
  - name: Corroder
    side: runner
    type: program
    subtypes: [icebreaker, fracter]
    cost: 2
    memory: 1
    strength: 2
    abilities:
      - {id: break, cost: {credits: 1}, break: {subtype: barrier, count: 1}}
      - {id: pump, cost: {credits: 1}, effects: [{strength: 1}]}
"""
FILLER = """
  - {name: Sure Gamble, side: runner, type: event, cost: 5}
  - {name: Hedge Fund, side: corp, type: operation, cost: 5}
"""


def scenario(body: str, defs: str = "") -> Scenario:
    cards = textwrap.dedent(defs).strip("\n") + "\n" + textwrap.dedent(FILLER).strip("\n")
    text = "title: test\ncard_defs:\n" + textwrap.indent(cards.strip("\n"), "  ") + "\n"
    return parse(text + textwrap.dedent(body), file="inline.yaml")


def run(body: str, defs: str = "") -> Outcome:
    return replay(scenario(body, defs))


def index(out: Outcome, kind: str, **want: Any) -> int:
    """The first step of this kind whose attributes are as given."""
    return next(
        i for i, s in enumerate(out.steps) if s.kind == kind and all(getattr(s, k) == v for k, v in want.items())
    )


def step(out: Outcome, kind: str, **want: Any) -> Step:
    return out.steps[index(out, kind, **want)]


def of_kind(out: Outcome, kind: str, **want: Any) -> list[Step]:
    return [s for s in out.steps if s.kind == kind and all(getattr(s, k) == v for k, v in want.items())]


def resolved(out: Outcome) -> list[str]:
    return [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]


def last_run(out: Outcome) -> dict[str, Any]:
    """The fields of the last `run_ends` event (server, successful, ended_by)."""
    ends = [dict(f.event.fields) for g in out.states for f in g.history if f.event.name == "run_ends"]
    assert ends, "no run ended"
    return ends[-1]


def hand(g: Game, side: str = "runner") -> tuple[str, ...]:
    return g.zone(f"{side}.hand")


def first_point(body: str, defs: str = "") -> Game:
    g, _ = start(setup(scenario(body, defs)))
    return g


# --- paid ability windows ------------------------------------------------------------

CLOSET = """
  - {name: Closet, side: corp, type: asset, cost: 2, trash_cost: 1}
  - name: Kit
    side: runner
    type: hardware
    cost: 0
    abilities:
      - {id: cash, cost: {credits: 0}, effects: [{gain_credits: 1}]}
"""


def test_paw_active_player_first_and_closes_after_two_passes_in_succession():
    body = """
        corp:
          servers: {Remote: {root: [Closet]}}
        runner:
          installed: [Kit]
        decisions:
          - {use: Kit, ability: cash}
          - {pass: runner}
          - {rez: Closet}
    """
    # The choice points: the active player (Runner) has priority first and keeps it after using an ability.
    g = first_point(body, CLOSET)
    assert (choices(g).player, choices(g).kind) == ("runner", "priority")
    g, _ = advance(g, decision("use", "Kit", ability="cash"))
    assert choices(g).player == "runner"
    g, _ = advance(g, decision("pass", "runner"))
    assert choices(g).player == "corp"
    g, _ = advance(g, decision("rez", "Closet"))
    # the Corp acted, so the window stays open: the Corp passes, then the Runner must pass again
    assert (choices(g).player, choices(g).kind) == ("corp", "priority")
    g, _ = advance(g, decision("pass", "corp"))
    assert (choices(g).player, choices(g).kind) == ("runner", "priority")
    g, _ = advance(g, decision("pass", "runner"))
    assert choices(g).kind == "action"  # two passes in succession: the window closed

    out = replay(scenario(body, CLOSET))
    use, runner_pass, rez = index(out, "ability_used", card="Kit"), index(out, "pass"), index(out, "rezzed")
    assert use < runner_pass < rez
    assert [(s.player, s.anchor) for s in out.steps[rez + 1 :] if s.kind == "pass"] == [
        ("corp", "rule_pass"),
        ("runner", "rule_pass"),
    ]
    assert step(out, "resolve", card="Kit").anchor == "step_paid_ability_resolution"
    assert out.final.corp.credits == 3
    assert out.final.runner.credits == 6


def test_rezzing_ice_outside_its_approach_is_refused_citing_the_rule():
    body = """
        corp:
          servers: {HQ: {ice: [Ice Wall]}}
        decisions:
          - {action: gain_credit}
          - {rez: Ice Wall}
    """
    g = first_point(body, ICE_WALL)
    for d in (decision("pass", "runner"), decision("pass", "corp"), decision("action", "gain_credit")):
        g, _ = advance(g, d)
    g, _ = advance(g, decision("pass", "runner"))
    assert choices(g).player == "corp"
    with pytest.raises(IllegalDecision) as err:
        advance(g, decision("rez", "Ice Wall"))
    assert err.value.rule == "rule_rez_ice_restriction"
    # the scripted replay names the decision's field and line, citing the same rule
    out = run(body, ICE_WALL)
    assert out.error is not None and out.error.rule == "rule_rez_ice_restriction"
    assert out.error.field == "decisions[1].rez" and out.error.line == 18


def test_ice_is_rezzed_on_approach_and_then_encountered():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [Ice Wall]}}
        decisions:
          - {action: run, server: HQ}
          - {rez: Ice Wall}
    """,
        ICE_WALL,
    )
    rez = index(out, "rezzed", card="Ice Wall")
    assert out.steps[rez].path[-2:] == ("approach ice", "paid ability window (rez the approached ice)")
    assert rez < index(out, "encounter_ice", card="Ice Wall")
    assert last_run(out)["ended_by"] == "end_the_run"


# --- conditional abilities --------------------------------------------------------------

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


def test_active_player_resolves_all_pending_abilities_in_chosen_order_then_the_other():
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
    assert resolved(out)[:3] == ["Beta:b", "Alpha:a", "Gamma:g"]
    beta = step(out, "resolve", card="Beta")
    assert beta.how == "chosen" and beta.player == "runner"
    # then the Runner's last pending ability (their only option), then the Corp's
    assert step(out, "resolve", card="Alpha").how == "only"
    assert step(out, "resolve", card="Gamma").player == "corp"


def test_default_order_is_marked_assumed():
    out = run(
        """
        runner:
          installed: [Alpha, Beta]
        decisions:
          - {action: run, server: HQ}
    """,
        PENDING,
    )
    first = step(out, "resolve", card="Alpha")
    assert first.how == "assumed" and first.anchor == "step_conditional_ability_resolution"
    assert resolved(out)[:2] == ["Alpha:a", "Beta:b"]  # board order


PAWNSHOP = """
  - name: Pawnshop
    side: runner
    type: resource
    abilities:
      - id: sell
        trigger: turn_begins
        condition: {player: you}
        optional: true
        effects:
          - {trash: {zone: installed, side: you, type: resource, count: 1}}
          - {gain_credits: 3}
  - name: Dealer
    side: runner
    type: resource
    abilities:
      - {id: pay, trigger: turn_begins, condition: {player: you}, effects: [{lose_credits: 1}]}
"""


def test_an_ability_whose_source_is_trashed_before_it_resolves_does_not_resolve():
    out = run(
        """
        start: {turn: runner, at: runner_turn}
        runner:
          credits: 0
          installed: [Pawnshop, Dealer]
        decisions:
          - {trigger: Pawnshop}
          - {target: Dealer}
    """,
        PAWNSHOP,
    )
    assert "Dealer:pay" not in resolved(out)
    lose = step(out, "expired", card="Dealer")
    assert lose.anchor == "rule_conditional_ability_lose_pending_when_ability_becomes_inactive"
    assert out.final.runner.credits == 3


def test_mandatory_pending_ability_cannot_be_declined():
    out = run(
        """
        start: {turn: runner, at: runner_turn}
        runner:
          installed: [Pawnshop, Dealer]
        decisions:
          - {decline: Dealer}
    """,
        PAWNSHOP,
    )
    assert out.error is not None
    assert out.error.rule == "rule_cannot_pass_with_mandatory_conditional_abilities_pending"


def test_once_per_turn_ability_cannot_be_used_twice():
    defs = """
      - name: Once
        side: runner
        type: resource
        abilities:
          - {id: go, cost: {credits: 0}, once_per: turn, effects: [{gain_credits: 1}]}
    """
    out = run(
        """
        runner:
          installed: [Once]
        decisions:
          - {use: Once, ability: go}
          - {use: Once, ability: go}
    """,
        defs,
    )
    assert out.error is not None and out.error.rule == "rule_cost_restrictions"
    assert out.error.field == "decisions[1].use"
    assert out.final.runner.credits == 6  # the first use resolved


# --- the run ----------------------------------------------------------------------------

WALL3 = """
  - name: Wall3
    side: corp
    type: ice
    subtypes: [barrier]
    cost: 3
    strength: 3
    subroutines:
      - {text: "Do 1 net damage.", effects: [{damage: {type: net, amount: 1}}]}
      - {text: "End the run.", effects: [end_the_run]}
      - {text: "Do 1 net damage.", effects: [{damage: {type: net, amount: 1}}]}
"""


def test_end_the_run_mid_subroutines_stops_the_rest_and_ends_the_run():
    out = run(
        """
        corp:
          servers: {R&D: {ice: [{card: Wall3, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: R&D}
    """,
        WALL3,
    )
    assert [(s.card, s.ability) for s in of_kind(out, "subroutine")] == [("Wall3", "sub1"), ("Wall3", "sub2")]
    assert step(out, "end_the_run").anchor == "rule_end_the_run"
    run_end = last_run(out)
    assert run_end["ended_by"] == "end_the_run" and not run_end["successful"]
    assert len(hand(out.final)) == 2
    assert of_kind(out, "approach_server") == []


def test_broken_subroutines_do_not_resolve():
    defs = WALL3 + CORRODER.replace("strength: 2", "strength: 3")
    out = run(
        """
        corp:
          servers: {R&D: {ice: [{card: Wall3, rezzed: true}]}}
        runner:
          installed: [Corroder]
          hand: [Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: R&D}
          - {use: Corroder, ability: break, subroutines: [2]}
    """,
        defs,
    )
    assert [s.ability for s in of_kind(out, "subroutine")] == ["sub1", "sub3"]
    assert last_run(out)["successful"]
    assert step(out, "subroutine_broken").anchor == "rule_break_subroutine"


def test_breaking_with_too_little_strength_cites_the_interface_rule():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [{card: Wall3, rezzed: true}]}}
        runner:
          installed: [Corroder]
        decisions:
          - {action: run, server: HQ}
          - {use: Corroder, ability: break}
    """,
        WALL3 + CORRODER,
    )
    assert out.error is not None and out.error.rule == "rule_icebreaker_interface_strength"


def test_pump_then_break_in_the_encounter():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [{card: Wall3, rezzed: true}]}}
        runner:
          installed: [Corroder]
          credits: 4
        decisions:
          - {action: run, server: HQ}
          - {use: Corroder, ability: pump, at: encounter_ice}
          - {use: Corroder, ability: break, subroutines: [1]}
          - {use: Corroder, ability: break, subroutines: [2]}
          - {use: Corroder, ability: break, subroutines: [3]}
    """,
        WALL3 + CORRODER,
    )
    assert out.error is None
    assert last_run(out)["successful"]
    assert of_kind(out, "subroutine") == []
    assert out.final.runner.credits == 0


def test_paying_credits_the_player_lacks_cites_the_cost_rule():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [{card: Ice Wall, rezzed: true}]}}
        runner:
          installed: [Corroder]
          credits: 0
        decisions:
          - {action: run, server: HQ}
          - {use: Corroder, ability: break}
    """,
        ICE_WALL + CORRODER,
    )
    assert out.error is not None and out.error.rule == "rule_cost"
    assert out.error.field == "decisions[1].use"


def test_bypass_ends_the_encounter_before_the_other_pending_ability(rules_source):
    sc = load(rules_source / "next" / "scenarios" / "engine-femme-fatale-tollbooth.yaml")
    out = replay(sc)
    assert check(sc, out) == []
    expired = step(out, "expired", card="Tollbooth")
    assert expired.anchor == "rule_reaction_window_closing_timing_structure"
    assert index(out, "bypass") < out.steps.index(expired)
    assert "Tollbooth:tax" not in resolved(out)


def test_jack_out_ends_the_run_unsuccessfully():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [Ice Wall]}}
        decisions:
          - {action: run, server: HQ}
          - {jack_out: true}
    """,
        ICE_WALL,
    )
    run_end = last_run(out)
    assert run_end["ended_by"] == "jack_out" and not run_end["successful"]
    assert step(out, "jack_out").anchor == "step_jack_out_choice"
