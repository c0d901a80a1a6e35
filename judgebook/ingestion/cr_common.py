"""What the two NISEI Comprehensive Rules text parsers share.

Each format parser (PDF text for CR 1.6, markdown for CR 1.4) only finds the
blocks of its source: headings, rules, lettered sub-rules, examples and the
front matter, with their line ranges. Turning blocks into `Section`s is the
same for both and lives here: checking that the numbering is well formed
(numbers only go forward, letters come in sequence, every rule sits in a
section), deriving ids, filling parent/children/examples and spotting the
terms a rule defines.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from judgebook import symbols
from judgebook.ingestion.errors import ParseError
from judgebook.model import Provenance, Section

# Block kinds a format parser produces; "front" is unnumbered front matter
# (introduction, summary of changes) and becomes a section with a slug id.
CHAPTER, SECTION, RULE, SUB_RULE, EXAMPLE, FRONT = (
    "chapter", "section", "rule", "sub-rule", "example", "front")


@dataclass(frozen=True)
class Block:
    """One structural unit found by a format parser, before validation."""
    kind: str                 # one of the block kinds above
    label: str                # "1", "1.16", "1.16.10", "b" (a sub-rule's letter), "" otherwise
    title: str                # heading title; "Example 2" for a numbered example
    paragraphs: tuple[str, ...]
    line_start: int           # 1-based, inclusive
    line_end: int
    heading: str = ""         # the source line that opened the block, for error messages
    slug: str = ""            # id suffix of a front block
    meta: tuple[tuple[str, str], ...] = ()


# Shared by both CR formats: the front matter's headings and the lines that open
# a sub-rule ("b. ...") or an example ("Example 2: ...") read the same in each.
SUMMARY = "Summary of Changes"
TOC = "Table of Contents"
SUB_RULE_LINE = re.compile(r"^([a-z])\. (\S.*)$")
EXAMPLE_LINE = re.compile(r"^(Example(?: \d+)?):\s*(.*)$")


def intro_block(paragraphs: list[str], first: int, last: int) -> Block:
    return Block(FRONT, "", "Introduction", tuple(paragraphs), first, last, slug="introduction")


def summary_block(changes: list[str], intro: str, first: int, last: int) -> Block:
    """The summary of changes: one change per paragraph, its opening sentence as meta."""
    meta = (("intro", intro),) if intro else ()
    return Block(FRONT, "", SUMMARY, tuple(changes), first, last,
                 heading=SUMMARY, slug="summary-of-changes", meta=meta)


@dataclass
class Lines:
    """A block being read: its opening line and the source lines that follow it.

    Mutable on purpose and private to a parse: the format parser appends lines
    and turns it into a frozen `Block` once the next heading starts.
    """
    kind: str
    label: str
    title: str
    line_start: int
    heading: str
    slug: str = ""
    lines: list[tuple[int, str]] = field(default_factory=list)   # (line number, text)
    heading_end: int = 0      # last line of a heading wrapped over several lines

    def add(self, number: int, text: str) -> None:
        self.lines.append((number, text))

    @property
    def line_end(self) -> int:
        filled = [n for n, text in self.lines if text.strip()]
        return max(filled[-1] if filled else self.line_start, self.heading_end)


def clean(text: str) -> str:
    """Normalise symbols and collapse runs of spaces (PDF and markdown leave doubles)."""
    return re.sub(r"[ \t]+", " ", symbols.normalise(text)).strip()


# --- headings --------------------------------------------------------------

TERMINAL = re.compile(r"[.!?:][”’\"')]*$")     # a line that ends a sentence
_TITLE_SMALL_WORDS = {"a", "an", "and", "the", "of", "or", "to", "in", "for", "on", "with"}


def is_title(text: str) -> bool:
    """A short capitalised phrase without closing punctuation: a heading, not a sentence."""
    words = text.split()
    return (0 < len(words) <= 6 and not TERMINAL.search(text) and not text.endswith(",")
            and all(w[0].isupper() or w in _TITLE_SMALL_WORDS for w in words))


# --- defined terms ---------------------------------------------------------

# The NISEI CRs print a term in capitals where a rule defines it: "Cards that
# are ACTIVE", "A CREDIT ([c]) is", "the CONTROLLER OF AN OBJECT". A run of
# capitalised words (each at least two capitals) is such a term, except for the
# few words the documents always write in capitals (acronyms, the game's
# trademark, one card name). CR 1.4 also writes card names in capitals, always
# as an appositive after a comma or around a colon ("One Corp identity,
# JINTEKI BIOTECH: LIFE IMAGINED,", "Two cards, REBIRTH and DJ FENRIS,"), so a
# run right after ", " or ": " or right before ":" is not a definition.
_CAPS_WORD = r"[A-Z][A-Z’'\-]*[A-Z]"
_CAPS_RUN = re.compile(
    rf"(?<![\w\[])({_CAPS_WORD}(?:\s+(?:(?:OF|AN|A|THE|and|or)\s+)?{_CAPS_WORD})*)(?![\w\]])")
_NOT_TERMS = {"R&D", "HQ", "MU", "NBN", "NEXT", "ANDROID", "NETRUNNER", "AP", "AI", "DJ", "LLDS"}
_SMALL = {"of", "an", "a", "the", "and", "or"}


def defined_terms(text: str) -> tuple[str, ...]:
    """The terms a rule's text defines, title-cased, in order of first appearance."""
    terms: list[str] = []
    for m in _CAPS_RUN.finditer(text):
        before, after = text[:m.start()], text[m.end():]
        if before.endswith((", ", ": ")) or after.startswith(":"):
            continue
        for part in re.split(r"\s+(?:and|or)\s+", m.group(1)):
            if part in _NOT_TERMS or sum(c.isalpha() for c in part) < 3:
                continue
            term = _title_case(part)
            if term not in terms:
                terms.append(term)
    return tuple(terms)


def _title_case(caps: str) -> str:
    words = caps.split()
    return " ".join(w.lower() if i and w.lower() in _SMALL else w.capitalize()
                    for i, w in enumerate(words))


# --- blocks to sections ----------------------------------------------------

@dataclass
class _Cursor:
    """Where in the numbering tree the walk is; only used inside `build_sections`."""
    chapter: int = 0
    section: tuple[int, int] | None = None
    last_section: int = 0
    rule: str = ""
    last_rule: int = 0
    letter: str = ""
    last_numbered: str = ""          # id of the latest section/rule/sub-rule
    chapter_id: str = ""
    section_id: str = ""
    rule_id: str = ""


def build_sections(blocks: list[Block], file: str, doc: str) -> list[Section]:
    """Validate the numbering of `blocks` and turn them into linked sections."""
    cur = _Cursor()
    records: list[tuple[str, str, str, Block]] = []    # (id, parent, number, block)
    children: dict[str, list[str]] = {}
    examples: dict[str, list[str]] = {}
    for block in blocks:
        sid, parent, number = _place(block, cur, file, doc, examples)
        if parent:
            children.setdefault(parent, []).append(sid)
        if block.kind == EXAMPLE:
            examples.setdefault(parent, []).append(sid)
        records.append((sid, parent, number, block))
    return [_section(sid, parent, number, block, order, file, doc,
                     tuple(children.get(sid, ())), tuple(examples.get(sid, ())))
            for order, (sid, parent, number, block) in enumerate(records)]


def _place(block: Block, cur: _Cursor, file: str, doc: str,
           examples: dict[str, list[str]]) -> tuple[str, str, str]:
    """Check `block` against the cursor, advance it; return (id, parent id, number)."""
    def fail(expected: str) -> ParseError:
        return ParseError(file, block.line_start, expected, block.heading)

    if block.kind == FRONT:
        return f"{doc}:{block.slug}", "", ""
    if block.kind == CHAPTER:
        n = int(block.label)
        if n <= cur.chapter:
            raise fail(f"a chapter numbered after {cur.chapter}")
        cur.chapter, cur.section, cur.last_section = n, None, 0
        cur.rule, cur.rule_id, cur.section_id, cur.letter = "", "", "", ""
        cur.chapter_id = cur.last_numbered = f"{doc}:{n}"
        return cur.chapter_id, "", block.label
    if block.kind == SECTION:
        c, s = (int(x) for x in block.label.split("."))
        if not cur.chapter_id or c != cur.chapter:
            raise fail(f"a section of chapter {cur.chapter}" if cur.chapter_id
                       else "a chapter heading before the first section")
        if s <= cur.last_section:
            raise fail(f"a section numbered after {cur.chapter}.{cur.last_section}")
        cur.section, cur.last_section, cur.last_rule = (c, s), s, 0
        cur.rule, cur.rule_id, cur.letter = "", "", ""
        cur.section_id = cur.last_numbered = f"{doc}:{block.label}"
        return cur.section_id, cur.chapter_id, block.label
    if block.kind == RULE:
        c, s, r = (int(x) for x in block.label.split("."))
        if cur.section is None:
            raise fail("a section heading before the first rule")
        if (c, s) != cur.section:
            raise fail(f"a rule of section {cur.section[0]}.{cur.section[1]}")
        if r <= cur.last_rule:
            raise fail(f"a rule numbered after {c}.{s}.{cur.last_rule}")
        cur.last_rule, cur.rule, cur.letter = r, block.label, ""
        cur.rule_id = cur.last_numbered = f"{doc}:{block.label}"
        return cur.rule_id, cur.section_id, block.label
    if block.kind == SUB_RULE:
        if not cur.rule_id:
            raise fail("a numbered rule before its lettered sub-rules")
        want = chr(ord(cur.letter) + 1) if cur.letter else "a"
        if block.label != want:
            raise fail(f"sub-rule {cur.rule}{want} (letters in sequence)")
        cur.letter = block.label
        number = f"{cur.rule}{block.label}"
        cur.last_numbered = f"{doc}:{number}"
        return cur.last_numbered, cur.rule_id, number
    if block.kind == EXAMPLE:
        # An example illustrates what it follows: the latest sub-rule, rule or
        # section (the text formats do not mark it otherwise).
        parent = cur.last_numbered
        if not parent or parent == cur.chapter_id:
            raise fail("a rule or section before an example")
        n = len(examples.get(parent, ())) + 1
        return f"{parent}/ex{n}", parent, ""
    raise ValueError(f"unknown block kind {block.kind!r}")


def _section(sid: str, parent: str, number: str, block: Block, order: int, file: str,
             doc: str, children: tuple[str, ...], examples: tuple[str, ...]) -> Section:
    text = "\n\n".join(block.paragraphs) if block.kind != FRONT else "\n".join(block.paragraphs)
    kind = "section" if block.kind == FRONT else block.kind
    meta = block.meta
    if block.kind in (SECTION, RULE, SUB_RULE):
        terms = defined_terms(text)
        if terms:
            meta += (("defines", "|".join(terms)),)
    return Section(
        id=sid, doc=doc, number=number, title=block.title, kind=kind, text=text,
        provenance=Provenance(file=file, line_start=block.line_start, line_end=block.line_end),
        parent=parent, children=children, examples=examples, order=order, meta=meta)
