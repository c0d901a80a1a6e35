"""Positions (rule_position): where a piece of ice goes when it is installed, and the Runner's position during
a run, which is an element of the attacked server's sequence of positions, not an index into it
(rule_ice_change_can_affect_position).

A server's ice zone lists its ice outermost first; the run frame keeps the Runner's position as an index into
that list, and every change of the list (effects.move, movement.move_ice) goes through `shift`, which keeps the
index on the same position: ice added or removed outward of the Runner moves the index with it, ice added or
removed inward leaves it alone, and the Runner's own ice leaving makes the position vacant (the run frame's
`vacated`, the index then naming the next position inward) until the Runner moves on (rule_destroy_position).
"""

from __future__ import annotations

from dataclasses import replace

from judgebook.engine.rules.frames import find, log, swap
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game

# The rule that creates the new position, by the `position:` word of an install instruction
# (language/instructions.py Install; none: the outermost position).
ANCHOR = {"outermost": "rule_create_position_outermost", "inward_of_self": "rule_create_position_directly_inward"}


def install_index(g: Game, server: str, where: str | None, ref: str) -> tuple[int, str, str]:
    """The index a piece of ice installed protecting `server` takes, with the words and the rule that place it.
    `inward_of_self`: directly inward from `ref` (the installing ice), if it protects that server."""
    ice = g.zone(q.ice_zone(server))
    if where == "inward_of_self" and ref in ice:
        return ice.index(ref) + 1, f"the position directly inward from {ref}", ANCHOR["inward_of_self"]
    return 0, "the outermost position", ANCHOR["outermost"]


def place_ice(g: Game, cid: str, server: str, where: str | None, ref: str, anchor: str | None = None) -> Game:
    """Move ice being installed to its new position protecting `server`, saying where and by which rule
    (`anchor`: the basic action's own rule, rule_ice_install_outermost, instead of an instruction's)."""
    from judgebook.engine.rules.effects import move

    index, words, rule = install_index(g, server, where, ref)
    g = move(g, cid, q.ice_zone(server), index)
    g = log(g, "ice_position", f"{cid} takes {words} protecting {server}", anchor or rule, "corp", card=cid)
    return _runner_sees(g, cid, server)


def _runner_sees(g: Game, cid: str, server: str) -> Game:
    """During a run on `server`, while the Runner has a position, whether the new position is behind them or
    still ahead (rule_ice_change_outward, rule_ice_change_inward)."""
    from judgebook.engine.rules.run import INDEX, Run

    run = find(g, Run)
    if run is None or run.ended or run.server != server or not INDEX["position"] < run.at <= INDEX["approach_next"]:
        return g
    index = g.zone(q.ice_zone(server)).index(cid)
    if index < run.position:
        return log(g, "ice_position", f"{cid} is outward of the Runner's position: they will not approach it",
                   "rule_ice_change_outward", "corp", card=cid)
    return log(g, "ice_position", f"{cid} is inward of the Runner's position: they have yet to approach it",
               "rule_ice_change_inward", "corp", card=cid)


def shift(g: Game, server: str, cid: str, removed: int | None = None, inserted: int | None = None) -> Game:
    """The Runner's position stays the same element of `server`'s positions as the ice `cid` leaves it from index
    `removed` and/or enters it at index `inserted` (a new position, rule_create_position)."""
    from judgebook.engine.rules.run import Run

    run = find(g, Run)
    if run is None or run.server != server:
        return g
    at, vacated = run.position, run.vacated
    if removed is not None:
        if removed < at:
            at -= 1
        elif removed == at and vacated is None:
            # The Runner's own ice left: its position stays, vacant, until the Runner moves on; the index now
            # names the next position inward (rule_destroy_position, rule_uninstall_ice_during_run).
            vacated = cid
    if inserted is not None and inserted <= at:
        # A new position outward of the Runner's, or of their vacant one (rule_create_position_outermost and
        # _directly_inward create it outward of the next existing position inward), is behind them.
        at += 1
    if (at, vacated) == (run.position, run.vacated):
        return g
    return swap(g, run, replace(run, position=at, vacated=vacated))
