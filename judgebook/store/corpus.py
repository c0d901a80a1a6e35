"""The loaded model: every document and section, with lookups by id and number.

Search, web and CLI read this; they never parse documents themselves.
"""
from __future__ import annotations

import difflib
import json
from collections import defaultdict
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from judgebook.model import (
    LINK_VERSION,
    Backlink,
    Document,
    Section,
    document_from_dict,
    section_from_dict,
)
from judgebook.numbers import normalise_number
from judgebook.store import paths
from judgebook.text import fold

NAME_CUTOFF = 0.8          # difflib ratio: "Hostle Infrastructur" finds the card, "Hostile" alone does not
_NAMED_KINDS = ("card", "glossary-entry")


class Corpus:
    generation: Path | None = None      # the generation folder it was loaded from, if any

    def __init__(self, documents: Iterable[Document], sections: Iterable[Section]):
        self.documents: dict[str, Document] = {d.key: d for d in documents}
        self.sections: dict[str, Section] = {s.id: s for s in sections}
        self.generation: Path | None = None     # the index folder it was loaded from

    # ---- loading -------------------------------------------------------
    @classmethod
    def load(cls, root: str | Path | None = None) -> Corpus:
        """Open the current generation of the index (resolved once)."""
        gen = paths.current_generation(root)
        return cls.load_generation(gen)

    @classmethod
    def load_generation(cls, gen: Path) -> Corpus:
        docs = [document_from_dict(d) for d in json.loads((gen / paths.DOCUMENTS).read_text("utf-8"))]
        with open(gen / paths.SECTIONS, encoding="utf-8") as fh:
            secs = [section_from_dict(json.loads(line)) for line in fh if line.strip()]
        corpus = cls(docs, secs)
        corpus.generation = gen
        return corpus

    # ---- lookups -------------------------------------------------------
    def get(self, section_id: str) -> Section | None:
        return self.sections.get(section_id)

    def in_doc(self, doc: str) -> list[Section]:
        return self._by_doc.get(doc, [])

    def by_number(self, doc: str, number: str) -> Section | None:
        canon = normalise_number(number) or number
        return self._by_number.get((doc, canon))

    def cr_versions(self) -> list[Document]:
        """The loaded Comprehensive Rules versions, oldest first."""
        return sorted((d for d in self.documents.values() if d.is_cr),
                      key=lambda d: (d.effective, d.key))

    def newest_cr(self) -> Document | None:
        versions = self.cr_versions()
        return versions[-1] if versions else None

    def lookup(self, ref: str) -> Section | None:
        """An id, `DOC:NUMBER` (cr-1.6:1.16.10b) or a bare number (newest CR that has it)."""
        ref = ref.strip()
        if ref in self.sections:
            return self.sections[ref]
        if ":" in ref:
            doc, _, number = ref.partition(":")
            if doc in self.documents:
                return self.by_number(doc, number) or self.sections.get(f"{doc}:{number}")
            return None
        canon = normalise_number(ref)
        if canon is None:
            return None
        for version in reversed(self.cr_versions()):
            hit = self._by_number.get((version.key, canon))
            if hit:
                return hit
        return None

    def named(self, name: str) -> list[Section]:
        """Cards and glossary entries called `name` (case, accents and punctuation do not matter;
        an identity also answers to the name before its colon), else those whose name is
        closest to it (a typo), best first. Cards come before glossary entries."""
        key = fold(name)
        if not key:
            return []
        exact = self._by_name.get(key)
        if exact:
            return list(exact)
        close = difflib.get_close_matches(key, self._by_name.keys(), n=3, cutoff=NAME_CUTOFF)
        return [s for k in close for s in self._by_name[k]]

    def by_anchor(self, doc: str, anchor: str) -> Section | None:
        return self._by_anchor.get((doc, anchor))

    def children(self, section_id: str) -> list[Section]:
        sec = self.sections.get(section_id)
        return [self.sections[c] for c in sec.children if c in self.sections] if sec else []

    def breadcrumb(self, section_id: str) -> list[Section]:
        """Ancestors, outermost first (the section itself excluded)."""
        out, sec = [], self.sections.get(section_id)
        while sec and sec.parent and sec.parent in self.sections:
            sec = self.sections[sec.parent]
            out.append(sec)
        return out[::-1]

    def neighbours(self, section_id: str) -> tuple[Section | None, Section | None]:
        """Previous and next section in document order."""
        sec = self.sections.get(section_id)
        if not sec:
            return None, None
        seq = self._by_doc[sec.doc]
        i = self._position[section_id]
        return (seq[i - 1] if i > 0 else None, seq[i + 1] if i + 1 < len(seq) else None)

    def backlinks(self, section_id: str) -> list[Backlink]:
        return self._backlinks.get(section_id, [])

    def history(self, section_id: str) -> list[Section]:
        """The same rule in every loaded CR version, oldest version first (itself included)."""
        sec = self.sections.get(section_id)
        if not sec:
            return []
        found = {sec.id: sec}
        for link in sec.links:
            if link.kind == LINK_VERSION and link.target in self.sections:
                found[link.target] = self.sections[link.target]
        order = {d.key: i for i, d in enumerate(self.cr_versions())}
        return sorted(found.values(), key=lambda s: order.get(s.doc, -1))

    # ---- derived indexes (built lazily, once) ---------------------------
    @cached_property
    def _by_doc(self) -> dict[str, list[Section]]:
        out: dict[str, list[Section]] = defaultdict(list)
        for s in self.sections.values():
            out[s.doc].append(s)
        for seq in out.values():
            seq.sort(key=lambda s: s.order)
        return dict(out)

    @cached_property
    def _position(self) -> dict[str, int]:
        return {s.id: i for seq in self._by_doc.values() for i, s in enumerate(seq)}

    @cached_property
    def _by_number(self) -> dict[tuple[str, str], Section]:
        out: dict[tuple[str, str], Section] = {}
        for s in self.sections.values():
            if s.number:
                out.setdefault((s.doc, normalise_number(s.number) or s.number), s)
        return out

    @cached_property
    def _by_name(self) -> dict[str, list[Section]]:
        out: dict[str, list[Section]] = defaultdict(list)
        named = [s for s in self.sections.values() if s.title and s.kind in _NAMED_KINDS]
        named.sort(key=lambda s: (_NAMED_KINDS.index(s.kind), s.doc, s.order))
        for s in named:
            out[fold(s.title)].append(s)
        for s in named:     # after every full name, so a short name never shadows one
            if s.kind == "card" and ":" in s.title:
                short = fold(s.title.split(":", 1)[0])
                if short not in out:
                    out[short].append(s)
        return dict(out)

    @cached_property
    def _by_anchor(self) -> dict[tuple[str, str], Section]:
        return {(s.doc, s.anchor): s for s in self.sections.values() if s.anchor}

    @cached_property
    def _backlinks(self) -> dict[str, list[Backlink]]:
        out: dict[str, list[Backlink]] = defaultdict(list)
        for s in self.sections.values():
            for link in s.links:
                # a YAML {term:} marks its own definition: a section does not refer to itself
                if link.target and link.kind != LINK_VERSION and link.target != s.id:
                    out[link.target].append(Backlink(s.id, link.kind, link.text))
        return dict(out)
