"""Relevance on the real thing: every rules document plus ../shared/corpora, built once.

Reports recall@1, recall@3 and MRR (over the top 10) for the judge queries in
search_relevance.toml, and fails below the floors, which were set from
measurement (raise them as search improves, never lower them quietly).
Missing corpora fail under CI (see conftest); a build that cannot run (a
parser missing, a document that does not parse) fails the test, never skips it.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from judgebook.search import api

CASES_FILE = Path(__file__).with_name("search_relevance.toml")

# Floors, set from measurement on the full build (all of rules_source + all
# corpora, 22 Nov 2026): the first 90 queries gave recall@1 0.889, recall@3
# 0.978, MRR 0.930. Eleven more questions (checked against CR 26.03) made the
# set harder: the 101 gave recall@1 0.851, recall@3 0.950, MRR 0.898 with the
# search as it was, and recall@1 0.871, recall@3 0.960, MRR 0.916 once a
# question is searched as one (no "side by side" step across dropped question
# words, any-word hits filling a short list) and a glossary entry for one word
# of a longer query lost its bonus. The misses at rank 2 are mostly
# by design: a 1996 word ("bits", "node") finds its own 1996 glossary entry
# first and today's term second. The floors sit a little below, so a parser or
# linker change that moves one answer is reported, not fatal; raise them as
# search improves, never lower them.
FLOOR_RECALL_1 = 0.86
FLOOR_RECALL_3 = 0.95
FLOOR_MRR = 0.905
MIN_CASES = 60


@dataclass(frozen=True)
class Case:
    kind: str
    query: str
    expect: tuple[str, ...]


def load_cases() -> list[Case]:
    data = tomllib.loads(CASES_FILE.read_text("utf-8"))
    return [Case(c["kind"], c["query"], tuple(c["expect"])) for c in data["case"]]


def rank_of(case: Case, response: api.SearchResponse) -> int:
    """1-based rank of the first hit standing for an expected section; 0 if none in the list."""
    for i, hit in enumerate(response.results, 1):
        if hit.id in case.expect or any(v in case.expect for v in hit.versions):
            return i
    return 0


@pytest.fixture(scope="session")
def full_index(tmp_path_factory, corpora_root, rules_source) -> Path:
    from judgebook.store import build, paths  # a missing build module fails here, loudly
    root = tmp_path_factory.mktemp("relevance-index")
    with_paths = [str(corpora_root / "nsg-cr"), str(corpora_root / "netrunner-cards-json")]
    try:
        result = build.build(rules_source, root, with_paths)
    except Exception as exc:   # BuildError, ParseError: the test fails and says why
        pytest.fail(f"the full build failed, so relevance cannot be measured: {exc}")
    assert result.search_index, "the build wrote no search index"
    return paths.current_generation(root) / paths.WHOOSH


def test_the_case_file_is_big_and_varied():
    cases = load_cases()
    assert len(cases) >= MIN_CASES
    kinds = {c.kind for c in cases}
    assert {"number", "term", "phrase", "typo", "accent", "slang", "legacy", "card", "filter",
            "question"} <= kinds
    assert len({c.query for c in cases}) == len(cases)


def test_relevance(full_index, capsys):
    cases = load_cases()
    ranks = [(c, rank_of(c, api.search(c.query, limit=10, index_dir=full_index))) for c in cases]
    n = len(ranks)
    recall1 = sum(r == 1 for _, r in ranks) / n
    recall3 = sum(1 <= r <= 3 for _, r in ranks) / n
    mrr = sum(1 / r for _, r in ranks if r) / n
    misses = [f"  {c.kind:7} {c.query!r}: rank {r or '>10'}" for c, r in ranks if r != 1]
    report = (f"\nsearch relevance over {n} queries: recall@1 {recall1:.3f}, "
              f"recall@3 {recall3:.3f}, MRR {mrr:.3f}\n" + "\n".join(misses))
    with capsys.disabled():
        print(report)
    assert recall1 >= FLOOR_RECALL_1, report
    assert recall3 >= FLOOR_RECALL_3, report
    assert mrr >= FLOOR_MRR, report
