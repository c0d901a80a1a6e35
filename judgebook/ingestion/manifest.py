"""The manifest of shipped rules documents (`rules_source/manifest.toml`).

Each `[[document]]` table names a document and the file that holds it; several
documents may share one file (the 1996 file holds three). Errors name the
manifest line and the field, so a typo in the manifest reads like a typo.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from judgebook.ingestion.errors import ParseError
from judgebook.model import Document

MANIFEST = "manifest.toml"
REQUIRED = ("key", "title", "parser", "file")
OPTIONAL = ("edition", "effective", "era", "origin")
ERAS = ("onr-1996", "ffg", "nisei", "nsg")
_CR_PARSERS = ("cr_pdf_text", "cr_markdown")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class ManifestEntry:
    document: Document
    file: Path          # absolute path of the source file
    line: int           # line of the entry's [[document]] header in the manifest


def _table_lines(text: str) -> list[int]:
    """1-based line of every `[[document]]` header, in order."""
    return [i for i, line in enumerate(text.splitlines(), 1)
            if line.strip().startswith("[[document]]")]


def _field_line(text: str, start: int, name: str) -> int:
    """The line where `name = ...` appears in the table starting at `start`, else `start`."""
    lines = text.splitlines()
    for i in range(start, len(lines)):   # `start` is 1-based: this begins after the header
        if lines[i].strip().startswith("[["):
            break
        if re.match(rf"\s*{re.escape(name)}\s*=", lines[i]):
            return i + 1
    return start


def load_manifest(source_dir: str | Path) -> list[ManifestEntry]:
    """Read `source_dir/manifest.toml` into entries, in manifest order."""
    source_dir = Path(source_dir)
    path = source_dir / MANIFEST
    name = str(path)
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise ParseError(name, 0, "a readable manifest", str(exc)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = int(m.group(1)) if (m := re.search(r"line (\d+)", str(exc))) else 0
        raise ParseError(name, line, "valid TOML", str(exc)) from None
    tables = data.get("document")
    if not isinstance(tables, list) or not tables:
        raise ParseError(name, 1, "at least one [[document]] table")
    headers = _table_lines(text)
    entries: list[ManifestEntry] = []
    seen: dict[str, int] = {}
    for i, table in enumerate(tables):
        line = headers[i] if i < len(headers) else 0
        entry = _entry(table, i, line, text, name, source_dir)
        key = entry.document.key
        if key in seen:
            raise ParseError(name, line, f"a unique key (\"{key}\" is already used on line {seen[key]})")
        seen[key] = line
        entries.append(entry)
    return entries


def _entry(table: dict, order: int, line: int, text: str, name: str,
           source_dir: Path) -> ManifestEntry:
    for f in REQUIRED + OPTIONAL:
        value = table.get(f, "")
        if not isinstance(value, str):
            raise ParseError(name, _field_line(text, line, f), f"field `{f}` to be a string",
                             repr(value))
    for f in REQUIRED:
        if not table.get(f, "").strip():
            raise ParseError(name, line, f"field `{f}` in this [[document]]")
    era, effective = table.get("era", ""), table.get("effective", "")
    if era and era not in ERAS:
        raise ParseError(name, _field_line(text, line, "era"),
                         f"field `era` to be one of {', '.join(ERAS)}", era)
    if effective and not _DATE.match(effective):
        raise ParseError(name, _field_line(text, line, "effective"),
                         "field `effective` as an ISO date (YYYY-MM-DD)", effective)
    file = source_dir / table["file"]
    if not file.is_file():
        raise ParseError(name, _field_line(text, line, "file"),
                         f"field `file` to name a file in {source_dir}", table["file"])
    doc = Document(
        key=table["key"], title=table["title"], edition=table.get("edition", ""),
        effective=effective, era=era, parser=table["parser"], source=table["file"],
        origin=table.get("origin", ""), is_cr=table["parser"] in _CR_PARSERS, order=order)
    return ManifestEntry(doc, file, line)
