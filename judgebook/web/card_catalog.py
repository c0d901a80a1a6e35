"""Every card the engine defines, with its printed statistics: what the scenario builder completes over.

The library is a list of folders, the first that defines a name winning (the Standard pool, then the real
cards, then the worked-example cards); statistics and printed text come from the NetrunnerDB folder when
one is known, else from the definition itself. A definition that does not load (a stub, a card the pool
helpers are still writing, a Standard card with no NetrunnerDB folder to give its statistics) is left out:
a scenario naming it would not load either.

Reading every definition costs about a second, so the catalog is kept per process and read again only when
a folder's files change (their names, sizes and times are the key).
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.cards import CardDef, library_items, undefined_reason
from judgebook.engine.language.nodes import At, node_line
from judgebook.engine.language.nrdb import CardSource, parse_with_stats
from judgebook.store.file_stamp import stamp
from judgebook.text import deaccent

_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class CatalogCard:
    """One defined card as the builder shows it while you pick: its definition (statistics joined) and
    the printed text."""

    card: CardDef
    text: str = ""               # the printed text (NetrunnerDB), tags removed
    nrdb_id: str | None = None
    folder: str = ""             # the library folder that defines it

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def type(self) -> str:
        return self.card.type

    @property
    def side(self) -> str:
        return self.card.side

    def line(self) -> str:
        """Its statistics in one line: "ice · code gate · rez 3 · strength 2"."""
        d = self.card
        parts = [d.type + (f": {', '.join(d.subtypes)}" if d.subtypes else "")]
        cost_word = "rez" if d.type in ("ice", "asset", "upgrade") else "cost"
        if d.cost is not None:
            parts.append(f"{cost_word} {d.cost}")
        if d.strength is not None:
            parts.append(f"strength {d.strength}")
        if d.memory:
            parts.append(f"{d.memory} MU")
        if d.advancement_requirement is not None:
            parts.append(f"advance {d.advancement_requirement}, {d.agenda_points} points")
        if d.trash_cost is not None:
            parts.append(f"trash {d.trash_cost}")
        return " · ".join(parts)

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "side": self.side, "type": self.type, "subtypes": list(self.card.subtypes),
                "line": self.line(), "text": self.text, "nrdb_id": self.nrdb_id, "folder": self.folder,
                "partial": self.card.partial}


class Catalog:
    def __init__(self, cards: list[CatalogCard], broken: int) -> None:
        self.cards = sorted(cards, key=lambda c: deaccent(c.name))
        self.by_name = {c.name: c for c in self.cards}
        self.broken = broken          # definitions that did not load (left out)
        self._folded = [(deaccent(c.name), c) for c in self.cards]

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, name: str) -> CatalogCard | None:
        return self.by_name.get(name)

    def find(self, query: str, types: tuple[str, ...] = (), side: str | None = None,
             limit: int = 20, install_on: str | None = None) -> list[CatalogCard]:
        """Cards whose name starts with `query` (then those containing it), of `types` and `side` if given,
        and (`install_on`) only those installed hosted on that kind of card ("ice": Tranquilizer)."""
        q = deaccent(" ".join(query.split()))
        first: list[CatalogCard] = []
        then: list[CatalogCard] = []
        for name, card in self._folded:
            if (types and card.type not in types) or (side and card.side != side):
                continue
            if install_on and card.card.install_on != install_on:
                continue
            if name.startswith(q):
                first.append(card)
            elif q in name:
                then.append(card)
            if len(first) >= limit:
                break
        return (first + then)[:limit]


def _card(item: object, source: CardSource | None, file: Path, i: int, n: int) -> CatalogCard | None:
    if undefined_reason(item) is not None:
        return None
    at = At(f"cards[{i}]" if n > 1 else "card", node_line(item, 1))
    try:
        d = parse_with_stats(item, source, at, str(file))
    except Exception:   # a definition that does not load (or trips a parser bug) is left out, never a 500
        return None
    stats = None
    if source is not None:
        stats = source.by_id.get(d.id) if d.id else source.get(d.name)
    text = stats.text if stats is not None else d.text
    return CatalogCard(d, " ".join(_TAG.sub("", text).split()), stats.id if stats is not None else d.id,
                       file.parent.name)


def read_catalog(folders: list[Path], source: CardSource | None) -> Catalog:
    cards: dict[str, CatalogCard] = {}
    broken = 0
    for folder in folders:
        for file in sorted(folder.glob("*.yaml")):
            try:
                items = library_items(file)
            except (ScenarioError, OSError, UnicodeDecodeError):
                broken += 1
                continue
            for i, item in enumerate(items):
                card = _card(item, source, file, i, len(items))
                if card is None:
                    broken += undefined_reason(item) is None
                    continue
                cards.setdefault(card.name, card)       # the first folder that defines a name wins
    return Catalog(list(cards.values()), broken)


_CACHE: dict[str, Catalog] = {}
_LOCK = threading.Lock()


def catalog(folders: list[Path], source: CardSource | None) -> Catalog:
    """The catalog of `folders`, read again only when one of their files changed."""
    key = stamp(folders, ".yaml", recursive=False, extra=str(source.root) if source is not None else "")
    with _LOCK:
        found = _CACHE.get(key)
        if found is None:
            _CACHE.clear()
            found = _CACHE[key] = read_catalog(folders, source)
        return found


__all__ = ["CatalogCard", "Catalog", "catalog", "read_catalog"]
