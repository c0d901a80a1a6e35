"""Never silently wrong (issue 19 §4): a step that touches a rule the rule map marks "not yet", a card whose
definition is `partial:`, or a scenario's known mismatch says so, with the reason, in the engine's view model
(engine.replay_warnings), in `judgebook replay` (text, `--json`, `--check`), on the replay page and at the
judge's table.

The situation: the Runner uses Pauleʼs Café (a partial card: its install discount is left out) to host a
Makler, then Makler breaks Palisade on HQ and the Runner jacks out. The expected reasons are read from the
documents themselves (the rule map's TOML, Pauleʼs Café's card file, the scenarios' `mismatch:`), never from
the code under test.
"""
from __future__ import annotations

import io
import json
import re
import tomllib
from pathlib import Path

import pytest
import yaml

from judgebook.cli import main
from judgebook.engine import Known, live_mismatch, replay_warnings
from judgebook.engine.driver.script import replay
from judgebook.engine.scenario.board import Mismatch
from judgebook.engine.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "rules_source" / "scenarios"
STANDARD = ROOT / "rules_source" / "cards" / "standard"
MAP = tomllib.loads((ROOT / "judgebook" / "engine" / "rule_map.toml").read_text("utf-8"))["rules"]
CARD = "Pauleʼs Café"       # the partial card the situation touches
PARTIAL = yaml.safe_load((STANDARD / "paules_cafe.yaml").read_text("utf-8"))["partial"]
JACK_OUT = "step_jack_out_choice"
BULWARK = SCENARIOS / "cr16-bulwark-runner-chooses.yaml"
# A stand-in for a known engine mismatch (shipped ones get fixed): Bulwark's example with an outcome the engine
# does not reach and a `mismatch` whose why names no rule a step cites and no card.
WHY = "a stand-in for a known mismatch: the outcome below is not the example's"

BOARD = """\
title: Pauleʼs Café hosts a Makler, Makler breaks Palisade, then the Runner jacks out
start: {turn: runner, at: action_phase}
corp:
  hand: [Hedge Fund]
  servers:
    HQ: {ice: [{card: Palisade, rezzed: true}]}
runner:
  credits: 5
  hand: [Makler]
  installed: [Pauleʼs Café, Makler]
"""
DECISIONS = """\
decisions:
  - {action: use, card: Pauleʼs Café, ability: host}
  - {action: run, server: HQ}
  - {use: Makler, ability: break, subroutines: [1]}
  - {pass: runner}
  - {jack_out: true}
expect:
  run: {successful: false, ended_by: jack_out}
"""
# (step number, event) of the steps that touch Pauleʼs Café (its use, its host instruction resolving), and of
# the Runner's jack-out, in this replay
PARTIAL_STEPS = [(5, "ability_used"), (6, "resolve")]
JACK_OUT_STEP = (34, "jack_out")


def test_the_situation_still_touches_a_not_yet_rule_and_a_partial_card():
    """The premise, from the documents: if a change enforces the jack-out rule or defines the card fully, this
    fails first and says to pick another rule or card (the tests below would otherwise prove nothing)."""
    assert MAP[JACK_OUT]["status"] == "not-yet", f"{JACK_OUT} is enforced now: pick another not-yet rule"
    assert PARTIAL.strip(), f"{CARD} is fully defined now: pick another partial card"


@pytest.fixture()
def card_data(tmp_path, monkeypatch, cards_root):
    """NetrunnerDB's statistics for the Standard library, as `judgebook build --with` remembers them."""
    cfg = tmp_path / "judgebook.local.toml"
    cfg.write_text(f'[build]\nwith = ["{cards_root}"]\n', "utf-8")
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(cfg))
    return cards_root


@pytest.fixture()
def scenario_file(tmp_path, card_data) -> Path:
    f = tmp_path / "paules-cafe-jacks-out.yaml"
    f.write_text(BOARD + DECISIONS, "utf-8")
    return f


def run_cli(capsys, *argv):
    code = main(["replay", *argv, "--index", "/nonexistent-index"])
    out = capsys.readouterr()
    return code, out.out, out.err


# ---- the engine's view model -----------------------------------------------------------------------------
def _replayed(scenario_file, cards_root):
    sc = load_scenario(scenario_file, [STANDARD, ROOT / "rules_source" / "cards"], cards_root)
    return sc, replay(sc)


def test_the_view_model_names_the_rule_and_the_card_the_caller_says_are_known_wrong(scenario_file, cards_root):
    _, out = _replayed(scenario_file, cards_root)
    known = Known(not_yet={JACK_OUT: "a reason given by the caller"})
    warned = replay_warnings(out.steps, out.final, known)
    touched = [(n, out.steps[n - 1].kind, w.kind, w.anchor, w.card, w.reason)
               for n, ws in enumerate(warned, 1) for w in ws]
    assert touched == [(n, kind, "partial-card", None, CARD, PARTIAL) for n, kind in PARTIAL_STEPS] + [
        (*JACK_OUT_STEP, "not-yet-rule", JACK_OUT, None, "a reason given by the caller")]
    # the map decides: with nothing marked "not yet", the jack-out is silent, the partial card still warns
    bare = replay_warnings(out.steps, out.final, Known())
    assert [n for n, ws in enumerate(bare, 1) if ws] == [n for n, _ in PARTIAL_STEPS]


def test_a_mismatch_warns_where_its_why_points_else_at_the_last_step(scenario_file, cards_root):
    _, out = _replayed(scenario_file, cards_root)

    def where(why: str) -> list[tuple[int, str | None, str | None]]:
        warned = replay_warnings(out.steps, out.final, Known(mismatch=why))
        return [(n, w.anchor, w.card) for n, ws in enumerate(warned, 1) for w in ws if w.kind == "mismatch"]

    assert where(f"the engine misreads {JACK_OUT} here") == [(JACK_OUT_STEP[0], JACK_OUT, None)]
    palisade = [n for n, s in enumerate(out.steps, 1) if s.card == "Palisade"]
    assert palisade and where("Palisade's strength is wrong") == [(n, None, "Palisade") for n in palisade]
    assert where("nothing this replay names") == [(len(out.steps), None, None)]


def test_only_a_live_engine_mismatch_warns():
    engine, ruling = Mismatch("engine", "why"), Mismatch("ruling", "overturned")
    assert live_mismatch(engine, ["runner.credits: expected 1, got 0"]) == "why"
    assert live_mismatch(engine, None) == "why"          # the table: not compared with `expect`
    assert live_mismatch(engine, []) is None             # stale: the outcome meets `expect` now
    assert live_mismatch(ruling, ["x"]) is None and live_mismatch(None, ["x"]) is None


# ---- the command line --------------------------------------------------------------------------------------
def test_the_text_replay_says_so_at_the_step(capsys, scenario_file):
    code, out, _ = run_cli(capsys, str(scenario_file))
    assert code == 0
    text = out
    for n, _ in PARTIAL_STEPS:
        block = _block(text, n)
        assert f"    WARNING: card only partly defined: {CARD}: {PARTIAL}" in block, block
    block = _block(text, JACK_OUT_STEP[0])
    assert "jack_out: the Runner jacks out" in block
    assert f"    WARNING: rule not enforced yet: {JACK_OUT}: {MAP[JACK_OUT]['reason']}" in block
    assert text.count("WARNING:") == len(PARTIAL_STEPS) + 1


def _block(text: str, n: int) -> str:
    """Step n's lines of the text replay: from its numbered line to the next step's."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"\s*{n}\. ", line))
    end = next(i for i in range(start + 1, len(lines)) if re.match(r"\s*\d+\. ", lines[i]) or not lines[i].strip())
    return "\n".join(lines[start:end])


def test_json_gives_each_step_its_warnings(capsys, scenario_file):
    code, out, _ = run_cli(capsys, str(scenario_file), "--json")
    steps = json.loads(out)["steps"]
    assert code == 0 and all(isinstance(s["warnings"], list) for s in steps)
    warned = {s["n"]: (s["kind"], s["warnings"]) for s in steps if s["warnings"]}
    partial = {"kind": "partial-card", "anchor": None, "card": CARD, "reason": PARTIAL}
    jack = {"kind": "not-yet-rule", "anchor": JACK_OUT, "card": None, "reason": MAP[JACK_OUT]["reason"]}
    assert warned == {**{n: (kind, [partial]) for n, kind in PARTIAL_STEPS},
                      JACK_OUT_STEP[0]: (JACK_OUT_STEP[1], [jack])}


def test_check_reports_the_warnings_and_does_not_fail_for_them(capsys, scenario_file):
    code, out, err = run_cli(capsys, str(scenario_file), "--check")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        f"{scenario_file}: expectation met",
        f"  {len(PARTIAL_STEPS) + 1} warning(s): the engine may be wrong at these steps",
        *[f"  - step {n}: card only partly defined: {CARD}: {PARTIAL}" for n, _ in PARTIAL_STEPS],
        f"  - step {JACK_OUT_STEP[0]}: rule not enforced yet: {JACK_OUT}: {MAP[JACK_OUT]['reason']}"]


def test_check_of_several_files_counts_the_warnings_and_a_known_mismatch_says_where(capsys, scenario_file, tmp_path):
    why = WHY
    known = tmp_path / "known-mismatch.yaml"
    known.write_text(BULWARK.read_text("utf-8").replace("corp: {credits: 2}", "corp: {credits: 9}")
                     + f"mismatch: {{wrong: engine, why: {WHY!r}}}\n", "utf-8")
    code, out, _ = run_cli(capsys, str(known), "--json")
    steps = json.loads(out)["steps"]
    # its why names no rule a step cites and no card: the warning is on the last step, where the outcome is
    assert code == 0 and [(s["n"], s["warnings"]) for s in steps if s["warnings"]] == [
        (len(steps), [{"kind": "mismatch", "anchor": None, "card": None, "reason": why}])]
    code, out, err = run_cli(capsys, str(scenario_file), str(known), "--check")
    assert code == 0
    assert f"  - step {len(steps)}: known mismatch: {why}" in out
    assert err == f"judgebook replay: 2 of 2 scenario(s) as expected; {len(PARTIAL_STEPS) + 2} warning(s) " \
                  "in 2 scenario(s)\n"


def test_a_file_with_nothing_known_wrong_reports_no_warning(capsys, card_data):
    bulwark = SCENARIOS / "cr16-bulwark-runner-chooses.yaml"
    code, out, _ = run_cli(capsys, str(bulwark), "--check")
    assert code == 0 and out == f"{bulwark}: expectation met\n"
    _, out, _ = run_cli(capsys, str(bulwark), "--json")
    assert all(s["warnings"] == [] for s in json.loads(out)["steps"])


def test_the_interactive_player_says_so_under_the_step(capsys, monkeypatch, scenario_file):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code = main(["play", str(scenario_file), "--script", "--index", "/nonexistent-index"])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert code == 0
    warned = [(lines[i - 1].split(":")[0].strip(" ·"), line) for i, line in enumerate(lines) if "WARNING" in line]
    assert warned == [(f"{kind} [{how}]", f"    WARNING: card only partly defined: {CARD}: {PARTIAL}")
                      for kind, how in (("ability_used", "engine"), ("resolve", "engine"))] + [
        ("jack_out [chosen]", f"    WARNING: rule not enforced yet: {JACK_OUT}: {MAP[JACK_OUT]['reason']}")]
