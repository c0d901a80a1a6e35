"""`judgebook replay FILE [--json] [--until STEP] [--index DIR]`."""
from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from judgebook.cli import main
from judgebook.model import Document, Provenance, Section

SCENARIO = "engine-etr-mid-subroutines.yaml"


@pytest.fixture
def scenario_file(rules_source):
    return str(rules_source / "scenarios" / SCENARIO)


@pytest.fixture
def no_index(tmp_path):
    return str(tmp_path / "no-index-here")


@pytest.fixture
def tiny_index(tmp_path):
    """A one-section index generation holding cr-26.03's resolve-subroutine step."""
    gen = tmp_path / "gen-1"
    gen.mkdir()
    doc = Document("cr-26.03", "Comprehensive Rules", edition="26.03", effective="2026-03-01",
                   era="nsg", is_cr=True)
    sec = Section(id="cr-26.03:step_resolve_subroutine", doc="cr-26.03", number="6.9.3c", title="",
                  kind="step", text="If there are unbroken subroutines ...", anchor="step_resolve_subroutine",
                  provenance=Provenance(file="06_runs.yaml"))
    (gen / "documents.json").write_text(json.dumps([asdict(doc)]), encoding="utf-8")
    (gen / "sections.jsonl").write_text(json.dumps(asdict(sec)) + "\n", encoding="utf-8")
    (gen / "build.json").write_text("{}", encoding="utf-8")
    (tmp_path / "current").symlink_to(gen)
    return str(tmp_path)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_timeline_is_numbered_with_citations_and_outcome(capsys, scenario_file, no_index):
    code, out, _ = run_cli(capsys, "replay", scenario_file, "--index", no_index)
    assert code == 0
    assert "Replay: End the run stops the remaining subroutines" in out
    assert " 1. [" in out
    assert ("15. [Runner's turn › action phase › take an action › run › encounter ice › resolve unbroken subroutines]"
            " subroutine: Wall of Static Plus subroutine 1 resolves: Do 1 net damage.") in out
    # CR 26.03 is not loaded, yet the citation names the rule's number and heading
    assert ("rule: step_resolve_subroutine — CR 26.03 6.9.3c (Steps of a Run › Encounter Ice Phase), "
            "not in the loaded documents") in out
    # the board's changes, in the web page's keys: the run's click, then the net damage's trashed card
    assert "changed: runner clicks 4 → 3" in out
    assert "changed: runner cards in hand 3 → 2; runner discard pile [] → [Sure Gamble]" in out
    assert "run on R&D: unsuccessful, ended by end_the_run" in out
    # the second subroutine ends the run: the third never resolves
    assert "resolved, in order: Wall of Static Plus:sub1, Wall of Static Plus:sub2\n" in out


def test_json_shape(capsys, scenario_file, no_index):
    code, out, _ = run_cli(capsys, "replay", scenario_file, "--json", "--index", no_index)
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"outcome", "steps"}
    step = data["steps"][0]
    assert set(step) >= {"n", "phase", "kind", "text", "rule", "state", "changes", "path", "how", "player"}
    assert step["kind"] == "pass" and step["how"] == "only" and step["player"] == "runner"
    assert step["path"] == ["Runner's turn", "action phase", "paid ability window"]
    assert step["rule"] == {"anchor": "rule_pass", "id": None, "number": "9.2.4b",
                            "doc": None, "title": "Abilities › Timing and Priority",
                            "note": "CR 26.03 9.2.4b (Abilities › Timing and Priority), "
                                    "not in the loaded documents"}
    begins = next(s for s in data["steps"] if s["kind"] == "run_begins")
    assert begins["state"] == {"runner clicks": [4, 3]}
    assert data["outcome"]["runs"][0]["ended_by"] == "end_the_run"


def test_until_limits_the_steps(capsys, scenario_file, no_index):
    _, out, _ = run_cli(capsys, "replay", scenario_file, "--json", "--until", "3", "--index", no_index)
    data = json.loads(out)
    assert [s["n"] for s in data["steps"]] == [1, 2, 3] and data["until"] == 3


def test_until_must_be_positive(capsys, scenario_file):
    code, _, err = run_cli(capsys, "replay", scenario_file, "--until", "0")
    assert code == 2 and "--until" in err


def test_citations_resolve_against_the_loaded_cr(capsys, scenario_file, tiny_index):
    code, out, _ = run_cli(capsys, "replay", scenario_file, "--json", "--index", tiny_index)
    steps = json.loads(out)["steps"]
    sub = next(s for s in steps if s["kind"] == "subroutine")
    assert sub["rule"]["doc"] == "cr-26.03" and sub["rule"]["number"] == "6.9.3c"
    assert sub["rule"]["id"] == "cr-26.03:step_resolve_subroutine"
    other = next(s for s in steps if s["kind"] == "end_the_run")
    assert other["rule"]["doc"] is None and other["rule"]["note"].endswith("not in the loaded documents")
    # the top-level --index works too
    code, text, _ = run_cli(capsys, "--index", tiny_index, "replay", scenario_file)
    assert "rule: cr-26.03 6.9.3c (step_resolve_subroutine)" in text


def test_same_scenario_same_output(capsys, scenario_file, no_index):
    first = run_cli(capsys, "replay", scenario_file, "--json", "--index", no_index)
    second = run_cli(capsys, "replay", scenario_file, "--json", "--index", no_index)
    assert first == second


def test_malformed_scenario_names_field_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: bad\nrunner:\n  credits: many\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", str(bad))
    assert code == 2 and out == ""
    assert "line 3" in err and "runner.credits" in err and "Traceback" not in err


def test_missing_file_is_a_clear_error(capsys, tmp_path):
    code, _, err = run_cli(capsys, "replay", str(tmp_path / "nope.yaml"))
    assert code == 2 and "cannot read scenario" in err


def test_illegal_decision_prints_the_partial_timeline_and_the_rule(capsys, tmp_path, no_index):
    bad = tmp_path / "illegal.yaml"
    bad.write_text(
        "title: too poor\n"
        "card_defs:\n"
        "  - {name: Ice Wall, side: corp, type: ice, subtypes: [barrier], cost: 1, strength: 1,\n"
        "     subroutines: [[end_the_run]]}\n"
        "  - name: Corroder\n"
        "    side: runner\n"
        "    type: program\n"
        "    subtypes: [icebreaker]\n"
        "    strength: 2\n"
        "    abilities: [{id: break, cost: {credits: 1}, break: {subtype: barrier}}]\n"
        "corp: {servers: {HQ: {ice: [{card: Ice Wall, rezzed: true}]}}}\n"
        "runner: {credits: 0, installed: [Corroder]}\n"
        "decisions:\n"
        "  - {action: run, server: HQ}\n"
        "  - {use: Corroder, ability: break}\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "replay", str(bad), "--index", no_index)
    assert code == 1
    assert "ILLEGAL DECISION" in out and "line 15" in out
    assert "breaks: rule_cost — CR 26.03 1.16.1 (Game Concepts › Costs), not in the loaded documents" in out
    assert "the Runner encounters Ice Wall" in out
    code, out, _ = run_cli(capsys, "replay", str(bad), "--json", "--index", no_index)
    data = json.loads(out)
    assert data["error"]["rule"]["anchor"] == "rule_cost" and data["error"]["line"] == 15
