"""The Standard pool's Corp ice and upgrades (rotation_2025): their definitions in rules_source/cards/standard/,
the constructs added for them, and the ruling scenarios in rules_source/scenarios/standard/ruling-*.yaml.

The slice is computed from NetrunnerDB's own pool files (not from the definitions); every definition loads
with NetrunnerDB statistics; the constructs are exercised by scenarios asserting events, cited rules and
state; each ruling scenario replays to its ruling's answer, or misses it where it carries `mismatch`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import CORPORA
from test_game_verbs import verbs_registered  # noqa: F401  (a fixture: the verbs, registered for this module)

from judgebook.engine.driver.script import check, replay
from judgebook.engine.language.cards import library_items, undefined_reason
from judgebook.engine.language.nodes import At, node_line
from judgebook.engine.language.nrdb import card_source, load_scenario, load_with_stats, parse_with_stats

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
TYPES = {"ice", "upgrade"}


def _slice_ids(cards_root: Path) -> set[str]:
    v2 = cards_root / "v2"
    pool = json.loads((v2 / "card_pools" / "standard.json").read_text(encoding="utf-8"))[-1]
    assert pool["id"] == "rotation_2025"
    sets = {s["id"] for s in json.loads((v2 / "card_sets.json").read_text(encoding="utf-8"))
            if s["card_cycle_id"] in pool["card_cycle_ids"]}
    ids = {p["card_id"] for f in (v2 / "printings").glob("*.json")
           for p in json.loads(f.read_text(encoding="utf-8")) if p["card_set_id"] in sets}
    return {i for i in ids
            if json.loads((v2 / "cards" / f"{i}.json").read_text(encoding="utf-8"))["card_type_id"] in TYPES}


def _items(ids: set[str]) -> dict[str, object]:
    return {i: library_items(LIBRARY / f"{i}.yaml")[0] for i in sorted(ids)}


def test_the_slice_is_79_ice_and_30_upgrades(cards_root: Path):
    ids = _slice_ids(cards_root)
    types = [json.loads((cards_root / "v2" / "cards" / f"{i}.json").read_text(encoding="utf-8"))["card_type_id"]
             for i in ids]
    assert (types.count("ice"), types.count("upgrade")) == (79, 30)


def test_every_card_of_the_slice_has_a_file_keyed_by_its_id(cards_root: Path):
    ids = _slice_ids(cards_root)
    for i, item in _items(ids).items():
        assert isinstance(item, dict) and item["id"] == i


def test_every_definition_loads_with_netrunnerdb_statistics(cards_root: Path):
    source = card_source(cards_root)
    defined = partial = undefined = 0
    for i, item in _items(_slice_ids(cards_root)).items():
        if undefined_reason(item) is not None:
            undefined += 1
            continue
        card = parse_with_stats(item, source, At("card", node_line(item, 1)), str(LIBRARY / f"{i}.yaml"))
        stats = source.by_id[i]
        assert (card.name, card.type, card.side, card.cost) == (stats.title, stats.type, stats.side, stats.cost)
        if card.type == "ice":
            assert card.strength == stats.strength
        partial += card.partial is not None
        defined += card.partial is None
    # Counted independently: `grep -L 'partial:\|undefined:' rules_source/cards/standard/<slice>.yaml | wc -l`,
    # `grep -l '^partial:'` and `grep -l '^undefined:'` over the slice's 109 files.
    assert (defined, partial, undefined) == (DEFINED, PARTIAL, UNDEFINED)


DEFINED, PARTIAL, UNDEFINED = 46, 51, 12


def test_the_library_loader_takes_every_defined_card(cards_root: Path):
    lib = load_with_stats(LIBRARY, cards_root, {str(it["name"]) for it in _items(_slice_ids(cards_root)).values()
                                                if isinstance(it, dict)})
    assert len(lib) == DEFINED + PARTIAL


# --- ruling scenarios ----------------------------------------------------------------------------


def _collect() -> list[Path]:
    """This slice's ruling scenarios (ruling-<card id>-<n>.yaml), read at collection from the corpora folder
    the fixtures use; without it the list is empty and test_at_least_25_ruling_scenarios fails or skips."""
    cards = CORPORA / "netrunner-cards-json"
    if not cards.is_dir():
        return []
    ids = _slice_ids(cards)
    return [p for p in sorted(SCENARIOS.glob("ruling-*.yaml")) if p.stem[len("ruling-"):].rsplit("-", 1)[0] in ids]


RULINGS = _collect()


def test_at_least_25_ruling_scenarios_for_the_slice(cards_root: Path):
    assert len(RULINGS) >= 25


@pytest.mark.parametrize("path", RULINGS, ids=[p.stem for p in RULINGS])
def test_ruling_scenario_replays_to_its_ruling(path: Path, cards_root: Path):
    sc = load_scenario(path, LIBRARY, cards_root)
    diffs = check(sc, replay(sc))
    if sc.mismatch is None:
        assert diffs == []
    else:
        assert diffs != [], "a scenario marked `mismatch` meets its expectation: the mark is stale"


@pytest.mark.parametrize("path", RULINGS, ids=[p.stem for p in RULINGS])
def test_ruling_scenario_names_its_ruling(path: Path, cards_root: Path):
    text = path.read_text(encoding="utf-8")
    m = re.search(r'^source: "NetrunnerDB ruling: ([a-z0-9_]+), (\d{4}-\d\d-\d\d), (not )?NSG-verified"$', text, re.M)
    assert m, "source: \"NetrunnerDB ruling: <card_id>, <date_update>, NSG-verified\" (or not NSG-verified)"
    card_id, date, unverified = m.groups()
    assert path.stem.startswith(f"ruling-{card_id}-")
    rulings = json.loads((cards_root / "v2" / "rulings" / f"{card_id}.json").read_text(encoding="utf-8"))
    found = [r for r in rulings if r["date_update"].startswith(date)]
    assert found, f"no ruling of {date} on {card_id}"
    assert any(r["nsg_rules_team_verified"] is (unverified is None) for r in found)
