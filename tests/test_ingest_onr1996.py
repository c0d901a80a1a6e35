"""The 1996 file parser (rulebook, TRC rulings, floor rules) and its attribution dates."""
from __future__ import annotations

from collections import Counter

import pytest

from judgebook.ingestion.dates import iso_date, parse_attribution
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.onr1996 import parse
from judgebook.ingestion.onr_rulebook import parse_index_lines
from judgebook.model import LINK_INDEX

FILE = "netrunner-1996.txt"


# ---------------------------------------------------------------- dates and attributions

@pytest.mark.parametrize("token,iso", [
    ("11/12/99", "1999-11-12"),      # American month/day
    ("4/19/96", "1996-04-19"),
    ("15/02/00", "2000-02-15"),      # the first number cannot be a month: day/month
    ("18-02-2000", "2000-02-18"),    # dashes: day-month-year
    ("11-03-2000", "2000-03-11"),
])
def test_iso_date(token, iso):
    assert iso_date(token) == iso


@pytest.mark.parametrize("bad", ["2/30/96", "13/13/99", "nope"])
def test_iso_date_rejects(bad):
    with pytest.raises(ValueError):
        iso_date(bad)


def test_attribution_shapes():
    a = parse_attribution("Tom Wylie 11/12/99")
    assert (a.who, a.date, a.extra) == ("Tom Wylie", "1999-11-12", ())
    a = parse_attribution("Sparky, Netrunner-L, 4/19/96")
    assert (a.who, a.date, a.extra) == ("Sparky", "1996-04-19", (("via", "Netrunner-L"),))
    a = parse_attribution("Tom Wylie via JD Wiker, Netrunner-L, 3/11/96")
    assert (a.who, a.date) == ("Tom Wylie", "1996-03-11")
    assert a.extra == (("relayed_by", "JD Wiker"), ("via", "Netrunner-L"))
    a = parse_attribution("Sparky on Executive Extraction, Netrunner-L, 6/25/96")
    assert a.who == "Sparky" and ("ruled_on", "Executive Extraction") in a.extra
    a = parse_attribution("Netrunner Rulebook, pp9-10; Sparky, Netrunner-L, 5/30/96")
    assert (a.who, a.date) == ("Sparky", "1996-05-30")
    assert ("also", "Netrunner Rulebook, pp9-10") in a.extra
    assert parse_attribution("Sparky!, Netrunner-L, 5/1/96").who == "Sparky"


# ---------------------------------------------------------------- snippets

def _mini(rulings: str) -> str:
    return ("\nOBJECTIVE\n\nScore 7 points.\n\nCORP AND RUNNER GLOSSARY\n\n"
            "Bit: A counter. Of course.\n\nINDEX\n\nA\n\nACCESS, [18](#)\n\n"
            "Netrunner Rulings, v1.70\n\nPreface.\n\n" + rulings +
            "\n\nOFFICIAL NETRUNNER\nSTANDARD FLOOR RULES\n\n1.0 RULES\n\n1.0.1 Judges may not play.\n")


def test_card_rulings_split_join_and_attribute():
    text = _mini("Agenda Rulings\n\nFetal AI\n\nThe Runner may choose not to pay. (Sparky, Netrunner-L, 10/2/96)\n\n"
                 "One ruling. (Sparky, Netrunner-L, 9/5/96) Another one. (Tom Wylie, 8/26/97)\n\n"
                 "A sentence cut by a page\n\nbreak. (JD Wiker, Netrunner-L, 1/28/97)\n\n"
                 "Program Rulings\n\nDropp (tm)\n\nSee notes on [Fetal AI](#).")
    secs = {s.id: s for s in parse(text, FILE)}
    card = secs["onr-rulings:fetal-ai"]
    assert card.kind == "section" and card.meta_get("side") == "corp" and card.parent == "onr-rulings:agenda-rulings"
    rulings = [secs[c] for c in card.children]
    assert [r.text for r in rulings] == ["The Runner may choose not to pay.", "One ruling.", "Another one.",
                                         "A sentence cut by a page break."]
    assert [(r.provenance.attribution, r.provenance.date) for r in rulings] == [
        ("Sparky", "1996-10-02"), ("Sparky", "1996-09-05"), ("Tom Wylie", "1997-08-26"), ("JD Wiker", "1997-01-28")]
    assert all(r.kind == "ruling" for r in rulings)
    dropp = secs["onr-rulings:dropp-tm"]
    assert dropp.title == "Dropp (tm)" and dropp.meta_get("side") == "runner"
    assert dropp.text == "See notes on Fetal AI." and dropp.links[0].target == "onr-rulings:fetal-ai"


def test_digest_duplicates_are_dropped_and_noted():
    text = _mini("New Rulings:\n\n11-03-2000\n\nGlacier\n\n@ Same words here. (Tom Wylie 11/12/99)\n\n"
                 "General Netrunner Rulings\n\n- [Tracing](#)\n\nTracing\n\nOther. (Sparky, Netrunner-L, 4/24/96)\n\n"
                 "Ice Rulings\n\nGlacier\n\nSame words here. (Tom Wylie 11/12/99)\n\nSame words here. "
                 "(Tom Wylie 11/12/99)")
    secs = parse(text, FILE)
    ids = [s.id for s in secs]
    assert "onr-rulings:new-rulings/glacier" not in ids      # its only ruling is in the body
    kept = next(s for s in secs if s.id == "onr-rulings:glacier/r1")
    # the digest's copy (line 26) and the second body copy (line 42) are the duplicates
    assert kept.meta_get("duplicate_lines") == "26,42"
    assert "onr-rulings:glacier/r2" not in ids
    assert next(s for s in secs if s.id == "onr-rulings:new-rulings").meta_get("date") == "2000-03-11"
    assert next(s for s in secs if s.id == "onr-rulings:tracing").parent == "onr-rulings:general-netrunner-rulings"


def test_bad_attribution_date_names_file_and_line():
    text = _mini("Agenda Rulings\n\nFetal AI\n\nA ruling. (Sparky, Netrunner-L, 2/30/96)")
    with pytest.raises(ParseError) as err:
        parse(text, FILE)
    assert err.value.file == FILE and err.value.line == 24
    assert "attribution" in str(err.value)


def test_missing_part_is_an_error():
    with pytest.raises(ParseError) as err:
        parse("OBJECTIVE\n\nText.\n", FILE)
    assert err.value.file == FILE and "Netrunner Rulings" in str(err.value)


def test_index_entries_and_subentries():
    lines = ["A", "", "AGENDAS, [34](#)", "", "Scoring, [24](#)", "P", "PROGRAMS, [42](#)", "MU, [12](#)",
             "REZ, [11](#). See also DEREZ"]
    got = [(e.label, e.pages, e.see) for e in parse_index_lines(lines, 1)]
    assert got == [("AGENDAS", ("34",), ()), ("AGENDAS, Scoring", ("24",), ()), ("PROGRAMS", ("42",), ()),
                   ("PROGRAMS, MU", ("12",), ()), ("PROGRAMS, REZ", ("11",), (("See also", "DEREZ"),))]


# ---------------------------------------------------------------- the whole file

@pytest.fixture(scope="module")
def onr(rules_source):
    return parse((rules_source / FILE).read_text(encoding="utf-8"), FILE)


def _of(secs, doc, kind=None):
    return [s for s in secs if s.doc == doc and (kind is None or s.kind == kind)]


def test_three_documents_unique_ids_and_order(onr):
    assert {s.doc for s in onr} == {"onr-rulebook", "onr-rulings", "onr-floor-rules"}
    assert len({s.id for s in onr}) == len(onr)
    for doc in ("onr-rulebook", "onr-rulings", "onr-floor-rules"):
        assert [s.order for s in _of(onr, doc)] == list(range(len(_of(onr, doc))))


def test_rulebook_counts(onr):
    # CAPITALISED standalone headings before "Netrunner Rulings": 11 prose sections
    # (OVERVIEW OF NETRUNNER ... SAMPLE GAME) + the glossary + the index = 13.
    tops = [s for s in _of(onr, "onr-rulebook", "section") if not s.parent]
    assert len(tops) == 13
    # awk over lines < 469: one-line blank-separated paragraphs under 50 chars, not
    # all capitals, not ending in .!?" -> 31; less 7 that are captions or lead-ins
    # (lines 88 "Subroutine marker", 192, 208, 214, 224, 244 ending in ":", 425
    # "[Program Icon ...]") = 24 sub-headings, each a child section.
    subs = [s for s in _of(onr, "onr-rulebook", "section") if s.meta_get("level") == "subheading"]
    assert len(subs) == 24
    assert len(_of(onr, "onr-rulebook", "section")) == 13 + 24
    # awk 'NR>469 && NR<601 && /^[A-Z][A-Za-z&' ,-]*: /' -> 65 "Term:" paragraphs,
    # + "Rez cost:" fused inside "Rez" = 66 (both "Stack" entries kept).
    assert len(_of(onr, "onr-rulebook", "glossary-entry")) == 66
    index = next(s for s in onr if s.id == "onr-rulebook:index")
    # awk 'NR>601 && NR<727 && $0!="" && $0 !~ /^[A-Z]$/' -> 60 entry lines
    assert index.meta_get("index_entries") == "60" and len(index.text.split("\n")) == 60
    # grep -o '\[[0-9]*\](#)' -> 63 page numbers; grep -o 'See' -> 5 pointers
    kinds = Counter(l.ref.startswith("page ") for l in index.links if l.kind == LINK_INDEX)
    assert kinds == {True: 63, False: 5}


def test_rulebook_texts(onr):
    secs = {s.id: s for s in onr}
    obj = secs["onr-rulebook:objective"]
    assert obj.provenance.line_start == 17
    assert obj.text.startswith("The Corporation's goal is to score agenda cards worth a total of 7 agenda points.")
    # a paragraph split by a page break is mended ("Now we" / "are ready")
    assert "Now we are ready to take our three actions" in secs["onr-rulebook:sample-game"].text
    assert secs["onr-rulebook:rez-cost"].text == ("The cost we pay in bits to rez an installed card. "
                                                  "This is a one-time cost.")
    assert secs["onr-rulebook:stack-2"].text == "Four draw pile."
    see = {l.ref: l.target for l in secs["onr-rulebook:index"].links if not l.ref.startswith("page ")}
    assert see["ICE"] == "onr-rulebook:ice" and see["TRACE ATTEMPT"] == ""
    assert "bits" in secs["onr-rulebook:bit"].text          # era vocabulary left alone
    limits = secs["onr-rulebook:corporation-rules/corporation-deck-size-limits"]
    assert limits.text.startswith("Agenda points in our deck: | Our maximum deck size:\n18-19 | 45\n")
    prio = secs["onr-rulebook:combined-rules/priority"]
    assert prio.provenance.line_start == 286 and prio.parent == "onr-rulebook:combined-rules"
    assert prio.text.startswith("If we and the Runner can both perform functions")
    assert [secs[c].title for c in secs["onr-rulebook:sample-game"].children] == ["Turn 1:", "Turn 2:", "Turn 3:"]


def test_rulings_counts(onr):
    sections = _of(onr, "onr-rulings", "section")
    cards = [s for s in sections if s.meta_get("side")]
    # the count; independently: in lines 1088-2555, non-empty lines of at
    # most 45 chars not ending in ")" and not "See/For ..." or "... Rulings" -> 263,
    # + "Bakdoor (tm)" and "Dropp (tm)" = 265.
    assert len(cards) == 265
    assert Counter(s.meta_get("side") for s in cards) == {"runner": 146, "corp": 119}
    general = next(s for s in sections if s.id == "onr-rulings:general-netrunner-rulings")
    # grep -c '^- \[.*\](#)$' in the rulings -> 22 topics
    assert len(general.children) == 22
    # grep -c ' Rulings$' -> 11, less "General Netrunner Rulings" and floor rule "1.3.13 Lengthy Rulings" = 9
    types = [s.title for s in sections if s.title.endswith(" Rulings") and s.parent == "" and s.children
             and s.id not in (general.id, "onr-rulings:new-rulings")]
    assert len(types) == 9
    rulings = _of(onr, "onr-rulings", "ruling")
    # tr-joined grep of attribution groups "(... Netrunner-L | date ...)" in lines
    # 749-2555 -> 505; + 8 unattributed rulings (digest "@" lines 759, 768, 772,
    # 773, 777, 781; Theorem Proof's paragraphs 1170, 1172) = 513; - 17 digest
    # copies of body rulings = 496.
    assert len(rulings) == 496
    dup_lines = [n for r in rulings for n in r.meta_get("duplicate_lines").split(",") if n]
    assert len(dup_lines) == 17
    assert [r.id for r in rulings if not r.provenance.date] == ["onr-rulings:theorem-proof/r1",
                                                                "onr-rulings:theorem-proof/r2"]
    digest = [s for s in sections if s.parent == "onr-rulings:new-rulings"]
    assert [s.title for s in digest] == ["Steroid", "Discarding", "Glacier", "Superglue"]


def test_ruling_texts_and_provenance(onr):
    secs = {s.id: s for s in onr}
    r = secs["onr-rulings:ice-icebreakers/r2"]
    assert r.text == ("When Ice is trashed, any Ice that is outside of it moves in to fill the vacuum "
                      "left by its predecessor.")
    assert (r.provenance.attribution, r.provenance.date, r.provenance.extra) == (
        "Sparky", "1996-04-19", (("via", "Netrunner-L"),))
    assert r.provenance.line_start == 886
    puzzle = secs["onr-rulings:puzzle/r1"]
    assert (puzzle.provenance.attribution, puzzle.provenance.date) == ("Tom Wylie", "2000-02-15")
    assert puzzle.meta_get("duplicate_lines") == "785"
    glacier = secs["onr-rulings:glacier/r2"]
    assert glacier.meta_get("duplicate_lines") == "819,825"
    assert glacier.text.startswith("Security Purge says 'rez them, at no cost'.")
    assert secs["onr-rulings:total-genetic-retrofit-2"].meta_get("category") == "preps"
    for s in _of(onr, "onr-rulings"):
        assert "**" not in s.text and "](#)" not in s.text and not s.text.startswith("@")


def test_floor_rules(onr):
    rules = _of(onr, "onr-floor-rules", "floor-rule")
    # awk 'NR>=2739 && /^[0-9]+\.[0-9]+(\.[0-9]+)* /' -> 47 numbered floor rules
    assert len(rules) == 47
    # title, INTRODUCTION, A., B., C., STANDARD FLOOR RULES, APPENDIX I, APPENDIX II
    assert len(_of(onr, "onr-floor-rules", "section")) == 8
    secs = {s.id: s for s in onr}
    notes = secs["onr-floor-rules:1.3.6.1"]
    assert (notes.number, notes.title, notes.parent) == ("1.3.6.1", "Taking Notes", "onr-floor-rules:1.3.6")
    assert notes.provenance.line_start == 2857
    judges = secs["onr-floor-rules:1.0.1"]
    assert judges.title == "" and judges.text.startswith("Judges, tournament organizers, and tournament officials may")
    twin = secs["onr-floor-rules:1.3.13-2"]
    assert (twin.number, twin.title, twin.meta_get("duplicate_number")) == ("1.3.13", "Lengthy Rulings", "1.3.13")
    assert secs["onr-floor-rules:1.1"].parent == "onr-floor-rules:1.0"


def test_tree_is_consistent(onr):
    ids = {s.id: s for s in onr}
    for s in onr:
        assert not s.parent or (s.id in ids[s.parent].children and ids[s.parent].doc == s.doc)
        assert all(ids[c].parent == s.id for c in s.children)
        assert 1 <= s.provenance.line_start <= s.provenance.line_end <= 3131
    quoted = ids["onr-rulings:city-surveillance/r5"]
    assert quoted.text.endswith('without CS being rezzed."') and quoted.provenance.date == "1996-03-11"
