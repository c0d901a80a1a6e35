"""The 1996 rulebook part -> `onr-rulebook`: prose sections, glossary, index.

- Prose: one section (kind `section`) per CAPITALISED heading with all its
  text, and a child `section` (meta level=subheading, id `{section}/{slug}`)
  per mixed-case sub-heading ("Start Of Game", "Priority", "Turn 1:") with
  the text under it, so a search can land on "Priority" inside COMBINED RULES.
- "CORP AND RUNNER GLOSSARY": a section whose children are the entries
  ("Term: definition." paragraphs, kind `glossary-entry`). "Rez cost:" is
  fused inside the "Rez" paragraph; it is split out because its heading
  extends the entry's own ("Rez" -> "Rez cost"). The glossary has "Stack"
  twice (the second a typo, "Four draw pile."): both are kept, the second as
  `stack-2`, since dropping source text is worse than showing a slip.
- "INDEX": one section; each entry line is a line of its text and its page
  numbers and "See X" pointers are `index` links (page numbers cannot resolve:
  this text has no page breaks).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from judgebook.ingestion.blocks import Block, IdAllocator, paragraphs
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.onr_text import block_text, clean, is_caps_heading, join_broken
from judgebook.model import LINK_INDEX, Link, Provenance, Section
from judgebook.text import fold, slug

DOC = "onr-rulebook"
GLOSSARY = "CORP AND RUNNER GLOSSARY"
INDEX = "INDEX"
_ENTRY = re.compile(r"^([A-Z][A-Za-z&' ,-]{0,30}?):\s+(.*)$", re.S)


@dataclass(frozen=True)
class IndexEntry:
    label: str              # "AGENDAS" or "AGENDAS, Scoring" for a sub-entry
    pages: tuple[str, ...]
    see: tuple[tuple[str, str], ...]     # ("See also", "ICE")
    line: int


def parse_rulebook(lines: list[str], file: str, ids: IdAllocator) -> list[Section]:
    """`lines` is the whole file; the rulebook runs from line 1 to the rulings' title."""
    heads = []
    for i, ln in enumerate(lines):
        if is_caps_heading(ln) and _standalone(lines, i):
            heads.append(i)
            if ln.strip() == INDEX:     # index entries ("ACCESS, 18") are capitals too
                break
    if not heads:
        raise ParseError(file, 1, "a CAPITALISED rulebook heading such as 'OBJECTIVE'")
    out: list[Section] = []
    for k, i in enumerate(heads):
        stop = heads[k + 1] if k + 1 < len(heads) else len(lines)
        title = lines[i].strip()
        sid = f"{DOC}:{ids.unique(slug(title))}"
        body = paragraphs(lines[i + 1:stop], i + 2)
        if title == GLOSSARY:
            out.extend(_glossary(title, sid, i + 1, body, file, ids))
        elif title == INDEX:
            out.append(_index(title, sid, i + 1, lines[i + 1:stop], file))
        else:
            out.extend(_prose(title, sid, i + 1, body, file))
    return out


def _standalone(lines: list[str], i: int) -> bool:
    """Headings stand alone between blank lines; index letter lines ("A") are too short anyway."""
    before = i == 0 or not lines[i - 1].strip()
    after = i + 1 >= len(lines) or not lines[i + 1].strip()
    return before and after


def _prose(title: str, sid: str, line: int, body: list[Block], file: str) -> list[Section]:
    """The section with all its text, and a child per mixed-case sub-heading ("Priority")."""
    blocks = join_broken(body)
    text = "\n\n".join(t for t in (clean(block_text(b)) for b in blocks) if t)
    end = blocks[-1].end if blocks else line
    kids = _subsections(blocks, sid, file)
    head = Section(id=sid, doc=DOC, number="", title=title, kind="section", text=text,
                   provenance=Provenance(file, line, end), children=tuple(k.id for k in kids))
    return [head] + kids


def _subsections(blocks: list[Block], sid: str, file: str) -> list[Section]:
    local = IdAllocator()
    groups: list[tuple[Block, list[Block]]] = []
    for b in blocks:
        if _is_subheading(b):
            groups.append((b, []))
        elif groups:
            groups[-1][1].append(b)
    out = []
    for head, under in groups:
        name = clean(head.lines[0].strip().strip("~"))
        end = under[-1].end if under else head.end
        out.append(Section(
            id=f"{sid}/{local.unique(slug(name))}", doc=DOC, number="", title=name, kind="section",
            text="\n\n".join(t for t in (clean(block_text(b)) for b in under) if t),
            provenance=Provenance(file, head.start, end), parent=sid, meta=(("level", "subheading"),)))
    return out


def _is_subheading(b: Block) -> bool:
    """A one-line title-case paragraph: "Start Of Game", "Run Protocol - OVERVIEW", "Turn 1:"."""
    if len(b.lines) != 1:
        return False
    s = b.lines[0].strip().strip("~")
    if re.fullmatch(r"Turn \d+:", s):
        return True
    if len(s) >= 50 or s.endswith((".", "!", "?", '"', ":")) or not s[:1].isupper():
        return False
    return all(w[:1].isupper() for w in s.split() if len(w) > 3)


# ---------------------------------------------------------------- glossary

def _glossary(title, sid, line, body, file, ids) -> list[Section]:
    entries: list[tuple[str, str, Block]] = []
    for b in join_broken(body):
        text = block_text(b)
        m = _ENTRY.match(text)
        if not m:
            if not entries:
                raise ParseError(file, b.start, "a glossary entry 'Term: definition'", text)
            t, d, first = entries[-1]
            entries[-1] = (t, d + "\n\n" + text, Block(first.lines + b.lines, first.start, b.end))
            continue
        entries.extend(_split_fused(m.group(1).strip(), m.group(2).strip(), b))
    children = []
    for term, definition, b in entries:
        children.append(Section(
            id=f"{DOC}:{ids.unique(slug(term))}", doc=DOC, number="", title=term,
            kind="glossary-entry", text=clean(definition), parent=sid,
            provenance=Provenance(file, b.start, b.end)))
    end = body[-1].end if body else line
    head = Section(id=sid, doc=DOC, number="", title=title, kind="section", text="",
                   provenance=Provenance(file, line, end), children=tuple(c.id for c in children))
    return [head] + children


def _split_fused(term: str, definition: str, b: Block) -> list[tuple[str, str, Block]]:
    """"Rez: ... reveal it. Rez cost: The cost ..." -> two entries (the second extends the first's name)."""
    m = re.search(r"(?<=[.!?] )(" + re.escape(term) + r" [a-z]+): ", definition)
    if not m:
        return [(term, definition, b)]
    return [(term, definition[:m.start()].strip(), b), (m.group(1), definition[m.end():].strip(), b)]


# ---------------------------------------------------------------- index

def parse_index_lines(lines: list[str], first_line: int) -> list[IndexEntry]:
    entries: list[IndexEntry] = []
    letter, main = "", ""
    for n, raw in enumerate(lines, first_line):
        s = raw.strip()
        if not s:
            continue
        if re.fullmatch(r"[A-Z]", s):
            letter = s
            continue
        label = re.split(r",?\s*\[\d+\]\(#\)|[.,]?\s+See\b", s)[0].strip().rstrip(",.")
        pages = tuple(re.findall(r"\[(\d+)\]\(#\)", s))
        see = tuple((w, x.strip()) for w, x in re.findall(r"(See(?: also)?) ([A-Z][A-Z &]*[A-Z])", s))
        # a sub-entry is in mixed case, or out of its letter's alphabetical run ("MU" under P)
        is_sub = bool(main) and (not label.isupper() or not label.startswith(letter))
        if not is_sub:
            main = label
        entries.append(IndexEntry(f"{main}, {label}" if is_sub else label, pages, see, n))
    return entries


def _index(title: str, sid: str, line: int, body: list[str], file: str) -> Section:
    entries = parse_index_lines(body, line + 1)
    text_lines, links = [], []
    for e in entries:
        refs = [*e.pages, *(f"{w} {x}" for w, x in e.see)]
        text_lines.append(e.label + (", " + ", ".join(refs) if refs else ""))
        links += [Link(kind=LINK_INDEX, ref=f"page {p}", text=e.label,
                       reason="the printed page numbers are not in this text") for p in e.pages]
        links += [Link(kind=LINK_INDEX, ref=x, text=e.label) for _, x in e.see]
    end = entries[-1].line if entries else line
    return Section(id=sid, doc=DOC, number="", title=title, kind="section",
                   text="\n".join(text_lines), provenance=Provenance(file, line, end),
                   links=tuple(links), meta=(("index_entries", str(len(entries))),))


def resolve_index_links(sections: list[Section]) -> list[Section]:
    """Point "See ICE" at the rulebook section or glossary entry of that name, when there is one."""
    titles = {fold(s.title): s.id for s in sections}

    def find(name: str) -> str:
        k = fold(name)
        return titles.get(k) or titles.get(k.rstrip("s")) or ""

    out = []
    for s in sections:
        if s.title != INDEX:
            out.append(s)
            continue
        links = tuple(l if l.ref.startswith("page ") else
                      replace(l, target=find(l.ref), reason="" if find(l.ref) else
                              f"no heading or glossary entry named {l.ref!r}")
                      for l in s.links)
        out.append(replace(s, links=links))
    return out
