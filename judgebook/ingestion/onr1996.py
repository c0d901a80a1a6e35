"""Parser for the 1996 Netrunner file: three documents in one text.

Lines 1.. up to "Netrunner Rulings, v1.70" are the WotC rulebook with its
glossary and index (`onr-rulebook`); from there to "OFFICIAL NETRUNNER" /
"STANDARD FLOOR RULES" the TRC rulings (`onr-rulings`); the rest the 1998
floor rules (`onr-floor-rules`). Each part has its own module; this one finds
the boundaries and numbers each document's sections in order.
"""
from __future__ import annotations

from dataclasses import replace

from judgebook.ingestion.blocks import IdAllocator
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.onr_floor import parse_floor
from judgebook.ingestion.onr_rulebook import parse_rulebook, resolve_index_links
from judgebook.ingestion.onr_rulings import parse_rulings
from judgebook.model import Section

DOCS = ("onr-rulebook", "onr-rulings", "onr-floor-rules")


def parse(text: str, file: str, doc: str = "onr-rulebook") -> list[Section]:
    """All three documents' sections; `doc` is ignored (the file names its own parts)."""
    lines = text.split("\n")
    rulings_at = _find(lines, file, lambda ln: ln.startswith("Netrunner Rulings, v"),
                       "the rulings title 'Netrunner Rulings, v1.70'")
    floor_at = _find(lines, file, lambda ln: ln == "OFFICIAL NETRUNNER", "the floor rules title 'OFFICIAL NETRUNNER'",
                     start=rulings_at)
    rulebook = resolve_index_links(parse_rulebook(lines[:rulings_at], file, IdAllocator()))
    rulings = parse_rulings(lines[rulings_at:floor_at], rulings_at + 1, file)
    floor = parse_floor(lines[floor_at:], floor_at + 1, file)
    return _ordered(rulebook) + _ordered(rulings) + _ordered(floor)


def _find(lines, file, test, expected, start: int = 0) -> int:
    for i in range(start, len(lines)):
        if test(lines[i].strip()):
            return i
    raise ParseError(file, len(lines), expected, "end of file")


def _ordered(sections: list[Section]) -> list[Section]:
    return [replace(s, order=k) for k, s in enumerate(sections)]
