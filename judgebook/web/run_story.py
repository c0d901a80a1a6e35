"""The story of a run, told from the timeline's steps (issue 21): routine priority passes folded into one
expandable line, and a summary where each run ends — ice passed, subroutines broken and by what, credits
spent and gained by whom, cards accessed, how it ended.

Works on the plain step data the table renders (`store.citations.timeline_data`): each step's `event`,
`text`, `n` and `words` (what changed, in a player's words: "the Runner loses 1 credit (10 → 9)").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

Step = dict[str, Any]


@dataclass(frozen=True)
class Fold:
    """Consecutive steps: one step, or a routine run of priority passes shown as one line."""

    steps: tuple[Step, ...]
    passes: bool = False

    @property
    def summary(self) -> str:
        who = sorted({str(s.get("player") or "") for s in self.steps} - {""})
        return f"{len(self.steps)} priority passes" + (f" ({' and '.join(who)})" if who else "")


def fold_passes(steps: list[Step]) -> list[Fold]:
    """The steps with each run of two or more consecutive priority passes folded together."""
    out: list[Fold] = []
    run: list[Step] = []

    def flush() -> None:
        if len(run) >= 2:
            out.append(Fold(tuple(run), passes=True))
        else:
            out.extend(Fold((s,)) for s in run)
        run.clear()

    for s in steps:
        if s.get("event") == "pass" and not s.get("warnings"):   # a warning is never folded out of sight
            run.append(s)
            continue
        flush()
        out.append(Fold((s,)))
    flush()
    return out


@dataclass
class RunSummary:
    server: str
    first: int                       # the step the run begins at
    last: int = 0                    # the step it ends at
    ice: list[str] = field(default_factory=list)          # "passed Wall of Static"
    broken: list[str] = field(default_factory=list)       # "Corroder broke Wall of Static subroutine 1"
    fired: list[str] = field(default_factory=list)        # subroutines that resolved / ended the run
    credits: dict[str, int] = field(default_factory=dict)  # side -> net change in credits
    accessed: list[str] = field(default_factory=list)
    ended: str = ""

    def credit_lines(self) -> list[str]:
        return [f"the {side.capitalize()} {'gained' if n > 0 else 'spent'} {abs(n)}[c]"
                for side, n in sorted(self.credits.items()) if n]


_ON = re.compile(r"run on (.+?) begins")
_CREDITS = re.compile(r"\bthe (Runner|Corp)\b[^()]*\bcredits?\b[^()]*\((\d+) → (\d+)\)", re.I)


def runs(steps: list[Step]) -> dict[int, RunSummary]:
    """Each finished run's summary, by the number of the step it ends at."""
    out: dict[int, RunSummary] = {}
    cur: RunSummary | None = None
    for s in steps:
        event, text = str(s.get("event", "")), str(s.get("text", ""))
        if event == "run_begins":
            m = _ON.search(text)
            cur = RunSummary(m.group(1) if m else "a server", int(s["n"]))
        if cur is None:
            continue
        for line in s.get("words") or ():      # "the Runner loses 1 credit (10 → 9)"
            m = _CREDITS.search(str(line))
            if m:
                side = m.group(1).lower()
                cur.credits[side] = cur.credits.get(side, 0) + int(m.group(3)) - int(m.group(2))
        if event == "pass_ice":
            cur.ice.append(text.replace("the Runner passes ", "passed "))
        elif event == "subroutine_broken":
            cur.broken.append(text.replace(" breaks ", " broke ", 1))
        elif event in ("subroutine", "end_the_run"):
            cur.fired.append(text)
        elif event == "accessed" or (event == "access" and "accesses" in text):
            cur.accessed.append(text)
        elif event in ("successful_run", "run_unsuccessful", "jack_out"):
            cur.ended = text
        elif event == "run_ends":
            cur.last = int(s["n"])
            cur.ended = cur.ended or text
            out[cur.last] = cur
            cur = None
    return out
