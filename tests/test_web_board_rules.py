"""The rules of the board (web/board_rules.py, issue 21): what the builder says breaks a rule of the game,
and what is legal but surprising, over the project's card library with NetrunnerDB's statistics."""
from __future__ import annotations

from pathlib import Path

import pytest

from judgebook.engine.language.nrdb import card_source
from judgebook.ingestion import nrdb
from judgebook.web.board_form import Board, Entry, Player, Server
from judgebook.web.board_rules import review
from judgebook.web.card_catalog import catalog

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "rules_source" / "cards"

pytestmark = pytest.mark.corpora


@pytest.fixture(scope="module")
def cat(cards_root):
    folders = [CARDS / "standard"] + sorted(p for p in CARDS.iterdir() if p.is_dir() and p.name != "standard")
    return catalog(folders, card_source(cards_root))


FULL_RND = Player("corp", piles=(("deck", (Entry("corp_deck0", "Hedge Fund"),)),))


def board(**kw) -> Board:
    servers = kw.pop("servers", (Server("s0", "HQ"), Server("s1", "R&D"), Server("s2", "Archives")))
    return Board(servers=servers, corp=kw.pop("corp", FULL_RND), **kw)


def said(r) -> dict[str, str]:
    return {n.key: n.text for n in r.broken}


def test_a_legal_board_breaks_nothing(cat):
    r = review(board(rig=(Entry("rig0", "Makler"),)), cat, None, 3)
    assert r.broken == () and r.surprising == () and not r.stops_play


def test_a_card_on_the_wrong_side(cat):
    corp = Player("corp", piles=(("hand", (Entry("corp_hand0", "Tranquilizer"),)),
                                 ("deck", (Entry("corp_deck0", "Hedge Fund"),))))
    r = review(board(corp=corp), cat, None, None)
    assert said(r) == {"corp_hand0_card": "Tranquilizer is a Runner card: it cannot be in HQ"}
    assert r.stops_play


def test_two_copies_of_a_unique_card_and_two_consoles(cat):
    r = review(board(rig=(Entry("rig0", "Alarm Clock"), Entry("rig1", "Alarm Clock"))), cat, None, 4)
    assert said(r) == {"rig1_card": "Alarm Clock is unique: only one copy can be installed "
                                    "(installing another trashes the first)"}
    r = review(board(rig=(Entry("rig0", "Hermes"), Entry("rig1", "Pantograph"))), cat, None, 4)
    assert said(r) == {"rig1_card": "two consoles (Hermes, Pantograph): the Runner can have only one console "
                                    "installed"}


def test_more_programs_than_memory(cat):
    r = review(board(rig=(Entry("rig0", "Makler"),)), cat, None, -1)
    assert said(r) == {"runner_memory": "the installed programs use 1 more memory than the Runner has: the "
                                        "Runner would trash programs until they fit"}


def test_an_agenda_and_an_asset_in_one_root_and_an_agenda_in_a_central_root(cat):
    remote = Server("s3", "Server 1", root=(Entry("s3_root0", "Above the Law"), Entry("s3_root1", "B-1001")))
    central = Server("s0", "HQ", root=(Entry("s0_root0", "Above the Law"),))
    r = review(board(servers=(central, Server("s1", "R&D"), Server("s2", "Archives"), remote)), cat, None, None)
    assert said(r) == {
        "s0_root0_card": "Above the Law is an agenda: a central server's root holds only upgrades",
        "s3_root1_card": "Above the Law (agenda) and B-1001 (asset) in one root: a remote server holds only one "
                         "agenda or asset"}


def test_an_empty_rnd_is_said_and_stops_play_only_when_the_corp_is_about_to_draw(cat):
    r = review(Board(), cat, None, None)
    assert [n.key for n in r.surprising] == ["corp_deck0_card"] and r.empty_rnd and not r.stops_play
    assert "the Corp loses when it must draw" in r.surprising[0].text
    assert review(Board(turn="corp", at="corp_turn"), cat, None, None).stops_play


@pytest.mark.parametrize("fmt", ["standard", "startup", "eternal"])
def test_a_card_outside_the_formats_pool_is_said(cat, cards_root, fmt):
    v2 = cards_root / "v2"
    rules = next(r for r in nrdb.read_formats(v2, cards_root) if r.id == fmt)
    sets = nrdb.card_sets(v2, cards_root)

    def status(cid):
        return rules.status(cid, sets.get(cid, set()))

    cards = ("Makler", "Palisade", "Tranquilizer", "Hedge Fund")
    rig = (Entry("rig0", "Makler"), Entry("rig1", "Tranquilizer"))
    servers = (Server("s0", "HQ", ice=(Entry("s0_ice0", "Palisade"),)), Server("s1", "R&D"), Server("s2", "Archives"))
    r = review(board(rig=rig, servers=servers, format=fmt), cat, status, 2)
    expected = {n for n in cards if status(cat.get(n).nrdb_id) in ("banned", "not in the card pool")}
    assert {n.text.split(" is ")[0] for n in r.surprising} == expected
    assert (expected == {"Makler"}) == (fmt == "startup")    # NetrunnerDB: Makler is outside Startup's pool
    for n in r.surprising:
        assert n.text.endswith(f"in {fmt.capitalize()}")
