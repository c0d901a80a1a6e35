"""Parser for the FFG Core Rule Book wiki pages -> `ffg-core-rulebook` sections.

The file is 20 wiki pages pasted one after another. Each page repeats a
navigation block ("< Previous - Top - Next >" and the 20-item table); the
table itself tells us the page titles and their order, which matters because
one page ("Paid Abilities") lost its heading line.

Shape of the output, per page:
- the page: kind `page`, id `ffg-core-rulebook:{slug}`, all its text;
- each sub-heading ("Credit Pool", "1. Draw Phase"): kind `page`, id
  `{page}/{slug}`, a child of the page, with the text under it;
- each cited paragraph (the text up to a `Core Rule Book|Page N, ...` line):
  kind `page`, id `{page}/p{n}` (n counts through the page), a child of its
  sub-heading or page, carrying its own citation in provenance.citation
  (text cited by two lines, spanning two columns, gets both: "A; B").
A page's or sub-heading's citation is the span "first – last".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from judgebook import symbols
from judgebook.ingestion.blocks import IdAllocator
from judgebook.ingestion.errors import ParseError
from judgebook.model import LINK_MAIN, Link, Provenance, Section
from judgebook.text import slug

_NAV_ROW = re.compile(r"^1?\d \S.* \d{1,2} \S")
_NAV_LINK = re.compile(r"^<? ?Previous - Top( - Next >)?$|^Top - Next >$")
_CITATION = re.compile(r"^Core Rule Book\|(.+)$")
_MAIN = re.compile(r"^Main article:\s*(.+)$")
_FOOTER = "Ad blocker interference detected!"
_CHROME = {"FANDOM", "Top"}
_LIST_LINE = re.compile(r"^\s*(•|\d+\.\s)")
PAGES = 20


@dataclass
class Unit:
    """A cited paragraph group: text lines up to a citation line."""
    lines: list[tuple[int, str]] = field(default_factory=list)
    citation: str = ""
    end: int = 0


@dataclass
class Heading:
    title: str
    line: int
    units: list[Unit] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)


@dataclass
class Page:
    title: str
    line: int                       # heading line, or the nav block when the heading is missing
    heading_found: bool
    intro: Heading                  # text before the first sub-heading
    subs: list[Heading] = field(default_factory=list)


# ---------------------------------------------------------------- public

def parse(text: str, file: str, doc: str = "ffg-core-rulebook") -> list[Section]:
    lines = text.split("\n")
    titles, nav_rows = _nav_titles(lines, file)
    end = next((i for i, ln in enumerate(lines) if ln.strip() == _FOOTER), len(lines))
    markers = _nav_blocks(lines[:end], nav_rows)
    if len(markers) != PAGES:
        raise ParseError(file, markers[-1][0] + 1 if markers else 1,
                         f"{PAGES} navigation blocks (one per page)", f"{len(markers)} found")
    pages = _pages(lines, end, markers, titles)
    return _sections(pages, file, doc)


# ---------------------------------------------------------------- navigation

def _nav_titles(lines: list[str], file: str) -> tuple[list[str], set[str]]:
    """The 20 titles of the navigation table, in page order, and its row lines."""
    first = next((i for i, ln in enumerate(lines) if ln.startswith("1 ") and _NAV_ROW.match(ln)), None)
    if first is None:
        raise ParseError(file, 1, "the wiki's navigation table (\"1 Object of the Game 6 ...\")")
    rows = lines[first:first + 5]
    numbered: dict[int, str] = {}
    for row in rows:
        parts = re.split(r"(?:^|\s)(\d{1,2}) (?=[A-Z])", row)
        for num, title in zip(parts[1::2], parts[2::2], strict=True):
            numbered[int(num)] = title.strip()
    if sorted(numbered) != list(range(1, PAGES + 1)):
        raise ParseError(file, first + 1, f"navigation items numbered 1..{PAGES}",
                         ", ".join(map(str, sorted(numbered))))
    return [numbered[k] for k in range(1, PAGES + 1)], {r.strip() for r in rows}


def _nav_blocks(lines: list[str], rows: set[str]) -> list[tuple[int, int]]:
    """(first, last) line index of each navigation block: link line(s) + table."""
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].strip() in rows:
            j = i
            while j < len(lines) and lines[j].strip() in rows:
                j += 1
            k = i
            while k > 0 and (_is_chrome(lines[k - 1])):
                k -= 1
            blocks.append((k, j - 1))
            i = j
        else:
            i += 1
    return blocks


def _is_chrome(line: str) -> bool:
    s = line.strip()
    return s in _CHROME or bool(_NAV_LINK.match(s))


# ---------------------------------------------------------------- pages

def _pages(lines, end, markers, titles) -> list[Page]:
    pages: list[Page] = []
    for k, (first, last) in enumerate(markers):
        title = titles[k]
        before = _last_text_line(lines, first)
        stop = markers[k + 1][0] if k + 1 < len(markers) else end
        nxt_heading = _last_text_line(lines, stop) if k + 1 < len(markers) else None
        if nxt_heading is not None and lines[nxt_heading].strip() == titles[k + 1]:
            stop = nxt_heading
        body_start = last + 1
        found = before is not None and lines[before].strip() == title
        line = before + 1 if before is not None and found else first + 1
        if not found:                       # page 1: the heading follows the table
            after = _first_text_line(lines, body_start, stop)
            if after is not None and lines[after].strip() == title:
                found, line, body_start = True, after + 1, after + 1
        body = [(n + 1, lines[n]) for n in range(body_start, stop)]
        pages.append(_page(title, line, found, body))
    return pages


def _last_text_line(lines, before: int) -> int | None:
    i = before - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    return i if i >= 0 and not _is_chrome(lines[i]) else None


def _first_text_line(lines, start: int, stop: int) -> int | None:
    return next((i for i in range(start, stop) if lines[i].strip()), None)


def _page(title: str, line: int, found: bool, body: list[tuple[int, str]]) -> Page:
    page = Page(title, line, found, Heading(title, line))
    current = page.intro
    unit = Unit()
    for para in _paragraphs(body):
        n, first = para[0]
        cites = [(m, cited.group(1)) for m, s in para if (cited := _CITATION.match(s.strip()))]
        text = [(m, s) for m, s in para if not _CITATION.match(s.strip())]
        main = _MAIN.match(first.strip())
        if main and len(para) == 1:
            current.links.append(Link(kind=LINK_MAIN, ref=main.group(1).strip(), text=first.strip()))
            continue
        if not cites and len(text) == 1 and _is_subheading(first):
            if unit.lines:                  # uncited text before a sub-heading stays a unit
                current.units.append(unit)
                unit = Unit()
            current = Heading(first.strip(), n)
            page.subs.append(current)
            continue
        if unit.lines and text:
            unit.lines.append((0, ""))      # a paragraph break inside the cited group
        unit.lines.extend(text)
        for m, c in cites:
            if not unit.lines and current.units:
                # a second citation line for the same text (it spans two columns)
                prev = current.units[-1]
                prev.citation, prev.end = f"{prev.citation}; {c.strip()}", m
                continue
            unit.citation, unit.end = c.strip(), m
            current.units.append(unit)
            unit = Unit()
    if unit.lines:
        current.units.append(unit)
    return page


def _paragraphs(body):
    """Blank-line separated groups of (line number, text)."""
    group = []
    for n, s in body:
        if s.strip():
            group.append((n, s))
        elif group:
            yield group
            group = []
    if group:
        yield group


def _is_subheading(line: str) -> bool:
    s = line.strip()
    return (len(s) < 60 and not re.search(r"[.:!?\"”]$", s) and ":" not in s
            and not s.startswith("•") and not s.startswith("Note"))


# ---------------------------------------------------------------- text

def wiki_symbols(text: str) -> str:
    """The wiki shows icons by their names ("Click", "1Credit", "+MemoryUnit-2"): tokens instead.

    A capitalised "Click"/"Credit"/... inside a sentence is the icon; at the
    start of a line it is a vocabulary term ("Credit: This is the basic unit
    of wealth"), except in the Symbols list, where "This symbol stands for" says so.
    """
    text = re.sub(r"^(Credit|Click|RecurringCredit|Link|Subroutine|Trash|MemoryUnit-\d)(?=: This symbol)",
                  lambda m: _token(m.group(1)), text)
    text = re.sub(r"(\+?)MemoryUnit-(\d+)", r"\1\2[mu]", text)
    text = re.sub(r"(\+?\d+|X)(RecurringCredit|Credit|Link)\b", lambda m: m.group(1) + _token(m.group(2)), text)
    # mid-sentence: after a word (not after ": ", where a capital starts a sentence),
    # after "(" or an opening quote, or after a list bullet
    text = re.sub(r"((?<=[^\s:.])\s|\(|\"|• )(Click|Credit|Subroutine|Trash|Link)\b(?! Tracker| Pool)",
                  lambda m: m.group(1) + _token(m.group(2)), text)
    text = re.sub(r"(?<=\S)(\[click\])((?: Click\b)+)",
                  lambda m: m.group(1) + m.group(2).replace(" Click", " [click]"), text)
    return symbols.normalise(text)


def _token(name: str) -> str:
    if name.startswith("MemoryUnit"):
        return "[mu]"
    return {"Credit": "[c]", "Click": "[click]", "RecurringCredit": "[recurring]", "Link": "[link]",
            "Subroutine": "[sub]", "Trash": "[trash]"}[name]


def _unit_text(unit: Unit) -> str:
    paras: list[list[str]] = []
    cur: list[str] = []
    for n, s in unit.lines:
        if n == 0:
            paras.append(cur)
            cur = []
        else:
            cur.append(s)
    paras.append(cur)
    return "\n\n".join(t for t in (_para_text(p) for p in paras) if t)


def _para_text(lines: list[str]) -> str:
    if any(_LIST_LINE.match(s) for s in lines):
        joined = "\n".join(re.sub(r"\s+", " ", s).strip() for s in lines)
    else:
        joined = " ".join(s.strip() for s in lines)
    return "\n".join(wiki_symbols(ln) for ln in joined.split("\n")).strip()


def _span(citations: list[str]) -> str:
    cites = [part for c in citations if c for part in c.split("; ")]
    if not cites:
        return ""
    return cites[0] if cites[0] == cites[-1] else f"{cites[0]} – {cites[-1]}"


# ---------------------------------------------------------------- sections

def _sections(pages: list[Page], file: str, doc: str) -> list[Section]:
    ids = IdAllocator()
    out: list[Section] = []
    for page in pages:
        out.extend(_page_sections(page, f"{doc}:{ids.unique(slug(page.title))}", file, doc))
    return [replace(s, order=k) for k, s in enumerate(out)]


def _page_sections(page: Page, pid: str, file: str, doc: str) -> list[Section]:
    local = IdAllocator()
    counter = [0]
    intro_units = _unit_sections(page.intro, pid, pid, counter, file, doc)
    sub_secs: list[tuple[Section, list[Section]]] = []
    for h in page.subs:
        hid = f"{pid}/{local.unique(slug(h.title))}"
        units = _unit_sections(h, hid, pid, counter, file, doc)
        sub_secs.append((_heading_section(h, hid, pid, units, file, doc), units))
    all_units = intro_units + [u for _, us in sub_secs for u in us]
    texts = [u.text for u in intro_units]
    for hs, units in sub_secs:
        texts.append(hs.title)
        texts.extend(u.text for u in units)
    last = max([page.line] + [s.provenance.line_end for s in all_units]
               + [hs.provenance.line_end for hs, _ in sub_secs])
    meta = () if page.heading_found else (("heading", "missing in the source; title from the navigation table"),)
    top = Section(
        id=pid, doc=doc, number="", title=page.title, kind="page", text="\n\n".join(t for t in texts if t),
        provenance=Provenance(file, page.line, last, citation=_span([u.provenance.citation for u in all_units])),
        children=tuple([u.id for u in intro_units] + [hs.id for hs, _ in sub_secs]),
        links=tuple(page.intro.links), meta=meta + (("level", "page"),))
    out = [top] + intro_units
    for hs, units in sub_secs:
        out.append(hs)
        out.extend(units)
    return out


def _heading_section(h: Heading, hid: str, pid: str, units: list[Section], file: str, doc: str) -> Section:
    last = max([h.line] + [u.provenance.line_end for u in units])
    return Section(
        id=hid, doc=doc, number="", title=h.title, kind="page",
        text="\n\n".join(u.text for u in units),
        provenance=Provenance(file, h.line, last, citation=_span([u.provenance.citation for u in units])),
        parent=pid, children=tuple(u.id for u in units), links=tuple(h.links),
        meta=(("level", "subheading"),))


def _unit_sections(h: Heading, parent: str, pid: str, counter: list[int], file: str, doc: str) -> list[Section]:
    out = []
    for unit in h.units:
        counter[0] += 1
        numbered = [n for n, _ in unit.lines if n]
        start = numbered[0] if numbered else unit.end
        out.append(Section(
            id=f"{pid}/p{counter[0]}", doc=doc, number="", title=h.title, kind="page",
            text=_unit_text(unit),
            provenance=Provenance(file, start, unit.end or numbered[-1], citation=unit.citation),
            parent=parent, meta=(("level", "paragraph"),)))
    return out
