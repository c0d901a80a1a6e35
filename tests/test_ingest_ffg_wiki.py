"""The FFG wiki parser: snippets, then the whole document with exact counts."""
from __future__ import annotations

import pytest

from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.ffg_wiki import parse, wiki_symbols
from judgebook.model import LINK_MAIN

DOC = "ffg-core-rulebook"
NAV = ("1 A One 6 F Six 11 K Eleven 16 P Sixteen\n"
       "2 B Two 7 G Seven 12 L Twelve 17 Q Seventeen\n"
       "3 C Three 8 H Eight 13 M Thirteen 18 R Eighteen\n"
       "4 D Four 9 I Nine 14 N Fourteen 19 S Nineteen\n"
       "5 E Five 10 J Ten 15 O Fifteen 20 T Twenty\n")
TITLES = ["A One", "B Two", "C Three", "D Four", "E Five", "F Six", "G Seven", "H Eight", "I Nine",
          "J Ten", "K Eleven", "L Twelve", "M Thirteen", "N Fourteen", "O Fifteen", "P Sixteen",
          "Q Seventeen", "R Eighteen", "S Nineteen", "T Twenty"]


def _mini(pages: int = 20, drop_heading: int | None = None) -> str:
    out = ["FANDOM", "", "Top", NAV.rstrip("\n"), "", "A One", "", "Main article: A One", "",
           "Text of A.", "", "Core Rule Book|Page 1, Column 1, Paragraph 1", ""]
    for k in range(1, pages):
        if k != drop_heading:
            out.append(TITLES[k])
        out += ["< Previous - Top - Next >", NAV.rstrip("\n"), "", f"Body {k}.", "",
                "Sub Head", "", f"Under {k}.", f"Core Rule Book|Page {k + 1}, Column 2, Paragraph 3", ""]
    out += ["Ad blocker interference detected!", "footer"]
    return "\n".join(out) + "\n"


def test_symbol_names_become_tokens():
    assert wiki_symbols("  • Click, 2Credit: Trash a resource") == "  • [click], 2[c]: Trash a resource"
    assert wiki_symbols("with three clicks (Click Click Click)") == "with three clicks ([click] [click] [click])"
    assert wiki_symbols("such as +MemoryUnit-2, which") == "such as +2[mu], which"
    assert wiki_symbols("Credit: This is the basic unit of wealth, represented by Credit.") == \
        "Credit: This is the basic unit of wealth, represented by [c]."
    assert wiki_symbols("Click Tracker") == "Click Tracker"


def test_pages_subheadings_paragraphs_and_citations():
    secs = {s.id: s for s in parse(_mini(), "w.txt", DOC)}
    a = secs[f"{DOC}:a-one"]
    assert a.kind == "page" and a.title == "A One" and a.text == "Text of A."
    assert (a.provenance.line_start, a.provenance.line_end) == (10, 16)
    assert [(l.kind, l.ref) for l in a.links] == [(LINK_MAIN, "A One")]
    b = secs[f"{DOC}:b-two"]
    assert b.text == "Body 1.\n\nSub Head\n\nUnder 1."
    assert b.children == (f"{DOC}:b-two/p1", f"{DOC}:b-two/sub-head")
    sub = secs[f"{DOC}:b-two/sub-head"]
    assert sub.children == (f"{DOC}:b-two/p2",)
    p2 = secs[f"{DOC}:b-two/p2"]
    assert p2.text == "Under 1." and p2.provenance.citation == "Page 2, Column 2, Paragraph 3"
    assert b.provenance.citation == "Page 2, Column 2, Paragraph 3"   # first = last
    for s in secs.values():
        assert "Previous" not in s.text and "FANDOM" not in s.text and "footer" not in s.text


def test_missing_heading_takes_title_from_navigation():
    secs = {s.id: s for s in parse(_mini(drop_heading=9), "w.txt", DOC)}
    j = secs[f"{DOC}:j-ten"]
    assert j.meta_get("heading").startswith("missing")
    assert j.text.startswith("Body 9.")


def test_wrong_number_of_pages_is_an_error():
    with pytest.raises(ParseError) as err:
        parse(_mini(pages=19), "w.txt", DOC)
    assert err.value.file == "w.txt" and "20 navigation blocks" in str(err.value)
    with pytest.raises(ParseError) as err:
        parse("no navigation here\n", "w.txt", DOC)
    assert (err.value.file, err.value.line) == ("w.txt", 1)


# ---------------------------------------------------------------- the whole document

@pytest.fixture(scope="module")
def wiki(rules_source):
    text = (rules_source / "ffg-core-rulebook-wiki.txt").read_text(encoding="utf-8")
    return parse(text, "ffg-core-rulebook-wiki.txt", DOC)


def _level(secs, level):
    return [s for s in secs if s.meta_get("level") == level]


def test_counts(wiki):
    # 20 pages: the navigation table numbers them 1..20.
    assert len(_level(wiki, "page")) == 20
    # grep -c '^Core Rule Book|' -> 112 citation lines. Two pairs of them are
    # adjacent (lines 156-157 and 683-684: text spanning two columns cited
    # twice), so they close 110 paragraph groups; plus one group the wiki left
    # uncited (line 726, "Triggering Click Abilities", Runner's Turn) = 111.
    paras = _level(wiki, "paragraph")
    assert len(paras) == 111
    assert sum(1 for p in paras if p.provenance.citation) == 110
    assert sum(p.provenance.citation.count("; ") + 1 for p in paras if p.provenance.citation) == 112
    assert [p.provenance.line_start for p in paras if not p.provenance.citation] == [726]
    assert all(p.text for p in paras)
    # awk: single-line blank-separated paragraphs under 60 chars, no ':' or '|',
    # not ending in .:!?" and not chrome/"Note" -> 82 lines, of which 3 are page
    # headings (lines 12, 128, 175) -> 79 sub-headings.
    assert len(_level(wiki, "subheading")) == 79
    # grep -c 'Main article' -> 12
    assert sum(1 for s in wiki for l in s.links if l.kind == LINK_MAIN) == 12
    assert len({s.id for s in wiki}) == len(wiki) == 20 + 111 + 79


def test_page_titles_and_the_lost_heading(wiki):
    pages = _level(wiki, "page")
    assert [p.title for p in pages][:4] == ["Object of the Game", "Setup", "The Golden Rule",
                                            "Important Vocabulary"]
    paid = next(p for p in pages if p.title == "Paid Abilities")
    assert paid.id == f"{DOC}:paid-abilities" and paid.meta_get("heading").startswith("missing")
    assert paid.text.startswith("Some card abilities have trigger costs")


def test_exact_text_citations_and_lines(wiki):
    secs = {s.id: s for s in wiki}
    golden = secs[f"{DOC}:the-golden-rule"]
    assert golden.text == ("If the text of a card directly conflicts with the rules in this book, "
                           "the card text takes precedence.")
    assert golden.provenance.citation == "Page 5, Column 1, Paragraph 8"
    assert golden.provenance.line_start == 46
    play = secs[f"{DOC}:play-areas"]
    assert play.provenance.citation == "Page 6, Column 1, Paragraph 1 – Page 6, Column 2, Paragraph 3"
    assert [l.ref for l in play.links] == ["Play Area"]
    servers = secs[f"{DOC}:corporation-play-area/p2"]
    assert servers.provenance.citation == ("Page 6, Column 1, Paragraphs 4-7; "
                                           "Page 6, Column 2, Paragraphs 4-5")
    assert (servers.provenance.line_start, servers.provenance.line_end) == (144, 157)
    pool = secs[f"{DOC}:play-areas/credit-pool"]
    assert pool.provenance.line_start == 101 and pool.parent == f"{DOC}:play-areas"
    action = secs[f"{DOC}:corporation-s-turn/2-action-phase"]
    assert "• [click], 2[c]: Trash a resource in the Runner's rig if the Runner is tagged." in action.text
    for s in wiki:
        assert "Core Rule Book|" not in s.text and "< Previous" not in s.text
        assert "Object of the Game 6 Corporation Play Area" not in s.text


def test_tree_is_consistent(wiki):
    ids = {s.id: s for s in wiki}
    for s in wiki:
        assert not s.parent or s.id in ids[s.parent].children
        assert all(ids[c].parent == s.id for c in s.children)
        assert s.provenance.line_start <= s.provenance.line_end
