"""The Standard pool's operations, events and Runner identities (rules_source/cards/standard/), their
ruling scenarios (rules_source/scenarios/standard/ruling-<card>-<n>.yaml) and the language constructs
added for them, each exercised by a small scenario asserting events and cited rules.

Pool membership is read from NetrunnerDB's files here (not from the code under test); statistics come
from NetrunnerDB when the definitions load.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import replays
from pool_slices import standard_pool_types
from test_game_verbs import verbs_registered  # noqa: F401  (a fixture: the verbs, registered for this module)

from judgebook.engine.driver.script import Outcome, replay
from judgebook.engine.language.cards import library_items, undefined_reason
from judgebook.engine.language.nodes import At, node_line
from judgebook.engine.language.nrdb import card_source, parse_with_stats
from judgebook.engine.scenario.load import parse_scenario

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
TYPES = {"operation", "event", "runner_identity"}


def _slice(cards_root: Path) -> dict[str, str]:
    """Card id -> type of this slice of rotation_2025, read from NetrunnerDB's pool, sets and printings."""
    return standard_pool_types(cards_root, TYPES)


def _definitions(cards_root: Path) -> dict[str, object]:
    """Every definition file of the slice parsed with NetrunnerDB statistics (None for an undefined stub)."""
    source = card_source(cards_root)
    out: dict[str, object] = {}
    for card_id in _slice(cards_root):
        file = LIBRARY / f"{card_id}.yaml"
        item = library_items(file)[0]
        out[card_id] = (
            None if undefined_reason(item) is not None
            else parse_with_stats(item, source, At("card", node_line(item, 1)), str(file))
        )
    return out


def test_the_slice_is_the_pools_operations_events_and_runner_identities(cards_root: Path):
    types = _slice(cards_root)
    # The counts for rotation_2025: 55 operations, 56 events, 20 Runner identities.
    assert sorted((t, list(types.values()).count(t)) for t in TYPES) == [
        ("event", 56), ("operation", 55), ("runner_identity", 20)]


def test_every_card_of_the_slice_has_a_definition_file_keyed_by_its_id(cards_root: Path):
    for card_id in _slice(cards_root):
        item = library_items(LIBRARY / f"{card_id}.yaml")[0]
        assert item["id"] == card_id


def test_every_definition_loads_with_netrunnerdb_statistics(cards_root: Path):
    defs = _definitions(cards_root)
    types = _slice(cards_root)
    for card_id, card in defs.items():
        if card is None:
            continue
        # Statistics joined from NetrunnerDB: the definitions state none of these.
        want = "identity" if types[card_id] == "runner_identity" else types[card_id]
        assert card.type == want, card_id  # type: ignore[attr-defined]
        assert card.side == ("corp" if want == "operation" else "runner"), card_id  # type: ignore[attr-defined]
        assert card.text, card_id  # type: ignore[attr-defined]


def test_coverage_of_the_slice(cards_root: Path):
    defs = _definitions(cards_root)
    defined = [i for i, c in defs.items() if c is not None and not c.partial]  # type: ignore[attr-defined]
    partial = [i for i, c in defs.items() if c is not None and c.partial]  # type: ignore[attr-defined]
    undefined = [i for i, c in defs.items() if c is None]
    # Counted with `grep -L "partial:\|undefined:"` and `grep -l ...` over the slice's files.
    assert (len(defined), len(partial), len(undefined)) == (128, 0, 3)


# --- ruling scenarios ---------------------------------------------------------------------------

RULINGS = sorted(SCENARIOS.glob("ruling-*.yaml"))
MINE = [p for p in RULINGS if p.stem.removeprefix("ruling-").rsplit("-", 1)[0] in {
    "running_hot", "creative_commission", "vrcation", "wildcat_strike", "hansei_review", "steelskin_scarring",
    "predictive_planogram", "esa_afontov_eco_insurrectionist", "captain_padma_isbister_intrepid_explorer",
    "into_the_depths", "rigging_up", "bravado", "jailbreak", "carpe_diem", "nyusha_sable_sintashta_symphonic_prodigy",
    "mitosis", "sync_rerouting", "digital_rights_management", "moshing", "harmony_ar_therapy", "overclock",
    "chastushka", "seamless_launch", "napd_cordon", "big_deal", "lat_ethical_freelancer", "next_activation_command"}]


def test_ruling_scenario_count():
    # `ls rules_source/scenarios/standard/ruling-*` for this slice's cards: 42.
    assert len(MINE) == 42


@pytest.mark.parametrize("path", MINE, ids=[p.stem for p in MINE])
def test_ruling_scenario_replays_to_the_ruling_or_carries_its_mismatch(path: Path, cards_root: Path):
    r = replays.shipped(path, LIBRARY, cards_root)
    sc, diffs = r.sc, r.misses
    if sc.mismatch is None:
        assert diffs == []
    else:
        assert diffs, "a known mismatch that now meets the ruling is stale: remove `mismatch`"


@pytest.mark.parametrize("path", MINE, ids=[p.stem for p in MINE])
def test_ruling_source_names_the_ruling(path: Path, cards_root: Path):
    sc_text = path.read_text(encoding="utf-8")
    card_id = path.stem.removeprefix("ruling-").rsplit("-", 1)[0]
    rulings = json.loads((cards_root / "v2" / "rulings" / f"{card_id}.json").read_text(encoding="utf-8"))
    n = int(path.stem.rsplit("-", 1)[1])
    ruling = rulings[n - 1]
    verified = "NSG-verified" if ruling["nsg_rules_team_verified"] else "not NSG-verified"
    assert f'source: "NetrunnerDB ruling: {card_id}, {ruling["date_update"]}, {verified}"' in sc_text


# --- the constructs added for this slice -----------------------------------------------------------


def _play(text: str, cards_root: Path) -> Outcome:
    sc = parse_scenario(text, "test", LIBRARY, cards_root)
    return replay(sc)


def _anchors(out: Outcome) -> list[str]:
    return [s.anchor for s in out.steps]


def _kinds(out: Outcome) -> list[str]:
    return [s.kind for s in out.steps]


def test_play_restriction_refuses_the_play_citing_the_restriction(cards_root: Path):
    # Retribution: play only if the Runner is tagged.
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {hand: [Retribution]}
decisions: [{action: play, card: Retribution}]
""", cards_root)
    assert out.error is not None and out.error.rule == "rule_act_restriction"


def test_events_last_turn_reads_the_runners_previous_turn(cards_root: Path):
    # Public Trail: play only if the Runner made a successful run during their last turn. The Runner runs
    # HQ, ends the turn; on the Corp's turn the restriction is met and the Runner declines to pay.
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 10, clicks: 1}
corp: {credits: 5, hand: [Public Trail], deck: [Hedge Fund, Hedge Fund]}
decisions:
  - {action: run, server: HQ}
  - {action: play, card: Public Trail, player: corp}
  - {pay: false, player: runner}
""", cards_root)
    assert out.error is None
    assert _kinds(out).count("tags_taken") == 1 and out.final.runner.tags == 1


def test_public_trail_is_refused_when_the_runners_last_turn_had_no_successful_run(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 10, clicks: 1}
corp: {credits: 5, hand: [Public Trail], deck: [Hedge Fund, Hedge Fund]}
decisions:
  - {action: draw}
  - {action: play, card: Public Trail, player: corp}
""", cards_root)
    assert out.error is not None and out.error.rule == "rule_act_restriction"


def test_terminal_operation_ends_the_action_phase(cards_root: Path):
    # Oppo Research after the Runner stole an agenda: 2 tags, then the Corp's action phase ends with 2
    # clicks left; a further action is not offered.
    out = _play("""
title: t
card_defs:
  - {name: Hostile Takeover, abilities: []}
start: {turn: runner, at: action_phase}
runner: {credits: 10, clicks: 1}
corp: {credits: 5, hand: [Hostile Takeover, Oppo Research], deck: [Hedge Fund, Hedge Fund]}
decisions:
  - {action: run, server: HQ, note: "the random card of HQ is the first: Hostile Takeover, stolen"}
  - {action: play, card: Oppo Research, player: corp}
  - {action: gain_credit, player: corp}
""", cards_root)
    assert "rule_forced_action_phase_end" in _anchors(out)
    assert out.final.runner.tags == 2
    assert out.error is not None  # the gain-credit action never fits: the action phase is over


def test_end_action_phase_outside_the_action_phase_does_nothing(cards_root: Path):
    out = _play("""
title: t
card_defs:
  - name: Test Terminal
    side: corp
    type: asset
    abilities: [{id: a, trigger: turn_ends, condition: {player: corp}, effects: [end_action_phase]}]
start: {turn: corp, at: action_phase}
corp: {clicks: 0, servers: {Server 1: {root: [{card: Test Terminal, rezzed: true}]}}}
""", cards_root)
    assert "rule_end_action_phase_outside_action_phase" in _anchors(out)


def test_lockdown_stays_in_the_play_area_until_the_corps_next_turn(cards_root: Path):
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, clicks: 1, hand: [SYNC Rerouting], deck: [Hedge Fund, Hedge Fund]}
runner: {credits: 10}
decisions:
  - {action: play, card: SYNC Rerouting}
  - {action: draw, player: runner}
  - {action: draw, player: runner}
  - {action: draw, player: runner}
  - {action: draw, player: runner}
  - {action: gain_credit, player: corp}
""", cards_root)
    anchors = _anchors(out)
    assert anchors.count("rule_play_not_trashed_until") == 2  # stays once played, trashed as the turn begins
    assert out.final.cards["SYNC Rerouting"].zone == "corp.discard"


def test_a_second_lockdown_cannot_be_played_while_one_is_active(cards_root: Path):
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [SYNC Rerouting, Argus Crackdown]}
decisions:
  - {action: play, card: SYNC Rerouting}
  - {action: play, card: Argus Crackdown}
""", cards_root)
    assert out.error is not None and out.error.rule == "rule_act_restriction"


def test_lockdown_ability_is_active_in_the_play_area(cards_root: Path):
    # Argus Crackdown: a successful run on a server protected by ice does 2 meat damage.
    out = _play("""
title: t
card_defs:
  - {name: Ice Wall, subroutines: [[end_the_run]]}
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  clicks: 1
  hand: [Argus Crackdown]
  deck: [Hedge Fund]
  servers: {HQ: {ice: [Ice Wall]}}
runner: {credits: 5, hand: [Sure Gamble, Sure Gamble, Sure Gamble]}
decisions:
  - {action: play, card: Argus Crackdown}
  - {action: run, server: HQ, player: runner}
""", cards_root)
    resolved = [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]
    assert "Argus Crackdown:meat-damage" in resolved and "rule_meat_net_damage" in _anchors(out)
    assert len(out.final.zone("runner.hand")) == 1


def test_allotted_clicks_lowered_for_the_runners_next_turn(cards_root: Path):
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, clicks: 1, hand: [Hypoxia]}
runner: {tags: 1, hand: [Sure Gamble]}
decisions:
  - {action: play, card: Hypoxia}
""", cards_root)
    gained = [s for s in out.steps if s.kind == "clicks" and s.player == "runner"]
    assert gained and gained[0].anchor == "step_runner_turn_allotted_clicks"
    assert out.final.runner.clicks == 3 and out.final.runner.core_damage == 1
    assert "rule_rfg_move" in _anchors(out) and out.final.cards["Hypoxia"].zone == "corp.removed"


def test_choose_count_resolves_different_options_one_after_the_other(cards_root: Path):
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [Red Level Clearance], deck: [Hedge Fund, Hedge Fund]}
decisions:
  - {action: play, card: Red Level Clearance}
  - {choose: 4}
  - {choose: 4}
""", cards_root)
    assert out.error is not None and out.error.rule == "rule_choice_instruction"  # option 4 cannot come twice
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [Red Level Clearance], deck: [Hedge Fund, Hedge Fund]}
decisions:
  - {action: play, card: Red Level Clearance}
  - {choose: 4}
  - {choose: 2}
""", cards_root)
    assert [s.anchor for s in out.steps if s.kind == "choose"] == ["rule_choice_instruction"] * 2
    assert out.final.corp.clicks == 3 and out.final.corp.credits == 6  # 5 - 1 (play cost) + 2


def test_from_zone_tells_a_trash_from_the_grip(cards_root: Path):
    # Strike Fund trashed from the grip by Mindscaping's net damage: it may gain 2[c].
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {hand: [Mindscaping]}
runner: {credits: 0, tags: 1, hand: [Strike Fund]}
decisions:
  - {action: play, card: Mindscaping}
  - {choose: 2}
""", cards_root)
    resolved = [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]
    assert "Strike Fund:trashed-from-grip-or-stack" in resolved
    assert out.final.runner.credits == 2 and out.final.winner is None


def test_from_zone_leaves_out_the_play_area(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 1, hand: [Strike Fund]}
decisions: [{action: play, card: Strike Fund}]
""", cards_root)
    assert out.final.runner.credits == 4 and out.final.cards["Strike Fund"].zone == "runner.discard"
    assert "Strike Fund:trashed-from-grip-or-stack" not in [f"{s.card}:{s.ability}" for s in out.steps]


def test_remove_tags_cost_cannot_be_paid_without_tags(cards_root: Path):
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {hand: [End of the Line]}
decisions: [{action: play, card: End of the Line}]
""", cards_root)
    assert out.error is not None and out.error.rule == "rule_cost"


def test_sabotage_trashes_facedown(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
corp: {hand: [Hedge Fund, Hedge Fund], deck: [Hedge Fund]}
runner:
  identity: "Esâ Afontov: Eco-Insurrectionist"
  credits: 5
  hand: [Running Hot, Sure Gamble]
decisions:
  - {action: play, card: Running Hot}
  - {target: [Hedge Fund, Hedge Fund#2], player: corp}
""", cards_root)
    anchors = _anchors(out)
    assert "rule_sabotage_resolution" in anchors and "rule_sabotage_facedown" in anchors
    assert not any(out.final.cards[c].faceup for c in out.final.zone("corp.discard"))
    assert len(out.final.zone("corp.discard")) == 2 and len(out.final.zone("corp.deck")) == 1


def test_identify_mark_and_run_on_it(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Carpe Diem, Carpe Diem]}
decisions:
  - {action: play, card: Carpe Diem}
  - {target: Archives}
  - {choose: 2}
  - {action: play, card: Carpe Diem#2}
  - {choose: 1}
""", cards_root)
    anchors = _anchors(out)
    assert "rule_mark_designation_lingering_effect" in anchors and "rule_mark_already_identified" in anchors
    runs = [s for s in out.steps if s.kind == "run_begins"]
    assert len(runs) == 1 and "Archives" in runs[0].text


def test_run_among_servers_offers_only_those(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Jailbreak]}
decisions:
  - {action: play, card: Jailbreak}
  - {target: Archives}
""", cards_root)
    assert out.error is not None  # Archives is not among HQ and R&D


def test_first_run_on_rnd_this_turn_with_event_filters(cards_root: Path):
    # Captain Padma: a run on HQ first, then R&D: the R&D run is still the first on R&D this turn.
    out = _play("""
title: t
card_defs:
  - {name: Hyperbaric, abilities: []}
start: {turn: runner, at: action_phase}
runner:
  identity: "Captain Padma Isbister: Intrepid Explorer"
  installed: [{card: Hyperbaric, counters: {power: 1}}]
decisions:
  - {action: run, server: HQ}
  - {action: run, server: R&D}
  - {target: Hyperbaric}
  - {action: run, server: R&D}
""", cards_root)
    assert out.final.cards["Hyperbaric"].count("power") == 2


def test_costs_are_paid_with_the_card_in_the_play_area(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Finality, Sure Gamble]}
decisions: [{action: play, card: Finality}]
""", cards_root)
    placed = out.steps.index(next(s for s in out.steps if s.kind == "damage"))
    played = out.steps.index(next(s for s in out.steps if s.kind == "played"))
    assert placed < played and out.final.cards["Sure Gamble"].zone == "runner.discard"


def test_instead_of_breaching_replaces_the_breach(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
corp: {hand: [Hedge Fund, Hedge Fund], deck: [Sprint, Sprint]}
runner: {credits: 5, hand: [Chastushka]}
decisions:
  - {action: play, card: Chastushka}
  - {target: [Hedge Fund, Hedge Fund#2], player: corp}
""", cards_root)
    kinds = _kinds(out)
    assert "rule_if_successful_lingering_effect" in _anchors(out)
    assert "successful_run" in kinds and "breach" not in kinds and "access" not in kinds
    assert len(out.final.zone("corp.discard")) == 4


def test_install_then_acts_on_each_installed_card(cards_root: Path):
    out = _play("""
title: t
card_defs:
  - {name: PAD Campaign, abilities: []}
  - {name: Hostile Takeover, abilities: []}
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [Mitosis, PAD Campaign, Hostile Takeover]}
decisions:
  - {action: play, card: Mitosis}
  - {target: [PAD Campaign, Hostile Takeover]}
  - {score: Hostile Takeover}
""", cards_root)
    g = out.final
    assert g.cards["PAD Campaign"].count("advancement") == 2 and g.cards["Hostile Takeover"].count("advancement") == 2
    assert g.cards["PAD Campaign"].zone != g.cards["Hostile Takeover"].zone  # a new remote server each
    assert out.error is not None  # scoring "that card" is forbidden this turn


def test_is_filter_tests_the_chosen_card(cards_root: Path):
    # Rigging Up installs a card with no power counter: there is nothing to charge, so no choice is offered.
    out = _play("""
title: t
card_defs:
  - {name: Docklands Pass, abilities: []}
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Rigging Up, Docklands Pass]}
decisions:
  - {action: play, card: Rigging Up}
""", cards_root)
    assert out.final.cards["Docklands Pass"].zone == "runner.rig"
    assert "choose" not in _kinds(out) and out.error is None


def test_trash_cost_is_chosen_and_paid_before_the_play_resolves(cards_root: Path):
    out = _play("""
title: t
card_defs:
  - {name: Daily Casts, abilities: []}
  - {name: Liberated Account, abilities: []}
start: {turn: runner, at: action_phase}
runner: {credits: 2, hand: [Isolation], installed: [Daily Casts, Liberated Account]}
decisions:
  - {action: play, card: Isolation}
  - {target: [Liberated Account]}
""", cards_root)
    trashed = next(s for s in out.steps if s.kind == "trashed")
    resolved = next(s for s in out.steps if s.kind == "resolve")
    assert out.steps.index(trashed) < out.steps.index(resolved) and trashed.card == "Liberated Account"
    assert out.final.runner.credits == 7 and out.final.cards["Daily Casts"].zone == "runner.rig"  # 2 - 2 + 7


def test_trash_cost_refused_without_the_cards(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Spec Work]}
decisions: [{action: play, card: Spec Work}]
""", cards_root)
    assert out.error is not None and out.error.rule == "rule_cost"


def test_a_cost_trashes_other_cards_through_a_selector_only(cards_root: Path):
    # A paid ability's cost may trash cards the payer chooses (round 3, family costs); a bare reference is not
    # a choice and is refused.
    from judgebook.engine.errors import ScenarioError

    with pytest.raises(ScenarioError, match="selector finds"):
        parse_scenario("""
title: t
card_defs:
  - name: X
    side: runner
    type: resource
    abilities: [{id: a, cost: {trash: target}, effects: [{draw: 1}]}]
start: {turn: runner, at: action_phase}
""", "test", LIBRARY, cards_root)


def test_additional_cost_to_steal_reads_the_accessed_agenda(cards_root: Path):
    # NAPD Cordon: 4[c] plus 2[c] per advancement counter on the agenda (2 counters: 8[c]).
    out = _play("""
title: t
card_defs:
  - {name: Hostile Takeover, abilities: []}
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  clicks: 1
  hand: [NAPD Cordon]
  servers: {Server 1: {root: [{card: Hostile Takeover, counters: {advancement: 2}}]}}
runner: {credits: 10}
decisions:
  - {action: play, card: NAPD Cordon}
  - {action: run, server: Server 1, player: runner}
  - {pay: true, player: runner}
""", cards_root)
    assert out.final.runner.credits == 2 and out.final.cards["Hostile Takeover"].zone == "runner.score"


def test_run_on_a_server_protected_by_ice(cards_root: Path):
    out = _play("""
title: t
card_defs:
  - {name: Ice Wall, subroutines: [[end_the_run]]}
start: {turn: runner, at: action_phase}
corp: {servers: {HQ: {ice: [Ice Wall]}}}
runner: {credits: 5, hand: [Bravado]}
decisions:
  - {action: play, card: Bravado}
  - {target: R&D}
""", cards_root)
    assert out.error is not None  # R&D is not protected by ice: not offered


def test_priority_restriction_after_a_click_was_spent(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [In the Groove], deck: [Sure Gamble]}
decisions:
  - {action: draw}
  - {action: play, card: In the Groove}
""", cards_root)
    assert out.error is not None and out.error.rule == "rule_act_restriction"


def test_trashed_filter_on_the_accessed_card(cards_root: Path):
    # René "Loup" Arcemont: trashing the accessed card gains 1[c] and draws 1 card.
    out = _play("""
title: t
card_defs:
  - {name: PAD Campaign, abilities: []}
start: {turn: runner, at: action_phase}
corp: {servers: {Server 1: {root: [PAD Campaign]}}}
runner:
  identity: "René “Loup” Arcemont: Party Animal"
  credits: 10
  deck: [Sure Gamble]
decisions:
  - {action: run, server: Server 1}
  - {trash: PAD Campaign}
""", cards_root)
    resolved = [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]
    assert any(r.endswith(":trash-accessed") for r in resolved)
    assert len(out.final.zone("runner.hand")) == 1


def test_subroutine_resolved_event_and_delayed_draw(cards_root: Path):
    # Raindrops Cut Stone: a power counter per resolved subroutine (the ETR included); when the run ends,
    # draw 1 card per counter and gain 3[c].
    out = _play("""
title: t
card_defs:
  - {name: Ice Wall, subroutines: [[end_the_run]]}
start: {turn: runner, at: action_phase}
corp: {servers: {HQ: {ice: [{card: Ice Wall, rezzed: true}]}}}
runner: {credits: 5, hand: [Raindrops Cut Stone], deck: [Sure Gamble, Sure Gamble]}
decisions:
  - {action: play, card: Raindrops Cut Stone, server: HQ}
""", cards_root)
    resolved = [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]
    assert "Raindrops Cut Stone:subroutine-resolves" in resolved
    assert len(out.final.zone("runner.hand")) == 1 and out.final.runner.credits == 5 - 1 + 3


def test_ryo_after_a_subroutine_resolved_during_the_run(cards_root: Path):
    out = _play("""
title: t
card_defs:
  - {name: Enigma, subroutines: [[{lose_clicks: 1, player: runner}], [end_the_run]]}
start: {turn: runner, at: action_phase}
corp: {hand: [Hedge Fund], servers: {R&D: {ice: [{card: Enigma, rezzed: true}]}}, deck: [Sprint]}
runner: {identity: "Ryō “Phoenix” Ōno: Out of the Ashes", credits: 5}
decisions:
  - {action: run, server: R&D}
""", cards_root)
    # Enigma's ETR ends the run: no successful run, so no gain.
    assert "Ryō “Phoenix” Ōno: Out of the Ashes:successful-after-subroutine" not in [
        f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]
    out = _play("""
title: t
card_defs:
  - {name: Enigma, subroutines: [[{lose_clicks: 1, player: runner}]]}
start: {turn: runner, at: action_phase}
corp: {hand: [Hedge Fund], servers: {R&D: {ice: [{card: Enigma, rezzed: true}]}}, deck: [Sprint]}
runner: {identity: "Ryō “Phoenix” Ōno: Out of the Ashes", credits: 5}
decisions:
  - {action: run, server: R&D}
""", cards_root)
    assert out.final.runner.credits == 6 and out.final.cards["Hedge Fund"].zone == "corp.discard"


def test_installed_this_turn_filter(cards_root: Path):
    out = _play("""
title: t
card_defs:
  - {name: PAD Campaign, abilities: []}
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [Seamless Launch, PAD Campaign]}
decisions:
  - {action: install, card: PAD Campaign, server: new}
  - {action: play, card: Seamless Launch}
  - {target: PAD Campaign}
""", cards_root)
    assert out.error is not None  # installed this turn: not a legal target
    assert out.final.cards["PAD Campaign"].count("advancement") == 0


def test_any_number_and_count_of_chosen(cards_root: Path):
    # Mutually Assured Destruction: trash any number of rezzed cards, 1 tag per card trashed.
    out = _play("""
title: t
card_defs:
  - {name: PAD Campaign, abilities: []}
  - {name: Ice Wall, subroutines: [[end_the_run]]}
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  hand: [Mutually Assured Destruction]
  servers:
    Server 1: {root: [{card: PAD Campaign, rezzed: true}]}
    HQ: {ice: [{card: Ice Wall, rezzed: true}]}
decisions:
  - {action: play, card: Mutually Assured Destruction}
  - {target: [PAD Campaign, Ice Wall]}
""", cards_root)
    assert out.final.runner.tags == 2 and out.final.corp.clicks == 0
    assert len(out.final.zone("corp.discard")) == 3


def test_turn_facedown(cards_root: Path):
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [Kakurenbo, Hedge Fund], discard: [Sprint, Sprint]}
decisions:
  - {action: play, card: Kakurenbo}
  - {target: [Hedge Fund]}
""", cards_root)
    assert "rule_object_turn_faceup_facedown" in _anchors(out)
    assert [out.final.cards[c].faceup for c in out.final.zone("corp.discard")] == [False] * 3
    assert out.final.cards["Kakurenbo"].zone == "corp.removed"


def test_sum_this_turn_of_scored_agendas(cards_root: Path):
    out = _play("""
title: t
card_defs:
  - {name: Hostile Takeover, abilities: []}
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  hand: [Neurospike]
  servers: {Server 1: {root: [{card: Hostile Takeover, counters: {advancement: 2}}]}}
runner: {hand: [Sure Gamble, Sure Gamble, Sure Gamble]}
decisions:
  - {score: Hostile Takeover}
  - {action: play, card: Neurospike}
""", cards_root)
    assert len(out.final.zone("runner.hand")) == 2  # Hostile Takeover's printed 1 point: 1 net damage


def test_credits_hosted_on_a_run_event_pay_during_its_run(cards_root: Path):
    # Overclock: 5[c] on the event, spendable during the run: they pay PAD Campaign's trash cost (4[c]).
    out = _play("""
title: t
card_defs:
  - {name: PAD Campaign, abilities: []}
start: {turn: runner, at: action_phase}
corp: {servers: {Server 1: {root: [PAD Campaign]}}}
runner: {credits: 1, hand: [Overclock]}
decisions:
  - {action: play, card: Overclock, server: Server 1}
  - {trash: PAD Campaign}
""", cards_root)
    assert out.error is None and out.final.cards["PAD Campaign"].zone == "corp.discard"
    assert out.final.runner.credits == 0


def test_credits_for_trash_costs_only(cards_root: Path):
    # Bahia Bands' 4 hosted credits pay trash costs for the rest of the run.
    out = _play("""
title: t
card_defs:
  - {name: PAD Campaign, abilities: []}
start: {turn: runner, at: action_phase}
corp: {servers: {Server 1: {root: [PAD Campaign]}}}
runner: {credits: 2, hand: [Bahia Bands], deck: [Sure Gamble, Sure Gamble]}
decisions:
  - {action: play, card: Bahia Bands, server: Server 1}
  - {choose: 4}
  - {choose: 1}
  - {trash: PAD Campaign}
""", cards_root)
    assert out.error is None and out.final.cards["PAD Campaign"].zone == "corp.discard"
    assert len(out.final.zone("runner.hand")) == 2


def test_corp_chooses_the_server_of_an_install(cards_root: Path):
    # Secure and Protect: the found ice protects a central server of the Corp's choice, paying 3[c] less
    # than the install cost (the ice already there: 1[c] less 3, so nothing).
    out = _play("""
title: t
card_defs:
  - {name: Ice Wall, subroutines: [[end_the_run]]}
  - {name: Enigma, subroutines: [[end_the_run]]}
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  hand: [Secure and Protect]
  deck: [Enigma, Hedge Fund]
  servers: {R&D: {ice: [Ice Wall]}}
decisions:
  - {action: play, card: Secure and Protect}
  - {target: Enigma}
  - {target: R&D}
""", cards_root)
    # Outermost first: Enigma is installed outermost (rule_create_position_outermost).
    assert out.final.zone("corp.server.R&D.ice") == ("Enigma", "Ice Wall")
    assert out.final.corp.clicks == 1 and out.final.corp.credits == 4  # 5 - 1 (play cost) - 0 (ice tax 1, less 3)


def test_install_in_a_remote_server_offers_only_remote_servers(cards_root: Path):
    text = """
title: t
card_defs:
  - {name: PAD Campaign, abilities: []}
  - {name: Hostile Takeover, abilities: []}
start: {turn: runner, at: action_phase}
runner: {clicks: 1}
corp:
  credits: 5
  hand: [Digital Rights Management, PAD Campaign]
  deck: [Hostile Takeover, Hedge Fund]
  servers: {Server 1: {root: [Hostile Takeover]}}
decisions:
  - {action: draw, player: runner}
  - {action: play, card: Digital Rights Management, player: corp}
  - {target: []}
  - {target: PAD Campaign}
  - {target: SERVER}
"""
    out = _play(text.replace("SERVER", "new"), cards_root)
    assert out.error is None and out.final.cards["PAD Campaign"].zone == "corp.server.Server 2.root"
    out = _play(text.replace("SERVER", "HQ"), cards_root)
    assert out.error is not None and out.final.cards["PAD Campaign"].zone != "corp.server.HQ.root"


def test_armed_asset_protection_counts_card_types_once(cards_root: Path):
    # Faceup in Archives: 2 operations and an agenda (2 types, one an agenda); the facedown ice counts not.
    out = _play("""
title: t
card_defs:
  - {name: Hostile Takeover, abilities: []}
  - {name: Ice Wall, subroutines: [[end_the_run]]}
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  hand: [Armed Asset Protection]
  discard: [Hedge Fund, Sprint, Hostile Takeover, {card: Ice Wall, faceup: false}]
decisions: [{action: play, card: Armed Asset Protection}]
""", cards_root)
    assert out.final.corp.credits == 5 - 2 + 3 + 2 + 2


def test_reveal_any_number_and_count_them(cards_root: Path):
    # Meeting of Minds, connection: no search, then reveal 2 connections of the grip: gain 2[c].
    out = _play("""
title: t
card_defs:
  - {name: Kati Jones, abilities: []}
  - {name: Professional Contacts, abilities: []}
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Meeting of Minds, Kati Jones, Professional Contacts, Sure Gamble]}
decisions:
  - {action: play, card: Meeting of Minds}
  - {choose: 1}
  - {target: [Kati Jones, Professional Contacts]}
""", cards_root)
    assert [s.card for s in out.steps if s.kind == "reveal"] == ["Kati Jones", "Professional Contacts"]
    assert out.final.runner.credits == 5 - 4 + 2


def test_s_dobrado_bypasses_the_first_ice_and_pays_a_click_for_the_second_at_threat_4(cards_root: Path):
    text = """
title: t
card_defs:
  - {name: Ice Wall, subroutines: [[end_the_run]]}
  - {name: Enigma, subroutines: [[end_the_run]]}
  - {name: Hostile Takeover, abilities: []}
start: {turn: runner, at: action_phase}
corp:
  servers: {HQ: {ice: [{card: Enigma, rezzed: true}, {card: Ice Wall, rezzed: true}]}}
  score: [Hostile Takeover, Hostile Takeover, Hostile Takeover, Hostile Takeover]
runner: {credits: 5, hand: [S-Dobrado]}
decisions:
  - {action: play, card: S-Dobrado}
  - {target: HQ}
  - {pay: true}
"""
    out = _play(text, cards_root)
    assert _kinds(out).count("bypass") == 2 and out.final.runner.clicks == 2
    out = _play(text.replace("score: [Hostile Takeover, Hostile Takeover, Hostile Takeover, Hostile Takeover]",
                             "score: [Hostile Takeover]"), cards_root)
    assert _kinds(out).count("bypass") == 1 and out.error is not None  # threat 1: no payment offered


def test_remove_tags_cost_paid_and_the_operation_scores_a_point(cards_root: Path):
    from judgebook.engine.state import queries as q

    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [Backroom Machinations]}
runner: {tags: 2}
decisions: [{action: play, card: Backroom Machinations}]
""", cards_root)
    assert out.final.runner.tags == 1 and out.final.cards["Backroom Machinations"].zone == "corp.score"
    assert q.agenda_points(out.final, "corp") == 1


def test_cards_at_random_are_chosen_by_no_one(cards_root: Path):
    # Bring Them Home after a steal: 2 cards of the grip at random go to the top of the stack, then the
    # Corp's action phase ends.
    out = _play("""
title: t
card_defs:
  - {name: Hostile Takeover, abilities: []}
start: {turn: runner, at: action_phase}
runner: {credits: 10, clicks: 1, hand: [Sure Gamble, Hedge Fund, Sure Gamble]}
corp: {credits: 5, hand: [Hostile Takeover, Bring Them Home], deck: [Sprint, Sprint]}
decisions:
  - {action: run, server: HQ}
  - {action: play, card: Bring Them Home, player: corp}
""", cards_root)
    g = out.final
    assert "target" not in [s.kind for s in out.steps if s.player == "corp" and s.how == "chosen"]
    assert len(g.zone("runner.hand")) == 1 and len(g.zone("runner.deck")) == 2
    assert "rule_forced_action_phase_end" in _anchors(out)


def test_distinct_names_refuses_two_copies(cards_root: Path):
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Harmony AR Therapy], discard: [Sure Gamble, Sure Gamble, Hedge Fund]}
decisions:
  - {action: play, card: Harmony AR Therapy}
  - {target: [Sure Gamble, Sure Gamble#2]}
""", cards_root)
    assert out.error is not None and len(out.final.zone("runner.discard")) == 3


def test_top_of_deck_condition(cards_root: Path):
    # MuslihaT: the top card is an icebreaker: it may be revealed and added to the grip.
    text = """
title: t
card_defs:
  - {name: Corroder, abilities: []}
start: {turn: runner, at: runner_turn}
runner:
  identity: "MuslihaT: Multifarious Marketeer"
  deck: [TOP, Sure Gamble]
decisions:
  - {choose: 1}
"""
    out = _play(text.replace("TOP", "Corroder"), cards_root)
    assert out.error is None and out.final.zone("runner.hand") == ("Corroder",)
    out = _play(text.replace("TOP", "Hedge Fund"), cards_root)
    assert out.error is not None and out.final.zone("runner.hand") == ()  # not an icebreaker: no choice


def test_exactly_that_many_cards(cards_root: Path):
    # Simulation Reset: 2 cards trashed from HQ, so 2 from Archives shuffled into R&D and 2 drawn.
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [Simulation Reset, Hedge Fund, Sprint, Pivot], discard: [Nanomanagement], deck: [Hedge Fund]}
decisions:
  - {action: play, card: Simulation Reset}
  - {target: [Hedge Fund, Sprint]}
  - {target: [Nanomanagement, Sprint]}
""", cards_root)
    g = out.final
    assert out.error is None
    assert sorted(g.zone("corp.hand")) == ["Hedge Fund#2", "Nanomanagement", "Pivot"]
    assert g.zone("corp.discard") == ("Hedge Fund",) and g.cards["Simulation Reset"].zone == "corp.removed"


def test_exactly_all_but_one(cards_root: Path):
    out = _play("""
title: t
start: {turn: corp, at: action_phase}
corp: {credits: 5, hand: [Peer Review, Hedge Fund, Sprint, Pivot]}
decisions:
  - {action: play, card: Peer Review}
  - {target: [Hedge Fund, Pivot]}
""", cards_root)
    assert [s.card for s in out.steps if s.kind == "reveal"] == ["Hedge Fund", "Pivot"]
    assert out.final.corp.credits == 5 - 4 + 7


def test_a_card_among_those_looked_at(cards_root: Path):
    # Blueberry Diesel: of the top 2, the second goes to the bottom; then 2 cards are drawn.
    out = _play("""
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Blueberry!™ Diesel], deck: [Sure Gamble, Hedge Fund, Sprint, Pivot]}
decisions:
  - {action: play, card: Blueberry!™ Diesel}
  - {target: [Hedge Fund]}
""", cards_root)
    assert sorted(out.final.zone("runner.hand")) == ["Sprint", "Sure Gamble"]
    assert out.final.zone("runner.deck") == ("Pivot", "Hedge Fund")


def test_score_if_able_needs_the_advancement_requirement(cards_root: Path):
    # Big Deal on Government Takeover (requirement 9): 4 counters are not enough. Choosing to score is a free
    # choice (rule_choice_instruction: it needs no potential to change the game state); the agenda stays.
    out = _play("""
title: t
card_defs:
  - {name: Government Takeover, abilities: []}
start: {turn: corp, at: action_phase}
corp: {credits: 20, hand: [Big Deal], servers: {Server 1: {root: [Government Takeover]}}}
decisions:
  - {action: play, card: Big Deal}
  - {target: Government Takeover}
  - {choose: 1}
""", cards_root)
    assert out.error is None
    assert [s.anchor for s in out.steps if s.kind == "choose"] == ["rule_choice_instruction"]
    assert not [s for s in out.steps if s.kind == "scored"]
    assert out.final.cards["Government Takeover"].zone != "corp.score"
    assert out.final.cards["Government Takeover"].count("advancement") == 4


def test_next_activation_command_bars_non_icebreakers_from_breaking(cards_root: Path):
    text = """
title: t
card_defs:
  - name: Test Breaker
    side: runner
    type: program
    subtypes: [SUBTYPES]
    strength: 5
    abilities: [{id: brk, cost: {credits: 0}, break: {subtype: barrier, count: 1}}]
  - {name: Ice Wall, subroutines: [[end_the_run]]}
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  clicks: 1
  hand: [NEXT Activation Command]
  servers: {HQ: {ice: [{card: Ice Wall, rezzed: true}]}}
runner: {credits: 5, installed: [Test Breaker]}
decisions:
  - {action: play, card: NEXT Activation Command}
  - {action: run, server: HQ, player: runner}
  - {use: Test Breaker, ability: brk, player: runner}
"""
    out = _play(text.replace("SUBTYPES", "virus"), cards_root)
    assert out.error is not None and out.error.rule == "rule_cannot_precedence"
    out = _play(text.replace("SUBTYPES", "icebreaker"), cards_root)
    assert out.error is None and "subroutine_broken" in _kinds(out)


def test_tread_lightly_raises_each_ice_rez_cost_during_that_run_only(cards_root: Path):
    printed = card_source(cards_root).by_id["ivik"].cost
    assert printed is not None
    text = """
title: t
start: {turn: runner, at: action_phase}
runner: {credits: 5, hand: [Tread Lightly]}
corp:
  credits: 20
  servers: {HQ: {ice: [Ivik]}}
decisions:
  - {action: play, card: Tread Lightly, server: HQ}
  - {rez: Ivik, player: corp}
"""
    out = _play(text, cards_root)
    assert out.error is None and "rezzed" in _kinds(out)
    assert out.final.corp.credits == 20 - (printed + 3) and out.final.runner.credits == 5 - 1
    # Outside that run the printed cost applies.
    later = _play(text.replace("hand: [Tread Lightly]", "hand: []").replace(
        "  - {action: play, card: Tread Lightly, server: HQ}\n", "  - {action: run, server: HQ}\n"), cards_root)
    assert later.error is None and later.final.corp.credits == 20 - printed


def test_az_mccaffrey_lowers_only_the_first_job_connection_or_hardware_install_each_turn(cards_root: Path):
    text = """
title: t
card_defs:
  - {name: Test Rig, side: runner, type: hardware, cost: 2, abilities: []}
  - {name: Test Job, side: runner, type: resource, subtypes: [job], cost: 2, abilities: []}
  - {name: Test Contact, side: runner, type: resource, subtypes: [connection], cost: 2, abilities: []}
  - {name: Test Tool, side: runner, type: program, cost: 2, abilities: []}
start: {turn: runner, at: action_phase}
runner:
  identity: "Az McCaffrey: Mechanical Prodigy"
  credits: 10
  hand: [FIRST, SECOND]
decisions:
  - {action: install, card: FIRST}
  - {action: install, card: SECOND}
"""

    def spent(first: str, second: str) -> int:
        out = _play(text.replace("FIRST", first).replace("SECOND", second), cards_root)
        assert out.error is None and _kinds(out).count("installed") == 2
        return 10 - out.final.runner.credits

    assert spent("Test Rig", "Test Job") == 1 + 2  # the first of those kinds costs 1 less, the next its full cost
    assert spent("Test Contact", "Test Rig") == 1 + 2
    assert spent("Test Job", "Test Contact") == 1 + 2
    assert spent("Test Tool", "Test Job") == 2 + 1  # a program is none of those kinds: the job is still the first


def test_sudden_commandment_threat_counts_mandates_not_other_operations(cards_root: Path):
    # Hedge Fund (a transaction) played by Sudden Commandment's own instruction leaves it the first mandate.
    text = """
title: t
card_defs:
  - {name: Hostile Takeover, abilities: []}
start: {turn: corp, at: action_phase}
corp:
  credits: 10
  clicks: 1
  hand: [Sudden Commandment, Hedge Fund]
  deck: [Hedge Fund, Hedge Fund]
  score: [Hostile Takeover, Hostile Takeover, Hostile Takeover]  # 3 agenda points: threat 3
decisions:
  - {action: play, card: Sudden Commandment}
  - {target: Hedge Fund}
  - {pay: true}
"""
    out = _play(text, cards_root)
    assert out.error is None
    assert out.final.corp.clicks == 1 and out.final.corp.credits == 10 - 1 - 5 + 9 - 3
