"""Lookups over all sections, built once per linking pass."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from judgebook.model import Document, Section
from judgebook.numbers import normalise_number, number_key
from judgebook.text import fold

CARDS_DOC = "cards"


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("shes", "ches", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def title_key(name: str) -> str:
    """A title as looked up: folded, every word singular ("Credits - Recurring" = "Credit - Recurring")."""
    return " ".join(_singular(w) for w in fold(name).split())


def title_aliases(s: Section) -> list[str]:
    """Other names a section answers to: "Headquarters (HQ)" is also "Headquarters" and "HQ";
    a glossary entry also answers to its subheadings ("Install Cost" inside "Cost")."""
    if not s.title or s.kind == "example":
        return []
    out = []
    m = re.match(r"^(.*?)\s*\(([^)]+)\)\s*$", s.title)
    if m:
        out += [m.group(1), m.group(2)]
    out += [h.strip() for h in s.meta_get("subheadings").split("|") if h.strip()]
    return out


@dataclass
class LinkContext:
    documents: dict[str, Document]
    sections: list[Section]
    by_id: dict[str, Section] = field(default_factory=dict)
    by_number: dict[tuple[str, str], str] = field(default_factory=dict)
    by_anchor: dict[tuple[str, str], str] = field(default_factory=dict)
    by_title: dict[tuple[str, str], str] = field(default_factory=dict)
    last_number: dict[str, str] = field(default_factory=dict)   # doc -> highest number it has
    cards: dict[str, str] = field(default_factory=dict)         # folded card title -> id
    _docs: dict[str, list[Section]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, documents: list[Document], sections: list[Section]) -> LinkContext:
        ctx = cls({d.key: d for d in documents}, sections)
        last: dict[str, tuple] = defaultdict(tuple)
        for s in sections:
            ctx.by_id[s.id] = s
            if s.anchor:
                ctx.by_anchor.setdefault((s.doc, s.anchor), s.id)
            if s.number:
                canon = normalise_number(s.number) or s.number
                ctx.by_number.setdefault((s.doc, canon), s.id)
                key = number_key(canon)
                if key and key > last[s.doc]:
                    last[s.doc], ctx.last_number[s.doc] = key, canon
            if s.title and s.kind != "example":
                ctx.by_title.setdefault((s.doc, title_key(s.title)), s.id)
            if s.doc == CARDS_DOC and s.kind == "card" and s.title:
                ctx.cards.setdefault(fold(s.title), s.id)
        ctx._add_short_names([s for s in sections if s.doc == CARDS_DOC and s.kind == "card"])
        for s in sections:     # after every real title, so an alias never shadows one
            for alias in title_aliases(s):
                ctx.by_title.setdefault((s.doc, title_key(alias)), s.id)
        return ctx

    def _add_short_names(self, cards: list[Section]) -> None:
        """Identities are called by the name before the colon ("Armand "Geist" Walker",
        "Jinteki Biotech"): that short name is an alias, unless two cards share it."""
        short: dict[str, set[str]] = defaultdict(set)
        for s in cards:
            if ":" in s.title:
                short[fold(s.title.split(":", 1)[0])].add(s.id)
        for name, ids in short.items():
            if len(ids) == 1 and name and name not in self.cards:
                self.cards[name] = next(iter(ids))

    @property
    def cards_loaded(self) -> bool:
        return CARDS_DOC in self.documents

    def newest_cr(self) -> str:
        crs = sorted((d for d in self.documents.values() if d.is_cr), key=lambda d: (d.effective, d.key))
        return crs[-1].key if crs else ""

    def in_doc(self, doc: str) -> list[Section]:
        if doc not in self._docs:
            self._docs[doc] = [s for s in self.sections if s.doc == doc]
        return self._docs[doc]
