"""`judgebook engine rules`: the rule map as text and JSON, filtered by status; errors on stderr."""
from __future__ import annotations

import json

import pytest

from judgebook import cli
from judgebook.linking import rule_map as rm


def run(capsys, *argv):
    code = cli.main(["engine", "rules", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_lists_every_rule_with_counts(capsys):
    code, out, err = run(capsys, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    counts = rm.rule_map().counts()          # asserted exactly in tests/test_rule_map.py
    assert data["counts"] == counts and sum(counts.values()) == 1551
    assert len(data["rules"]) == 1551
    flatline = next(r for r in data["rules"] if r["anchor"] == "rule_flatline")
    assert flatline == {"anchor": "rule_flatline", "number": "1.7.2b", "status": "enforced",
                        "modules": ["judgebook.engine.rules.damage"],
                        "scenarios": ["glossary-boom-flatline.yaml"], "reason": ""}
    assert data["chapters"]["11"] == {"enforced": 0, "no-behaviour": 9, "not-yet": 0}


def test_status_filters_the_rules_not_the_counts(capsys):
    code, out, _ = run(capsys, "--json", "--status", "not-yet")
    data = json.loads(out)
    assert code == 0 and len(data["rules"]) == rm.rule_map().counts()["not-yet"] > 0
    assert {r["status"] for r in data["rules"]} == {"not-yet"} and all(r["reason"] for r in data["rules"])
    assert data["counts"]["enforced"] == 207


def test_text_is_a_table_with_the_counts(capsys):
    code, out, _ = run(capsys, "--status", "enforced")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["rule", "status", "detail"]
    assert "1.7.2b    enforced      rule_flatline: judgebook.engine.rules.damage; 1 scenario(s): " \
           "glossary-boom-flatline.yaml" in lines
    assert len([line for line in lines if " enforced " in line]) == 207
    c = rm.rule_map().counts()
    assert lines[-1] == f"whole map: 207 enforced, {c['no-behaviour']} no-behaviour, {c['not-yet']} not-yet"


def test_a_bad_status_is_an_error_on_stderr(capsys):
    with pytest.raises(SystemExit) as exit_:
        run(capsys, "--status", "maybe")
    out = capsys.readouterr()
    assert exit_.value.code == 2 and out.out == "" and "invalid choice: 'maybe'" in out.err


def test_a_broken_map_is_an_error_on_stderr(capsys, monkeypatch, tmp_path):
    bad = tmp_path / "rule_map.toml"
    bad.write_text('[rules]\nx = { number = "1", status = "maybe", reason = "r" }\n', encoding="utf-8")
    monkeypatch.setattr(rm, "MAP_FILE", bad)
    rm.rule_map.cache_clear()
    try:
        code, out, err = run(capsys)
    finally:
        rm.rule_map.cache_clear()
    assert code == 1 and out == "" and f"{bad}: rules.x: `status` must be one of" in err
