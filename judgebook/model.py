"""The shared model: documents, sections and the links between them.

Every stage speaks in these records. Parsers produce `Section`s (with the
links their format marks explicitly, such as the YAML's `{ref:}`); the linking
pass adds the links found in prose, resolves every link and fills backlinks;
the store persists them; search, web and CLI read them. Records are frozen so
that a stage can never change what an earlier stage produced behind its back:
use `dataclasses.replace` to derive a new record.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

# Section kinds. Kept as plain strings so JSON output stays readable.
KINDS = (
    "chapter", "section", "rule", "sub-rule", "step", "example",
    "glossary-entry", "page", "ruling", "floor-rule", "card",
)

# Link kinds.
LINK_REF = "ref"            # "See section 8.5", {ref:...}, "rule 1.16.10b"
LINK_RELATED = "related"    # glossary **Related**: lists
LINK_MAIN = "main-article"  # wiki "Main article: X"
LINK_INDEX = "index"        # 1996 rulebook index entries
LINK_TERM = "term"          # a defined term used here
LINK_CARD = "card"          # a card named here
LINK_SUBTYPE = "subtype"    # {subtype:...}
LINK_RULING = "ruling"      # a card's ruling (card -> ruling)
LINK_VERSION = "version"    # the same rule in another CR version
LINK_KINDS = (LINK_REF, LINK_RELATED, LINK_MAIN, LINK_INDEX, LINK_TERM,
              LINK_CARD, LINK_SUBTYPE, LINK_RULING, LINK_VERSION)


@dataclass(frozen=True)
class Document:
    """One loaded document, as the manifest (or a detected user source) describes it."""
    key: str                 # e.g. "cr-1.6", "glossary", "cr-26.03", "cards"
    title: str
    edition: str = ""
    effective: str = ""      # ISO date, "" if unknown
    era: str = ""            # "onr-1996" | "ffg" | "nisei" | "nsg"
    parser: str = ""         # parser name in judgebook.ingestion.registry
    source: str = ""         # file or folder it was read from (original name)
    origin: str = ""         # original file name in ../shared/seeds, or the user path
    is_cr: bool = False      # a Comprehensive Rules version (takes part in alignment)
    order: int = 0           # display order


@dataclass(frozen=True)
class Provenance:
    file: str                # path relative to the source root (or the user path)
    line_start: int = 0      # 1-based, inclusive; 0 when the format has no lines
    line_end: int = 0
    citation: str = ""       # "Page 3, Column 1, Paragraph 4"
    attribution: str = ""    # who ruled: "Tom Wylie", "NSG Rules Team"
    date: str = ""           # ISO date of a ruling
    extra: tuple[tuple[str, str], ...] = ()   # e.g. (("verified", "true"), ("source", "..."))


@dataclass(frozen=True)
class Link:
    """A link from a section to something.

    `ref` is what the source says (a number, an anchor, a title, a card name);
    `target` is the section id it resolves to, or "" with `reason` saying why
    not. `start`/`end` locate `text` inside the owning section's text
    (-1 when the link is not tied to a span, e.g. a Related list).
    `alternatives` offers the same rule elsewhere (e.g. in a newer CR) when
    the target is missing from this document.
    """
    kind: str
    ref: str
    text: str = ""
    target: str = ""
    reason: str = ""
    start: int = -1
    end: int = -1
    alternatives: tuple[str, ...] = ()

    @property
    def resolved(self) -> bool:
        return bool(self.target)


@dataclass(frozen=True)
class Section:
    id: str                  # stable: "cr-26.03:rule_run", "cr-1.6:1.16.10b", "glossary:access"
    doc: str                 # document key
    number: str              # printed number, "" if none ("1.16.10b", "6.9.2")
    title: str               # heading, entry name, card name; "" for bare rules
    kind: str                # one of KINDS
    text: str                # clean text, symbols normalised ([c], [click], ...)
    provenance: Provenance
    parent: str = ""         # section id
    children: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()   # ids of child sections of kind "example"
    links: tuple[Link, ...] = ()
    anchor: str = ""         # the source's own anchor id (YAML), if any
    order: int = 0           # position in document order
    meta: tuple[tuple[str, str], ...] = ()  # small format-specific facts (card type, faction...)

    def meta_get(self, key: str, default: str = "") -> str:
        for k, v in self.meta:
            if k == key:
                return v
        return default


def to_dict(obj: Any) -> dict:
    """JSON-ready dict of a model record (tuples become lists)."""
    return asdict(obj)


def section_from_dict(d: dict) -> Section:
    prov = Provenance(**{**d["provenance"],
                         "extra": tuple(tuple(x) for x in d["provenance"].get("extra", ()))})
    links = tuple(Link(**{**l, "alternatives": tuple(l.get("alternatives", ()))})
                  for l in d.get("links", ()))
    known = {f.name for f in fields(Section)}
    rest = {k: v for k, v in d.items() if k in known and k not in ("provenance", "links")}
    rest["children"] = tuple(rest.get("children", ()))
    rest["examples"] = tuple(rest.get("examples", ()))
    rest["meta"] = tuple(tuple(x) for x in rest.get("meta", ()))
    return Section(provenance=prov, links=links, **rest)


def document_from_dict(d: dict) -> Document:
    known = {f.name for f in fields(Document)}
    return Document(**{k: v for k, v in d.items() if k in known})


@dataclass(frozen=True)
class Backlink:
    """A link seen from its target: `source` (a section id) refers here."""
    source: str
    kind: str
    text: str = ""
