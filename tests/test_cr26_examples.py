"""CR 26.03's own examples are the oracle: `rules_source/scenarios/cr26-examples.toml` lists every one of
them, each either encoded as shipped scenarios that cite it or skipped with a reason."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import yaml

SCENARIOS = Path(__file__).resolve().parents[1] / "rules_source" / "scenarios"
LIST = SCENARIOS / "cr26-examples.toml"
REASONS = {"terminology", "no-outcome", "needs-construct", "not-yet"}


def rows() -> list[dict]:
    return tomllib.loads(LIST.read_text(encoding="utf-8"))["example"]


def cr_examples(nsg_cr_root: Path) -> list[str]:
    from judgebook.ingestion import user_sources
    [source] = user_sources.detect(nsg_cr_root / "v26.03")
    secs = user_sources.load(source)[1]
    return [s.id.split(":", 1)[1] for s in secs if s.kind == "example" and not s.meta_get("changelog")]


@pytest.mark.corpora
def test_the_list_is_exactly_the_crs_examples(nsg_cr_root):
    anchors = [r["anchor"] for r in rows()]
    want = cr_examples(nsg_cr_root)
    # 243: `grep -cE '^\s*- (text|new):'` over data/input/01..10 (tests/test_ingest_nsg_yaml.py).
    assert len(want) == 243
    assert len(anchors) == len(set(anchors)) == 243
    assert anchors == want


def test_every_row_is_encoded_or_skipped_with_a_reason():
    for r in rows():
        if r["status"] == "encoded":
            assert set(r) == {"anchor", "status", "files"} and r["files"], r
        else:
            assert r["status"] == "skipped", r
            assert set(r) == {"anchor", "status", "reason", "why"}, r
            assert r["reason"] in REASONS and r["why"].strip(), r


@pytest.mark.parametrize("row", [r for r in rows() if r["status"] == "encoded"], ids=lambda r: r["anchor"])
def test_encoded_files_exist_and_cite_the_example(row):
    rule = row["anchor"].split("/ex")[0]
    for name in row["files"]:
        path = SCENARIOS / name
        assert path.is_file(), name
        source = yaml.safe_load(path.read_text(encoding="utf-8"))["source"]
        # The CR's rule anchor, named as cr-26.03 cites it, in the scenario's `source`.
        assert "cr-26.03" in source and rule in source.split(), (name, rule)

