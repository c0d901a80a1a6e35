"""Rule numbers in NetrunnerDB rulings, which cite the CR in force when they were written.

A ruling of April 2020 saying "step 8.6.4" means CR 1.4's numbering, not
today's, so a number is resolved in the loaded CR version in force on the
ruling's date (or the version the ruling names: "section 9.1.6 in CR 1.4").
Versions between the loaded ones (1.5, 24.x, ...) are not loaded, so a date
alone can still pick the wrong numbering: a resolved target must also share
a content word with the sentence citing it, else the link stays unresolved
and says so. The parser's old run-timing "Step 2.3" links arrive settled.
"""
from __future__ import annotations

import re
from dataclasses import replace

from judgebook.linking.alternatives import context_sentence
from judgebook.linking.context import LinkContext
from judgebook.linking.resolve import NO_SUCH_RULE, resolve_number
from judgebook.model import Link, Section

_NAMED = re.compile(r"\b(?:CR|Comprehensive Rules)\s*v?(\d+\.\d+)\b", re.I)
_CONTENT = re.compile(r"[a-z]{5,}")
_STOP = frozenset({"which", "their", "there", "these", "those", "where", "would", "could", "after",
                   "before", "during", "other", "section", "rules", "about", "under", "being",
                   "while", "still", "since", "because", "cannot", "until"})


def version_for(ctx: LinkContext, ruling: Section) -> str:
    named = _NAMED.search(ruling.text)
    if named and f"cr-{named.group(1)}" in ctx.documents:
        return f"cr-{named.group(1)}"
    date = ruling.provenance.date
    in_force = [d for d in ctx.documents.values() if d.is_cr and d.effective and d.effective <= date]
    return max(in_force, key=lambda d: d.effective).key if in_force and date else ""


def _words(text: str) -> set[str]:
    return {w for w in _CONTENT.findall(text.lower()) if w not in _STOP}


def _about(ctx: LinkContext, target: Section) -> set[str]:
    parent = ctx.by_id.get(target.parent)
    return _words(" ".join((target.title, target.text, parent.title if parent else "")))


def resolve(ctx: LinkContext, ruling: Section, link: Link) -> Link:
    if link.target or link.reason:
        return link
    settled = _resolve(ctx, ruling, link)
    return settled if settled.target else replace(settled, alternatives=_offer(ctx, ruling, settled))


def _offer(ctx: LinkContext, ruling: Section, link: Link) -> tuple[str, ...]:
    """For a number the CR in force does not hold: the same number in the earliest loaded
    version where the rule is about what the ruling's sentence is about (1.5's numbering,
    which is not loaded, lives on in 22.12), offered as "see ...", never as the link itself."""
    said = _words(context_sentence(ruling.text, link.start, link.end))
    if not said:
        return ()
    for doc in sorted((d for d in ctx.documents.values() if d.is_cr), key=lambda d: (d.effective, d.key)):
        target, _ = resolve_number(ctx, doc.key, link.ref)
        if target and said & _about(ctx, ctx.by_id[target]):
            return (target,)
    return ()


def _resolve(ctx: LinkContext, ruling: Section, link: Link) -> Link:
    doc = version_for(ctx, ruling)
    if not doc:
        return replace(link, reason=f"the ruling ({ruling.provenance.date or 'undated'}) predates "
                                    "every loaded CR version")
    target, reason = resolve_number(ctx, doc, link.ref)
    if not target:
        when = ruling.provenance.date or "its date"
        if reason == NO_SUCH_RULE:
            return replace(link, reason=f"no rule {link.ref} in {doc}, the loaded CR in force on {when}")
        return replace(link, reason=f"{link.ref} is not in {doc}, the loaded CR in force on {when} "
                                    f"(its text stops at {ctx.last_number.get(doc, '?')})")
    said = _words(context_sentence(ruling.text, link.start, link.end))
    if said and not said & _about(ctx, ctx.by_id[target]):
        return replace(link, reason=f"{doc} {link.ref} is about something else: the ruling "
                                    "cites another version's numbering")
    return replace(link, target=target)
