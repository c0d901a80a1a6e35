"""The scenario builder (issue 10, Set up): `/replay/new` builds both boards from card names.

The page is a plain HTML form (it works without JavaScript; `builder.js` adds completion and new rows as
you type). Posting it writes the board as a scenario text (`board_form.scenario_text`), which the engine's
own loader then reads, with the project's card library and NetrunnerDB's statistics, exactly as the play
view will; a mistake comes back as a message next to the field that made it, the board filled in as it
was. A board that loads is handed to the play view (`/replay/play?s=...`): nothing is stored.

`/replay/new/cards.json?q=TEXT&slot=SLOT` completes a card name over every card the engine defines.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request

from judgebook.engine import ALLOTTED, CardSource, ScenarioError, all_specs, card_source, setup, start, unused_memory
from judgebook.ingestion import nrdb
from judgebook.ingestion.errors import ParseError
from judgebook.web import board_form, board_rules
from judgebook.web import table_session as ts
from judgebook.web.board_form import SLOT_KINDS, Board, Built, Entry, read_form, scenario_text
from judgebook.web.card_catalog import Catalog, catalog
from judgebook.web.routes_table import play_url
from judgebook.web.session_link import SessionLinkError, unpack

bp = Blueprint("builder", __name__)

# the completion endpoint's `slot`: the card types it offers and whose cards they are
SLOTS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "hosted": (SLOT_KINDS["hosted"][0], None),
    "hosted_ice": ((), None),       # only the cards installed on ice ("Install only on a piece of ice")
    "ice": (SLOT_KINDS["ice"][0], "corp"),
    "root": (SLOT_KINDS["root"][0], "corp"),
    "rig": (SLOT_KINDS["rig"][0], "runner"),
    "score": (SLOT_KINDS["score"][0], None),
    "corp_identity": (SLOT_KINDS["identity"][0], "corp"),
    "runner_identity": (SLOT_KINDS["identity"][0], "runner"),
    "corp": ((), "corp"),
    "runner": ((), "runner"),
    "any": ((), None),
}
MAX_QUERY = 100
FILE = "built scenario"
_GO = ("play", "play_anyway", "update", "add_remote", "yaml", "filler")


# ---- the library the table uses (the play view's: a built board is read as a session is) ----------
def statistics() -> tuple[CardSource | None, str]:
    """NetrunnerDB's card data as the table reads it, and what is wrong with it ("" when nothing is)."""
    data = ts.card_data()
    if data is None:
        return None, ""
    try:
        return card_source(data), ""
    except (ScenarioError, OSError, ValueError, KeyError, TypeError) as exc:    # a damaged folder
        current_app.logger.warning("the NetrunnerDB data at %s cannot be read: %s", data, exc)
        return None, f"the NetrunnerDB card data cannot be read ({type(exc).__name__}): check `judgebook build --with`"


def the_catalog() -> Catalog:
    return catalog(ts.library(), statistics()[0])


# ---- routes ----------------------------------------------------------------------------------
@bp.get("/replay/new")
def new():
    board, left_out = Board(), []
    named = request.args.getlist("card")
    if named:
        if len(named) > MAX_PLACED or any(len(n) > board_form.MAX_TEXT for n in named):
            return _page(board, {"": f"at most {MAX_PLACED} cards of at most {board_form.MAX_TEXT} characters"}, 400)
        board, notes = placed(named, request.args.get("ruling", ""))
        return _page(board, {}, 200, notes=notes)
    packed = request.args.get("s")
    if packed is not None:
        try:
            board, left_out = board_form.from_scenario(unpack(packed))
        except SessionLinkError as exc:
            return _page(board, {"": f"this link's board could not be read: {exc}"}, 400)
        except ScenarioError as exc:
            return _page(board, {"": f"this link's board could not be read: {exc.message}"}, 400)
    return _page(board, {}, 200, left_out)


@bp.post("/replay/new")
def build():
    board = read_form(request.form)
    go = request.form.get("go", "play")
    if go not in _GO:
        return _page(board, {"": "unknown button"}, 400)
    if go == "add_remote":
        return _page(board_form.add_remote(board), {}, 200)
    if go == "update":
        return _page(board, {}, 200)
    if go == "filler":
        return _page(fill_rnd(board), {}, 200)
    built, errors = check(board)
    if errors:
        return _page(board, errors, 400)
    if go == "play" and the_review(board, built).stops_play:
        return _page(board, {}, 200, stopped=True)     # said before play starts: "play anyway" goes on
    if go == "yaml":
        return Response(built.text, mimetype="application/yaml", headers={
            "Content-Disposition": f'attachment; filename="{_filename(board.title)}.yaml"'})
    try:
        return redirect(play_url(built.text), code=303)
    except SessionLinkError as exc:        # a board too large for a link: say so, keep the board
        return _page(board, {"": str(exc)}, 400)


@bp.post("/replay/new/review.json")
def review_json():
    """The rules of the board as it is being built (builder.js asks on every change)."""
    board = read_form(request.form)
    if board.format not in board_form.FORMATS:
        return jsonify({"error": f"unknown format (one of {', '.join(board_form.FORMATS)})"}), 400
    return jsonify(the_review(board).as_json())


@bp.get("/replay/new/cards.json")
def cards():
    q = request.args.get("q", "")
    slot = request.args.get("slot", "any")
    if slot not in SLOTS:
        return jsonify({"error": f"unknown slot (one of {', '.join(SLOTS)})"}), 400
    if len(q) > MAX_QUERY:
        return jsonify({"error": f"the query is longer than {MAX_QUERY} characters"}), 400
    types, side = SLOTS[slot]
    cat = the_catalog()
    found = cat.find(q, types, side, limit=12, install_on="ice" if slot == "hosted_ice" else None)
    return jsonify({"query": q, "slot": slot, "total": len(cat), "cards": [c.as_json() for c in found]})


# ---- a situation with these cards (a card page's and a ruling's link) ---------------------------
MAX_PLACED = 8


def placed(names: list[str], ruling: str) -> tuple[Board, list[str]]:
    """A board with each named card where it most plainly goes: ice rezzed on HQ, a card installed only on
    ice hosted on the first ice, the rig, a remote server's root, an identity, a one-shot in its player's
    hand. What is not a defined card is said, not guessed."""
    cat = the_catalog()
    found = [(n, cat.get(n)) for n in dict.fromkeys(names)]
    notes = [f"{n} is not a card the engine defines: add it by hand if it matters" for n, c in found if c is None]
    cards = [c for _, c in found if c is not None]
    ice = [Entry(f"s0_ice{i}", c.name, rezzed=True) for i, c in enumerate(x for x in cards if x.type == "ice")]
    hosted = [c for c in cards if c.card.install_on == "ice"]
    if ice and hosted:
        ice[0] = replace(ice[0], hosted=tuple(Entry(f"s0_ice0_h{k}", c.name) for k, c in enumerate(hosted)))
    elif hosted:
        notes.append(f"{', '.join(c.name for c in hosted)}: installed only on ice — add the ice, then host it")
    rig = [c for c in cards if c.type in ("program", "hardware", "resource") and c.card.install_on != "ice"]
    roots = [c for c in cards if c.type in ("asset", "agenda", "upgrade")]
    servers = list(Board().servers)
    servers[0] = replace(servers[0], ice=tuple(ice))
    for k, c in enumerate(roots):
        key = f"s{3 + k}"
        servers.append(board_form.Server(key, f"Server {k + 1}", root=(Entry(f"{key}_root0", c.name),)))
    players = {}
    for side in ("corp", "runner"):
        hand = [c for c in cards if c.side == side and c.type in ("operation", "event")]
        hosted_only = [c for c in hosted if c.side == side and not ice]
        hand += hosted_only
        ident = next((c.name for c in cards if c.side == side and c.type == "identity"), "")
        piles = (("hand", tuple(Entry(f"{side}_hand{i}", c.name) for i, c in enumerate(hand))),)
        players[side] = board_form.Player(side, identity=ident, piles=piles)
    subject = " and ".join(c.name for c in cards[:3]) or "these cards"
    title = f"For a ruling on {cards[0].name}" if ruling and cards else f"A situation with {subject}"
    board = Board(title=title[: board_form.MAX_TEXT], servers=tuple(servers),
                  rig=tuple(Entry(f"rig{i}", c.name) for i, c in enumerate(rig)),
                  corp=players["corp"], runner=players["runner"])
    return board, notes


# ---- the rules of the board (board_rules.py) ----------------------------------------------------
_FORMATS: dict[tuple[str, str], Any] = {}


def legality(fmt: str) -> Any:
    """A card id's status in format `fmt` ("legal", "banned", "not in the card pool"...), None when the
    NetrunnerDB folder has no formats. Read once per folder and format."""
    data = ts.card_data()
    if data is None or fmt not in board_form.FORMATS:
        return None
    key = (str(data), fmt)
    if key not in _FORMATS:
        v2 = data / "v2" if (data / "v2").is_dir() else data
        try:
            rules = next((r for r in nrdb.read_formats(v2, v2.parent) if r.id == fmt), None)
            sets = nrdb.card_sets(v2, v2.parent) if rules is not None else {}
        except (ParseError, OSError) as exc:
            current_app.logger.warning("the %s format cannot be read from %s: %s", fmt, data, exc)
            rules, sets = None, {}
        _FORMATS[key] = None if rules is None else (lambda cid: rules.status(cid, sets.get(cid, set())))
    return _FORMATS[key]


def the_review(board: Board, built: Built | None = None) -> board_rules.Review:
    cat = the_catalog()
    return board_rules.review(board, cat, legality(board.format), _free_memory(board, cat, built))


def _free_memory(board: Board, cat: Catalog, built: Built | None) -> int | None:
    """The Runner's unused memory as the engine counts it (hardware and identities included); None when the
    board does not set up yet (its mistakes are said when it is played)."""
    if not any(e.card for e in board.rig) and not any(h.card for s in board.servers for e in s.ice for h in e.hosted):
        return None
    if built is None:
        built = scenario_text(board, lambda name: c.type if (c := cat.get(name)) is not None else None)
    if built.errors:
        return None
    try:
        return unused_memory(setup(ts.parse_text(built.text, FILE)))
    except Exception:     # a board that does not set up: its mistake is said at Play, next to its field
        return None


def fill_rnd(board: Board) -> Board:
    """R&D filled with cards that change nothing until played, so the Corp can draw."""
    deck = tuple(Entry(f"corp_deck{i}", board_rules.FILLER) for i in range(board_rules.FILLER_COUNT))
    piles = tuple((name, pile) for name, pile in board.corp.piles if name != "deck") + (("deck", deck),)
    return replace(board, corp=replace(board.corp, piles=piles))


# ---- checking a board --------------------------------------------------------------------------
def check(board: Board) -> tuple[Built, dict[str, str]]:
    """The board's scenario text and its mistakes by form key ("" for the board as a whole)."""
    cat = the_catalog()

    def card_type(name: str) -> str | None:
        found = cat.get(name)
        return found.type if found is not None else None

    built = scenario_text(board, card_type)
    if built.errors:
        return built, built.errors
    problem = statistics()[1]
    if problem:
        return built, {"": problem}
    try:
        sc = ts.parse_text(built.text, FILE)
        dangling = _dangling_choice(sc, built)
        if dangling:
            return built, dangling
        start(setup(sc))
    except ScenarioError as exc:
        key = built.error_key(exc.field, exc.line)
        return built, {key: _message(exc, key) + _did_you_mean(board, key, cat)}
    except Exception as exc:   # an engine bug must not lose the board: say so next to it
        current_app.logger.exception("a built board could not be set up")
        return built, {"": f"the engine could not set up this board ({type(exc).__name__}); please report it"}
    return built, {}


def _dangling_choice(sc: Any, built: Built) -> dict[str, str]:
    """A `chosen` card that is not on the board: the loader takes any id, and the choice would then
    never match (a Femme Fatale that never bypasses), so the builder refuses it."""
    specs = [spec for side in (sc.corp, sc.runner) for spec in all_specs(side)]
    ids = {spec.id for spec in specs}
    for spec in specs:
        if spec.chosen and spec.chosen not in ids:
            key = built.error_key(f"{spec.field}.chosen", None)
            return {key: f"no card {spec.chosen!r} on the board (a second copy is Name#2)"}
    return {}


def _message(exc: ScenarioError, key: str) -> str:
    where = "" if key or not exc.field else f"{exc.field}: "
    if exc.file and exc.file != FILE:
        where = f"{Path(exc.file).name}: {where}"       # a library card's own definition is broken
    return where + exc.message


def _did_you_mean(board: Board, key: str, cat: Catalog) -> str:
    """For a card name the library lacks, the closest names it has."""
    typed = next((e.card for e in board.entries() if f"{e.key}_card" == key), None)
    if typed is None or cat.get(typed) is not None:
        return ""
    close = difflib.get_close_matches(typed, [c.name for c in cat.cards], n=3, cutoff=0.6)
    return f" — did you mean {' or '.join(close)}?" if close else ""


def _filename(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "scenario"


def _page(board: Board, errors: dict[str, str], status: int, left_out: list[str] | None = None,
          stopped: bool = False, notes: list[str] | None = None):
    cat = the_catalog()
    info = {e.key: cat.get(e.card) for e in board.entries() if e.card}
    for side in ("corp", "runner"):
        ident = board.player(side).identity
        if ident:
            info[f"{side}_identity"] = cat.get(ident)
    return render_template("builder.html", b=board, errors=errors, info=info, ice_ids=_ice_ids(board),
                           blank=board_form.Entry, defaults=_defaults(board), numbers=board_form.NUMBERS,
                           counters=board_form.COUNTERS, starts=board_form.STARTS, run_steps=board_form.RUN_STEPS,
                           piles=PILE_LABELS, catalog_size=len(cat), max_query=MAX_QUERY, left_out=left_out or [],
                           points=_points(board, cat), review=the_review(board), stopped=stopped, notes=notes or [],
                           formats=board_rules.FORMAT_NAMES), status


PILE_LABELS: dict[str, list[tuple[str, str, str]]] = {
    # (pile, label, completion slot)
    "corp": [("hand", "HQ (hand)", "corp"), ("deck", "R&D (deck, top card first)", "corp"),
             ("discard", "Archives (discard pile)", "corp"), ("score", "Score area", "score")],
    "runner": [("hand", "Grip (hand)", "runner"), ("deck", "Stack (deck, top card first)", "runner"),
               ("discard", "Heap (discard pile)", "runner"), ("score", "Score area", "score")],
}


def _defaults(board: Board) -> dict[str, str]:
    """What a blank number means (the scenario format's defaults), shown as the field's placeholder."""
    out = {}
    for side, fields in board_form.NUMBERS.items():
        for name, default in fields:
            if name == "clicks":    # the active player's allotment in the action phase, else none yet
                default = ALLOTTED[side] if board.turn == side and board.at in ("action_phase", "run") else 0
                if board.at == "run" and side == "runner":
                    default -= 1    # the run in progress took a [click]
            out[f"{side}_{name}"] = str(default)
    return out


def _points(board: Board, cat: Catalog) -> dict[str, int]:
    """The agenda points in each score area, as the cards' statistics give them."""
    out = {}
    for side in ("corp", "runner"):
        found = (cat.get(e.card) for e in board.player(side).pile("score"))
        out[side] = sum(c.card.agenda_points for c in found if c is not None)
    return out


def _ice_ids(board: Board) -> list[str]:
    """The ids the engine gives the board's ice (the name; Name#2 for a second copy), for `chosen`."""
    seen: dict[str, int] = {}
    out = []
    for s in board.servers:
        for e in s.ice:
            if e.card:
                seen[e.card] = seen.get(e.card, 0) + 1
                out.append(e.card if seen[e.card] == 1 else f"{e.card}#{seen[e.card]}")
    return out


__all__ = ["bp", "check", "SLOTS"]
