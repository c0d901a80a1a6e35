"""One registry per kind of construct in the card language.

Constructs are compared by identity (`eq=False`), except small values (quantities, costs) that the engine
also builds while playing: a game holds the very objects its card library parsed,
and the loop rule hashes states that hold them many times a step.

A construct is a frozen dataclass that carries its own `parse` (classmethod),
its evaluation and its English `render`, side by side; registering it under a
name is the only other thing needed, so adding a construct touches one place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from judgebook.game.language.nodes import At, single_key


class Construct(Protocol):
    name: str

    def render(self) -> str: ...


T = TypeVar("T")
C = TypeVar("C", bound=type)


class Registry(Generic[T]):
    """Constructs of one kind by name. `modifiers` are keys allowed beside any construct's head
    (they are read by the construct kind's own parser, e.g. `if_able` on instructions)."""

    def __init__(self, kind: str, modifiers: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self.modifiers = modifiers
        self.by_name: dict[str, type] = {}

    def register(self, name: str) -> Callable[[C], C]:
        def add(cls: C) -> C:
            if name in self.by_name:
                raise RuntimeError(f"{self.kind} {name!r} registered twice")
            self.by_name[name] = cls
            cls.name = name  # type: ignore[attr-defined]
            return cls

        return add

    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self.by_name))

    def head(self, node: Any, at: At) -> tuple[type, Any]:
        name, arg = single_key(node, at, tuple(self.by_name), self.modifiers)
        return self.by_name[name], arg

    def parse(self, node: Any, at: At) -> T:
        cls, arg = self.head(node, at)
        name = cls.name  # type: ignore[attr-defined]
        inner = at.key(node, name) if isinstance(node, dict) else at
        return cls.parse(arg, inner)  # type: ignore[attr-defined, no-any-return]
