"""Core behaviour of the timing engine on small inline scenarios."""
from __future__ import annotations

import textwrap

import pytest

from judgebook.engine import IllegalDecision, ScenarioError, parse_scenario, replay
from judgebook.engine.expect import verify

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
    strength: 2
    abilities:
      - {id: break, cost: {credits: 1}, break: {subtype: barrier, count: 1}}
      - {id: pump, cost: {credits: 1}, effects: [{strength: 1}]}
"""
FILLER = """
  - {name: Sure Gamble, side: runner, type: event, cost: 5}
  - {name: Hedge Fund, side: corp, type: operation, cost: 5}
"""


def scenario(body: str, defs: str = ""):
    cards = textwrap.dedent(defs).strip("\n") + "\n" + textwrap.dedent(FILLER).strip("\n")
    text = "title: test\ncard_defs:\n" + textwrap.indent(cards.strip("\n"), "  ") + "\n"
    return parse_scenario(text + textwrap.dedent(body), file="inline.yaml")


def texts(timeline) -> list[str]:
    return [s.text for s in timeline.steps]


def index_of(timeline, fragment: str) -> int:
    return next(i for i, t in enumerate(texts(timeline)) if fragment in t)


# --- paid ability windows ------------------------------------------------------------

CLOSET = """
  - name: Closet
    side: corp
    type: asset
    cost: 2
    trash_cost: 1
  - name: Kit
    side: runner
    type: hardware
    cost: 0
    abilities:
      - {id: cash, cost: {credits: 0}, effects: [{gain_credits: 1}]}
"""


def test_paw_active_player_first_and_closes_after_two_passes_in_succession():
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [Closet]}}
        runner:
          installed: [Kit]
        decisions:
          - {use: Kit, ability: cash}
          - {pass: runner}
          - {rez: Closet}
    """, CLOSET))
    t = texts(tl)
    use, runner_pass, rez = index_of(tl, "runner uses Kit:cash"), index_of(tl, "runner passes priority"), \
        index_of(tl, "Corp rezzes Closet")
    assert use < runner_pass < rez
    # the Corp acted, so the window stays open: the Corp passes, then the Runner must pass again
    after = t[rez + 1:rez + 4]
    # the Corp acted, so the window stays open until the Corp, then the Runner, pass again
    assert any("corp passes, then runner passes; the window closes" in x for x in after)
    assert tl.steps[use].rule == "step_paid_ability_announce"
    assert tl.outcome.final["corp.credits"] == 3
    assert tl.outcome.final["runner.credits"] == 6


def test_rezzing_ice_outside_its_approach_is_refused_citing_the_rule():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            corp:
              servers: {HQ: {ice: [Ice Wall]}}
            decisions:
              - {action: gain_credit}
              - {rez: Ice Wall}
        """, ICE_WALL))
    assert err.value.rule == "rule_rez_ice_restriction"
    assert err.value.line and err.value.field == "decisions[1].rez"


def test_ice_is_rezzed_on_approach_and_then_encountered():
    tl = replay(scenario("""
        corp:
          servers: {HQ: {ice: [Ice Wall]}}
        decisions:
          - {action: run, server: HQ}
          - {rez: Ice Wall}
    """, ICE_WALL))
    rez = index_of(tl, "Corp rezzes Ice Wall")
    assert tl.steps[rez].path[-2:] == ("approach ice", "paid ability window (rez the approached ice)")
    assert tl.outcome.runs[-1].ended_by == "end_the_run"


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
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [{card: Gamma, rezzed: true}]}}
        runner:
          installed: [Alpha, Beta]
        decisions:
          - {action: run, server: HQ}
          - {trigger: Beta}
    """, PENDING))
    assert list(tl.outcome.resolved[:3]) == ["Beta:b", "Alpha:a", "Gamma:g"]
    beta = index_of(tl, "triggers Beta:b")
    assert tl.steps[beta].decision == 2 and not tl.steps[beta].assumed
    alpha = index_of(tl, "triggers Alpha:a")
    assert tl.steps[alpha].assumed


def test_default_order_is_marked_assumed():
    tl = replay(scenario("""
        runner:
          installed: [Alpha, Beta]
        decisions:
          - {action: run, server: HQ}
    """, PENDING))
    step = tl.steps[index_of(tl, "triggers Alpha:a")]
    assert step.assumed and "board order assumed" in step.text


PAWNSHOP = """
  - name: Pawnshop
    side: runner
    type: resource
    abilities:
      - id: sell
        trigger: turn_begins
        condition: {player: self}
        optional: true
        effects:
          - {trash: target, target_filter: {type: resource}}
          - {gain_credits: 3}
  - name: Dealer
    side: runner
    type: resource
    abilities:
      - {id: pay, trigger: turn_begins, condition: {player: self}, effects: [{lose_credits: 1}]}
"""


def test_an_ability_whose_source_is_trashed_before_it_resolves_does_not_resolve():
    tl = replay(scenario("""
        start: {turn: runner, at: runner_turn}
        runner:
          credits: 0
          installed: [Pawnshop, Dealer]
        decisions:
          - {trigger: Pawnshop}
          - {target: Dealer}
    """, PAWNSHOP))
    assert "Dealer:pay" not in tl.outcome.resolved
    lose = tl.steps[index_of(tl, "Dealer:pay loses pending status")]
    assert lose.rule == "rule_conditional_ability_lose_pending_when_ability_becomes_inactive"
    assert tl.outcome.final["runner.credits"] == 3


def test_mandatory_pending_ability_cannot_be_declined():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            start: {turn: runner, at: runner_turn}
            runner:
              installed: [Pawnshop, Dealer]
            decisions:
              - {decline: Dealer}
        """, PAWNSHOP))
    assert err.value.rule == "rule_cannot_pass_with_mandatory_conditional_abilities_pending"


def test_once_per_turn_ability_cannot_be_used_twice():
    defs = """
      - name: Once
        side: runner
        type: resource
        abilities:
          - {id: go, cost: {credits: 0}, once_per_turn: true, effects: [{gain_credits: 1}]}
    """
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            runner:
              installed: [Once]
            decisions:
              - {use: Once, ability: go}
              - {use: Once, ability: go}
        """, defs))
    assert err.value.rule == "rule_once_per_turn_flag"


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
    tl = replay(scenario("""
        corp:
          servers: {R&D: {ice: [{card: Wall3, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: R&D}
    """, WALL3))
    assert list(tl.outcome.resolved) == ["Wall3:sub1", "Wall3:sub2"]
    stop = tl.steps[index_of(tl, "no more subroutines")]
    assert stop.rule == "rule_resolve_subroutines_run_ends"
    assert tl.outcome.runs[-1].ended_by == "end_the_run" and not tl.outcome.runs[-1].successful
    assert len(tl.outcome.final["runner.hand"]) == 2
    assert not any("approaches R&D" in t for t in texts(tl))


def test_broken_subroutines_do_not_resolve():
    defs = WALL3 + CORRODER.replace("strength: 2", "strength: 3")
    tl = replay(scenario("""
        corp:
          servers: {R&D: {ice: [{card: Wall3, rezzed: true}]}}
        runner:
          installed: [Corroder]
          hand: [Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: R&D}
          - {use: Corroder, ability: break, subroutines: [2]}
    """, defs))
    assert "Wall3:sub2" not in tl.outcome.resolved
    assert tl.outcome.runs[-1].successful
    assert tl.steps[index_of(tl, "subroutine 2 of Wall3 is broken")].rule == "rule_resolve_subroutines_in_order"


def test_breaking_with_too_little_strength_cites_the_interface_rule():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            corp:
              servers: {HQ: {ice: [{card: Wall3, rezzed: true}]}}
            runner:
              installed: [Corroder]
            decisions:
              - {action: run, server: HQ}
              - {use: Corroder, ability: break}
        """, WALL3 + CORRODER))
    assert err.value.rule == "rule_icebreaker_interface_strength"


def test_pump_then_break_in_the_encounter():
    tl = replay(scenario("""
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
    """, WALL3 + CORRODER))
    assert tl.outcome.runs[-1].successful
    assert tl.outcome.final["runner.credits"] == 0


def test_paying_credits_the_player_lacks_cites_the_cost_rule():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            corp:
              servers: {HQ: {ice: [{card: Ice Wall, rezzed: true}]}}
            runner:
              installed: [Corroder]
              credits: 0
            decisions:
              - {action: run, server: HQ}
              - {use: Corroder, ability: break}
        """, ICE_WALL + CORRODER))
    assert err.value.rule == "rule_cost"
    assert "1[c] needed" in str(err.value)


def test_bypass_ends_the_encounter_before_the_other_pending_ability(rules_source):
    from judgebook.engine import load_scenario
    sc = load_scenario(rules_source / "scenarios" / "engine-femme-fatale-tollbooth.yaml")
    tl = replay(sc)
    assert verify(sc) == []
    step = tl.steps[index_of(tl, "lose pending status")]
    assert step.rule == "rule_reaction_window_closing_timing_structure"
    assert "Tollbooth:tax" not in tl.outcome.resolved


def test_jack_out_ends_the_run_unsuccessfully():
    tl = replay(scenario("""
        corp:
          servers: {HQ: {ice: [Ice Wall]}}
        decisions:
          - {action: run, server: HQ}
          - {jack_out: true}
    """, ICE_WALL))
    assert tl.outcome.runs[-1].ended_by == "jack_out"
    assert tl.steps[index_of(tl, "jacks out")].rule == "rule_jacking_out"


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
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [{card: Zap, rezzed: true}]}}
        runner:
          installed: [Shield]
          hand: [Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: HQ}
    """, SHIELD))
    window = index_of(tl, "interrupt window before damage (2)")
    prevent = index_of(tl, "Shield:soak prevents 1")
    damage = index_of(tl, "does 1 net damage")
    assert window < prevent < damage
    assert tl.steps[window].rule == "rule_interrupt_window"
    assert len(tl.outcome.final["runner.hand"]) == 1


def test_flatline_when_damage_exceeds_the_grip():
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [{card: Zap, rezzed: true}]}}
        runner:
          hand: [Sure Gamble]
        decisions:
          - {action: run, server: HQ}
    """, SHIELD))
    assert (tl.outcome.winner, tl.outcome.reason) == ("corp", "flatline")
    assert tl.steps[-1].rule == "rule_flatline"


AGENDA = """
  - {name: Big Deal, side: corp, type: agenda, advancement_requirement: 3, agenda_points: 3}
"""


def test_scoring_to_seven_points_wins_at_the_checkpoint():
    tl = replay(scenario("""
        start: {turn: corp, at: action_phase}
        corp:
          score: [Big Deal, Big Deal]
          servers: {Remote: {root: [{card: Big Deal, counters: {advancement: 3}}]}}
        decisions:
          - {score: Big Deal}
    """, AGENDA))
    assert (tl.outcome.winner, tl.outcome.reason) == ("corp", "agenda_points")
    assert tl.steps[-1].rule == "step_checkpoint_agenda_points"


def test_scoring_without_enough_advancement_is_refused():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            start: {turn: corp, at: action_phase}
            corp:
              servers: {Remote: {root: [{card: Big Deal, counters: {advancement: 2}}]}}
            decisions:
              - {score: Big Deal}
        """, AGENDA))
    assert err.value.rule == "rule_advancement_requirement"


def test_stealing_the_seventh_point_wins_for_the_runner():
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [Big Deal]}}
        runner:
          score: [Big Deal, Big Deal]
        decisions:
          - {action: run, server: Remote}
    """, AGENDA))
    assert (tl.outcome.winner, tl.outcome.reason) == ("runner", "agenda_points")
    assert any("steals Big Deal" in t for t in texts(tl))


def test_corp_drawing_from_empty_rnd_loses():
    tl = replay(scenario("""
        start: {turn: corp, at: corp_turn}
        corp:
          deck: []
    """))
    assert (tl.outcome.winner, tl.outcome.reason) == ("runner", "rnd_empty")
    assert tl.steps[-1].rule == "rule_empty_rnd"


def test_recurring_credits_refill_before_the_turn_begins():
    defs = """
      - {name: Modem, side: runner, type: hardware, recurring: 2}
      - name: Watcher
        side: runner
        type: resource
        abilities:
          - {id: w, trigger: turn_begins, condition: {player: self}, effects: [{gain_credits: 1}]}
    """
    tl = replay(scenario("""
        start: {turn: runner, at: runner_turn}
        runner:
          installed: [{card: Modem, counters: {credit: 0}}, Watcher]
    """, defs))
    refill, begins = index_of(tl, "recurring credits refill: Modem"), index_of(tl, "turn formally begins")
    assert refill < begins < index_of(tl, "triggers Watcher:w")
    assert tl.steps[refill].rule == "step_runner_turn_recurring_credits_refill"
    assert tl.outcome.final["Modem.credit"] == 2


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
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            corp:
              servers: {HQ: {ice: [{card: Gate, rezzed: true}]}}
            runner:
              installed: [Avoider]
            decisions:
              - {action: run, server: HQ}
              - {pay: true}
        """, TAX))
    assert err.value.rule == "rule_cost_interrupt_static_mandatory"


def test_unless_cost_declined_by_default_ends_the_run():
    tl = replay(scenario("""
        corp:
          servers: {HQ: {ice: [{card: Gate, rezzed: true}]}}
        runner:
          installed: [Avoider]
        decisions:
          - {action: run, server: HQ}
    """, TAX))
    assert tl.outcome.runs[-1].ended_by == "end_the_run"
    assert tl.steps[index_of(tl, "does not pay")].assumed


def test_cannot_beats_can():
    defs = textwrap.dedent(TAX) + textwrap.dedent("""
      - name: Blocker
        side: corp
        type: asset
        abilities:
          - {id: no, static: {cannot: {what: jack_out}}}
    """)
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            corp:
              servers: {HQ: {ice: [Gate]}, Remote: {root: [{card: Blocker, rezzed: true}]}}
            decisions:
              - {action: run, server: HQ}
              - {jack_out: true}
        """, defs))
    assert err.value.rule == "rule_cannot_precedence"


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
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [Pricey]}}
        runner:
          credits: 5
        decisions:
          - {action: run, server: Remote}
          - {pay: false}
    """, defs))
    assert tl.outcome.final["runner.score"] == []
    assert tl.steps[index_of(tl, "does not steal Pricey")].rule == "rule_agenda_additional_cost"


def test_trash_cost_paid_at_access():
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [Closet]}}
        decisions:
          - {action: run, server: Remote}
          - {trash: Closet}
    """, CLOSET))
    assert "Closet" in tl.outcome.final["corp.discard"]
    assert tl.outcome.final["runner.credits"] == 4


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
    tl = replay(scenario("""
        options: {max_steps: 300}
        corp:
          servers: {Remote: {root: [{card: Tagger, rezzed: true}]}}
        runner:
          installed: [Echo]
        decisions:
          - {action: run, server: HQ}
    """, defs))
    assert tl.outcome.stopped == "loop"
    assert tl.steps[-1].rule == "rule_mandatory_infinite_loop"


def test_same_scenario_same_timeline():
    sc = scenario("""
        corp:
          servers: {R&D: {ice: [{card: Wall3, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: R&D}
    """, WALL3)
    assert replay(sc).to_dict() == replay(sc).to_dict()


def test_timeline_steps_carry_path_and_rule():
    tl = replay(scenario("""
        corp:
          servers: {R&D: {ice: [{card: Wall3, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: R&D}
    """, WALL3)).to_dict()
    sub = next(s for s in tl["steps"] if s["event"] == "subroutine")
    assert sub["path"][-3:] == ["run", "encounter ice", "resolve unbroken subroutines"]
    assert sub["rule"] == "step_resolve_subroutine"
    assert set(tl["outcome"]) >= {"winner", "stopped", "runs", "final"}


def test_unknown_key_names_field_and_line():
    with pytest.raises(ScenarioError) as err:
        parse_scenario("title: x\nrunner:\n  credits: 5\n  credts: 3\n")
    assert err.value.field == "runner.credts" and err.value.line == 4


def test_bad_value_names_field_and_line():
    with pytest.raises(ScenarioError) as err:
        parse_scenario("title: x\ncorp:\n  credits: lots\n")
    assert err.value.field == "corp.credits" and err.value.line == 3


def test_undefined_card_names_field_and_line():
    with pytest.raises(ScenarioError) as err:
        parse_scenario("title: x\nrunner:\n  hand:\n    - Mystery Card\n")
    assert err.value.field == "runner.hand[0]" and err.value.line == 4


def test_malformed_instruction_in_card_definition():
    with pytest.raises(ScenarioError) as err:
        scenario("decisions: []\n", "  - {name: Bad, side: runner, type: resource, abilities: "
                 "[{trigger: run_begins, effects: [{explode: 1}]}]}\n")
    assert "effects[0]" in err.value.field and err.value.line == 3


def test_decision_naming_unknown_card_is_a_scenario_error():
    with pytest.raises(ScenarioError) as err:
        replay(scenario("decisions:\n  - {rez: Nothing}\n"))
    assert err.value.field == "decisions[0].rez"


def test_not_yaml_is_a_scenario_error_with_a_line():
    with pytest.raises(ScenarioError) as err:
        parse_scenario("title: x\nrunner: [unclosed\n")
    assert err.value.line


def test_action_for_the_wrong_player_is_refused():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("decisions:\n  - {action: gain_credit, player: corp}\n"))
    assert err.value.rule == "rule_action_window_priority"


# --- later features: composite instructions, values, forced encounters, loops ------------

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


def test_one_instruction_with_two_parts_has_one_interrupt_window():
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [Trap]}}
        runner:
          installed: [Decoy]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: Remote}
          - {use: Decoy, ability: avoid}
    """, SNARE))
    windows = [s for s in tl.steps if s.event == "interrupt_window"]
    assert len(windows) == 1 and "tags (1) and damage (2)" in windows[0].text
    assert tl.outcome.final["runner.tags"] == 0
    assert len(tl.outcome.final["runner.hand"]) == 1


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


def test_imminent_values_can_go_below_zero_and_come_back():
    tl = replay(scenario("""
        corp:
          score: [Cleaner, Cleaner]
          servers: {Remote: {root: [{card: Stone, rezzed: true}]}}
        runner:
          installed: [Spoof]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: HQ}
          - {use: Spoof, ability: spoof}
    """, STONE))
    t = texts(tl)
    assert any("from -1 to 0" in x for x in t) and any("from 0 to 1" in x for x in t)
    assert len(tl.outcome.final["runner.hand"]) == 2


CHOICE = """
  - name: Raven
    side: corp
    type: ice
    subtypes: [sentry]
    strength: 0
    subroutines:
      - {text: "Give 1 tag or end the run.", effects: [{choose: [[{give_tags: 1}], [end_the_run]], by: runner}]}
  - name: Forger
    side: runner
    type: resource
    abilities:
      - {id: no, static: {cannot: {what: take_tags}}}
"""


def test_choice_takes_the_only_option_that_can_be_carried_out():
    tl = replay(scenario("""
        corp:
          servers: {HQ: {ice: [{card: Raven, rezzed: true}]}}
        runner:
          installed: [Forger]
        decisions:
          - {action: run, server: HQ}
    """, CHOICE))
    step = tl.steps[index_of(tl, "chooses option 2")]
    assert step.rule == "rule_mandatory_choice" and not step.assumed
    assert tl.outcome.runs[-1].ended_by == "end_the_run"


def test_choosing_an_impossible_option_is_refused():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            corp:
              servers: {HQ: {ice: [{card: Raven, rezzed: true}]}}
            runner:
              installed: [Forger]
            decisions:
              - {action: run, server: HQ}
              - {choose: 1}
        """, CHOICE))
    assert err.value.rule == "rule_mandatory_choice"


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


def test_forced_encounter_resolves_an_encounter_without_moving_the_runner():
    tl = replay(scenario("""
        corp:
          credits: 0
          servers: {Remote: {ice: [{card: Popup, rezzed: true}], root: [{card: Twins, rezzed: true}]}}
        decisions:
          - {action: run, server: Remote}
    """, TWINS))
    assert tl.outcome.final["corp.credits"] == 2
    forced = tl.steps[index_of(tl, "encounters Popup without changing position")]
    assert forced.rule == "rule_forced_encounter"
    assert "forced encounter" in tl.steps[forced.n].path
    assert tl.outcome.runs[-1].successful


WORMHOLE = """
  - name: Hole
    side: corp
    type: ice
    subtypes: [code gate]
    strength: 7
    subroutines:
      - {text: "Resolve a subroutine on another rezzed ice.", effects: [{resolve_subroutine: {ice: other_rezzed}}]}
"""


def test_mandatory_loop_resolves_the_named_number_of_times_and_ends():
    tl = replay(scenario("""
        corp:
          servers: {Archives: {ice: [{card: Hole, rezzed: true}]}, Remote: {ice: [{card: Hole, rezzed: true}]}}
        decisions:
          - {action: run, server: Archives}
          - {loop: 2}
    """, WORMHOLE))
    loop = tl.steps[index_of(tl, "mandatory infinite loop")]
    assert loop.rule == "rule_mandatory_infinite_loop" and loop.decision == 2
    assert tl.outcome.runs[-1].successful
    assert list(tl.outcome.resolved).count("Hole#2:sub1") == 2


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
              ability: {trigger: encounter_ends, condition: {next_ice: true, fully_broken: false},
                        effects: [{damage: {type: net, amount: 1}}]}
"""


def test_delayed_ability_waits_for_the_next_encounter_to_end():
    tl = replay(scenario("""
        corp:
          servers: {HQ: {ice: [{card: Chum, rezzed: true}, {card: Ice Wall, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: HQ}
    """, CHUM + ICE_WALL))
    created, fired = index_of(tl, "creates a delayed conditional ability"), index_of(tl, "does 1 net damage")
    assert created < index_of(tl, "encounters Ice Wall") < fired
    assert tl.steps[created].rule == "rule_delayed_conditional_ability"
    assert len(tl.outcome.final["runner.hand"]) == 1


def test_first_this_run_counts_prevented_instances():
    defs = SHIELD + """
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
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [{card: Zap2, rezzed: true}, {card: Tori, rezzed: true}]}}
        runner:
          installed: [Shield]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble]
        decisions:
          - {action: run, server: HQ}
    """, textwrap.dedent(SHIELD) + textwrap.dedent(defs[len(SHIELD):])))
    # Shield prevents the first net damage completely, so Tori is no longer relevant to it;
    # the second is not the first this run, so Tori never resolves
    assert "Tori:t" not in tl.outcome.resolved
    assert list(tl.outcome.resolved).count("Shield:soak") == 2
    assert tl.steps[index_of(tl, "Tori:t no longer relevant")].rule == "sec_relevant_interrupts"
    assert len(tl.outcome.final["runner.hand"]) == 3


def test_hosted_card_installed_with_a_discount_and_spend_hosted_credits():
    defs = """
      - name: Supplier
        side: runner
        type: resource
        abilities:
          - {id: s, trigger: turn_begins, condition: {player: self}, effects: [{install: hosted, discount: 2}]}
      - {name: Chip, side: runner, type: hardware, cost: 3, link: 1}
      - {name: Ghost, side: runner, type: resource, spend_hosted: run}
    """
    tl = replay(scenario("""
        start: {turn: runner, at: runner_turn}
        runner:
          credits: 1
          installed: [{card: Supplier, hosted: [Chip]}, {card: Ghost, counters: {credit: 3}}]
    """, defs))
    assert "Chip" in tl.outcome.final["runner.installed"]
    assert tl.outcome.final["runner.credits"] == 0
    assert tl.outcome.final["Ghost.credit"] == 3      # not spendable outside a run


def test_removing_the_approached_ice_ends_the_approach():
    defs = textwrap.dedent(ICE_WALL) + textwrap.dedent("""
      - name: Bako
        side: corp
        type: ice
        subtypes: [barrier]
        strength: 2
        abilities:
          - {id: back, cost: {credits: 1}, effects: [{add_to_hand: self}]}
        subroutines: [[end_the_run]]
    """)
    tl = replay(scenario("""
        corp:
          credits: 1
          servers: {Remote: {ice: [Ice Wall, {card: Bako, rezzed: true}], root: [Closet]}}
        decisions:
          - {action: run, server: Remote}
          - {use: Bako, ability: back, at: approach_ice}
    """, defs + textwrap.dedent(CLOSET)))
    step = tl.steps[index_of(tl, "Bako is added to HQ")]
    assert step.rule == "rule_uninstall_ice_during_run"
    assert not any("encounters Bako" in t for t in texts(tl))
    assert tl.outcome.runs[-1].successful


def test_then_follows_only_when_the_instruction_did_something():
    defs = """
      - name: Pawn
        side: runner
        type: resource
        abilities:
          - id: sell
            cost: {credits: 0}
            effects: [{trash: target, target_filter: {type: hardware}, then: [{gain_credits: 3}]}]
    """
    tl = replay(scenario("""
        runner:
          credits: 0
          installed: [Pawn]
        decisions:
          - {use: Pawn, ability: sell}
    """, defs))
    assert tl.outcome.final["runner.credits"] == 0
    assert any("nothing to trash" in t for t in texts(tl))


def test_card_library_is_parsed_lazily(tmp_path):
    from judgebook.engine import load_scenario
    lib = tmp_path / "cards"
    lib.mkdir()
    (lib / "good.yaml").write_text("name: Good\nside: runner\ntype: resource\n", encoding="utf-8")
    (lib / "broken.yaml").write_text("name: Broken\nside: runner\ntype: resource\nwhat: 1\n",
                                     encoding="utf-8")
    scen = tmp_path / "scenarios"
    scen.mkdir()
    (scen / "a.yaml").write_text("title: a\nrunner: {installed: [Good]}\n", encoding="utf-8")
    (scen / "b.yaml").write_text("title: b\nrunner: {installed: [Broken]}\n", encoding="utf-8")
    assert load_scenario(scen / "a.yaml").cards["Good"].type == "resource"
    with pytest.raises(ScenarioError) as err:
        load_scenario(scen / "b.yaml")
    assert "broken.yaml" in str(err.value) and err.value.line == 4


# --- turns, actions, traces, X costs ---------------------------------------------------------

def test_turns_alternate_with_mandatory_draw_and_discard():
    tl = replay(scenario("""
        start: {turn: runner, at: action_phase}
        corp:
          deck: [Hedge Fund, Hedge Fund]
        runner:
          clicks: 1
          hand: [Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble]
          deck: [Sure Gamble]
        decisions:
          - {action: draw}
    """))
    t = texts(tl)
    discard = index_of(tl, "runner discards")
    assert tl.steps[discard].assumed and tl.steps[discard].rule == "rule_discarding_process"
    assert index_of(tl, "the runner's turn is complete") < index_of(tl, "corp gains 3[click]") \
        < index_of(tl, "corp draws 1 card(s) (mandatory draw)")
    assert tl.steps[index_of(tl, "mandatory draw")].rule == "step_corp_turn_mandatory_draw"
    assert tl.outcome.final["corp.hand"] == ["Hedge Fund"] and len(tl.outcome.final["runner.hand"]) == 5
    assert t[-1].startswith("corp's action window")


def test_play_and_install_actions_pay_their_costs():
    defs = """
      - {name: Windfall, side: runner, type: event, cost: 2, abilities: [{id: p, effects: [{gain_credits: 9}]}]}
      - {name: Daily Casts, side: runner, type: resource, cost: 3}
    """
    tl = replay(scenario("""
        runner:
          credits: 5
          hand: [Windfall, Daily Casts]
        decisions:
          - {action: play, card: Windfall}
          - {action: install, card: Daily Casts}
    """, defs))
    assert tl.outcome.final["runner.credits"] == 5 - 2 + 9 - 3
    assert tl.outcome.final["runner.discard"] == ["Windfall"]
    assert tl.outcome.final["runner.installed"] == ["Daily Casts"]
    assert tl.outcome.final["runner.clicks"] == 2


def test_installing_an_event_is_refused():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
            runner:
              hand: [Sure Gamble]
            decisions:
              - {action: install, card: Sure Gamble}
        """))
    assert err.value.rule == "runner_basic_action_install"


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
    tl = replay(scenario("""
        corp:
          servers: {HQ: {ice: [{card: Tracer, rezzed: true}]}}
        runner:
          link: 1
          credits: 3
        decisions:
          - {action: run, server: HQ}
          - {trace: 0, player: corp}
          - {trace: 2, player: runner}
    """, defs))
    result = tl.steps[index_of(tl, "trace strength 2 vs link strength 3")]
    assert result.rule == "step_trace_determine_success" and "unsuccessful" in result.text
    assert tl.outcome.final["runner.tags"] == 0 and tl.outcome.final["runner.credits"] == 1


def test_x_cost_is_chosen_by_the_decision():
    defs = """
      - name: Meter
        side: runner
        type: resource
        abilities:
          - {id: m, cost: {credits: X}, effects: [{draw: 1}]}
    """
    tl = replay(scenario("""
        runner:
          credits: 4
          installed: [Meter]
          deck: [Sure Gamble]
        decisions:
          - {use: Meter, ability: m, x: 3}
    """, defs))
    assert tl.outcome.final["runner.credits"] == 1
    assert any("runner pays 3[c]" in t for t in texts(tl))


def test_zero_cost_is_still_paid_and_cited():
    tl = replay(scenario("""
        runner:
          installed: [Kit]
        decisions:
          - {use: Kit, ability: cash}
    """, CLOSET))
    assert tl.steps[index_of(tl, "runner pays 0[c]")].rule == "rule_cost_zero"


def test_remove_tag_action_needs_a_tag():
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("decisions:\n  - {action: remove_tag}\n"))
    assert err.value.rule == "rule_tagged_remove_tag"


def test_abilities_pending_when_the_run_ends_resolve_in_the_run_ends_phase():
    tl = replay(scenario("""
        corp:
          servers: {HQ: {ice: [{card: Chum, rezzed: true}, {card: Ice Wall, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble]
        expect:
          resolved_in: {"Chum:a1": run ends}
        decisions:
          - {action: run, server: HQ}
    """, CHUM + ICE_WALL))
    assert index_of(tl, "the run ends phase begins") < index_of(tl, "triggers Chum:a1")
    assert tl.steps[index_of(tl, "processed now")].rule == "rule_run_ends_process_priority_windows"
    from judgebook.engine.expect import check_expectations
    sc = scenario("""
        corp:
          servers: {HQ: {ice: [{card: Chum, rezzed: true}, {card: Ice Wall, rezzed: true}]}}
        runner:
          hand: [Sure Gamble, Sure Gamble]
        expect:
          resolved_in: {"Chum:a1": encounter ice}
        decisions:
          - {action: run, server: HQ}
    """, CHUM + ICE_WALL)
    assert check_expectations(sc, replay(sc))[0].startswith("resolved_in: Chum:a1 resolved at")


def test_additional_cost_to_access_can_be_declined():
    defs = CLOSET + """
      - name: Gate Keeper
        side: corp
        type: upgrade
        abilities:
          - {id: g, static: {additional_cost: {to: access, server: this, cost: {credits: 1}}}}
    """
    tl = replay(scenario("""
        corp:
          servers: {Remote: {root: [{card: Gate Keeper, rezzed: true}, Closet]}}
        decisions:
          - {action: run, server: Remote}
          - {pay: false}
    """, textwrap.dedent(CLOSET) + textwrap.dedent(defs[len(CLOSET):])))
    assert tl.steps[index_of(tl, "does not access Gate Keeper")].rule == "rule_candidates_already_accessed"
    assert any("accesses Closet" in t for t in texts(tl))      # paid if able, by default
    assert tl.outcome.final["runner.credits"] == 4


def test_x_paid_in_a_nested_cost_carries_into_the_instruction():
    defs = """
      - name: Atman
        side: runner
        type: program
        abilities:
          - id: load
            cost: {credits: 0}
            effects: [{pay: {credits: X}, optional: true, then: [{add_counters: {type: power, count: X}}]}]
    """
    tl = replay(scenario("""
        runner:
          credits: 5
          installed: [Atman]
        decisions:
          - {use: Atman, ability: load}
          - {pay: true, x: 3}
    """, defs))
    assert tl.outcome.final["Atman.power"] == 3 and tl.outcome.final["runner.credits"] == 2


def test_a_prevention_interrupt_cannot_be_used_when_nothing_it_prevents_is_imminent():
    defs = SNARE + """
      - name: Net Shield
        side: runner
        type: program
        abilities:
          - {id: shield, cost: {credits: 1}, interrupt: true, effects: [{prevent: {what: damage, amount: 1}}]}
    """
    with pytest.raises(IllegalDecision) as err:
        replay(scenario("""
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
        """, textwrap.dedent(SNARE) + textwrap.dedent(defs[len(SNARE):])))
    assert err.value.rule == "sec_relevant_interrupts"
    assert "decisions[3]" in err.value.field


def test_hand_size_modifier_and_flatline_at_the_discard_step():
    defs = """
      - {name: Big Brain, side: runner, type: hardware, abilities: [{id: h, static: {hand_size: 2}}]}
    """
    tl = replay(scenario("""
        start: {turn: runner, at: discard_phase}
        runner:
          installed: [Big Brain]
          hand: [Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble]
    """, defs))
    assert any("maximum 7: nothing to discard" in t for t in texts(tl))
    tl = replay(scenario("""
        start: {turn: runner, at: discard_phase}
        runner:
          core_damage: 6
    """))
    assert (tl.outcome.winner, tl.outcome.reason) == ("corp", "flatline")
    assert tl.steps[-1].rule == "rule_runner_discard_step"


def test_delayed_ability_remembers_the_target_and_this_server_condition():
    defs = """
      - name: Trial
        side: runner
        type: event
        abilities:
          - id: t
            kind: play
            effects:
              - {install: target, target_filter: {zone: discard, type: program}}
              - lasting: {duration: turn, ability: {trigger: turn_ends, condition: {player: runner},
                                                    effects: [{add_to_deck: {card: target, position: top}}]}}
      - {name: Tool, side: runner, type: program}
      - name: Watcher
        side: corp
        type: upgrade
        abilities:
          - {id: w, trigger: run_begins, condition: {server: this}, effects: [{gain_credits: 1}]}
    """
    tl = replay(scenario("""
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
    """, defs))
    assert tl.outcome.final["runner.deck"] == ["Tool"]
    assert list(tl.outcome.resolved).count("Watcher:w") == 1
    assert tl.steps[index_of(tl, "Tool is added to the top")].path[-1] == "turn formally ends"
