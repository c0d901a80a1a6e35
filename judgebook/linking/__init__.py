"""The linking pass: everything that needs more than one section to know.

`link(documents, sections)` takes the parsers' sections and returns them with
  - prose rule references found and resolved within their own document
    (with the newest CR's counterpart offered when the rule is missing);
  - the parsers' explicit links (YAML refs, glossary Related, wiki Main
    article, 1996 index, terms, cards, subtypes) resolved or given a reason;
  - defined terms and card names linked where they are used;
  - `version` links between the same rule in each CR version.
Backlinks are not stored: `Corpus` derives them from these links.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from judgebook.linking import alternatives, cards, references, resolve, rulings, terms, versions
from judgebook.linking.context import LinkContext
from judgebook.model import LINK_REF, Document, Link, Section

Progress = Callable[[str], None]

RULINGS_DOC = "nrdb-rulings"
FFG_STEP_DOCS = ("glossary",)


def link(documents: list[Document], sections: list[Section],
         outlines: dict[str, dict[str, str]] | None = None,
         progress: Progress | None = None) -> list[Section]:
    """All sections, linked. `outlines`: doc -> number -> title from its table of contents."""
    say = progress or (lambda msg: None)
    # the lookups only read ids, numbers, titles and texts, which linking never changes
    ctx = LinkContext.build(documents, sections)
    sections = [_with_prose_refs(ctx, s) for s in sections]
    sections = [_resolved(ctx, s, outlines or {}) for s in sections]
    say(_count(sections, "links (references, related, index, main article, subtype)",
               lambda k: k not in ("term", "card", "version", "ruling")))
    sections = terms.link_terms(ctx, sections)
    say(_count(sections, "term links", lambda k: k == "term"))
    sections = cards.link_cards(ctx, sections)
    say(_count(sections, "card links", lambda k: k == "card"))
    chains = versions.align_versions(documents, sections)
    sections = versions.add_version_links(sections, chains)
    say(f"versions: {len(chains)} rules aligned across CR versions")
    return sections


def _count(sections: list[Section], what: str, kinds: Callable[[str], bool]) -> str:
    links = [l for s in sections for l in s.links if kinds(l.kind)]
    return f"{what}: {len(links)}, {sum(1 for l in links if l.target)} resolved"


def _scans_prose(ctx: LinkContext, s: Section) -> bool:
    doc = ctx.documents.get(s.doc)
    if doc is None or s.anchor:           # YAML marks its references with {ref:}
        return False
    return doc.is_cr or s.doc == RULINGS_DOC


def _with_prose_refs(ctx: LinkContext, s: Section) -> Section:
    found: list[Link] = []
    if _scans_prose(ctx, s):
        found = references.find_references(s.text)
    elif s.doc in FFG_STEP_DOCS:
        found = references.find_ffg_steps(s.text)
    taken = [(l.start, l.end) for l in s.links if l.start >= 0]
    new = [l for l in found if not any(a < l.end and l.start < b for a, b in taken)]
    return replace(s, links=s.links + tuple(new)) if new else s


def _resolved(ctx: LinkContext, s: Section, outlines: dict[str, dict[str, str]]) -> Section:
    if not s.links:
        return s
    if s.doc == RULINGS_DOC:     # their numbers mean the CR in force when they were written
        links = tuple(rulings.resolve(ctx, s, l) if l.kind == LINK_REF else
                      resolve.resolve_link(ctx, s, l, s.doc) for l in s.links)
    else:
        links = tuple(_alternatives(ctx, s, resolve.resolve_link(ctx, s, l, s.doc), outlines)
                      for l in s.links)
    return replace(s, links=links)


def _alternatives(ctx: LinkContext, s: Section, l: Link, outlines) -> Link:
    newest = ctx.newest_cr()
    if (l.kind != LINK_REF or l.target or l.alternatives or not newest or s.doc == newest
            or "not in this document" not in l.reason or s.doc not in outlines):
        return l
    alts = alternatives.offer(ctx.in_doc(newest), outlines[s.doc], l.ref)
    return replace(l, alternatives=alts) if alts else l
