"""Value equality for the constructs of the card language.

A game state holds constructs (a lasting effect's static, a delayed ability, the instructions an ability
is still resolving), so two states are equal only if their constructs are: a scenario saved and loaded
again must give equal states. The loop rule hashes states many times a step, so the hash is remembered.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


class Value:
    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return type(self) is type(other) and isinstance(other, Value) and self._values() == other._values()

    def __hash__(self) -> int:
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((type(self).__qualname__, self._values()))
            object.__setattr__(self, "_hash", cached)
        return int(cached)
