"""The rule map (judgebook/engine/rule_map.toml) stays true: one row per anchor of CR 26.03, numbered as the
CR numbers it; every enforced row names modules that exist and scenarios whose replayed timelines cite it;
every anchor the engine cites is enforced, or pinned below as cited without a scenario yet."""
from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest
import replays

from judgebook.engine.citations import cited_anchors
from judgebook.linking import rule_map as rm
from judgebook.store import scenario_refs

SCENARIOS = Path(__file__).resolve().parents[1] / "rules_source" / "scenarios"
# The engine cites these in a step, but no shipped scenario's timeline does yet: "not-yet" with that reason,
# never "enforced". The number may only shrink (a scenario that exercises one moves it to enforced).
CITED_WITHOUT_SCENARIO = 87
CITED_REASON = "cited by the engine, but no shipped scenario's timeline cites it yet"


@pytest.fixture(scope="module")
def cr_sections(nsg_cr_root):
    from judgebook.ingestion import user_sources
    [source] = user_sources.detect(nsg_cr_root / "v26.03")
    return [s for s in user_sources.load(source)[1] if s.anchor and not s.meta_get("changelog")]


@pytest.fixture(scope="module")
def citations(cards_root):
    # The project's own mechanism (the web's rule pages use it): every shipped scenario replayed once (in
    # this run: the replays are kept for and from the other tests, tests/replays.py).
    with replays.through_front_ends():
        return scenario_refs.citations(SCENARIOS, cards_root, None)


def test_every_anchor_of_the_cr_has_exactly_one_row_with_its_number(cr_sections):
    rows = rm.rule_map().rows
    assert len(rows) == len({r.anchor for r in rows})
    # 1551 anchors, counted from the YAML in tests/test_ingest_nsg_yaml.py: chapters 1-10 and 11 (timing).
    assert len(cr_sections) == 1551
    assert [(r.anchor, r.number) for r in rows] == [(s.anchor, s.number) for s in cr_sections]


def test_counts_by_status_and_chapter():
    m = rm.rule_map()
    assert m.counts() == {"enforced": 207, "no-behaviour": 340, "not-yet": 1004}
    assert {c.chapter: tuple(c.counts.values()) for c in m.by_chapter()} == {
        "1": (48, 22, 217), "2": (2, 79, 9), "3": (10, 37, 46), "4": (6, 68, 59), "5": (25, 26, 54),
        "6": (33, 26, 92), "7": (8, 7, 51), "8": (17, 20, 107), "9": (36, 13, 308), "10": (22, 33, 61),
        "11": (0, 9, 0)}


def test_a_heading_has_no_behaviour_of_its_own_unless_the_engine_cites_it(cr_sections):
    kinds = {s.anchor: s.kind for s in cr_sections}
    cited = cited_anchors()
    for r in rm.rule_map().rows:
        if kinds[r.anchor] in ("chapter", "section") and r.anchor not in cited:
            assert (r.status, r.reason) == ("no-behaviour", f"a {kinds[r.anchor]} heading"), r.anchor


UNREVIEWED = "no engine step cites it: unreviewed whether the engine carries it out"


def test_the_chapters_read_so_far_have_no_unreviewed_row():
    # Rows not yet read say so (never a guess); chapters 2-8, 10 and 11 have been read rule by rule.
    unreviewed = Counter(r.chapter for r in rm.rule_map().rows if r.reason == UNREVIEWED)
    assert unreviewed == {"1": 214, "9": 300}


def test_enforced_rows_name_modules_that_exist():
    for r in rm.rule_map().rows:
        for module in r.modules:
            assert importlib.util.find_spec(module) is not None, f"{r.anchor}: no module {module}"


def test_enforced_rows_scenarios_exist_and_cite_the_anchor(citations):
    by_path = {ref.path: ref for ref in citations.refs}
    assert not [ref.path for ref in citations.refs if ref.broken]
    for r in rm.rule_map().rows:
        for path in r.scenarios:
            assert (SCENARIOS / path).is_file(), f"{r.anchor}: no scenario {path}"
            assert r.anchor in by_path[path].anchors, f"{r.anchor}: {path}'s timeline does not cite it"


def test_every_anchor_the_engine_cites_is_enforced_or_pinned_as_without_scenario(citations):
    m = rm.rule_map()
    cited = cited_anchors()
    statuses = Counter()
    for anchor in cited:
        row = m.row(anchor)
        assert row is not None, f"the engine cites {anchor}, which CR 26.03 does not have"
        if row.status != "enforced":
            assert (row.status, row.reason) == ("not-yet", CITED_REASON), anchor
            assert not citations.citing(anchor), f"{anchor}: a scenario cites it now: mark it enforced"
        statuses[row.status] += 1
    assert statuses == {"enforced": 207, "not-yet": CITED_WITHOUT_SCENARIO}


def test_an_anchor_no_scenario_or_engine_step_cites_is_never_enforced(citations):
    cited = cited_anchors()
    for r in rm.rule_map().rows:
        if r.status == "enforced":
            assert r.anchor in cited and citations.citing(r.anchor)


@pytest.mark.parametrize(("text", "message"), [
    ('[rules]\nx = { number = "1", status = "maybe", reason = "r" }', "rules.x: `status` must be one of"),
    ('[rules]\nx = { number = "1", status = "enforced", modules = ["m"] }', "rules.x: an enforced rule names"),
    ('[rules]\nx = { number = "1", status = "not-yet" }', "rules.x: a not-yet rule gives a reason"),
    ('[rules]\nx = { number = "1", status = "not-yet", reason = "r", why = 1 }', "rules.x: unknown field(s) why"),
    ('[rule]\n', "unknown table(s) rule"),
    ('[rules]\nx = ', "f.toml: "),
])
def test_a_malformed_map_is_an_error_naming_the_row(text, message):
    with pytest.raises(rm.RuleMapError, match=None) as err:
        rm.parse(text, "f.toml")
    assert message in str(err.value)
