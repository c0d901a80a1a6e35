"""Round 3, family `reveal`: revealed and trashed cards as references, selectors across zones, repeating
instructions. Each card's scenarios replay to their `expect`; the engine's steps are checked by event and rule."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import replays
from pool_scenarios import replay_named as _run

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.nodes import At
from judgebook.engine.language.selectors import InZone, Matching, parse_selector

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
CARDS = ("moon_pool", "loot_box", "descent", "diviner", "saisentan", "engram_flush",
         "hyoubu_institute_absolute_clarity", "burner", "world_tree", "spark_of_inspiration", "gachapon",
         "the_wizards_chest", "deep_dive", "au_co_the_gold_standard_in_clones", "buffer_drive",
         "pretty_mary_da_silva", "magdalene_keino_chemutai_cryptarchitect", "khusyuk", "the_back",
         "complete_image", "storgotic_resonator", "whistleblower")
MINE = sorted(p for p in SCENARIOS.glob("*.yaml") if re.sub(r"^(card|ruling)-|-\d+$", "", p.stem) in CARDS)


@pytest.mark.parametrize("path", MINE, ids=[p.stem for p in MINE])
def test_scenario_replays_to_its_expectation(path: Path, cards_root: Path):
    assert replays.shipped(path, LIBRARY, cards_root).misses == []


def test_zone_list_selects_across_zones():
    sel = parse_selector({"zone": ["hand", "discard"], "type": "agenda", "count": {"up_to": 2}}, At("t", None))
    assert isinstance(sel, Matching)
    where = sel.filters[0]
    assert isinstance(where, InZone) and (where.zone, where.also) == ("hand", ("discard",))
    assert "in hand or in the discard pile" in sel.render()


def test_moon_pool_shuffles_r_and_d_and_places_a_counter_per_revealed_agenda(cards_root: Path):
    out = _run("card-moon_pool-1", cards_root)
    kinds = [(s.kind, s.anchor) for s in out.steps]
    assert ("removed", "rule_rfg_move") in kinds
    assert kinds.count(("counters", "rule_placing_advancement_counter")) == 2
    assert ("shuffle", "rule_draw_procedure") in kinds


def test_diviner_ends_the_run_only_on_an_odd_cost(cards_root: Path):
    odd = [(s.kind, s.anchor) for s in _run("card-diviner-1", cards_root).steps]
    assert odd.index(("trashed", "rule_meat_net_damage")) < odd.index(("end_the_run", "rule_end_the_run"))
    zero = [(s.kind, s.anchor) for s in _run("ruling-diviner-1", cards_root).steps]
    assert ("end_the_run", "rule_end_the_run") not in zero
    assert ("successful_run", "step_run_declared_successful") in zero


def test_loot_box_gains_the_chosen_cards_cost_and_trashes_itself(cards_root: Path):
    steps = _run("card-loot_box-1", cards_root).steps
    kinds = [(s.kind, s.anchor) for s in steps]
    assert kinds.count(("reveal", "rule_reveal")) == 3
    assert ("trashed", "rule_trashing") in kinds


def test_saisentan_extra_damage_is_not_from_a_subroutine(cards_root: Path):
    steps = _run("ruling-saisentan-1", cards_root).steps
    kinds = [(s.kind, s.anchor) for s in steps]
    assert ("choose", "rule_choice_instruction") in kinds
    # one pending extra damage only: the card it trashed (a program too) was not trashed by a subroutine
    assert [s.ability for s in steps if s.kind == "pending" and s.card == "Saisentan"] == ["choose", "a1"]
    assert kinds.count(("trashed", "rule_meat_net_damage")) == 4


def test_engram_flush_reveal_is_one_event_per_subroutine(cards_root: Path):
    steps = _run("card-engram_flush-1", cards_root).steps
    assert [s.anchor for s in steps if s.kind == "revealed"] == ["rule_reveal", "rule_reveal"]
    assert [s.card for s in steps if s.kind == "trashed"] == ["Program B", "Program A"]


def test_choose_type_needs_the_placeholder():
    from judgebook.engine.errors import ScenarioError
    from judgebook.engine.language.instructions import parse_instruction

    with pytest.raises(ScenarioError):
        parse_instruction({"choose_type": "any", "then": [{"gain_credits": 1}]}, At("t", 1))
    ins = parse_instruction({"choose_type": ["program", "hardware"],
                             "then": [{"trash": {"zone": "hand", "type": "chosen_type", "count": 1}}]}, At("t", 1))
    assert "the chosen type" in ins.render()


def test_world_tree_searches_only_the_trashed_cards_type(cards_root: Path):
    from judgebook.engine.language.revealed import SameTypeAs
    from judgebook.engine.scenario.load import setup

    sc = replays.load_shipped(SCENARIOS / "card-world_tree-1.yaml", LIBRARY, cards_root)
    g = setup(sc)
    ctx = Ctx("World Tree", "runner", chosen=("Spare Hardware",))
    assert [c for c in g.zone("runner.deck") if SameTypeAs("chosen").matches(g, ctx, c)] == ["Big Hardware"]
    kinds = [(s.kind, s.anchor) for s in replays.replayed(sc).steps]
    assert ("search", "rule_find") in kinds and ("shuffle", "rule_shuffle_deck_after_search") in kinds


def test_hyoubu_gains_only_on_the_first_reveal_of_the_turn(cards_root: Path):
    steps = _run("card-hyoubu_institute_absolute_clarity-1", cards_root).steps
    assert [s.kind for s in steps].count("revealed") == 2
    assert [s.ability for s in steps if s.kind == "pending"] == ["gain"]


def test_burner_moves_one_card_to_each_end_of_r_and_d(cards_root: Path):
    steps = _run("card-burner-1", cards_root).steps
    assert [(s.kind, s.anchor) for s in steps if s.kind == "moved"] == [("moved", "rule_object")] * 2


def test_moon_pool_shuffles_r_and_d_with_no_card_shuffled_in(cards_root: Path):
    kinds = [(s.kind, s.anchor) for s in _run("ruling-moon_pool-1", cards_root).steps]
    assert ("shuffle", "rule_draw_procedure") in kinds


def test_set_aside_cards_are_faceup_and_leave_the_set_aside_zone(cards_root: Path):
    for name in ("card-spark_of_inspiration-1", "card-gachapon-1", "card-the_wizards_chest-1", "card-deep_dive-1"):
        out = _run(name, cards_root)
        assert ("set_aside", "rule_set_aside_default_faceup") in [(s.kind, s.anchor) for s in out.steps], name
        assert out.states[-1].zone("set_aside") == (), name


def test_spark_stops_at_the_first_program(cards_root: Path):
    steps = _run("card-spark_of_inspiration-1", cards_root).steps
    assert [s.card for s in steps if s.kind == "set_aside"] == ["Event A", "Hardware B", "Big Program"]


def test_deep_dive_accesses_set_aside_cards_outside_a_breach(cards_root: Path):
    steps = _run("card-deep_dive-1", cards_root).steps
    accessed = [s.card for s in steps if s.kind == "access"]
    assert accessed[-2:] == ["Deep Agenda", "Op 3"]
    assert ("stolen", "step_access_agenda") in [(s.kind, s.anchor) for s in steps]


def test_au_co_one_counter_for_cards_trashed_together(cards_root: Path):
    steps = _run("card-au_co_the_gold_standard_in_clones-1", cards_root).steps
    assert [s.ability for s in steps if s.kind == "pending"] == ["trash"]


def test_buffer_drive_once_per_turn_and_not_from_the_play_area(cards_root: Path):
    steps = _run("card-buffer_drive-1", cards_root).steps
    assert [s.ability for s in steps if s.kind == "pending" and s.card == "Buffer Drive"] == ["buffer"]
    ruling = _run("ruling-buffer_drive-1", cards_root).steps
    assert not [s for s in ruling if s.kind == "pending"]


def test_pretty_mary_only_when_2_accesses_are_allowed(cards_root: Path):
    more = [s.card for s in _run("card-pretty_mary_da_silva-1", cards_root).steps if s.kind == "access"]
    assert more == ["Agenda 1", "Agenda 2", "Agenda 3"]
    one = [s.card for s in _run("card-pretty_mary_da_silva-2", cards_root).steps if s.kind == "access"]
    assert one == ["Agenda 1"]


def test_magdalene_sees_the_discarded_cards_once(cards_root: Path):
    steps = _run("card-magdalene_keino_chemutai_cryptarchitect-1", cards_root).steps
    assert [s.kind for s in steps].count("discard") == 1
    assert ("installed", "rule_installing") in [(s.kind, s.anchor) for s in steps]


def test_khusyuk_sets_aside_as_many_cards_as_installed_cards_with_the_chosen_cost(cards_root: Path):
    steps = _run("card-khusyuk-1", cards_root).steps
    assert [s.card for s in steps if s.kind == "set_aside"] == ["Op 1", "Hidden Agenda"]


def test_the_back_counts_the_first_hardware_use_during_a_run(cards_root: Path):
    steps = _run("card-the_back-2", cards_root).steps
    assert [s.ability for s in steps if s.kind == "pending"] == ["counter"]


def test_complete_image_repeats_after_the_trashed_cards_ability(cards_root: Path):
    steps = _run("ruling-complete_image-1", cards_root).steps
    kinds = [s.kind for s in steps]
    assert kinds.count("repeat") == 2
    # the draw of the trashed card resolves before the Corp names the next card
    names = [i for i, s in enumerate(steps) if s.kind == "choose" and s.anchor == "rule_choice_instruction"]
    assert kinds.index("drawn", kinds.index("repeat")) < names[1]
    assert ("action_phase_ends", "rule_forced_action_phase_end") in [(s.kind, s.anchor) for s in steps]


def test_storgotic_counts_only_the_first_card_of_the_runner_identitys_faction(cards_root: Path):
    steps = _run("card-storgotic_resonator-1", cards_root).steps
    pending = [i for i, s in enumerate(steps) if s.kind == "pending" and s.ability == "counter"]
    trashed = [(i, s.card, s.anchor) for i, s in enumerate(steps) if s.kind == "trashed"]
    damage = "rule_meat_net_damage"
    assert [(c, a) for _, c, a in trashed] == [(c, damage) for c in ("Bravado", "Chastushka", "Finality")]
    assert len(pending) == 1 and trashed[1][0] < pending[0] < trashed[2][0]
    assert not [s for s in _run("card-storgotic_resonator-2", cards_root).steps if s.kind == "pending"]


def test_faction_is_joined_from_netrunnerdb_and_checked(cards_root: Path):
    from judgebook.engine.errors import ScenarioError
    from judgebook.engine.language.nrdb import card_source, parse_with_stats

    source = card_source(cards_root)
    node = {"id": "chastushka", "name": "Chastushka", "abilities": []}
    assert parse_with_stats(node, source, At("t", 1)).faction == "anarch"
    with pytest.raises(ScenarioError, match="faction"):
        parse_with_stats({**node, "faction": "shaper"}, source, At("t", 1))


def test_whistleblower_steals_before_the_corps_access_ability_and_ends_the_access(cards_root: Path):
    steps = _run("ruling-whistleblower-1", cards_root).steps
    kinds = [(s.kind, s.anchor) for s in steps]
    expired = [s for s in steps if s.kind == "expired" and s.card == "Trap Agenda"]
    assert [s.anchor for s in expired] == ["rule_moved_while_accessing"]
    assert ("stolen", "step_access_agenda") in kinds and "damage" not in [k for k, _ in kinds]
    assert not [s for s in steps if s.kind in ("credits_spent", "mid_access")]


def test_whistleblower_steals_once_only_the_named_agenda(cards_root: Path):
    steps = _run("card-whistleblower-1", cards_root).steps
    assert [s.card for s in steps if s.kind == "pending" and s.ability == "steal"] == ["Whistleblower"]
    assert [s.card for s in steps if s.kind == "stolen"] == ["Agenda A", "Agenda B"]


@pytest.mark.parametrize(("name", "used"), [
    ("card-the_back-3", ["May Gear"]), ("card-the_back-4", []), ("card-the_back-5", ["Pantograph"]),
    ("card-the_back-6", ["Credit Gear", "Gadget"]), ("card-the_back-7", ["Choice Gear"]),
])
def test_the_back_sees_every_way_of_using_a_piece_of_hardware(name: str, used: list[str], cards_root: Path):
    steps = _run(name, cards_root).steps
    assert [s.card for s in steps if s.kind == "ability_used"] == used
    counters = [s for s in steps if s.kind == "pending" and s.card == "The Back"]
    assert len(counters) == (1 if used else 0)


def test_an_opponents_choice_inside_an_ability_is_no_use_of_it():
    from judgebook.engine.rules.revealed import used_optionally

    class _G:
        cards = {"Gear": object()}

    g = _G()
    assert used_optionally(g, Ctx("Gear", "runner"), "corp") is g  # type: ignore[arg-type]


def test_storgotic_first_time_counts_cards_trashed_by_damage_and_otherwise_together(cards_root: Path):
    steps = _run("card-storgotic_resonator-3", cards_root).steps
    assert [s.card for s in steps if s.kind == "trashed"] == ["Anarch Den", "Chastushka"]
    assert len([s for s in steps if s.kind == "pending" and s.ability == "counter"]) == 1
