"""The Standard pool's programs, hardware and resources (rules_source/cards/standard/, slice "rig").

Every definition of the slice loads with its statistics from NetrunnerDB; the ruling scenarios of the
slice (rules_source/scenarios/standard/ruling-<card>-<n>.yaml, cards of this slice) replay to their
`expect`, or miss it where they carry `mismatch`; the constructs this slice added to the card language
are asserted on events and cited rules.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import replays
from corpora import CARDS
from pool_slices import standard_pool_types

from judgebook.engine.language.cards import library_items, undefined_reason
from judgebook.engine.language.nodes import At, node_line
from judgebook.engine.language.nrdb import card_source, parse_with_stats
from judgebook.engine.state import queries as q

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS_DIR = ROOT / "rules_source" / "scenarios" / "standard"
TYPES = {"program", "hardware", "resource"}


def _slice_ids(cards_root: Path) -> set[str]:
    """The slice read from NetrunnerDB itself: the rotation_2025 pool's programs, hardware and resources."""
    return set(standard_pool_types(cards_root, TYPES))


def _items() -> dict[str, object]:
    out: dict[str, object] = {}
    for f in sorted(LIBRARY.glob("*.yaml")):
        (item,) = library_items(f)
        out[f.stem] = item
    return out


def test_every_card_of_the_slice_has_a_file(cards_root: Path):
    ids = _slice_ids(cards_root)
    assert len(ids) == 172  # 73 programs + 47 hardware + 52 resources, counted by the brief's listing
    assert ids <= set(_items())


def test_every_definition_loads_with_netrunnerdb_statistics(cards_root: Path):
    source = card_source(cards_root)
    ids = _slice_ids(cards_root)
    defined, partial, undefined = [], [], []
    for stem, item in _items().items():
        if stem not in ids:
            continue
        assert isinstance(item, dict) and item["id"] == stem, stem
        if undefined_reason(item) is not None:
            assert set(item) == {"id", "name", "undefined"}, stem
            assert source.by_id[stem].title == item["name"], stem
            undefined.append(stem)
            continue
        card = parse_with_stats(item, source, At("card", node_line(item, 1)), str(LIBRARY / f"{stem}.yaml"))
        assert card.type in TYPES and card.side == "runner", stem
        (partial if card.partial else defined).append(stem)
    # Counted by `grep -L "^partial:\|^undefined:"` and `grep -l "^partial:"` / `grep -l "^undefined:"` over
    # the slice's files.
    assert (len(defined), len(partial), len(undefined)) == (DEFINED, PARTIAL, UNDEFINED)


# 13 of the 14 "break up to N" breakers defined since a break's count says "up to" (issue 19); the
# hosted-not-installed cards (Matryoshka, Madani, Asmund Pudlat) defined since hosted is not installed (issue
# 19); Cupellation (its hosting limit), Detente (its any-player ability), Pauleʼs Café (its discount) and Poison
# Vial ("during this encounter" read as this run) partial
DEFINED, PARTIAL, UNDEFINED = 165, 4, 3


# The slice's ids, read from the corpus at collection (where tests/corpora.py finds it):
# the other slices write their ruling scenarios into the same folder.
RIG_IDS = _slice_ids(CARDS)


def _slice_scenarios() -> list[Path]:
    """Ruling scenarios of this slice: ruling-<card id>-<n>.yaml for a card of the slice."""
    out = []
    for path in sorted(SCENARIOS_DIR.glob("ruling-*.yaml")):
        m = re.match(r"ruling-(.+)-\d+$", path.stem)
        if m and m.group(1) in RIG_IDS:
            out.append(path)
    return out


SCENARIOS = _slice_scenarios()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_ruling_scenario_replays_to_the_ruling_or_carries_its_mismatch(path: Path, cards_root: Path):
    r = replays.shipped(path, LIBRARY, cards_root)
    sc, missed = r.sc, r.misses
    if sc.mismatch is None:
        assert missed == []
    else:
        assert missed != [], "a stale mismatch: the engine now reaches the ruling"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_ruling_scenario_source_names_a_real_ruling(path: Path, cards_root: Path):
    text = path.read_text(encoding="utf-8")
    m = re.search(r'^source: "NetrunnerDB ruling: ([a-z0-9_]+), (\d{4}-\d\d-\d\d), (not )?NSG-verified"$', text, re.M)
    assert m, "source: \"NetrunnerDB ruling: <card_id>, <date_update>, NSG-verified\""
    card_id, date, unverified = m.groups()
    assert path.stem.startswith(f"ruling-{card_id}-")
    rulings = json.loads((cards_root / "v2" / "rulings" / f"{card_id}.json").read_text(encoding="utf-8"))
    found = [r for r in rulings if r["date_update"] == date]
    assert found and found[0]["nsg_rules_team_verified"] is (unverified is None)


def test_ruling_scenario_counts():
    # Counted by `ls rules_source/scenarios/standard/ruling-*.yaml` over this slice's cards and
    # `grep -l "^mismatch:"` among them (1: hyperbaric).
    assert len(SCENARIOS) == 44
    marked = [p.stem for p in SCENARIOS if re.search(r"^mismatch:", p.read_text(encoding="utf-8"), re.M)]
    assert marked == []


# --- the constructs this slice added, asserted on events, cited rules and choice points ------------------

CONSTRUCTS = sorted(SCENARIOS_DIR.glob("rig-*.yaml"))


@pytest.mark.parametrize("path", CONSTRUCTS, ids=[p.stem for p in CONSTRUCTS])
def test_construct_scenario_replays_to_its_expectation(path: Path, cards_root: Path):
    assert replays.shipped(path, LIBRARY, cards_root).misses == []


def _out(name: str, cards_root: Path):  # type: ignore[no-untyped-def]
    return replays.shipped(SCENARIOS_DIR / f"{name}.yaml", LIBRARY, cards_root).out


def _steps(out) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(s.kind, s.anchor) for s in out.steps]


def _resolved(out) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]


def test_sabotage_offers_only_picks_that_leave_r_and_d_enough(cards_root: Path):
    out = _out("rig-sabotage-not-enough-in-rnd", cards_root)
    points = [g.point for g in out.states if g.point is not None and g.point.kind == "target"]
    # 3 cards in HQ, 1 in R&D, sabotage 3: the Corp chooses 2 or 3 cards of HQ (3 + 1 picks).
    assert points and points[0].player == "corp"
    assert sorted(len(o.decision.value) for o in points[0].options) == [2, 2, 2, 3]
    assert ("sabotage", "rule_sabotage_resolution") in _steps(out)
    after = [s.kind for s in out.steps][[s.kind for s in out.steps].index("sabotage"):]
    # The 2 or 3 HQ cards chosen and the rest from R&D: 3 cards trashed in all.
    assert after.count("trashed") == 3


def test_sabotage_is_the_corp_trashing(cards_root: Path):
    out = _out("ruling-avgustina_ivanovskaya-1", cards_root)
    kinds = _steps(out)
    assert ("sabotage", "rule_sabotage_resolution") in kinds
    assert "Demolisher:gain" not in _resolved(out)


def test_threat_gates_an_ability(cards_root: Path):
    met = _out("rig-threat-pressure-spike", cards_root)
    assert "Pressure Spike:spike" in _resolved(met)
    unmet = _out("rig-threat-not-met", cards_root)
    refusals = [r for g in unmet.states if g.point is not None for r in g.point.refused
                if r.decision.get("ability") == "spike"]
    assert refusals and {r.rule for r in refusals} == {"rule_use_restriction"}


def test_breaker_filter_reads_the_card_that_fully_broke(cards_root: Path):
    out = _out("ruling-bukhgalter-1", cards_root)
    kinds = [s.kind for s in out.steps]
    gain = next(i for i, s in enumerate(out.steps) if s.kind == "resolve" and s.card == "Bukhgalter")
    assert ("fully_broken", "rule_fully_break") in _steps(out) and kinds.index("fully_broken") < gain
    assert _resolved(out).count("Bukhgalter:gain") == 1


def test_first_this_turn_counts_only_matching_events(cards_root: Path):
    out = _out("rig-first-this-turn-on-hq", cards_root)
    runs = [s for s in out.steps if s.kind == "successful_run"]
    assert len(runs) == 2 and _resolved(out).count("PAN-Weave:siphon") == 1


def test_mid_access_window_and_a_trashed_agenda_is_not_stolen(cards_root: Path):
    out = _out("ruling-carnivore-2", cards_root)
    points = [g.point for g in out.states if g.point is not None and g.point.kind == "mid_access"]
    assert points and points[0].rule == "step_mid_access_ability" and points[0].player == "runner"
    assert [o.rule for o in points[0].options][0] == "rule_mid_access_window_options"
    kinds = [s.kind for s in out.steps]
    assert "trashed" in kinds and "stolen" not in kinds


def test_runner_access_abilities_wait_for_the_mid_access_window(cards_root: Path):
    out = _out("ruling-carnivore-1", cards_root)
    used = [s for s in out.steps if s.kind == "ability_used"]
    access = [i for i, s in enumerate(out.steps) if s.kind == "access"]
    assert len(used) == 1 and out.steps.index(used[0]) > access[0]


def test_played_event_triggers_resolve_before_its_play_abilities_and_it_is_trashed(cards_root: Path):
    swift = _out("ruling-swift-1", cards_root)
    assert _resolved(swift).index("Swift:click") < _resolved(swift).index("Dirty Laundry:play")
    aniccam = _out("ruling-aniccam-1", cards_root)
    assert ("trashed", "rule_steps_playing_trash_played_card") in _steps(aniccam)


def test_run_central_offers_only_central_servers(cards_root: Path):
    out = _out("rig-run-central-red-team", cards_root)
    points = [g.point for g in out.states if g.point is not None and g.point.prompt == "choose the server to run"]
    assert points and sorted(o.decision.value[0] for o in points[0].options) == ["Archives", "HQ", "R&D"]


def test_a_trojan_is_installed_hosted_on_the_chosen_ice(cards_root: Path):
    out = _out("rig-install-on-ice-botulus", cards_root)
    first = next(g.point for g in out.states if g.point is not None and g.point.kind == "action")
    installs = [o.decision for o in first.options if o.decision.value == "install"]
    assert [(d.get("card"), d.get("server")) for d in installs] == [("Botulus", "Ice Wall")]
    g = next(s for s in out.states if s.cards["Botulus"].zone == "hosted.Ice Wall")
    assert g.cards["Botulus"].host == "Ice Wall" and "Botulus" in q.installed(g, "runner")
    assert ("break", "Botulus") in {("break", s.card) for s in out.steps if s.kind == "ability_used"}


def test_the_encounter_ends_when_its_ice_is_trashed(cards_root: Path):
    out = _out("rig-trojan-trashed-with-host", cards_root)
    kinds = _steps(out)
    assert ("encounter_over", "rule_ice_change_encounter_uninstall_derez") in kinds
    last_run = [s.kind for s in out.steps][[s.kind for s in out.steps].index("trashed"):]
    assert "subroutine" not in last_run
    assert out.final.cards["Chisel"].zone == "runner.discard"


def test_remove_from_game_moves_to_the_removed_zone(cards_root: Path):
    out = _out("rig-remove-from-game-devil-charm", cards_root)
    assert out.final.cards["Devil Charm"].zone == "runner.removed"
    assert not q.is_active(out.final, "Devil Charm")


def test_cost_change_lowers_an_install_and_raises_a_rez(cards_root: Path):
    def spent(out, side: str) -> list[int]:  # type: ignore[no-untyped-def]
        return [f.event.get("amount") for f in out.final.history
                if f.event.name == "credits_spent" and f.event.get("player") == side]

    # Carmen's printed 5[c] less 2 after the run on Archives; Enigma's printed 3[c] plus 1.
    assert spent(_out("rig-cost-change-carmen", cards_root), "runner") == [3]
    assert spent(_out("rig-cost-change-cats-cradle", cards_root), "corp") == [4]


def test_removing_a_tag_is_an_event(cards_root: Path):
    out = _out("rig-tags-removed-valentina", cards_root)
    assert ("tags_removed", "runner_basic_action_remove_tag") in _steps(out)


def test_a_replaced_breach_breaches_nothing_else(cards_root: Path):
    out = _out("rig-instead-of-breach-stargate", cards_root)
    assert ("instead_of_breach", "rule_if_successful_lingering_effect") in _steps(out)
    assert "breach" not in [s.kind for s in out.steps] and "access" not in [s.kind for s in out.steps]
    beatriz = _out("rig-instead-of-breach-beatriz", cards_root)
    assert [f.event.get("server") for f in beatriz.final.history if f.event.name == "breach"] == ["R&D"]


def test_remove_from_game_as_a_cost_and_the_bypass_event(cards_root: Path):
    charm = _out("rig-remove-cost-lucky-charm", cards_root)
    assert ("removed", "rule_rfg_move") in _steps(charm)
    assert charm.final.cards["Lucky Charm"].zone == "runner.removed"
    capybara = _out("rig-bypass-event-capybara", cards_root)
    kinds = [s.kind for s in capybara.steps]
    assert ("bypass", "rule_bypass") in _steps(capybara) and kinds.index("bypass") < kinds.index("derezzed")
    assert capybara.final.cards["Capybara"].zone == "runner.removed"


def test_the_mark_is_identified_once_and_read_as_a_server(cards_root: Path):
    out = _out("rig-mark-virtuoso-info-bounty", cards_root)
    kinds = _steps(out)
    assert ("mark", "rule_mark_designation_lingering_effect") in kinds
    assert ("mark", "rule_mark_already_identified") in kinds
    points = [g.point for g in out.states if g.point is not None and g.point.rule == "rule_mark_identification"]
    assert len(points) == 1 and [o.decision.value[0] for o in points[0].options] == ["HQ", "R&D", "Archives"]
    # Virtuoso: the run on the mark (R&D) is followed by a breach of HQ when it ends.
    assert [f.event.get("server") for f in out.final.history if f.event.name == "breach"] == ["R&D", "HQ"]


def test_hosted_credits_spent_and_actions_on_resources_are_events(cards_root: Path):
    toolkit = _out("rig-hosted-credits-penumbral-empty", cards_root)
    assert ("hosted_credits_spent", "rule_cost") in _steps(toolkit)
    assert toolkit.final.cards["Penumbral Toolkit"].zone == "runner.discard"
    juli = _out("rig-action-on-resource-juli", cards_root)
    used = [f.event for f in juli.final.history if f.event.name == "ability_used"]
    assert [(e.get("type"), e.get("action")) for e in used] == [("resource", True)]
    cataloguer = _out("rig-replace-breach-cataloguer", cards_root)
    kinds = [s.kind for s in cataloguer.steps]
    assert "arrange" in kinds and "breach" not in kinds


def test_allotted_clicks_and_install_surcharge(cards_root: Path):
    out = _out("rig-allotted-clicks-basilar", cards_root)
    assert [s.anchor for s in out.steps if s.kind == "clicks"] == ["step_runner_turn_allotted_clicks"]
    assert out.final.runner.clicks == 5
    masterwork = _out("rig-surcharge-masterwork", cards_root)
    assert [f.event.get("amount") for f in masterwork.final.history if f.event.name == "credits_spent"] == [3]


def test_purging_is_an_event(cards_root: Path):
    out = _out("rig-purge-physarum", cards_root)
    kinds = [s.kind for s in out.steps]
    assert ("purge", "rule_purge") in _steps(out) and kinds.index("purge") < kinds.index("trashed")


def test_credits_from_named_cards_exclude_the_pool(cards_root: Path):
    out = _out("rig-credits-from-stealth-penrose", cards_root)
    spent = [f.event for f in out.final.history if f.event.name == "hosted_credits_spent"]
    assert [(e.get("card"), e.get("amount")) for e in spent] == [("Ghost Runner", 1)]
    assert out.error is not None and out.error.rule == "rule_cost"


def test_first_this_encounter_counts_within_one_encounter(cards_root: Path):
    out = _out("rig-first-this-encounter-flux", cards_root)
    broken = [f.event for f in out.final.history if f.event.name == "subroutine_broken"]
    assert len(broken) == 2 and len({e.get("encounter_seq") for e in broken}) == 1
    assert _resolved(out).count("Flux Capacitor:charge") == 1
