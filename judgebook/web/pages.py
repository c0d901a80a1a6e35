"""What each page shows, computed from the corpus as plain records.

The server's routes and the static export both call these, then render the
same templates: so the two never disagree about what a page holds.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from weakref import WeakKeyDictionary

from judgebook.ingestion.nrdb import LEGALITY_META
from judgebook.linking.versions import typography_only
from judgebook.model import LINK_VERSION, Backlink, Document, Section
from judgebook.store.corpus import Corpus

_RULE_KINDS = {"chapter", "section", "rule", "sub-rule", "step", "example", "page"}


def section_label(sec: Section) -> str:
    """How a section is named in lists and links: "1.16.10b", "1.16 Costs", "Access"."""
    text = f"{sec.number} {sec.title or heading_text(sec)}".strip()
    if text:
        return text
    return phrase(sec.text) or sec.id


HEADING_CHARS = 50


def heading_text(sec: Section) -> str:
    """The text of a numbered rule that is only a heading ("6.9.1" reads "Initiation Phase"), else ""."""
    text = sec.text.strip()
    if sec.title or not sec.number or not text or len(text) > HEADING_CHARS or "\n" in text:
        return ""
    return "" if text.rstrip("\"'”’)")[-1:] in ".:;!?" else text


LABEL_CHARS = 90
_SENTENCE_END = re.compile(r"(?<=[.?!])\s")
_CLAUSE_END = re.compile(r"[,;:\u2014\u2013](?=\s)|\s[\u2014\u2013-]\s")


def phrase(text: str, limit: int = LABEL_CHARS) -> str:
    """The opening of `text` cut where a phrase ends, never inside one.

    The first sentence when it is short enough; else the longest run of whole
    clauses (up to a comma, semicolon, colon or dash) that fits, marked "…";
    else the whole sentence if it is at most twice as long; only a longer
    single clause is cut between words.
    """
    flat = " ".join(text.split())
    first = _SENTENCE_END.split(flat, maxsplit=1)[0]
    if len(first) <= limit:
        return first
    cut = 0
    for m in _CLAUSE_END.finditer(first):
        if m.start() > limit:
            break
        cut = m.start()
    if cut >= limit // 3:
        return first[:cut].rstrip() + "…"
    if len(first) <= 2 * limit:
        return first
    return first[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def label(corpus: Corpus, sec: Section) -> str:
    """`section_label`, where the corpus can say more: an example is named by
    the rule it illustrates ("6.9.2 Example 2"), a ruling by its card."""
    if sec.kind == "example" and not sec.number:
        parent = corpus.get(sec.parent)
        if parent is not None:
            siblings = [e for e in parent.examples if e in corpus.sections] or [sec.id]
            nth = f" {siblings.index(sec.id) + 1}" if len(siblings) > 1 and sec.id in siblings else ""
            return f"{parent.number or section_label(parent)} Example{nth}"
    if sec.kind == "ruling" and not sec.title and not sec.number:
        card = corpus.get(sec.parent)
        if card is not None and card.kind == "card":
            return f"{card.title} ruling: {phrase(_question(sec.text))}"
    return section_label(sec)


def _question(text: str) -> str:
    """A Q&A ruling is named by its question."""
    return text[3:] if text.startswith("Q: ") else text


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
    reading: list[ReadingNode] = field(default_factory=list)   # everything under it, in full
    sidebar: list[SideNode] = field(default_factory=list)      # the document's contents, "you are here"


@dataclass(frozen=True)
class ReadingNode:
    """A section shown in full inside its ancestor's page, with its examples and what is under it."""
    section: Section
    depth: int
    examples: list[Section]
    children: list[ReadingNode]


def reading_tree(corpus: Corpus, section_id: str, depth: int = 0) -> list[ReadingNode]:
    """Every section under `section_id` (examples beside their rule), in document order."""
    out = []
    for kid in corpus.children(section_id):
        if kid.kind == "example":
            continue
        out.append(ReadingNode(kid, depth, _examples(corpus, kid), reading_tree(corpus, kid.id, depth + 1)))
    return out


def _examples(corpus: Corpus, sec: Section) -> list[Section]:
    listed = [e for e in map(corpus.get, sec.examples) if e is not None]
    ids = set(sec.examples)
    return listed + [k for k in corpus.children(sec.id) if k.kind == "example" and k.id not in ids]


@dataclass
class SideNode:
    section: Section
    children: list[SideNode] = field(default_factory=list)
    here: bool = False        # the page's own section
    on_path: bool = False     # an ancestor of it (its entry stays open)


SIDEBAR_MAX = 400   # a contents list longer than this (the card list) is no help beside the text


def sidebar(corpus: Corpus, doc: str, current: str = "") -> list[SideNode]:
    """The document's chapters and sections, plus the branch down to `current`.

    Empty when the document is flat and long (cards): a sidebar of 2,000 names
    shows nobody where they are.
    """
    roots = _roots(corpus, doc)
    if roots is None:
        return []
    path = ({s.id for s in corpus.breadcrumb(current)} | {current}) if current else set()

    def grow(nodes: list[Section], depth: int) -> list[SideNode]:
        return [SideNode(s, grow(_contents(corpus, s.id, doc), depth + 1), s.id == current, s.id in path)
                for s in nodes if depth < 2 or s.parent in path]
    return grow(roots, 0)


def _contents(corpus: Corpus, section_id: str, doc: str) -> list[Section]:
    return [k for k in corpus.children(section_id) if k.kind != "example" and k.doc == doc]


# The top of each document's contents, per loaded corpus: every section page
# of an export asks for it, and it does not change within a corpus.
_ROOTS: WeakKeyDictionary[Corpus, dict[str, list[Section] | None]] = WeakKeyDictionary()


def _roots(corpus: Corpus, doc: str) -> list[Section] | None:
    """The document's top-level sections; None when its two top levels exceed SIDEBAR_MAX."""
    cache = _ROOTS.setdefault(corpus, {})
    if doc not in cache:
        roots = [s for s in corpus.in_doc(doc) if s.kind != "example"
                 and (corpus.get(s.parent) is None or corpus.sections[s.parent].doc != doc)]
        size = len(roots) + sum(len(_contents(corpus, r.id, doc)) for r in roots)
        cache[doc] = roots if size <= SIDEBAR_MAX else None
    return cache[doc]


def section_page(corpus: Corpus, section_id: str) -> SectionPage | None:
    sec = corpus.get(section_id)
    if sec is None:
        return None
    prev, nxt = _step(corpus, sec, 0), _step(corpus, sec, 1)
    kids = corpus.children(section_id)
    examples = _examples(corpus, sec)
    history = corpus.history(section_id)
    return SectionPage(
        reading=reading_tree(corpus, section_id), sidebar=sidebar(corpus, sec.doc, section_id),
        section=sec, document=corpus.documents.get(sec.doc),
        breadcrumb=corpus.breadcrumb(section_id), previous=prev, next=nxt,
        children=[k for k in kids if k.kind != "example"],
        examples=examples,
        backlinks=backlink_rows(corpus, corpus.backlinks(section_id)),
        history=history if len(history) > 1 else [],
    )


def _step(corpus: Corpus, sec: Section, forward: int) -> Section | None:
    """The previous/next section in document order, passing over examples (shown on their rule's page)."""
    here: Section | None = sec
    while here is not None:
        here = corpus.neighbours(here.id)[forward]
        if here is None or here.kind != "example" or sec.kind == "example":
            return here
    return None


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
_EXAMPLE_TITLE = re.compile(r"^Example(?: \d+)?$")


@dataclass(frozen=True)
class Change:
    status: str                  # added | removed | changed | renumbered | renumbered, changed
    old: Section | None
    new: Section | None
    typography: bool = False     # "changed" only in quote style, capitals, whitespace or symbol notation
    chapter: Section | None = None   # the newer version's chapter it sits in


@dataclass(frozen=True)
class ChangeGroup:
    """The changes under one chapter of the newer version, shown folded."""
    chapter: Section | None      # None: rules outside any chapter
    entries: list[Change]

    @property
    def substantive(self) -> int:
        return sum(1 for e in self.entries if not e.typography)


@dataclass(frozen=True)
class Changes:
    old: Document
    new: Document
    entries: list[Change]
    changelogs: list[Section]
    old_stops_at: Section | None = None    # the older document's text ends here...
    not_covered: int = 0                   # ...so this many rules of the newer one are not compared

    def count(self, status: str) -> int:
        return len(self.only(status))

    def only(self, status: str) -> list[Change]:
        return [e for e in self.entries if not status or status in e.status.split(", ")]

    @property
    def typography(self) -> int:
        return sum(1 for e in self.entries if e.typography)

    def groups(self, status: str = "") -> list[ChangeGroup]:
        """The entries (of one status, or all) by the newer version's chapter, each chapter once and in the
        newer version's order (the rules outside any chapter last); within a chapter, in document order."""
        by: dict[str, ChangeGroup] = {}
        for e in self.only(status):
            key = e.chapter.id if e.chapter is not None else ""
            by.setdefault(key, ChangeGroup(e.chapter, [])).entries.append(e)
        return sorted(by.values(), key=lambda g: (g.chapter is None, g.chapter.order if g.chapter else 0))


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
    new_pos = {s.id: s.order for s in corpus.in_doc(b)}
    stops_at, horizon = _coverage(corpus, a, b, mapping, new_pos)
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
        typography = False
        if _words(old) != _words(new):
            status.append("changed")
            typography = typography_only(_plain(old), _plain(new))
        if status:
            entries.append(Change(", ".join(status), old, new, typography))
    not_covered = 0
    for new in corpus.in_doc(b):
        if new.kind in _RULE_KINDS and new.id not in matched_new and not _is_changelog(new):
            if new.order > horizon:
                not_covered += 1
            else:
                entries.append(Change("added", None, new))
    entries.sort(key=lambda e: (new_pos.get(e.new.id, 0) if e.new else _anchor_pos(corpus, e, mapping, new_pos),
                                0 if e.new else 1))
    chapters = _chapters(corpus, b)
    placed = [replace(e, chapter=chapters.get(e.new.id) if e.new else _chapter_of_old(corpus, e, chapters, mapping))
              for e in entries]
    return Changes(da, db, placed, changelogs(corpus, {b}), stops_at, not_covered)


def _chapters(corpus: Corpus, doc: str) -> dict[str, Section]:
    """Section id -> its top-level ancestor in `doc`."""
    out: dict[str, Section] = {}
    for sec in corpus.in_doc(doc):
        parent = corpus.get(sec.parent)
        out[sec.id] = out.get(parent.id, sec) if parent is not None and parent.doc == doc else sec
    return out


def _chapter_of_old(corpus: Corpus, e: Change, chapters: dict[str, Section],
                    mapping: dict[str, str]) -> Section | None:
    """A removed rule sits in the chapter of its nearest ancestor that the newer version kept."""
    sec = e.old
    while sec is not None:
        if sec.id in mapping:
            return chapters.get(mapping[sec.id])
        sec = corpus.get(sec.parent)
    return None


def _coverage(corpus: Corpus, a: str, b: str, mapping: dict[str, str],
              new_pos: dict[str, int]) -> tuple[Section | None, float]:
    """Where the older document's text stops, and the position in the newer one past which
    nothing can be called "added": CR 1.6's seed stops at 4.1.2 though the rules go on to
    chapter 11. A document stops short when its last chapter comes before the newer one's."""
    numbered = [s for s in corpus.in_doc(a) if s.number and s.kind != "example"]
    newer = [s for s in corpus.in_doc(b) if s.number and s.kind != "example"]
    if not numbered or not newer:
        return None, float("inf")
    last = numbered[-1]
    if _chapter_number(last) >= _chapter_number(newer[-1]) or last.id not in mapping:
        return None, float("inf")
    counterpart = mapping[last.id]
    # the counterpart's own sub-rules are still inside what the older text reaches
    below = [s.order for s in corpus.in_doc(b) if s.parent == counterpart]
    return last, max([new_pos[counterpart], *below])


def _chapter_number(sec: Section) -> int:
    head = sec.number.split(".")[0]
    return int(head) if head.isdigit() else 0


def _plain(sec: Section) -> str:
    """Title and text as compared for typography; an example's "Example" label is no title."""
    title = "" if sec.kind == "example" and _EXAMPLE_TITLE.match(sec.title) else sec.title
    return f"{title} {sec.text}"


def _anchor_pos(corpus: Corpus, change: Change, mapping: dict[str, str], new_pos: dict[str, int]) -> float:
    """Where a removed rule sits in the new document: just after the counterpart of its nearest ancestor the
    newer version kept (a removed example of a removed rule goes with it, not to the top)."""
    sec = corpus.get(change.old.parent) if change.old else None
    while sec is not None and sec.id not in mapping:
        sec = corpus.get(sec.parent)
    return new_pos.get(mapping[sec.id], -1) + 0.5 if sec is not None else -0.5


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


# ---- a card's facts, in words ---------------------------------------------------
@dataclass(frozen=True)
class Legality:
    format: str          # "Standard"
    status: str          # "legal", "banned", "legal, 2 points", "not in the card pool"
    restriction: str     # the ban or points list judged against: "Standard Ban List 25.10"
    pool: str            # the card pool: "Seventh Rotation"

    @property
    def legal(self) -> bool:
        return self.status.startswith("legal")


def legality(sec: Section) -> list[Legality]:
    """The card's standing in each format the card data describes (meta "format:<id>")."""
    out = []
    for key, value in sec.meta:
        if key.startswith(LEGALITY_META):
            status, name, restriction, pool = (value.split("|") + ["", "", ""])[:4]
            out.append(Legality(name, status, restriction, pool))
    return out


_COST_NAME = {"ice": "Rez cost", "asset": "Rez cost", "upgrade": "Rez cost",
              "operation": "Play cost", "event": "Play cost"}
_FACT_NAMES = (("strength", "Strength"), ("agenda_points", "Agenda points"),
               ("advancement_requirement", "Advancement requirement"), ("trash_cost", "Trash cost"),
               ("memory_cost", "Memory cost"), ("base_link", "Link"),
               ("minimum_deck_size", "Minimum deck size"), ("influence_limit", "Influence limit"),
               ("influence_cost", "Influence"))


def card_facts(sec: Section) -> list[tuple[str, str]]:
    """The card's data as a player says it: ("Type", "Asset"), ("Unique", "Yes")..., not `unique false`."""
    facts = []
    kind = sec.meta_get("type_name") or sec.meta_get("type").replace("_", " ").capitalize()
    if kind:
        facts.append(("Type", kind + (": " + " - ".join(sec.meta_get("subtypes").split("|"))
                                      if sec.meta_get("subtypes") else "")))
    if sec.meta_get("side"):
        facts.append(("Side", sec.meta_get("side").capitalize()))
    if sec.meta_get("faction_name") or sec.meta_get("faction"):
        facts.append(("Faction", sec.meta_get("faction_name") or sec.meta_get("faction")))
    facts.append(("Unique", "Yes" if sec.meta_get("unique") == "true" else "No"))
    if sec.meta_get("cost"):
        facts.append((_COST_NAME.get(sec.meta_get("type"), "Install cost"), sec.meta_get("cost")))
    facts += [(name, sec.meta_get(key)) for key, name in _FACT_NAMES if sec.meta_get(key)]
    limit = sec.meta_get("deck_limit")
    if limit:
        facts.append(("Deck limit", f"{limit} {'copy' if limit == '1' else 'copies'} per deck"))
    return facts


# ---- a document as a book ------------------------------------------------------------
@dataclass(frozen=True)
class DocumentPage:
    document: Document
    count: int
    sidebar: list[SideNode]
    reading: list[ReadingNode]      # the whole text; empty for a flat, long document (cards)
    toc: list[TocNode]              # the plain contents, for documents shown as a list


def document_page(corpus: Corpus, doc: str) -> DocumentPage | None:
    d = corpus.documents.get(doc)
    if d is None:
        return None
    roots = _roots(corpus, doc)
    reading = [ReadingNode(r, 0, _examples(corpus, r), reading_tree(corpus, r.id, 1)) for r in roots or ()]
    return DocumentPage(d, len(corpus.in_doc(doc)), sidebar(corpus, doc), reading,
                        [] if reading else toc(corpus, doc))


# ---- first run: what is not loaded, and the line that loads it ----------------------
CURRENT_CR_ERA = "nsg"     # the Comprehensive Rules published today (NSG's YAML sources)


@dataclass(frozen=True)
class MissingSource:
    what: str       # "the current Comprehensive Rules (NSG)"
    folder: str     # the placeholder in the build line
    where: str      # where a user gets it


_MISSING_CR = MissingSource(
    "the current Comprehensive Rules (NSG)", "/path/to/nsg-cr",
    "a checkout of NSG's Comprehensive Rules YAML sources (a version folder such as v26.03/, or a folder of them)")
_MISSING_CARDS = MissingSource(
    "the card data and its rulings (NetrunnerDB)", "/path/to/netrunner-cards-json",
    "a checkout of NetrunnerDB's netrunner-cards-json (the folder holding v2/)")


def missing_sources(corpus: Corpus) -> list[MissingSource]:
    """The user sources a judge needs that this build lacks."""
    out = []
    if not any(d.is_cr and d.era == CURRENT_CR_ERA for d in corpus.documents.values()):
        out.append(_MISSING_CR)
    if "cards" not in corpus.documents:
        out.append(_MISSING_CARDS)
    return out


def build_line(missing: list[MissingSource]) -> str:
    """The exact command that adds them: `judgebook build --with ... --with ...`."""
    return "judgebook build" + "".join(f" --with {m.folder}" for m in missing)
