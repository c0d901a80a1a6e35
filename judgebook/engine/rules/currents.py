"""Currents (rule_operation_current, rule_event_current): a played current is not trashed but stays in its
player's current area until another current is played or an agenda is stolen (a Corp current) or scored by
the Corp (a Runner current); the next checkpoint then trashes it as if it finished resolving."""

from __future__ import annotations

from judgebook.engine.rules.effects import move
from judgebook.engine.rules.frames import log
from judgebook.engine.state.model import SIDES, Game, GameEvent


def is_current(g: Game, cid: str) -> bool:
    return cid in g.cards and "current" in (s.lower() for s in g.library.card(g.cards[cid].name).subtypes)


def _anchor(g: Game, cid: str) -> str:
    return "rule_event_current" if g.library.card(g.cards[cid].name).type == "event" else "rule_operation_current"


def stays(g: Game, cid: str) -> Game:
    """A current that finished resolving goes to its player's current area instead of the discard."""
    owner = g.cards[cid].owner
    g = move(g, cid, f"{owner}.current")
    return log(g, "stays", f"{cid} is a current: it stays in the play area", _anchor(g, cid), owner)


def _ends(g: Game, cid: str, ev: GameEvent) -> bool:
    if ev.name == "played":
        return ev.get("card") != cid and is_current(g, str(ev.get("card")))
    if g.library.card(g.cards[cid].name).type == "event":
        return ev.name == "scored" and ev.get("player") == "corp"
    return ev.name == "stolen"


def ended(g: Game) -> Game:
    """At a checkpoint: trash each current whose end came since it became active. It became active when it
    was last played this turn, or (played before this turn, or set up in the play area) before any of this
    turn's events; an end in an earlier turn was acted on at that turn's checkpoints."""
    for side in SIDES:
        for cid in g.zone(f"{side}.current"):
            facts = [f.event for f in g.history]
            played = [i for i, ev in enumerate(facts) if ev.name == "played" and ev.get("card") == cid]
            since = facts[played[-1] + 1:] if played else facts
            end = next((ev for ev in since if _ends(g, cid, ev)), None)
            if end is None:
                continue
            anchor = _anchor(g, cid)
            g = move(g, cid, f"{side}.discard")
            g = log(g, "trashed", f"{cid} is a current and {_why(end)}: it is trashed", anchor, side)
    return g


def _why(ev: GameEvent) -> str:
    if ev.name == "played":
        return f"another current ({ev.get('card')}) was played"
    return f"an agenda ({ev.get('card')}) was {'stolen' if ev.name == 'stolen' else 'scored'}"
