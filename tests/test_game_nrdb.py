"""Card statistics from NetrunnerDB (judgebook.engine.language.nrdb), read from the `cards_root` corpus.

Expected values are read independently from the corpus JSON in each test (json.load), never from the
code under test; the definitions written here state abilities only.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.nrdb import CardSource, card_source, load_with_stats
from judgebook.engine.scenario.load import load_scenario


def _raw(cards_root: Path, card_id: str) -> dict:  # type: ignore[type-arg]
    return json.loads((cards_root / "v2" / "cards" / f"{card_id}.json").read_text(encoding="utf-8"))


def test_every_card_is_read(cards_root: Path):
    # Counted independently: `ls v2/cards/*.json | wc -l` gives 1988.
    assert len(card_source(cards_root)) == 1988


@pytest.mark.parametrize("card_id", ["cyberfeeder", "ice_wall", "hostile_takeover", "datasucker",
                                     "tiered_subscription", "bhagat", "tao_salonga_telepresence_magician",
                                     "primary_transmission_dish", "enigma"])
def test_statistics_match_the_json(cards_root: Path, card_id: str):
    raw = _raw(cards_root, card_id)
    stats = card_source(cards_root).get(raw["title"])
    assert stats is not None and stats.id == card_id
    assert stats.side == raw["side_id"]
    assert stats.type == {"corp_identity": "identity", "runner_identity": "identity"}.get(
        raw["card_type_id"], raw["card_type_id"])
    assert (stats.cost, stats.strength, stats.trash_cost) == (raw.get("cost"), raw.get("strength"),
                                                              raw.get("trash_cost"))
    assert (stats.agenda_points, stats.advancement_requirement) == (raw.get("agenda_points"),
                                                                    raw.get("advancement_requirement"))
    assert (stats.memory, stats.link, stats.influence) == (raw.get("memory_cost"), raw.get("base_link"),
                                                           raw.get("influence_cost"))
    assert stats.unique is raw["is_unique"]
    assert len(stats.subtypes) == len(raw.get("subtypes") or [])
    assert stats.text == raw["text"]


def test_subtype_names_come_from_the_subtype_list(cards_root: Path):
    names = {s["id"]: s["name"].lower()
             for s in json.loads((cards_root / "v2" / "card_subtypes.json").read_text(encoding="utf-8"))}
    raw = _raw(cards_root, "enigma")
    assert card_source(cards_root).get("Enigma").subtypes == tuple(names[s] for s in raw["subtypes"])  # type: ignore
    assert "code gate" in card_source(cards_root).get("Enigma").subtypes  # type: ignore[union-attr]


def test_recurring_credits_read_from_the_text(cards_root: Path):
    src = card_source(cards_root)
    assert src.get("Primary Transmission Dish").recurring == 3  # type: ignore[union-attr]
    assert src.get("Cyberfeeder").recurring == 1  # type: ignore[union-attr]
    assert src.get("Hedge Fund").recurring is None  # type: ignore[union-attr]


def test_a_stripped_title_finds_the_card(cards_root: Path):
    raw = _raw(cards_root, "tao_salonga_telepresence_magician")
    assert raw["stripped_title"] != raw["title"]
    assert card_source(cards_root).get(raw["stripped_title"]).id == raw["id"]  # type: ignore[union-attr]


def test_a_folder_that_is_not_a_card_source_is_an_error(tmp_path: Path):
    with pytest.raises(ScenarioError):
        CardSource(tmp_path)


def _library(tmp_path: Path, text: str) -> Path:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "card.yaml").write_text(text, encoding="utf-8")
    return lib


def test_a_definition_with_abilities_only_gets_the_statistics(cards_root: Path, tmp_path: Path):
    lib = _library(tmp_path, "name: Hedge Fund\nabilities:\n  - {id: play, effects: [{gain_credits: 9}]}\n")
    card = load_with_stats(lib, cards_root)["Hedge Fund"]
    raw = _raw(cards_root, "hedge_fund")
    assert (card.side, card.type, card.cost) == (raw["side_id"], raw["card_type_id"], raw["cost"])
    assert card.subtypes == ("transaction",) and card.text == raw["text"]
    assert [a.id for a in card.abilities] == ["play"]


def test_statistics_that_agree_are_accepted(cards_root: Path, tmp_path: Path):
    lib = _library(tmp_path, "name: Ice Wall\nside: corp\ntype: ice\ncost: 1\nstrength: 1\nsubtypes: [Barrier]\n"
                             "subroutines: [[end_the_run]]\n")
    assert load_with_stats(lib, cards_root)["Ice Wall"].strength == 1


@pytest.mark.parametrize("key,value,line", [("cost", 4, 3), ("strength", 2, 3), ("subtypes", "[sentry]", 3),
                                            ("type", "asset", 3), ("side", "runner", 3)])
def test_a_statistic_that_disagrees_is_an_error_naming_the_field(cards_root: Path, tmp_path: Path, key: str,
                                                                 value: object, line: int):
    lib = _library(tmp_path, f"name: Ice Wall\nsubroutines: [[end_the_run]]\n{key}: {value}\n")
    with pytest.raises(ScenarioError) as err:
        load_with_stats(lib, cards_root)
    assert err.value.field == f"card.{key}" and err.value.line == line
    assert err.value.file is not None and err.value.file.endswith("card.yaml")


def test_a_zero_statistic_the_card_lacks_is_accepted_and_a_nonzero_one_is_not(cards_root: Path, tmp_path: Path):
    lib = _library(tmp_path, "name: Hedge Fund\nagenda_points: 2\n")
    with pytest.raises(ScenarioError) as err:
        load_with_stats(lib, cards_root)
    assert err.value.field == "card.agenda_points"
    (lib / "card.yaml").write_text("name: Hedge Fund\nmemory: 0\n", encoding="utf-8")
    assert load_with_stats(lib, cards_root)["Hedge Fund"].memory == 0


def test_a_card_netrunnerdb_does_not_know_states_its_own_statistics(cards_root: Path, tmp_path: Path):
    lib = _library(tmp_path, "name: Not A Real Card\nside: corp\ntype: asset\ncost: 2\n")
    assert load_with_stats(lib, cards_root)["Not A Real Card"].cost == 2
    (lib / "card.yaml").write_text("name: Not A Real Card\ncost: 2\n", encoding="utf-8")
    with pytest.raises(ScenarioError):
        load_with_stats(lib, cards_root)


def test_without_a_card_source_the_definition_is_parsed_as_written(tmp_path: Path):
    lib = _library(tmp_path, "name: Hedge Fund\nside: corp\ntype: operation\ncost: 3\n")
    assert load_with_stats(lib, None)["Hedge Fund"].cost == 3


def test_inline_definitions_of_a_scenario_are_joined_with_their_line(cards_root: Path, tmp_path: Path):
    path = tmp_path / "s.yaml"
    path.write_text("title: t\nstart: {turn: corp}\ncard_defs:\n  - {name: Hedge Fund}\n  - {name: Ice Wall, "
                    "cost: 3}\ncorp: {hand: [Hedge Fund, Ice Wall]}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_scenario(path, None, cards_root)
    assert err.value.field == "card_defs[1].cost" and err.value.line == 5 and err.value.file == str(path)
    path.write_text("title: t\nstart: {turn: corp}\ncard_defs:\n  - {name: Hedge Fund}\n"
                    "corp: {hand: [Hedge Fund]}\n", encoding="utf-8")
    sc = load_scenario(path, None, cards_root)
    assert sc.library.card("Hedge Fund").cost == _raw(cards_root, "hedge_fund")["cost"]


def test_names_limits_what_is_parsed(cards_root: Path, tmp_path: Path):
    lib = _library(tmp_path, "cards:\n  - name: Hedge Fund\n  - name: Ice Wall\n    cost: 99\n")
    assert set(load_with_stats(lib, cards_root, {"Hedge Fund"})) == {"Hedge Fund"}
    with pytest.raises(ScenarioError) as err:
        load_with_stats(lib, cards_root)
    assert err.value.field == "cards[1].cost" and err.value.line == 4
