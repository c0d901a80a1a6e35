"""The pure parts of search: query grammar, synonym table, spelling distance, snippets."""
from __future__ import annotations

from pathlib import Path

import pytest

from judgebook.search import fuzzy, glossary_genus, snippets, synonyms
from judgebook.search import querygrammar as qg
from judgebook.search.schema import fold, index_text


# ---- rule numbers ----------------------------------------------------------------
@pytest.mark.parametrize("text", ["1.16.10b", "1.16.10.b", "1.16.10 b", "r1.16.10b",
                                  "R 1.16.10b", "rule 1.16.10b", "1.16.10B", "§1.16.10b"])
def test_every_spelling_of_a_rule_number_is_one_ref(text):
    assert qg.parse(text).ref == qg.Ref(number="1.16.10b")


def test_doc_prefixed_number_and_plain_ids():
    assert qg.parse("cr-1.6:1.16.10b").ref == qg.Ref(number="1.16.10b", doc="cr-1.6",
                                                    id="cr-1.6:1.16.10b")
    assert qg.parse("cr-26.03:rule_run").ref == qg.Ref(doc="cr-26.03", id="cr-26.03:rule_run")
    assert qg.parse("6.9.2").ref == qg.Ref(number="6.9.2")
    assert qg.parse("section 8.5").ref == qg.Ref(number="8.5")


@pytest.mark.parametrize("text", ["trace 1.16", "run", "doc:cr-1.6", '"1.16 10b"',
                                  "1.16.10b trace", "-1.16", "1996 rules"])
def test_not_a_ref(text):
    assert qg.parse(text).ref is None


def test_dotted_numbers_inside_a_longer_query_are_numbers():
    assert qg.looks_like_number("1.16")
    assert qg.looks_like_number("6.9.2a")
    assert not qg.looks_like_number("2")
    assert not qg.looks_like_number("costs")


# ---- words, phrases, exclusions, filters -----------------------------------------------
def test_phrases_exclusions_and_filters():
    p = qg.parse('kind:ruling era:onr-1996 trace "bit pool" -net -"meat damage"')
    assert p.filters == qg.Filters(era=("onr-1996",), kind=("ruling",))
    assert p.clauses == (
        qg.Clause(("trace",)),
        qg.Clause(("bit", "pool"), phrase=True),
        qg.Clause(("net",), negated=True),
        qg.Clause(("meat", "damage"), phrase=True, negated=True),
    )
    assert p.messages == ()


def test_filter_aliases_and_lists():
    p = qg.parse("kind:glossary,rulings era:1996 doc:CR-1.6 x")
    assert p.filters == qg.Filters(doc=("cr-1.6",), era=("onr-1996",),
                                   kind=("glossary-entry", "ruling"))


def test_not_and_boolean_words():
    p = qg.parse("trace AND tag NOT net OR")
    assert [c.words[0] for c in p.positive] == ["trace", "tag"]
    assert [c.words[0] for c in p.negative] == ["net"]


def test_punctuation_around_words_is_dropped_symbols_kept():
    p = qg.parse("damage? (trace) [click]")
    assert [c.words[0] for c in p.clauses] == ["damage", "trace", "[click]"]


# ---- hostile input: always a ParsedQuery, with a message where something was dropped ----
HOSTILE = {
    '"end the run': "closing quote",
    "-": "lone '-'",
    "doc:": "'doc:' needs a value",
    "era:": "'era:' needs a value",
    "kind: trace": "'kind:' needs a value",
    "x" * 10_000: "cut to",
    "trace\x00tag": "Control characters",
    "\x07\x1b[31m": "Control characters",
    "NOT": "NOT at the end",
}


@pytest.mark.parametrize("text,message", HOSTILE.items(), ids=lambda v: repr(v)[:20])
def test_hostile_queries_parse_with_a_message(text, message):
    p = qg.parse(text)
    assert any(message in m for m in p.messages), p.messages


@pytest.mark.parametrize("text", ["", "   ", '"', '""', "- - -", ":", "doc:,", "()", "\u200b",
                                  None, 42, "a" * 300, "🂡 ♠", "'", "-\"\""])
def test_any_input_parses(text):
    p = qg.parse(text)
    assert isinstance(p, qg.ParsedQuery)
    assert len(" ".join(w for c in p.clauses for w in c.words)) <= qg.MAX_QUERY_CHARS


def test_long_queries_keep_a_bounded_number_of_words():
    p = qg.parse(" ".join(f"w{i}" for i in range(200)))
    assert len(p.clauses) == qg.MAX_ITEMS
    assert any("first" in m for m in p.messages)


# ---- folding and index text ---------------------------------------------------------
def test_fold_removes_accents_and_punctuation():
    assert fold("Mirāju") == "miraju"
    assert fold("Şifr") == "sifr"
    assert fold("Liberated Savings Account!") == "liberated savings account"
    assert fold("Runner's") == "runners"
    assert fold("R&D Interface") == "rnd interface"


def test_index_text_spells_symbols_as_words():
    assert index_text("Pay 3[c] and [click]") == "Pay 3 credit  and  click "
    assert "rnd" in index_text("Access R&D")


# ---- synonyms -----------------------------------------------------------------------
def _key(w: str) -> str:   # a stand-in stemmer: plural -s off
    return w[:-1] if w.endswith("s") and len(w) > 3 else w


def test_table_loads_and_has_the_issue_entries():
    table = synonyms.load()
    pairs = {(" ".join(p), " ".join(a)) for s in table for p in s.words for a in s.also}
    for pair in [("bits", "credit"), ("bit pool", "credit pool"), ("data fort", "server"),
                 ("prep", "event"), ("node", "asset"), ("actions", "click"),
                 ("brain damage", "core damage"), ("core damage", "brain damage"),
                 ("liberate", "steal"), ("tokens", "counter"), ("counter", "tokens"),
                 ("heap", "runner's trash"), ("etr", "end the run"),
                 ("paw", "paid ability window"), ("bp", "bad publicity")]:
        assert pair in pairs, pair


def test_the_mined_entries_are_what_the_glossary_says():
    """The table's entries noted as mined are exactly those glossary_genus reads from
    rules_source/glossary.md ("Headquarters (HQ): This is the Corp's hand of cards.")."""
    mined = glossary_genus.mine(Path(__file__).resolve().parent.parent / "rules_source" / "glossary.md")
    assert {(e.names, e.genus) for e in mined} == {
        (("Archives",), "trash pile"), (("Grip",), "hand"), (("Headquarters", "HQ"), "hand"),
        (("Heap",), "trash pile"), (("Research and Development", "R&D"), "draw deck"),
        (("Stack",), "draw deck")}   # read in the glossary's zone entries
    in_table = [s for s in synonyms.load() if s.note.startswith(glossary_genus.NOTE_PREFIX)]
    assert [(s.words, s.also, s.note) for s in in_table] == [
        (tuple(tuple(n.lower().split()) for n in e.names), (tuple(e.genus.split()),),
         glossary_genus.NOTE_PREFIX + e.definition) for e in mined]


def test_longest_span_wins_and_protected_words_are_left_alone():
    exp = synonyms.expand(["the", "bit", "pool", "bits"], _key)
    assert [(e.start, e.end) for e in exp] == [(1, 3), (3, 4)]
    assert ("credit", "pool") in exp[0].also
    assert synonyms.expand(["data", "fort", "reclamation"], _key, protected={0, 1, 2}) == []


def test_malformed_table_names_file_and_entry(tmp_path: Path):
    bad = tmp_path / "syn.toml"
    bad.write_text('[[synonym]]\nwords = ["a"]\nalso = ["b"]\n[[synonym]]\nwords = []\nalso = ["c"]\n')
    with pytest.raises(synonyms.SynonymTableError, match=r"syn.toml: synonym entry 2: 'words'"):
        synonyms.load(bad)
    bad.write_text("[[synonym]\n")
    with pytest.raises(synonyms.SynonymTableError, match="syn.toml"):
        synonyms.load(bad)
    bad.write_text('[[synonym]]\nwords = ["a"]\nalso = ["b"]\nboth = true\nwhy = 1\n')
    with pytest.raises(synonyms.SynonymTableError, match="unknown field"):
        synonyms.load(bad)


# ---- spelling -----------------------------------------------------------------------
def test_a_swap_is_one_edit():
    assert fuzzy.distance("brian", "brain") == 1
    assert fuzzy.distance("protocl", "protocol") == 1
    assert fuzzy.distance("tolbooth", "tollbooth") == 1
    assert fuzzy.distance("kitten", "sitting") == 3
    assert "brain" in fuzzy.transpositions("brian")


def test_best_prefers_fewer_edits_then_more_documents():
    assert fuzzy.best("brian", [("bring", 500), ("brain", 20)]) == "brain"
    assert fuzzy.best("tracs", [("trace", 10), ("tracker", 90)]) == "trace"
    assert fuzzy.best("tracs", [("trace", 10), ("tracks", 90)]) == "tracks"
    assert fuzzy.best("zzzz", [("trace", 10)]) is None
    assert not fuzzy.fuzzable("ab") and not fuzzy.fuzzable("1.16") and fuzzy.fuzzable("protocl")


# ---- snippets -----------------------------------------------------------------------
def test_snippet_escapes_html_and_marks_matches():
    body = 'Pay <b>2</b> & the "cost" costs more; costing it'
    spans = snippets.matches(body, snippets.candidate_pattern({"cost"}), {"cost"},
                             lambda w: "cost" if w.lower().startswith("cost") else w.lower())
    html, text = snippets.snippet(body, spans)
    assert "<b>" not in html and "&lt;b&gt;" in html and "&amp;" in html
    assert html.count("<mark>") == 3
    assert text == body


def test_snippet_windows_long_text_around_the_first_match():
    body = "filler " * 100 + "the trace attempt " + "tail " * 100
    spans = snippets.matches(body, snippets.candidate_pattern({"trace"}), {"trace"}, str.lower)
    html, text = snippets.snippet(body, spans)
    assert text.startswith("\u2026") and text.endswith("\u2026")
    assert "<mark>trace</mark>" in html
    assert len(text) <= snippets.WIDTH + 2
