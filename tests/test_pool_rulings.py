"""Ruling scenarios: `mismatch` given its effect (a known mismatch passes by missing `expect`, a stale one
fails), `judgebook replay --check` on them, and `judgebook cards rulings`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import replays

from judgebook.cards import rulings
from judgebook.cards.rulings import default_dir, replay_ruling, ruling_files
from judgebook.cli import main
from judgebook.engine.language.nrdb import card_source
from judgebook.engine.scenario.board import Mismatch
from judgebook.engine.scenario.verdict import verdict

TESTS = Path(__file__).resolve().parent
FIXTURE_CARDS = TESTS / "fixtures" / "pool_cards"
FIXTURE_RULINGS = TESTS / "fixtures" / "pool_scenarios"
MET = FIXTURE_RULINGS / "ruling-funhouse-2.yaml"
KNOWN = FIXTURE_RULINGS / "ruling-funhouse-1.yaml"     # expects 5 tags; the replay leaves 2
STANDARD_CARDS = TESTS.parent / "rules_source" / "cards" / "standard"


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "judgebook.local.toml"))


def cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def stale_copy(tmp_path: Path) -> Path:
    """The known-mismatch fixture with its expect made true (2 tags: the one taken, the subroutine's)."""
    text = KNOWN.read_text()
    assert text.count("runner: {tags: 5}") == 1
    stale = tmp_path / "ruling-funhouse-1.yaml"
    stale.write_text(text.replace("runner: {tags: 5}", "runner: {tags: 2}"))
    return stale


def test_the_verdict_of_a_mismatch():
    m = Mismatch("ruling", "rule_x changed in CR 26.03")
    assert verdict(True, ["x"], m).passed and not verdict(True, ["x"], m).stale
    assert verdict(True, ["x"], m).label() == "known mismatch: ruling: rule_x changed in CR 26.03"
    assert not verdict(True, [], m).passed and verdict(True, [], m).stale
    assert verdict(True, [], None).passed and not verdict(True, ["x"], None).passed
    assert not verdict(False, [], None).passed and not verdict(False, [], m).passed


def test_replay_check_says_known_mismatch_and_exits_0(capsys, tmp_path):
    code, out, err = cli(capsys, "replay", "--check", "--library", str(FIXTURE_CARDS), str(KNOWN),
                         "--index", str(tmp_path / "none"))
    assert code == 0 and err == ""
    assert out.splitlines()[0] == (f"{KNOWN}: known mismatch: engine: fixture: stands for a ruling the engine "
                                   "does not reach")
    code, out, _ = cli(capsys, "replay", "--library", str(FIXTURE_CARDS), str(KNOWN), "--json",
                       "--index", str(tmp_path / "none"))
    assert json.loads(out)["expectation"]["mismatch"] == {
        "wrong": "engine", "why": "fixture: stands for a ruling the engine does not reach", "stale": False}


def test_replay_check_fails_a_stale_mismatch(capsys, tmp_path):
    stale = stale_copy(tmp_path)
    code, out, err = cli(capsys, "replay", "--check", "--library", str(FIXTURE_CARDS), str(stale),
                         "--index", str(tmp_path / "none"))
    assert code == 1
    assert out.startswith(f"{stale}: stale mismatch: the outcome now meets `expect`")
    assert "remove `mismatch`" in err


def test_the_rulings_report(capsys, cards_root):
    code, out, err = cli(capsys, "cards", "rulings", "--nrdb", str(cards_root), "--cards-dir", str(FIXTURE_CARDS),
                         "--scenarios-dir", str(FIXTURE_RULINGS), "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert {k: data[k] for k in ("scenarios", "met", "known_mismatch", "failed", "stale_mismatch", "error",
                                 "nsg_verified")} == {"scenarios": 2, "met": 1, "known_mismatch": 1, "failed": 0,
                                                      "stale_mismatch": 0, "error": 0, "nsg_verified": 2}
    assert [(r["file"], r["status"], r["card_id"], r["date"]) for r in data["not_met"]] == [
        (str(KNOWN), "known_mismatch", "funhouse", "2021-10-11")]
    code, out, _ = cli(capsys, "cards", "rulings", "--nrdb", str(cards_root), "--cards-dir", str(FIXTURE_CARDS),
                       "--scenarios-dir", str(FIXTURE_RULINGS))
    assert out.splitlines()[0] == ("2 ruling scenarios (2 NSG-verified): 1 replay to the ruling's answer, "
                                   "1 known mismatches, 0 failed, 0 stale mismatches, 0 errors")


@pytest.mark.parametrize("source, error", [
    ("CR 1.6 example", "source is \"NetrunnerDB ruling: <card_id>"),
    ("NetrunnerDB ruling: funhouse, 2021-10-11, not NSG-verified", "no ruling on funhouse dated 2021-10-11 not"),
    ("NetrunnerDB ruling: funhouse, 2020-01-01, NSG-verified", "no ruling on funhouse dated 2020-01-01"),
])
def test_a_ruling_scenario_names_a_real_ruling(cards_root, tmp_path, source, error):
    bad = tmp_path / MET.name
    bad.write_text(MET.read_text().replace('"NetrunnerDB ruling: funhouse, 2021-10-11, NSG-verified"',
                                           json.dumps(source)))
    result = replay_ruling(bad, FIXTURE_CARDS, card_source(cards_root), cards_root)
    assert result.status == "error" and error in result.error and "source" in result.error


def test_a_stale_mismatch_fails_the_report(cards_root, tmp_path):
    result = replay_ruling(stale_copy(tmp_path), FIXTURE_CARDS, card_source(cards_root), cards_root)
    assert result.status == "stale_mismatch"


# Every ruling scenario of the Standard pool (and the fixtures) replays to the ruling's answer or carries a
# `mismatch` saying which is wrong; a stale mismatch fails too.
@pytest.mark.parametrize("path", ruling_files(default_dir()) + ruling_files(FIXTURE_RULINGS), ids=lambda p: p.name)
def test_every_ruling_scenario_replays_to_its_expect_or_carries_mismatch(path: Path, cards_root, monkeypatch):
    library = STANDARD_CARDS if path.parent == default_dir() else FIXTURE_CARDS
    # The engine's replay, once per run: the pool family tests replay the same scenarios (tests/replays.py).
    monkeypatch.setattr(rulings, "replay", replays.verdict_only)
    result = replay_ruling(path, library, card_source(cards_root), cards_root)
    assert result.status in ("met", "known_mismatch"), f"{result.status}: {result.reason()}"
