"""Core rules of the rebuilt engine (judgebook.engine) on small inline scenarios.

Ported from the old engine's tests/test_engine_core.py (issue 8): each test sets up the same situation, with
the cards rewritten in the new card language (judgebook/engine/LANGUAGE.md), and pins the same rule. Assertions
are on step kinds, cited anchors (`Step.anchor`), `IllegalDecision.rule`, `ScenarioError.field`/`.line`
and state values, never on English wording.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from judgebook.engine import IllegalDecision, advance, choices
from judgebook.engine.driver.script import Outcome, check, replay
from judgebook.engine.driver.step import start
from judgebook.engine.driver.timeline import timeline
from judgebook.engine.errors import ScenarioError
from judgebook.engine.scenario.load import Scenario, load, parse, setup
from judgebook.engine.state.choice import decision
from judgebook.engine.state.model import Game, Step

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
    # Beta is still pending: the order among the Runner's own abilities is theirs to choose.
    assert first.how == "assumed" and first.anchor == "rule_reaction_window_pending_abilities_unordered"
    assert step(out, "resolve", card="Beta").anchor == "step_conditional_ability_resolution"  # the last one
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
    sc = load(rules_source / "scenarios" / "engine-femme-fatale-tollbooth.yaml")
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


# --- prevention, damage, tags, checkpoints ------------------------------------------------

SHIELD = """
  - name: Shield
    side: runner
    type: hardware
    abilities:
      - id: soak
        trigger: would_damage
        interrupt: true
        condition: {damage_type: net}
        effects: [{prevent: {what: damage, amount: 1}}]
  - name: Zap
    side: corp
    type: asset
    abilities:
      - {id: zap, trigger: run_begins, effects: [{damage: {type: net, amount: 2}}]}
"""


def test_an_interrupt_prevents_part_of_the_imminent_damage():
    out = run(
        """
        corp:
          servers: {Remote: {root: [{card: Zap, rezzed: true}]}}
        runner:
          installed: [Shield]
          hand: [Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: HQ}
    """,
        SHIELD,
    )
    window = index(out, "would_damage")
    soak = index(out, "resolve", card="Shield")
    prevent = index(out, "prevented")
    damage = index(out, "damage")
    assert window < soak < prevent < damage
    assert out.steps[window].anchor == "rule_interrupt_window_opening"
    assert out.steps[prevent].anchor == "sec_prevent_avoid"
    assert len(of_kind(out, "trashed")) == 1
    assert len(hand(out.final)) == 1


def test_flatline_when_damage_exceeds_the_grip():
    out = run(
        """
        corp:
          servers: {Remote: {root: [{card: Zap, rezzed: true}]}}
        runner:
          hand: [Sure Gamble]
        decisions:
          - {action: run, server: HQ}
    """,
        SHIELD,
    )
    assert (out.final.winner, out.final.win_reason) == ("corp", "flatline")
    assert (out.steps[-1].kind, out.steps[-1].anchor) == ("win", "rule_flatline")


AGENDA = """
  - {name: Big Deal, side: corp, type: agenda, advancement_requirement: 3, agenda_points: 3}
"""


def test_scoring_to_seven_points_wins_at_the_checkpoint():
    out = run(
        """
        start: {turn: corp, at: action_phase}
        corp:
          score: [Big Deal, Big Deal]
          servers: {Remote: {root: [{card: Big Deal, counters: {advancement: 3}}]}}
        decisions:
          - {score: Big Deal}
    """,
        AGENDA,
    )
    assert (out.final.winner, out.final.win_reason) == ("corp", "agenda_points")
    assert step(out, "scored").anchor == "rule_paid_ability_window_corp_score"
    assert (out.steps[-1].kind, out.steps[-1].anchor) == ("win", "step_checkpoint_agenda_points")


def test_scoring_without_enough_advancement_is_refused():
    body = """
        start: {turn: corp, at: action_phase}
        corp:
          servers: {Remote: {root: [{card: Big Deal, counters: {advancement: 2}}]}}
        decisions:
          - {score: Big Deal}
    """
    point = choices(first_point(body, AGENDA))
    assert point.player == "corp"
    assert [r.rule for r in point.refused if r.decision.kind == "score"] == ["rule_advancement_requirement"]
    with pytest.raises(IllegalDecision) as err:
        advance(first_point(body, AGENDA), decision("score", "Big Deal"))
    assert err.value.rule == "rule_advancement_requirement"
    out = run(body, AGENDA)
    assert out.error is not None and out.error.rule == "rule_advancement_requirement"
    assert out.error.field == "decisions[0].score"


def test_stealing_the_seventh_point_wins_for_the_runner():
    out = run(
        """
        corp:
          servers: {Remote: {root: [Big Deal]}}
        runner:
          score: [Big Deal, Big Deal]
        decisions:
          - {action: run, server: Remote}
    """,
        AGENDA,
    )
    assert (out.final.winner, out.final.win_reason) == ("runner", "agenda_points")
    assert step(out, "stolen").card == "Big Deal"
    assert "Big Deal" in out.final.zone("runner.score")


def test_corp_drawing_from_empty_rnd_loses():
    out = run(
        """
        start: {turn: corp, at: corp_turn}
        corp:
          deck: []
    """
    )
    assert (out.final.winner, out.final.win_reason) == ("runner", "rnd_empty")
    assert (out.steps[-1].kind, out.steps[-1].anchor) == ("win", "rule_empty_rnd")


def test_recurring_credits_refill_before_the_turn_begins():
    defs = """
      - {name: Modem, side: runner, type: hardware, recurring: 2}
      - name: Watcher
        side: runner
        type: resource
        abilities:
          - {id: w, trigger: turn_begins, condition: {player: you}, effects: [{gain_credits: 1}]}
    """
    out = run(
        """
        start: {turn: runner, at: runner_turn}
        runner:
          installed: [{card: Modem, counters: {credit: 1}}, Watcher]
    """,
        defs,
    )
    refill, begins = index(out, "recurring", card="Modem"), index(out, "turn_begins")
    assert refill < begins < index(out, "resolve", card="Watcher")
    assert out.steps[refill].anchor == "step_runner_turn_recurring_credits_refill"
    assert out.final.card("Modem").count("credit") == 2


TAX = """
  - name: Gate
    side: corp
    type: ice
    subtypes: [code gate]
    cost: 0
    strength: 0
    abilities:
      - id: tax
        trigger: encounter_ice
        condition: {ice: self}
        effects:
          - {pay: {tags: 1}, by: runner, optional: true, otherwise: [end_the_run]}
  - name: Avoider
    side: runner
    type: resource
    abilities:
      - id: avoid
        trigger: would_tags
        interrupt: true
        condition: {first_this_run: true}
        effects: [{prevent: {what: tags, amount: 1}}]
"""


def test_a_cost_a_mandatory_interrupt_would_prevent_cannot_be_paid():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [{card: Gate, rezzed: true}]}}
        runner:
          installed: [Avoider]
        decisions:
          - {action: run, server: HQ}
          - {pay: true}
    """,
        TAX,
    )
    assert out.error is not None and out.error.rule == "rule_cost_interrupt_static_mandatory"
    assert out.error.field == "decisions[1].pay"


def test_unless_cost_declined_by_default_ends_the_run():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [{card: Gate, rezzed: true}]}}
        runner:
          installed: [Avoider]
        decisions:
          - {action: run, server: HQ}
    """,
        TAX,
    )
    assert last_run(out)["ended_by"] == "end_the_run"
    not_paid = step(out, "not_paid")
    assert not_paid.anchor == "rule_nested_cost" and not_paid.player == "runner"
    assert out.steps.index(not_paid) < index(out, "end_the_run")


def test_cannot_beats_can():
    defs = textwrap.dedent(TAX) + textwrap.dedent(
        """
      - name: Blocker
        side: corp
        type: asset
        abilities:
          - {id: no, static: {cannot: {what: jack_out}}}
    """
    )
    out = run(
        """
        corp:
          servers: {HQ: {ice: [Gate]}, Remote: {root: [{card: Blocker, rezzed: true}]}}
        decisions:
          - {action: run, server: HQ}
          - {jack_out: true}
    """,
        defs,
    )
    assert out.error is not None and out.error.rule == "rule_cannot_precedence"
    assert out.error.field == "decisions[1].jack_out"


def test_additional_cost_to_steal_declined_leaves_the_agenda():
    defs = """
      - name: Pricey
        side: corp
        type: agenda
        advancement_requirement: 3
        agenda_points: 2
        abilities:
          - {id: extra, static: {additional_cost: {to: steal, card: self, cost: {credits: 2}}}}
    """
    out = run(
        """
        corp:
          servers: {Remote: {root: [Pricey]}}
        runner:
          credits: 5
        decisions:
          - {action: run, server: Remote}
          - {pay: false}
    """,
        defs,
    )
    assert out.error is None
    assert out.final.zone("runner.score") == ()
    assert out.final.card("Pricey").zone == "corp.server.Remote.root"
    assert step(out, "declined").anchor == "rule_decline_additional_cost"
    assert of_kind(out, "stolen") == []
    assert out.final.runner.credits == 5


def test_trash_cost_paid_at_access():
    out = run(
        """
        corp:
          servers: {Remote: {root: [Closet]}}
        decisions:
          - {action: run, server: Remote}
          - {trash: Closet}
    """,
        CLOSET,
    )
    assert "Closet" in out.final.zone("corp.discard")
    assert step(out, "trashed", card="Closet").anchor == "rule_trashing"
    assert out.final.runner.credits == 4


# --- loops, determinism, malformed input ----------------------------------------------------


def test_infinite_loop_is_detected_and_reported():
    defs = """
      - name: Echo
        side: runner
        type: resource
        abilities:
          - {id: e, trigger: tags_taken, effects: [{give_tags: 1}]}
      - name: Tagger
        side: corp
        type: asset
        abilities:
          - {id: t, trigger: run_begins, effects: [{give_tags: 1}]}
    """
    out = run(
        """
        options: {max_steps: 300}
        corp:
          servers: {Remote: {root: [{card: Tagger, rezzed: true}]}}
        runner:
          installed: [Echo]
        decisions:
          - {action: run, server: HQ}
    """,
        defs,
    )
    assert out.ended == "loop"
    assert out.limit is not None and out.limit.rule == "rule_mandatory_infinite_loop"


def test_same_scenario_same_timeline():
    sc = scenario(
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
    a, b = replay(sc), replay(sc)
    assert a.steps == b.steps
    assert a.states == b.states
    assert timeline(sc, a).to_dict() == timeline(sc, b).to_dict()


def test_timeline_steps_carry_path_and_rule():
    sc = scenario(
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
    tl = timeline(sc, replay(sc)).to_dict()
    sub = next(s for s in tl["steps"] if s["event"] == "subroutine")
    assert sub["path"][-3:] == ["run", "encounter ice", "resolve unbroken subroutines"]
    assert sub["rule"] == "step_resolve_subroutine"
    assert set(tl["outcome"]) >= {"winner", "stopped", "runs", "resolved"}
    assert tl["outcome"]["runs"] == [{"server": "R&D", "successful": False, "ended_by": "end_the_run"}]


def test_unknown_key_names_field_and_line():
    with pytest.raises(ScenarioError) as err:
        parse("title: x\nrunner:\n  credits: 5\n  credts: 3\n")
    assert err.value.field == "runner.credts" and err.value.line == 4


def test_bad_value_names_field_and_line():
    with pytest.raises(ScenarioError) as err:
        parse("title: x\ncorp:\n  credits: lots\n")
    assert err.value.field == "corp.credits" and err.value.line == 3


def test_undefined_card_names_field_and_line():
    with pytest.raises(ScenarioError) as err:
        parse("title: x\nrunner:\n  hand:\n    - Mystery Card\n")
    assert err.value.field == "runner.hand[0]" and err.value.line == 4


def test_malformed_instruction_in_card_definition():
    with pytest.raises(ScenarioError) as err:
        scenario(
            "decisions: []\n",
            "  - {name: Bad, side: runner, type: resource, abilities: "
            "[{trigger: run_begins, effects: [{explode: 1}]}]}\n",
        )
    assert "effects[0]" in err.value.field and err.value.line == 3


def test_decision_naming_unknown_card_is_a_scenario_error():
    with pytest.raises(ScenarioError) as err:
        run("decisions:\n  - {rez: Nothing}\n")
    assert err.value.field == "decisions[0].rez" and err.value.line == 6


def test_not_yaml_is_a_scenario_error_with_a_line():
    with pytest.raises(ScenarioError) as err:
        parse("title: x\nrunner: [unclosed\n")
    assert err.value.line == 3  # the stream ends (line 3) before the flow sequence is closed


def test_action_for_the_wrong_player_is_refused():
    out = run("decisions:\n  - {action: gain_credit, player: corp}\n")
    assert out.error is not None and out.error.rule == "rule_action_window_priority"
    assert out.error.field == "decisions[0].action"
    # the choice point itself is the Runner's: an action window gives only the active player priority
    g = first_point("decisions: []\n")
    g, _ = advance(g, decision("pass", "runner"))
    g, _ = advance(g, decision("pass", "corp"))
    assert (choices(g).kind, choices(g).player) == ("action", "runner")


# --- composite instructions, values, choices, forced encounters, loops ------------------
SNARE = """
  - name: Trap
    side: corp
    type: asset
    trash_cost: 0
    abilities:
      - id: spring
        trigger: access
        condition: {card: self}
        effects: [{all: [{give_tags: 1}, {damage: {type: net, amount: 2}}]}]
  - name: Decoy
    side: runner
    type: resource
    abilities:
      - {id: avoid, cost: {trash: self}, interrupt: true, effects: [{prevent: {what: tags, amount: 1}}]}
"""
STONE = """
  - name: Stone
    side: corp
    type: asset
    abilities:
      - {id: hit, trigger: run_begins, effects: [{damage: {type: meat, amount: 1}}]}
  - name: Cleaner
    side: corp
    type: agenda
    agenda_points: 1
    abilities:
      - {id: more, trigger: would_damage, interrupt: true, condition: {damage_type: meat, by: corp},
         effects: [{increase: {what: damage, amount: 1}}]}
  - name: Spoof
    side: runner
    type: hardware
    abilities:
      - {id: spoof, cost: {trash: self}, interrupt: true, effects: [{prevent: {what: damage, amount: 2}}]}
"""
CHOICE = """
  - name: Raven
    side: corp
    type: ice
    subtypes: [sentry]
    strength: 0
    subroutines:
      - {text: "The Runner must take 1 tag or end the run.",
         effects: [{choose: [[{give_tags: 1}], [end_the_run]], by: runner, must: true}]}
  - name: Forger
    side: runner
    type: resource
    abilities:
      - {id: no, static: {cannot: {what: take_tags}}}
"""
TWINS = """
  - name: Popup
    side: corp
    type: ice
    subtypes: [code gate]
    strength: 0
    abilities:
      - {id: tick, trigger: encounter_ice, condition: {ice: self}, effects: [{gain_credits: 1}]}
  - name: Twins
    side: corp
    type: upgrade
    abilities:
      - {id: again, trigger: pass_ice, effects: [{encounter: event_ice}]}
      - {id: stop, static: {cannot: {what: jack_out}}}
"""
WORMHOLE = """
  - name: Hole
    side: corp
    type: ice
    subtypes: [code gate]
    strength: 7
    subroutines:
      - text: "Resolve a subroutine on another rezzed ice."
        effects: [{resolve_subroutine: {ice: {zone: ice, rezzed: true, other: true, count: 1}}}]
"""
CHUM = """
  - name: Chum
    side: corp
    type: ice
    subtypes: [code gate]
    strength: 4
    subroutines:
      - effects:
          - lasting:
              duration: run
              ability: {id: a1, trigger: encounter_ends, condition: {next_ice: true, fully_broken: false},
                        effects: [{damage: {type: net, amount: 1}}]}
"""


def test_one_instruction_with_two_parts_has_one_interrupt_window():
    out = run(
        """
        corp:
          servers: {Remote: {root: [Trap]}}
        runner:
          installed: [Decoy]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: Remote}
          - {use: Decoy, ability: avoid}
    """,
        SNARE,
    )
    # both parts become imminent together, then one window in which Decoy prevents the tag, then both resolve
    tags, damage = index(out, "would_tags"), index(out, "would_damage")
    decoy = index(out, "resolve", card="Decoy")
    assert damage == tags + 1 and damage < decoy < index(out, "damage")
    assert len(of_kind(out, "would_tags")) == len(of_kind(out, "would_damage")) == 1
    assert out.final.runner.tags == 0
    assert len(hand(out.final)) == 1


STONE_PLAY = """
        corp:
          score: [Cleaner, Cleaner]
          servers: {Remote: {root: [{card: Stone, rezzed: true}]}}
        runner:
          installed: [Spoof]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: HQ}
          - {use: Spoof, ability: spoof}
"""


def test_imminent_values_can_go_below_zero_and_come_back():
    out = run(STONE_PLAY, STONE)
    # 1 meat damage, 2 prevented (-1), then each Cleaner increases it by 1: 0, then 1
    prevented = step(out, "prevented")
    increases = of_kind(out, "increased")
    assert out.steps.index(prevented) < out.steps.index(increases[0])
    assert [s.anchor for s in increases] == ["rule_modify_value_relevant"] * 2
    assert len(of_kind(out, "trashed", anchor="rule_meat_net_damage")) == 1
    assert len(hand(out.final)) == 2


def test_choice_takes_the_only_option_that_can_be_carried_out():
    body = """
        corp:
          servers: {HQ: {ice: [{card: Raven, rezzed: true}]}}
        runner:
          installed: [Forger]
        decisions:
          - {action: run, server: HQ}
    """
    out = run(body, CHOICE)
    chose = step(out, "choose")
    assert (chose.anchor, chose.player, chose.how) == ("rule_mandatory_choice", "runner", "only")
    assert last_run(out)["ended_by"] == "end_the_run"
    assert out.final.runner.tags == 0
    # without the "cannot take tags" effect both options are possible and the default is marked assumed
    plain = run(body.replace("installed: [Forger]", "installed: []"), CHOICE)
    assert step(plain, "choose").how == "assumed" and plain.final.runner.tags == 1


def test_without_must_a_choice_may_fall_on_an_option_that_cannot_be_carried_out():
    """rule_choice_instruction: choosing needs no potential to change the game state; only a "must" ability
    limits the choice to what can be fully resolved (NetrunnerDB's Wildcat Strike ruling, 2021-10-11)."""
    body = """
        corp:
          servers: {HQ: {ice: [{card: Raven, rezzed: true}]}}
        runner:
          installed: [Forger]
        decisions:
          - {action: run, server: HQ}
          - {choose: 1}
    """
    free = CHOICE.replace(", must: true", "")
    out = run(body, free)
    assert out.error is None
    chose = step(out, "choose")
    assert (chose.anchor, chose.player, chose.how) == ("rule_choice_instruction", "runner", "chosen")
    assert out.final.runner.tags == 0 and last_run(out)["ended_by"] != "end_the_run"
    must = run(body, CHOICE)
    assert must.error is not None and must.error.rule == "rule_mandatory_choice"


def test_choosing_an_impossible_option_is_refused():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [{card: Raven, rezzed: true}]}}
        runner:
          installed: [Forger]
        decisions:
          - {action: run, server: HQ}
          - {choose: 1}
    """,
        CHOICE,
    )
    assert out.error is not None and out.error.rule == "rule_mandatory_choice"
    assert out.error.field == "decisions[1].choose"


def test_forced_encounter_resolves_an_encounter_without_moving_the_runner():
    out = run(
        """
        corp:
          credits: 0
          servers: {Remote: {ice: [{card: Popup, rezzed: true}], root: [{card: Twins, rezzed: true}]}}
        decisions:
          - {action: run, server: Remote}
    """,
        TWINS,
    )
    assert out.final.corp.credits == 2
    forced = index(out, "forced_encounter", card="Popup")
    assert out.steps[forced].anchor == "rule_forced_encounter"
    again = out.steps[forced + 1]
    assert again.kind == "encounter_ice" and "forced encounter" in again.path
    # the Runner was not moved: one approach of Popup, then the server
    assert len(of_kind(out, "approach_ice")) == 1 and len(of_kind(out, "pass_ice")) == 1
    assert last_run(out)["successful"]


def test_mandatory_loop_resolves_the_named_number_of_times_and_ends():
    out = run(
        """
        corp:
          servers: {Archives: {ice: [{card: Hole, rezzed: true}]}, Remote: {ice: [{card: Hole, rezzed: true}]}}
        decisions:
          - {action: run, server: Archives}
          - {loop: 2}
    """,
        WORMHOLE,
    )
    loop = step(out, "loop")
    assert (loop.anchor, loop.player, loop.how) == ("rule_mandatory_infinite_loop", "corp", "chosen")
    assert last_run(out)["successful"]
    assert len(of_kind(out, "subroutine", card="Hole#2")) == 2


def test_delayed_ability_waits_for_the_next_encounter_to_end():
    out = run(
        """
        corp:
          servers: {HQ: {ice: [{card: Chum, rezzed: true}, {card: Ice Wall, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: HQ}
    """,
        CHUM + ICE_WALL,
    )
    created, fired = index(out, "lasting", card="Chum"), index(out, "damage")
    assert (
        created < index(out, "encounter_ice", card="Ice Wall") < index(out, "encounter_ends", card="Ice Wall") < fired
    )
    assert out.steps[created].anchor == "rule_delayed_conditional_ability"
    assert len(hand(out.final)) == 1


def test_first_this_run_counts_prevented_instances():
    defs = textwrap.dedent(SHIELD) + textwrap.dedent(
        """
      - name: Tori
        side: corp
        type: upgrade
        abilities:
          - {id: t, trigger: would_damage, interrupt: true, condition: {first_this_run: true},
             effects: [{gain_credits: 1}]}
      - name: Zap2
        side: corp
        type: asset
        abilities:
          - {id: z, trigger: run_begins, effects: [{damage: {type: net, amount: 1}}, {damage: {type: net, amount: 1}}]}
    """
    )
    out = run(
        """
        corp:
          servers: {Remote: {root: [{card: Zap2, rezzed: true}, {card: Tori, rezzed: true}]}}
        runner:
          installed: [Shield]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: HQ}
    """,
        defs,
    )
    # Shield prevents the first net damage completely, so Tori is no longer relevant to it;
    # the second is not the first this run, so Tori never becomes pending again
    assert "Tori:t" not in resolved(out)
    assert resolved(out).count("Shield:soak") == 2
    assert len(of_kind(out, "pending", card="Tori")) == 1
    assert step(out, "expired", card="Tori").anchor == "sec_relevant_interrupts"
    assert out.final.corp.credits == 5
    assert len(hand(out.final)) == 3


def test_hosted_card_installed_with_a_discount_and_spend_hosted_credits():
    defs = """
      - name: Supplier
        side: runner
        type: resource
        abilities:
          - id: s
            trigger: turn_begins
            condition: {player: you}
            effects: [{install: {zone: any, hosted_on: self, count: 1}, pay_cost: true, discount: 2}]
      - {name: Chip, side: runner, type: hardware, cost: 3, link: 1}
      - {name: Ghost, side: runner, type: resource, credits_for: run}
    """
    out = run(
        """
        start: {turn: runner, at: runner_turn}
        runner:
          credits: 1
          installed: [{card: Supplier, hosted: [{card: Chip, installed: false}]}, {card: Ghost, counters: {credit: 3}}]
    """,
        defs,
    )
    assert "Chip" in out.final.zone("runner.rig")
    assert step(out, "installed", card="Chip").anchor == "rule_installing"
    assert out.final.runner.credits == 0  # 3 - 2 paid from the pool
    assert out.final.card("Ghost").count("credit") == 3  # not spendable outside a run


def test_removing_the_approached_ice_ends_the_approach():
    defs = textwrap.dedent(ICE_WALL) + textwrap.dedent(
        """
      - name: Bako
        side: corp
        type: ice
        subtypes: [barrier]
        strength: 2
        abilities:
          - {id: back, cost: {credits: 1}, effects: [{add_to_hand: self}]}
        subroutines: [[end_the_run]]
    """
    )
    out = run(
        """
        corp:
          credits: 1
          servers: {Remote: {ice: [{card: Bako, rezzed: true}, Ice Wall], root: [Closet]}}
        decisions:
          - {action: run, server: Remote}
          - {use: Bako, ability: back, at: approach_ice}
    """,
        textwrap.dedent(defs) + textwrap.dedent(CLOSET),
    )
    ends = index(out, "approach_ends", card="Bako")
    assert out.steps[ends].anchor == "rule_uninstall_ice_during_run"
    assert "Bako" in hand(out.final, "corp")
    assert of_kind(out, "encounter_ice") == []
    # the Runner passed Bako's position and approaches the next ice inward
    assert [s.card for s in of_kind(out, "approach_ice")] == ["Bako", "Ice Wall"]
    assert ends < index(out, "approach_ice", card="Ice Wall")
    assert last_run(out)["successful"]


def test_then_follows_only_when_the_instruction_did_something():
    defs = """
      - name: Pawn
        side: runner
        type: resource
        abilities:
          - id: sell
            cost: {credits: 0}
            effects: [{trash: {zone: installed, side: you, type: hardware, count: 1}, then: [{gain_credits: 3}]}]
    """
    out = run(
        """
        runner:
          credits: 0
          installed: [Pawn]
        decisions:
          - {use: Pawn, ability: sell}
    """,
        defs,
    )
    assert out.final.runner.credits == 0
    assert step(out, "no_target", card="Pawn").anchor == "rule_targets_must_be_in_play_area"
    assert of_kind(out, "credits") == []
    # with a piece of hardware to trash, the trash happens and so does what follows it
    did = run(
        """
        runner:
          credits: 0
          installed: [Pawn, Kit]
        decisions:
          - {use: Pawn, ability: sell}
    """,
        textwrap.dedent(defs) + textwrap.dedent(CLOSET),
    )
    assert "Kit" in did.final.zone("runner.discard") and did.final.runner.credits == 3


# --- turns, actions, traces, X costs ---------------------------------------------------------


def test_turns_alternate_with_mandatory_draw_and_discard():
    out = run(
        """
        start: {turn: runner, at: action_phase}
        corp:
          deck: [Hedge Fund, Hedge Fund]
        runner:
          clicks: 1
          hand: [Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble]
          deck: [Sure Gamble]
        decisions:
          - {action: draw}
    """
    )
    discard = step(out, "discard")
    assert (discard.how, discard.anchor, discard.player) == ("assumed", "rule_discarding_process", "runner")
    runner_ends = index(out, "turn_ends", player="runner")
    corp_clicks = index(out, "clicks", player="corp")
    corp_draw = index(out, "drawn", player="corp")
    assert runner_ends < corp_clicks < corp_draw
    assert out.steps[corp_clicks].anchor == "step_corp_turn_allotted_clicks"
    assert out.steps[corp_draw].path[-1] == "mandatory draw"
    assert out.final.zone("corp.hand") == ("Hedge Fund",) and len(hand(out.final)) == 5
    assert (choices(out.final).kind, choices(out.final).player) == ("action", "corp")


def test_play_and_install_actions_pay_their_costs():
    defs = """
      - {name: Windfall, side: runner, type: event, cost: 2, abilities: [{kind: play, effects: [{gain_credits: 9}]}]}
      - {name: Daily Casts, side: runner, type: resource, cost: 3}
    """
    out = run(
        """
        runner:
          credits: 5
          hand: [Windfall, Daily Casts]
        decisions:
          - {action: play, card: Windfall}
          - {action: install, card: Daily Casts}
    """,
        defs,
    )
    assert out.final.runner.credits == 5 - 2 + 9 - 3
    assert out.final.zone("runner.discard") == ("Windfall",)
    assert out.final.zone("runner.rig") == ("Daily Casts",)
    assert out.final.runner.clicks == 2
    assert [s.anchor for s in of_kind(out, "action")] == ["runner_basic_action_event", "runner_basic_action_install"]


def test_installing_an_event_is_refused():
    out = run(
        """
        runner:
          hand: [Sure Gamble]
        decisions:
          - {action: install, card: Sure Gamble}
    """
    )
    assert out.error is not None and out.error.rule == "runner_basic_action_install"
    assert out.error.field == "decisions[0].action"


def test_trace_compares_strength_with_link():
    defs = """
      - name: Tracer
        side: corp
        type: ice
        subtypes: [sentry]
        strength: 0
        subroutines:
          - effects: [{trace: {base: 2, success: [{give_tags: 1}], failure: [{gain_credits: 1}]}}]
    """
    out = run(
        """
        corp:
          servers: {HQ: {ice: [{card: Tracer, rezzed: true}]}}
        runner:
          link: 1
          credits: 3
        decisions:
          - {action: run, server: HQ}
          - {trace: 0, player: corp}
          - {trace: 2, player: runner}
    """,
        defs,
    )
    assert step(out, "trace").anchor == "step_trace_initiated"
    result = of_kind(out, "trace")[-1]
    assert result.anchor == "step_trace_determine_success"
    # trace strength 2 + 0 against link 1 + 2: unsuccessful, so the failure branch (the Corp gains 1)
    assert out.final.runner.tags == 0 and out.final.runner.credits == 1
    assert out.final.corp.credits == 6


def test_x_cost_is_chosen_by_the_decision():
    defs = """
      - name: Meter
        side: runner
        type: resource
        abilities:
          - {id: m, cost: {credits: X}, effects: [{draw: 1}]}
    """
    out = run(
        """
        runner:
          credits: 4
          installed: [Meter]
          deck: [Sure Gamble]
        decisions:
          - {use: Meter, ability: m, x: 3}
    """,
        defs,
    )
    assert out.final.runner.credits == 1
    assert step(out, "credits_spent").anchor == "rule_cost"
    assert hand(out.final) == ("Sure Gamble",)


def test_zero_cost_is_still_paid_and_cited():
    out = run(
        """
        runner:
          installed: [Kit]
        decisions:
          - {use: Kit, ability: cash}
    """,
        CLOSET,
    )
    assert index(out, "cost") < index(out, "ability_used", card="Kit")
    assert step(out, "cost").anchor == "rule_cost_zero"


def test_remove_tag_action_needs_a_tag():
    out = run("decisions:\n  - {action: remove_tag}\n")
    assert out.error is not None and out.error.rule == "rule_tagged_remove_tag"
    tagged = run("runner: {tags: 1}\ndecisions:\n  - {action: remove_tag}\n")
    assert tagged.error is None and tagged.final.runner.tags == 0 and tagged.final.runner.credits == 3


def test_abilities_pending_when_the_run_ends_resolve_in_the_run_ends_phase():
    body = """
        corp:
          servers: {HQ: {ice: [{card: Chum, rezzed: true}, {card: Ice Wall, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble]
        expect:
          resolved_in: {"Chum:a1": run ends}
        decisions:
          - {action: run, server: HQ}
    """
    sc = scenario(body, CHUM + ICE_WALL)
    out = replay(sc)
    assert check(sc, out) == []
    # Ice Wall ended the run; Chum's delayed ability met its condition as the encounter ended, and it
    # resolves once the open priority windows have closed, in the run ends phase
    end, chum = index(out, "end_the_run"), step(out, "resolve", card="Chum")
    assert end < out.steps.index(chum)
    assert chum.path[-2:] == ("run ends", "open priority windows close")
    wrong = scenario(body.replace("run ends}", "encounter ice}"), CHUM + ICE_WALL)
    assert [d.split(":")[0] for d in check(wrong, replay(wrong))] == ["resolved_in"]


def test_additional_cost_to_access_can_be_declined():
    defs = textwrap.dedent(CLOSET) + textwrap.dedent(
        """
      - name: Gate Keeper
        side: corp
        type: upgrade
        abilities:
          - {id: g, static: {additional_cost: {to: access, server: this, cost: {credits: 1}}}}
    """
    )
    out = run(
        """
        corp:
          servers: {Remote: {root: [{card: Gate Keeper, rezzed: true}, Closet]}}
        decisions:
          - {action: run, server: Remote}
          - {pay: false}
    """,
        defs,
    )
    declined = step(out, "declined")
    assert declined.anchor == "rule_decline_additional_cost"
    assert [s.card for s in of_kind(out, "access")] == ["Closet"]  # paid if able, by default
    assert out.final.runner.credits == 4


def test_x_paid_in_a_nested_cost_carries_into_the_instruction():
    defs = """
      - name: Atman
        side: runner
        type: program
        abilities:
          - id: load
            cost: {credits: 0}
            effects: [{pay: {credits: X}, optional: true, then: [{counters: {add: X, kind: power, card: self}}]}]
    """
    out = run(
        """
        runner:
          credits: 5
          installed: [Atman]
        decisions:
          - {use: Atman, ability: load}
          - {pay: true, x: 3}
    """,
        defs,
    )
    assert out.error is None
    assert out.final.card("Atman").count("power") == 3 and out.final.runner.credits == 2


def test_a_prevention_interrupt_cannot_be_used_when_nothing_it_prevents_is_imminent():
    defs = textwrap.dedent(SNARE) + textwrap.dedent(
        """
      - name: Net Shield
        side: runner
        type: program
        abilities:
          - {id: shield, cost: {credits: 1}, interrupt: true, effects: [{prevent: {what: damage, amount: 1}}]}
    """
    )
    out = run(
        """
        corp:
          servers: {Remote: {root: [Trap]}}
        runner:
          installed: [Decoy, Net Shield]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: Remote}
          - {use: Net Shield, ability: shield}
          - {use: Net Shield, ability: shield}
          - {use: Net Shield, ability: shield}
    """,
        defs,
    )
    # two uses prevent the 2 net damage; the third has nothing left to prevent
    assert len(of_kind(out, "resolve", card="Net Shield")) == 2
    assert out.error is not None and out.error.rule == "sec_relevant_interrupts"
    assert out.error.field == "decisions[3].use"


def test_hand_size_modifier_and_flatline_at_the_discard_step():
    defs = """
      - {name: Big Brain, side: runner, type: hardware, abilities: [{id: h, static: {hand_size: {by: 2}}}]}
    """
    body = """
        start: {turn: runner, at: discard_phase}
        runner:
          installed: [Big Brain]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble]
    """
    out = run(body, defs)
    assert of_kind(out, "discard") == [] and len(hand(out.final)) == 7  # maximum 5 + 2
    without = run(body.replace("installed: [Big Brain]", "installed: []"), defs)
    assert step(without, "discard").anchor == "rule_discarding_process" and len(hand(without.final)) == 5
    # a maximum hand size below 0 at the start of the discard step flatlines the Runner
    out = run(
        """
        start: {turn: runner, at: discard_phase}
        runner:
          hand_size: -1
    """
    )
    assert (out.final.winner, out.final.win_reason) == ("corp", "flatline")
    assert (out.steps[-1].kind, out.steps[-1].anchor) == ("win", "rule_runner_discard_step")


def test_delayed_ability_remembers_the_target_and_this_server_condition():
    defs = """
      - name: Trial
        side: runner
        type: event
        abilities:
          - kind: play
            effects:
              - {install: {zone: discard, side: you, type: program, count: 1}}
              - lasting: {duration: turn, ability: {trigger: turn_ends, condition: {player: runner},
                                                    effects: [{add_to_top_of_deck: chosen}]}}
      - {name: Tool, side: runner, type: program}
      - name: Watcher
        side: corp
        type: upgrade
        abilities:
          - {id: w, trigger: run_begins, condition: {server: this}, effects: [{gain_credits: 1}]}
    """
    out = run(
        """
        corp:
          servers: {Remote: {root: [{card: Watcher, rezzed: true}]}}
        runner:
          credits: 0
          clicks: 3
          hand: [Trial]
          discard: [Tool]
        decisions:
          - {action: play, card: Trial}
          - {action: run, server: HQ}
          - {action: run, server: Remote}
    """,
        defs,
    )
    assert out.final.zone("runner.deck") == ("Tool",)
    assert resolved(out).count("Watcher:w") == 1  # the run on HQ is not a run on Watcher's server
    delayed = of_kind(out, "resolve", card="Trial")[-1]  # the first is playing the event
    assert index(out, "turn_ends", player="runner") < out.steps.index(delayed)
    assert delayed.path[-1] == "turn formally ends"


def test_card_library_is_parsed_lazily(tmp_path):
    lib = tmp_path / "cards"
    lib.mkdir()
    (lib / "good.yaml").write_text("name: Good\nside: runner\ntype: resource\n", encoding="utf-8")
    (lib / "broken.yaml").write_text("name: Broken\nside: runner\ntype: resource\nwhat: 1\n", encoding="utf-8")
    scen = tmp_path / "scenarios"
    scen.mkdir()
    (scen / "a.yaml").write_text("title: a\nrunner: {installed: [Good]}\n", encoding="utf-8")
    (scen / "b.yaml").write_text("title: b\nrunner: {installed: [Broken]}\n", encoding="utf-8")
    assert load(scen / "a.yaml").library.card("Good").type == "resource"
    with pytest.raises(ScenarioError) as err:
        load(scen / "b.yaml")
    assert str(err.value.file).endswith("broken.yaml") and err.value.line == 4


def test_after_the_last_click_the_corp_may_still_score_before_the_action_phase_ends():
    # The action phase returns to its paid ability window after every action, the last one included
    # (step_corp_turn_action_phase_loop); only then does the click check end the phase.
    out = run(
        """
        start: {turn: corp, at: action_phase}
        corp:
          clicks: 1
          servers:
            Server 1: {root: [{card: Project, counters: {advancement: 2}}]}
        decisions:
          - {action: advance, card: Project}
          - {score: Project}
        """,
        "  - {name: Project, side: corp, type: agenda, advancement_requirement: 3, agenda_points: 2}\n",
    )
    assert out.error is None
    scored, ends = index(out, "scored"), index(out, "action_phase_ends", player="corp")
    assert index(out, "advanced") < scored < ends
    assert out.steps[scored].path[1:] == ("action phase", "paid ability window")
    assert out.final.zone("corp.score") == ("Project",)


def test_the_runner_has_a_paid_ability_window_after_their_last_action():
    out = run(
        """
        start: {turn: runner, at: action_phase}
        runner:
          clicks: 1
        decisions:
          - {action: gain_credit}
        """
    )
    gained, ends = index(out, "clicks_spent", player="runner"), index(out, "action_phase_ends", player="runner")
    windows = [s.path[1:] for s in out.steps[gained:ends] if s.kind == "pass"]
    assert windows == [("action phase", "paid ability window")] * 2  # the Runner passes, then the Corp


def test_a_rezzed_trigger_with_player_you_fires_on_the_corps_rez():
    """The rez event names its player (always the Corp: rule_rez_procedure), so `player: you` on a Corp card
    and `player: opponent` on a Runner card both read it."""
    defs = CLOSET + """
  - name: Watcher
    side: corp
    type: asset
    cost: 0
    abilities:
      - {id: tick, trigger: rezzed, condition: {player: you}, effects: [{gain_credits: 1}]}
  - name: Spotter
    side: runner
    type: resource
    abilities:
      - {id: tick, trigger: rezzed, condition: {player: opponent}, effects: [{gain_credits: 1}]}
"""
    out = run("""
        start: {turn: runner, at: action_phase}
        corp:
          credits: 5
          servers: {Remote: {root: [Closet, {card: Watcher, rezzed: true}]}}
        runner:
          credits: 0
          installed: [Spotter]
        decisions:
          - {pass: runner}
          - {rez: Closet}
    """, defs)
    assert out.error is None
    assert {s.card for s in of_kind(out, "resolve")} >= {"Watcher", "Spotter"}
    assert (out.final.corp.credits, out.final.runner.credits) == (5 - 2 + 1, 1)
