"""The web's view of search: a small adapter over `judgebook.search.api`.

The app talks to any object with `search(query, limit, filters)` and
`complete(prefix, limit)`, so tests can hand it a corpus-only stand-in and
the app never cares where the Whoosh index lives.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import nh3

from judgebook.search import api


@dataclass
class NoResults:
    results: list = field(default_factory=list)
    message: str = ""
    did_you_mean: str = ""
    total: int = 0


class Searcher(Protocol):
    def search(self, query: str, limit: int, filters: dict): ...
    def complete(self, prefix: str, limit: int) -> list: ...


class IndexSearcher:
    """Search over the Whoosh index of one build generation."""

    def __init__(self, index_dir: Path | None):
        self.index_dir = index_dir

    def search(self, query: str, limit: int, filters: dict):
        return api.search(query, limit, filters, index_dir=self.index_dir)

    def complete(self, prefix: str, limit: int) -> list:
        return api.complete(prefix, limit, index_dir=self.index_dir)


def safe_snippet(html: str) -> str:
    """The search snippet's HTML, allowing nothing but its <mark>s."""
    return nh3.clean(html or "", tags={"mark"}, attributes={})
