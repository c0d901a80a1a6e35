"""The scenario builder's form: its fields read into a `Board`, and a `Board` written as a scenario text.

A board is what a judge types at the table: both players' numbers, the Corp's servers (ice outermost first,
root cards), the Runner's rig, hosted cards, counters, the cards in hand / deck / discard / score area, and
where the game starts. The form's field names are flat (`s0_ice1_card`, `rig0_h0_n_virus`, `corp_credits`)
so the page works as a plain HTML form; `Board` keeps every value as typed, so a board with a mistake is
shown again exactly as it was, the message next to the field.

`scenario_text()` writes the YAML `judgebook replay` reads (engine/SCENARIOS.md), one card entry a line,
and returns with it where each scenario field came from: an engine `ScenarioError` (its `field` and
`line`) is mapped back to the form field that produced it (`error_key`).
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from judgebook.engine.errors import ScenarioError
from judgebook.engine.yamlnodes import load_text

COUNTERS = ("advancement", "virus", "power", "credit")
CENTRAL = ("HQ", "R&D", "Archives")
TURNS = ("runner", "corp")
STARTS = ("action_phase", "corp_turn", "runner_turn", "discard_phase", "run")     # "run": a run in progress
RUN_STEPS = ("approach_ice", "encounter_ice", "approach_server")    # engine/SCENARIOS.md §1.1 `start.run.at`
# numbers each player has, with the default the scenario format takes when the field is left blank
NUMBERS: dict[str, tuple[tuple[str, int | None], ...]] = {
    "corp": (("credits", 5), ("clicks", None), ("bad_publicity", 0), ("hand_size", 5)),
    "runner": (("credits", 5), ("clicks", None), ("tags", 0), ("core_damage", 0), ("link", 0), ("memory", 4),
               ("hand_size", 5)),
}
PILES = ("hand", "deck", "discard", "score")
FORMATS = ("standard", "startup", "eternal")   # the formats a board is checked against (board_rules.py)
MAX_ITEMS = 40          # entries in one list (a server's ice, a hand, the rig...)
MAX_REMOTES = 12
MAX_TEXT = 120          # characters in a card name, a server name, a title

_INDEX = r"(\d{1,2})"
_ENTRY_FIELD = r"(?:_h" + _INDEX + r")?_(card|rezzed|chosen|n_(?:" + "|".join(COUNTERS) + r"))"
_PATTERNS = (
    re.compile(r"^(title|turn|at|first_run|run_server|run_at|run_ice|corp_identity|runner_identity|format)$"),
    re.compile(r"^(corp|runner)_(" + "|".join(sorted({n for v in NUMBERS.values() for n, _ in v})) + r")$"),
    re.compile(r"^s" + _INDEX + r"_name$"),
    re.compile(r"^s" + _INDEX + r"_(ice|root)" + _INDEX + _ENTRY_FIELD + r"$"),
    re.compile(r"^rig" + _INDEX + _ENTRY_FIELD + r"$"),
    re.compile(r"^(corp|runner)_(" + "|".join(PILES) + r")" + _INDEX + r"_card$"),
    re.compile(r"^go$"),
)


@dataclass(frozen=True)
class Entry:
    """A card placed somewhere: `key` is its form prefix (`s0_ice1`, `rig0_h0`, `corp_hand2`)."""

    key: str
    card: str = ""
    rezzed: bool = False
    counters: tuple[tuple[str, str], ...] = ()      # (kind, number as typed), only those filled in
    chosen: str = ""
    hosted: tuple[Entry, ...] = ()

    def counter(self, kind: str) -> str:
        return dict(self.counters).get(kind, "")


@dataclass(frozen=True)
class Server:
    key: str                 # s0, s1...
    name: str
    ice: tuple[Entry, ...] = ()
    root: tuple[Entry, ...] = ()

    @property
    def central(self) -> bool:
        return self.name in CENTRAL and self.key in ("s0", "s1", "s2")


@dataclass(frozen=True)
class Player:
    side: str
    numbers: tuple[tuple[str, str], ...] = ()       # (field, number as typed)
    identity: str = ""
    piles: tuple[tuple[str, tuple[Entry, ...]], ...] = ()

    def number(self, name: str) -> str:
        return dict(self.numbers).get(name, "")

    def pile(self, name: str) -> tuple[Entry, ...]:
        return dict(self.piles).get(name, ())


@dataclass(frozen=True)
class Board:
    title: str = ""
    turn: str = "runner"
    at: str = "action_phase"
    first_run: str = ""      # a server the Runner runs on as the first action (a decision, not a start)
    # with at == "run": the run in progress at the start (its server, step, and ice counted from the outermost)
    run_server: str = ""
    run_at: str = "approach_ice"
    run_ice: str = ""
    corp: Player = Player("corp")
    runner: Player = Player("runner")
    servers: tuple[Server, ...] = tuple(Server(f"s{i}", n) for i, n in enumerate(CENTRAL))
    rig: tuple[Entry, ...] = ()
    unknown: tuple[str, ...] = ()       # form fields that are none of the above
    # the format whose card pool and ban list the builder checks the board against (board_rules.py); not
    # part of the scenario: a situation is played the same in any format
    format: str = "standard"

    def player(self, side: str) -> Player:
        return self.corp if side == "corp" else self.runner

    def entries(self) -> list[Entry]:
        """Every card entry of the board, hosted ones included."""
        top = [e for s in self.servers for e in s.ice + s.root] + list(self.rig)
        top += [e for p in (self.corp, self.runner) for _, pile in p.piles for e in pile]
        return top + [h for e in top for h in e.hosted]


# ---- reading the form -----------------------------------------------------------------------
def _clean(value: str) -> str:
    return " ".join(value.split())[: MAX_TEXT * 2]


def _entry(form: Mapping[str, str], key: str, hosted: bool = True) -> Entry | None:
    """The entry at form prefix `key`, or None when every one of its fields is empty."""
    counters = tuple((k, _clean(form.get(f"{key}_n_{k}", ""))) for k in COUNTERS
                     if _clean(form.get(f"{key}_n_{k}", "")))
    hosts: list[Entry] = []
    if hosted:
        for k in _indices(form, re.compile(re.escape(key) + r"_h" + _INDEX + "_")):
            found = _entry(form, f"{key}_h{k}", hosted=False)
            if found is not None:
                hosts.append(found)
    entry = Entry(key, _clean(form.get(f"{key}_card", "")), form.get(f"{key}_rezzed", "") not in ("", "0"),
                  counters, _clean(form.get(f"{key}_chosen", "")), tuple(hosts))
    return None if entry == Entry(key) else entry


def _indices(form: Mapping[str, str], prefix: re.Pattern[str]) -> list[int]:
    return sorted({int(m.group(1)) for k in form if (m := prefix.match(k))})


def _renumber(entries: list[Entry], prefix: str) -> tuple[Entry, ...]:
    """Entries with their keys made consecutive (blank rows dropped), hosted ones under the new key."""
    out = []
    for j, e in enumerate(entries):
        key = f"{prefix}{j}"
        hosted = tuple(_rekey(h, f"{key}_h{k}") for k, h in enumerate(e.hosted))
        out.append(_rekey(e, key, hosted))
    return tuple(out)


def _rekey(e: Entry, key: str, hosted: tuple[Entry, ...] | None = None) -> Entry:
    return Entry(key, e.card, e.rezzed, e.counters, e.chosen, e.hosted if hosted is None else hosted)


def _list(form: Mapping[str, str], prefix: str) -> tuple[Entry, ...]:
    found = [_entry(form, f"{prefix}{j}") for j in _indices(form, re.compile(re.escape(prefix) + _INDEX + "_"))]
    return _renumber([e for e in found if e is not None], prefix)


def read_form(form: Mapping[str, str]) -> Board:
    """A Board from the builder's form fields (a `request.form`, or any mapping of name to text)."""
    unknown = tuple(sorted(k for k in form if not any(p.match(k) for p in _PATTERNS)))[:5]
    players = []
    for side in ("corp", "runner"):
        numbers = tuple((n, _clean(form.get(f"{side}_{n}", ""))) for n, _ in NUMBERS[side]
                        if _clean(form.get(f"{side}_{n}", "")))
        piles = tuple((p, _list(form, f"{side}_{p}")) for p in PILES)
        players.append(Player(side, numbers, _clean(form.get(f"{side}_identity", "")), piles))
    servers = []
    for i in sorted(set(range(3)) | set(_indices(form, re.compile(r"^s" + _INDEX + "_")))):
        name = CENTRAL[i] if i < 3 else _clean(form.get(f"s{i}_name", ""))
        ice, root = _list(form, f"s{i}_ice"), _list(form, f"s{i}_root")
        if i < 3 or name or ice or root:
            servers.append((name, ice, root))
    # servers renumbered too: the page shows s0..sN with no gaps
    renumbered = []
    for i, (name, ice, root) in enumerate(servers):
        key = f"s{i}"
        renumbered.append(Server(key, name, _renumber(list(ice), f"{key}_ice"), _renumber(list(root), f"{key}_root")))
    return Board(title=_clean(form.get("title", "")), turn=form.get("turn", "runner"),
                 at=form.get("at", "action_phase"), first_run=_clean(form.get("first_run", "")),
                 run_server=_clean(form.get("run_server", "")), run_at=form.get("run_at", "approach_ice"),
                 run_ice=_clean(form.get("run_ice", "")),
                 corp=players[0], runner=players[1], servers=tuple(renumbered), rig=_list(form, "rig"),
                 unknown=unknown, format=form.get("format", "standard"))


def add_remote(board: Board) -> Board:
    n = len(board.servers)
    names = {s.name for s in board.servers}
    k = next(k for k in range(1, n + 2) if f"Server {k}" not in names)
    return replace(board, servers=board.servers + (Server(f"s{n}", f"Server {k}"),))


# ---- writing the scenario ---------------------------------------------------------------------
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 _.'!&()/-]*")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


def scalar(text: str) -> str:
    """`text` as a YAML scalar in flow context: plain when that reads back as the same string, else quoted."""
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS and not text.endswith(" "):
        return text
    return json.dumps(text, ensure_ascii=False)      # a JSON string is a YAML double-quoted scalar


def _bad_text(text: str) -> str | None:
    if len(text) > MAX_TEXT:
        return f"at most {MAX_TEXT} characters"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") for c in text):
        return "contains a control character"
    return None


@dataclass
class Built:
    """The scenario text of a board, or the board's own mistakes (then `text` is empty)."""

    text: str = ""
    errors: dict[str, str] = field(default_factory=dict)        # form key -> message
    paths: dict[str, str] = field(default_factory=dict)         # scenario field path -> form key
    lines: dict[int, str] = field(default_factory=dict)         # scenario line -> form key

    def error_key(self, path: str, line: int | None) -> str:
        """The form key a scenario error at `path` / `line` belongs to ("" when none: the whole board)."""
        best = ""
        for p in self.paths:
            if (path == p or path.startswith((p + ".", p + "["))) and len(p) > len(best):
                best = p
        if best:
            return self.paths[best]
        return self.lines.get(line or 0, "")


class _Writer:
    def __init__(self, card_type: Callable[[str], str | None]) -> None:
        self.out: list[str] = []
        self.built = Built()
        self.card_type = card_type

    def line(self, text: str, key: str = "", path: str = "") -> None:
        self.out.append(text)
        if key:
            self.built.lines[len(self.out)] = key
        if path:
            self.built.paths[path] = key

    def error(self, key: str, message: str) -> None:
        self.built.errors.setdefault(key, message)

    def number(self, key: str, raw: str, low: int = 0, high: int = 999) -> int | None:
        try:
            value = int(raw)
        except ValueError:
            self.error(key, f"a whole number, not {raw!r}")
            return None
        if not low <= value <= high:
            self.error(key, f"a number from {low} to {high}")
            return None
        return value

    def name(self, key: str, raw: str) -> str | None:
        problem = _bad_text(raw)
        if problem:
            self.error(key, problem)
            return None
        return raw

    def entry(self, e: Entry, path: str, slot: str, corp_card: bool) -> str:
        """One card entry as a flow mapping (or a plain name when it has nothing but its name)."""
        name = self.name(f"{e.key}_card", e.card) if e.card else None
        if not e.card:
            self.error(f"{e.key}_card", "name the card (or clear the row)")
        elif name is not None and (problem := self.slot_problem(name, slot)):
            self.error(f"{e.key}_card", problem)
        self.built.paths[path] = f"{e.key}_card"
        parts = [f"card: {scalar(e.card)}"]
        if e.rezzed:
            if not corp_card:
                self.error(f"{e.key}_rezzed", "only the Corp's installed cards are rezzed")
            parts.append("rezzed: true")
        counters = []
        for kind, raw in e.counters:
            value = self.number(f"{e.key}_n_{kind}", raw, 0, 99)
            if value:
                counters.append(f"{kind}: {value}")
            self.built.paths[f"{path}.counters"] = f"{e.key}_n_{kind}"
        if counters:
            parts.append("counters: {" + ", ".join(counters) + "}")
        if e.chosen:
            if self.name(f"{e.key}_chosen", e.chosen) is not None:
                parts.append(f"chosen: {scalar(e.chosen)}")
            self.built.paths[f"{path}.chosen"] = f"{e.key}_chosen"
        if e.hosted:
            hosted = [self.entry(h, f"{path}.hosted[{k}]", "hosted", corp_card) for k, h in enumerate(e.hosted)]
            parts.append("hosted: [" + ", ".join(hosted) + "]")
        if parts == [f"card: {scalar(e.card)}"]:
            return scalar(e.card)
        return "{" + ", ".join(parts) + "}"

    def slot_problem(self, name: str, slot: str) -> str | None:
        kind = self.card_type(name)
        if kind is None or slot not in SLOT_KINDS:
            return None     # an unknown card: the engine's loader says so, next to this field
        wanted, where = SLOT_KINDS[slot]
        if kind not in wanted:
            return f"{name} is {_a(kind)}: {where}"
        return None

    def cards(self, entries: tuple[Entry, ...], path: str, indent: str, slot: str, corp: bool) -> None:
        for j, e in enumerate(entries):
            self.line(f"{indent}- {self.entry(e, f'{path}[{j}]', slot, corp)}", f"{e.key}_card")


# what a slot holds: the card types it takes, and what to say of a card that does not fit
SLOT_KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "ice": (("ice",), "only ice is installed protecting a server"),
    "root": (("asset", "upgrade", "agenda"), "a server's root holds assets, upgrades and agendas"),
    "rig": (("program", "hardware", "resource"), "the rig holds programs, hardware and resources"),
    "score": (("agenda",), "the score area holds agendas"),
    "identity": (("identity",), "choose an identity card"),
    # what a card can host: the Runner's programs, hardware and resources (Tranquilizer on ice, a resource on
    # The Supplier), agendas (Film Critic) and assets; never an identity, ice, an upgrade or a one-shot
    "hosted": (("program", "hardware", "resource", "agenda", "asset"),
               "a hosted card is a program, hardware, resource, agenda or asset"),
}


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def scenario_text(board: Board, card_type: Callable[[str], str | None]) -> Built:
    """The board as a scenario text; `card_type(name)` gives a defined card's type (None: not defined)."""
    w = _Writer(card_type)
    for name in board.unknown:
        w.error("", f"unknown form field {name!r}")
    title = board.title or "A situation at the table"
    if w.name("title", title) is not None:
        w.line(f"title: {json.dumps(title, ensure_ascii=False)}", "title", "title")
    if board.turn not in TURNS:
        w.error("turn", "the Corp's or the Runner's turn")
    if board.at not in STARTS:
        w.error("at", f"one of {', '.join(STARTS)}")
    if board.format not in FORMATS:
        w.error("format", f"one of {', '.join(FORMATS)}")
    if board.at == "run":
        _run_start(w, board)
    else:
        if board.run_server or board.run_ice:
            w.error("at", "choose “a run in progress” to start inside the run set below")
        w.line(f"start: {{turn: {scalar(board.turn)}, at: {scalar(board.at)}}}", "turn", "start")
    w.built.paths["start.at"] = "at"
    w.built.paths["start.turn"] = "turn"
    for side in ("corp", "runner"):
        _player(w, board, side)
    server_names = {s.name for s in board.servers}
    if board.first_run:
        if board.first_run not in server_names:
            w.error("first_run", f"no server named {board.first_run!r} on the board")
        elif board.turn != "runner" or board.at == "discard_phase":
            w.error("first_run", "the Runner runs as an action of their turn: start on the Runner's turn")
        elif board.at == "run":
            w.error("first_run", "a run is already in progress at the start: no first action")
        else:
            w.line("decisions:")
            w.line(f"  - {{action: run, server: {scalar(board.first_run)}}}", "first_run", "decisions[0]")
    if w.built.errors:
        w.built.text = ""
    else:
        w.built.text = "\n".join(w.out) + "\n"
    return w.built


def _run_start(w: _Writer, board: Board) -> None:
    """`start: {turn: runner, run: {...}}`, its fields checked against the board (the engine checks them too;
    here each message goes next to its own field before the board is read)."""
    if board.turn != "runner":
        w.error("turn", "a run happens during the Runner's turn")
    server = next((s for s in board.servers if s.name and s.name == board.run_server), None)
    if server is None:
        w.error("run_server", "choose the server the run is on" if not board.run_server
                else f"no server named {board.run_server!r} on the board")
    parts = [f"server: {scalar(board.run_server or '?')}"]
    if board.run_at not in RUN_STEPS:
        w.error("run_at", f"one of {', '.join(RUN_STEPS)}")
    parts.append(f"at: {scalar(board.run_at)}")
    if board.run_at == "approach_server":
        if board.run_ice:
            w.error("run_ice", "the server is approached after all its ice: leave the ice number blank")
    elif server is not None:
        count = len(server.ice)
        if not count:
            w.error("run_ice", f"{server.name} has no ice: the run can only approach the server")
        elif not board.run_ice:
            w.error("run_ice", f"which ice: 1 (outermost) to {count}")
        elif (n := w.number("run_ice", board.run_ice, 1, count)) is not None:
            if board.run_at == "encounter_ice" and not server.ice[n - 1].rezzed:
                w.error("run_at", "that ice is unrezzed: the Runner passes it without an encounter")
            parts.append(f"ice: {n}")
    w.line(f"start: {{turn: {scalar(board.turn)}, run: {{{', '.join(parts)}}}}}", "turn", "start")
    for key in ("server", "at", "ice"):
        w.built.paths[f"start.run.{key}"] = f"run_{key}"


def _player(w: _Writer, board: Board, side: str) -> None:
    p = board.player(side)
    w.line(f"{side}:")
    for name, _ in NUMBERS[side]:
        raw = p.number(name)
        if raw:
            value = w.number(f"{side}_{name}", raw, 1 if name == "hand_size" else 0, 99)
            w.line(f"  {name}: {value}", f"{side}_{name}", f"{side}.{name}")
    if p.identity and w.name(f"{side}_identity", p.identity) is not None:
        if problem := w.slot_problem(p.identity, "identity"):
            w.error(f"{side}_identity", problem)
        w.line(f"  identity: {scalar(p.identity)}", f"{side}_identity", f"{side}.identity")
    for pile in PILES:
        entries = p.pile(pile)
        if len(entries) > MAX_ITEMS:
            w.error(entries[MAX_ITEMS].key + "_card", f"at most {MAX_ITEMS} cards here")
        if entries:
            w.line(f"  {pile}:")
            w.cards(entries, f"{side}.{pile}", "    ", "score" if pile == "score" else pile, side == "corp")
    if side == "corp":
        _servers(w, board)
    elif board.rig:
        w.line("  installed:")
        w.cards(board.rig, "runner.installed", "    ", "rig", False)


def _servers(w: _Writer, board: Board) -> None:
    remotes = [s for s in board.servers if not s.central]
    if len(remotes) > MAX_REMOTES:
        w.error(f"{remotes[MAX_REMOTES].key}_name", f"at most {MAX_REMOTES} remote servers")
    seen: set[str] = set()
    body = [s for s in board.servers if s.ice or s.root or not s.central]
    if body:
        w.line("  servers:")
    for s in body:
        key = f"{s.key}_name"
        if not s.central:
            if not s.name:
                w.error(key, "name the server")
            elif s.name in CENTRAL or s.name in seen:
                w.error(key, f"{s.name!r} is already a server's name")
            else:
                w.name(key, s.name)
        seen.add(s.name)
        w.line(f"    {scalar(s.name or '?')}:" if s.ice or s.root else f"    {scalar(s.name or '?')}: {{}}", key,
               f"corp.servers.{s.name}")
        for part in ("ice", "root"):
            entries = getattr(s, part)
            if len(entries) > MAX_ITEMS:
                w.error(entries[MAX_ITEMS].key + "_card", f"at most {MAX_ITEMS} cards here")
            if entries:
                w.line(f"      {part}:")
                w.cards(entries, f"corp.servers.{s.name}.{part}", "        ", part, True)


# ---- a scenario read back into a board (the play view's "edit this board") ------------------------
class Unshown(ScenarioError):
    """A scenario the builder cannot show whole: it names what it holds that the form has no field for."""


# what a scenario may hold beyond a board: the builder leaves it out and says so (a board is a start)
AFTER_THE_START = {"source": "its source", "notes": "its notes", "expect": "its expected outcome",
                   "options": "its options", "mismatch": "its known mismatch", "cards": "its `cards:` list"}


def from_scenario(text: str) -> tuple[Board, list[str]]:
    """The board of a scenario text, for the builder to show again, and what of the scenario it leaves out.

    A board is where the game starts: the decisions after a first run, an expected outcome, notes... are
    left out, each named in the notices returned. What would change the board itself (inline card
    definitions, card ids, a field the form lacks) raises `Unshown` naming it, rather than being dropped."""
    node = load_text(text, "session")
    if not isinstance(node, dict):
        raise ScenarioError("a scenario is a YAML mapping")
    extra = sorted(str(k) for k in set(node) - {"title", "start", "corp", "runner", "decisions", *AFTER_THE_START})
    if extra:
        raise Unshown(f"the builder has no field for {', '.join(extra)}")
    notices = [AFTER_THE_START[k] for k in AFTER_THE_START if k in node]
    form: dict[str, str] = {"title": str(node.get("title", ""))}
    startnode = node.get("start") or {}
    if isinstance(startnode, dict):
        form.update({k: str(v) for k, v in startnode.items() if k in ("turn", "at")})
        run = startnode.get("run")
        if isinstance(run, dict):
            form["at"] = "run"
            form.update({f"run_{k}": str(v) for k, v in run.items()})     # an unknown key: a field the form lacks
    decisions = node.get("decisions") or []
    if not isinstance(decisions, list):
        raise ScenarioError("decisions is a list")
    first = decisions[0] if decisions else None
    if isinstance(first, dict) and set(first) == {"action", "server"} and first.get("action") == "run":
        form["first_run"] = str(first["server"])
        decisions = decisions[1:]
    if decisions:
        notices.append(f"{len(decisions)} decision{'s' if len(decisions) > 1 else ''} taken from the start")
    for side in ("corp", "runner"):
        _side_form(node.get(side) or {}, side, form)
    board = read_form(form)
    if board.unknown:
        raise Unshown(f"the builder has no field for {', '.join(board.unknown)}")
    return board, notices


def _side_form(node: Any, side: str, form: dict[str, str]) -> None:
    if not isinstance(node, dict):
        raise ScenarioError(f"{side} is a mapping")
    for key, value in node.items():
        if key in dict(NUMBERS[side]):
            form[f"{side}_{key}"] = str(value)
        elif key == "identity":
            form[f"{side}_identity"] = str(value.get("card") if isinstance(value, dict) else value)
        elif key in PILES:
            _entries_form(value, f"{side}_{key}", form)
        elif key == "installed" and side == "runner":
            _entries_form(value, "rig", form)
        elif key == "servers" and side == "corp" and isinstance(value, dict):
            _servers_form(value, form)
        else:
            form[f"{side}.{key}"] = ""      # read_form reports it as a field the builder lacks


def _servers_form(servers: dict[Any, Any], form: dict[str, str]) -> None:
    remote = 3
    for name, body in servers.items():
        name = str(name)
        if name in CENTRAL:
            i = CENTRAL.index(name)
        else:
            i, remote = remote, remote + 1
            form[f"s{i}_name"] = name
        body = body or {}
        if not isinstance(body, dict):
            raise ScenarioError(f"server {name} is a mapping of ice and root")
        for part, cards in body.items():
            if part not in ("ice", "root"):
                form[f"s{i}.{part}"] = ""
                continue
            _entries_form(cards, f"s{i}_{part}", form)


def _entries_form(items: Any, prefix: str, form: dict[str, str], nested: bool = True) -> None:
    if not isinstance(items, list):
        raise ScenarioError(f"{prefix}: expected a list of cards")
    for j, item in enumerate(items):
        key = f"{prefix}{j}"
        if not isinstance(item, dict):
            form[f"{key}_card"] = str(item)
            continue
        for k, v in item.items():
            if k == "card":
                form[f"{key}_card"] = str(v)
            elif k == "rezzed" and v is True:
                form[f"{key}_rezzed"] = "1"
            elif k == "chosen":
                form[f"{key}_chosen"] = str(v)
            elif k == "counters" and isinstance(v, dict):
                form.update({f"{key}_n_{kind}": str(n) for kind, n in v.items()})
            elif k == "hosted" and nested:
                _entries_form(v, f"{key}_h", form, nested=False)
            elif k != "rezzed":
                form[f"{key}.{k}"] = ""


__all__ = ["Board", "Built", "Entry", "Player", "Server", "Unshown", "add_remote", "from_scenario", "read_form",
           "scalar", "scenario_text"]
