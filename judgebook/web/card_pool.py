"""The card language's coverage on the web: the figures on /cards, and on a card's page whether it is defined,
its printed text beside the engine's rendering, and the scenarios that use it.

The NetrunnerDB folder is the app's `JUDGEBOOK_NRDB` setting, else the one `judgebook build --with` remembered
(as for `judgebook replay` and `judgebook cards coverage`); definitions come from `JUDGEBOOK_POOL_CARDS`, else
rules_source/cards/standard/. Without NetrunnerDB data the pages simply show no figures. Everything is read
once per process and again only when a definition or scenario file changes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from flask import current_app

from judgebook.cards.compare import Mismatch, compare
from judgebook.cards.coverage import Coverage, coverage
from judgebook.cards.definitions import NOT_WRITTEN, DefinitionError, default_dir, read_definitions
from judgebook.cards.pool import FORMATS, PoolError, read_pool
from judgebook.config import ConfigError, card_data, card_library
from judgebook.engine import CardDef
from judgebook.engine.language.nrdb import card_source
from judgebook.engine.language.render import render_card
from judgebook.ingestion.nrdb import clean_html
from judgebook.model import Section
from judgebook.store.file_stamp import stamp
from judgebook.store.paths import project_root
from judgebook.web.card_catalog import catalog

# libyaml's reader where installed: the card pages' scenario index reads every shipped scenario once per
# process, 3 s with the pure-Python reader for 566 files (issue 23's first card page).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class ScenarioRef:
    name: str          # the file's path under rules_source/scenarios/
    title: str
    replay: str | None  # the name /replay/<name> shows it under, when it has a replay page


@dataclass(frozen=True)
class CardPanel:
    status: str                       # defined | partial | undefined
    missing: str                      # why partial / undefined
    printed: str                      # NetrunnerDB's text (plain, symbols as [credit]…)
    rendered: tuple[str, ...]         # the engine's rendering, a line per ability / subroutine
    file: str                         # the definition's file, relative to the project ("": none yet)
    mismatches: tuple[Mismatch, ...]  # where the rendering's structure differs from the printed text
    scenarios: tuple[ScenarioRef, ...]


@dataclass(frozen=True)
class PoolPage:
    reports: tuple[Coverage, ...]     # standard, startup, eternal
    error: str = ""                   # a definition or pool that could not be read


_CACHE: dict[tuple[Any, ...], Any] = {}
OUTSIDE = "not in the engine's card library (a card outside the Standard pool that no scenario needed yet)"


def _nrdb() -> Path | None:
    given = current_app.config.get("JUDGEBOOK_NRDB")
    if given:
        return Path(given)
    try:
        return card_data()
    except ConfigError:
        return None


def _cards_dir() -> Path:
    return Path(current_app.config.get("JUDGEBOOK_POOL_CARDS") or default_dir())


def _scenarios_dir() -> Path:
    return Path(current_app.config.get("JUDGEBOOK_SCENARIOS") or project_root() / "rules_source" / "scenarios")


def _stamp(folder: Path) -> tuple[Any, ...]:
    # os.scandir, not rglob + stat: checked on every card page (pathlib's walk cost ~15 ms a page)
    return (stamp([folder], ".yaml"),)


def _cached(key: tuple[Any, ...], make: Any) -> Any:
    if key not in _CACHE:
        _CACHE.clear() if len(_CACHE) > 16 else None
        _CACHE[key] = make()
    return _CACHE[key]


def _definitions(nrdb: Path) -> dict[str, Any]:
    folder = _cards_dir()
    return _cached(("defs", str(nrdb), str(folder), _stamp(folder)),
                   lambda: read_definitions(folder, card_source(nrdb)))


def pool_page() -> PoolPage | None:
    """The coverage of each format's pool, or None when no NetrunnerDB data is configured."""
    nrdb = _nrdb()
    if nrdb is None:
        return None
    try:
        defs = _definitions(nrdb)
        pools = [_cached(("pool", str(nrdb), fmt), lambda fmt=fmt: read_pool(nrdb, fmt)) for fmt in FORMATS]
    except (PoolError, DefinitionError) as exc:
        return PoolPage((), str(exc))
    return PoolPage(tuple(coverage(pool, defs) for pool in pools))


def card_panel(sec: Section) -> CardPanel | None:
    """The definition side of a card's page (None: not a card, or no NetrunnerDB data)."""
    if sec.kind != "card" or not sec.id.startswith("cards:"):
        return None
    nrdb = _nrdb()
    if nrdb is None:
        return None
    card_id = sec.id.removeprefix("cards:")
    try:
        found = _definitions(nrdb).get(card_id)
    except (PoolError, DefinitionError):
        return None
    stats = card_source(nrdb).by_id.get(card_id)
    printed = clean_html(stats.text) if stats else ""
    if found is None:
        # defined in the rest of the engine's library (the real cards of the shipped rulings, the worked-example
        # cards: Tollbooth), looked up by name as a scenario names it; else a card the engine does not define
        other = _library_card(nrdb, sec.title)
        if other is not None:
            return _panel(other, "partial" if other.partial else "defined", other.partial or "", printed,
                          _relative(other.file or ""), scenarios_using(other.name))
        try:
            pool = _cached(("pool", str(nrdb), "standard"), lambda: read_pool(nrdb, "standard"))
        except PoolError:
            return None
        why = NOT_WRITTEN if card_id in pool.ids() else OUTSIDE
        return CardPanel("undefined", why, printed, (), "", (), scenarios_using(sec.title))
    rendered = tuple(render_card(found.card)) if found.card is not None else ()
    mismatches = tuple(compare(printed, "\n".join(rendered))) if found.card is not None else ()
    back = found.card.back if found.card is not None else None
    if back is not None:  # a double-faced identity: its other face, printed and read, below the first
        title = f"Other side: {back.face_title or back.name}"
        printed += f"\n{title}\n{_face_text(nrdb, card_id)}"
        rendered += (title, *render_card(back))
    return CardPanel(found.status, found.missing, printed, rendered, _relative(found.file), mismatches,
                     scenarios_using(found.name or sec.title))


def _panel(card: CardDef, status: str, missing: str, printed: str, file: str,
           scenarios: tuple[ScenarioRef, ...]) -> CardPanel:
    rendered = tuple(render_card(card))
    return CardPanel(status, missing, printed, rendered, file, tuple(compare(printed, "\n".join(rendered))),
                     scenarios)


def _library_card(nrdb: Path, name: str) -> CardDef | None:
    """The card `name` as the rest of the engine's library defines it (the folders after the Standard pool's,
    which `_definitions` reads: the configured one stands for the shipped one)."""
    standard = {_cards_dir().resolve(), default_dir().resolve()}
    folders = [f for f in card_library(True) if f.resolve() not in standard]
    found = catalog(folders, card_source(nrdb)).get(name)
    return found.card if found is not None else None


def _face_text(nrdb: Path, card_id: str) -> str:
    """The printed text of a card's other face, from its NetrunnerDB file ("" if it has none)."""
    try:
        raw = json.loads((nrdb / "v2" / "cards" / f"{card_id}.json").read_text(encoding="utf-8"))
        faces = raw.get("faces") or [{}]
        return clean_html(str(faces[0].get("text", "")))
    except (OSError, ValueError, AttributeError):
        return ""


def _relative(file: str) -> str:
    try:
        return str(Path(file).resolve().relative_to(project_root()))
    except ValueError:
        return Path(file).name


def scenarios_using(title: str) -> tuple[ScenarioRef, ...]:
    """The scenario files (any folder under rules_source/scenarios/) that name the card anywhere."""
    folder = _scenarios_dir()
    index = _cached(("scenarios", str(folder), _stamp(folder)), lambda: _scenario_index(folder))
    return tuple(index.get(title, ()))


def _scenario_index(folder: Path) -> dict[str, list[ScenarioRef]]:
    out: dict[str, list[ScenarioRef]] = {}
    for path in sorted(folder.rglob("*.yaml")):
        try:
            node = yaml.load(path.read_text("utf-8"), Loader=_LOADER)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue        # a broken scenario is reported by the replay page, not here
        if not isinstance(node, dict):
            continue
        rel = path.relative_to(folder)
        ref = ScenarioRef(str(rel), str(node.get("title", path.stem)),
                          path.stem if len(rel.parts) == 1 else None)
        for name in _names(node):
            refs = out.setdefault(name, [])
            if ref not in refs:
                refs.append(ref)
    return out


def _names(node: Any) -> set[str]:
    """Every string in a scenario that could name a card ("Name" or a copy's "Name#2")."""
    if isinstance(node, str):
        return {node.split("#")[0]}
    if isinstance(node, dict):
        return set().union(*(_names(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(_names(v) for v in node)) if node else set()
    return set()
