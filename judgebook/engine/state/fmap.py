"""A small immutable mapping: equal and hashable by content, updated by copying.

The game state must be a value (compared whole by the loop rule, kept whole for
undo), so it cannot hold a dict; a tuple of pairs would make every lookup a scan.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FMap(Mapping[K, V], Generic[K, V]):
    __slots__ = ("_d", "_hash")

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        self._d: dict[K, V] = dict(items or {})
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._d[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._d.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FMap):
            return self._d == other._d
        return NotImplemented

    def __repr__(self) -> str:
        return f"FMap({self._d!r})"

    def set(self, key: K, value: V) -> FMap[K, V]:
        d = dict(self._d)
        d[key] = value
        return FMap(d)

    def remove(self, key: K) -> FMap[K, V]:
        d = dict(self._d)
        d.pop(key, None)
        return FMap(d)
