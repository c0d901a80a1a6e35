"""A session at the judge's table: a scenario text whose `decisions:` are the choices made so far.

Every request carries the session (packed by `session_link`), and this module follows it to its open choice
point (`engine.driver.session`); the server keeps only caches: the sessions it read lately by their decision
prefix (`PREFIXES`, at most 64), so a pick costs one step from the page before it.
Decisions are taken as a scripted replay takes them (a decision
where it fits, the stated default at a point it does not fit) but, unlike a scripted replay, nothing is
assumed after the last one: the session stops at the next choice point (`stop_when_used`).
A decision the rules refuse stops the session at the last legal state, with the rule.
Reading the text: `session_parse`; the download: `session_download`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import current_app

from judgebook.engine import OptionWords, live_mismatch, option_words
from judgebook.engine.driver.script import Outcome
from judgebook.engine.driver.session import PREFIXES
from judgebook.engine.driver.timeline import timeline as make_timeline
from judgebook.engine.errors import ScenarioError
from judgebook.engine.state.choice import ANY_NUMBER, ChoicePoint
from judgebook.linking.rule_map import known
from judgebook.scenario_text import PLAY_HEAD, flow, plain, read_decision
from judgebook.scenario_text import with_decisions as rewrite
from judgebook.store.citations import rule_ref, timeline_data
from judgebook.web.board_view import BoardView, Changes, board, changes, step_boards
from judgebook.web.routes_replay import error_view
from judgebook.web.session_parse import (
    SESSION_FILE,
    Recent,
    card_data,
    library,
    library_stamp,
    parse_text,
    split_decisions,
)

TABLE_HEAD = "# the decisions taken at the judge's table (judgebook /replay/play)\n"
EXPECT_HEAD = ("# expect: where a scripted replay of these decisions ends (`judgebook replay --check` checks it);\n"
               "# after the last decision a replay takes each point's stated default, the table stopped there\n")


# ---- the session -------------------------------------------------------------------
@dataclass(frozen=True)
class OptionView:
    n: int                         # 1-based, as the keys pick it
    label: str                     # in a judge's words (engine.option_words)
    rule: dict[str, Any] | None
    decision: str                  # the decision in the scenario spelling
    detail: str = ""               # what the option picks, or what triggered a pending ability
    default: bool = False
    number: bool = False           # the option asks for a number (a loop's repetitions)
    x: bool = False                # its cost has an X the player names
    pays: bool = False             # it may be paid with credits on cards (`using:`)


@dataclass(frozen=True)
class RefusedView:
    label: str
    reason: str
    rule: dict[str, Any] | None
    later: bool


@dataclass(frozen=True)
class PointView:
    player: str
    kind: str
    prompt: str
    rule: dict[str, Any] | None
    path: tuple[str, ...]
    options: tuple[OptionView, ...]
    refused: tuple[RefusedView, ...]
    credit_cards: tuple[str, ...] = ()     # cards holding credits, for `using:`


@dataclass
class Session:
    text: str
    decisions: list[Any] = field(default_factory=list)   # the session's decisions, as plain data
    scenario: Any = None
    outcome: Outcome | None = None
    error: dict[str, Any] | None = None                   # a malformed text, or a refused decision
    steps: list[dict[str, Any]] = field(default_factory=list)
    board: BoardView | None = None
    last: Changes | None = None                           # what the last decision changed
    point: PointView | None = None
    used: int = 0                                         # decisions used: the legal part of the session

    @property
    def legal(self) -> list[Any]:
        return self.decisions[: self.used]


RECENT = Recent()       # the last sessions read: a choice reads its session twice (the pick that
                         # appends to it, then the page it leads to, which the next pick reads again)


def read(text: str, corpus: Any) -> Session:
    """Parse and replay a session up to its open choice point; never raises on the visitor's input."""
    key = (text, tuple(map(str, library())), str(card_data()), id(corpus), library_stamp())
    hit = RECENT.get(key)
    if hit is None:
        hit = _read(text, corpus)
        RECENT.put(key, hit)
    return hit


def _read(text: str, corpus: Any) -> Session:
    s = Session(text)
    try:
        sc = parse_text(text)
    except ScenarioError as exc:
        s.error = error_view(exc, corpus) | {"kind": "malformed"}
        return s
    except Exception as exc:  # a loader bug must not become a 500 (RecursionError on deep nesting, ...)
        current_app.logger.exception("a session could not be read")
        s.error = {"message": f"the scenario could not be read ({type(exc).__name__})", "kind": "malformed"}
        return s
    s.scenario = sc
    s.decisions = [decision_data(d) for d in sc.decisions]
    try:
        # one `follow` step from the session one decision shorter when it was read lately (the page before
        # this pick): a click costs an advance, not a replay from the start
        out = PREFIXES.follow(_board_key(text), sc).outcome()
    except ScenarioError as exc:
        s.error = error_view(exc, corpus) | {"kind": "malformed"}
        return s
    except Exception as exc:  # an engine bug: say so plainly
        current_app.logger.exception("a session could not be replayed")
        s.error = {"kind": "engine",
                   "message": f"internal engine error while replaying this session: {type(exc).__name__}: "
                              f"{exc} (please report it)"}
        return s
    s.outcome = out
    s.used = out.used[-1] if out.used else 0
    if out.error is not None:
        s.error = error_view(out.error, corpus) | {"kind": "illegal"}
        s.error["file"] = s.error["file"] or SESSION_FILE    # a decision's line: in the session itself
    elif out.limit is not None:
        s.error = {"message": str(out.limit), "rule": rule_ref(corpus, out.limit.rule), "kind": "limit"}
    # warnings (issue 19 §4): the rule map's "not yet" rows, partial cards, and a scenario's known mismatch
    # (not compared with `expect` here: the session stops at its open choice point)
    s.steps = timeline_data(make_timeline(sc, out, [], known(live_mismatch(sc.mismatch, None))),
                            corpus)["steps"] if out.states else []
    step_boards(s.steps, out, draw=False)
    if out.states:
        g = out.final
        s.board = board(g)
        if len(out.states) > 1:
            s.last = changes(out.states[-2], g)
        if g.point is not None and not g.over:
            s.point = point_view(g.point, g, corpus)
    return s


def _board_key(text: str) -> tuple[Any, ...]:
    """What a session's states depend on besides its decisions: the text without them, and the cards read."""
    parts = split_decisions(text)       # a line scan, not a YAML load; None: no decisions block, all is board
    # the board part keeps a blank line for each line of the decisions block, and each rewrite puts its own
    # comment lines above it: without them it is the same board one decision later (comments change no state;
    # a block scalar's line starting with `#` is dropped from the key too, a collision only of display text)
    lines = (parts[0] if parts is not None else text).splitlines()
    board_text = "\n".join(line for line in lines if line.strip() and not line.lstrip().startswith("#"))
    return (board_text, tuple(map(str, library())), str(card_data()), library_stamp())


def decision_data(d: Any) -> dict[str, Any]:
    """A scenario's decision as plain data, every key it was written with (`at:`, `note:`, ...) kept."""
    out: dict[str, Any] = {d.kind: plain(d.value)}
    out.update((k, plain(v)) for k, v in d.params)
    if d.player is not None and not (d.kind == "pass" and d.value == d.player):
        out["player"] = d.player
    if d.note:
        out["note"] = d.note
    return out


def point_view(point: ChoicePoint, g: Any, corpus: Any) -> PointView:
    cache: dict[str, Any] = {}

    def ref(anchor: str) -> Any:
        if anchor not in cache:
            cache[anchor] = rule_ref(corpus, anchor)
        return cache[anchor]

    credit_cards = tuple(c for c, card in g.cards.items() if card.count("credit") > 0)
    try:
        worded = option_words(g, point)
    except Exception:   # a wording bug must not hide the choice: the engine's own labels, and a log line
        current_app.logger.exception("the options could not be worded")
        worded = tuple(OptionWords(o.label) for o in point.options)
    options = []
    for n, (o, words) in enumerate(zip(point.options, worded, strict=True), 1):
        d = o.decision
        options.append(OptionView(
            n=n, label=words.label, detail=words.detail, rule=ref(o.rule), decision=flow(d),
            default=point.default is not None and n - 1 == point.default,
            number=d.value == ANY_NUMBER, x="X[c]" in o.label,
            pays=bool(credit_cards) and d.kind in ("use", "rez", "action", "pay", "trash", "score")))
    refused = tuple(RefusedView(r.label, r.reason, ref(r.rule), r.later) for r in point.refused)
    return PointView(player=point.player, kind=point.kind, prompt=point.prompt, rule=ref(point.rule),
                     path=tuple(point.path), options=tuple(options), refused=refused, credit_cards=credit_cards)


# ---- the next sessions ---------------------------------------------------------------
class PickError(ValueError):
    """A picked option that cannot be taken as asked (no such option, a bad number, a bad card)."""


def with_decisions(s: Session, decisions: list[Any], expect: str | None = "") -> str:
    text = s.text
    for head in (TABLE_HEAD, PLAY_HEAD, EXPECT_HEAD):   # the comments this rewrite adds are not kept twice
        text = text.replace(head, "")
    return rewrite(text, decisions, head=TABLE_HEAD, expect=expect)


def undo_to(s: Session, keep: int) -> str:
    """The session with its first `keep` decisions (0: none)."""
    return with_decisions(s, s.decisions[: max(0, min(keep, len(s.decisions)))])


def pick(s: Session, n: int, number: str = "", x: str = "", using: list[str] | None = None) -> str:
    """The session with option `n` of its open point appended to its legal decisions."""
    if s.point is None or s.outcome is None or s.outcome.final.point is None:
        raise PickError("no choice is open in this session")
    options = s.outcome.final.point.options
    if not 1 <= n <= len(options):
        raise PickError(f"no option {n} here: choose 1 to {len(options)}")
    d = options[n - 1].decision
    data: dict[str, Any] = plain(d.as_yaml())
    if d.value == ANY_NUMBER:
        data[d.kind] = _whole(number, "the number of repetitions", low=1)
    if x.strip():
        data["x"] = _whole(x, "X", low=0)
    if using:
        unknown = [c for c in using if c not in s.outcome.final.cards]
        if unknown:
            raise PickError(f"no card {unknown[0]!r} in this game")
        data["using"] = list(using)
    if data != plain(d.as_yaml()):
        try:   # through the scenario parser: its checks on every key
            read_decision(data)
        except ScenarioError as exc:
            raise PickError(str(exc)) from None
    return with_decisions(s, [*s.legal, data])


def _whole(text: str, what: str, low: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise PickError(f"{what}: give a whole number") from None
    if not low <= value <= 10_000:
        raise PickError(f"{what}: give a whole number from {low} to 10000")
    return value


__all__ = ["EXPECT_HEAD", "TABLE_HEAD", "PickError", "Session", "pick", "read", "undo_to", "with_decisions"]
