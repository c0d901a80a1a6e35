"""Scenario files: the board, the card definitions they use, the decisions and the expected outcome.

The board, decision and expectation formats are those of LANGUAGE.md §1, §7, §8; card definitions are
parsed with the rebuilt card language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.cards import CardDef, CardLibrary
from judgebook.engine.language.nodes import At
from judgebook.engine.language.nrdb import CardSource, Library, card_source, load_with_stats, parse_with_stats
from judgebook.engine.rules.run import run_in_progress
from judgebook.engine.rules.turn import ALLOTTED, Turn
from judgebook.engine.scenario import board
from judgebook.engine.scenario.board import check_keys
from judgebook.engine.state.fmap import FMap
from judgebook.engine.state.model import Card, Game, Player, Side, evolve
from judgebook.engine.timing.structures import CORP_TURN, RUNNER_TURN
from judgebook.engine.yamlnodes import LocDict, line_of, load_text


@dataclass(frozen=True)
class Scenario:
    title: str
    source: str
    library: CardLibrary = field(compare=False)
    notes: str = ""
    active: str = "runner"
    start: str = "action_phase"
    run: board.RunStart | None = None  # a run in progress at the start (the Runner's action phase)
    corp: board.PlayerSpec = board.PlayerSpec("corp")
    runner: board.PlayerSpec = board.PlayerSpec("runner")
    decisions: tuple[board.Decision, ...] = ()
    expect: board.Expect | None = None
    file: str | None = None
    max_steps: int = 2000  # decisions a replay may take by default before it is called a loop
    mismatch: board.Mismatch | None = None  # the engine is known not to reach `expect` (a ruling's answer)


def load(path: str | Path, library: Library | None = None,
         cards_source: str | Path | CardSource | None = None) -> Scenario:
    """A scenario file; without a library, the `cards/` folder beside the scenarios folder, if any."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    if library is None and cards_source is None:
        candidate = path.resolve().parent.parent / "cards"
        library = candidate if candidate.is_dir() else None
    try:
        return parse(text, str(path), library, cards_source)
    except ScenarioError as exc:
        exc.file = exc.file or str(path)
        raise


def parse(text: str, file: str | None = None, library: Library | None = None,
          cards_source: str | Path | CardSource | None = None) -> Scenario:
    """A scenario text. Card definitions (inline, and from `library` — a folder, or folders searched in
    order) take their statistics from NetrunnerDB when a card source is given."""
    source = cards_source if isinstance(cards_source, CardSource) or cards_source is None \
        else card_source(cards_source)
    node = load_text(text, file)
    if not isinstance(node, dict):
        raise ScenarioError("a scenario is a YAML mapping", file=file, line=1)
    check_keys(node, board.TOP_KEYS, "scenario")
    if "title" not in node:
        raise ScenarioError("a scenario needs a `title`", field="title", line=1, file=file)
    options = node.get("options") or LocDict()
    check_keys(options, ("max_steps",), "options")
    ids = board._Ids()
    corp = board._player(node.get("corp") or LocDict(), "corp", ids)
    runner = board._player(node.get("runner") or LocDict(), "runner", ids)
    try:
        cards = _cards(node, library, source, board.all_specs(corp) + board.all_specs(runner))
    except ScenarioError as exc:
        exc.file = exc.file or file
        raise
    start = board.start_of(node.get("start"), corp)
    return Scenario(
        str(node["title"]),
        str(node.get("source", "")),
        CardLibrary(cards),
        notes=str(node.get("notes", "")),
        active=start.active,
        start=start.at,
        run=start.run,
        corp=corp,
        runner=runner,
        decisions=board._decisions(node.get("decisions")),
        expect=board._expect(node.get("expect")),
        file=file,
        max_steps=board.want_int(options, "max_steps", "options", 2000),
        mismatch=board._mismatch(node.get("mismatch")),
    )


def _cards(node: dict[str, Any], library: Library | None, source: CardSource | None,
           specs: list[board.CardSpec]) -> dict[str, CardDef]:
    wanted = node.get("cards") or []
    inline = node.get("card_defs") or []
    if not isinstance(wanted, list) or not isinstance(inline, list):
        raise ScenarioError("cards and card_defs are lists", field="cards", line=line_of(node, "cards"))
    inline_names = {str(c.get("name")) for c in inline if isinstance(c, dict)}
    needed = {str(n) for n in wanted} | {s.name for s in specs}
    lib = load_with_stats(library, source, needed - inline_names) if library else {}
    defs: dict[str, CardDef] = {}
    for i, name in enumerate(wanted):
        if str(name) not in lib:
            raise ScenarioError(
                f"card {name!r} is not in the card library", field=f"cards[{i}]", line=line_of(wanted, i)
            )
        defs[str(name)] = lib[str(name)]
    for i, item in enumerate(inline):
        card = parse_with_stats(item, source, At(f"card_defs[{i}]", line_of(inline, i)))
        defs[card.name] = card
    for spec in specs:
        if spec.name not in defs:
            if spec.name not in lib:
                raise ScenarioError(
                    f"card {spec.name!r} is not defined (card_defs or the card library)",
                    field=spec.field,
                    line=spec.line,
                )
            defs[spec.name] = lib[spec.name]
    return defs


def as_side(word: str) -> Side:
    if word == "corp":
        return "corp"
    if word == "runner":
        return "runner"
    raise ScenarioError(f"expected corp or runner, got {word!r}")


def _side_of(sc: Scenario, name: str, fallback: Side) -> Side:
    side = sc.library.card(name).side
    return side if side in ("corp", "runner") else fallback  # type: ignore[return-value]


def setup(sc: Scenario) -> Game:
    """The game as the scenario sets it up, before the first step."""
    cards: dict[str, Card] = {}
    zones: dict[str, tuple[str, ...]] = {}

    def put(zone: str, specs: tuple[board.CardSpec, ...], owner: Side, host: str | None = None) -> None:
        for spec in specs:
            if not spec.installed and host is None:
                raise ScenarioError("`installed: false` is for a card hosted without being installed "
                                    "(rule_host_without_install): this card is not hosted",
                                    field=f"{spec.field}.installed", line=spec.line)
            counters = FMap(dict(spec.counters))
            cards[spec.id] = Card(
                spec.id,
                spec.name,
                # An agenda in the Runner's score area is still the Corp's card (its owner).
                sc.library.card(spec.name).side if zone == "runner.score" else owner,  # type: ignore[arg-type]
                zone,
                rezzed=spec.rezzed,
                faceup=spec.faceup if not zone.endswith(("corp.deck", "corp.hand")) else False,
                counters=counters,
                host=host,
                hosted_only=host is not None and not spec.installed,
                chosen=spec.chosen,
            )
            # A hosted card keeps its own side (a Runner's Tranquilizer on a Corp's ice is the Runner's).
            for hosted in spec.hosted:
                put(f"hosted.{spec.id}", (hosted,), _side_of(sc, hosted.name, owner), spec.id)
        zones[zone] = zones.get(zone, ()) + tuple(s.id for s in specs)

    for spec in (sc.corp, sc.runner):
        side = as_side(spec.side)
        for zone in ("hand", "deck", "discard", "score", "current"):
            put(f"{side}.{zone}", getattr(spec, zone), side)
        put(f"{side}.identity", (spec.identity,) if spec.identity else (), side)
    servers = []
    for server in sc.corp.servers:
        servers.append(server.name)
        put(f"corp.server.{server.name}.ice", server.ice, "corp")
        put(f"corp.server.{server.name}.root", server.root, "corp")
    put("runner.rig", sc.runner.installed, "runner")
    stated = {
        spec.id
        for side in (sc.corp, sc.runner)
        for spec in board.all_specs(side)
        if any(kind == "credit" for kind, _ in spec.counters)
    }
    for cid, card in list(cards.items()):
        d = sc.library.card(card.name)
        active = card.zone == "runner.rig" or (card.zone.startswith("corp.server.") and card.rezzed)
        # Recurring credits start on an active card, unless the board says how many it holds (0 included).
        if d.recurring and active and cid not in stated:
            cards[cid] = card.with_counter("credit", d.recurring)

    def player(spec: board.PlayerSpec) -> Player:
        clicks = spec.clicks
        if clicks is None:
            clicks = ALLOTTED[spec.side] if sc.start == "action_phase" and sc.active == spec.side else 0
            if sc.run is not None and spec.side == "runner":
                clicks -= 1  # the run in progress was the action of one [click]
        return Player(
            as_side(spec.side),
            credits=spec.credits,
            clicks=clicks,
            tags=spec.tags,
            bad_publicity=spec.bad_publicity,
            core_damage=spec.core_damage,
            # Core damage already taken lowers the maximum hand size (rule_core_damage).
            base_hand_size=spec.hand_size - spec.core_damage,
            base_link=spec.link,
            base_memory=spec.memory,
        )

    first = as_side(sc.active)
    steps = (CORP_TURN if first == "corp" else RUNNER_TURN).steps()
    at = {
        "corp_turn": 0,
        "runner_turn": 0,
        "action_phase": next(i for i, (_, s) in enumerate(steps) if s.key == "action_paw"),
        "discard_phase": next(i for i, (_, s) in enumerate(steps) if s.key == "discard"),
    }[sc.start]
    g = Game(
        turn=1,
        active=first,
        corp=player(sc.corp),
        runner=player(sc.runner),
        cards=FMap(cards),
        zones=FMap(zones),
        servers=tuple(servers),
        library=sc.library,
    )
    if sc.run is None:
        return evolve(g, stack=(Turn(first, at),))
    # The run is the action being taken: the turn is past its action step (Turn.step moved it on before
    # pushing the action), as when the Runner chose "run" there.
    action = next(i for i, (_, s) in enumerate(steps) if s.key == "action")
    from judgebook.engine.rules.amounts import ActionCompleted  # the run action completes when the run ends

    g = evolve(g, stack=(Turn(first, action + 1), ActionCompleted(first, "run")))
    return run_in_progress(g, sc.run.server, sc.run.at, sc.run.ice - 1)


# The names the callers outside the engine use (scenario loading used to live beside the NetrunnerDB join).
parse_scenario = parse
load_scenario = load
