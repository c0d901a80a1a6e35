"""The board as a picture's data, and what a step changed on it in a player's words.

`board(g)` reads one engine state into dataclasses the template `table_board.html` draws: the Corp's
servers as columns (ice outermost first, then the root), the Runner's rig by kind, hosted cards under
their host, rez state, counters and current strength, both players' pools and zone counts, and where a
run is. `changes(before, after)` says what moved and what changed between two states ("Corroder:
strength 2 → 4", "the Runner loses 1 credit"), and which cards to mark on the board.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judgebook.engine import (
    SIDES,
    Game,
    Side,
    SubroutineMark,
    link,
    memory_limit,
    run_at,
    strength,
    subroutine_marks,
    unused_memory,
)
from judgebook.engine import queries as q

if TYPE_CHECKING:
    from judgebook.engine import Outcome

RIG_KINDS = ("program", "hardware", "resource")
CENTRAL = {"HQ": "corp.hand", "R&D": "corp.deck", "Archives": "corp.discard"}
SIDE_NAME = {"corp": "the Corp", "runner": "the Runner"}


@dataclass(frozen=True)
class CardView:
    id: str
    name: str
    type: str
    subtypes: tuple[str, ...] = ()
    rezzed: bool | None = None          # None: not a Corp card that rezzes (Runner cards, agendas)
    faceup: bool = True
    strength: int | None = None
    printed_strength: int | None = None
    counters: tuple[tuple[str, int], ...] = ()
    hosted: tuple[CardView, ...] = ()
    mark: str = ""                      # "encountered" | "approached" | "passed" | "" (where a run is)
    chosen: str | None = None           # a choice the card maintains (Femme Fatale's ice)
    owner: str = ""                     # "corp" | "runner": whose card (a hosted card's may differ from its host's)
    subroutines: tuple[SubroutineMark, ...] = ()   # an installed ice's, marked as its latest encounter left them

    @property
    def label(self) -> str:
        """The card as the players name it: an unrezzed card is still named (the judge sees both sides)."""
        return self.name if self.id == self.name else f"{self.name} ({self.id})"


@dataclass(frozen=True)
class ServerView:
    name: str
    ice: tuple[CardView, ...]           # outermost first
    root: tuple[CardView, ...]
    cards: int | None                   # cards in HQ / R&D / Archives; None for a remote server
    run_here: bool = False
    run_at: str = ""                    # where the run is on this server, in words


@dataclass(frozen=True)
class SideView:
    side: Side
    credits: int
    clicks: int
    score: int
    hand: int
    deck: int
    discard: tuple[str, ...]
    scored: tuple[str, ...]
    identity: str | None
    tags: int = 0
    bad_publicity: int = 0
    core_damage: int = 0
    active: bool = False
    link: int = 0                       # the Runner's link and memory, as modified
    memory_free: int = 0
    memory: int = 0


@dataclass(frozen=True)
class BoardView:
    turn: int
    corp: SideView
    runner: SideView
    servers: tuple[ServerView, ...]
    rig: tuple[tuple[str, tuple[CardView, ...]], ...]     # (kind, cards), kinds in RIG_KINDS order
    winner: str | None = None
    win_reason: str | None = None


def _card(g: Game, cid: str, mark: str = "") -> CardView:
    card = g.cards[cid]
    d = q.definition(g, cid)
    shows_strength = d.strength is not None and (d.type == "ice" or "icebreaker" in d.subtypes or d.type == "program")
    return CardView(
        id=cid, name=card.name, type=d.type, subtypes=tuple(d.subtypes),
        rezzed=card.rezzed if card.owner == "corp" and d.type not in ("agenda",) else None,
        faceup=card.faceup,
        strength=strength(g, cid) if shows_strength and q.is_installed(g, cid) else None,
        printed_strength=d.strength if shows_strength else None,
        counters=tuple(sorted(card.counters.items())),
        hosted=tuple(_card(g, h) for h in g.zone(f"hosted.{cid}")),
        mark=mark, chosen=card.chosen, owner=card.owner,
        subroutines=subroutine_marks(g, cid) if d.type == "ice" and q.is_installed(g, cid) else ())


def board(g: Game) -> BoardView:
    run = run_at(g)
    servers = []
    for name in g.servers:
        ice_ids = g.zone(q.ice_zone(name))
        here = run is not None and run.server == name
        marks: dict[str, str] = {}
        where = ""
        if run is not None and here:
            marks.update((c, "passed") for c in run.passed)
            if run.encountered is not None:
                marks[run.encountered] = "encountered"
            elif run.approached is not None and run.approached not in run.passed:
                marks[run.approached] = "approached"
            # position counts ice from the outermost; the server itself once every ice is passed; a position
            # whose ice left it stays the Runner's until they move inward (engine/rules/positions.py)
            if run.vacated is not None:
                where = f"at the position {run.vacated} left, outward of ice {run.position + 1} of {len(ice_ids)}" \
                    if run.position < len(ice_ids) else f"at the position {run.vacated} left, the innermost"
            else:
                where = "at the server" if run.position >= len(ice_ids) else \
                    f"at ice {run.position + 1} of {len(ice_ids)} (from the outermost)"
        servers.append(ServerView(
            name=name, ice=tuple(_card(g, c, marks.get(c, "")) for c in ice_ids),
            root=tuple(_card(g, c) for c in g.zone(q.root_zone(name))),
            cards=len(g.zone(CENTRAL[name])) if name in CENTRAL else None, run_here=here, run_at=where))
    rig: dict[str, list[CardView]] = {kind: [] for kind in RIG_KINDS}
    for cid in g.zone("runner.rig"):
        view = _card(g, cid)
        rig.setdefault(view.type, []).append(view)
    return BoardView(turn=g.turn, corp=_side(g, "corp"), runner=_side(g, "runner"), servers=tuple(servers),
                     rig=tuple((kind, tuple(cards)) for kind, cards in rig.items() if cards),
                     winner=g.winner, win_reason=g.win_reason)


def _side(g: Game, side: Side) -> SideView:
    p = g.player(side)
    ident = g.zone(f"{side}.identity")
    return SideView(side=side, credits=p.credits, clicks=p.clicks, score=q.agenda_points(g, side),
                    hand=len(g.zone(f"{side}.hand")), deck=len(g.zone(f"{side}.deck")),
                    discard=tuple(g.cards[c].name for c in g.zone(f"{side}.discard")),
                    scored=tuple(g.cards[c].name for c in g.zone(f"{side}.score")),
                    identity=g.cards[ident[0]].name if ident else None,
                    tags=p.tags, bad_publicity=p.bad_publicity, core_damage=p.core_damage,
                    active=g.active == side, **(runner_stats(g) if side == "runner" else {}))


def runner_stats(g: Game) -> dict[str, int]:
    return {"link": link(g), "memory_free": unused_memory(g), "memory": memory_limit(g)}


# ---- what changed, in words ------------------------------------------------------------
@dataclass(frozen=True)
class Changes:
    lines: tuple[str, ...]
    cards: frozenset[str]           # ids of the cards that moved or changed (marked on the board)


def _count(n: int, word: str) -> str:
    plural = {"core damage": "core damage", "bad publicity": "bad publicity"}.get(word, word + "s")
    return f"{n} {word if n == 1 else plural}"


POOLS = (("credits", "credit", "gains", "loses"), ("clicks", "click", "gains", "spends"),
         ("tags", "tag", "takes", "removes"), ("bad_publicity", "bad publicity", "takes", "removes"),
         ("core_damage", "core damage", "suffers", "heals"))


def changes(before: Game, after: Game) -> Changes:
    lines: list[str] = []
    touched: set[str] = set()
    for side in SIDES:
        a, b = before.player(side), after.player(side)
        who = SIDE_NAME[side]
        for attr, word, up, down in POOLS:
            x, y = getattr(a, attr), getattr(b, attr)
            if x != y:
                lines.append(f"{who} {up if y > x else down} {_count(abs(y - x), word)} ({x} → {y})")
        pa, pb = q.agenda_points(before, side), q.agenda_points(after, side)
        if pa != pb:
            lines.append(f"{who}: agenda points {pa} → {pb}")
    for cid, card in after.cards.items():
        old = before.cards.get(cid)
        if old is None:
            continue
        name = card.name if cid == card.name else cid
        if old.zone != card.zone:
            lines.append(f"{name}: {q.zone_name(old)} → {q.zone_name(card)}")
            touched.add(cid)
        if old.rezzed != card.rezzed:
            lines.append(f"{name} is {'rezzed' if card.rezzed else 'derezzed'}")
            touched.add(cid)
        for kind in sorted(set(old.counters) | set(card.counters)):
            x, y = old.count(kind), card.count(kind)
            if x != y:
                lines.append(f"{name}: {kind.replace('_', ' ')} counters {x} → {y}")
                touched.add(cid)
        if q.is_installed(after, cid) and q.is_installed(before, cid) and q.definition(after, cid).strength is not None:
            x, y = strength(before, cid), strength(after, cid)
            if x != y:
                lines.append(f"{name}: strength {x} → {y}")
                touched.add(cid)
    if before.winner != after.winner and after.winner:
        reason = f" ({after.win_reason.replace('_', ' ')})" if after.win_reason else ""
        lines.append(f"{SIDE_NAME.get(after.winner, after.winner)} wins{reason}")
    return Changes(tuple(lines), frozenset(touched))


def step_boards(steps: list[dict[str, Any]], out: Outcome, draw: bool = True) -> list[BoardView]:
    """Each step's board in a player's words: on the last step a decision led to, what it changed (`words`)
    and the cards it touched; every step names the state it belongs to (`state`, an index into the
    returned boards, drawn unless `draw` is false) and, on the first step of a scripted decision, that
    decision's number (`decision`)."""
    boards = [board(g) for g in out.states] if draw else []     # the table draws only the last one
    start = 0
    for k, end in enumerate(out.marks):
        for i in range(start, min(end, len(steps))):
            steps[i]["state"] = k
        if k and start < end <= len(steps):
            if out.used[k] > out.used[k - 1]:
                steps[start]["decision"] = out.used[k]
            diff = changes(out.states[k - 1], out.states[k])
            steps[end - 1]["words"] = list(diff.lines)
            steps[end - 1]["touched"] = diff.cards
        start = end
    for i in range(start, len(steps)):      # steps after the last state (an illegal decision's own step)
        steps[i]["state"] = len(out.states) - 1
    return boards


__all__ = ["BoardView", "CardView", "Changes", "ServerView", "SideView", "board", "changes", "step_boards"]
