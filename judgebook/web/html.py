"""The template helper `h`: section text, labels, icons and diffs as safe HTML.

One per page context: the server's uses absolute URLs, the export makes one
per written file (`at()`), so links come out relative to that file.
"""
from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlencode

from markupsafe import Markup, escape

from judgebook.engine import StepWarning
from judgebook.linking.versions import word_diff
from judgebook.model import Section
from judgebook.store.corpus import Corpus
from judgebook.symbols import SYMBOLS
from judgebook.web import pages, render, run_story
from judgebook.web.searching import safe_snippet
from judgebook.web.urls import Urls, file_slug

# "[recurring]" in a snippet, possibly with the word highlighted: "[<mark>recurring</mark>]"
_SNIPPET_SYMBOL = re.compile(r"\[(<mark>)?(" + "|".join(t[1:-1] for t in SYMBOLS) + r")(</mark>)?\]", re.I)


@lru_cache(maxsize=2048)
def _diff_ops(a: str, b: str) -> tuple:
    """Cached: the export shows each pair of versions on every version's page."""
    return tuple(word_diff(a, b))


class Html:
    def __init__(self, corpus: Corpus, urls: Urls):
        self.corpus = corpus
        self.urls = urls
        self.lookup = render.Lookup(title=self._title_of, definition=self._definition_of)

    def at(self, urls: Urls) -> Html:
        other = Html.__new__(Html)
        other.corpus, other.urls, other.lookup = self.corpus, urls, self.lookup
        return other

    # ---- names -------------------------------------------------------------
    def label(self, sec: Section | None) -> str:
        return pages.label(self.corpus, sec) if sec else ""

    def is_heading(self, sec: Section) -> bool:
        """Its whole text is already its heading (the label says it)."""
        return bool(pages.heading_text(sec))

    def frag(self, sec: Section) -> str:
        """The in-page anchor of a section shown in full on its ancestor's or document's page:
        the source's own anchor, else its number, else (an example) its rule's anchor and its
        own last id part ("1.16.10b-ex1"), else its file-safe id. Unique within a document."""
        if sec.anchor or sec.number:
            return sec.anchor or sec.number
        parent = self.corpus.get(sec.parent)
        if "/" in sec.id and parent is not None and parent.doc == sec.doc:
            return f"{self.frag(parent)}-{file_slug(sec.id.rsplit('/', 1)[1])}"
        return file_slug(sec.id)

    def doc_title(self, key: str) -> str:
        d = self.corpus.documents.get(key)
        if not d:
            return key
        return f"{d.title} {d.edition}".strip() if d.is_cr else d.title

    def doc_short(self, key: str) -> str:
        """Short document name for crumbs and hit lists: "CR 26.03", "Glossary"."""
        d = self.corpus.documents.get(key)
        if d and d.is_cr and d.edition:
            return f"CR {d.edition}"
        if not d:
            return key
        short = d.title.split(" (")[0]
        return short if len(short) >= 12 else d.title   # not "Netrunner" for the 1996 rulebook

    def _title_of(self, section_id: str) -> str:
        sec = self.corpus.get(section_id)
        if not sec:
            return ""
        doc = self.corpus.documents.get(sec.doc)
        prefix = self.doc_short(sec.doc) + " " if doc and doc.is_cr else ""
        return prefix + pages.label(self.corpus, sec)

    def _definition_of(self, section_id: str) -> str:
        """The first paragraph of a section as plain text (glossary HTML reduced to its words)."""
        sec = self.corpus.get(section_id)
        if not sec:
            return ""
        first = sec.text.split("\n\n")[0]
        return render.plain(first) if render.has_html(sec) else first

    # ---- markup ------------------------------------------------------------
    def text(self, sec: Section) -> Markup:
        return render.render_text(sec, self.urls, self.lookup)

    def inline(self, text: str) -> Markup:
        return render.inline(text, self.urls)

    def snippet(self, html: str) -> Markup:
        """A search snippet (escaped text with <mark>s), its symbol tokens as icons."""
        safe = safe_snippet(html)
        return Markup(_SNIPPET_SYMBOL.sub(
            lambda m: (m.group(1) or "") + render.symbol_html("[" + m.group(2).lower() + "]", self.urls)
            + (m.group(3) or ""), safe))

    def extra_links(self, sec: Section):
        return render.unspanned_links(sec)

    def link(self, link) -> Markup:
        """A link not tied to a span (Related, index entry), as its own anchor."""
        inner = str(escape(link.text or link.ref))
        return Markup(render.link_html(link, inner, self.urls, self.lookup))

    def diff(self, a: str, b: str) -> Markup:
        """Word-level diff of a -> b: deletions in <del>, insertions in <ins>."""
        out = []
        for op in _diff_ops(a, b):
            piece = render.inline(op.text, self.urls)
            if op.op == "insert":
                out.append(f"<ins>{piece}</ins>")
            elif op.op == "delete":
                out.append(f"<del>{piece}</del>")
            else:
                out.append(str(piece))
        return Markup("".join(out))

    def situation(self, sec: Section) -> str | None:
        """The builder with this card placed, or a ruling's cards ("set up a situation with this card / for
        this ruling"); None on the static site, which has no table."""
        if self.urls.static_site:
            return None
        if sec.kind == "card":
            cards = [sec.title]
        elif sec.kind == "ruling":
            parent = self.corpus.get(sec.parent) if sec.parent else None
            cards = [parent.title] if parent is not None and parent.kind == "card" else []
            for link in sec.links:
                target = self.corpus.get(link.target) if link.kind == "card" and link.target else None
                if target is not None and target.kind == "card" and target.title not in cards:
                    cards.append(target.title)
        else:
            return None
        if not cards:
            return None
        query = [("card", c) for c in cards[:8]] + ([("ruling", sec.id)] if sec.kind == "ruling" else [])
        return self.urls.page("replay/new") + "?" + urlencode(query)

    def warning(self, w: dict) -> StepWarning:
        """A step's warning read back from its plain data: its label and text are the engine's."""
        return StepWarning(**w)

    def fold_passes(self, steps: list[dict]) -> list[run_story.Fold]:
        return run_story.fold_passes(steps)

    def runs(self, steps: list[dict]) -> dict[int, run_story.RunSummary]:
        return run_story.runs(steps)

    def card_facts(self, sec: Section) -> list[tuple[str, str]]:
        return pages.card_facts(sec)

    def legality(self, sec: Section) -> list[pages.Legality]:
        return pages.legality(sec)

    def meta(self, sec: Section) -> list[tuple[str, str]]:
        """Facts worth showing: "faction_name: Criminal" rather than both it and "faction: criminal"."""
        keys = {k for k, _ in sec.meta}
        return [(k.removesuffix("_name").replace("_", " "), v) for k, v in sec.meta
                if k not in ("changelog", "duplicate_lines") and f"{k}_name" not in keys and v]

    def provenance(self, sec: Section) -> str:
        p = sec.provenance
        where = p.file
        if p.line_start:
            where += f", line {p.line_start}" + (f"–{p.line_end}" if p.line_end > p.line_start else "")
        return where
