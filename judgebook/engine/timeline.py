"""What a replay returns: numbered steps and an outcome, as dataclasses and as plain data."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    n: int
    phase: str                           # innermost structure and phase, e.g. "run: encounter ice"
    path: tuple[str, ...]                # full position in the timing structures, outermost first
    event: str                           # short machine name: "pass", "rez", "subroutine", ...
    text: str                            # one line for a person
    rule: str | None                     # CR 26.03 anchor id
    state: dict                          # what changed: key -> [before, after]
    assumed: bool = False                # a default was taken, not a scripted decision
    decision: int | None = None          # 1-based index of the scripted decision used
    player: str | None = None
    ability: str | None = None           # "Card:ability" that begins resolving at this step


@dataclass(frozen=True)
class RunRecord:
    server: str
    successful: bool
    ended_by: str                        # end_the_run | jack_out | complete
    breached: bool


@dataclass(frozen=True)
class Outcome:
    winner: str | None                   # corp | runner | draw | None
    reason: str | None                   # agenda_points | flatline | rnd_empty | card
    stopped: str                         # game over | script complete | loop
    runs: tuple[RunRecord, ...] = ()
    resolved: tuple[str, ...] = ()       # "Card:ability" in the order they resolved
    final: dict = field(default_factory=dict)
    unused_decisions: tuple[int, ...] = ()
    loop: str | None = None              # description when stopped == "loop"


@dataclass(frozen=True)
class Timeline:
    title: str
    source: str
    steps: tuple[Step, ...]
    outcome: Outcome

    def to_dict(self) -> dict[str, Any]:
        out = {"title": self.title, "source": self.source,
               "outcome": asdict(self.outcome), "steps": []}
        for step in self.steps:
            item = asdict(step)
            item["path"] = list(step.path)
            out["steps"].append(item)
        out["outcome"]["runs"] = [asdict(r) for r in self.outcome.runs]
        out["outcome"]["resolved"] = list(self.outcome.resolved)
        out["outcome"]["unused_decisions"] = list(self.outcome.unused_decisions)
        return out
