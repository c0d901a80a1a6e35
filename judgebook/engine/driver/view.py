"""The game as a driver shows it to a judge: read-only functions of one `Game`.

The web table draws the board and words the options from these, through the engine's face
(`judgebook.engine`), never from `rules/` (issue 18 §4): the numbers as modified (strength,
link, memory), where a run is, each ice's subroutines with what happened to them in the encounter, and
an option in a judge's words ("Makler: break 2 barrier subroutines (2[c])", a pending ability with what
triggered it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from judgebook.engine.language.cards import Ability
from judgebook.engine.language.context import Ctx
from judgebook.engine.language.events import EVENT_PHRASES
from judgebook.engine.language.render import render_ability, render_subroutine
from judgebook.engine.rules.costs import changed_cost
from judgebook.engine.rules.frames import current_encounter, current_run
from judgebook.engine.rules.gained_abilities import find_ability
from judgebook.engine.rules.run import Run
from judgebook.engine.rules.turn import ALLOTTED
from judgebook.engine.rules.values import link, memory_limit, strength, subroutines, unused_memory
from judgebook.engine.state.choice import ChoicePoint, Option
from judgebook.engine.state.model import Game, GameEvent, Pending

__all__ = [
    "ALLOTTED", "OptionWords", "RunAt", "SubroutineMark", "link", "memory_limit", "option_words", "run_at",
    "strength", "subroutine_marks", "unused_memory",
]


# ---- where a run is ----------------------------------------------------------------------
@dataclass(frozen=True)
class RunAt:
    server: str
    position: int                 # ice passed so far, counted from the outermost (the server once all are)
    approached: str | None        # the ice being approached
    encountered: str | None       # the ice being encountered
    passed: tuple[str, ...]       # the ice this run has passed, outermost first
    vacated: str | None = None    # the ice that left the Runner's position (rules/positions.py): they stay there


def run_at(g: Game) -> RunAt | None:
    run = current_run(g)
    if run is None:
        return None
    enc = current_encounter(g)
    passed = tuple(str(f.event.get("ice")) for f in g.history
                   if f.run == run.seq and f.event.name == "pass_ice")
    return RunAt(server=run.server, position=run.position, approached=run.approached,
                 encountered=enc.ice if enc is not None else None, passed=passed, vacated=run.vacated)


# ---- subroutines and what happened to them ---------------------------------------------
@dataclass(frozen=True)
class SubroutineMark:
    n: int                        # 1-based, as the break options and the timeline number them
    text: str                     # the engine's reading of it, "end the run"
    state: str = ""               # "unbroken" | "broken" | "resolved" | "ended the run" | "" (not met lately)
    by: str = ""                  # what broke it
    current: bool = False         # the marks belong to the encounter in progress (else to the last one)


def subroutine_marks(g: Game, ice: str) -> tuple[SubroutineMark, ...]:
    """The ice's subroutines, each marked as the latest encounter with it this turn left it: broken (and by
    what), resolved, ended the run, or unbroken. An encounter of an earlier run than the one in progress
    marks nothing (it is history, not the board)."""
    subs = subroutines(g, ice)
    facts = _last_encounter(g, ice)
    if facts is None:
        return tuple(SubroutineMark(i + 1, _sub_text(s)) for i, s in enumerate(subs))
    start, seq, run_seq, events, current = facts
    broken: dict[int, str] = {}
    resolved: list[int] = []
    for ev in events:
        if ev.name == "subroutine_broken" and ev.get("encounter_seq") == seq:
            broken[int(ev.get("subroutine"))] = str(ev.get("by") or "")
        elif ev.name == "subroutine_resolved" and ev.get("ice") == ice:
            resolved.append(int(ev.get("subroutine")))
    ender = resolved[-1] if resolved and _ended_by_subroutine(g, run_seq, start) else None
    marks = []
    for i, s in enumerate(subs, 1):
        state = "broken" if i in broken else "ended the run" if i == ender else \
            "resolved" if i in resolved else "unbroken"
        marks.append(SubroutineMark(i, _sub_text(s), state, broken.get(i, ""), current))
    return tuple(marks)


def _sub_text(sub: Any) -> str:
    return _credits(render_subroutine(sub).removeprefix("[subroutine] "))


def _credits(text: str) -> str:
    """"1[c]": a number and its credit symbol together, as printed cards write them."""
    return re.sub(r"(\d+|X) \[c\]", r"\1[c]", text)


def _last_encounter(g: Game, ice: str) -> tuple[int, int, int, list[GameEvent], bool] | None:
    """The latest encounter with `ice` this turn: where it starts in the history, its number, its run's,
    the events from its start, and whether it is in progress."""
    start = next((i for i in range(len(g.history) - 1, -1, -1)
                  if g.history[i].event.name == "encounter_ice" and g.history[i].event.get("ice") == ice), None)
    if start is None:
        return None
    fact = g.history[start]
    run = current_run(g)
    if run is not None and fact.run != run.seq:
        return None
    seq = int(fact.event.get("encounter_seq"))
    events = []
    for f in g.history[start + 1:]:
        if f.event.name == "encounter_ends" and f.event.get("encounter_seq") == seq:
            break
        events.append(f.event)
    enc = current_encounter(g)
    return start, seq, fact.run, events, enc is not None and enc.seq == seq


def _ended_by_subroutine(g: Game, run_seq: int, start: int) -> bool:
    """The run ended by "end the run" in the encounter whose start is history fact `start`: no other
    encounter began before the run ended, and it ended so (its `run_ends` event, or its frame while the run
    winds down). Facts after a run ended carry no run number: the first `run_ends` after `start` is this
    run's, runs do not nest."""
    for f in g.history[start + 1:]:
        if f.event.name == "encounter_ice":
            return False
        if f.event.name == "run_ends":
            return bool(f.event.get("ended_by") == "end_the_run")
    frame = next((f for f in reversed(g.stack) if isinstance(f, Run) and f.seq == run_seq), None)
    return bool(frame is not None and frame.ended and frame.ended_by == "end_the_run")


# ---- an option in a judge's words -------------------------------------------------------
@dataclass(frozen=True)
class OptionWords:
    label: str                    # "Makler: break 2 barrier subroutines (2[c])"; the engine's label otherwise
    detail: str = ""              # what this option picks ("subroutine 1: end the run"), or what triggered it


def option_words(g: Game, point: ChoicePoint) -> tuple[OptionWords, ...]:
    """Each option of `point` in a judge's words, in the point's order. A card ability reads as the card
    states it, with its cost as it would be paid now; a pending ability also says what triggered it, so
    two pending instances of one ability are told apart."""
    seen: dict[tuple[str, str, str], int] = {}
    out = []
    for o in point.options:
        d = o.decision
        if d.kind == "use" and isinstance(d.value, str) and d.value in g.cards and d.get("ability"):
            out.append(_use_words(g, o))
        elif d.kind in ("trigger", "decline") and d.get("ability"):
            key = (d.kind, str(d.value), str(d.get("ability")))
            k = seen.get(key, 0)
            seen[key] = k + 1
            out.append(_pending_words(g, o, k))
        else:
            out.append(OptionWords(o.label))
    return tuple(out)


def _name(g: Game, cid: str) -> str:
    card = g.cards.get(cid)
    return card.name if card is not None else cid


def _ability_words(g: Game, cid: str, ab: Ability, priced: bool = True) -> str:
    """The ability as the card states it without its cost, then its cost as paid now: "break 2 barrier
    subroutines (2[c])". Unpriced (a pending ability), without its trigger too: what triggered it is said
    beside it."""
    body = render_ability(replace(ab, cost=None, text="") if priced else replace(ab, cost=None, text="", trigger=None))
    body = _credits(body)
    if not priced or ab.cost is None:
        return body
    owner = g.cards[cid].owner if cid in g.cards else "runner"
    cost = changed_cost(g, ab.cost, Ctx(cid, owner, ab.id)).render()
    return f"{body} ({cost})" if cost else body


def _use_words(g: Game, o: Option) -> OptionWords:
    d = o.decision
    cid = str(d.value)
    ab = find_ability(g, cid, str(d.get("ability")))
    if ab is None:
        return OptionWords(o.label)
    label = f"{_name(g, cid)}: {_ability_words(g, cid, ab)}"
    detail = ""
    picked = d.get("subroutines")
    enc = current_encounter(g)
    if picked and enc is not None:
        subs = subroutines(g, enc.ice)
        named = [f"{n}: {_sub_text(subs[n - 1])}"
                 for n in picked if isinstance(n, int) and 0 < n <= len(subs)]
        detail = f"{_name(g, enc.ice)} subroutine{'s' if len(named) != 1 else ''} " + "; ".join(named)
    if d.get("x") is not None:      # an X break names its X with the subroutines (rules/amounts.py)
        detail = f"X = {d.get('x')}" + (f": {detail}" if detail else "")
    return OptionWords(label, detail)


def _pending_words(g: Game, o: Option, k: int) -> OptionWords:
    """`k`: this is the k-th option of its kind naming this card's ability: the k-th such pending instance
    (a window offers them in the order they became pending)."""
    d = o.decision
    cid, ability = str(d.value), str(d.get("ability"))
    same = [p for p in g.pending if p.card == cid and p.ability == ability]
    p = same[k] if k < len(same) else (same[0] if same else None)
    ab = p.delayed if p is not None and p.delayed is not None else find_ability(g, cid, ability)
    what = _ability_words(g, cid, ab, priced=False) if ab is not None else ability
    verb = "resolve" if d.kind == "trigger" else "do not use"
    detail = _trigger_words(p) if p is not None else ""
    if k and detail:
        # the options are one decision: whichever is picked, the instance pending first goes first
        detail += " (the same choice as the one above: they resolve in the order they became pending)"
    return OptionWords(f"{verb} {_name(g, cid)}: {what}", detail)


def _trigger_words(p: Pending) -> str:
    """What made the ability pending: its event and the event's particulars ("a subroutine is broken:
    Gold Farmer subroutine 2, by Paperclip")."""
    ev = p.event
    fields: list[str] = []
    ice = ev.get("ice") or ev.get("card")
    if ice:
        fields.append(str(ice) + (f" subroutine {ev.get('subroutine')}" if ev.get("subroutine") else ""))
    elif ev.get("subroutine"):
        fields.append(f"subroutine {ev.get('subroutine')}")
    by = ev.get("by") or ev.get("breaker")
    if by:
        fields.append(f"by {by}")
    if ev.get("server") and not ice:
        fields.append(f"on {ev.get('server')}")
    for key in ("amount", "count", "kind"):
        if ev.get(key) is not None:
            fields.append(f"{key} {ev.get(key)}")
    phrase = EVENT_PHRASES.get(ev.name, ev.name.replace("_", " "))
    return "triggered when " + phrase + (f": {', '.join(fields)}" if fields else "")

