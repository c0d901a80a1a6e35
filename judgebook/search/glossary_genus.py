"""Synonym entries mined from the glossary's own definitions of the zones.

The glossary defines each zone by what it is for its side: "Headquarters
(HQ): This is the Corp's hand of cards.", "Heap: This is the Runner's trash
pile." The rules state zone facts in the generic word ("the number of cards
in a hand is open information"), while a judge asks in the zone's name ("can I
count the cards in HQ"). Each such definition gives one one-way entry: the
zone's names also search the generic word (its genus).

The entries live in synonyms.toml (the one table the server and the static
search both read), marked by a note starting with NOTE_PREFIX; a test checks
that they are exactly what this module mines from rules_source/glossary.md, so
none is hand-written. Print them with
`python -m judgebook.search.glossary_genus rules_source/glossary.md`.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from judgebook.ingestion import glossary_jekyll

NOTE_PREFIX = "mined from the glossary: "
# "This is the Corp's hand of cards." / "This is the Runner's trash pile."
_GENUS = re.compile(r"^This is the (?:Corp|Runner)[’']s ([a-z]+(?: [a-z]+)??)(?: of cards)?\.")
# "Headquarters (HQ)": the entry is named by either.
_NAMES = re.compile(r"\s*[()]\s*")


@dataclass(frozen=True)
class GenusEntry:
    names: tuple[str, ...]      # the zone's names, as the glossary titles it
    genus: str                  # what the definition says it is ("hand", "trash pile")
    definition: str             # the sentence it was read from

    def toml(self) -> str:
        return (f"[[synonym]]\nwords = {json.dumps([n.lower() for n in self.names])}\n"
                f"also = {json.dumps([self.genus])}\n"
                f"note = {json.dumps(NOTE_PREFIX + self.definition, ensure_ascii=False)}\n")


def mine(glossary: Path) -> list[GenusEntry]:
    out = []
    for s in glossary_jekyll.parse(glossary.read_text("utf-8"), glossary.name):
        m = _GENUS.match(s.text) if s.kind != "example" else None
        if m:
            names = tuple(n for n in _NAMES.split(s.title) if n)
            out.append(GenusEntry(names, m.group(1).lower(), m.group(0)))
    return out


if __name__ == "__main__":
    for entry in mine(Path(sys.argv[1])):
        print(entry.toml())
