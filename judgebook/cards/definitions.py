"""The card definitions of a folder (`rules_source/cards/standard/` by default), keyed by NetrunnerDB id.

Every definition is parsed with its statistics joined from NetrunnerDB, so one that does not parse is an
error naming its file, line and field, never a card counted as undefined. A stub `{id, name, undefined:
WHY}` is a card the language cannot define; `partial: WHY` a definition that leaves something out.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.cards import CardDef, library_items, undefined_reason
from judgebook.engine.language.nodes import At, node_line
from judgebook.engine.language.nrdb import CardSource, parse_with_stats
from judgebook.store.paths import project_root

NOT_WRITTEN = "not yet written"


def default_dir() -> Path:
    return project_root() / "rules_source" / "cards" / "standard"


class DefinitionError(Exception):
    """A definition that does not parse (the message names file, line and field)."""


@dataclass(frozen=True)
class Definition:
    id: str
    name: str
    file: str
    line: int
    status: str          # defined | partial | undefined
    missing: str = ""    # what the language lacks (partial, undefined)
    card: CardDef | None = None


def read_definitions(directory: str | Path, source: CardSource | None) -> dict[str, Definition]:
    """id -> definition for every card file under `directory` (none when the folder is missing)."""
    out: dict[str, Definition] = {}
    for file in sorted(Path(directory).glob("*.yaml")):
        try:
            items = library_items(file)
            for i, item in enumerate(items):
                at = At(f"cards[{i}]" if len(items) > 1 else "card", node_line(item, 1))
                found = _definition(item, at, file, source)
                if found.id in out:
                    raise DefinitionError(f"{file}:line {found.line}: id: {found.id!r} is defined twice "
                                          f"(also {out[found.id].file}:line {out[found.id].line})")
                out[found.id] = found
        except ScenarioError as exc:
            exc.file = exc.file or str(file)
            raise DefinitionError(str(exc)) from None
    return out


def _definition(item: object, at: At, file: Path, source: CardSource | None) -> Definition:
    if not isinstance(item, dict) or "id" not in item:
        at.fail("a pool card's definition is keyed by its NetrunnerDB `id`")
    assert isinstance(item, dict)
    line = node_line(item, 1) or 1
    reason = undefined_reason(item)
    if reason is not None:
        extra = sorted(set(item) - {"id", "name", "undefined"})
        if extra:
            at.key(item, extra[0]).fail("an `undefined` stub holds only id, name and undefined")
        if not reason.strip():
            at.key(item, "undefined").fail("`undefined` says what the language lacks")
        return Definition(str(item["id"]), str(item.get("name", "")), str(file), line, "undefined", reason)
    card = parse_with_stats(item, source, at, str(file))
    status = "partial" if card.partial else "defined"
    return Definition(str(card.id), card.name, str(file), line, status, card.partial or "", card)
