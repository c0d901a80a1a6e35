"""Whether a replay came out as its scenario says, a known mismatch included.

A scenario carrying `mismatch: {wrong, why}` encodes a ruling the engine is known not to reach: it passes
when the outcome misses its `expect`; one that meets it is a stale mismatch (the engine or the ruling was
fixed and the marker is wrong now), and fails.
"""

from __future__ import annotations

from dataclasses import dataclass

from judgebook.engine.scenario.board import Mismatch


@dataclass(frozen=True)
class Verdict:
    stated: bool                         # the scenario has an `expect`
    differences: tuple[str, ...] = ()    # between the outcome and `expect`
    mismatch: Mismatch | None = None

    @property
    def met(self) -> bool:
        return self.stated and not self.differences

    @property
    def stale(self) -> bool:
        return self.mismatch is not None and self.met

    @property
    def passed(self) -> bool:
        """The scenario came out as its file says: `expect` met, or missed where a mismatch is known."""
        return self.stated and (self.met != (self.mismatch is not None))

    def label(self) -> str:
        if not self.stated:
            return "no expectation stated"
        if self.mismatch is not None:
            if self.stale:
                return (f"stale mismatch: the outcome now meets `expect`, so the {self.mismatch.wrong} "
                        f"is not wrong any more (remove `mismatch`)")
            return f"known mismatch: {self.mismatch.wrong}: {self.mismatch.why}"
        return "expectation met" if self.met else "expectation NOT met"


def verdict(stated: bool, differences: list[str] | tuple[str, ...], mismatch: Mismatch | None) -> Verdict:
    return Verdict(stated, tuple(differences) if stated else (), mismatch)
