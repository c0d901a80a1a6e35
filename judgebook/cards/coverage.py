"""How much of a format's pool the card language defines: defined, partial and undefined, per side and type."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgebook.cards.definitions import NOT_WRITTEN, Definition, read_definitions
from judgebook.cards.pool import Pool, PoolCard, read_pool
from judgebook.engine.language.nrdb import card_source

STATUSES = ("defined", "partial", "undefined")


@dataclass(frozen=True)
class CardStatus:
    card: PoolCard
    status: str                  # defined | partial | undefined
    missing: str = ""            # what the language lacks, for partial and undefined cards
    definition: Definition | None = None

    def as_dict(self) -> dict[str, str]:
        return {"id": self.card.id, "title": self.card.title, "missing": self.missing}


@dataclass(frozen=True)
class TypeRow:
    side: str
    type: str
    defined: int
    partial: int
    undefined: int

    @property
    def total(self) -> int:
        return self.defined + self.partial + self.undefined


@dataclass(frozen=True)
class Coverage:
    pool: Pool
    cards: tuple[CardStatus, ...]

    def count(self, status: str) -> int:
        return sum(1 for c in self.cards if c.status == status)

    def listed(self, status: str) -> list[CardStatus]:
        return [c for c in self.cards if c.status == status]

    @property
    def percent_defined(self) -> float:
        return 100.0 * self.count("defined") / len(self.cards) if self.cards else 0.0

    def by_type(self) -> list[TypeRow]:
        keys = sorted({(c.card.side, c.card.type) for c in self.cards})
        return [TypeRow(side, ctype, *(sum(1 for c in self.cards if (c.card.side, c.card.type) == (side, ctype)
                                               and c.status == s) for s in STATUSES))
                for side, ctype in keys]

    def as_json(self) -> dict[str, Any]:
        return {"format": self.pool.format, "pool": self.pool.id, "pool_name": self.pool.name,
                "total": len(self.cards), "defined": self.count("defined"),
                "percent_defined": round(self.percent_defined, 1),
                "counts": {status: self.count(status) for status in STATUSES},
                "partial": [c.as_dict() for c in self.listed("partial")],
                "undefined": [c.as_dict() for c in self.listed("undefined")],
                "by_type": [{"side": r.side, "type": r.type, "defined": r.defined, "partial": r.partial,
                             "undefined": r.undefined, "total": r.total} for r in self.by_type()]}

    def lines(self) -> list[str]:
        p = self.pool
        out = [f"{p.format}: pool {p.id} ({p.name}), {len(self.cards)} cards: "
               f"{self.count('defined')} defined ({self.percent_defined:.1f} %), {self.count('partial')} partial, "
               f"{self.count('undefined')} undefined", "",
               f"{'side':<7}{'type':<11}{'defined':>8}{'partial':>8}{'undefined':>10}{'total':>7}"]
        out += [f"{r.side:<7}{r.type:<11}{r.defined:>8}{r.partial:>8}{r.undefined:>10}{r.total:>7}"
                for r in self.by_type()]
        for status in ("partial", "undefined"):
            listed = self.listed(status)
            if listed:
                out += ["", f"{status.capitalize()} ({len(listed)}):"]
                out += [f"  {c.card.id} {c.card.title}: {c.missing}" for c in listed]
        return out


def coverage(pool: Pool, definitions: dict[str, Definition]) -> Coverage:
    """Each pool card's status; a card with no definition file is undefined, "not yet written"."""
    out = []
    for card in pool.cards:
        found = definitions.get(card.id)
        if found is None:
            out.append(CardStatus(card, "undefined", NOT_WRITTEN))
        else:
            out.append(CardStatus(card, found.status, found.missing, found))
    return Coverage(pool, tuple(out))


def format_coverage(nrdb_root: Path, fmt: str, cards_dir: Path) -> Coverage:
    """The coverage of `fmt`'s current pool by the definitions under `cards_dir`, statistics from
    `nrdb_root` (raises PoolError or DefinitionError)."""
    pool = read_pool(nrdb_root, fmt)
    return coverage(pool, read_definitions(cards_dir, card_source(nrdb_root)))
