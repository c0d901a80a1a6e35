"""Choice points: who decides, the legal options with the rule allowing each, the refused ones with
the rule refusing each. A decision is plain data, written as in a scenario's `decisions:` list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.state.fmap import FMap
from judgebook.engine.state.model import Side


@dataclass(frozen=True)
class Decision:
    kind: str  # action | use | rez | score | pass | trigger | decline | pay | ...
    value: Any = None
    params: FMap[str, Any] = FMap()

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    def as_yaml(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.kind: self.value}
        out.update(self.params)
        return out

    def fits(self, wanted: Decision) -> bool:
        """`wanted` (a scripted decision) names this option: same kind and value, and every parameter it
        gives agrees (parameters it leaves out take this option's). How a cost is paid (`x`, `using`) is
        not part of the option: it is checked when the cost is paid."""
        if wanted.kind != self.kind:
            return False
        if self.value == ANY_NUMBER:
            number = isinstance(wanted.value, int) and not isinstance(wanted.value, bool) and wanted.value >= 1
            if not number and wanted.value != ANY_NUMBER:
                return False
        elif not _same(wanted.value, self.value):
            return False
        return all(
            _same(v, self.params.get(k))
            for k, v in wanted.params.items()
            if k not in PAYMENT and (k in self.params or v is not None)
        )

    def with_payment(self, wanted: Decision) -> Decision:
        extra = {k: v for k, v in wanted.params.items() if k in PAYMENT}
        value = wanted.value if self.value == ANY_NUMBER else self.value
        return Decision(self.kind, value, FMap({**self.params, **extra}))


PAYMENT = ("x", "using")
ANY_NUMBER = "*"  # an option taking any whole number from 1 (the loop rule's count)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) or isinstance(b, list | tuple):
        a = a if isinstance(a, list | tuple) else [a]
        b = b if isinstance(b, list | tuple) else [b]
        return [str(x) for x in a] == [str(x) for x in b]
    return bool(a == b or str(a) == str(b))


def decision(kind: str, value: Any = None, **params: Any) -> Decision:
    return Decision(kind, value, FMap({k: v for k, v in params.items() if v is not None}))


@dataclass(frozen=True)
class Option:
    decision: Decision
    label: str
    rule: str  # the anchor of the rule that allows it


@dataclass(frozen=True)
class Refused:
    decision: Decision
    label: str
    rule: str  # the anchor of the rule that refuses it
    reason: str
    later: bool = False  # not here, but it may be legal at a later point


@dataclass(frozen=True)
class ChoicePoint:
    player: Side
    kind: str  # action | priority | reaction | pay | target | discard | ...
    prompt: str
    rule: str
    options: tuple[Option, ...]
    refused: tuple[Refused, ...] = ()
    default: int | None = 0  # the option taken when a script says nothing (None: the replay ends)
    default_reason: str = "default"
    path: tuple[str, ...] = ()

    def find(self, wanted: Decision) -> Option | None:
        return next((o for o in self.options if o.decision.fits(wanted)), None)

    def refusal(self, wanted: Decision) -> Refused | None:
        return next((r for r in self.refused if r.decision.fits(wanted)), None)
