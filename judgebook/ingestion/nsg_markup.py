"""Inline markup of the NSG Comprehensive Rules YAML, rendered to clean text and links.

The YAML marks its text with curly-brace elements: `{ref:id}` and
`{ref:a,b}` cross-references, `{ref/through:a,b}` ranges, `{term:X}`,
`{card:X}`, `{subtype:X}`, `{product:X}`, `{link:text|url}`, `{curly:c}`
(a literal "{c}"), and `{n}`...`{/n}` around text new in this release.

A reference is rendered the way the published document prints it ("section
6.9", "Rule 1.2.3", "steps 6.9.1 and 6.9.2", "sections 6.3 through 6.8"), so
the renderer needs every anchor's number: `RefInfo`s built from the whole
version. Anchors are matched case-insensitively, as the generator lowercases
the ids it is given (`{ref:Sec_steps_of_a_run}` capitalises "Section").
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from judgebook import symbols
from judgebook.model import LINK_CARD, LINK_REF, LINK_SUBTYPE, LINK_TERM, Link

NO_SUCH_ANCHOR = "no such anchor in this version"


@dataclass(frozen=True)
class RefInfo:
    """What a reference needs to know about its target anchor."""
    anchor: str      # as defined (original case)
    number: str      # printed number, "6.9.2b"
    word: str        # how the document names it: "section" | "rule" | "step"


@dataclass(frozen=True)
class Rendered:
    text: str
    links: tuple[Link, ...] = ()
    terms: tuple[str, ...] = ()      # {term:} texts, in order of appearance
    new: bool = False                # had {n}...{/n} markers


@dataclass
class _Builder:
    """Accumulates text and links; offsets are always into the text so far."""
    doc: str
    refs: Mapping[str, RefInfo]
    parts: list[str] = field(default_factory=list)
    length: int = 0
    links: list[Link] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)
    new: bool = False

    def add(self, text: str) -> tuple[int, int]:
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        return start, self.length

    def add_linked(self, kind: str, ref: str, text: str) -> None:
        start, end = self.add(text)
        self.links.append(Link(kind=kind, ref=ref, text=text, start=start, end=end))


# Like NSG's generator, we tell markup from text by its prefix rather than by
# alternation, so the nested slip `{card:{card:Ashigaru}}` still names Ashigaru.
_MARKUP = re.compile(r"^(?:(?:ref(?:/\w+)?|term|card|subtype|product|link|curly|img):|/?n$)")


def squash_whitespace(raw: str) -> str:
    """YAML block text wraps lines: one newline is a space, a blank line a paragraph."""
    paragraphs = re.split(r"\n\s*\n", raw.strip())
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


def render(raw: str, doc: str, refs: Mapping[str, RefInfo]) -> Rendered:
    """Clean text and links for one text field. `refs` is keyed by lower-case anchor."""
    b = _Builder(doc=doc, refs=refs)
    for piece in re.split(r"[{}]", squash_whitespace(raw)):
        if _MARKUP.match(piece):
            _markup(b, piece)
        else:
            b.add(symbols.normalise(piece))
    return Rendered("".join(b.parts), tuple(b.links), tuple(b.terms), b.new)


def _markup(b: _Builder, piece: str) -> None:
    name, _, value = piece.partition(":")
    if name in ("term", "card", "subtype") and not value.strip():
        # `{card:{card:Ashigaru}}` (a slip in v22.12) splits into an empty
        # `card:` and the real one: the empty one names nothing.
        return
    if piece == "n":
        b.new = True
    elif piece == "/n":
        pass
    elif name == "ref":
        _ref(b, [v.strip() for v in value.split(",")], "and")
    elif name.startswith("ref/"):
        _ref(b, [v.strip() for v in value.split(",")], name[4:])
    elif name == "term":
        b.terms.append(value)
        b.add_linked(LINK_TERM, value, value)
    elif name == "card":
        b.add_linked(LINK_CARD, value, value)
    elif name == "subtype":
        b.add_linked(LINK_SUBTYPE, value, value)
    elif name == "product":
        b.add(value)
    elif name == "link":
        b.add(value.partition("|")[0])
    elif name == "curly":
        b.add("{" + value + "}")
    elif name == "img":
        b.add(symbols.canonical(value) or f"[{value}]")
    else:
        # The generator prints unknown pieces as plain text; so do we.
        b.add(symbols.normalise(piece))


def _ref(b: _Builder, ids: list[str], combiner: str) -> None:
    infos = [b.refs.get(i.lower()) for i in ids]
    first = infos[0]
    word = first.word if first else "rule"
    if ids[0][:1].isupper():
        word = word.capitalize()
    if len(ids) == 1:
        label = f"{word} {first.number}" if first else ids[0]
        start, end = b.add(label)
        b.links.append(_ref_link(b.doc, ids[0], first, label, start, end))
        return
    b.add(f"{word}s ")
    for n, (written, info) in enumerate(zip(ids, infos, strict=True)):
        if n:
            b.add(f" {combiner} " if n == len(ids) - 1 else ", ")
        label = info.number if info else written
        start, end = b.add(label)
        b.links.append(_ref_link(b.doc, written, info, label, start, end))


def _ref_link(doc: str, written: str, info: RefInfo | None, text: str,
              start: int, end: int) -> Link:
    if info is None:
        return Link(kind=LINK_REF, ref=written, text=text, reason=NO_SUCH_ANCHOR,
                    start=start, end=end)
    return Link(kind=LINK_REF, ref=info.anchor, text=text, target=f"{doc}:{info.anchor}",
                start=start, end=end)
