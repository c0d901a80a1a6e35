"""The TRC "Netrunner Rulings v1.70" part of the 1996 file -> `onr-rulings`.

Layout of the source, in order, and what each becomes:
- the title and preface -> one `section`;
- "New Rulings:" (the 1.62 -> 1.70 update digest, dated 11-03-2000): headings
  with `@` ruling lines -> a `section` with a `section` per heading;
- "General Netrunner Rulings": a list of 22 topics, then each topic's rulings
  -> a `section` per topic, each ruling a `ruling` child;
- nine "<Type> Rulings" lists (Agenda, Ice, Node, Operation, Upgrade: Corp;
  Hardware, Preps, Program, Resource: Runner) of card names with their
  rulings -> a `section` per type, a `section` per card (meta side/category),
  each ruling a `ruling` child; "See notes on [X](#)" lines are the card's text;
- "Holger's Turn Chart" and the two "RUN FLOW CHART" captions -> `section`s.

A ruling is a paragraph ending with its attribution "(Name, Channel, date)";
page breaks split some mid-sentence and some paragraphs hold two rulings
("... (Sparky, ..., 9/5/96) "At no cost" means ... (Tom Wylie via Sparky, ...)"),
which become two rulings. The attribution leaves the text for
provenance.attribution/date/extra (its raw form is kept in meta "source").

"Some rulings appear twice": the update digest repeats rulings that the body
also has, and a few body entries repeat a ruling. A ruling is a duplicate when
its text (letters and digits only) equals a kept one under the same heading,
or when it is a digest ruling whose text the body has anywhere. The body copy
is kept (that is where a judge looks a card up) and lists the dropped copies'
lines in meta "duplicate_lines"; a digest heading left with no ruling is
dropped. The same ruling under two different cards is not a duplicate: each
card answers for itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from judgebook.ingestion.blocks import Block, IdAllocator, paragraphs
from judgebook.ingestion.dates import DATE, iso_date, looks_like_attribution, parse_attribution
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.onr_text import block_text, clean, join_broken, link_targets
from judgebook.model import LINK_REF, Link, Provenance, Section
from judgebook.text import fold, slug

DOC = "onr-rulings"
CATEGORY = re.compile(r"^(Agenda|Ice|Node|Operation|Upgrade|Hardware|Preps|Program|Resource) Rulings$")
SIDE = {"Agenda": "corp", "Ice": "corp", "Node": "corp", "Operation": "corp", "Upgrade": "corp",
        "Hardware": "runner", "Preps": "runner", "Program": "runner", "Resource": "runner"}
CHART = re.compile(r"^(Holger's Turn Chart|RUN FLOW CHART, .+)$")
GENERAL = "General Netrunner Rulings"
NEW = "New Rulings:"
_GROUP = re.compile(r"\(([^()]*)\)")
_TOC_ITEM = re.compile(r"^- \[(.+)\]\(#\)$")
_NOTE = re.compile(r"^(See |For notes? )")
_SENTENCE_END = re.compile(r"[.!?\"'’”»)]$")


@dataclass
class Heading:
    title: str
    kind: str                     # intro | new-root | new | general | topic | category | card | chart
    line: int
    blocks: list[Block] = field(default_factory=list)
    category: str = ""
    date: str = ""


@dataclass
class Ruling:
    text: str                     # cleaned, attribution removed
    raw: str
    start: int
    end: int
    who: str = ""
    date: str = ""
    extra: tuple[tuple[str, str], ...] = ()
    source: str = ""
    duplicates: list[int] = field(default_factory=list)
    dropped: bool = False


# ---------------------------------------------------------------- public

def parse_rulings(lines: list[str], first_line: int, file: str) -> list[Section]:
    """`lines` are the rulings part; `first_line` is the file line number of lines[0]."""
    blocks = _split_at_marks(join_broken(paragraphs(lines, first_line)))
    headings = _headings(blocks, file)
    rulings = {id(h): _rulings(h, file) for h in headings}
    _mark_duplicates(headings, rulings)
    return _sections(headings, rulings, file)


def _split_at_marks(blocks: list[Block]) -> list[Block]:
    """Consecutive "@" lines with no blank between them are separate rulings."""
    out: list[Block] = []
    for b in blocks:
        cur: list[str] = []
        start = b.start
        for k, ln in enumerate(b.lines):
            if ln.startswith("@") and cur:
                out.append(Block(tuple(cur), start, b.start + k - 1))
                cur, start = [], b.start + k
            cur.append(ln)
        out.append(Block(tuple(cur), start, b.end))
    return out


# ---------------------------------------------------------------- headings

def _headings(blocks: list[Block], file: str) -> list[Heading]:
    if not blocks or not block_text(blocks[0]).startswith("Netrunner Rulings"):
        raise ParseError(file, blocks[0].start if blocks else 0, "the title 'Netrunner Rulings, v1.70'")
    first = blocks[0]
    out = [Heading(block_text(first), "intro", first.start)]
    mode = "intro"
    topics: set[str] = set()
    for b in blocks[1:]:
        t = block_text(b)
        new = _structural(t, b, topics, mode)
        if new is not None:
            out.append(new)
            mode = {"new-root": "new", "general": "general", "category": "cards", "chart": "charts"}.get(
                new.kind, mode)
            continue
        cur = out[-1]
        if mode == "new" and DATE.fullmatch(t):
            cur.date = iso_date(t)
        elif mode == "general" and all(items := [_TOC_ITEM.match(ln.strip()) for ln in b.lines]):
            topics.update(m.group(1) for m in items if m)
        elif mode in ("new", "cards") and _is_name(t):
            out.append(Heading(t, "new" if mode == "new" else "card", b.start,
                               category=_category(out) if mode == "cards" else ""))
        else:
            cur.blocks.append(b)
    return out


def _structural(t: str, b: Block, topics: set[str], mode: str) -> Heading | None:
    if t == NEW:
        return Heading("New Rulings", "new-root", b.start)
    if t == GENERAL:
        return Heading(t, "general", b.start)
    if mode == "general" and t in topics:
        return Heading(t, "topic", b.start)
    m = CATEGORY.match(t)
    if m:
        return Heading(t, "category", b.start, category=m.group(1))
    if CHART.match(t):
        return Heading(t, "chart", b.start)
    return None


def _is_name(t: str) -> bool:
    """A card (or digest) heading: one short line that is neither a ruling, a note nor a fragment.

    Card names can end in "." ("Encoder, Inc.") or carry "(tm)", but a ruling
    fragment ends with its attribution's ")" ("6/20/96)"), so "(tm)" is the
    one closing parenthesis allowed.
    """
    if "\n" in t or len(t) > 45 or t.startswith("@") or _NOTE.match(t):
        return False
    return not t.endswith(")") or t.lower().endswith("(tm)")


def _category(headings: list[Heading]) -> str:
    return next(h.category for h in reversed(headings) if h.kind == "category")


# ---------------------------------------------------------------- rulings

def _rulings(h: Heading, file: str) -> list[Ruling]:
    if h.kind in ("intro", "chart", "category", "general", "new-root"):
        return []
    blocks = [b for b in h.blocks if not (h.kind == "card" and _NOTE.match(block_text(b)))]
    out: list[Ruling] = []
    for group in _groups(blocks, at_mode=h.kind == "new"):
        out.extend(_split(group, file))
    return out


def _groups(blocks: list[Block], at_mode: bool) -> list[list[Block]]:
    """Paragraphs -> one list per ruling.

    In the digest an "@" starts each ruling. In the body a ruling runs until
    a paragraph closes it with an attribution, so an unattributed paragraph
    joins the attributed one that follows ("... install the card." / "If you
    CANNOT pay ... (Sparky, ...)"); paragraphs left unattributed at the end
    of a heading (Theorem Proof's two) stand as rulings of their own.
    """
    if at_mode:
        groups: list[list[Block]] = []
        for b in blocks:
            if block_text(b).startswith("@") or not groups:
                groups.append([b])
            else:
                groups[-1].append(b)
        return groups
    groups, pending = [], []
    for b in blocks:
        pending.append(b)
        if _ends_attributed(_joined(pending)):
            groups.append(pending)
            pending = []
    return groups + _unattributed(pending)


def _unattributed(blocks: list[Block]) -> list[list[Block]]:
    groups: list[list[Block]] = []
    for b in blocks:
        if groups and _continues(_joined(groups[-1]), block_text(b)):
            groups[-1].append(b)
        else:
            groups.append([b])
    return groups


def _continues(prev: str, nxt: str) -> bool:
    """Does paragraph `nxt` belong to the ruling `prev` (not yet attributed) started?"""
    p = prev.rstrip()
    if _ends_attributed(p):
        return nxt[:1].islower()
    return (not _SENTENCE_END.search(p) or p.endswith(":") or nxt.startswith("(")
            or nxt[:1].islower() or bool(re.match(r"^(-\s*)?\d+\)", nxt)) or nxt.startswith("Note that"))


def _ends_attributed(text: str) -> bool:
    m = re.search(r"\(([^()]*)\)[.\s\"”']*$", text)
    return bool(m and looks_like_attribution(m.group(1)))


def _joined(group: list[Block]) -> str:
    text = ""
    for b in group:
        t = block_text(b)
        if not text:
            text = t
        elif not _SENTENCE_END.search(text.rstrip()) and not text.rstrip().endswith(":"):
            text += " " + t                 # a sentence cut by a page break
        else:
            text += "\n" + t
    return text


def _split(group: list[Block], file: str) -> list[Ruling]:
    """One paragraph group -> rulings, cut after each attribution that more text follows."""
    raw = _joined(group)
    start, end = group[0].start, group[-1].end
    cuts = [m for m in _GROUP.finditer(raw) if looks_like_attribution(m.group(1))]
    segments, pos = [], 0
    for m in cuts:
        segments.append(raw[pos:m.end()])
        pos = m.end()
    tail = raw[pos:]
    if segments and not re.search(r"[A-Za-z]", tail):
        segments[-1] += tail
    elif segments:
        segments[-1] += tail            # unattributed words after the last attribution stay with it
    else:
        segments = [raw]
    return [_ruling(seg, start, end, group, file) for seg in segments if re.search(r"[A-Za-z]", seg)]


def _ruling(seg: str, start: int, end: int, group: list[Block], file: str) -> Ruling:
    seg = seg.strip()
    groups = [m for m in _GROUP.finditer(seg) if looks_like_attribution(m.group(1))]
    text = seg
    who = when = source = ""
    extra: tuple = ()
    if groups:
        m = groups[-1] if _ends_attributed(seg) else groups[0]
        try:
            a = parse_attribution(m.group(1))
        except ValueError as exc:
            raise ParseError(file, _line_of(m.group(0), group, start),
                             "an attribution such as '(Name, Netrunner-L, M/D/YY)'",
                             f"{m.group(0)} ({exc})") from None
        who, when, extra, source = a.who, a.date, a.extra, a.raw
        if _ends_attributed(seg):
            # a quotation closed after the attribution keeps its closing mark
            text = seg[:m.start()].rstrip() + seg[m.end():].strip(" .\n")
    text = clean(re.sub(r"^@\s*", "", text))
    return Ruling(text, seg, start, end, who, when, extra, source)


def _line_of(snippet: str, group: list[Block], default: int) -> int:
    head = snippet[:12]
    for b in group:
        for k, ln in enumerate(b.lines):
            if head in ln:
                return b.start + k
    return default


# ---------------------------------------------------------------- duplicates

def _mark_duplicates(headings: list[Heading], rulings: dict[int, list[Ruling]]) -> None:
    body: dict[str, Ruling] = {}
    for h in headings:
        if h.kind == "new":
            continue
        seen: dict[str, Ruling] = {}
        for r in rulings[id(h)]:
            k = fold(r.text).replace(" ", "")
            if k in seen:
                r.dropped = True
                seen[k].duplicates.append(r.start)
            else:
                seen[k] = r
                body.setdefault(k, r)
    for h in headings:
        if h.kind != "new":
            continue
        for r in rulings[id(h)]:
            kept = body.get(fold(r.text).replace(" ", ""))
            if kept is not None:
                r.dropped = True
                kept.duplicates.append(r.start)


# ---------------------------------------------------------------- sections

def _sections(headings: list[Heading], rulings: dict[int, list[Ruling]], file: str) -> list[Section]:
    ids, new_ids = IdAllocator(), IdAllocator()
    parent_of = {"new": "new-root", "topic": "general", "card": "category"}
    current: dict[str, str] = {}
    built: list[tuple[Section, list[Section]]] = []
    for h in headings:
        live = [r for r in rulings[id(h)] if not r.dropped]
        if h.kind == "new" and not live:
            continue
        base = slug(h.title)
        sid = (f"{current['new-root']}/{new_ids.unique(base)}" if h.kind == "new"
               else f"{DOC}:{ids.unique(base)}")
        current[h.kind] = sid
        parent = current.get(parent_of.get(h.kind, ""), "")
        kids = [_ruling_section(r, f"{sid}/r{n}", sid, file) for n, r in enumerate(live, 1)]
        built.append((_heading_section(h, sid, parent, kids, file), kids))
    return _with_children(built)


def _heading_section(h: Heading, sid: str, parent: str, kids: list[Section], file: str) -> Section:
    keep = [b for b in h.blocks if h.kind != "card" or _NOTE.match(block_text(b))]
    if h.kind in ("topic", "new"):
        keep = []
    text = "\n\n".join(clean(block_text(b)) for b in keep)
    raw = " ".join(block_text(b) for b in keep)
    links = tuple(Link(kind=LINK_REF, ref=name, text=name) for name in link_targets(raw))
    meta: list[tuple[str, str]] = []
    if h.kind == "card":
        meta = [("side", SIDE[h.category]), ("category", h.category.lower())]
    if h.date:
        meta.append(("date", h.date))
    end = max([h.line] + [b.end for b in h.blocks] + [k.provenance.line_end for k in kids])
    author = re.search(r"Author: ([^,\n]+)", text) if h.kind == "chart" else None
    return Section(id=sid, doc=DOC, number="", title=h.title, kind="section", text=text,
                   provenance=Provenance(file, h.line, end, attribution=author.group(1).strip() if author else "",
                                         date=h.date),
                   parent=parent, links=links, meta=tuple(meta))


def _ruling_section(r: Ruling, rid: str, parent: str, file: str) -> Section:
    meta = []
    if r.source:
        meta.append(("source", r.source))
    if r.duplicates:
        meta.append(("duplicate_lines", ",".join(map(str, sorted(set(r.duplicates))))))
    links = tuple(Link(kind=LINK_REF, ref=name, text=name) for name in link_targets(r.raw))
    return Section(id=rid, doc=DOC, number="", title="", kind="ruling", text=r.text,
                   provenance=Provenance(file, r.start, r.end, attribution=r.who, date=r.date, extra=r.extra),
                   parent=parent, links=links, meta=tuple(meta))


def _with_children(built: list[tuple[Section, list[Section]]]) -> list[Section]:
    heads = [h for h, _ in built]
    by_parent: dict[str, list[str]] = {}
    for h in heads:
        if h.parent:
            by_parent.setdefault(h.parent, []).append(h.id)
    out: list[Section] = []
    for h, kids in built:
        children = tuple(by_parent.get(h.id, [])) + tuple(k.id for k in kids)
        out.append(replace(h, children=children))
        out.extend(kids)
    return _resolve_refs(out)


def _resolve_refs(sections: list[Section]) -> list[Section]:
    """`[Caryatid](#)` names a card or topic of this document: point at it when the name matches."""
    titles: dict[str, str] = {}
    for s in sections:
        if s.kind == "section" and "/" not in s.id:
            titles.setdefault(fold(s.title), s.id)
    out = []
    for s in sections:
        links = tuple(replace(l, target=titles.get(fold(l.ref), ""),
                              reason="" if fold(l.ref) in titles else
                              f"no card or topic named {l.ref!r} in the rulings")
                      for l in s.links)
        out.append(replace(s, links=links))
    return out
