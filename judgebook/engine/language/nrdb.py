"""Card statistics from NetrunnerDB (a netrunner-cards-json folder), joined onto card definitions.

A definition states only a card's abilities; its side, type, subtypes, cost, strength, trash cost,
agenda points, advancement requirement, memory cost, link, unique flag, recurring credits and text
come from `v2/cards/*.json` when a card source is loaded. A statistic the definition does state must
agree with NetrunnerDB, or loading fails naming the field and its line: a definition that silently
disagrees with the printed card would give wrong rulings.

The engine imports nothing from the rest of judgebook, so this reads the JSON itself.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.cards import CardDef, load_library, parse_card
from judgebook.engine.language.nodes import At
from judgebook.engine.yamlnodes import LocDict

TYPES = {"corp_identity": "identity", "runner_identity": "identity"}
RECURRING = re.compile(r"(\d+)\[recurring-credit\]")


@dataclass(frozen=True)
class CardStats:
    """One card's printed statistics, as NetrunnerDB gives them (None: the card has no such value)."""

    id: str
    title: str
    side: str
    type: str
    subtypes: tuple[str, ...]
    cost: int | None = None
    strength: int | None = None
    trash_cost: int | None = None
    agenda_points: int | None = None
    advancement_requirement: int | None = None
    memory: int | None = None
    link: int | None = None
    influence: int | None = None
    unique: bool = False
    recurring: int | None = None
    text: str = ""
    faction: str | None = None  # NetrunnerDB's faction id ("anarch", "neutral_runner"): "matches the faction"

    def fields(self) -> dict[str, Any]:
        """The definition keys these statistics give (keys of the card language), absent values left out."""
        out: dict[str, Any] = {"side": self.side, "type": self.type, "unique": self.unique}
        if self.subtypes:
            out["subtypes"] = list(self.subtypes)
        for key in ("cost", "strength", "trash_cost", "agenda_points", "advancement_requirement", "memory",
                    "link", "recurring", "faction"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.text:
            out["text"] = self.text
        return out


class CardSource:
    """Every card of a netrunner-cards-json folder, by id and by title.

    A card is read from its own `v2/cards/<id>.json` when it is first asked for by id: a pool's definitions
    are keyed by id, so loading them reads only their cards (bench/cards.py). Asking by title reads them all,
    once."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.cards_dir = self.root / "v2" / "cards"
        if not self.cards_dir.is_dir():
            raise ScenarioError(f"{self.cards_dir} is not a folder: the card source is a netrunner-cards-json "
                                "checkout", file=str(self.root))
        self._names: dict[str, str] | None = None
        self._by_id: dict[str, CardStats | None] = {}
        self._by_title: dict[str, CardStats] | None = None
        self._stripped: dict[str, str] = {}
        self.damaged: list[str] = []
        self.by_id = _ById(self)

    def stats(self, card_id: str) -> CardStats | None:
        if card_id not in self._by_id:
            file = self.cards_dir / f"{card_id}.json"
            found = None
            if ID.fullmatch(card_id) and file.is_file():
                found = self._read(file)
            self._by_id[card_id] = found
        return self._by_id[card_id]

    def _read(self, file: Path) -> CardStats:
        if self._names is None:
            self._names = _subtype_names(self.root / "v2" / "card_subtypes.json")
        try:
            raw = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ScenarioError(f"{file}: NetrunnerDB card data that cannot be read ({exc})", file=str(file)) from None
        stats = _stats(raw, self._names)
        self._stripped[stats.id] = str(raw.get("stripped_title", stats.title))
        return stats

    @property
    def by_title(self) -> dict[str, CardStats]:
        if self._by_title is None:
            titles: dict[str, CardStats] = {}
            for file in sorted(self.cards_dir.glob("*.json")):
                try:
                    stats = self.stats(file.stem)
                except ScenarioError as exc:
                    # a damaged file is no title to look up: the card is one NetrunnerDB does not know, so its
                    # definition must state its statistics; `damaged` keeps what could not be read
                    self.damaged.append(str(exc))
                    continue
                if stats is None:
                    continue
                titles[stats.title] = stats
                titles.setdefault(self._stripped[stats.id], stats)
            self._by_title = titles
        return self._by_title

    def get(self, title: str) -> CardStats | None:
        return self.by_title.get(title)

    def __len__(self) -> int:
        return len({s.id for s in self.by_title.values()})


ID = re.compile(r"[a-z0-9_]+")


class _ById:
    """`source.by_id.get(id)` / `source.by_id[id]`: one card file read on first use."""

    def __init__(self, source: CardSource) -> None:
        self.source = source

    def get(self, card_id: str) -> CardStats | None:
        return self.source.stats(card_id)

    def __getitem__(self, card_id: str) -> CardStats:
        found = self.source.stats(card_id)
        if found is None:
            raise KeyError(card_id)
        return found

    def __contains__(self, card_id: object) -> bool:
        return isinstance(card_id, str) and self.source.stats(card_id) is not None


def _subtype_names(file: Path) -> dict[str, str]:
    if not file.is_file():
        return {}
    return {str(item["id"]): str(item["name"]).lower() for item in json.loads(file.read_text(encoding="utf-8"))}


def _stats(raw: dict[str, Any], subtype_names: dict[str, str]) -> CardStats:
    ctype = str(raw["card_type_id"])
    text = str(raw.get("text") or "")
    recurring = RECURRING.search(text)
    return CardStats(
        id=str(raw["id"]), title=str(raw["title"]), side=str(raw["side_id"]), type=TYPES.get(ctype, ctype),
        subtypes=tuple(subtype_names.get(s, s.replace("_", " ")) for s in raw.get("subtypes") or ()),
        cost=raw.get("cost"), strength=raw.get("strength"), trash_cost=raw.get("trash_cost"),
        agenda_points=raw.get("agenda_points"), advancement_requirement=raw.get("advancement_requirement"),
        memory=raw.get("memory_cost"), link=raw.get("base_link"), influence=raw.get("influence_cost"),
        unique=bool(raw.get("is_unique")), recurring=int(recurring.group(1)) if recurring else None, text=text,
        faction=raw.get("faction_id"))


_SOURCES: dict[str, CardSource] = {}


def card_source(root: str | Path) -> CardSource:
    """The card source of a folder, read once per process (the files are large and constant)."""
    key = str(Path(root).resolve())
    if key not in _SOURCES:
        _SOURCES[key] = CardSource(root)
    return _SOURCES[key]


STATISTICS = ("side", "type", "subtypes", "cost", "strength", "trash_cost", "agenda_points",
              "advancement_requirement", "memory", "link", "unique", "recurring", "faction")


def join(node: Any, stats: CardStats | None, at: At) -> Any:
    """A definition node with the card's statistics filled in from NetrunnerDB.

    Every statistic the definition states is checked against `stats`: a disagreement is an error naming
    the field and its line. `text` in a definition is the author's summary and is kept. With no `stats`
    (a card NetrunnerDB does not know) the node is returned unchanged and must state its statistics."""
    if stats is None or not isinstance(node, dict):
        return node
    given = stats.fields()
    for key in STATISTICS:
        if key not in node:
            continue
        stated, printed = node[key], given.get(key)
        if key == "link" and stats.type != "identity":
            continue    # a card's `link` is what it provides ("+1 link"); NetrunnerDB's link is an identity's base
        if key == "subtypes" and isinstance(stated, list):
            agree = sorted(str(s).lower() for s in stated) == sorted(printed or [])
        elif key in ("agenda_points", "memory", "link", "recurring") and printed is None:
            agree = stated == 0
        else:
            agree = stated == printed
        if not agree:
            at.key(node, key).fail(f"{key} is {stated!r} here but {printed!r} on the printed card "
                                   f"{stats.title!r} (NetrunnerDB {stats.id}): leave statistics to the card source")
    merged = LocDict(node)
    merged.line = getattr(node, "line", at.line or 0)
    merged.key_lines = dict(getattr(node, "key_lines", {}))
    for key, value in given.items():
        if key not in merged:
            merged[key] = value
            merged.key_lines[key] = merged.line
    return merged


def parse_with_stats(node: Any, source: CardSource | None, at: At, file: str | None = None) -> CardDef:
    """Parse one definition node, its statistics joined from `source` (when loaded)."""
    if source is not None and isinstance(node, dict) and "id" in node:
        stats = source.by_id.get(str(node["id"]))
        if stats is None:
            at.key(node, "id").fail(f"NetrunnerDB has no card with id {node['id']!r}")
        elif str(node.get("name")) != stats.title:
            at.key(node, "name").fail(f"NetrunnerDB {stats.id} is titled {stats.title!r}, not {node.get('name')!r}")
        node = join(node, stats, at)
    elif source is not None and isinstance(node, dict) and "name" in node:
        node = join(node, source.get(str(node["name"])), at)
    return parse_card(node, at, file)


Library = str | Path | list[Path] | tuple[Path, ...]   # a folder, or folders searched in order


def load_with_stats(library_dir: Library, cards_source: str | Path | CardSource | None,
                    names: set[str] | None = None) -> dict[str, CardDef]:
    """Card definitions under a library folder (only `names` when given), statistics from NetrunnerDB.
    Given several folders, the first that defines a name wins (a pool before worked examples)."""
    if isinstance(library_dir, list | tuple):
        found: dict[str, CardDef] = {}
        for folder in library_dir:
            rest = None if names is None else names - set(found)
            if rest is None or rest:
                found = {**load_with_stats(folder, cards_source, rest), **found}
        return found
    source = cards_source if isinstance(cards_source, CardSource) or cards_source is None \
        else card_source(cards_source)
    return load_library(library_dir, names, lambda item, at, file: parse_with_stats(item, source, at, file))

