"""Parser for the NISEI Comprehensive Rules as text extracted from the PDF (CR 1.6).

The extraction keeps one PDF line per text line: headings ("1. Game Concepts",
"1.16. Costs", "1.10.5. Recurring Credits"), rules ("1.16.10. An ADDITIONAL
COST ..."), lettered sub-rules ("b. A player must ...") and "Example:"
paragraphs, all wrapped at the page width, with "- 12 -" page markers between
pages. Before the rules come the title, an introduction, the summary of
changes and a table of contents whose lines repeat the body's headings.
"""
from __future__ import annotations

import re

from judgebook.ingestion.cr_common import (
    CHAPTER,
    EXAMPLE,
    EXAMPLE_LINE,
    RULE,
    SECTION,
    SUB_RULE,
    SUB_RULE_LINE,
    SUMMARY,
    TERMINAL,
    TOC,
    Block,
    Lines,
    build_sections,
    clean,
    intro_block,
    is_title,
    summary_block,
)
from judgebook.ingestion.errors import ParseError
from judgebook.model import Section

PAGE_MARKER = re.compile(r"^- \d+ -$")
_CHAPTER = re.compile(r"^(\d+)\. (\S.*)$")
_SECTION = re.compile(r"^(\d+\.\d+)\. (\S.*)$")
_RULE = re.compile(r"^(\d+\.\d+\.\d+)\. (\S.*)$")

TAIL = "Acknowledgements"

# A wrapped line is only short when the next word would not have fitted; the
# page is about 90-110 characters wide and words are far shorter than 40, so a
# line under 60 characters that ends a sentence ends its paragraph.
SHORT_LINE = 60


def parse(text: str, file: str, doc: str) -> list[Section]:
    lines = text.splitlines()
    front_end, body_start = _body_start(lines, file)
    blocks = _front_blocks(lines[:front_end]) + _body_blocks(lines, body_start, file)
    return build_sections(blocks, file, doc)


# --- where the rules begin -------------------------------------------------

def _body_start(lines: list[str], file: str) -> tuple[int, int]:
    """(end of the front matter, index of the first body line).

    The table of contents repeats the body's headings, so the body begins where
    the contents' first chapter heading appears a second time. Without a
    table of contents the body begins at the first numbered line.
    """
    stripped = [l.strip() for l in lines]
    if TOC in stripped:
        toc = stripped.index(TOC)
        first = next((i for i in range(toc + 1, len(lines)) if _CHAPTER.match(stripped[i])), None)
        if first is None:
            raise ParseError(file, toc + 1, "a chapter heading in the table of contents")
        again = next((i for i in range(first + 1, len(lines))
                      if stripped[i] == stripped[first]), None)
        if again is None:
            raise ParseError(file, first + 1, f"the rules to begin with {stripped[first]!r} "
                             "after the table of contents", stripped[first])
        return toc, again
    first = next((i for i, l in enumerate(stripped) if _heading(l)), len(lines))
    return first, first


# --- front matter ----------------------------------------------------------

def _front_blocks(front: list[str]) -> list[Block]:
    """The introduction and the summary of changes, when the text has them."""
    stripped = [l.strip() for l in front]
    if not any(stripped):
        return []
    summary_at = stripped.index(SUMMARY) if SUMMARY in stripped else len(front)
    blocks = []
    intro = [(i + 1, l) for i, l in enumerate(stripped[:summary_at]) if i > 0 and l]
    if intro:    # line 1 is the document's title, which the manifest already holds
        blocks.append(intro_block(unwrap(intro, short=None), intro[0][0], intro[-1][0]))
    if summary_at < len(front):
        items = [(i + 1, l) for i, l in enumerate(stripped) if i > summary_at
                 and l and not PAGE_MARKER.match(l)]
        paragraphs = unwrap(items, short=None)
        intro_text = ""
        # The first paragraph introduces the list ("The biggest changes from
        # version 1.5 are detailed below."); the rest are one change each.
        if len(paragraphs) > 1 and "version" in paragraphs[0]:
            intro_text, paragraphs = paragraphs[0], paragraphs[1:]
        end = items[-1][0] if items else summary_at + 1
        blocks.append(summary_block(paragraphs, intro_text, summary_at + 1, end))
    return blocks


# --- the rules -------------------------------------------------------------

def _body_blocks(lines: list[str], start: int, file: str) -> list[Block]:
    blocks: list[Block] = []
    current: Lines | None = None
    for i in range(start, len(lines)):
        line, number = lines[i].strip(), i + 1
        if PAGE_MARKER.match(line):
            continue
        if line == TAIL:
            break
        head = _heading(line, _next_content(lines, i + 1))
        if head:
            if current:
                blocks.append(_close(current))
            kind, label, title, first = head
            current = Lines(kind, label, title, number, line)
            if first:
                current.add(number, first)
        elif current is None:
            raise ParseError(file, number, "a chapter, section or rule heading", line)
        elif _continues_title(current, line):
            current.title = f"{current.title} {line}"
            current.heading_end = number
        else:
            current.add(number, line)
    if current:
        blocks.append(_close(current))
    return blocks


def _continues_title(block: Lines, line: str) -> bool:
    """Whether `line` is the rest of a chapter or section title the page wrapped.

    ("7. Accessing Cards and" / "Breaching Servers"). An introduction under a
    heading is prose, never a short capitalised phrase without a full stop.
    """
    return block.kind in (CHAPTER, SECTION) and not block.lines and is_title(line)


def _next_content(lines: list[str], i: int) -> str:
    for line in lines[i:]:
        line = line.strip()
        if line and not PAGE_MARKER.match(line):
            return line
    return ""


def _heading(line: str, following: str = "") -> tuple[str, str, str, str] | None:
    """(kind, label, title, text on the heading line) if `line` opens a block."""
    if m := _RULE.match(line):
        rest = m.group(2)
        # "1.10.5. Recurring Credits": a titled rule, its body in sub-rules.
        if is_title(rest) and SUB_RULE_LINE.match(following):
            return RULE, m.group(1), rest, ""
        return RULE, m.group(1), "", rest
    if m := _SECTION.match(line):
        return SECTION, m.group(1), m.group(2), ""
    if m := _CHAPTER.match(line):
        return CHAPTER, m.group(1), m.group(2), ""
    if m := SUB_RULE_LINE.match(line):
        return SUB_RULE, m.group(1), "", m.group(2)
    if m := EXAMPLE_LINE.match(line):
        return EXAMPLE, "", m.group(1), m.group(2)
    return None


def _close(block: Lines) -> Block:
    return Block(block.kind, block.label, block.title, tuple(unwrap(block.lines)),
                 block.line_start, block.line_end, heading=block.heading)


# --- undoing the PDF's line wrapping ---------------------------------------

def unwrap(lines: list[tuple[int, str]], short: int | None = SHORT_LINE) -> list[str]:
    """Join wrapped lines into paragraphs.

    A line ending a sentence ends its paragraph when it is short (the page
    had room for more), or always when `short` is None (lists where every
    entry is a sentence, like the summary of changes). A blank line or a
    bullet always starts a new paragraph.
    """
    paragraphs: list[str] = []
    current, previous = "", ""
    for _, line in lines:
        line = line.strip()
        if not line:
            current = _flush(paragraphs, current)
            continue
        if current and (_is_bullet(line) or _ends_paragraph(previous, short)):
            current = _flush(paragraphs, current)
        current = _join(current, line) if current else line
        previous = line
    _flush(paragraphs, current)
    return [clean(p) for p in paragraphs]


def _ends_paragraph(line: str, short: int | None) -> bool:
    return bool(TERMINAL.search(line)) and (short is None or len(line) < short)


def _is_bullet(line: str) -> bool:
    return line[:2] in ("• ", "◦ ", "▪ ")


def _join(text: str, line: str) -> str:
    # Compound words break after their hyphen or dash: keep it, add no space.
    if text.endswith(("-", "—")) and len(text) > 1 and text[-2].isalpha():
        return text + line
    return f"{text} {line}"


def _flush(paragraphs: list[str], current: str) -> str:
    if current:
        paragraphs.append(current)
    return ""
