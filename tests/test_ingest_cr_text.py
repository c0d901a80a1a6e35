"""The two NISEI Comprehensive Rules text parsers: CR 1.6 (PDF text) and CR 1.4 (markdown).

Counts asserted on the whole documents were taken independently of the
parsers, with grep on the source files (commands in the comments).
"""
from __future__ import annotations

from collections import Counter

import pytest

from judgebook.ingestion import cr_markdown, cr_pdf_text
from judgebook.ingestion.cr_common import defined_terms, is_title
from judgebook.ingestion.errors import ParseError


@pytest.fixture(scope="module")
def cr16(rules_source):
    text = (rules_source / "cr-1.6.txt").read_text(encoding="utf-8")
    return cr_pdf_text.parse(text, "cr-1.6.txt", "cr-1.6")


@pytest.fixture(scope="module")
def cr14(rules_source):
    text = (rules_source / "cr-1.4.md").read_text(encoding="utf-8")
    return cr_markdown.parse(text, "cr-1.4.md", "cr-1.4")


@pytest.fixture(scope="module")
def lines16(rules_source):
    return (rules_source / "cr-1.6.txt").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def lines14(rules_source):
    return (rules_source / "cr-1.4.md").read_text(encoding="utf-8").splitlines()


def by_id(sections):
    return {s.id: s for s in sections}


def span(section):
    return section.provenance.line_start, section.provenance.line_end


# --- CR 1.6, whole document -------------------------------------------------

def test_cr16_counts(cr16):
    kinds = Counter(s.kind for s in cr16)
    # The issue: 218 numbered rules, 178 lettered sub-rules, 54 examples. Also by
    # grep on the body (line 208 on, after the table of contents):
    #   sed -n '208,$p' cr-1.6.txt | grep -cP '^\d+\.\d+\.\d+\. '   -> 218
    #   sed -n '208,$p' cr-1.6.txt | grep -cP '^[a-z]\. '           -> 178
    #   grep -c '^Example' cr-1.6.txt                               -> 54
    #   sed -n '208,$p' cr-1.6.txt | grep -cP '^\d+\.\d+\. '        -> 49
    #   sed -n '208,$p' cr-1.6.txt | grep -cP '^\d+\. '             -> 4 (stops in chapter 4)
    assert kinds["rule"] == 218
    assert kinds["sub-rule"] == 178
    assert kinds["example"] == 54
    assert kinds["chapter"] == 4
    # 49 numbered sections plus the introduction and the summary of changes
    assert sum(1 for s in cr16 if s.kind == "section" and s.number) == 49
    assert sorted(s.id for s in cr16 if s.kind == "section" and not s.number) == [
        "cr-1.6:introduction", "cr-1.6:summary-of-changes"]


def test_cr16_titled_rules(cr16):
    # The four x.y.z headings of chapters 1-4 in the table of contents
    # (grep -nP '^\d+\.\d+\.\d+\. ' cr-1.6.txt | head: 1.10.5, 3.6.5, 3.8.5, 3.9.5).
    titled = [(s.number, s.title) for s in cr16 if s.kind == "rule" and s.title]
    assert titled == [("1.10.5", "Recurring Credits"), ("3.6.5", "Regions"),
                      ("3.8.5", "Consoles"), ("3.9.5", "Icebreakers")]
    s = by_id(cr16)["cr-1.6:1.10.5"]
    assert s.text == ""
    assert s.children == tuple(f"cr-1.6:1.10.5{c}" for c in "abcd")


def test_cr16_exact_texts(cr16):
    s = by_id(cr16)
    assert s["cr-1.6:1.2.2"].text == (
        "If a rule or ability directs something to happen, but another effect states that it "
        "cannot happen, the “cannot” ability takes precedence.")
    assert s["cr-1.6:1.16.10b"].text == (
        "A player must pay all additional costs simultaneously with the cost that is being added "
        "to, even if multiple cards or abilities are adding separate additional costs. A player "
        "cannot pay the original cost or any of the additional costs individually. If they cannot "
        "pay for all of the costs at once, then they do not pay any of the costs and the "
        "corresponding effects cannot occur.")
    assert s["cr-1.6:1.10.5d"].text == (
        "Recurring credits do not accumulate. They are refilled only up to the indicated number.")
    # a rule wrapped across a page marker ("- 5 -") is one paragraph
    assert s["cr-1.6:1.2.5"].text.endswith(
        "without regard to the consequences of paying any costs to initiate that action or "
        "ability and without regard to any other abilities that may meet their conditions in "
        "the process of initiating or resolving that action or ability.")
    # the last rule of the file: it stops at 4.1.2, without error
    assert cr16[-1].id == "cr-1.6:4.1.2"
    # symbols normalised
    assert "[mu] (plaintext: [mu])" in s["cr-1.6:1.3.7"].text


def test_cr16_section_intro_keeps_its_paragraphs(cr16):
    text = by_id(cr16)["cr-1.6:1.10"].text
    assert text.split("\n\n") == [
        "Each of the Runner’s credits represents enough money to upgrade some basic parts for "
        "their console, have a meal at a decent restaurant, or buy a ticket and some concessions "
        "for a night at the sensies.",
        "Each of the Corp’s credits represents enough money to manufacture a run of computer "
        "parts, buy out a decent restaurant, or film a low-budget sensie."]


def test_cr16_tree(cr16):
    s = by_id(cr16)
    assert s["cr-1.6:1.16.10b"].parent == "cr-1.6:1.16.10"
    assert s["cr-1.6:1.16.10"].parent == "cr-1.6:1.16"
    assert s["cr-1.6:1.16"].parent == "cr-1.6:1"
    assert s["cr-1.6:1"].parent == ""
    assert s["cr-1.6:1.16.10"].children == tuple(f"cr-1.6:1.16.10{c}" for c in "abc")
    # examples are children of what they follow, and listed as its examples
    assert s["cr-1.6:1.2.5"].examples == tuple(f"cr-1.6:1.2.5/ex{n}" for n in (1, 2, 3))
    assert s["cr-1.6:1.2.2b"].examples == ("cr-1.6:1.2.2b/ex1",)
    ex = s["cr-1.6:1.2.2b/ex1"]
    assert (ex.kind, ex.title, ex.number, ex.parent) == ("example", "Example", "", "cr-1.6:1.2.2b")
    assert ex.text.startswith("During a run, Lockdown’s subroutine resolves")
    # 1.12.2: two examples on the rule, then sub-rule a with its own
    assert s["cr-1.6:1.12.2"].children == (
        "cr-1.6:1.12.2/ex1", "cr-1.6:1.12.2/ex2", "cr-1.6:1.12.2a")
    assert s["cr-1.6:1.12.2a"].examples == ("cr-1.6:1.12.2a/ex1",)
    # the "CR 1.16.1b's Jesminder Sareen and Funhouse" example
    assert s["cr-1.6:1.16.1b"].examples == ("cr-1.6:1.16.1b/ex1", "cr-1.6:1.16.1b/ex2")
    assert s["cr-1.6:1.16.1b/ex2"].text.startswith("The Runner is playing as Jesminder Sareen")
    assert s["cr-1.6:1.16.1b/ex2"].text.endswith("Funhouse will end the run.")


def test_cr16_provenance(cr16, lines16):
    s = by_id(cr16)
    # by eye in the file: 1.2.2 on lines 222-223, its sub-rule b on 226-227 and
    # the example on 228-232; 1.16.10b on 924-928; 1.2.5 spans the page marker at 241
    assert span(s["cr-1.6:1.2.2"]) == (222, 223)
    assert span(s["cr-1.6:1.2.2b"]) == (226, 227)
    assert span(s["cr-1.6:1.2.2b/ex1"]) == (228, 232)
    assert span(s["cr-1.6:1.16.10b"]) == (924, 928)
    assert span(s["cr-1.6:1.2.5"]) == (238, 243)
    assert s["cr-1.6:1.2.2"].provenance.file == "cr-1.6.txt"
    # every numbered section's first line is its heading in the source
    for sec in cr16:
        if sec.number:
            line = lines16[sec.provenance.line_start - 1]
            head = sec.number if sec.kind != "sub-rule" else sec.number[-1]
            assert line.startswith(head + "."), (sec.id, line)
        if sec.kind == "example":
            assert lines16[sec.provenance.line_start - 1].startswith("Example")
        assert sec.provenance.line_start <= sec.provenance.line_end


def test_cr16_summary_of_changes(cr16):
    s = by_id(cr16)["cr-1.6:summary-of-changes"]
    changes = s.text.split("\n")
    # 9 changes, counted by eye on lines 8-21 (each starts with a verb:
    # Updated, Added, Added, Added, Updated, Removed, Renamed, Updated, Added)
    assert len(changes) == 9
    assert changes[0] == ("Updated section 1.16 to clarify various rules related to "
                          "calculating, paying, and ignoring costs.")
    assert changes[4] == ("Updated rule 4.1.2a to refer to the new section rather than stating "
                          "a blanket exemption for cards being installed.")
    assert changes[-1] == "Added rules for the new charge, mark, and sabotage keywords in section 10."
    assert s.meta_get("intro").startswith("The biggest changes from version 1.5")
    assert (s.title, s.kind, s.number, s.parent) == ("Summary of Changes", "section", "", "")
    assert span(s) == (5, 21)


def test_cr16_clean_text(cr16):
    for s in cr16:
        assert "Table of Contents" not in s.text
        assert "Acknowledgements" not in s.text
        assert not any(line.strip().startswith("- ") and line.strip().endswith(" -")
                       for line in s.text.splitlines()), s.id
        assert "\n" not in s.text or s.kind == "section", s.id


def test_cr16_defined_terms(cr16):
    s = by_id(cr16)
    assert s["cr-1.6:1.8.3"].meta_get("defines") == "Active"
    assert s["cr-1.6:1.9.1"].meta_get("defines") == "Counters|Tokens"
    assert s["cr-1.6:1.10.1"].meta_get("defines") == "Credit"
    assert s["cr-1.6:1.14.2"].meta_get("defines") == "Controller of an Object"
    assert s["cr-1.6:1.10.5a"].meta_get("defines") == "Recurring Credits"
    # acronyms, symbols and the game's trademark define nothing
    assert s["cr-1.6:1.1"].meta_get("defines") == ""       # ANDROID: NETRUNNER
    assert s["cr-1.6:1.3.7"].meta_get("defines") == ""     # [MU]
    assert s["cr-1.6:1.20.1"].meta_get("defines") == "Memory Unit"   # "(MU)" is not a term
    assert all(not x.meta for x in cr16 if x.kind == "example")


def test_structure_is_consistent(cr16, cr14):
    for doc in (cr16, cr14):
        ids = by_id(doc)
        assert len(ids) == len(doc)
        assert [s.order for s in doc] == list(range(len(doc)))
        for s in doc:
            for child in s.children:
                assert ids[child].parent == s.id
            for ex in s.examples:
                assert ids[ex].kind == "example" and ex in s.children
            if s.parent:
                assert s.id in ids[s.parent].children


# --- CR 1.4, whole document -------------------------------------------------

def test_cr14_counts(cr14):
    kinds = Counter(s.kind for s in cr14)
    # Counted on the body (line 77 on) with grep, bullets optional:
    #   tail -n +77 cr-1.4.md | grep -cP '^\s*(- )?\d+\.\d+\.\d+ '   -> 58
    #   tail -n +77 cr-1.4.md | grep -cP '^\s*(- )?[a-z]\. '          -> 55
    #   grep -cP '^\s*(- )?Example( \d+)?:' cr-1.4.md                 -> 11
    #   tail -n +77 cr-1.4.md | grep -cP '^\d+\.\d+ '                 -> 11
    #   tail -n +77 cr-1.4.md | grep -cP '^\d+ '                      -> 1
    assert kinds["rule"] == 58
    assert kinds["sub-rule"] == 55
    assert kinds["example"] == 11
    assert kinds["chapter"] == 1
    assert sum(1 for s in cr14 if s.kind == "section" and s.number) == 11
    assert [(s.number, s.title) for s in cr14 if s.kind == "rule" and s.title] == [
        ("1.10.5", "Recurring Credits")]


def test_cr14_numbers_differ_from_cr16(cr14):
    s = by_id(cr14)
    assert s["cr-1.4:1.11.3"].text.startswith("Some cards have the subtype priority")
    assert s["cr-1.4:1.10.5b"].text == (
        "Recurring credits do not accumulate. They are refilled only up to the indicated number.")
    assert "cr-1.4:1.12" not in s and "cr-1.4:1.11.4" not in s
    assert cr14[-1].id == "cr-1.4:1.11.3"


def test_cr14_conversion_slips(cr14):
    s = by_id(cr14)
    # "- c. ... for any" / blank / "- purpose (other than ...)": one sub-rule
    assert s["cr-1.4:1.10.4c"].text == (
        "If an ability specifies a time period during which a player is allowed to spend credits "
        "from a card, they can be spent from that card as if they were in the player's credit "
        "pool for any purpose (other than losing credits) as long as the specified time period "
        "is active or the specified duration has not expired.")
    assert span(s["cr-1.4:1.10.4c"]) == (236, 238)
    assert s["cr-1.4:1.10.4d"].parent == "cr-1.4:1.10.4"
    # a sub-rule and a rule without their bullets
    assert s["cr-1.4:1.7.2c"].text.startswith("The Runner wins if the Corp is required")
    assert s["cr-1.4:1.3.10"].parent == "cr-1.4:1.3"
    # bulleted, numbered examples
    assert s["cr-1.4:1.10.3c"].examples == tuple(f"cr-1.4:1.10.3c/ex{n}" for n in (1, 2, 3))
    assert s["cr-1.4:1.10.3c/ex2"].title == "Example 2"
    assert s["cr-1.4:1.10.3c/ex2"].text == (
        "The Runner may use credits from Ghost Runner when secretly spending credits to resolve "
        "a Psi ability (such as The Future Perfect).")


def test_cr14_provenance(cr14, lines14):
    s = by_id(cr14)
    assert span(s["cr-1.4:1.2.2"]) == (89, 89)
    assert span(s["cr-1.4:1.10.5"]) == (241, 241)
    assert s["cr-1.4:1"].provenance.line_start == 77    # after the OCR'd contents
    for sec in cr14:
        if sec.number and sec.kind != "sub-rule":
            assert lines14[sec.provenance.line_start - 1].lstrip(" -").startswith(sec.number + " ")


def test_cr14_front_matter(cr14):
    s = by_id(cr14)
    changes = s["cr-1.4:summary-of-changes"].text.split("\n")
    # sed -n 7,57p cr-1.4.md | grep -c '^- '   -> 44
    assert len(changes) == 44
    assert changes[0] == "Added our email address."
    assert changes[-1] == "Issued errata to correct the wording of Engram Flush."
    assert s["cr-1.4:summary-of-changes"].meta_get("intro") == (
        "Changes from version 1.2 are highlighted in orange.")
    assert s["cr-1.4:introduction"].text.endswith(
        "This is version 1.4 of this document, effective 20 December 2019.")


def test_cr14_defined_terms_skip_card_names(cr14):
    s = by_id(cr14)
    assert s["cr-1.4:1.8.3"].meta_get("defines") == "Active"
    assert s["cr-1.4:1.9.5e"].meta_get("defines") == "Brain Damage Tokens"
    # card names in capitals, as appositives
    for rule in ("1.5.2", "1.5.3", "1.5.4"):
        assert s[f"cr-1.4:{rule}"].meta_get("defines") == "", rule


# --- pure functions on small snippets --------------------------------------

PDF_SNIPPET = """\
1. Game Concepts
1.2. The Golden Rules
1.2.1. If the text of a card directly contradicts these rules, the text of the card takes
precedence.
1.2.2. If a rule or ability directs something to happen, but another effect states that it cannot
- 5 -
happen, the “cannot” ability takes precedence.
a. If a “cannot” effect prohibits all of the effects of another ability.
Example: The Runner gains 2[Credit].
b. If a “cannot” effect prohibits only part of another ability.
"""


def test_pdf_snippet():
    secs = cr_pdf_text.parse(PDF_SNIPPET, "x.txt", "t")
    assert [(s.id, s.kind) for s in secs] == [
        ("t:1", "chapter"), ("t:1.2", "section"), ("t:1.2.1", "rule"), ("t:1.2.2", "rule"),
        ("t:1.2.2a", "sub-rule"), ("t:1.2.2a/ex1", "example"), ("t:1.2.2b", "sub-rule")]
    s = by_id(secs)
    assert s["t:1.2.1"].text == ("If the text of a card directly contradicts these rules, "
                                 "the text of the card takes precedence.")
    assert s["t:1.2.2"].text.endswith("states that it cannot happen, the “cannot” ability takes precedence.")
    assert span(s["t:1.2.2"]) == (5, 7)
    assert s["t:1.2.2a/ex1"].text == "The Runner gains 2[c]."
    assert s["t:1.2.2"].children == ("t:1.2.2a", "t:1.2.2b")
    assert s["t:1.2"].children == ("t:1.2.1", "t:1.2.2")
    assert not any(sec.kind == "section" and not sec.number for sec in secs)


def test_pdf_snippet_with_contents_and_tail():
    text = """\
Title line
This is version 9 of this document.
Summary of Changes
Added rule 1.1.1 to say a
thing.
Table of Contents
1. Game Concepts
1.1. General
Acknowledgements
1. Game Concepts
1.1. General
1.1.1. The game is played between two players.
Acknowledgements
Alice, Bob
"""
    s = by_id(cr_pdf_text.parse(text, "x.txt", "t"))
    assert list(s) == ["t:introduction", "t:summary-of-changes", "t:1", "t:1.1", "t:1.1.1"]
    assert s["t:summary-of-changes"].text == "Added rule 1.1.1 to say a thing."
    assert s["t:introduction"].text == "This is version 9 of this document."
    assert s["t:1"].provenance.line_start == 10
    assert s["t:1.1.1"].text == "The game is played between two players."


def test_unwrap():
    lines = list(enumerate([
        "Each of the Runner’s credits represents enough money to upgrade some basic parts for their",
        "console, or buy a ticket for a night at the sensies.",
        "Each of the Corp’s credits represents enough money to manufacture a run of computer parts.",
        "and a line that merely continues.",
        "• a bullet",
        "self-",
        "referential",
    ], 1))
    assert cr_pdf_text.unwrap(lines) == [
        "Each of the Runner’s credits represents enough money to upgrade some basic parts for "
        "their console, or buy a ticket for a night at the sensies.",
        "Each of the Corp’s credits represents enough money to manufacture a run of computer "
        "parts. and a line that merely continues.",
        "• a bullet self-referential",
    ]
    assert cr_pdf_text.unwrap([(1, "One."), (2, "Two."), (3, "and three.")], short=None) == [
        "One.", "Two.", "and three."]


def test_is_title():
    assert is_title("Recurring Credits")
    assert is_title("Steps of a Run")
    assert not is_title("Recurring credits do not accumulate.")
    assert not is_title("A CREDIT ([c]) is the basic unit of currency. Players spend")
    assert not is_title("")


def test_defined_terms():
    assert defined_terms("Cards that are ACTIVE are able to affect the game.") == ("Active",)
    assert defined_terms("COUNTERS and TOKENS are game pieces.") == ("Counters", "Tokens")
    assert defined_terms("The CONTROLLER OF AN ABILITY is the player.") == ("Controller of an Ability",)
    assert defined_terms("A MEMORY UNIT (MU) is a space; 2[MU] in R&D and HQ.") == ("Memory Unit",)
    assert defined_terms("One identity, ADAM: COMPULSIVE HACKER, has the ability") == ()
    assert defined_terms("Two cards, REBIRTH and DJ FENRIS, make use of") == ()
    assert defined_terms("No capitals here, nor I.") == ()


MD_SNIPPET = """\
1 Game Concepts

1.10 Credits

- 1.10.1 A CREDIT ([c]) is the basic unit of currency.
 - a. A player GAINS credits.
 - b. If a player is instructed to LOSE credits, that player is

- forced to move credits to the bank.
 - Example 1: The Runner loses 2[c].
1.10.5 **Recurring Credits**
- a. RECURRING CREDITS ([recurring]) place credits on a card repeatedly.
"""


def test_markdown_snippet():
    secs = cr_markdown.parse(MD_SNIPPET, "x.md", "t")
    s = by_id(secs)
    assert list(s) == ["t:1", "t:1.10", "t:1.10.1", "t:1.10.1a", "t:1.10.1b",
                       "t:1.10.1b/ex1", "t:1.10.5", "t:1.10.5a"]
    assert s["t:1.10.1b"].text == ("If a player is instructed to LOSE credits, that player is "
                                   "forced to move credits to the bank.")
    assert span(s["t:1.10.1b"]) == (7, 9)
    assert s["t:1.10.1b/ex1"].title == "Example 1"
    assert s["t:1.10.5"].title == "Recurring Credits" and s["t:1.10.5"].text == ""
    assert s["t:1.10.5a"].meta_get("defines") == "Recurring Credits"
    assert s["t:1.10.1"].meta_get("defines") == "Credit"


# --- malformed structure ----------------------------------------------------

@pytest.mark.parametrize("text, line, expected", [
    # a number going backwards
    ("1. A\n1.1. B\n1.1.2. Two.\n1.1.1. One.\n", 4, "a rule numbered after 1.1.2"),
    ("1. A\n1.2. B\n1.1. C\n", 3, "a section numbered after 1.2"),
    ("2. A\n1. B\n", 2, "a chapter numbered after 2"),
    # a sub-rule letter out of sequence
    ("1. A\n1.1. B\n1.1.1. One.\na. x\nc. y\n", 5, "sub-rule 1.1.1b"),
    ("1. A\n1.1. B\n1.1.1. One.\nb. x\n", 4, "sub-rule 1.1.1a"),
    # a rule under no section, a section under the wrong chapter
    ("1. A\n1.1.1. One.\n", 2, "a section heading before the first rule"),
    ("1. A\n1.1. B\n1.2.1. One.\n", 3, "a rule of section 1.1"),
    ("1. A\n2.1. B\n", 2, "a section of chapter 1"),
    ("1. A\n1.1. B\na. x\n", 3, "a numbered rule before its lettered sub-rules"),
    ("1. A\nExample: x\n", 2, "a rule or section before an example"),
])
def test_pdf_malformed(text, line, expected):
    with pytest.raises(ParseError) as err:
        cr_pdf_text.parse(text, "bad.txt", "t")
    assert (err.value.file, err.value.line) == ("bad.txt", line)
    assert expected in err.value.expected
    assert str(err.value).startswith(f"bad.txt:{line}: expected")


@pytest.mark.parametrize("text, line, expected", [
    ("1 A\n\n1.1 B\n\n- 1.1.2 Two.\n- 1.1.1 One.\n", 6, "a rule numbered after 1.1.2"),
    ("1 A\n1.1 B\n- 1.1.1 One.\n - a. x\n - c. y\n", 5, "sub-rule 1.1.1b"),
    ("1 A\n- 1.1.1 One.\n", 2, "a section heading before the first rule"),
])
def test_markdown_malformed(text, line, expected):
    with pytest.raises(ParseError) as err:
        cr_markdown.parse(text, "bad.md", "t")
    assert (err.value.file, err.value.line) == ("bad.md", line)
    assert expected in err.value.expected


def test_contents_without_rules_is_an_error():
    with pytest.raises(ParseError) as err:
        cr_pdf_text.parse("Title\nTable of Contents\n1. Game Concepts\n1.1. General\n", "t.txt", "t")
    assert err.value.line == 3
    with pytest.raises(ParseError) as err:
        cr_markdown.parse("Title\nTable of Contents\n1.1\tGeneral\t1\n", "t.md", "t")
    assert err.value.line == 2


def test_pdf_heading_wrapped_over_two_lines():
    text = "7. Accessing Cards and\nBreaching Servers\n7.1. Accessing Cards\n7.1.1. To access.\n"
    s = by_id(cr_pdf_text.parse(text, "x.txt", "t"))
    assert s["t:7"].title == "Accessing Cards and Breaching Servers"
    assert s["t:7"].text == ""
    assert span(s["t:7"]) == (1, 2)
    assert s["t:7.1"].title == "Accessing Cards"
