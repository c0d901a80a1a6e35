"""Parser for the NISEI Comprehensive Rules in their markdown-ish form (CR 1.4).

One paragraph per line: headings without a trailing dot ("1 Game Concepts",
"1.10 Credits", "1.10.5 **Recurring Credits**"), rules as bullets
("- 1.10.1 A CREDIT ..."), sub-rules as indented bullets (" - a. ..."),
examples as paragraphs or bullets ("Example 2: ..."). The conversion left
slips that are read as what they are: a rule or sub-rule without its bullet,
a paragraph split in two with the second half bulleted ("- purpose (other
than ...)"), and a table of contents mangled by OCR.
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

_BULLET = re.compile(r"^\s*-\s+")
_CHAPTER = re.compile(r"^(\d+) (\S.*)$")
_SECTION = re.compile(r"^(\d+\.\d+) (\S.*)$")
_RULE = re.compile(r"^(\d+\.\d+\.\d+) (\S.*)$")
_TITLED = re.compile(r"^\*\*(.+)\*\*$")



def parse(text: str, file: str, doc: str) -> list[Section]:
    lines = text.splitlines()
    front_end, body_start = _body_start(lines, file)
    blocks = _front_blocks(lines[:front_end]) + _body_blocks(lines, body_start, file)
    return build_sections(blocks, file, doc)


def _body_start(lines: list[str], file: str) -> tuple[int, int]:
    """(end of the front matter, index of the first body line).

    The table of contents is OCR debris whose entries hold tabs ("1.1\\tGeneral\\t1"),
    so the rules begin at the first chapter heading after it.
    """
    stripped = [l.strip() for l in lines]
    if TOC in stripped:
        toc = stripped.index(TOC)
        first = next((i for i in range(toc + 1, len(lines)) if _is_chapter(lines[i])), None)
        if first is None:
            raise ParseError(file, toc + 1, "a chapter heading such as '1 Game Concepts' "
                             "after the table of contents")
        return toc, first
    first = next((i for i, l in enumerate(lines) if _heading(l)), len(lines))
    return first, first


def _is_chapter(line: str) -> bool:
    m = _CHAPTER.match(line)
    return m is not None and "\t" not in line and is_title(m.group(2))


# --- front matter ----------------------------------------------------------

def _front_blocks(front: list[str]) -> list[Block]:
    """The introduction and the summary of changes, when the text has them."""
    stripped = [_unmark(l) for l in front]
    if not any(stripped):
        return []
    summary_at = stripped.index(SUMMARY) if SUMMARY in stripped else len(front)
    blocks = []
    intro = [(i + 1, l) for i, l in enumerate(stripped[:summary_at]) if i > 0 and l]
    if intro:    # line 1 is the document's title, which the manifest already holds
        blocks.append(intro_block([clean(l) for _, l in intro], intro[0][0], intro[-1][0]))
    if summary_at < len(front):
        items = [(i + 1, l) for i, l in enumerate(stripped) if i > summary_at and l]
        # Changes are bullets; a paragraph before them introduces the list.
        intro_lines = [l for i, l in items if not _BULLET.match(front[i - 1])]
        changes = [clean(_BULLET.sub("", front[i - 1])) for i, _ in items
                   if _BULLET.match(front[i - 1])]
        end = items[-1][0] if items else summary_at + 1
        blocks.append(summary_block(changes, " ".join(clean(l) for l in intro_lines),
                                    summary_at + 1, end))
    return blocks


def _unmark(line: str) -> str:
    """A line without markdown emphasis."""
    return line.replace("**", "").strip()


# --- the rules -------------------------------------------------------------

def _body_blocks(lines: list[str], start: int, file: str) -> list[Block]:
    blocks: list[Block] = []
    current: Lines | None = None
    for i in range(start, len(lines)):
        line, number = lines[i], i + 1
        if not line.strip():
            continue
        head = _heading(line)
        if head:
            if current:
                blocks.append(_close(current))
            kind, label, title, first = head
            current = Lines(kind, label, title, number, line.strip())
            if first:
                current.add(number, first)
        elif current is None:
            raise ParseError(file, number, "a chapter, section or rule heading", line.strip())
        else:
            current.add(number, line)
    if current:
        blocks.append(_close(current))
    return blocks


def _heading(line: str) -> tuple[str, str, str, str] | None:
    """(kind, label, title, text on the heading line) if `line` opens a block."""
    bulleted = bool(_BULLET.match(line))
    text = _BULLET.sub("", line).strip()
    if m := _RULE.match(text):
        if t := _TITLED.match(m.group(2)):
            return RULE, m.group(1), t.group(1).strip(), ""
        return RULE, m.group(1), "", m.group(2)
    if m := SUB_RULE_LINE.match(text):
        return SUB_RULE, m.group(1), "", m.group(2)
    if m := EXAMPLE_LINE.match(text):
        return EXAMPLE, "", m.group(1), m.group(2)
    if bulleted:
        return None
    if (m := _SECTION.match(text)) and is_title(m.group(2)):
        return SECTION, m.group(1), m.group(2), ""
    if (m := _CHAPTER.match(text)) and is_title(m.group(2)):
        return CHAPTER, m.group(1), m.group(2), ""
    return None


def _close(block: Lines) -> Block:
    return Block(block.kind, block.label, block.title, tuple(paragraphs(block.lines)),
                 block.line_start, block.line_end, heading=block.heading)


def paragraphs(lines: list[tuple[int, str]]) -> list[str]:
    """One paragraph per line, except a bulleted line starting in lower case.

    Such a line is the second half of a paragraph the conversion split
    ("... for any" / "- purpose (other than losing credits) ...").
    """
    out: list[str] = []
    for _, line in lines:
        text = _BULLET.sub("", line).strip()
        if not text:
            continue
        if out and _BULLET.match(line) and text[0].islower():
            out[-1] = f"{out[-1]} {text}"
        else:
            out.append(text)
    return [clean(p) for p in out]
