"""The Official Netrunner Standard Floor Rules (1998) -> `onr-floor-rules`.

CAPITALISED headings (INTRODUCTION, "A. NECESSARY TOURNAMENT MATERIALS",
APPENDIX I ...) are `section`s; numbered rules ("1.3.6.1 Taking Notes",
"1.0.1 Judges, ... may not play ...") are `floor-rule`s with their number.
"a.0" rules head their chapter: "a.b" sits under "a.0", "a.b.c" under "a.b".
The source numbers two rules 1.3.13 (Electronic Devices, Lengthy Rulings): the
second keeps number 1.3.13 and gets id `...:1.3.13-2` with meta "duplicate_number".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from judgebook.ingestion.blocks import Block, IdAllocator, paragraphs
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.onr_text import block_text, clean, is_caps_heading, join_broken
from judgebook.model import Provenance, Section
from judgebook.text import slug

DOC = "onr-floor-rules"
NUMBERED = re.compile(r"^(\d+\.\d+(?:\.\d+)*)\s+(.+)$", re.S)


@dataclass
class Part:
    number: str
    title: str
    line: int
    blocks: list[Block] = field(default_factory=list)
    lead: str = ""               # text on the number's own line when it is a sentence


def parse_floor(lines: list[str], first_line: int, file: str) -> list[Section]:
    blocks = join_broken(paragraphs(lines, first_line))
    if not blocks or not is_caps_heading(blocks[0].lines[0]):
        raise ParseError(file, first_line, "the title 'OFFICIAL NETRUNNER STANDARD FLOOR RULES'")
    parts = _parts(blocks)
    return _sections(parts, file)


def _parts(blocks: list[Block]) -> list[Part]:
    first = blocks[0]
    parts = [Part("", " ".join(ln.strip() for ln in first.lines), first.start)]
    for b in blocks[1:]:
        t = block_text(b)
        m = NUMBERED.match(t)
        if m:
            rest = m.group(2).strip()
            if _is_title(rest):
                parts.append(Part(m.group(1), rest, b.start))
            else:
                parts.append(Part(m.group(1), "", b.start, lead=rest))
        elif len(b.lines) == 1 and is_caps_heading(t):
            parts.append(Part("", t, b.start))
        else:
            parts[-1].blocks.append(b)
    return parts


def _is_title(rest: str) -> bool:
    return len(rest) < 70 and not rest.rstrip().endswith(".") and "\n" not in rest


def _parent_number(number: str) -> str:
    bits = number.split(".")
    if len(bits) == 2:
        return "" if bits[1] == "0" else f"{bits[0]}.0"
    return ".".join(bits[:-1])


def _sections(parts: list[Part], file: str) -> list[Section]:
    ids = IdAllocator()
    by_number: dict[str, str] = {}
    last_heading = ""
    out: list[Section] = []
    for p in parts:
        base = p.number or slug(p.title)
        sid = f"{DOC}:{ids.unique(base)}"
        meta = (("duplicate_number", p.number),) if p.number and p.number in by_number else ()
        if p.number:
            parent = by_number.get(_parent_number(p.number), last_heading)
            by_number.setdefault(p.number, sid)
        else:
            parent = ""
            last_heading = sid
        texts = ([clean(p.lead)] if p.lead else []) + [clean(block_text(b)) for b in p.blocks]
        end = max([p.line] + [b.end for b in p.blocks])
        out.append(Section(id=sid, doc=DOC, number=p.number, title=p.title,
                           kind="floor-rule" if p.number else "section",
                           text="\n\n".join(t for t in texts if t),
                           provenance=Provenance(file, p.line, end), parent=parent, meta=meta))
    kids: dict[str, list[str]] = {}
    for s in out:
        if s.parent:
            kids.setdefault(s.parent, []).append(s.id)
    return [replace(s, children=tuple(kids.get(s.id, []))) for s in out]
