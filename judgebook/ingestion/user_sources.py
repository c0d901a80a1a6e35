"""Sources the user points judgebook at (`judgebook build --with PATH`).

Neither the NSG rules YAML nor NetrunnerDB's card data may be shipped with
judgebook, so the user gives a path and we work out what it holds:

- an NSG Comprehensive Rules checkout of one version (`data/input/*.yaml`);
- a folder of several such versions (`v22.12/ v23.08/ v26.03/`);
- a NetrunnerDB cards-json checkout (`v2/cards/*.json`), or its `v2` folder;
- a parent folder holding any of these, up to two levels down.

`detect` says what is there without parsing it; `load` parses one source.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from judgebook.ingestion import nrdb, nsg_yaml
from judgebook.ingestion.errors import ParseError
from judgebook.model import Document, Section

KIND_CR = "nsg-cr"
KIND_NRDB = "nrdb"

# Effective dates of the released versions (../shared/corpora/README.md), for
# checkouts whose config.yaml does not say (only v26.03 has one).
KNOWN_EFFECTIVE = {"22.12": "2022-12-12", "23.08": "2023-08-07", "26.03": "2026-03-02"}

# Display order after the shipped documents: CR versions by release (1000 +
# YYMM), then the card data.
ORDER_CR = 1000
ORDER_CARDS = 9000

_VERSION_DIR = re.compile(r"^v?(\d{2})\.(\d{2})$")


class UserSourceError(ValueError):
    """A path that holds nothing judgebook can read, or holds it ambiguously."""


@dataclass(frozen=True)
class UserSource:
    kind: str              # KIND_CR | KIND_NRDB
    key: str               # document key: "cr-26.03"; "cards" for NetrunnerDB
    path: Path             # the version folder, or the checkout holding v2/
    origin: str            # the path the user gave
    version: str = ""      # "26.03" for a CR version
    effective: str = ""    # ISO date, "" if unknown

    @property
    def keys(self) -> tuple[str, ...]:
        """Every document this source yields."""
        return (nrdb.CARDS_DOC, nrdb.RULINGS_DOC) if self.kind == KIND_NRDB else (self.key,)


# ---- detection ------------------------------------------------------------------

def is_cr_version(p: Path) -> bool:
    inp = p / "data" / "input"
    return inp.is_dir() and any(inp.glob("[0-9][0-9]_*.yaml"))


def nrdb_checkout(p: Path) -> Path | None:
    """The checkout folder (the one holding v2/) if `p` is a checkout or its v2 folder."""
    if (p / "v2" / "cards").is_dir():
        return p
    if p.name == "v2" and (p / "cards").is_dir():
        return p.parent
    return None


def detect(path: str | Path) -> list[UserSource]:
    """The sources under `path`, CR versions oldest first, then card data."""
    origin = str(path)
    p = Path(path).expanduser()
    if not p.exists():
        raise UserSourceError(f"{origin}: no such file or folder")
    if not p.is_dir():
        raise UserSourceError(f"{origin}: expected a folder (an NSG rules checkout or "
                              f"netrunner-cards-json), found a file")
    try:
        found = _here(p, origin) or _below(p, origin)
    except OSError as exc:
        raise UserSourceError(
            f"{origin}: cannot read {exc.filename or p}: {exc.strerror}") from None
    if not found:
        raise UserSourceError(
            f"{origin}: found neither NSG Comprehensive Rules YAML (data/input/NN_*.yaml, "
            f"or version folders like v26.03/ holding it) nor NetrunnerDB card data "
            f"(v2/cards/*.json)")
    _check_unique(found)
    return sorted(found, key=lambda s: (s.kind != KIND_CR, s.effective or "9999", s.key))


def _here(p: Path, origin: str) -> list[UserSource]:
    if is_cr_version(p):
        return [cr_source(p, origin)]
    checkout = nrdb_checkout(p)
    return [UserSource(KIND_NRDB, nrdb.CARDS_DOC, checkout, origin)] if checkout else []


def _below(p: Path, origin: str) -> list[UserSource]:
    """Sources one or two levels down (corpora/nsg-cr/v26.03)."""
    found: list[UserSource] = []
    for child in _subdirs(p):
        found += _here(child, origin) or [s for g in _subdirs(child) for s in _here(g, origin)]
    return found


def _subdirs(p: Path) -> list[Path]:
    return sorted(c for c in p.iterdir() if c.is_dir() and not c.name.startswith("."))


def _check_unique(found: list[UserSource]) -> None:
    seen: dict[str, Path] = {}
    for s in found:
        if s.key in seen:
            raise UserSourceError(
                f"{s.origin}: two sources for {s.key}: {seen[s.key]} and {s.path}")
        seen[s.key] = s.path


def cr_source(p: Path, origin: str) -> UserSource:
    config = config_date(p)
    version = version_of(p, config)
    effective = config if config and config[2:7].replace("-", ".") == version else ""
    return UserSource(KIND_CR, f"cr-{version}", p, origin, version,
                      effective or KNOWN_EFFECTIVE.get(version, ""))


def version_of(p: Path, config: str) -> str:
    """The version ("26.03") from the folder name (v26.03), else from config.yaml's date."""
    m = _VERSION_DIR.match(p.name)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    if config:
        return f"{config[2:4]}.{config[5:7]}"
    raise UserSourceError(f"{p}: cannot tell which CR version this is: name the folder after "
                          f"its release (e.g. v26.03) or keep its config.yaml")


def config_date(p: Path) -> str:
    """The effective date in config.yaml (`date: {year, month, day}`), ISO, or ""."""
    path = p / "config.yaml"
    if not path.exists():
        return ""
    text = path.read_text("utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        raise nsg_yaml.yaml_error(exc, str(path), text) from None
    date = data.get("date") if isinstance(data, dict) else None
    if not isinstance(date, dict):
        return ""
    try:
        return f"{int(date['year']):04d}-{int(date['month']):02d}-{int(date['day']):02d}"
    except (KeyError, TypeError, ValueError):
        raise ParseError(str(path), 0, "date: {year, month, day} as numbers", str(date)) from None


# ---- loading ----------------------------------------------------------------------

def load(source: UserSource) -> tuple[list[Document], list[Section]]:
    if source.kind == KIND_CR:
        return load_cr(source)
    if source.kind == KIND_NRDB:
        return load_nrdb(source)
    raise UserSourceError(f"{source.origin}: unknown source kind {source.kind!r}")


def load_cr(source: UserSource) -> tuple[list[Document], list[Section]]:
    root = source.path
    files = sorted((root / "data" / "input").glob("[0-9][0-9]_*.yaml"))
    chapters = [_source_file(root, p) for p in files if not p.name.startswith("00_")]
    with _full_paths(root):
        sections = nsg_yaml.parse_version(chapters, source.key, changelogs(root, source.version))
    doc = Document(key=source.key, title="Netrunner Comprehensive Rules (Null Signal Games)",
                   edition=source.version, effective=source.effective, era="nsg",
                   parser=nsg_yaml.PARSER, source=str(root), origin=source.origin,
                   is_cr=True, order=ORDER_CR + _version_rank(source.version))
    return [doc], sections


def changelogs(root: Path, version: str) -> list[tuple[str, nsg_yaml.SourceFile]]:
    """(version, file) pairs: data/changelogs/YY.MM.yaml, or the older 00_changelog.yaml.

    `XX.XX.yaml` is the template for the next release, not a changelog.
    """
    folder = root / "data" / "changelogs"
    found = [(p.stem, _source_file(root, p)) for p in sorted(folder.glob("*.yaml"))
             if _VERSION_DIR.match(p.stem)] if folder.is_dir() else []
    old = root / "data" / "input" / "00_changelog.yaml"
    if old.exists():
        found.append((version, _source_file(root, old)))
    return found


def load_nrdb(source: UserSource) -> tuple[list[Document], list[Section]]:
    with _full_paths(source.path):
        cards, rulings = nrdb.load(source.path / "v2", root=source.path)
    common: dict[str, Any] = dict(era="nsg", parser=nrdb.PARSER, source=str(source.path), origin=source.origin)
    docs = [Document(key=nrdb.CARDS_DOC, title="NetrunnerDB cards",
                     order=ORDER_CARDS, **common),
            Document(key=nrdb.RULINGS_DOC, title="NetrunnerDB card rulings",
                     order=ORDER_CARDS + 1, **common)]
    return docs, cards + rulings


def _source_file(root: Path, path: Path) -> nsg_yaml.SourceFile:
    return nsg_yaml.SourceFile(str(path.relative_to(root)), path.read_text("utf-8"))


def _version_rank(version: str) -> int:
    return int(version.replace(".", "")) if version.replace(".", "").isdigit() else 0


@contextmanager
def _full_paths(root: Path) -> Iterator[None]:
    """Re-raise a ParseError with the file's full path: provenance keeps paths
    relative to the source, but the user must be able to open the bad file."""
    try:
        yield
    except ParseError as exc:
        if Path(exc.file).is_absolute():
            raise
        raise ParseError(str(root / exc.file), exc.line, exc.expected, exc.found) from None
