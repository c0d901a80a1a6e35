"""Defined terms and where they are used.

Definitions come from: a parser's `defines` meta ("A|B"); the YAML's
`{term:}` marks (the bold defining use, so the marked section is the
definition); CR text's capitalised definitions ("A ZONE is a place ...",
an all-caps phrase used once in the document); glossary headings (the FFG
glossary's, and the 1996 rulebook's glossary entries).

Usage links are kept precise and few:
  - whole words only, longest term first, so "credit pool" wins over "credit";
  - never across punctuation: "after all costs have been paid, abilities..."
    is no use of "paid ability", nor "Corp. Cards" of "Corp card";
  - a term is linked at its first use in a section, never in its own definition;
  - within a family (one CR version; the FFG documents; the 1996 documents),
    since terms mean what their own edition defines;
  - a one-word term used in more than 3% of the family's sections ("run",
    "server", "credit") is the game's common vocabulary, not worth a link,
    and is not linked at all; a multi-word term ("paid ability window") is
    specific by construction and is capped at 10%.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from judgebook.linking.context import LinkContext
from judgebook.linking.scan import joined, longest_matches
from judgebook.model import LINK_TERM, Link, Section
from judgebook.text import fold

CAP_WORD = 0.03     # one-word terms: above this share of sections they are the common vocabulary
CAP_PHRASE = 0.10   # multi-word terms are specific by construction; a looser cap
GLOSSARY_ERAS = ("ffg", "onr-1996")
_CAPS = re.compile(r"\b[A-Z][A-Z'’-]*[A-Z](?:\s+[A-Z][A-Z'’-]*[A-Z])*\b")
# all-caps words in the CR texts that are names, not definitions
ACRONYMS = frozenset({"ANDROID", "NETRUNNER", "NISEI", "NBN", "LLDS", "DNA", "HQ", "MU", "AI",
                      "AP", "DJ", "NEXT", "ANDROID: NETRUNNER", "NSG"})
_WORDS = re.compile(r"\w+(?:['’]\w+)?")


@dataclass(frozen=True)
class Term:
    words: tuple[str, ...]   # folded words; the last one as its base (singular) form
    text: str                # as the definition writes it
    section: str             # defining section id


def family(ctx: LinkContext, doc: str) -> str:
    d = ctx.documents.get(doc)
    if d is None:
        return ""
    if d.is_cr:
        return doc
    return d.era if d.era in GLOSSARY_ERAS else ""


def _base(word: str) -> str:
    """Singular of a defined word: "abilities" -> "ability", "zones" -> "zone"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-2] if word.endswith(("shes", "ches", "xes")) else word[:-1]
    return word


def _forms(base: str) -> tuple[str, ...]:
    forms = (base, base + "s", base + "es", base + "ed", base + "d")
    return forms + (base[:-1] + "ies",) if base.endswith("y") else forms


def make_term(text: str, section: str) -> Term | None:
    words = tuple(fold(re.sub(r"\([^)]*\)", " ", text)).split())   # "Headquarters (HQ)"
    if not words or len("".join(words)) < 3:
        return None
    return Term(words[:-1] + (_base(words[-1]),), text, section)


def _matches(token: str, base: str) -> bool:
    return token in _forms(base)


def collect_terms(ctx: LinkContext, sections: list[Section]) -> dict[str, dict[tuple, Term]]:
    """family -> words -> Term (first definition in document order wins)."""
    out: dict[str, dict[tuple, Term]] = defaultdict(dict)
    docs_with_meta = {s.doc for s in sections if s.meta_get("defines")}
    caps = _caps_counts(ctx, sections)
    for s in sorted(sections, key=lambda s: (s.doc, s.order)):
        fam = family(ctx, s.doc)
        if not fam:
            continue
        for text in _definitions(ctx, s, docs_with_meta, caps):
            term = make_term(text, s.id)
            if term is not None:
                out[fam].setdefault(term.words, term)
    return out


def _caps_counts(ctx: LinkContext, sections: list[Section]) -> Counter:
    counts: Counter = Counter()
    for s in sections:
        if ctx.documents.get(s.doc) and ctx.documents[s.doc].is_cr and not s.anchor:
            counts.update((s.doc, m.group(0)) for m in _CAPS.finditer(s.text))
    return counts


def _definitions(ctx: LinkContext, s: Section, docs_with_meta: set, caps: Counter) -> list[str]:
    if s.meta_get("defines"):
        return [t for t in s.meta_get("defines").split("|") if t.strip()]
    found = [l.ref for l in s.links if l.kind == LINK_TERM and l.target in ("", s.id)]
    doc = ctx.documents.get(s.doc)
    if doc and not doc.is_cr and s.kind == "glossary-entry" and s.title:
        found.append(s.title)
    if doc and doc.is_cr and not s.anchor and s.doc not in docs_with_meta and s.kind != "example":
        found += [m.group(0) for m in _CAPS.finditer(s.text)
                  if caps[(s.doc, m.group(0))] == 1 and m.group(0) not in ACRONYMS]
    return found


def _find(text: str, words: list[tuple[str, int, int]],
          index: dict[str, list[Term]]) -> list[tuple[Term, int, int]]:
    """(term, start, end) for each term use, longest first, non-overlapping, never across punctuation."""
    def fits(i: int, term: Term) -> bool:
        n = len(term.words)
        return (all(words[i + k][0] == term.words[k] for k in range(n - 1))
                and _matches(words[i + n - 1][0], term.words[-1])
                and all(joined(text, words[i + k][2], words[i + k + 1][1]) for k in range(n - 1)))
    hits = longest_matches(len(words), lambda i: index.get(words[i][0], ()),
                           lambda t: len(t.words), fits)
    return [(t, words[a][1], words[b][2]) for t, a, b in hits]


def _index(terms: dict[tuple, Term]) -> dict[str, list[Term]]:
    idx: dict[str, list[Term]] = defaultdict(list)
    for t in terms.values():
        idx[t.words[0]].append(t)
        if len(t.words) == 1:   # a one-word term's first word is also its inflected form
            for form in _forms(t.words[0])[1:]:
                idx[form].append(t)
    return idx


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(fold(m.group(0)).replace(" ", ""), m.start(), m.end()) for m in _WORDS.finditer(text)]


def link_terms(ctx: LinkContext, sections: list[Section]) -> list[Section]:
    terms = collect_terms(ctx, sections)
    indexes = {fam: _index(t) for fam, t in terms.items()}
    uses: dict[str, list[tuple[Term, int, int]]] = {}
    spread: Counter = Counter()
    members: Counter = Counter()
    for s in sections:
        fam = family(ctx, s.doc)
        if fam not in indexes:
            continue
        members[fam] += 1
        first: dict[Term, tuple[Term, int, int]] = {}
        for hit in _find(s.text, _tokens(s.text), indexes[fam]):
            if hit[0].section != s.id:
                first.setdefault(hit[0], hit)
        uses[s.id] = list(first.values())
        spread.update((fam, t) for t in first)
    out = []
    for s in sections:
        fam = family(ctx, s.doc)
        keep = [(t, a, b) for t, a, b in uses.get(s.id, ())
                if spread[(fam, t)] <= (CAP_WORD if len(t.words) == 1 else CAP_PHRASE) * members[fam]]
        if keep:
            links = tuple(Link(kind=LINK_TERM, ref=t.text, text=s.text[a:b], target=t.section,
                               start=a, end=b) for t, a, b in sorted(keep, key=lambda h: h[1]))
            s = replace(s, links=s.links + links)
        out.append(s)
    return out
