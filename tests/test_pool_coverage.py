"""The Standard pool read from NetrunnerDB, and `judgebook cards coverage` over card definitions."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from judgebook.cards.definitions import DefinitionError, read_definitions
from judgebook.cards.pool import PoolError, read_pool
from judgebook.cli import main

FIXTURE_CARDS = Path(__file__).resolve().parent / "fixtures" / "pool_cards"


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "judgebook.local.toml"))


def cli(capsys, *argv):
    code = main(["cards", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_standard_pool_is_seventh_rotation_with_547_cards(cards_root):
    pool = read_pool(cards_root, "standard")
    assert (pool.format, pool.id, pool.name) == ("standard", "rotation_2025", "Seventh Rotation")
    assert len(pool.cards) == 547 and len(pool.ids()) == 547
    assert Counter((c.side, c.type) for c in pool.cards) == {
        ("corp", "agenda"): 54, ("corp", "asset"): 55, ("corp", "identity"): 26, ("corp", "ice"): 79,
        ("corp", "operation"): 55, ("corp", "upgrade"): 30, ("runner", "event"): 56, ("runner", "hardware"): 47,
        ("runner", "program"): 73, ("runner", "resource"): 52, ("runner", "identity"): 20}
    hedge = next(c for c in pool.cards if c.id == "hedge_fund")
    assert (hedge.title, hedge.side, hedge.type) == ("Hedge Fund", "corp", "operation")


def _independent_pool_size(cards_root: Path, fmt: str) -> tuple[str, int]:
    """The newest snapshot's pool, counted straight from the JSON (not through judgebook.cards.pool)."""
    v2 = cards_root / "v2"
    pool_id = json.loads((v2 / "formats" / f"{fmt}.json").read_text())["snapshots"][-1]["card_pool_id"]
    sets = set(next(p for p in json.loads((v2 / "card_pools" / f"{fmt}.json").read_text())
                    if p["id"] == pool_id)["card_set_ids"])
    ids = {row["card_id"] for f in (v2 / "printings").glob("*.json") for row in json.loads(f.read_text())
           if row["card_set_id"] in sets}
    return pool_id, len(ids)


@pytest.mark.parametrize("fmt", ["startup", "eternal"])
def test_startup_and_eternal_pools_are_their_newest_snapshots(cards_root, fmt):
    pool = read_pool(cards_root, fmt)
    assert (pool.id, len(pool.cards)) == _independent_pool_size(cards_root, fmt)


def test_an_unknown_format_or_folder_is_a_pool_error(cards_root, tmp_path):
    with pytest.raises(PoolError, match="unknown format 'classic'"):
        read_pool(cards_root, "classic")
    with pytest.raises(PoolError, match="not a netrunner-cards-json folder"):
        read_pool(tmp_path, "standard")


def test_coverage_counts_defined_partial_and_undefined(capsys, cards_root):
    code, out, err = cli(capsys, "coverage", "--nrdb", str(cards_root), "--cards-dir", str(FIXTURE_CARDS), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    # the fixture folder: 13 pool cards defined, 1 partial, 1 stub; Jesminder Sareen is not in the pool
    assert (data["format"], data["pool"], data["total"], data["defined"]) == ("standard", "rotation_2025", 547, 13)
    assert data["partial"] == [{"id": "in_the_groove", "title": "In the Groove",
                                "missing": 'fixture: "play only as your first [click]" is not said'}]
    assert len(data["undefined"]) == 547 - 13 - 1
    assert data["counts"] == {"defined": 13, "partial": 1, "undefined": 533}
    stub = [u for u in data["undefined"] if u["id"] == "business_as_usual"]
    assert stub == [{"id": "business_as_usual", "title": "Business As Usual", "missing":
                     "fixture: a choice between two modes, one of them spending advancement counters, "
                     "is not written here"}]
    assert sum(1 for u in data["undefined"] if u["missing"] == "not yet written") == 547 - 15
    rows = {(r["side"], r["type"]): r for r in data["by_type"]}
    assert rows[("corp", "operation")] == {"side": "corp", "type": "operation", "defined": 2, "partial": 0,
                                           "undefined": 53, "total": 55}
    assert rows[("runner", "event")]["partial"] == 1 and rows[("runner", "identity")]["defined"] == 1


def test_coverage_as_text_gives_the_table_and_the_lists(capsys, cards_root):
    code, out, _ = cli(capsys, "coverage", "--nrdb", str(cards_root), "--cards-dir", str(FIXTURE_CARDS))
    assert code == 0
    assert out.splitlines()[0] == ("standard: pool rotation_2025 (Seventh Rotation), 547 cards: 13 defined (2.4 %), "
                                   "1 partial, 533 undefined")
    assert "corp   operation         2       0        53     55" in out.splitlines()
    assert "  in_the_groove In the Groove: fixture:" in out
    assert "Undefined (" in out and "business_as_usual Business As Usual: fixture: a choice" in out


def test_a_definition_that_does_not_parse_is_an_error_not_undefined(capsys, cards_root, tmp_path):
    bad = tmp_path / "hedge_fund.yaml"
    bad.write_text("id: hedge_fund\nname: Hedge Fund\nabilities:\n  - {effects: [{gain_credits: 9}], colour: red}\n")
    code, out, err = cli(capsys, "coverage", "--nrdb", str(cards_root), "--cards-dir", str(tmp_path))
    assert code == 2 and out == ""
    assert str(bad) in err and "line 4" in err and "colour" in err
    bad.write_text("id: hedge_fund\nname: Hedge Fun\n")
    with pytest.raises(DefinitionError, match=r"line 2: card\.name: NetrunnerDB hedge_fund is titled 'Hedge Fund'"):
        from judgebook.engine.language.nrdb import card_source
        read_definitions(tmp_path, card_source(cards_root))


def test_a_stub_says_why_and_holds_nothing_else(cards_root, tmp_path):
    from judgebook.engine.language.nrdb import card_source
    (tmp_path / "hedge_fund.yaml").write_text("id: hedge_fund\nname: Hedge Fund\nundefined: ''\n")
    with pytest.raises(DefinitionError, match="line 3: card.undefined: `undefined` says what"):
        read_definitions(tmp_path, card_source(cards_root))
    (tmp_path / "hedge_fund.yaml").write_text("id: hedge_fund\nname: Hedge Fund\nundefined: why\nabilities: []\n")
    with pytest.raises(DefinitionError, match="card.abilities: an `undefined` stub holds only"):
        read_definitions(tmp_path, card_source(cards_root))


def test_the_same_id_twice_is_an_error(cards_root, tmp_path):
    from judgebook.engine.language.nrdb import card_source
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text("id: hedge_fund\nname: Hedge Fund\nundefined: why\n")
    with pytest.raises(DefinitionError, match="'hedge_fund' is defined twice"):
        read_definitions(tmp_path, card_source(cards_root))


def test_coverage_needs_netrunnerdb_data(capsys, tmp_path):
    code, out, err = cli(capsys, "coverage")
    assert code == 2 and out == "" and "no NetrunnerDB data" in err
    code, out, err = cli(capsys, "coverage", "--nrdb", str(tmp_path))
    assert code == 2 and "not a netrunner-cards-json folder" in err
    code, _, err = cli(capsys, "coverage", "--nrdb", str(tmp_path), "--cards-dir", str(tmp_path / "none"))
    assert code == 2 and "not a folder" in err


def test_coverage_takes_the_netrunnerdb_path_replay_uses(capsys, cards_root, tmp_path):
    from judgebook import config
    config.remember([str(cards_root)])
    code, out, _ = cli(capsys, "coverage", "--cards-dir", str(FIXTURE_CARDS), "--json")
    assert code == 0 and json.loads(out)["defined"] == 13
