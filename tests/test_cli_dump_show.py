"""`judgebook dump` and `judgebook show` over a built index."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judgebook.cli import main
from judgebook.store import build

DUMP_FIELDS = {"id", "doc", "number", "title", "kind", "text", "parent", "provenance", "links"}


def _two_cr_sources(rules_source: Path, dest: Path) -> Path:
    dest.mkdir()
    tables = (rules_source / "manifest.toml").read_text("utf-8").split("[[document]]")
    (dest / "manifest.toml").write_text("[[document]]".join(tables[:3]), "utf-8")
    for name in ("cr-1.6.txt", "cr-1.4.md"):
        shutil.copy(rules_source / name, dest / name)
    return dest


def _build(tmp: Path, rules_source: Path, with_paths: list[str]) -> Path:
    src = _two_cr_sources(rules_source, tmp / "src")
    with pytest.MonkeyPatch.context() as mp:   # search has its own tests
        mp.setattr(build, "_search_index", lambda corpus, gen, say: False)
        build.build(src, tmp / "index", with_paths)
    return tmp / "index"


@pytest.fixture(scope="module")
def index(tmp_path_factory, rules_source) -> Path:
    return _build(tmp_path_factory.mktemp("seeds"), rules_source, [])


@pytest.fixture(scope="module")
def index_v26(tmp_path_factory, rules_source, nsg_cr_root) -> Path:
    return _build(tmp_path_factory.mktemp("v26"), rules_source, [str(nsg_cr_root / "v26.03")])


def run(capsys, index: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--index", str(index), *args])
    out, err = capsys.readouterr()
    return code, out, err


# ---- dump ------------------------------------------------------------------------------

def test_dump_writes_every_section_as_json_lines(index, capsys):
    code, out, _ = run(capsys, index, "dump")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 505 + 138                 # the two parsers' section counts
    assert all(DUMP_FIELDS <= set(r) for r in rows)
    assert [r["doc"] for r in rows[:1]] == ["cr-1.6"] and rows[-1]["doc"] == "cr-1.4"
    r = next(r for r in rows if r["id"] == "cr-1.6:1.1.2")
    assert r["number"] == "1.1.2" and r["parent"] == "cr-1.6:1.1"
    assert r["provenance"]["file"] == "cr-1.6.txt" and r["provenance"]["line_start"] > 0
    assert {"kind": "ref", "ref": "1.9", "text": "1.9", "target": "cr-1.6:1.9", "reason": ""}.items() \
        <= r["links"][0].items()


def test_dump_one_document(index, capsys):
    code, out, _ = run(capsys, index, "dump", "--doc", "cr-1.4")
    assert code == 0
    docs = {json.loads(line)["doc"] for line in out.splitlines()}
    assert docs == {"cr-1.4"} and len(out.splitlines()) == 138


def test_dump_unknown_document(index, capsys):
    code, out, err = run(capsys, index, "dump", "--doc", "cr-9.9")
    assert code == 1 and out == ""
    assert "unknown document cr-9.9" in err and "cr-1.6" in err


def test_dump_without_an_index(tmp_path, capsys):
    code, _, err = run(capsys, tmp_path / "none", "dump")
    assert code == 1 and "run `judgebook build`" in err


# ---- show ------------------------------------------------------------------------------

@pytest.mark.parametrize("ref", ["cr-1.6:1.16.10b", "cr-1.6:1.16.10.b", "cr-1.6:1.16.10 b"])
def test_show_by_doc_and_number(index, capsys, ref):
    code, out, _ = run(capsys, index, "show", ref, "--json")
    assert code == 0
    assert json.loads(out)["section"]["id"] == "cr-1.6:1.16.10b"


def test_show_human_readable(index, capsys):
    code, out, _ = run(capsys, index, "show", "cr-1.6:1.9")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("cr-1.6:1.9  —  NISEI Comprehensive Rules 1.6")
    assert "Referenced by:" in out and "  cr-1.6:1.1.2 (ref \"1.9\")" in lines
    assert "History:" in out and "cr-1.4" in out


def test_show_unresolved_reference_gives_its_reason(index, capsys):
    code, out, _ = run(capsys, index, "show", "cr-1.6:1.3.6")
    assert code == 0
    assert "[ref] 10.7 — unresolved: section 10.7 is not in this document (it stops at 4.1.2)" in out


def test_show_json_structure(index, capsys):
    code, out, _ = run(capsys, index, "show", "cr-1.4:1.11.3", "--json")
    assert code == 0
    r = json.loads(out)
    assert set(r) >= {"section", "breadcrumb", "references", "terms", "cards", "backlinks", "history"}
    assert [(h["doc"], h["number"]) for h in r["history"]] == [("cr-1.4", "1.11.3"), ("cr-1.6", "1.11.4")]
    assert [b["number"] for b in r["breadcrumb"]] == ["1", "1.11"]


def test_show_terms_and_backlinks_of_a_definition(index, capsys):
    code, out, _ = run(capsys, index, "show", "cr-1.6:1.10.2", "--json")      # CREDIT POOL
    r = json.loads(out)
    assert r["section"]["number"] == "1.10.2"
    assert any(b["kind"] == "term" for b in r["backlinks"])
    code, out, _ = run(capsys, index, "show", "cr-1.6:1.10.3", "--json")
    terms = json.loads(out)["terms"]
    assert all({"ref", "text", "target", "target_number"} <= set(t) for t in terms)


def test_show_diff_between_versions(index, capsys):
    code, out, _ = run(capsys, index, "show", "cr-1.6:1.8.3b", "--diff", "cr-1.4", "--json")
    assert code == 0
    ops = json.loads(out)["diff"]
    old = "".join(o["text"] for o in ops if o["op"] != "insert")
    new = "".join(o["text"] for o in ops if o["op"] != "delete")
    assert "played and installed active" in old and "become active as part of" in new
    code, out, _ = run(capsys, index, "show", "cr-1.6:1.8.3b", "--diff", "cr-1.4")
    assert "[-" in out and "{+" in out


@pytest.mark.parametrize("ref", ["cr-1.6:9.9.9", "nope", "zz:1.1", "99.1"])
def test_show_unknown(index, capsys, ref):
    code, out, err = run(capsys, index, "show", ref)
    assert code == 1 and out == ""
    assert f"no section {ref!r}" in err


def test_show_unknown_in_a_real_process(index):
    proc = subprocess.run([sys.executable, "-m", "judgebook", "--index", str(index), "show", "42.42"],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "no section '42.42'" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.corpora
def test_show_bare_number_takes_the_newest_cr(index_v26, capsys):
    code, out, _ = run(capsys, index_v26, "show", "1.11.4", "--json")
    r = json.loads(out)
    assert r["section"]["doc"] == "cr-26.03" and r["section"]["anchor"] == "rule_priority_subtype"
    assert [h["doc"] for h in r["history"]] == ["cr-1.4", "cr-1.6", "cr-26.03"]
    code, out, _ = run(capsys, index_v26, "show", "cr-1.6:1.3.6")   # "See section 10.7 ... link"
    lines = out.splitlines()
    i = lines.index("  [ref] 10.7 — unresolved: section 10.7 is not in this document (it stops at 4.1.2)")
    assert lines[i + 1] == "      see cr-26.03 10.7 Link (cr-26.03:sec_link)"
    assert "  cr-26.03   1.3.5      cr-26.03:rule_symbol_link" in lines     # 26.03 renumbered it
