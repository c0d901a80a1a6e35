"""Resolve links to section ids, or say why they cannot be.

A rule number resolves within its own document's numbering (a CR 1.6
reference means CR 1.6's 8.5, never 26.03's). A number past the end of what
the file holds is "not in this document"; a number inside the range that the
file lacks is the source's own slip, "no such rule".
"""
from __future__ import annotations

from dataclasses import replace

from judgebook.linking.context import LinkContext, title_key
from judgebook.model import (
    LINK_CARD,
    LINK_INDEX,
    LINK_MAIN,
    LINK_REF,
    LINK_RELATED,
    LINK_SUBTYPE,
    LINK_TERM,
    Link,
    Section,
)
from judgebook.numbers import normalise_number, number_key
from judgebook.text import fold

NO_SUCH_RULE = "no such rule"
CARDS_NOT_LOADED = "card data not loaded"


def not_in_document(ref: str, last: str) -> str:
    return f"section {ref} is not in this document (it stops at {last})"


def resolve_number(ctx: LinkContext, doc: str, ref: str) -> tuple[str, str]:
    """(target, reason) for a rule number within `doc`."""
    canon = normalise_number(ref) or ref
    target = ctx.by_number.get((doc, canon))
    if target:
        return target, ""
    last = ctx.last_number.get(doc, "")
    if not last:
        return "", "this document has no numbered rules"
    if number_key(canon) > number_key(last):
        return "", not_in_document(canon, last)
    return "", NO_SUCH_RULE


def resolve_link(ctx: LinkContext, section: Section, link: Link, number_doc: str) -> Link:
    """`link` with its target (or reason) filled in.

    A target already set is kept, and so is a reference a parser settled on
    purpose (the rulings' old "Step 2.3"); a title link a parser could not
    resolve on its own is tried again across documents, keeping its reason if
    that fails too.
    """
    if link.target or (link.reason and link.kind == LINK_REF):
        return link
    done = _resolve(ctx, section, link, number_doc)
    if not done.target and link.reason:
        return replace(done, reason=link.reason)
    return done


def _resolve(ctx: LinkContext, section: Section, link: Link, number_doc: str) -> Link:
    link = replace(link, reason="")
    kind = link.kind
    if kind == LINK_REF:
        if (section.doc, link.ref) in ctx.by_anchor:
            return replace(link, target=ctx.by_anchor[(section.doc, link.ref)])
        if section.anchor or not normalise_number(link.ref):
            return replace(link, reason=f"no anchor {link.ref!r} in this version")
        target, reason = resolve_number(ctx, number_doc, link.ref)
        return replace(link, target=target, reason=reason)
    if kind == LINK_CARD:
        return _card(ctx, link)
    if kind == LINK_TERM:
        # the YAML marks a term where it is defined: the definition is the section itself
        return replace(link, target=section.id)
    if kind in (LINK_RELATED, LINK_MAIN, LINK_INDEX):
        return _by_title(ctx, section, link)
    if kind == LINK_SUBTYPE:
        return _subtype(ctx, section, link)
    return link


def _card(ctx: LinkContext, link: Link) -> Link:
    if not ctx.cards_loaded:
        return replace(link, reason=CARDS_NOT_LOADED)
    target = ctx.cards.get(fold(link.ref))
    return replace(link, target=target or "", reason="" if target else f"no card named {link.ref!r}")


def _title_candidates(name: str) -> list[str]:
    """Lookup keys for a title; for "Turn - Corporation's Turn", each side as well."""
    parts = [p for p in name.split(" - ") if p.strip()] if " - " in name else []
    return [title_key(n) for n in [name] + parts]


def _by_title(ctx: LinkContext, section: Section, link: Link) -> Link:
    docs = [section.doc] + _family(ctx, section.doc)
    for doc in docs:
        for cand in _title_candidates(link.ref):
            if (doc, cand) in ctx.by_title:
                return replace(link, target=ctx.by_title[(doc, cand)])
        if (n := normalise_number(link.ref)) and (doc, n) in ctx.by_number:
            return replace(link, target=ctx.by_number[(doc, n)])
    return replace(link, reason=f"no entry titled {link.ref!r}")


def _subtype(ctx: LinkContext, section: Section, link: Link) -> Link:
    for cand in _title_candidates(link.ref):
        if (section.doc, cand) in ctx.by_title:
            return replace(link, target=ctx.by_title[(section.doc, cand)])
    target = ctx.by_title.get((section.doc, title_key("Subtypes")))
    return replace(link, target=target or "", reason="" if target else "no section on subtypes")


def _family(ctx: LinkContext, doc: str) -> list[str]:
    """Other documents of the same era, for cross-document title links (1996 index -> rulings)."""
    era = ctx.documents[doc].era if doc in ctx.documents else ""
    return [k for k, d in ctx.documents.items() if era and d.era == era and k != doc]
