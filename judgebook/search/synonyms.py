"""The synonym table (synonyms.toml) and where it applies in a query.

The table is data; this module only reads it and finds, in a query's words,
the spans one of its entries names. Words are compared through a `key`
function the caller gives (the search backend's stemmer), so "bits" meets the
entry written "bit" without this module knowing any stemming.
"""
from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

TABLE = Path(__file__).with_name("synonyms.toml")


class SynonymTableError(ValueError):
    """The table is malformed: names the file and the entry."""


@dataclass(frozen=True)
class Synonym:
    words: tuple[tuple[str, ...], ...]   # phrasings that trigger it, split into words
    also: tuple[tuple[str, ...], ...]    # what is searched as well
    note: str = ""


@dataclass(frozen=True)
class Expansion:
    start: int                           # word positions [start, end) in the query
    end: int
    also: tuple[tuple[str, ...], ...]


def load(path: Path = TABLE) -> tuple[Synonym, ...]:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SynonymTableError(f"{path}: {exc}") from None
    entries = data.get("synonym", [])
    out: list[Synonym] = []
    for i, entry in enumerate(entries, 1):
        out.extend(_entry(path, i, entry))
    return tuple(out)


@lru_cache(maxsize=1)
def default_table() -> tuple[Synonym, ...]:
    return load(TABLE)


def _entry(path: Path, i: int, entry: dict) -> list[Synonym]:
    where = f"{path}: synonym entry {i}"
    words, also = entry.get("words"), entry.get("also")
    for name, value in (("words", words), ("also", also)):
        if not isinstance(value, list) or not value or not all(
                isinstance(v, str) and v.strip() for v in value):
            raise SynonymTableError(f"{where}: '{name}' must be a non-empty list of strings")
    unknown = set(entry) - {"words", "also", "both", "note"}
    if unknown:
        raise SynonymTableError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    said, searched = _split(words or ()), _split(also or ())   # both checked above
    forward = Synonym(said, searched, str(entry.get("note", "")))
    if not entry.get("both", False):
        return [forward]
    return [forward, Synonym(searched, said, forward.note)]


def _split(phrases: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(p.lower().split()) for p in phrases)


def expand(words: Sequence[str], key: Callable[[str], str],
           protected: Iterable[int] = (), table: Sequence[Synonym] | None = None,
           ) -> list[Expansion]:
    """Spans of `words` an entry applies to, longest first, never over `protected` positions."""
    table = default_table() if table is None else tuple(table)
    keys = [key(w.lower()) for w in words]
    blocked = set(protected)
    patterns = _patterns(table, key)
    found: dict[tuple[int, int], list[tuple[str, ...]]] = {}
    taken: set[int] = set()
    present = set(keys)
    for pattern, syn in patterns:
        if not set(pattern) <= present:   # most entries: no word of theirs in the query
            continue
        n = len(pattern)
        for start in range(len(keys) - n + 1):
            span = range(start, start + n)
            if tuple(keys[start:start + n]) != pattern or blocked & set(span):
                continue
            if taken & set(span) and (start, start + n) not in found:
                continue
            taken.update(span)
            alts = found.setdefault((start, start + n), [])
            alts.extend(a for a in syn.also if a not in alts)
    return [Expansion(s, e, tuple(a)) for (s, e), a in sorted(found.items())]


@lru_cache(maxsize=8)
def _patterns(table: tuple[Synonym, ...], key: Callable[[str], str]
              ) -> tuple[tuple[tuple[str, ...], Synonym], ...]:
    """Every phrasing of every entry through `key`, longest first (computed once per table)."""
    return tuple(sorted(((tuple(key(w) for w in phrase), syn)
                         for syn in table for phrase in syn.words),
                        key=lambda p: -len(p[0])))
