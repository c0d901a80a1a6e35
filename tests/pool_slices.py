"""The Standard pool's cards by type, read straight from NetrunnerDB's files (pool, sets, printings):
the slice tests count their cards from here, independently of `judgebook.cards.pool`."""
from __future__ import annotations

import json
from pathlib import Path


def standard_pool_types(cards_root: Path, types: set[str]) -> dict[str, str]:
    """Card id -> card type, for the cards of rotation_2025 whose type is one of `types`."""
    v2 = cards_root / "v2"
    pool = json.loads((v2 / "card_pools" / "standard.json").read_text(encoding="utf-8"))[-1]
    assert pool["id"] == "rotation_2025"
    sets = {s["id"] for s in json.loads((v2 / "card_sets.json").read_text(encoding="utf-8"))
            if s["card_cycle_id"] in pool["card_cycle_ids"]}
    ids = {p["card_id"] for f in (v2 / "printings").glob("*.json")
           for p in json.loads(f.read_text(encoding="utf-8")) if p["card_set_id"] in sets}
    out = {}
    for i in ids:
        ctype = json.loads((v2 / "cards" / f"{i}.json").read_text(encoding="utf-8"))["card_type_id"]
        if ctype in types:
            out[i] = ctype
    return out
