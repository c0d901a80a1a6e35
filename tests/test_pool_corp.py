"""The Standard pool's agendas, assets and Corp identities (rules_source/cards/standard/), their ruling
scenarios and the scenarios exercising the constructs they brought (rules_source/scenarios/standard/).

Definitions state abilities only; statistics come from the NetrunnerDB corpus (`cards_root`). The slice
is computed here from the corpus the way issue 9 defines the pool, not from the definitions. Assertions
are on events, cited anchors and state, never on English wording.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import replays
from corpora import CARDS
from pool_scenarios import kinds_and_rules as _kinds
from pool_scenarios import replay_named as _run
from pool_slices import standard_pool_types
from test_game_verbs import verbs_registered  # noqa: F401  (a fixture: the verbs, registered for this module)

from judgebook.engine.language.cards import library_items, undefined_reason
from judgebook.engine.language.nodes import At, node_line
from judgebook.engine.language.nrdb import card_source, parse_with_stats

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
TYPES = {"agenda", "asset", "corp_identity"}
RULINGS = sorted(SCENARIOS.glob("ruling-*.yaml"))
CORPORA_CARDS = CARDS


def _slice(cards_root: Path) -> set[str]:
    return set(standard_pool_types(cards_root, TYPES))


# Only this slice's scenarios: other slices write theirs into the same folder.
MINE = {"ruling-" + i for i in _slice(CORPORA_CARDS)} if CORPORA_CARDS.is_dir() else set()


def _mine(path: Path) -> bool:
    return re.sub(r"-\d+$", "", path.stem) in MINE


MY_RULINGS = [p for p in RULINGS if _mine(p)]
CONSTRUCTS = sorted(p for p in SCENARIOS.glob("card-*.yaml") if _mine(Path("ruling-" + p.stem[5:])))


def test_slice_has_a_file_per_card(cards_root: Path):
    ids = _slice(cards_root)
    assert len(ids) == 135  # 54 agendas, 55 assets, 26 Corp identities (issue 9's pool, `rotation_2025`)
    files = {p.stem for p in LIBRARY.glob("*.yaml")}
    assert ids <= files


def _status(path: Path, source) -> str:  # type: ignore[no-untyped-def]
    item = library_items(path)[0]
    if undefined_reason(item) is not None:
        return "undefined"
    card = parse_with_stats(item, source, At("card", node_line(item, 1)), str(path))
    assert card.id == path.stem and card.abilities is not None
    return "partial" if card.partial else "defined"


def test_every_definition_loads_with_netrunnerdb_statistics(cards_root: Path):
    source = card_source(cards_root)
    counts = {"defined": 0, "partial": 0, "undefined": 0}
    for i in sorted(_slice(cards_root)):
        counts[_status(LIBRARY / f"{i}.yaml", source)] += 1
    # Counted independently: `grep -l '^undefined:' | wc -l` and `grep -l '^partial:' | wc -l` over the slice.
    # Eminent Domain defined since issue 20 (its ability from HQ: install_and_rez).
    assert counts == {"defined": 134, "partial": 1, "undefined": 0}


def test_undefined_stubs_say_what_the_language_lacks(cards_root: Path):
    for i in _slice(cards_root):
        item = library_items(LIBRARY / f"{i}.yaml")[0]
        reason = undefined_reason(item)
        if reason is not None:
            assert set(item) == {"id", "name", "undefined"} and len(reason.split()) >= 3, i


def test_ruling_scenario_count():
    # `ls rules_source/scenarios/standard/ruling-*.yaml`, this slice's cards only.
    assert len(MY_RULINGS) == 47


@pytest.mark.parametrize("path", MY_RULINGS, ids=[p.stem for p in MY_RULINGS])
def test_ruling_scenario_names_its_ruling(path: Path, cards_root: Path):
    text = path.read_text(encoding="utf-8")
    m = re.search(r'^source: "NetrunnerDB ruling: ([a-z0-9_]+), (\d{4}-\d\d-\d\d), (NSG-verified|not NSG-verified)"$',
                  text, re.M)
    assert m, "source: \"NetrunnerDB ruling: <card_id>, <date_update>, NSG-verified|not NSG-verified\""
    card_id, date, verified = m.groups()
    assert path.stem.startswith(f"ruling-{card_id}-")
    rulings = json.loads((cards_root / "v2" / "rulings" / f"{card_id}.json").read_text(encoding="utf-8"))
    found = [r for r in rulings if r["date_update"] == date]
    assert found, f"no ruling of {date} on {card_id}"
    assert any(r["nsg_rules_team_verified"] is (verified == "NSG-verified") for r in found)


@pytest.mark.parametrize("path", MY_RULINGS + CONSTRUCTS, ids=[p.stem for p in MY_RULINGS + CONSTRUCTS])
def test_scenario_replays_to_its_expectation_or_misses_it_as_stated(path: Path, cards_root: Path):
    r = replays.shipped(path, LIBRARY, cards_root)
    sc, missed = r.sc, r.misses
    if sc.mismatch is None:
        assert missed == []
    else:
        assert missed, "a stale mismatch: the engine now reaches the ruling"


def test_mismatches():
    marked = sorted(p.stem for p in MY_RULINGS if re.search(r"^mismatch:", p.read_text(encoding="utf-8"), re.M))
    assert marked == []


# --- events and cited rules --------------------------------------------------------------------------


def _points(out, kind: str) -> list:  # type: ignore[no-untyped-def]
    return [g.point for g in out.states if g.point is not None and g.point.kind == kind]


def test_can_advance_lets_the_corp_advance_an_unrezzed_asset(cards_root: Path):
    out = _run("ruling-clearinghouse-1", cards_root)
    assert _kinds(out).count(("advanced", "rule_advance")) == 2
    actions = _points(out, "action")
    assert any(o.rule == "corp_basic_action_advance" and o.decision.get("card") == "Clearinghouse"
               for o in actions[0].options)
    assert out.final.cards["Clearinghouse"].count("advancement") == 2 and not out.final.cards["Clearinghouse"].rezzed


def test_an_asset_without_can_advance_cannot_be_advanced(cards_root: Path):
    out = _run("ruling-bladderwort-1", cards_root)       # ends at the Corp's first action
    actions = _points(out, "action")
    assert actions and ("gain_credit" in {o.decision.value for o in actions[-1].options})
    assert not any(o.decision.value == "advance" for o in actions[-1].options)


def test_among_top_offers_only_the_top_cards(cards_root: Path):
    out = _run("ruling-architect_deployment_test-1", cards_root)
    offered = [list(o.decision.value) for o in _points(out, "target")[0].options]
    assert [] in offered and ["Greenmail"] not in offered
    assert sorted(c for o in offered for c in o) == sorted(
        ["Hedge Fund", "Offworld Office", "Nico Campaign", "Refuge Campaign", "Bladderwort"])
    assert ("rezzed", "rule_rez_procedure") in _kinds(out)


def test_among_top_with_a_type_filter(cards_root: Path):
    out = _run("card-poetri_luxury_brands_all_the_rage-1", cards_root)
    offered = [list(o.decision.value) for o in _points(out, "target")[0].options]
    assert offered == [[], ["Refuge Campaign"]]     # Offworld Office is an agenda, Hedge Fund an operation


def test_can_be_advanced_filter(cards_root: Path):
    out = _run("ruling-pravdivost_consulting_political_solutions-1", cards_root)
    offered = [list(o.decision.value) for o in _points(out, "target")[0].options]
    assert offered == [["Chekist Scion"]]
    assert ("counters", "rule_placing_advancement_counter") in _kinds(out)


def test_advancement_requirement_static(cards_root: Path):
    scored = _run("card-freedom_of_information-1", cards_root)
    refused = _run("card-freedom_of_information-2", cards_root)
    assert ("scored", "rule_paid_ability_window_corp_score") in _kinds(scored)
    assert refused.error is not None and refused.error.rule == "rule_advancement_requirement"


def test_dividends_read_the_counters_as_scoring_began(cards_root: Path):
    out = _run("card-sericulture_expansion-1", cards_root)
    placed = [s for s in out.steps if s.kind == "counters" and s.card is None]
    assert ("scored", "rule_paid_ability_window_corp_score") in _kinds(out)
    assert out.final.cards["Sericulture Expansion"].count("agenda") == 1    # 2 placed, 1 spent at turn end
    assert out.final.cards["Offworld Office"].count("advancement") == 2
    assert len(placed) >= 3


def test_a_card_moved_while_accessed_is_no_longer_accessed(cards_root: Path):
    out = _run("ruling-nbn_reality_plus-4", cards_root)
    kinds = _kinds(out)
    assert ("access_ends", "rule_moved_while_accessing") in kinds
    assert not _points(out, "trash")
    assert out.final.cards["Snare!"].zone == "corp.hand"


def test_an_unrezzed_asset_trashed_does_not_trigger(cards_root: Path):
    unrezzed = _run("ruling-calvin_b4l3y-1", cards_root)
    rezzed = _run("ruling-calvin_b4l3y-2", cards_root)
    assert ("trashed", "rule_trashing") in _kinds(unrezzed)
    assert not [s for s in unrezzed.steps if s.kind == "pending"]
    assert [s.card for s in rezzed.steps if s.kind == "pending"] == ["Calvin B4L3Y"]


def test_choosing_none_of_an_up_to_selection(cards_root: Path):
    out = _run("ruling-longevity_serum-1", cards_root)
    first = _points(out, "target")[0]
    assert first.rule == "rule_instruction_target" and [] in [list(o.decision.value) for o in first.options]
    resolves = [s.card for s in out.steps if s.kind == "resolve"]
    assert resolves == ["Longevity Serum", "Spoilers"]


def test_urtica_cipher_damage_is_one_occurrence(cards_root: Path):
    out = _run("ruling-urtica_cipher-3", cards_root)
    damage = [s for s in out.steps if s.kind == "damage"]
    assert len(damage) == 1 and damage[0].anchor == "rule_meat_net_damage"
    assert [s.kind for s in out.steps].count("would_damage") == 1


def test_discarded_cards_go_to_archives_facedown(cards_root: Path):
    out = _run("ruling-jinteki_restoring_humanity-1", cards_root)
    discarded = [c for c in out.final.zone("corp.discard")]
    assert len(discarded) == 1 and not out.final.cards[discarded[0]].faceup
    assert ("discard", "rule_discarding_process") in _kinds(out)


def test_bladderwort_copies_resolve_one_at_a_time(cards_root: Path):
    out = _run("ruling-bladderwort-2", cards_root)
    kinds = [(s.kind, s.card) for s in out.steps if s.kind in ("resolve", "damage", "credits")]
    assert kinds == [("resolve", "Bladderwort"), ("credits", None), ("damage", None),
                     ("resolve", "Bladderwort#2"), ("credits", None)]


def test_once_per_turn_conditional_ability_triggers_once(cards_root: Path):
    out = _run("ruling-ob_superheavy_logistics_extract_export_excel-1", cards_root)
    ob = "Ob Superheavy Logistics: Extract. Export. Excel."
    assert [s.card for s in out.steps if s.kind == "resolve"].count(ob) == 1
    assert [s.card for s in out.steps if s.kind == "pending"].count(ob) == 1     # not again after Bass's trash
    assert [s.anchor for s in out.steps if s.kind == "shuffle"] == ["rule_draw_procedure"]   # the failed search
    assert [s.card for s in out.steps if s.kind == "trashed"] == ["Calvin B4L3Y", "Bass CH1R180G4"]


def test_rez_cost_filter_finds_one_less(cards_root: Path):
    out = _run("ruling-ob_superheavy_logistics_extract_export_excel-3", cards_root)
    kinds = [s.kind for s in out.steps]
    assert kinds.index("search") < kinds.index("shuffle") < kinds.index("installed") < kinds.index("rezzed")
    assert kinds.index("rezzed") < kinds.index("drawn")
    assert ("shuffle", "rule_shuffle_deck_after_search") in _kinds(out)


def test_rez_cost_filter_never_finds_an_agenda(cards_root: Path):
    out = _run("ruling-ob_superheavy_logistics_extract_export_excel-4", cards_root)
    search = _points(out, "search")[0]
    assert [list(o.decision.value) for o in search.options] == [[]]
    assert ("found_nothing", "rule_continue_after_search") in _kinds(out)


def test_a_card_installed_in_a_reaction_window_does_not_join_it(cards_root: Path):
    out = _run("ruling-ob_superheavy_logistics_extract_export_excel-2", cards_root)
    assert "Rashida Jaheem" not in [s.card for s in out.steps if s.kind == "pending"]
    assert ("rezzed", "rule_rez_procedure") in _kinds(out)


def test_forfeit_cost(cards_root: Path):
    out = _run("card-false_lead-1", cards_root)
    assert ("forfeited", "rule_forfeit_rfg") in _kinds(out)
    assert out.final.cards["False Lead"].zone == "corp.removed" and out.final.runner.clicks == 1


def test_forfeit_in_a_nested_cost(cards_root: Path):
    out = _run("ruling-divested_trust-2", cards_root)
    kinds = [s.kind for s in out.steps]
    assert kinds.index("stolen") < kinds.index("forfeited") < kinds.index("moved")
    assert out.final.cards["Offworld Office"].zone == "corp.hand"


def test_the_seventh_point_wins_before_a_pending_ability(cards_root: Path):
    out = _run("ruling-divested_trust-1", cards_root)
    assert out.final.winner == "runner"
    assert "forfeited" not in [s.kind for s in out.steps]


def test_remove_from_game_cost(cards_root: Path):
    out = _run("ruling-spin_doctor-1", cards_root)
    kinds = _kinds(out)
    assert ("removed", "rule_rfg_move") in kinds and ("shuffle", "rule_draw_procedure") in kinds
    assert out.final.cards["Spin Doctor"].zone == "corp.removed"


def test_remove_tags_cost(cards_root: Path):
    out = _run("card-b_1001-1", cards_root)
    assert ("tags_removed", "rule_remove_tags_or_bad_publicity_as_cost") in _kinds(out)
    assert out.final.runner.tags == 0


def test_a_use_restriction_on_the_attacked_server(cards_root: Path):
    out = _run("card-b_1001-2", cards_root)
    refused = [r for g in out.states if g.point is not None for r in g.point.refused
               if r.decision.value == "B-1001"]
    assert refused and {r.rule for r in refused} == {"rule_use_restriction"}


def test_turn_of_condition(cards_root: Path):
    corp = _run("card-drago_ivanov-1", cards_root)
    runner = _run("card-drago_ivanov-2", cards_root)
    assert ("tags_taken", "rule_tag") in _kinds(corp)
    assert runner.error is not None and runner.error.rule == "rule_use_restriction"


def test_remove_bad_publicity(cards_root: Path):
    out = _run("card-roughneck_repair_squad-1", cards_root)
    assert ("bad_publicity", "rule_do_as_much_as_you_can") in _kinds(out)
    assert out.final.corp.bad_publicity == 1


def test_score_area_filter(cards_root: Path):
    other = _run("ruling-sting-1", cards_root)
    same = _run("ruling-sting-2", cards_root)
    amounts = [[s.text for s in out.steps if s.kind == "would_damage"] for out in (other, same)]
    assert [len(a) for a in amounts] == [1, 1]
    assert len(other.final.zone("runner.hand")) == 1 and len(same.final.zone("runner.hand")) == 2


def test_purge_event(cards_root: Path):
    out = _run("ruling-cyberdex_sandbox-1", cards_root)
    kinds = _kinds(out)
    assert ("purge", "rule_purge") in kinds
    assert [s.card for s in out.steps if s.kind == "resolve"] == ["Cyberdex Sandbox"]


def test_allotted_clicks_static(cards_root: Path):
    out = _run("card-aggressive_trendsetting-1", cards_root)
    assert len([s for s in out.steps if s.anchor == "step_corp_turn_allotted_clicks"]) == 1
    assert max(g.corp.clicks for g in out.states if g.active == "corp") == 4
    assert ("lasting", "rule_lingering_effect") in _kinds(out)


def test_tags_removed_event(cards_root: Path):
    out = _run("card-synapse_global_faster_than_thought-1", cards_root)
    kinds = [s.kind for s in out.steps]
    assert ("tags_removed", "rule_remove_tags_or_bad_publicity_as_cost") in _kinds(out)
    assert kinds.index("tags_removed") < kinds.index("reveal") < kinds.index("installed")


def test_cost_at_most_filter(cards_root: Path):
    out = _run("card-kimberlite_field-1", cards_root)
    offered = [[list(o.decision.value) for o in p.options] for p in _points(out, "target")]
    assert offered[-1] == [["Cheap Tool"]]       # Dear Tool costs 4, more than Public Health Portal's 3
    assert [s.card for s in out.steps if s.kind == "trashed"] == ["Public Health Portal", "Cheap Tool"]


def test_this_turn_condition(cards_root: Path):
    now = _run("card-vulnerability_audit-1", cards_root)
    before = _run("card-vulnerability_audit-2", cards_root)
    assert now.error is not None and now.error.rule == "rule_cannot_precedence"
    assert ("scored", "rule_paid_ability_window_corp_score") in _kinds(before)


def test_an_action_usable_in_the_runners_score_area(cards_root: Path):
    out = _run("card-oracle_thinktank-1", cards_root)
    assert ("tags_removed", "rule_remove_tags_or_bad_publicity_as_cost") in _kinds(out)
    assert ("action", "rule_action") in _kinds(out)
    assert out.final.cards["Oracle Thinktank"].zone == "corp.deck"
    nbt = _run("card-next_big_thing-1", cards_root)
    assert ("drawn", "rule_draw_procedure") in _kinds(nbt)


def test_the_runner_cannot_use_a_corp_agenda_they_stole(cards_root: Path):
    out = _run("ruling-sting-1", cards_root)    # the Runner's stolen Sting! is the Corp's card
    assert out.states[0].cards["Sting!"].owner == "corp"


def test_the_chosen_card_of_a_lasting_effect(cards_root: Path):
    out = _run("card-warm_reception-1", cards_root)
    assert ("lasting", "rule_lingering_effect") in _kinds(out)
    assert out.error is not None and out.error.rule == "rule_cannot_precedence"


def test_first_this_turn_counts_only_events_passing_the_other_filters(cards_root: Path):
    out = _run("card-hostile_architecture-1", cards_root)
    trashed = [s.card for s in out.steps if s.kind == "trashed" and s.anchor == "rule_trashing"]
    assert trashed == ["Refuge Campaign", "Nico Campaign"]
    assert [s.card for s in out.steps if s.kind == "pending"] == ["Hostile Architecture"]
    assert [s.kind for s in out.steps].count("damage") == 1


def test_agenda_points_at_most_filter(cards_root: Path):
    out = _run("card-kingmaking-1", cards_root)
    offered = [list(o.decision.value) for o in _points(out, "target")[-1].options]
    assert offered == [[], ["Greenmail"]]         # Offworld Office is worth 2
    assert ("add_to_score", "rule_add_agenda_to_score_area") in _kinds(out)


def test_turn_faceup(cards_root: Path):
    out = _run("card-cohort_guidance_program-1", cards_root)
    assert ("turn_faceup", "rule_archives_faceup_facedown") in _kinds(out)
    assert out.final.cards["Greenmail"].faceup


def test_cannot_discard(cards_root: Path):
    out = _run("ruling-midnight_3_arcology-1", cards_root)
    assert ("cannot_discard", "rule_cannot_precedence") in _kinds(out)
    assert "discard" not in [s.kind for s in out.steps]


def test_first_score_or_steal_of_the_turn(cards_root: Path):
    out = _run("card-phat_gioan_baotixita-1", cards_root)
    assert [s.card for s in out.steps if s.kind == "resolve"].count("Phật Gioan Baotixita") == 1
    assert [s.kind for s in out.steps].count("damage") == 1


def test_choose_card_remembers_a_rezzed_bioroid(cards_root: Path):
    out = _run("card-trieste_model_bioroids-1", cards_root)
    offered = [list(o.decision.value) for o in _points(out, "target")[0].options]
    assert offered == [["Bio Wall"]]             # Plain Wall is no bioroid
    assert out.final.cards["Trieste Model Bioroids"].chosen == "Bio Wall"
    assert ("chosen", "rule_lingering_effect_maintaining_choice_duration_other_cases") in _kinds(out)


def test_cannot_break_the_chosen_ice_after_a_derez_and_rez(cards_root: Path):
    out = _run("ruling-trieste_model_bioroids-1", cards_root)
    refused = [r for g in out.states if g.point is not None for r in g.point.refused
               if r.decision.value == "Test Breaker"]
    assert "rule_cannot_precedence" in {r.rule for r in refused}
    assert ("end_the_run", "rule_end_the_run") in _kinds(out)


def test_a_derezzed_card_keeps_no_choice(cards_root: Path):
    out = _run("ruling-trieste_model_bioroids-2", cards_root)
    assert out.final.cards["Trieste Model Bioroids"].chosen is None
    assert [s.kind for s in out.steps].count("subroutine_broken") == 1


def test_first_pass_of_a_rezzed_code_gate_or_sentry(cards_root: Path):
    out = _run("card-sisyphus_protocol-1", cards_root)
    assert [s.kind for s in out.steps].count("pass_ice") == 2           # the extra encounter is not passed again
    assert [s.card for s in out.steps if s.kind == "pending"] == ["Sisyphus Protocol"]
    assert [s.card for s in out.steps if s.kind == "encounter_ice"] == ["Test Sentry"] * 3


def test_agenda_points_static(cards_root: Path):
    from judgebook.engine.rules.values import agenda_points

    out = _run("ruling-megaprix_qualifier-1", cards_root)
    assert agenda_points(out.final, "corp") == 2 and agenda_points(out.final, "runner") == 1
    scored = _run("card-megaprix_qualifier-1", cards_root)
    assert ("counters", "rule_bank_default") in _kinds(scored)  # agenda counters, from the bank
    assert agenda_points(scored.final, "corp") == 2


def test_installed_from_anywhere_but_hq(cards_root: Path):
    from_rnd = _run("card-stoke_the_embers-1", cards_root)
    from_hq = _run("card-stoke_the_embers-2", cards_root)
    assert ("reveal", "rule_reveal") in _kinds(from_rnd)
    assert not from_rnd.final.cards["Stoke the Embers"].rezzed          # an agenda is never rezzed
    assert "pending" not in [s.kind for s in from_hq.steps]


def test_last_known_counters_of_a_trashed_card(cards_root: Path):
    out = _run("card-clearinghouse-1", cards_root)
    kinds = [s.kind for s in out.steps]
    assert kinds.index("trashed") < kinds.index("damage")             # trashed first, then 2 meat damage
    assert out.final.cards["Clearinghouse"].count("advancement") == 0   # the new object in Archives has none
    assert out.final.corp.credits == 9


def test_a_run_that_cannot_be_declared_successful(cards_root: Path):
    out = _run("ruling-transport_monopoly-1", cards_root)
    kinds = _kinds(out)
    assert ("not_successful", "rule_cannot_precedence") in kinds
    assert "successful_run" not in [k for k, _ in kinds] and "run_unsuccessful" not in [k for k, _ in kinds]
    assert ("breach", "step_breaching_begins") in kinds
