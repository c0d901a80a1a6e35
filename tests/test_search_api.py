"""search() and complete() on a small hand-made corpus, the CLI, and hostile queries."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judgebook.model import LINK_VERSION, Document, Link, Provenance, Section
from judgebook.search import api, indexer
from judgebook.store.corpus import Corpus

PROJECT = Path(__file__).resolve().parents[1]
P = Provenance("hand-made", 1, 1)

DOCS = [
    Document("cr-1.6", "NISEI CR", edition="1.6", effective="2022-07-22", era="nisei", is_cr=True, order=0),
    Document("cr-26.03", "NSG CR", edition="26.03", effective="2026-03-02", era="nsg", is_cr=True, order=1),
    Document("glossary", "Glossary", era="ffg", order=2),
    Document("onr-rulebook", "Netrunner 1996", era="onr-1996", order=3),
    Document("onr-rulings", "Rulings 1996", era="onr-1996", order=4),
    Document("cards", "Cards", era="nsg", order=5),
    Document("ffg-core-rulebook", "Core Rule Book", era="ffg", order=6),
]


def _v(target: str) -> Link:
    return Link(kind=LINK_VERSION, ref=target, target=target)


SECTIONS = [
    Section("cr-1.6:1", "cr-1.6", "1", "Game Concepts", "chapter", "", P,
            children=("cr-1.6:1.16",)),
    Section("cr-1.6:1.16", "cr-1.6", "1.16", "Costs", "section", "Some abilities have costs.", P,
            parent="cr-1.6:1", children=("cr-1.6:1.16.10b",), links=(_v("cr-26.03:sec_costs"),)),
    Section("cr-1.6:1.16.10b", "cr-1.6", "1.16.10b", "", "rule",
            "A player must pay all additional costs simultaneously with the cost they modify.", P,
            parent="cr-1.6:1.16", links=(_v("cr-26.03:rule_additional"),)),
    Section("cr-26.03:sec_costs", "cr-26.03", "1.16", "Costs", "section", "Some abilities have costs.", P,
            anchor="sec_costs", links=(_v("cr-1.6:1.16"),)),
    Section("cr-26.03:rule_additional", "cr-26.03", "1.16.10b", "", "rule",
            "A player must pay all additional costs simultaneously with the cost they modify.", P,
            parent="cr-26.03:sec_costs", anchor="rule_additional", links=(_v("cr-1.6:1.16.10b"),)),
    # 1.2.3 reworded between 1.6 and 26.03: two texts, the older one superseded.
    Section("cr-1.6:1.2.3", "cr-1.6", "1.2.3", "", "rule",
            "An instruction with the words if able is carried out in full or skipped entirely.", P,
            links=(_v("cr-26.03:rule_if_able"),)),
    Section("cr-26.03:rule_if_able", "cr-26.03", "1.2.3", "", "rule",
            "If an instruction includes the words if able, it can only be carried out fully or not at all.", P,
            anchor="rule_if_able", links=(_v("cr-1.6:1.2.3"),)),
    Section("cr-26.03:rule_approach", "cr-26.03", "6.9.2", "Approach Ice Phase", "rule",
            "The Runner approaches the outermost piece of ice. See 1.16.10b.", P, anchor="rule_approach"),
    Section("cr-26.03:rule_bad_publicity", "cr-26.03", "10.6.1", "", "rule",
            "Bad publicity refers to a bad publicity counter placed on the Corp.", P,
            meta=(("defines", "bad publicity"),)),
    Section("cr-26.03:rule_mentions_bp", "cr-26.03", "10.6.3", "", "rule",
            "Removing bad publicity, bad publicity again, more bad publicity, and yet more bad publicity.", P),
    Section("cr-26.03:rule_core_damage", "cr-26.03", "10.4.2b", "", "rule",
            "For each point of core damage suffered, the Runner trashes a card at random.", P),
    Section("cr-26.03:rule_paw", "cr-26.03", "9.2.7", "", "rule",
            "A paid ability window is a priority window.", P, meta=(("defines", "paid ability window"),)),
    Section("cr-26.03:rule_etr", "cr-26.03", "6.1.4", "", "rule",
            "To end the run is to halt the Runner's progress.", P),
    Section("cr-26.03:rule_steal", "cr-26.03", "7.2.1", "", "rule",
            "When the Runner accesses an agenda, they steal it.", P),
    Section("cr-26.03:rule_server", "cr-26.03", "4.6.6a", "", "rule",
            "A server is a set of locations where the Corp installs cards.", P),
    Section("cr-26.03:rule_counters", "cr-26.03", "1.9.1", "", "rule",
            "Counters track quantities such as credits and tags.", P),
    Section("cr-26.03:rule_click", "cr-26.03", "1.11.1", "", "rule",
            "Each [click] is spent on an action; costs like 3[c] are paid.", P),
    Section("glossary:bad-publicity", "glossary", "", "Bad Publicity", "glossary-entry",
            "Gives the Runner credits at the start of each run.", P),
    Section("onr-rulebook:bit-pool", "onr-rulebook", "", "Bit pool", "glossary-entry",
            "The bits we have available to spend. The Runner also has a bit pool.", P),
    Section("onr-rulebook:bit", "onr-rulebook", "", "Bit", "glossary-entry",
            "A counter representing a unit of wealth. Bits are spent to pay for cards.", P),
    Section("onr-rulebook:gain-bits", "onr-rulebook", "", "Gain bits", "glossary-entry",
            "Take bits from the bank.", P),
    Section("onr-rulings:trace", "onr-rulings", "", "Trace", "ruling",
            "A trace attempt: the Corp pays bits to raise the trace value.", P),
    Section("cards:obokata_protocol", "cards", "", "Obokata Protocol", "card",
            "As an additional cost to steal this agenda, the Runner must suffer 4 net damage.", P),
    Section("cards:liberated_savings_account", "cards", "", "Liberated Savings Account", "card",
            "When your turn begins, place 2[c] on this resource.", P),
    Section("cards:data_fort_reclamation", "cards", "", "Data Fort Reclamation", "card",
            "Reclaim what was lost.", P),
    Section("cards:miraju", "cards", "", "Mirāju", "card", "Whenever an encounter with this ice ends...", P),
    Section("cards:sifr", "cards", "", "Şifr", "card", "Once per turn, when you encounter a piece of ice...", P),
    Section("cards:tollbooth", "cards", "", "Tollbooth", "card",
            "When the Runner encounters this ice, they must pay 3[c], if able.", P),
    Section("onr-rulings:brian", "onr-rulings", "", "", "ruling",
            "Ruled by Brian at the 1997 event; the Runner suffers brain damage from this node.", P),
    Section("onr-rulebook:damage-brain", "onr-rulebook", "", "Damage, brain", "glossary-entry",
            "Damage to the Runner's brain. For each point of brain damage, the Runner loses a card.", P),
    Section("ffg-core-rulebook:runs/stealing-agendas", "ffg-core-rulebook", "", "Stealing Agendas",
            "page", "If the Runner accesses an agenda, he steals it.", P,
            children=("ffg-core-rulebook:runs/p14",)),
    Section("ffg-core-rulebook:runs/p14", "ffg-core-rulebook", "", "Stealing Agendas", "page",
            "If the Runner accesses an agenda, he steals it.", P,
            parent="ffg-core-rulebook:runs/stealing-agendas"),
] + [Section(f"onr-rulings:brain-{i}", "onr-rulings", "", "", "ruling",
             f"Card {i} does {i} brain damage to the Runner.", P) for i in range(1, 5)]


@pytest.fixture(scope="module")
def ix(tmp_path_factory) -> Path:
    # Laid out like a built index (root/current -> gen/whoosh) so the CLI can use it too.
    root = tmp_path_factory.mktemp("index")
    (root / "gen-test").mkdir()
    (root / "gen-test" / "sections.jsonl").write_text("")
    (root / "current").symlink_to("gen-test")
    path = root / "gen-test" / "whoosh"
    seen = []
    n = indexer.write_index(Corpus(DOCS, SECTIONS), path, progress=lambda d, t: seen.append((d, t)))
    # Two pairs of sections are the same text in two CR versions, and a wiki
    # heading has one paragraph of the same text: each pair is indexed once.
    assert n == len(SECTIONS) - 3
    assert seen[-1] == (n, n)
    return path


def ids(response) -> list[str]:
    return [h.id for h in response.results]


def s(ix, query, **kw):
    return api.search(query, index_dir=ix, **kw)


# ---- rule numbers --------------------------------------------------------------------
@pytest.mark.parametrize("q", ["1.16.10b", "1.16.10.b", "1.16.10 b", "r1.16.10b", "rule 1.16.10b"])
def test_a_rule_number_gives_the_newest_version_then_the_others_then_citations(ix, q):
    r = s(ix, q)
    assert ids(r)[:3] == ["cr-26.03:rule_additional", "cr-1.6:1.16.10b", "cr-26.03:rule_approach"]
    assert r.results[0].number == "1.16.10b" and r.results[0].doc == "cr-26.03"


def test_a_doc_prefixed_number_puts_that_version_first(ix):
    assert ids(s(ix, "cr-1.6:1.16.10b"))[:2] == ["cr-1.6:1.16.10b", "cr-26.03:rule_additional"]


def test_a_section_id_is_found_exactly(ix):
    assert ids(s(ix, "glossary:bad-publicity"))[0] == "glossary:bad-publicity"


def test_a_number_filtered_to_one_document(ix):
    assert ids(s(ix, "1.16.10b doc:cr-1.6"))[0] == "cr-1.6:1.16.10b"
    assert ids(s(ix, "1.16.10b", filters={"doc": "cr-1.6"}))[0] == "cr-1.6:1.16.10b"


def test_an_unknown_number_says_so(ix):
    r = s(ix, "9.9.9")
    assert r.results == [] and "No rule numbered 9.9.9" in r.message


def test_breadcrumb_of_a_hit(ix):
    hit = s(ix, "cr-1.6:1.16.10b").results[0]
    assert hit.breadcrumb == [("cr-1.6:1", "1 Game Concepts"), ("cr-1.6:1.16", "1.16 Costs")]


# ---- terms, ranking, versions -------------------------------------------------------------
def test_definition_and_glossary_outrank_passing_mentions(ix):
    got = ids(s(ix, "bad publicity"))
    assert set(got[:2]) == {"cr-26.03:rule_bad_publicity", "glossary:bad-publicity"}
    assert got.index("cr-26.03:rule_mentions_bp") >= 2


def test_same_text_in_two_versions_is_one_hit_listing_the_other(ix):
    r = s(ix, "additional costs simultaneously")
    assert ids(r)[0] == "cr-26.03:rule_additional"
    assert r.results[0].versions == ["cr-1.6:1.16.10b"]
    assert "cr-1.6:1.16.10b" not in ids(r)
    older = s(ix, "additional costs simultaneously doc:cr-1.6")
    assert ids(older)[0] == "cr-1.6:1.16.10b" and older.results[0].era == "nisei"


def test_a_heading_and_its_lone_paragraph_are_one_hit(ix):
    r = s(ix, "stealing agendas")
    assert ids(r)[0] == "ffg-core-rulebook:runs/stealing-agendas"
    assert r.results[0].versions == ["ffg-core-rulebook:runs/p14"]
    assert "ffg-core-rulebook:runs/p14" not in ids(r)


def test_stemming_and_symbols(ix):
    assert "cr-26.03:rule_click" in ids(s(ix, "costing credits"))
    assert "cr-26.03:rule_click" in ids(s(ix, "[click]"))


def test_quoted_phrase_and_exclusion(ix):
    assert ids(s(ix, '"end the run"')) == ["cr-26.03:rule_etr"]
    assert "cards:tollbooth" not in ids(s(ix, "encounters ice -tollbooth"))
    assert "cards:tollbooth" in ids(s(ix, "encounters ice"))


def test_filters_by_kind_and_era(ix):
    r = s(ix, "kind:ruling era:onr-1996 trace")
    assert ids(r) == ["onr-rulings:trace"]
    assert all(h.kind == "card" for h in s(ix, "ice", filters={"kind": ["card"]}).results)


# ---- typos, accents, synonyms, card names ------------------------------------------------
def test_typos_are_corrected_with_did_you_mean(ix):
    r = s(ix, "obokata protocl")
    assert ids(r)[0] == "cards:obokata_protocol"
    assert r.did_you_mean == "obokata protocol"
    assert ids(s(ix, "tolbooth"))[0] == "cards:tollbooth"


def test_a_swapped_pair_of_letters_is_one_edit_even_when_the_typo_is_a_word(ix):
    # "brian" is in the index (a name); "brian damage" is not, "brain damage" is.
    # "brian" is a word of the documents: never rewritten, its correction searched alongside.
    r = s(ix, "brian damage")
    assert r.did_you_mean == "brain damage"
    assert "Also searched for" in r.message and "Showing results for" not in r.message
    assert ids(r)[0] == "cr-26.03:rule_core_damage"         # today's rule first, via brain <-> core damage
    assert "onr-rulebook:damage-brain" in ids(r)[:3]       # the 1996 title, corrected


def test_accents_fold_both_ways(ix):
    assert ids(s(ix, "miraju"))[0] == "cards:miraju"
    assert ids(s(ix, "Mirāju"))[0] == "cards:miraju"
    assert ids(s(ix, "sifr"))[0] == "cards:sifr"
    assert ids(s(ix, "Şifr"))[0] == "cards:sifr"


@pytest.mark.parametrize("q,expected", [
    ("bit pool", "onr-rulebook:bit-pool"), ("credit pool", "onr-rulebook:bit-pool"),
    ("data fort", "cr-26.03:rule_server"), ("ETR", "cr-26.03:rule_etr"),
    ("PAW", "cr-26.03:rule_paw"), ("BP", "cr-26.03:rule_bad_publicity"),
    ("liberate", "cr-26.03:rule_steal"), ("tokens", "cr-26.03:rule_counters"),
    ("core damage", "onr-rulebook:damage-brain"),
])
def test_synonyms(ix, q, expected):
    assert expected in ids(s(ix, q))[:3]


def test_a_synonym_never_rewrites_inside_a_card_name(ix):
    r = s(ix, "liberated savings account")
    assert ids(r)[0] == "cards:liberated_savings_account"
    assert "cr-26.03:rule_steal" not in ids(r)
    r = s(ix, "Data Fort Reclamation")
    assert ids(r)[0] == "cards:data_fort_reclamation"
    assert "cr-26.03:rule_server" not in ids(r)


def test_snippets_are_escaped_and_highlighted(ix):
    hit = s(ix, "simultaneously").results[0]
    assert "<mark>simultaneously</mark>" in hit.snippet_html
    assert "<mark>" not in hit.snippet_text


# ---- hostile queries: a message or an empty result, never an exception -------------------
HOSTILE = ['"unbalanced quote', "-", "doc:", "kind:", "era:", "x" * 10_000, "trace\x00tag",
           "\x07\x1b[2J", "", "   ", '"', "-\"\"", "doc:nope trace", "kind:zzz", "((((", "*", "?",
           "AND OR NOT", "1.1.1.1.1.1.1.1.1", "r", "cr-1.6:", ":", "a:b:c", "\ud800", "\u202e evil",
           "%s%n", "<script>alert(1)</script>", "' OR 1=1 --", "é" * 500, "0" * 400]


@pytest.mark.parametrize("q", HOSTILE, ids=lambda v: repr(v)[:24])
def test_hostile_queries_never_raise(ix, q):
    r = s(ix, q)
    assert isinstance(r, api.SearchResponse)
    assert r.results or r.message
    assert "Search failed" not in r.message
    for h in r.results:
        assert "<script>" not in h.snippet_html


def test_messages_name_the_problem(ix):
    assert "closing quote" in s(ix, '"end the run').message
    assert ids(s(ix, '"end the run')) == ["cr-26.03:rule_etr"]
    assert "needs a value" in s(ix, "doc:").message
    assert "No doc 'nope'" in s(ix, "doc:nope trace").message
    assert "cut to" in s(ix, "trace " * 3000).message
    assert s(ix, "trace", filters={"colour": "red"}).message.startswith("Unknown filter 'colour'")
    assert "must be a mapping" in s(ix, "trace", filters=["doc:cr-1.6"]).message
    assert ids(s(ix, "trace", filters={"kind": 42, "era": None}))[0] == "onr-rulings:trace"


def test_bad_limits_and_missing_index(ix, tmp_path):
    assert len(s(ix, "the", limit="many").results) <= 10
    assert len(s(ix, "runner", limit=-5).results) == 1
    r = api.search("trace", index_dir=tmp_path / "nothing-here")
    assert r.results == [] and "judgebook build" in r.message


def test_readers_per_thread_and_per_index_folder(ix, tmp_path):
    import threading
    other = tmp_path / "other"
    indexer.write_index(Corpus(DOCS[:1], SECTIONS[:3]), other)
    assert ids(s(other, "costs"))[0] == "cr-1.6:1.16"
    assert ids(s(ix, "1.16.10b"))[0] == "cr-26.03:rule_additional"
    errors, answers = [], []

    def worker():
        try:
            for _ in range(20):
                answers.append(ids(s(ix, "obokata protocl"))[0])
        except Exception as exc:   # pragma: no cover - reported below
            errors.append(exc)
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and set(answers) == {"cards:obokata_protocol"} and len(answers) == 80


# ---- completion ------------------------------------------------------------------------
def test_complete_numbers_titles_terms_cards(ix):
    nums = api.complete("1.16", index_dir=ix)
    assert [c.text for c in nums] == ["1.16", "1.16.10b"]
    assert nums[1].id == "cr-26.03:rule_additional"
    assert [(c.text, c.kind) for c in api.complete("obo", index_dir=ix)] == [("Obokata Protocol", "card")]
    terms = {(c.text, c.kind) for c in api.complete("paid", index_dir=ix)}
    assert ("paid ability window", "term") in terms
    assert {c.text for c in api.complete("mira", index_dir=ix)} == {"Mirāju"}
    for junk in ("", "\x00", '"', "-", "   ", "x" * 10_000):
        assert api.complete(junk, index_dir=ix) == [], junk
    assert api.complete("zzzz", index_dir=ix) == []


# ---- the package and the CLI -------------------------------------------------------------
def test_importing_the_package_does_not_import_whoosh():
    code = "import sys, judgebook.search, judgebook.commands.search; print('whoosh' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT)
    assert out.stdout.strip() == "False", out.stderr


def _cli(ix: Path, *args: str) -> subprocess.CompletedProcess:
    root = ix.parent.parent
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return subprocess.run([sys.executable, "-m", "judgebook", "--index", str(root), "search", *args],
                          capture_output=True, text=True, cwd=PROJECT, env=env)


def test_cli_json(ix):
    res = _cli(ix, "--json", "--limit", "2", "1.16.10b")
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)
    assert [r["id"] for r in rows] == ["cr-26.03:rule_additional", "cr-1.6:1.16.10b"]
    assert {"id", "doc", "number", "title", "kind", "score", "snippet"} <= set(rows[0])
    assert rows[0]["number"] == "1.16.10b" and rows[0]["doc"] == "cr-26.03"


def test_cli_text_and_hostile(ix):
    for args in (["obokata", "protocl"], ['"unbalanced'], ["--", "-"], ["doc:"], ["x" * 10_000],
                 ["--kind", "card", "ice"], ["--doc", "nope", "trace"]):
        res = _cli(ix, *args)
        assert res.returncode == 0, res.stderr
        assert "Traceback" not in res.stderr and res.stdout.strip()
    res = _cli(ix, "obokata", "protocl")
    assert "Did you mean: obokata protocol" in res.stdout
    assert "Obokata Protocol  [cards]  cards:obokata_protocol" in res.stdout
    res = _cli(ix, "cr-1.6:1.16.10b")
    assert "1 Game Concepts › 1.16 Costs" in res.stdout


def test_an_old_word_finds_its_own_text_and_todays_word_side_by_side(ix):
    got = ids(s(ix, "bits"))
    assert got[0] == "onr-rulebook:bit"             # the 1996 definition of the word typed
    assert got[1] in ("cr-26.03:rule_counters", "cr-26.03:rule_click")   # credits, today


def test_the_score_maps_give_whooshs_hits_and_scores(ix):
    # backend.Reader scores from per-word maps instead of Whoosh's matchers, for
    # speed: the same documents, the same BM25 scores, the same order.
    from whoosh import query as Q

    from judgebook.search import backend
    reader = backend.open_reader((ix).resolve())
    t = lambda field, term, boost=1.0: reader._term_map(field, term, boost)   # noqa: E731
    cases = [
        (Q.Term("text", "credit"), t("text", "credit")),
        (Q.Term("text", "credit", boost=0.8), t("text", "credit", 0.8)),
        (Q.Or([Q.Term("text", "run"), Q.Term("text", "ice")]),
         backend._union([t("text", "run"), t("text", "ice")])),
        (Q.And([Q.Term("text", "paid"), Q.Term("text", "abil")]),
         backend._intersection([t("text", "paid"), t("text", "abil")])),
        (Q.AndMaybe(Q.Term("pairs", "end run"), Q.Term("text", "run")),
         backend._and_maybe(t("pairs", "end run"), t("text", "run"))),
    ]
    for q, scores in cases:
        theirs = reader.searcher.search(q, limit=50)
        ours = sorted(((v, -d) for d, v in scores.items()), reverse=True)[:50]
        assert [-neg for _, neg in ours] == [h.docnum for h in theirs], q
        assert [round(v, 9) for v, _ in ours] == [round(h.score, 9) for h in theirs], q
        assert len(scores) == len(theirs), q




def test_a_question_is_not_searched_side_by_side():
    from judgebook.search import planning
    from judgebook.search import querygrammar as qg
    from judgebook.search.querygrammar import Filters

    class Vocabulary:   # every word common, no card names: planning only
        def frequency(self, word): return 100
        def is_card_name(self, folded): return False
        def rarity(self, words): return 1.0

    plan, *_ = planning.make_plan(Vocabulary(), qg.parse("how many clicks does the Runner get"), Filters())
    words = [w for u in plan.units for w in u.alternatives[0].words]
    assert plan.question and plan.apart and words == ["clicks", "the", "Runner"]   # "the": analysis drops it
    plan, *_ = planning.make_plan(Vocabulary(), qg.parse("what is a paid ability window"), Filters())
    assert plan.question and not plan.apart   # still typed side by side
    plan, *_ = planning.make_plan(Vocabulary(), qg.parse("jack out"), Filters())
    assert not plan.question and not plan.apart


# ---- superseded texts ----------------------------------------------------------------------
def test_an_older_cr_text_the_current_rules_reword_says_superseded(ix):
    old = s(ix, "instruction if able", filters={"doc": "cr-1.6"}).results[0]
    assert old.id == "cr-1.6:1.2.3"
    assert old.superseded and old.superseded_by == "cr-26.03:rule_if_able"
    assert old.to_json()["superseded"] is True
    assert old.to_json()["superseded_by"] == "cr-26.03:rule_if_able"
    # Without a filter the current rule comes first, and it is not superseded.
    first = s(ix, "instruction if able").results[0]
    assert first.id == "cr-26.03:rule_if_able" and not first.superseded
    # The same text in two versions (1.16.10b) is current in both: no flag.
    assert not s(ix, "1.16.10b doc:cr-1.6").results[0].superseded


# ---- spelling: the documents' own words are never rewritten ----------------------------------
def test_a_word_of_the_documents_is_never_rewritten_to_a_stop_word_or_another_word(ix):
    r = s(ix, "trace tie who wins")
    assert "the" not in (r.did_you_mean or "").split()
    assert "Showing results for" not in r.message


# ---- questions: headings and priors ------------------------------------------------------------
def test_a_heading_like_untitled_rule_is_the_context_of_its_steps():
    phase = Section("cr-26.03:phase", "cr-26.03", "6.9.2", "", "rule", "Approach Ice Phase", P,
                    children=("cr-26.03:step",))
    step = Section("cr-26.03:step", "cr-26.03", "6.9.2b", "", "step",
                   "The Corp can rez the approached piece of ice.", P, parent="cr-26.03:phase")
    long = Section("cr-26.03:long", "cr-26.03", "6.2.5", "", "rule",
                   "During a run, the Runner occupies the attacked server's positions in order.", P,
                   children=("cr-26.03:under",))
    under = Section("cr-26.03:under", "cr-26.03", "6.2.5a", "", "sub-rule", "Positions are ordered.", P,
                    parent="cr-26.03:long")
    corpus = Corpus(DOCS[1:2], [phase, step, long, under])
    assert indexer.context(corpus, step) == "Approach Ice Phase"
    assert indexer.context(corpus, under) == ""   # a sentence: a rule, not a heading
    from judgebook.search import backend
    record = next(r for r in indexer.records_of(corpus) if r.id == "cr-26.03:step")
    assert backend.heading_stems(record) == ["approach", "ic", "phase"]


def test_a_question_lifts_texts_whose_headings_name_its_words_and_squares_the_priors():
    import math

    from judgebook.search import ranking
    from judgebook.search.schema import Alternative, Member, Plan, StoredHit, Unit

    def hit(hid, doc, rank, heads):
        return StoredHit(members=(Member(hid, doc, "nsg", "", rank),), kind="rule", title="", body="",
                         defines=(), score=10.0, stems=frozenset({"rez", "ic"}), heads=frozenset(heads))
    units = (Unit((Alternative(("rez",)),), weight=3.0), Unit((Alternative(("ice",)),), weight=1.0))
    plain, headed = hit("cr-26.03:a", "cr-26.03", 0, ()), hit("cr-26.03:b", "cr-26.03", 0, ("ic", "phase"))
    older = hit("cr-1.6:c", "cr-1.6", 1, ("rez", "ic"))
    question = Plan(units=units, question=True)
    scores = {h.id: sc for sc, h in ranking.rerank([plain, headed, older], set(), question)}
    # "ice" is a quarter of the question's weight: e ** (0.25 * HEADING_WEIGHT) over the plain text
    assert scores["cr-26.03:b"] / scores["cr-26.03:a"] == pytest.approx(math.exp(0.25 * ranking.HEADING_WEIGHT))
    # an older CR's text: both words in its headings, but its prior (0.6 / 1.3) counts twice
    expected = (ranking.OLDER_PRIOR / ranking.NEWEST_PRIOR) ** 2 * math.exp(ranking.HEADING_WEIGHT)
    assert scores["cr-1.6:c"] / scores["cr-26.03:a"] == pytest.approx(expected)
    # not a question: headings do not count, priors once
    scores = {h.id: sc for sc, h in ranking.rerank([plain, headed, older], set(), Plan(units=units))}
    assert scores["cr-26.03:b"] == scores["cr-26.03:a"]
    assert scores["cr-1.6:c"] / scores["cr-26.03:a"] == pytest.approx(ranking.OLDER_PRIOR / ranking.NEWEST_PRIOR)
