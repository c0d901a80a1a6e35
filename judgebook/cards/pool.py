"""A format's current card pool, read from the user's NetrunnerDB folder (netrunner-cards-json).

The pool is the newest snapshot's `card_pool_id` of `v2/formats/<format>.json` (what the legality
shown on card pages uses: `ingestion.nrdb.read_formats`); a card is in it when one of its printings
(`v2/printings/*.json`) is in one of the pool's sets. Each member's title, side and type come from its
own `v2/cards/<id>.json`, so only the pool's cards are read.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from judgebook.ingestion import nrdb
from judgebook.ingestion.errors import ParseError

FORMATS = nrdb.LEGALITY_FORMATS
# NetrunnerDB's two identity types are one type here, as in the card language (a side tells them apart).
_TYPES = {"corp_identity": "identity", "runner_identity": "identity"}


class PoolError(Exception):
    """The NetrunnerDB folder cannot give the pool: the message names the file and what is wrong."""


@dataclass(frozen=True)
class PoolCard:
    id: str
    title: str
    side: str
    type: str
    text: str


@dataclass(frozen=True)
class Pool:
    format: str
    id: str                      # the card pool's id, e.g. rotation_2025
    name: str                    # its name, e.g. Seventh Rotation
    cards: tuple[PoolCard, ...]  # by side, then type, then title

    def ids(self) -> frozenset[str]:
        return frozenset(c.id for c in self.cards)


def v2_folder(root: str | Path) -> Path:
    """The `v2` folder of a netrunner-cards-json checkout (the checkout or its v2 folder itself)."""
    root = Path(root)
    v2 = root / "v2" if (root / "v2").is_dir() else root
    if not (v2 / "cards").is_dir() or not (v2 / "formats").is_dir():
        raise PoolError(f"{root}: not a netrunner-cards-json folder (no v2/cards and v2/formats)")
    return v2


def read_pool(root: str | Path, fmt: str) -> Pool:
    """The current pool of format `fmt` (standard, startup or eternal)."""
    if fmt not in FORMATS:
        raise PoolError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    v2 = v2_folder(root)
    try:
        rules = next((r for r in nrdb.read_formats(v2, v2.parent) if r.id == fmt), None)
        if rules is None:
            raise PoolError(f"{v2 / 'formats' / (fmt + '.json')}: missing, so the {fmt} pool is unknown")
        printed = nrdb.card_sets(v2, v2.parent)
    except ParseError as exc:
        raise PoolError(str(exc)) from None
    members = sorted(card for card, sets in printed.items() if sets & rules.sets)
    cards = [_card(v2, card) for card in members]
    cards.sort(key=lambda c: (c.side, c.type, c.title.lower()))
    return Pool(fmt, rules.pool_id, rules.pool_name, tuple(cards))


def _card(v2: Path, card_id: str) -> PoolCard:
    path = v2 / "cards" / f"{card_id}.json"
    try:
        raw = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise PoolError(f"{path}: missing, although v2/printings prints {card_id!r}") from None
    except json.JSONDecodeError as exc:
        raise PoolError(f"{path}:{exc.lineno}: expected valid JSON ({exc.msg})") from None
    try:
        ctype = str(raw["card_type_id"])
        return PoolCard(card_id, str(raw["title"]), str(raw["side_id"]), _TYPES.get(ctype, ctype),
                        nrdb.clean_html(str(raw.get("text") or "")))
    except (KeyError, TypeError) as exc:
        raise PoolError(f"{path}: a card needs title, side_id and card_type_id ({exc})") from None
