"""From the linked corpus to the search index: one `IndexRecord` per section.

The build calls `write_index(corpus, <generation>/whoosh)`. Everything a hit
shows (breadcrumb labels, era, rank among CR versions) is decided here, once,
so the query side never needs the corpus. The backend (Whoosh) is imported
lazily in `write_index`, for start-up speed; a missing one fails loudly.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from judgebook.model import LINK_TERM, Section
from judgebook.numbers import normalise_number
from judgebook.search.schema import SNIPPET_SOURCE_CHARS, IndexRecord, Member, fold, index_text

if TYPE_CHECKING:
    from judgebook.store.corpus import Corpus

Progress = Callable[[int, int], None]


def write_index(corpus: Corpus, path: Path, progress: Progress | None = None) -> int:
    """Write the search index of `corpus` into the folder `path`; returns the record count.

    `progress(done, total)` is called now and then while writing.
    """
    from judgebook.search import backend
    records = list(records_of(corpus))
    backend.write(Path(path), records, progress)
    return len(records)


def records_of(corpus: Corpus) -> Iterator[IndexRecord]:
    """One record per distinct text: a rule unchanged across CR versions is indexed once."""
    ranks = doc_ranks(corpus.documents.values())
    groups: dict[tuple[str, str], list[Section]] = {}
    for sec in corpus.sections.values():
        groups.setdefault((family(corpus, _outermost_same(corpus, sec)), _sameness(sec)), []).append(sec)
    for (fam, _), secs in groups.items():
        # Newest document first; within one, the outermost (a heading before its lone paragraph).
        secs.sort(key=lambda s: (ranks.get(s.doc, len(ranks)), len(corpus.breadcrumb(s.id)), s.id))
        members = tuple(member(corpus, s, ranks.get(s.doc, len(ranks))) for s in secs)
        yield record(secs[0], members, fam, context=context(corpus, secs[0]),
                     superseded_by=superseded_by(corpus, secs[0], fam))


def superseded_by(corpus: Corpus, sec: Section, fam: str) -> str:
    """The newer CR's version of `sec` when it words the rule differently, else ""."""
    doc = corpus.documents.get(sec.doc)
    newer = corpus.get(fam) if fam and fam != sec.id else None
    if doc is None or not doc.is_cr or newer is None or newer.doc == sec.doc:
        return ""
    return fam


def context(corpus: Corpus, sec: Section) -> str:
    """The headings of the sections `sec` sits in ("Turns", "Draw Phase"): the topic a
    short rule leaves unsaid ("The Runner's turn does not have a draw phase")."""
    return "\n".join(h for h in map(heading, corpus.breadcrumb(sec.id)) if h)


# An untitled rule whose whole text is a short line, not a sentence ("Approach
# Ice Phase", "Corp Actions"), is the heading of the steps under it: a step
# ("the Corp can rez the approached piece of ice") belongs to its phase.
HEADING_WORDS = 8


def heading(sec: Section) -> str:
    """A section's title, or its text when that is a heading-like line; else ""."""
    if sec.title:
        return sec.title
    text = sec.text.strip()
    return text if len(text.split()) <= HEADING_WORDS and not text.endswith((".", ":", "?")) else ""


def family(corpus: Corpus, sec: Section) -> str:
    """The id of the newest version of `sec` (itself when it has no other version)."""
    versions = corpus.history(sec.id) if sec.links else ()
    return versions[-1].id if versions else sec.id


def _outermost_same(corpus: Corpus, sec: Section) -> Section:
    """The outermost ancestor with the very same title and text (a wiki heading and its only paragraph)."""
    key = _sameness(sec)
    while sec.parent and (parent := corpus.get(sec.parent)) is not None and _sameness(parent) == key:
        sec = parent
    return sec


def _sameness(sec: Section) -> str:
    text = f"{sec.kind}|{sec.title}|{sec.text}".translate(_TYPOGRAPHY)
    return " ".join(text.split()).lower()


_TYPOGRAPHY = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


def member(corpus: Corpus, sec: Section, rank: int) -> Member:
    doc = corpus.documents.get(sec.doc)
    crumbs = tuple((p.id, label(p)) for p in corpus.breadcrumb(sec.id))
    number = (normalise_number(sec.number) or sec.number.lower()) if sec.number else ""
    return Member(id=sec.id, doc=sec.doc, era=doc.era if doc else "", number=number,
                  rank=rank, breadcrumb=crumbs)


def record(sec: Section, members: tuple[Member, ...], fam: str = "", context: str = "",
           superseded_by: str = "") -> IndexRecord:
    defines = definitions(sec)
    card = fold(sec.title) if is_card_name(sec) else ""
    keys = tuple(dict.fromkeys(k for k in (sec.title, *defines) if k.strip()))
    return IndexRecord(
        members=members, kind=sec.kind, title=sec.title, text=index_text(sec.text),
        body=sec.text[:SNIPPET_SOURCE_CHARS], defines=defines, card_name=card, keys=keys,
        family=fam or sec.id, context=context, superseded_by=superseded_by)


def doc_ranks(documents) -> dict[str, int]:
    """0 for the newest CR, then older CRs, then the other documents in display order."""
    docs = list(documents)
    crs = sorted((d for d in docs if d.is_cr), key=lambda d: (d.effective, d.key), reverse=True)
    others = sorted((d for d in docs if not d.is_cr), key=lambda d: (d.order, d.key))
    return {d.key: i for i, d in enumerate(crs + others)}


def label(sec: Section) -> str:
    return " ".join(p for p in (sec.number, sec.title) if p) or sec.id


def definitions(sec: Section) -> tuple[str, ...]:
    """The terms `sec` defines: its parser's `defines` meta, a glossary heading, a YAML {term:}."""
    found = [t.strip() for t in sec.meta_get("defines").split("|") if t.strip()]
    if sec.kind == "glossary-entry" and sec.title:
        found.append(sec.title)
    found += [l.ref for l in sec.links if l.kind == LINK_TERM and l.target in ("", sec.id)]
    return tuple(dict.fromkeys(found))


def is_card_name(sec: Section) -> bool:
    """Cards, and the 1996 rulings' card-by-card entries, are titled with a card name."""
    if not sec.title:
        return False
    # The 1996 rulings' card entries carry the card's side (and category) in meta.
    return sec.kind == "card" or bool(sec.meta_get("card")) or (
        sec.doc == "onr-rulings" and bool(sec.meta_get("side")))
