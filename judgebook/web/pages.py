"""What each page shows, computed from the corpus as plain records.

The server's routes and the static export both call these, then render the
same templates: so the two never disagree about what a page holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from judgebook.model import LINK_VERSION, Backlink, Document, Section
from judgebook.store.corpus import Corpus

_RULE_KINDS = {"chapter", "section", "rule", "sub-rule", "step", "example", "page"}


def section_label(sec: Section) -> str:
    """How a section is named in lists and links: "1.16.10b", "1.16 Costs", "Access"."""
    text = f"{sec.number} {sec.title}".strip()
    if text:
        return text
    snippet = " ".join(sec.text.split()[:8])
    return snippet or sec.id


@dataclass(frozen=True)
class BacklinkRow:
    source: Section
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class SectionPage:
    section: Section
    document: Document | None
    breadcrumb: list[Section]
    previous: Section | None
    next: Section | None
    children: list[Section]          # shown inline, in order (not examples)
    examples: list[Section]
    backlinks: list[BacklinkRow]
    history: list[Section]           # every CR version of this rule, oldest first (itself included)


def section_page(corpus: Corpus, section_id: str) -> SectionPage | None:
    sec = corpus.get(section_id)
    if sec is None:
        return None
    prev, nxt = _step(corpus, sec, 0), _step(corpus, sec, 1)
    example_ids = set(sec.examples)
    kids = corpus.children(section_id)
    examples = [ex for e in sec.examples if (ex := corpus.get(e))]
    examples += [k for k in kids if k.kind == "example" and k.id not in example_ids]
    history = corpus.history(section_id)
    return SectionPage(
        section=sec, document=corpus.documents.get(sec.doc),
        breadcrumb=corpus.breadcrumb(section_id), previous=prev, next=nxt,
        children=[k for k in kids if k.kind != "example"],
        examples=examples,
        backlinks=backlink_rows(corpus, corpus.backlinks(section_id)),
        history=history if len(history) > 1 else [],
    )


def _step(corpus: Corpus, sec: Section, forward: int) -> Section | None:
    """The previous/next section in document order, passing over examples (shown on their rule's page)."""
    here = corpus.neighbours(sec.id)[forward]
    while here is not None and here.kind == "example" and sec.kind != "example":
        here = corpus.neighbours(here.id)[forward]
    return here


def backlink_rows(corpus: Corpus, backlinks: list[Backlink]) -> list[BacklinkRow]:
    """One row per referring section (a section may refer several times), in document order."""
    kinds: dict[str, list[str]] = {}
    for b in backlinks:
        if b.source in corpus.sections:
            kinds.setdefault(b.source, [])
            if b.kind not in kinds[b.source]:
                kinds[b.source].append(b.kind)
    doc_order = {d.key: (d.order, d.key) for d in corpus.documents.values()}
    rows = [BacklinkRow(corpus.sections[s], tuple(k)) for s, k in kinds.items()]
    return sorted(rows, key=lambda r: (doc_order.get(r.source.doc, (99, "")), r.source.order))


def documents(corpus: Corpus) -> list[Document]:
    return sorted(corpus.documents.values(), key=lambda d: (d.order, d.key))


# ---- table of contents ---------------------------------------------------
@dataclass
class TocNode:
    section: Section
    children: list[TocNode] = field(default_factory=list)


def toc(corpus: Corpus, doc: str, kinds_hidden: frozenset = frozenset({"example"})) -> list[TocNode]:
    """The document's tree (examples left out), built from parent links in document order."""
    nodes: dict[str, TocNode] = {}
    roots: list[TocNode] = []
    for sec in corpus.in_doc(doc):
        if sec.kind in kinds_hidden:
            continue
        node = nodes[sec.id] = TocNode(sec)
        parent = nodes.get(sec.parent)
        (parent.children if parent else roots).append(node)
    return roots


# ---- what changed between two CR versions -----------------------------------
CHANGE_KINDS = ("added", "removed", "changed", "renumbered")


@dataclass(frozen=True)
class Change:
    status: str                  # added | removed | changed | renumbered | renumbered, changed
    old: Section | None
    new: Section | None


@dataclass(frozen=True)
class Changes:
    old: Document
    new: Document
    entries: list[Change]
    changelogs: list[Section]

    def count(self, status: str) -> int:
        return len(self.only(status))

    def only(self, status: str) -> list[Change]:
        return [e for e in self.entries if not status or status in e.status.split(", ")]


def version_pairs(corpus: Corpus) -> list[tuple[Document, Document]]:
    """Every (older, newer) pair of loaded CR versions."""
    v = corpus.cr_versions()
    return [(x, y) for i, x in enumerate(v) for y in v[i + 1:]]


def version_map(corpus: Corpus, a: str, b: str) -> dict[str, str]:
    """Section id in doc `a` -> the same rule's id in doc `b`, from the version links (either direction)."""
    out: dict[str, str] = {}
    for sec in corpus.in_doc(a):
        for link in sec.links:
            if link.kind == LINK_VERSION and link.target.startswith(b + ":") \
                    and corpus.sections.get(link.target, None) is not None \
                    and corpus.sections[link.target].doc == b:
                out.setdefault(sec.id, link.target)
    for sec in corpus.in_doc(b):
        for link in sec.links:
            target = corpus.sections.get(link.target) if link.kind == LINK_VERSION else None
            if target is not None and target.doc == a:
                out.setdefault(target.id, sec.id)
    return out


def compare(corpus: Corpus, a: str, b: str) -> Changes | None:
    da, db = corpus.documents.get(a), corpus.documents.get(b)
    if not (da and db and da.is_cr and db.is_cr) or a == b:
        return None
    mapping = version_map(corpus, a, b)
    matched_new = set(mapping.values())
    entries: list[Change] = []
    for old in corpus.in_doc(a):
        if old.kind not in _RULE_KINDS or _is_changelog(old):
            continue
        new = corpus.get(mapping.get(old.id, ""))
        if new is None:
            entries.append(Change("removed", old, None))
            continue
        status = []
        if (old.number or "") != (new.number or ""):
            status.append("renumbered")
        if _words(old) != _words(new):
            status.append("changed")
        if status:
            entries.append(Change(", ".join(status), old, new))
    for new in corpus.in_doc(b):
        if new.kind in _RULE_KINDS and new.id not in matched_new and not _is_changelog(new):
            entries.append(Change("added", None, new))
    new_pos = {s.id: s.order for s in corpus.in_doc(b)}
    entries.sort(key=lambda e: (new_pos.get(e.new.id, 0) if e.new else _anchor_pos(e, mapping, new_pos),
                                0 if e.new else 1))
    return Changes(da, db, entries, changelogs(corpus, {b}))


def _anchor_pos(change: Change, mapping: dict[str, str], new_pos: dict[str, int]) -> float:
    """Where a removed rule sits in the new document: just after its parent's counterpart."""
    parent = change.old.parent if change.old else ""
    return new_pos.get(mapping.get(parent, ""), -1) + 0.5


def _words(sec: Section) -> tuple[str, ...]:
    return tuple(f"{sec.title} {sec.text}".split())


def _is_changelog(sec: Section) -> bool:
    return sec.meta_get("changelog") == "true"


def changelogs(corpus: Corpus, docs: set[str] | None = None) -> list[Section]:
    """Changelog sections (meta changelog=true), top-level ones only, in document order."""
    out = []
    for d in documents(corpus):
        if docs is not None and d.key not in docs:
            continue
        for sec in corpus.in_doc(d.key):
            parent = corpus.get(sec.parent)
            if _is_changelog(sec) and not (parent and _is_changelog(parent)):
                out.append(sec)
    return out


# ---- legacy rulings ---------------------------------------------------------
@dataclass(frozen=True)
class CardEntry:
    section: Section
    category: str
    side: str
    rulings: int


def ruling_cards(corpus: Corpus, doc: str = "onr-rulings") -> list[CardEntry]:
    """The card-by-card entries of the 1996 rulings (sections the parser gave a card category)."""
    out = [CardEntry(s, s.meta_get("category"), s.meta_get("side"), len(s.children))
           for s in corpus.in_doc(doc) if s.meta_get("category")]
    return sorted(out, key=lambda c: c.section.title.casefold())


def ruling_topics(corpus: Corpus, doc: str = "onr-rulings") -> list[TocNode]:
    """The rest of the 1996 rulings: general topics and charts (card entries left out)."""
    def prune(nodes: list[TocNode]) -> list[TocNode]:
        kept = [n for n in nodes if not n.section.meta_get("category")]
        for n in kept:
            n.children = prune(n.children)
        return [n for n in kept if n.children or n.section.kind == "ruling" or n.section.text]
    return prune(toc(corpus, doc))


def card_list(corpus: Corpus, doc: str = "cards") -> list[Section]:
    return sorted((s for s in corpus.in_doc(doc) if s.kind == "card"),
                  key=lambda s: s.title.casefold())
