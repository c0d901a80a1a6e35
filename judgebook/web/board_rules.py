"""The rules of the board, said in the builder before play starts (issue 21).

What breaks a rule of the game (a card on the wrong side, two copies of a unique card installed, more
programs than memory, two consoles, an agenda and an asset in one root) and what is legal but surprising
(an empty R&D: the Corp loses when it must draw; a card banned or not in the chosen format's pool). The
builder shows them as the board is built, and stops a Play on a broken rule until the judge says "play
anyway" (a judge may well want to see what the engine does with an illegal board).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judgebook.web.board_form import Board, Entry
from judgebook.web.card_catalog import Catalog

FORMAT_NAMES = {"standard": "Standard", "startup": "Startup", "eternal": "Eternal"}
FILLER = "Hedge Fund"      # what "fill R&D" puts there: a card that changes nothing until it is played
FILLER_COUNT = 5


@dataclass(frozen=True)
class Note:
    key: str            # the form field it is about ("" for the board as a whole)
    text: str


@dataclass(frozen=True)
class Review:
    broken: tuple[Note, ...] = ()       # breaks a rule of the game
    surprising: tuple[Note, ...] = ()   # legal, but a judge would want to know
    empty_rnd: bool = False             # offer the filler deck
    stops_play: bool = False            # Play waits for "play anyway": a broken rule, or a Corp about to draw
                                        # from an empty R&D

    def as_json(self) -> dict[str, object]:
        return {"broken": [n.__dict__ for n in self.broken], "surprising": [n.__dict__ for n in self.surprising],
                "empty_rnd": self.empty_rnd, "stops_play": self.stops_play}


def review(board: Board, cat: Catalog, legality: Callable[[str], str] | None,
           free_memory: int | None) -> Review:
    """The board's broken rules and surprises. `legality(nrdb_id)` says a card's status in the board's format
    ("legal", "banned", "not in the card pool"...), None without NetrunnerDB's formats; `free_memory` is the
    Runner's unused memory as the engine counts it (None when the board does not set up)."""
    broken: list[Note] = []
    surprising: list[Note] = []

    def side_of(e: Entry) -> str | None:
        found = cat.get(e.card)
        return found.side if found is not None else None

    def wrong_side(e: Entry, side: str, where: str) -> None:
        have = side_of(e)
        if have is not None and have != side:
            broken.append(Note(f"{e.key}_card", f"{e.card} is a {_who(have)} card: it cannot be in {where}"))

    for s in board.servers:
        for e in s.ice + s.root:
            wrong_side(e, "corp", f"the Corp's {s.name or 'server'}")
    for e in board.rig:
        wrong_side(e, "runner", "the Runner's rig")
    labels = {"hand": ("HQ", "the grip"), "deck": ("R&D", "the stack"), "discard": ("Archives", "the heap")}
    for pile, (corp_where, runner_where) in labels.items():
        for e in board.corp.pile(pile):
            wrong_side(e, "corp", corp_where)
        for e in board.runner.pile(pile):
            wrong_side(e, "runner", runner_where)
    for side in ("corp", "runner"):
        ident = board.player(side).identity
        found = cat.get(ident) if ident else None
        if found is not None and found.side != side:
            broken.append(Note(f"{side}_identity", f"{ident} is the {_who(found.side)}'s identity"))

    installed = [e for s in board.servers for e in s.ice + s.root] + list(board.rig)
    installed += [h for e in installed for h in e.hosted]
    seen: dict[str, int] = {}
    for e in installed:
        found = cat.get(e.card)
        if found is not None and found.card.unique:
            seen[e.card] = seen.get(e.card, 0) + 1
            if seen[e.card] == 2:
                broken.append(Note(f"{e.key}_card", f"{e.card} is unique: only one copy can be installed "
                                   "(installing another trashes the first)"))
    consoles = [e for e in installed if (c := cat.get(e.card)) is not None and "console" in c.card.subtypes]
    if len(consoles) > 1:
        broken.append(Note(f"{consoles[1].key}_card", f"two consoles ({consoles[0].card}, {consoles[1].card}): "
                           "the Runner can have only one console installed"))
    if free_memory is not None and free_memory < 0:
        broken.append(Note("runner_memory", f"the installed programs use {-free_memory} more memory than the "
                           "Runner has: the Runner would trash programs until they fit"))
    for s in board.servers:
        kinds = [(e, c.type) for e in s.root if (c := cat.get(e.card)) is not None and c.type in ("agenda", "asset")]
        if s.central and kinds:
            e, kind = kinds[0]
            broken.append(Note(f"{e.key}_card", f"{e.card} is an {kind}: a central server's root holds only upgrades"))
        elif len(kinds) > 1:
            names = " and ".join(f"{e.card} ({kind})" for e, kind in kinds[:2])
            broken.append(Note(f"{kinds[1][0].key}_card", f"{names} in one root: a remote server holds only one "
                               "agenda or asset"))

    empty = not board.corp.pile("deck")
    if empty:
        surprising.append(Note("corp_deck0_card", "R&D is empty: the Corp loses when it must draw (at the start "
                               "of its turn) — fill it if the game should go on past that"))
    if legality is not None:
        fmt = FORMAT_NAMES.get(board.format, board.format)
        named = {e.card: e for e in board.entries() if e.card}
        for side in ("corp", "runner"):
            ident = board.player(side).identity
            if ident:
                named.setdefault(ident, Entry(f"{side}_identity", ident))
        for name, e in named.items():
            found = cat.get(name)
            if found is None or found.nrdb_id is None:
                continue
            status = legality(found.nrdb_id)
            if status in ("banned", "not in the card pool"):
                key = e.key if e.key.endswith("identity") else f"{e.key}_card"
                surprising.append(Note(key, f"{name} is {status} in {fmt}"))
    draws_now = empty and board.turn == "corp" and board.at == "corp_turn"
    return Review(tuple(broken), tuple(surprising), empty, bool(broken) or draws_now)


def _who(side: str) -> str:
    return "Corp" if side == "corp" else "Runner"
