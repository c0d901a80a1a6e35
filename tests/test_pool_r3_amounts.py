"""Round 3 of the Standard pool, family `amounts`: X chosen by a player (break X subroutines, X hosted counters),
numbers chosen with a bound, modes resolved up to N, repeated processes, counts of servers.

Each construct's scenarios (rules_source/scenarios/standard/card-<id>-<n>.yaml, for this family's cards) replay
to their `expect`; the constructs are asserted on events and cited rules, never on wording."""

from __future__ import annotations

from pathlib import Path

import pytest
import replays
from pool_scenarios import kinds_and_rules as _steps
from pool_scenarios import replay_named as _out

from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.cards import parse_ability
from judgebook.engine.language.nodes import At

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS_DIR = ROOT / "rules_source" / "scenarios" / "standard"
FAMILY = ("lobisomem", "utae", "baklan_bochkin", "focus_group", "bigger_picture", "fully_operational",
          "wage_workers", "starlit_knight", "sorocaban_blade", "tyr", "mycoweb", "tucana", "flip_switch",
          "matryoshka", "the_nihilist", "shred", "game_over", "wall_to_wall", "mirrormorph_endless_iteration")
SCENARIOS = sorted(p for c in FAMILY for p in SCENARIOS_DIR.glob(f"card-{c}-*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_family_scenario_replays_to_its_expectation(path: Path, cards_root: Path):
    assert replays.shipped(path, LIBRARY, cards_root).misses == []


# --- break X subroutines, X hosted counters ------------------------------------------------------------------


def test_break_x_breaks_as_many_subroutines_as_the_x_paid(cards_root: Path):
    out = _out("card-lobisomem-1", cards_root)
    steps = _steps(out)
    assert steps.count(("subroutine_broken", "rule_break_subroutine")) == 2
    spent = [s for s in out.steps if s.kind == "credits_spent"]
    assert len(spent) == 1 and spent[0].anchor == "rule_cost"
    assert out.final.cards["Lobisomem"].count("power") == 0


def test_break_x_with_more_subroutines_than_x_is_refused_by_rule_cost_x(cards_root: Path):
    out = _out("card-lobisomem-2", cards_root)
    assert out.error is not None and out.error.rule == "rule_cost_x"


def test_x_hosted_counters_are_removed_as_the_cost(cards_root: Path):
    out = _out("card-baklan_bochkin-1", cards_root)
    steps = _steps(out)
    assert steps.index(("trashed", "rule_trashing")) < steps.index(("derezzed", "rule_rez_procedure"))
    assert ("encounter_over", "rule_ice_change_encounter_uninstall_derez") in steps
    assert out.final.runner.tags == 1


def test_break_count_x_needs_an_x_cost():
    with pytest.raises(ScenarioError, match="X"):
        parse_ability({"cost": {"credits": 1}, "break": {"count": "X"}}, At("a", 1), 0, "program")


def test_a_cost_has_one_x():
    with pytest.raises(ScenarioError, match="one X"):
        parse_ability({"cost": {"credits": "X", "counters": {"power": "X"}}, "effects": [{"draw": 1}]},
                      At("a", 1), 0, "program")


# --- resolve up to N modes ----------------------------------------------------------------------------------


def test_up_to_modes_the_chooser_stops_with_rule_choose_next_mode(cards_root: Path):
    out = _out("card-wall_to_wall-1", cards_root)
    chose = [s.anchor for s in out.steps if s.kind == "choose"]
    assert chose == ["rule_choice_instruction", "rule_choice_instruction", "rule_choose_next_mode"]


def test_a_mode_is_not_resolved_twice(cards_root: Path):
    out = _out("card-wall_to_wall-4", cards_root)
    assert out.error is not None and out.error.rule == "rule_choice_instruction"


def test_one_mode_only_with_another_rezzed_asset(cards_root: Path):
    out = _out("card-wall_to_wall-2", cards_root)
    assert [s.anchor for s in out.steps if s.kind == "choose"] == ["rule_choice_instruction"]


# --- a number a player chooses ------------------------------------------------------------------------------


def test_the_chosen_number_is_x_for_the_instructions_after_it(cards_root: Path):
    out = _out("card-bigger_picture-1", cards_root)
    steps = _steps(out)
    assert ("number", "rule_values_defined_by_x") in steps
    assert (out.final.runner.tags, out.final.runner.credits, out.final.corp.credits) == (1, 2, 15)


def test_a_number_out_of_bounds_is_refused_by_rule_values_defined_by_x(cards_root: Path):
    out = _out("card-bigger_picture-3", cards_root)
    assert out.error is not None and out.error.rule == "rule_values_defined_by_x"


# --- repeating a process, counting servers --------------------------------------------------------------------


def test_the_process_repeats_once_per_remote_server_with_a_root_card_and_ice(cards_root: Path):
    out = _out("card-fully_operational-1", cards_root)
    steps = _steps(out)
    assert steps.count(("choose", "rule_choice_instruction")) == 3
    # the repetitions are counted once, after the first resolution (its choice) and before the second
    repeat = steps.index(("repeat", "rule_repeat_this_process_x_times"))
    chose = [i for i, s in enumerate(steps) if s == ("choose", "rule_choice_instruction")]
    assert chose[0] < repeat < chose[1]
    assert (out.final.corp.credits, len(out.final.zone("corp.hand"))) == (8, 2)


# --- fixed lasting effects, rez paying less, an allotted click for the opponent ------------------------------


def test_a_fixed_lasting_effect_keeps_the_number_counted_as_it_began(cards_root: Path):
    out = _out("card-starlit_knight-1", cards_root)
    # two subroutines gained at the encounter (2 tags), both broken; the tags taken later add none
    assert _steps(out).count(("subroutine_broken", "rule_break_subroutine")) == 2
    assert out.final.runner.tags == 4 and out.ended != "error"


def test_rez_paying_less_pays_the_lowered_cost(cards_root: Path):
    out = _out("card-mycoweb-1", cards_root)
    assert ("credits_spent", "rule_cost") in _steps(out)
    assert out.final.cards["Big Wall"].rezzed and out.final.corp.credits == 0


def test_rez_paying_less_that_cannot_be_paid_leaves_the_ice_unrezzed(cards_root: Path):
    out = _out("card-mycoweb-2", cards_root)
    assert ("cannot_pay", "rule_cost") in _steps(out)
    assert not out.final.cards["Big Wall"].rezzed


def test_a_break_ability_with_effects_gives_the_corp_allotted_clicks(cards_root: Path):
    out = _out("card-tyr-1", cards_root)
    assert _steps(out).count(("subroutine_broken", "rule_break_subroutine")) == 3
    assert ("clicks", "step_corp_turn_allotted_clicks") in _steps(out)
    assert out.final.corp.clicks == 6


# --- an action completes ------------------------------------------------------------------------------------


def test_an_action_completes_after_its_resolution_and_names_the_action(cards_root: Path):
    out = _out("card-bigger_picture-1", cards_root)
    kinds = [s.kind for s in out.steps]
    # the played operation is trashed as its action resolves: the action completes after that
    assert kinds.index("trashed") < kinds.index("action_completed")
    assert [s.anchor for s in out.steps if s.kind == "action_completed"] == ["rule_finish_action_trigger_condition"]


def test_the_same_action_a_third_time_gains_a_click(cards_root: Path):
    out = _out("card-wage_workers-1", cards_root)
    steps = _steps(out)
    done = [i for i, s in enumerate(steps) if s[0] == "action_completed"]
    resolved = [i for i, s in enumerate(steps) if s == ("resolve", "step_conditional_ability_resolution")]
    assert len(done) == 5 and len(resolved) == 1 and done[3] < resolved[0] < done[4]


# --- install and rez paying a total less; a hosted copy turned facedown as a cost ------------------------------


def test_install_and_rez_splits_one_discount_over_both_costs(cards_root: Path):
    out = _out("card-tucana-1", cards_root)   # install cost 1 (one ice already on HQ), rez 5: 6 - 3 = 3 paid
    spent = [s.text for s in out.steps if s.kind == "credits_spent"]
    assert len(spent) == 1 and out.final.corp.credits == 0
    assert out.final.cards["Big Wall"].rezzed and out.final.cards["Big Wall"].zone == "corp.server.HQ.ice"


def test_a_hosted_copy_turned_facedown_pays_for_the_break(cards_root: Path):
    out = _out("card-matryoshka-1", cards_root)
    assert ("facedown", "rule_object_turn_faceup_facedown") in _steps(out)
    assert not out.final.cards["Matryoshka#2"].faceup


def test_no_faceup_copy_refuses_the_break_by_rule_cost(cards_root: Path):
    out = _out("card-matryoshka-2", cards_root)
    assert out.error is not None and out.error.rule == "rule_cost"


def test_hosted_copies_turn_faceup_when_the_turn_begins(cards_root: Path):
    out = _out("card-matryoshka-3", cards_root)
    steps = _steps(out)
    assert steps.index(("turn_faceup", "rule_archives_faceup_facedown")) < steps.index(
        ("facedown", "rule_object_turn_faceup_facedown"))


def test_counters_removed_one_at_a_time_from_cards_chosen_each_time(cards_root: Path):
    out = _out("card-the_nihilist-1", cards_root)
    steps = _steps(out)
    assert ("repeat", "rule_repeat_this_process_x_times") in steps
    assert out.final.cards["The Nihilist"].count("virus") == 0 and out.final.cards["Test Virus"].count("virus") == 0


# --- a nested payment of the X a player chose -------------------------------------------------------------------


def test_a_nested_cost_of_x_after_choose_number_pays_the_chosen_x(cards_root: Path):
    out = _out("card-focus_group-1", cards_root)
    steps = _steps(out)
    chosen = steps.index(("number", "rule_values_defined_by_x"))
    spent = steps.index(("credits_spent", "rule_cost"), chosen)
    assert chosen < spent < steps.index(("counters", "rule_placing_advancement_counter"))
    assert out.final.corp.credits == 3  # 8 - 3 (Focus Group) - 2 (X = 2, no X asked again as it is paid)
    assert out.final.cards["Big Agenda"].count("advancement") == 2


def test_choose_number_bounded_by_the_revealed_cards_of_the_chosen_type(cards_root: Path):
    out = _out("card-focus_group-2", cards_root)
    assert out.error is not None and out.error.rule == "rule_values_defined_by_x"


# --- at most N cards trashed with this ice each encounter ---------------------------------------------------------


def test_trash_limit_stops_the_second_trash_with_this_ice_in_one_encounter(cards_root: Path):
    out = _out("card-sorocaban_blade-1", cards_root)
    steps = _steps(out)
    assert steps.count(("trashed", "rule_trashing")) == 1
    # after the first trash, no installed card is a valid target of a trash with this ice (issue 19: cards that
    # cannot legally be chosen are not offered): each later subroutine finds no target
    assert steps.count(("no_target", "rule_targets_must_be_valid")) == 2
    trashed = [f.event for f in out.final.history if f.event.name == "trashed"]
    assert [e.get("source") for e in trashed] == ["Sorocaban Blade"]


def test_trash_limit_counts_trashes_not_subroutines(cards_root: Path):
    out = _out("card-sorocaban_blade-2", cards_root)
    steps = _steps(out)
    assert steps.index(("trashed", "rule_trashing")) < steps.index(("no_target", "rule_targets_must_be_valid"))
    assert steps.count(("trashed", "rule_trashing")) == 1


# --- an interrupt to a trace's initiation -------------------------------------------------------------------------


def test_reduce_trace_base_interrupts_before_the_corp_spends(cards_root: Path):
    out = _out("card-flip_switch-1", cards_root)
    steps = _steps(out)
    initiated = steps.index(("trace", "step_trace_initiated"))
    reduced = steps.index(("trace_base", "step_trace_initiated"))
    assert initiated < reduced < steps.index(("credits_spent", "rule_cost"), reduced)
    assert steps.index(("trace", "step_trace_determine_success")) > reduced
    assert out.final.runner.tags == 1  # 0 + 2 beats link 0 + 1: the trace still succeeds, from base 0


def test_reduce_trace_base_only_during_your_turn(cards_root: Path):
    out = _out("card-flip_switch-2", cards_root)
    assert out.error is not None and out.error.rule == "rule_use_restriction"


# --- a prevention paid per card of one trash ----------------------------------------------------------------------


def test_trash_unless_paid_prevents_each_paid_card_of_one_trash(cards_root: Path):
    out = _out("card-game_over-1", cards_root)
    steps = _steps(out)
    paid = steps.index(("credits_spent", "rule_cost"), steps.index(("choose", "rule_choice_instruction")))
    assert paid < steps.index(("prevented", "sec_prevent_avoid")) < steps.index(("trashed", "rule_trashing"))
    assert ("not_paid", "rule_nested_cost") in steps
    # one trash: every card's trash is imminent together, before any is trashed
    would = [i for i, s in enumerate(steps) if s == ("would_trash", "rule_interrupt_window_opening")]
    assert len(would) == 2 and max(would) < steps.index(("trashed", "rule_trashing"))
    assert steps.count(("trashed", "rule_trashing")) == 1  # Program B only
    assert out.final.corp.bad_publicity == 1


def test_trash_unless_paid_refuses_a_payment_the_runner_cannot_make(cards_root: Path):
    out = _out("card-game_over-2", cards_root)
    assert out.error is not None and out.error.rule == "rule_cost"


# --- a nested cost whose X is valued as it resolves ---------------------------------------------------------------


def test_pay_counted_values_x_as_it_resolves_and_pays_that_many_random_cards(cards_root: Path):
    out = _out("card-shred-1", cards_root)
    steps = _steps(out)
    would = steps.index(("would_end_run", "rule_interrupt_window_opening"))
    revealed = [i for i, s in enumerate(steps) if s == ("reveal", "rule_reveal") and i > would]
    assert len(revealed) == 2  # X = 2 cards in the root of the attacked server
    assert max(revealed) < steps.index(("end_the_run", "rule_end_the_run"))


def test_pay_counted_declined_prevents_only_the_first_end_of_the_run(cards_root: Path):
    out = _out("card-shred-2", cards_root)
    steps = _steps(out)
    assert ("not_paid", "rule_nested_cost") in steps
    first_prevented = steps.index(("prevented", "sec_prevent_avoid"))
    assert steps.count(("would_end_run", "rule_interrupt_window_opening")) == 2
    assert first_prevented < steps.index(("end_the_run", "rule_end_the_run"))
    assert steps.count(("end_the_run", "rule_end_the_run")) == 1


def test_pay_counted_needs_x_in_its_cost():
    with pytest.raises(ScenarioError, match="X"):
        parse_ability({"effects": [{"pay_counted": {"credits": 2}, "x": 1}]}, At("a", 1), 0, "event")


# --- taking another action, paying [click] less -------------------------------------------------------------------


def test_take_action_takes_a_different_action_paying_a_click_less(cards_root: Path):
    out = _out("card-mirrormorph_endless_iteration-3", cards_root)
    steps = _steps(out)
    chosen = steps.index(("choose", "rule_choice_instruction"))
    extra = steps.index(("action", "rule_corp_basic_action_operation"), chosen)
    played = steps.index(("played", "rule_playing"), extra)
    assert ("click_discount", "rule_cost") in steps[extra:played]
    assert ("clicks_spent", "rule_cost") not in steps[extra:played]  # 1[click] less than 1[click]
    completed = [i for i, s in enumerate(steps) if s == ("action_completed", "rule_finish_action_trigger_condition")]
    assert len([i for i in completed if i > extra]) >= 1  # the extra action is an action: it completes too


def test_take_action_different_refuses_an_action_already_taken(cards_root: Path):
    out = _out("card-mirrormorph_endless_iteration-4", cards_root)
    assert out.error is not None and out.error.rule == "rule_action_window"
