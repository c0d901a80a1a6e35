"""The question bank (rules_source/questions/bank.toml, judgebook/search/question_bank.py): its format's
errors, the shipped file, its independence from the relevance set's unseen questions, and its answer in
search, the CLI, the JSON API, the search page and a rule's page (on a small hand-made index)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from collections import Counter
from difflib import SequenceMatcher
from pathlib import Path

import pytest
from test_search_api import DOCS, SECTIONS

from judgebook.search import api, indexer
from judgebook.search import question_bank as qb
from judgebook.store.corpus import Corpus

PROJECT = Path(__file__).resolve().parents[1]
BANK = PROJECT / "rules_source" / "questions" / "bank.toml"
RELEVANCE = Path(__file__).with_name("search_relevance.toml")

GOOD = """\
# a comment
[[question]]
id = "if-able"
ask = ["the card says if able and i can only do half of it, do i do the half"]
answer = "No: all of it or none of it."
rules = ["rule_if_able"]
source = "glossary"

[[question]]
id = "additional-costs-together"
ask = ["do i pay additional costs at the same time as the normal cost"]
answer = "Yes, all together."
rules = ["rule_additional", "cr-26.03:sec_costs"]
source = "situation"
"""


def _error(text: str) -> str:
    with pytest.raises(qb.BankError) as exc:
        qb.parse(text, "bank.toml")
    return str(exc.value)


# ---- the format ---------------------------------------------------------------------
def test_a_good_file_parses_in_order_with_full_ids():
    entries = qb.parse(GOOD, "bank.toml")
    assert [e.id for e in entries] == ["if-able", "additional-costs-together"]
    assert entries[0].rules == ("cr-26.03:rule_if_able",)
    assert entries[1].rules == ("cr-26.03:rule_additional", "cr-26.03:sec_costs")
    assert [e.line for e in entries] == [2, 9]


def test_an_unknown_field_is_named_with_its_line():
    text = GOOD.replace('source = "glossary"', 'source = "glossary"\nscenario = "x.yaml"')
    assert _error(text) == ("bank.toml:8: field 'scenario': unknown field "
                            "(a question has id, ask, answer, rules, source)")


def test_a_missing_field_names_the_entry_line():
    text = GOOD.replace('answer = "Yes, all together."\n', "")
    assert _error(text) == "bank.toml:9: field 'answer': missing (a question has id, ask, answer, rules, source)"


@pytest.mark.parametrize("old, new, message", [
    ('source = "situation"', 'source = "forum"',
     "bank.toml:14: field 'source': 'forum' is not one of cr-example, glossary, timing, situation, ruling"),
    ('id = "if-able"', 'id = "If able"', "bank.toml:3: field 'id': 'If able' is not lower-case words joined by '-'"),
    ('ask = ["do i pay additional costs at the same time as the normal cost"]', "ask = []",
     "bank.toml:11: field 'ask': must be a list of one or more questions (non-empty strings)"),
    ('rules = ["rule_if_able"]', 'rules = "rule_if_able"',
     "bank.toml:6: field 'rules': must be a list of one or more CR 26.03 anchors"),
    ('rules = ["rule_if_able"]', 'rules = ["rule_if_able", "cr-26.03:rule_if_able"]',
     "bank.toml:6: field 'rules': the same rule twice"),
    ('answer = "No: all of it or none of it."', 'answer = "  "',
     "bank.toml:5: field 'answer': must be a non-empty string"),
    ('id = "additional-costs-together"', 'id = "if-able"',
     "bank.toml:10: field 'id': 'if-able' is already the id of the entry at line 2"),
])
def test_each_field_is_checked(old, new, message):
    assert old in GOOD
    assert _error(GOOD.replace(old, new)) == message


def test_broken_toml_and_stray_tables_are_errors():
    assert _error(GOOD.replace('id = "if-able"', 'id = "if-able')).startswith("bank.toml: not valid TOML:")
    assert _error(GOOD + "\n[meta]\nx = 1\n") == (
        "bank.toml:16: unknown table or key 'meta' (the bank holds [[question]] entries only)")


def test_unknown_rules_are_listed_by_line():
    entries = qb.parse(GOOD, "bank.toml")
    assert qb.unknown_rules(entries, {"cr-26.03:rule_if_able", "cr-26.03:rule_additional"}) == [
        "line 9: question 'additional-costs-together' cites cr-26.03:sec_costs, which no document of the build has"]


# ---- the shipped bank ---------------------------------------------------------------
def test_the_shipped_bank_parses_and_is_counted():
    entries = qb.load(BANK)
    assert len(entries) == 217
    assert sum(len(e.asks) for e in entries) == 230
    assert Counter(e.source for e in entries) == {"situation": 91, "glossary": 49, "timing": 40, "cr-example": 37}
    assert all(r.startswith(("cr-26.03:", "glossary:")) for e in entries for r in e.rules)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9&]+", text.lower().replace("\u2019", "'").replace("'", ""))


def test_no_unseen_question_is_in_the_bank_even_nearly():
    """The unseen questions measure the search on questions nobody tuned on: a bank holding them (or a
    near copy) would answer them from memory. Word sequences compared; flagged from 0.8 alike."""
    cases = tomllib.loads(RELEVANCE.read_text("utf-8"))["case"]
    unseen = [c["query"] for c in cases if c["kind"].startswith("unseen-question")]
    assert len(unseen) == 36 + 36 + 46
    asks = [a for e in qb.load(BANK) for a in e.asks]
    close = []
    for q in unseen:
        wq = _words(q)
        for a in asks:
            wa = _words(a)
            ratio = SequenceMatcher(None, wq, wa).ratio()
            jaccard = len(set(wq) & set(wa)) / len(set(wq) | set(wa))
            if ratio >= 0.8 or jaccard >= 0.8:
                close.append(f"{q!r} ~ {a!r} ({ratio:.2f}, {jaccard:.2f})")
    assert not close, "\n".join(close)


def test_the_near_copy_check_can_fail():
    wq, wa = _words("can i look at my own facedown cards"), _words("can i look at my own face-down cards?")
    assert SequenceMatcher(None, wq, wa).ratio() >= 0.8


# ---- in search, the CLI, the API and the pages (a hand-made index) -------------------
QUESTION = "card says if able but i can only do half of it, do i do the half"


@pytest.fixture(scope="module")
def gen(tmp_path_factory) -> Path:
    from judgebook.store import build
    root = tmp_path_factory.mktemp("bank-index")
    gen = root / "gen-test"
    gen.mkdir()
    build.write_generation(gen, DOCS, SECTIONS)
    (root / "current").symlink_to("gen-test")
    indexer.write_index(Corpus(DOCS, SECTIONS), gen / "whoosh")
    entries = qb.parse(GOOD, "bank.toml")
    assert qb.unknown_rules(entries, {s.id for s in SECTIONS}) == []
    qb.write_generation(entries, gen)
    return gen


def test_a_close_question_gets_the_answer_and_its_rule_first(gen):
    r = api.search(QUESTION, limit=5, index_dir=gen / "whoosh")
    assert r.answer is not None and r.answer.id == "if-able"
    assert r.answer.text == "No: all of it or none of it."
    assert [(c.id, c.number) for c in r.answer.rules] == [("cr-26.03:rule_if_able", "1.2.3")]
    assert r.results[0].id == "cr-26.03:rule_if_able" and r.results[0].answers == "if-able"
    assert r.answer.to_json()["rules"] == [{"id": "cr-26.03:rule_if_able", "number": "1.2.3", "title": ""}]


def test_lookups_filters_and_far_questions_get_no_answer(gen):
    ix = gen / "whoosh"
    assert api.search("1.2.3", index_dir=ix).answer is None
    assert api.search("if able", index_dir=ix).answer is None                 # a term, not a question
    assert api.search(QUESTION + " doc:cr-1.6", index_dir=ix).answer is None  # the bank cites 26.03
    assert api.search("how many brain damage does card 3 do", index_dir=ix).answer is None
    without = gen.parent / "plain"
    without.mkdir()
    indexer.write_index(Corpus(DOCS, SECTIONS), without / "whoosh")
    assert api.search(QUESTION, index_dir=without / "whoosh").answer is None  # a generation without a bank


def test_the_cli_prints_the_answer_and_its_json_carries_it(gen):
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}

    def cli(*args):
        res = subprocess.run([sys.executable, "-m", "judgebook", "--index", str(gen.parent), "search", *args],
                             capture_output=True, text=True, cwd=PROJECT, env=env)
        assert res.returncode == 0, res.stderr
        return res.stdout
    lines = cli(QUESTION).splitlines()
    at = lines.index("Answer (close to \u201cthe card says if able and i can only do half of it, "
                     "do i do the half\u201d): No: all of it or none of it.")
    assert lines[at + 1] == "  decided by cr-26.03 1.2.3"
    assert lines[at + 3].startswith(" 1. 1.2.3 ")       # above the ranked rules
    rows = json.loads(cli("--json", "--limit", "3", QUESTION))
    assert rows[0]["id"] == "cr-26.03:rule_if_able" and rows[0]["answers"] == "if-able"
    assert rows[0]["answer"]["answer"] == "No: all of it or none of it."
    assert all("answer" not in r for r in rows[1:])


@pytest.fixture(scope="module")
def client(gen):
    from judgebook.web.app import create_app
    corpus = Corpus.load_generation(gen)
    return create_app(corpus, follow=False).test_client()


def test_the_api_and_the_search_page_show_the_answer(client):
    data = client.get("/api/search", query_string={"q": QUESTION}).get_json()
    assert data["answer"]["id"] == "if-able" and data["answer"]["rules"][0]["number"] == "1.2.3"
    assert data["results"][0]["id"] == "cr-26.03:rule_if_able"
    assert client.get("/api/search", query_string={"q": "1.2.3"}).get_json()["answer"] is None
    html = client.get("/search", query_string={"q": QUESTION}).get_data(as_text=True)
    box = html[html.index('<section class="bank-answer"'):html.index('<ol class="hits">')]
    assert "No: all of it or none of it." in box
    assert 'href="/s/cr-26.03:rule_if_able"' in box and "1.2.3" in box
    assert 'class="bank-answer"' not in client.get("/search", query_string={"q": "if able"}).get_data(as_text=True)


def test_a_rules_page_lists_the_questions_it_answers(client):
    html = client.get("/s/cr-26.03:rule_additional").get_data(as_text=True)
    part = html[html.index('id="questions"'):]
    part = part[:part.index("</section>")]
    assert "Questions this rule answers" in part and "(1)" in part
    assert "do i pay additional costs at the same time as the normal cost" in part
    assert "Yes, all together." in part and 'href="/s/cr-26.03:sec_costs"' in part
    assert 'id="questions"' not in client.get("/s/cr-26.03:rule_approach").get_data(as_text=True)


def test_the_bank_dev_set_is_apart_from_the_unseen_questions():
    """tests/question_bank_dev.toml: 40 questions written after the bank to check its constants."""
    dev = [c["query"] for c in tomllib.loads(Path(__file__).with_name("question_bank_dev.toml")
                                             .read_text("utf-8"))["case"]]
    assert len(dev) == 40
    cases = tomllib.loads(RELEVANCE.read_text("utf-8"))["case"]
    unseen = {" ".join(_words(c["query"])) for c in cases if c["kind"].startswith("unseen-question")}
    assert not unseen & {" ".join(_words(q)) for q in dev}
