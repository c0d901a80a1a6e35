"""Round 3, family `moving`: swapping installed cards with cards outside play, moving the Runner and ice, moving
an upgrade to the server of the ice it installed, installing in another server. Each construct is exercised by a
scenario of rules_source/scenarios/standard (card-<id>-<n>.yaml, ruling-<id>-<n>.yaml) asserting events, cited
rules and state."""
from __future__ import annotations

from pathlib import Path

import pytest
import replays
from pool_scenarios import kinds_and_rules as _kinds
from pool_scenarios import replay_named as _run

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
CARDS = ("tatu_bola", "mitra_aman", "project_yagi_uda", "proprionegation", "letheia_nisei", "mercia_b4ll4rd",
         "tributary", "ablative_barrier", "cordyceps", "nanuq", "boomerang",
         "maintenance_access", "spree", "muse")
MINE = sorted(p for p in SCENARIOS.glob("*.yaml") if any(p.stem.startswith((f"card-{c}-", f"ruling-{c}-"))
                                                         for c in CARDS))


@pytest.mark.parametrize("path", MINE, ids=[p.stem for p in MINE])
def test_scenario_replays_to_its_expectation(path: Path, cards_root: Path):
    r = replays.shipped(path, LIBRARY, cards_root)
    sc, missed = r.sc, r.misses
    assert (missed == []) if sc.mismatch is None else bool(missed)


def test_tatu_bola_swap_installs_the_ice_from_hq_in_its_position(cards_root: Path):
    out = _run("card-tatu_bola-1", cards_root)
    kinds = _kinds(out)
    assert ("swapped", "rule_swap_become_installed") in kinds
    assert ("installed", "rule_swap_become_installed") in kinds
    g = out.final
    assert g.zone("corp.server.HQ.ice") == ("Wall",)
    assert not g.cards["Wall"].rezzed and "Tatu-Bola" in g.zone("corp.hand")
    # The swap, then the Corp gains 4 (if it did).
    assert kinds.index(("swapped", "rule_swap_become_installed")) < kinds.index(("credits", "rule_gain_credits"))


def test_mitra_aman_swap_leaves_the_runner_approaching_the_new_ice(cards_root: Path):
    out = _run("card-mitra_aman-1", cards_root)
    texts = [s.text for s in out.steps]
    assert "the Runner passes Barrier Two" in texts and "the Runner passes Wall" not in texts
    assert not out.final.cards["Wall"].faceup  # unrezzed when swapped into Archives: facedown


def test_yagi_uda_swap_chooses_the_installed_card_and_keeps_the_approach(cards_root: Path):
    out = _run("ruling-project_yagi_uda-1", cards_root)
    assert ("swapped", "rule_swap_become_installed") in _kinds(out)
    assert [s.text for s in out.steps if s.kind == "encounter_ice"] == ["the Runner encounters Gate"]
    out = _run("card-project_yagi_uda-1", cards_root)
    assert out.final.zone("corp.server.Server 1.root") == ("Grid Two",)


def test_the_runner_moves_to_the_outermost_position_of_another_server(cards_root: Path):
    out = _run("card-proprionegation-1", cards_root)
    kinds = _kinds(out)
    assert ("runner_moves", "rule_move_to_specific_position") in kinds
    assert [s.text for s in out.steps if s.kind == "approach_ice"][-1] == "the Runner approaches Wall"


def test_letheia_nisei_sends_the_runner_back_through_the_ice(cards_root: Path):
    out = _run("card-letheia_nisei-1", cards_root)
    assert [s.text for s in out.steps if s.kind == "approach_ice"] == ["the Runner approaches Wall"]
    assert ("runner_moves", "rule_move_to_specific_position") in _kinds(out)


def test_mercia_moves_to_the_root_of_the_server_of_the_installed_ice(cards_root: Path):
    out = _run("card-mercia_b4ll4rd-1", cards_root)
    g = out.final
    # Wall is installed outermost, outward of Gate (rule_create_position_outermost; the zone lists outermost first)
    assert g.zone("corp.server.HQ.ice") == ("Wall", "Gate")
    assert ("ice_position", "rule_create_position_outermost") in _kinds(out)
    assert g.zone("corp.server.HQ.root") == ("Mercia B4LL4RD",)


def test_tributary_moves_to_the_attacked_server_and_installs_in_another(cards_root: Path):
    out = _run("card-tributary-1", cards_root)
    g = out.final
    assert g.zone("corp.server.HQ.ice") == ("Tributary", "Gate")
    assert g.zone("corp.server.Server 1.ice") == ("Wall",)
    assert ("moved", "rule_object_move_known_location") in _kinds(out)


def test_ablative_barrier_cannot_install_in_its_own_server(cards_root: Path):
    out = _run("card-ablative_barrier-1", cards_root)
    points = [s.point for s in out.states if s.point is not None and s.point.kind == "target"
              and "install Grid" in " ".join(o.label for o in s.point.options)]
    assert points
    servers = {o.decision.value[0] for o in points[0].options}
    assert "Server 1" not in servers and {"HQ", "new"} <= servers
    assert out.final.zone("corp.server.HQ.root") == ("Grid",)


def test_cordyceps_swaps_ice_of_the_server_run_with_a_chosen_other(cards_root: Path):
    out = _run("card-cordyceps-1", cards_root)
    g = out.final
    assert g.zone("corp.server.HQ.ice") == ("Gate",) and g.zone("corp.server.Server 1.ice") == ("Wall",)
    firsts = [s.point for s in out.states if s.point is not None and s.point.kind == "target"]
    # The first pick is among the ice protecting HQ only.
    assert [o.decision.value for o in firsts[0].options] == [["Wall"]]


@pytest.mark.parametrize("name", ["card-nanuq-1", "card-nanuq-2"])
def test_nanuq_leaving_play_is_removed_from_the_game(name: str, cards_root: Path):
    out = _run(name, cards_root)
    assert "Nanuq" in out.final.zone("runner.removed")
    assert any(s.kind == "pending" and s.card == "Nanuq" for s in out.steps)


def test_boomerang_is_usable_only_during_encounters_with_the_chosen_ice(cards_root: Path):
    out = _run("card-boomerang-2", cards_root)
    refusals = [r for s in out.states if s.point is not None for r in s.point.refused
                if r.decision.kind == "use" and r.decision.value == "Boomerang"]
    assert refusals and {r.rule for r in refusals} == {"rule_use_restriction"}
    out = _run("card-boomerang-1", cards_root)
    assert out.final.zone("runner.deck") == ("Boomerang",)


def test_maintenance_access_changes_the_attacked_server_instead_of_approaching_archives(cards_root: Path):
    out = _run("card-maintenance_access-1", cards_root)
    kinds = _kinds(out)
    assert ("attacked_server", "rule_change_attacked_server_directly") in kinds
    texts = [s.text for s in out.steps]
    assert "the Runner approaches HQ" in texts and "the Runner approaches Archives" not in texts
    assert not any(s.kind == "encounter_ice" for s in out.steps)  # Gate, protecting HQ, is not faced


def test_spree_hosts_an_installed_trojan_on_ice_of_the_attacked_server(cards_root: Path):
    out = _run("card-spree-1", cards_root)
    tick = next(g.cards["Tick"] for g in out.states if g.cards["Tick"].host == "Gate")
    assert tick.counters.get("virus") == 1 and tick.incarnation == 0  # still installed, the same object
    assert ("ability_used", "step_paid_ability_resolution") in _kinds(out)


def test_muse_installs_a_trojan_on_ice_and_another_program_on_itself(cards_root: Path):
    g = _run("card-muse-1", cards_root).final
    assert g.cards["Helper"].host == "Muse" and g.zone("hosted.Muse") == ("Helper",)
    g = _run("card-muse-2", cards_root).final
    assert g.cards["Tick"].host == "Gate"
