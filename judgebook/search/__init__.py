"""Search over every section: `search(query, limit, filters)` and `complete(prefix)`.

Exports are lazy so that importing the package does not import Whoosh.
"""
from __future__ import annotations

__all__ = ["search", "complete", "SearchResponse", "SearchHit", "Completion", "Filters"]


def __getattr__(name: str):
    if name in __all__:
        from judgebook.search import api
        return getattr(api, name)
    raise AttributeError(f"module 'judgebook.search' has no attribute {name!r}")
