"""A session at the judge's table: a scenario text whose `decisions:` are the choices made so far.

The server keeps nothing: every request carries the session (packed by `session_link`), and this module
replays it to its open choice point. Decisions are taken as a scripted replay takes them (a decision
where it fits, the stated default at a point it does not fit) but, unlike a scripted replay, nothing is
assumed after the last one: the session stops at the next choice point (`replay(stop_when_used=True)`).
A decision the rules refuse stops the session at the last legal state, with the rule.

The card library is the project's whole library (`config.card_library()`), card statistics from the
NetrunnerDB data `judgebook build --with` was given (`config.card_data()`); the app config can name both
(`JUDGEBOOK_LIBRARY`: a list of folders; `JUDGEBOOK_CARD_DATA`: a netrunner-cards-json folder).
"""
from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from flask import current_app

from judgebook.config import ConfigError, card_library
from judgebook.config import card_data as configured_card_data
from judgebook.engine.driver.choice import ANY_NUMBER, ChoicePoint
from judgebook.engine.driver.script import Outcome, check, replay
from judgebook.engine.driver.timeline import timeline as make_timeline
from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.nrdb import parse_scenario
from judgebook.engine.scenario import board as scenario_board
from judgebook.engine.state import queries as q
from judgebook.engine.yamlnodes import load_text
from judgebook.scenario_text import PLAY_HEAD, flow, read_decision
from judgebook.scenario_text import plain as to_plain
from judgebook.scenario_text import with_decisions as rewrite
from judgebook.store.citations import rule_ref, timeline_data
from judgebook.store.paths import project_root
from judgebook.web.board_view import BoardView, Changes, board, changes, step_boards

MAX_STEPS = 2000          # a session cannot raise options.max_steps above the default (as an upload)
SESSION_FILE = "session"  # how errors name the session's text
TABLE_HEAD = "# the decisions taken at the judge's table (judgebook /replay/play)\n"


# ---- the library -------------------------------------------------------------------
def library() -> list[Path]:
    named = current_app.config.get("JUDGEBOOK_LIBRARY")
    if named is not None:
        return [Path(p) for p in named]
    return card_library(card_data() is not None)


def card_data() -> Path | None:
    if "JUDGEBOOK_CARD_DATA" in current_app.config:
        named = current_app.config["JUDGEBOOK_CARD_DATA"]
        return Path(named) if named else None
    try:
        return configured_card_data()
    except ConfigError:
        current_app.logger.warning("judgebook.local.toml cannot be read: no card statistics")
        return None


class _Recent:
    """The last values computed from a text (least recently used out first). Only a cache: the text, and the
    library and card data it was read with, are the key."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self.items: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Any:
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)


BOARDS = _Recent(16)


def parse_text(text: str, file: str = SESSION_FILE) -> Any:
    """A scenario from a text a visitor sent, read as an upload is: the bounded YAML loader, the table's
    library, max_steps capped. ScenarioError on anything wrong with it.

    A session's clicks change only its `decisions:`; the rest (board, cards) is parsed once and kept
    (BOARDS), the decisions parsed alone, each part through the same bounded loader with its lines where
    they stand. Whatever that split cannot read exactly as a whole (no top-level block `decisions:`, an
    alias across the parts, any error) is parsed whole, which gives the authoritative answer."""
    sc = _parse_in_parts(text, file)
    if sc is None:
        sc = parse_scenario(text, file, library(), card_data())
    if sc.max_steps > MAX_STEPS:
        sc = dataclasses.replace(sc, max_steps=MAX_STEPS)
    return sc


def _parse_in_parts(text: str, file: str) -> Any:
    parts = split_decisions(text)
    if parts is None:
        return None
    rest, decisions = parts
    key = (rest, file, tuple(map(str, library())), str(card_data()), _library_stamp())
    try:
        sc = BOARDS.get(key)
        if sc is None:
            if not _ends_at_top_level(text[: text.index("\ndecisions:") + 1] if not text.startswith("decisions:")
                                      else ""):
                return None
            sc = parse_scenario(rest, file, library(), card_data())
            BOARDS.put(key, sc)
        node = load_text(decisions, file)
        if not isinstance(node, dict) or list(node) != ["decisions"]:
            return None
        return dataclasses.replace(sc, decisions=scenario_board._decisions(node["decisions"]))
    except ScenarioError:
        return None


def _ends_at_top_level(prefix: str) -> bool:
    """Whether YAML text `prefix` ends outside any quoted scalar or flow collection, so that a line
    `decisions:` after it is a top-level key (a plain or block scalar ends at a line in column 0). Only
    scanned, never loaded: scanning builds nothing an alias or nesting could blow up."""
    scanner = yaml.SafeLoader(prefix)
    try:
        while scanner.check_token():
            scanner.get_token()
        return scanner.flow_level == 0
    except yaml.YAMLError:
        return False
    finally:
        scanner.dispose()


def split_decisions(text: str) -> tuple[str, str] | None:
    """(the text with its top-level `decisions:` block blanked, that block alone), each keeping every line
    where it stands (blank lines in place of the other part); None when there is not exactly one such
    block at the start of a line."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("decisions:")]
    if len(starts) != 1:
        return None
    first = starts[0]
    end = first + 1
    while end < len(lines) and (not lines[end] or lines[end][0] in " \t#"):
        end += 1
    rest = lines[:first] + [""] * (end - first) + lines[end:]
    block = [""] * first + lines[first:end]
    return "\n".join(rest), "\n".join(block)


# ---- the session -------------------------------------------------------------------
@dataclass(frozen=True)
class OptionView:
    n: int                         # 1-based, as the keys pick it
    label: str
    rule: dict[str, Any] | None
    decision: str                  # the decision in the scenario spelling
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


def plain(value: Any) -> Any:
    return to_plain(value)


RECENT = _Recent()       # the last sessions read: a choice reads its session twice (the pick that
                         # appends to it, then the page it leads to, which the next pick reads again)


def read(text: str, corpus: Any) -> Session:
    """Parse and replay a session up to its open choice point; never raises on the visitor's input."""
    key = (text, tuple(map(str, library())), str(card_data()), id(corpus), _library_stamp())
    hit = RECENT.get(key)
    if hit is None:
        hit = _read(text, corpus)
        RECENT.put(key, hit)
    return hit


def _library_stamp() -> tuple[int, ...]:
    """The library folders' modification times: a card file edited under a running server is read again."""
    return tuple(p.stat().st_mtime_ns for p in library() if p.is_dir())


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
        out = replay(sc, stop_when_used=True)
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
    s.steps = timeline_data(make_timeline(sc, out, []), corpus)["steps"] if out.states else []
    step_boards(s.steps, out, draw=False)
    if out.states:
        g = out.final
        s.board = board(g)
        if len(out.states) > 1:
            s.last = changes(out.states[-2], g)
        if g.point is not None and not g.over:
            s.point = point_view(g.point, g, corpus)
    return s


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
    options = []
    for n, o in enumerate(point.options, 1):
        d = o.decision
        options.append(OptionView(
            n=n, label=o.label, rule=ref(o.rule), decision=flow(d),
            default=point.default is not None and n - 1 == point.default,
            number=d.value == ANY_NUMBER, x="X[c]" in o.label,
            pays=bool(credit_cards) and d.kind in ("use", "rez", "action", "pay", "trash", "score")))
    refused = tuple(RefusedView(r.label, r.reason, ref(r.rule), r.later) for r in point.refused)
    return PointView(player=point.player, kind=point.kind, prompt=point.prompt, rule=ref(point.rule),
                     path=tuple(point.path), options=tuple(options), refused=refused, credit_cards=credit_cards)


def error_view(exc: ScenarioError, corpus: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"message": exc.message, "field": exc.field, "line": exc.line,
                           "file": exc.file if exc.file == SESSION_FILE else _library_file(exc.file)}
    rule = getattr(exc, "rule", None)
    if rule:
        out["rule"] = rule_ref(corpus, rule)
    return out


def _library_file(file: str | None) -> str | None:
    """A library card file by its place in the project, never by its absolute path."""
    if not file:
        return file
    try:
        return str(Path(file).resolve().relative_to(project_root()))
    except ValueError:
        return Path(file).name


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


# ---- the download ------------------------------------------------------------------------
EXPECT_HEAD = ("# expect: where a scripted replay of these decisions ends (`judgebook replay --check` checks it);\n"
               "# after the last decision a replay takes each point's stated default, the table stopped there\n")


def download(s: Session) -> str:
    """The session as a scenario file `judgebook replay --check` accepts: its legal decisions, and an
    `expect` block that holds — the scenario's own while its replay still meets it, else what the replay
    of these decisions reaches (checked here before it is written)."""
    base = dataclasses.replace(s.scenario, decisions=s.scenario.decisions[: s.used])
    out = replay(base)
    if base.expect is not None and not check(base, out):
        return with_decisions(s, s.legal, expect=None)
    for block in _expectations(out):
        text = with_decisions(s, s.legal, expect=block)
        try:
            sc = parse_text(text)
        except ScenarioError:
            continue
        if not check(sc, replay(sc)):
            return text
    return with_decisions(s, s.legal, expect="# no expectation holds for this replay (it stops: see the page)\n")


def _expectations(out: Outcome) -> list[str]:
    """Candidate `expect` blocks for a replay's outcome, the fullest first."""
    if not out.states or out.limit is not None:
        return []
    g = out.final
    state = {side: {"credits": g.player(side).credits, "score": q.agenda_points(g, side),
                    "hand": len(g.zone(f"{side}.hand"))} for side in ("corp", "runner")}
    state["runner"].update(tags=g.runner.tags, core_damage=g.runner.core_damage)
    state["corp"]["bad_publicity"] = g.corp.bad_publicity
    body: dict[str, Any] = {}
    if out.error is not None:
        body["error"] = {"rule": out.error.rule}
    else:
        if g.winner:
            body["winner"] = g.winner
        body["state"] = state
    runs = [dict(f.event.fields) for st in out.states for f in st.history if f.event.name == "run_ends"]
    full = dict(body, run={"server": runs[-1].get("server"), "successful": bool(runs[-1].get("successful"))}) \
        if runs and "error" not in body else None

    def block(data: dict[str, Any]) -> str:
        return EXPECT_HEAD + yaml.safe_dump({"expect": plain(data)}, sort_keys=False, allow_unicode=True,
                                            default_flow_style=None, width=10**6)
    return [block(b) for b in (full, body) if b]


def _whole(text: str, what: str, low: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise PickError(f"{what}: give a whole number") from None
    if not low <= value <= 10_000:
        raise PickError(f"{what}: give a whole number from {low} to 10000")
    return value


__all__ = ["PickError", "Session", "card_data", "download", "library", "parse_text", "pick", "read", "undo_to"]
