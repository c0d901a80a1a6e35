"""The board, decisions and expectations of a scenario file (judgebook/engine/LANGUAGE.md §1, §7, §8).

Card definitions are parsed by the card language (`judgebook.engine.language.cards`); this module reads the
rest of the file, every key checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.errors import ScenarioError
from judgebook.engine.yamlnodes import LocDict, line_of

SIDES = ("corp", "runner")
STARTS = ("corp_turn", "runner_turn", "action_phase", "discard_phase")
RUN_STARTS = ("approach_ice", "encounter_ice", "approach_server")  # `start.run.at`: the run step it starts at
CENTRAL = ("HQ", "R&D", "Archives")
ACTIONS = ("run", "gain_credit", "draw", "install", "play", "advance", "remove_tag", "trash_resource", "use", "purge")
# decision kind -> other keys it may carry
DECISION_KINDS: dict[str, tuple[str, ...]] = {
    "action": ("server", "card", "ability", "x", "using", "faceup"),
    "use": ("ability", "subroutines", "x", "using"),
    "rez": ("using",),
    "score": (),
    "pass": (),
    "trigger": ("ability",),
    "decline": ("ability",),
    "pay": ("x", "using"),
    "jack_out": (),
    "access": (),
    "trash": (),
    "trash_like": (),
    "target": (),
    "trace": ("using",),
    "discard": (),
    "choose": (),
    "loop": (),
    "number": (),
}
COMMON_DECISION_KEYS = ("player", "note", "at", "if_able")


@dataclass(frozen=True)
class CardSpec:
    name: str
    id: str
    rezzed: bool = False
    faceup: bool = True
    counters: tuple[tuple[str, int], ...] = ()
    field: str = ""
    line: int | None = None
    chosen: str | None = None  # a choice the card maintains (Femme Fatale's ice)
    hosted: tuple[CardSpec, ...] = ()  # cards hosted on this one
    installed: bool = True  # a hosted card: installed with its host, or hosted without install (`installed: false`)


@dataclass(frozen=True)
class ServerSpec:
    name: str
    ice: tuple[CardSpec, ...] = ()  # outermost first
    root: tuple[CardSpec, ...] = ()


@dataclass(frozen=True)
class PlayerSpec:
    side: str
    credits: int = 5
    clicks: int | None = None
    hand: tuple[CardSpec, ...] = ()
    deck: tuple[CardSpec, ...] = ()
    discard: tuple[CardSpec, ...] = ()
    score: tuple[CardSpec, ...] = ()
    current: tuple[CardSpec, ...] = ()  # an operation/event current in the play area
    identity: CardSpec | None = None
    hand_size: int = 5
    bad_publicity: int = 0
    servers: tuple[ServerSpec, ...] = ()
    installed: tuple[CardSpec, ...] = ()
    tags: int = 0
    core_damage: int = 0
    link: int = 0
    memory: int = 4


@dataclass(frozen=True)
class Decision:
    index: int  # 1-based position in `decisions`
    kind: str
    value: Any
    params: tuple[tuple[str, Any], ...] = ()
    player: str | None = None
    note: str = ""
    line: int | None = None

    @property
    def field(self) -> str:
        return f"decisions[{self.index - 1}].{self.kind}"

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.params).get(key, default)

    def describe(self) -> str:
        extra = "".join(f", {k}: {v}" for k, v in self.params)
        return f"{{{self.kind}: {self.value}{extra}}}"


@dataclass(frozen=True)
class Expect:
    winner: str | None = None
    win_reason: str | None = None
    run: tuple[tuple[str, Any], ...] = ()
    resolved: tuple[str, ...] = ()
    not_resolved: tuple[str, ...] = ()
    state: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    error_rule: str | None = None
    resolved_in: tuple[tuple[str, str], ...] = ()  # ability label -> phase / step label / anchor
    line: int | None = None


TOP_KEYS = (
    "title",
    "source",
    "notes",
    "cards",
    "card_defs",
    "start",
    "corp",
    "runner",
    "decisions",
    "expect",
    "options",
    "mismatch",
)


@dataclass(frozen=True)
class Mismatch:
    """A scenario whose `expect` is a ruling's answer that the engine is known not to reach: `wrong`
    says which is wrong (the engine, or a ruling that the current rules overturned) and `why`."""

    wrong: str
    why: str


def _mismatch(node: Any) -> Mismatch | None:
    if node is None:
        return None
    check_keys(node, ("wrong", "why"), "mismatch")
    wrong = want_str(node, "wrong", "mismatch", None, ("engine", "ruling"))
    why = node.get("why") if isinstance(node, dict) else None
    if wrong is None or not isinstance(why, str) or not why.strip():
        raise _fail("mismatch needs `wrong: engine | ruling` and `why: TEXT`", "mismatch", node)
    return Mismatch(wrong, why)


# --- board -------------------------------------------------------------------


class _Ids:
    """Default card ids: the name, then Name#2, Name#3 for further copies."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}
        self.used: set[str] = set()

    def make(self, name: str, explicit: str | None, path: str, line: int | None) -> str:
        if explicit:
            if explicit in self.used:
                raise ScenarioError(f"card id {explicit!r} is used twice", field=path, line=line)
            self.used.add(explicit)
            return explicit
        count = self.seen.get(name, 0) + 1
        self.seen[name] = count
        cid = name if count == 1 else f"{name}#{count}"
        while cid in self.used:
            count += 1
            self.seen[name] = count
            cid = f"{name}#{count}"
        self.used.add(cid)
        return cid


def _card_spec(item: Any, path: str, line: int | None, ids: _Ids) -> CardSpec:
    if isinstance(item, str):
        return CardSpec(item, ids.make(item, None, path, line), field=path, line=line)
    check_keys(item, ("card", "id", "rezzed", "faceup", "counters", "chosen", "hosted", "installed"), path)
    if "card" not in item:
        raise ScenarioError("a card entry needs `card` (the card's name)", field=path, line=line)
    counters = item.get("counters") or {}
    if not isinstance(counters, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in counters.values()
    ):
        raise ScenarioError(
            "counters is a mapping of kind: number", field=f"{path}.counters", line=line_of(item, "counters")
        )
    name = str(item["card"])
    cid = ids.make(name, want_str(item, "id", path), path, line)
    return CardSpec(
        name,
        cid,
        hosted=_cards(item, "hosted", path, ids),
        rezzed=want_bool(item, "rezzed", path),
        faceup=want_bool(item, "faceup", path, True),
        counters=tuple(sorted(counters.items())),
        field=path,
        line=line,
        chosen=want_str(item, "chosen", path),
        installed=want_bool(item, "installed", path, True),
    )


def _cards(node: dict[str, Any], key: str, path: str, ids: _Ids) -> tuple[CardSpec, ...]:
    items = node.get(key) or []
    if not isinstance(items, list):
        raise ScenarioError("expected a list of cards", field=f"{path}.{key}", line=line_of(node, key))
    return tuple(_card_spec(item, f"{path}.{key}[{i}]", line_of(items, i), ids) for i, item in enumerate(items))


PLAYER_KEYS = ("credits", "clicks", "hand", "deck", "discard", "score", "identity", "hand_size", "current")
CORP_KEYS = PLAYER_KEYS + ("bad_publicity", "servers")
RUNNER_KEYS = PLAYER_KEYS + ("installed", "tags", "core_damage", "link", "memory")


def _player(node: Any, side: str, ids: _Ids) -> PlayerSpec:
    check_keys(node, CORP_KEYS if side == "corp" else RUNNER_KEYS, side)
    # board cards get plain ids first: decisions mostly name installed cards
    servers = _servers(node.get("servers") or LocDict(), ids) if side == "corp" else ()
    installed = _cards(node, "installed", side, ids)
    identity = None
    if node.get("identity"):
        identity = _card_spec(node["identity"], f"{side}.identity", line_of(node, "identity"), ids)
    score = _cards(node, "score", side, ids)
    current = _cards(node, "current", side, ids)
    return PlayerSpec(
        current=current,
        side=side,
        credits=want_int(node, "credits", side, 5),
        clicks=want_int(node, "clicks", side),
        hand=_cards(node, "hand", side, ids),
        deck=_cards(node, "deck", side, ids),
        discard=_cards(node, "discard", side, ids),
        score=score,
        identity=identity,
        hand_size=want_int(node, "hand_size", side, 5),
        bad_publicity=want_int(node, "bad_publicity", side, 0),
        servers=servers,
        installed=installed,
        tags=want_int(node, "tags", side, 0),
        core_damage=want_int(node, "core_damage", side, 0),
        link=want_int(node, "link", side, 0),
        memory=want_int(node, "memory", side, 4),
    )


def _servers(node: Any, ids: _Ids) -> tuple[ServerSpec, ...]:
    if not isinstance(node, dict):
        raise ScenarioError(
            "servers is a mapping of server name to {ice, root}", field="corp.servers", line=getattr(node, "line", None)
        )
    out = []
    for name, body in node.items():
        path = f"corp.servers.{name}"
        body = body if body is not None else LocDict()
        check_keys(body, ("ice", "root"), path)
        out.append(ServerSpec(str(name), _cards(body, "ice", path, ids), _cards(body, "root", path, ids)))
    names = {s.name for s in out}
    out += [ServerSpec(c) for c in CENTRAL if c not in names]
    return tuple(out)


def all_specs(player: PlayerSpec) -> list[CardSpec]:
    specs = list(player.hand + player.deck + player.discard + player.score + player.installed + player.current)
    if player.identity:
        specs.append(player.identity)
    for server in player.servers:
        specs += server.ice + server.root
    return specs + [h for spec in specs for h in spec.hosted]


# --- where the game starts -----------------------------------------------------


@dataclass(frozen=True)
class RunStart:
    """A run in progress when the scenario starts (`start.run`): on `server`, at the step `at` of the ice
    `ice` (1 = the outermost; 0 for `approach_server`)."""

    server: str
    at: str
    ice: int = 0


@dataclass(frozen=True)
class Start:
    active: str = "runner"
    at: str = "action_phase"
    run: RunStart | None = None


def start_of(node: Any, corp: PlayerSpec) -> Start:
    """The scenario's `start`, checked against the Corp's servers (a run names an existing server and ice)."""
    node = node if node is not None else LocDict()
    check_keys(node, ("turn", "at", "run"), "start")
    active = want_str(node, "turn", "start", "runner", SIDES)
    if "run" not in node:
        return Start(active, want_str(node, "at", "start", "action_phase", STARTS))
    if "at" in node:
        raise _fail(
            "a run in progress is its own start: give `start.at` or `start.run`, not both", "start.at", node, "at"
        )
    if active != "runner":
        raise _fail("a run happens during the Runner's turn: `turn: runner`", "start.turn", node, "turn")
    run = node["run"]
    check_keys(run, ("server", "at", "ice"), "start.run")
    server = want_str(run, "server", "start.run")
    spec = next((s for s in corp.servers if s.name == server), None)
    if spec is None:
        names = ", ".join(s.name for s in corp.servers)
        raise _fail(f"no server {server!r} on the board (servers: {names})", "start.run.server", run,
                    "server" if server is not None else None)
    at = want_str(run, "at", "start.run", None, RUN_STARTS)
    if at is None:
        raise _fail(f"`at` is one of {', '.join(RUN_STARTS)}", "start.run.at", run)
    if at == "approach_server":
        if "ice" in run:
            raise _fail("the server is approached after all its ice: no `ice` here", "start.run.ice", run, "ice")
        return Start(active, "action_phase", RunStart(server, at))
    ice = want_int(run, "ice", "start.run")
    count = len(spec.ice)
    if ice is None or not 1 <= ice <= count:
        where = f"{server} has {count} ice" if count else f"{server} has no ice: approach the server instead"
        raise _fail(f"`ice` counts from the outermost (1) to the innermost ({where})", "start.run.ice", run,
                    "ice" if ice is not None else None)
    if at == "encounter_ice" and not spec.ice[ice - 1].rezzed:
        raise _fail(f"{spec.ice[ice - 1].name} is unrezzed: the Runner passes it without an encounter",
                    "start.run.at", run, "at")
    return Start(active, "action_phase", RunStart(server, at, ice))


# --- decisions and expectations ---------------------------------------------


def read_decisions(node: Any) -> tuple[Decision, ...]:
    """A `decisions:` list (YAML nodes with lines), checked as a scenario file's: what the edges that turn
    text into decisions (the table's link, `judgebook play`'s commands) read with."""
    return _decisions(node)


def _decisions(node: Any) -> tuple[Decision, ...]:
    if node is None:
        return ()
    if not isinstance(node, list):
        raise ScenarioError("decisions is a list", field="decisions", line=getattr(node, "line", None))
    out = []
    for i, item in enumerate(node):
        path, line = f"decisions[{i}]", line_of(node, i)
        if isinstance(item, str) and item == "pass":
            out.append(Decision(i + 1, "pass", None, line=line))
            continue
        if not isinstance(item, dict):
            raise ScenarioError("a decision is a mapping such as {action: run, server: HQ}", field=path, line=line)
        kinds = [k for k in item if k in DECISION_KINDS]
        if len(kinds) != 1:
            raise ScenarioError(f"a decision has exactly one of: {', '.join(DECISION_KINDS)}", field=path, line=line)
        kind = kinds[0]
        allowed = DECISION_KINDS[kind] + COMMON_DECISION_KEYS + (kind,)
        check_keys(item, allowed, path)
        value = item[kind]
        if kind == "action" and value not in ACTIONS:
            raise ScenarioError(
                f"unknown action {value!r} (known: {', '.join(ACTIONS)})",
                field=f"{path}.action",
                line=line_of(item, "action"),
            )
        if kind in ("pay", "jack_out") and not isinstance(value, bool):
            raise ScenarioError("expected true or false", field=f"{path}.{kind}", line=line)
        if kind == "trash_like" and not (isinstance(value, list) and all(isinstance(c, str) for c in value)):
            raise ScenarioError("trash_like is a list of installed card ids ([] for none)", field=f"{path}.{kind}",
                                line=line)
        params = tuple((k, v) for k, v in item.items() if k not in (kind, "player", "note"))
        if "x" in item and (want_int(item, "x", path) or 0) < 0:
            raise ScenarioError("x is 0 or more", field=f"{path}.x", line=line_of(item, "x"))
        subs = item.get("subroutines")
        if subs is not None and (
            not isinstance(subs, list)
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in subs)
        ):
            raise ScenarioError(
                "subroutines is a list of numbers (1 = first)",
                field=f"{path}.subroutines",
                line=line_of(item, "subroutines"),
            )
        if "at" in item and item["at"] not in AT_KEYS:
            raise ScenarioError(
                f"at: expected one of {', '.join(AT_KEYS)}", field=f"{path}.at", line=line_of(item, "at")
            )
        out.append(
            Decision(
                i + 1,
                kind,
                value,
                params,
                player=want_str(item, "player", path, None, SIDES),
                note=str(item.get("note", "")),
                line=line,
            )
        )
    return tuple(out)


AT_KEYS = (
    "draw_phase",
    "action_phase",
    "discard_phase",
    "run",
    "initiation",
    "approach_ice",
    "encounter_ice",
    "movement",
    "success",
    "run_ends",
    "breach",
    "access",
)
CARD_ZONES = ("hand", "deck", "discard", "score", "installed", "hosted", "play", "identity", "removed")
# `expect.state.cards.<id>`: `server` the server an installed Corp card is in, `position` a piece of ice's
# position counted from the outermost (1) inward, as `start.run.ice` counts it
CARD_EXPECT_KEYS = ("counters", "strength", "zone", "rezzed", "server", "position")
STATE_KEYS = (
    "credits",
    "clicks",
    "tags",
    "bad_publicity",
    "core_damage",
    "hand",
    "deck",
    "discard",
    "installed",
    "trashed",
    "score",
    "scored",
    "rezzed",
)


def _expect(node: Any) -> Expect | None:
    if node is None:
        return None
    check_keys(
        node, ("winner", "win_reason", "run", "resolved", "not_resolved", "state", "error", "resolved_in"), "expect"
    )
    resolved_in = node.get("resolved_in") or {}
    if not isinstance(resolved_in, dict):
        raise ScenarioError(
            "resolved_in maps an ability (Card:ability) to a phase, step or anchor",
            field="expect.resolved_in",
            line=line_of(node, "resolved_in"),
        )
    run = node.get("run") or {}
    check_keys(run, ("successful", "ended_by", "server"), "expect.run")
    state = node.get("state") or {}
    check_keys(state, SIDES + ("cards",), "expect.state")
    for side, fields in state.items():
        if side == "cards":
            check_keys(fields, tuple(map(str, fields)) if isinstance(fields, dict) else (), "expect.state.cards")
            for cid, body in fields.items():
                check_keys(body, CARD_EXPECT_KEYS, f"expect.state.cards.{cid}")
                want_str(body, "zone", f"expect.state.cards.{cid}", None, CARD_ZONES)
                if not isinstance(body.get("server", ""), str):
                    raise _fail("`server` names one server (HQ, R&D, Archives or a remote's name)",
                                f"expect.state.cards.{cid}.server", body, "server")
                position = want_int(body, "position", f"expect.state.cards.{cid}")
                if position is not None and position < 1:
                    raise _fail("`position` counts a server's ice from the outermost (1) inward",
                                f"expect.state.cards.{cid}.position", body, "position")
            continue
        check_keys(fields, STATE_KEYS, f"expect.state.{side}")
    error = node.get("error") or {}
    check_keys(error, ("rule",), "expect.error")
    for key in ("resolved", "not_resolved"):
        if not isinstance(node.get(key, []), list):
            raise ScenarioError("expected a list", field=f"expect.{key}", line=line_of(node, key))
    return Expect(
        winner=want_str(node, "winner", "expect", None, ("corp", "runner", "none", "draw")),
        win_reason=want_str(node, "win_reason", "expect", None, ("agenda_points", "flatline", "rnd_empty", "card")),
        run=tuple(run.items()),
        resolved=tuple(map(str, node.get("resolved", []))),
        not_resolved=tuple(map(str, node.get("not_resolved", []))),
        state=tuple((side, tuple(fields.items())) for side, fields in state.items()),
        error_rule=error.get("rule"),
        resolved_in=tuple((str(k), str(v)) for k, v in resolved_in.items()),
        line=getattr(node, "line", None),
    )


# --- reading keys ---------------------------------------------------------------


def _fail(msg: str, path: str, container: Any, key: Any = None) -> ScenarioError:
    return ScenarioError(
        msg, field=path, line=line_of(container, key) if key is not None else getattr(container, "line", None)
    )


def check_keys(mapping: Any, allowed: tuple[str, ...], path: str) -> None:
    if not isinstance(mapping, dict):
        raise ScenarioError(
            f"expected a mapping, found {type(mapping).__name__}", field=path, line=getattr(mapping, "line", None)
        )
    for key in mapping:
        if key not in allowed:
            raise _fail(f"unknown key {key!r} (allowed: {', '.join(allowed)})", f"{path}.{key}", mapping, key)


def want_int(mapping: dict[str, Any], key: str, path: str, default: Any = None, allow_x: bool = False) -> Any:
    value = mapping.get(key, default)
    if value is default:
        return value
    if allow_x and value == "X":
        return "X"
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"expected a whole number, found {value!r}", f"{path}.{key}", mapping, key)
    return value


def want_bool(mapping: dict[str, Any], key: str, path: str, default: bool = False) -> bool:
    value = mapping.get(key, default)
    if not isinstance(value, bool):
        raise _fail(f"expected true or false, found {value!r}", f"{path}.{key}", mapping, key)
    return value


def want_str(
    mapping: dict[str, Any], key: str, path: str, default: Any = None, choices: tuple[str, ...] | None = None
) -> Any:
    value = mapping.get(key, default)
    if value is default:
        return value
    if not isinstance(value, str):
        value = str(value)
    if choices and value not in choices:
        raise _fail(f"expected one of {', '.join(choices)}, found {value!r}", f"{path}.{key}", mapping, key)
    return value
