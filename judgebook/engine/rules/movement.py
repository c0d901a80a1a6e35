"""The constructs of `language/movement.py` carried out: swapping a card outside play with an installed card,
moving the Runner to a server's outermost position, moving installed ice to another position."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.effects import move
from judgebook.engine.rules.frames import (
    Frame,
    current_encounter,
    current_run,
    event,
    log,
    path,
    pop,
    push,
    set_top,
    swap,
)
from judgebook.engine.rules.positions import shift
from judgebook.engine.rules.resolve import resolve_now
from judgebook.engine.rules.restrictions import like_cards
from judgebook.engine.rules.triggers import emit
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, decision
from judgebook.engine.state.fmap import FMap
from judgebook.engine.state.model import Game

if TYPE_CHECKING:
    from judgebook.engine.language.instructions import Instruction
    from judgebook.engine.language.movement import SwapIn
    from judgebook.engine.language.selectors import Selector

ROOT_TYPES = ("agenda", "asset", "upgrade")


# --- swapping a card outside play with an installed card -----------------------------------------------------


def _legal_in(g: Game, incoming: str, installed: str) -> bool:
    """Whether `incoming` may take `installed`'s place (rule_swap_only_to_valid_location): ice for ice, a card that
    goes in a root for a card in a root (an upgrade only in a central server; one agenda or asset per remote)."""
    from judgebook.engine.language.statics import server_only_refuses

    zone = g.cards[installed].zone
    server = q.server_of(g, installed)
    if g.cards[installed].host is not None or server is None or g.cards[incoming].owner != "corp":
        return False
    d = q.definition(g, incoming)
    if zone.endswith(".ice"):
        return d.type == "ice"
    if d.type not in ROOT_TYPES or server_only_refuses(d, server):
        return False
    if server in q.CENTRAL:
        return d.type == "upgrade"
    if d.type == "upgrade":
        return True
    return not any(c != installed and q.definition(g, c).type in ("agenda", "asset") for c in g.zone(zone))


def swap_pairs(g: Game, ctx: Ctx, instr: SwapIn, incoming: str) -> list[str]:
    """The installed cards `incoming` may be swapped with."""
    return [c for c in instr.other.candidates(g, ctx) if q.is_installed(g, c) and _legal_in(g, incoming, c)]


def swap_in(g: Game, ctx: Ctx, instr: SwapIn) -> Game:
    found = ctx.targets if instr.selector.chooses else tuple(instr.selector.candidates(g, ctx))[:1]
    if not found:
        return g
    incoming = found[0]
    pairs = swap_pairs(g, ctx, instr, incoming)
    if not pairs:
        return log(g, "no_swap", f"{incoming} cannot legally be swapped with an installed card: nothing happens",
                   "rule_swap_only_to_valid_location", ctx.controller, card=ctx.source)
    if instr.other.chooses:
        return push(g, ChoosePartner(ctx, incoming, tuple(pairs), instr.then))
    return exchange(g, ctx, incoming, pairs[0], instr.then)


@dataclass(frozen=True)
class ChoosePartner(Frame):
    """The installed card the card from outside play is swapped with: `{target: [card]}`."""

    ctx: Ctx
    incoming: str
    pairs: tuple[str, ...]
    then: tuple[Instruction, ...] = ()

    def step(self, g: Game) -> ChoicePoint:
        anchor = "rule_swap_only_to_valid_location"
        opts = tuple(Option(decision("target", [c]), f"swap {c} with {self.incoming}", anchor) for c in self.pairs)
        return ChoicePoint(self.ctx.controller, "target", f"choose the installed card to swap with {self.incoming}",
                           "rule_swap_only_to_valid_location", opts, (), default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        return exchange(pop(g), self.ctx, self.incoming, str(option.decision.value[0]), self.then)


def exchange(g: Game, ctx: Ctx, incoming: str, installed: str, then: tuple[Instruction, ...] = ()) -> Game:
    """The swap itself (rule_swap_simultaneous, rule_swap_become_installed)."""
    place, source = g.cards[installed].zone, g.cards[incoming].zone
    origin = q.from_zone(g, incoming)
    index = g.zone(place).index(installed)
    run0 = current_run(g)  # a swap creates no position (rule_create_position_swap): the Runner's stays as it is
    visible = g.cards[installed].rezzed
    server = q.server_of(g, installed)
    # The installed card leaves play: a new object in the other's zone, its hosted cards and counters trashed.
    g = move(g, installed, source, g.zone(source).index(incoming))
    if source.endswith(".discard"):  # facedown in Archives unless the Runner saw it (rule_state_of_swap_into_zone)
        g = replace(g, cards=g.cards.set(installed, replace(g.cards[installed], faceup=visible)))
    # The other becomes installed in the exact position, unrezzed, without the install procedure.
    zones = dict(g.zones)
    zones[source] = tuple(c for c in zones[source] if c != incoming)
    here = list(zones[place])
    here.insert(index, incoming)
    zones[place] = tuple(here)
    card = g.cards[incoming]
    new = replace(card, zone=place, host=None, hosted_only=False, rezzed=False, faceup=False, counters=FMap(),
                  last_counters=FMap(), incarnation=card.incarnation + 1)
    g = replace(g, zones=FMap(zones), cards=g.cards.set(incoming, new))
    run = current_run(g)
    if run is not None and run0 is not None:
        g = swap(g, run, replace(run, position=run0.position, vacated=run0.vacated))
        run = current_run(g)
    if run is not None and run.approached == installed:
        # The Runner stays in the position and approaches the new ice (rule_ice_change_approach_swap).
        g = swap(g, run, replace(run, approached=incoming))
    g = log(g, "swapped", f"{installed} and {incoming} swap: {incoming} is installed, {installed} goes to "
            f"{q.zone_name(g.cards[installed])}", "rule_swap_become_installed", ctx.controller, card=ctx.source,
            changes=(f"{installed}: {place} → {source}", f"{incoming}: {source} → {place}"))
    d = q.definition(g, incoming)
    seq0 = g.seq
    g = emit(g, event("installed", card=incoming, type=d.type, player="corp", server=server,
                      from_hand=source.endswith(".hand"), from_zone=origin),
             f"{incoming} becomes installed", "rule_swap_become_installed", ctx.controller)
    if not then:
        return g
    g = resolve_now(g, ctx, then, "rule_checkpoint_after_instruction_resolution")
    if any(p.serial > seq0 for p in g.pending):
        # What the swap made pending resolves first, then "if you do" (rule_chain_reaction).
        from judgebook.engine.rules.windows import ReactionWindow

        g = push(g, ReactionWindow(after=seq0))
    return g


# --- moving the Runner, moving ice ---------------------------------------------------------------------------


def server_named(g: Game, ctx: Ctx, word: str) -> str | None:
    if word == "this":
        here = q.server_of(g, ctx.source) if ctx.source in g.cards else None
        server = here or (str(ctx.event.get("server")) if ctx.event is not None and ctx.event.get("server") else None)
    elif word == "attacked":
        run = current_run(g)
        server = run.server if run is not None else None
    else:
        server = word
    return server if server in g.servers else None


def move_runner(g: Game, ctx: Ctx, word: str) -> Game:
    from judgebook.engine.rules.run import INDEX

    run = current_run(g)
    server = server_named(g, ctx, word)
    if run is None or run.at > INDEX["movement_complete"] or server is None:
        return log(g, "no_move", "the Runner cannot move to a position now: nothing happens", "rule_ineffective_move",
                   ctx.controller, card=ctx.source)
    enc = current_encounter(g)
    if enc is not None:
        g = swap(g, enc, replace(enc, over=True))
    ice = g.zone(q.ice_zone(server))
    step = "approach_begins" if ice else "pass_ice"  # no ice: the Movement Phase, with no position
    g = swap(g, run, replace(run, server=server, position=0, vacated=None, approached=None, at=INDEX[step],
                             now=INDEX[step]))
    where = f"the outermost position of {server}, approaching {ice[0]}" if ice else f"{server}, with no ice to approach"
    return log(g, "runner_moves", f"the Runner moves to {where}; {server} is now the attacked server",
               "rule_move_to_specific_position", ctx.controller, card=ctx.source)


def move_ice(g: Game, ctx: Ctx, targets: tuple[str, ...], word: str) -> Game:
    server = server_named(g, ctx, word)
    if server is None:
        return log(g, "no_move", "no such server: nothing happens", "rule_install_to_invalid_destination",
                   ctx.controller, card=ctx.source)
    for cid in targets:
        if cid not in g.cards or not q.is_ice(g, cid) or not q.is_installed(g, cid):
            continue
        before, zone = g.cards[cid].zone, q.ice_zone(server)
        zones = dict(g.zones)
        removed = zones[before].index(cid)
        zones[before] = tuple(c for c in zones[before] if c != cid)
        zones[zone] = (cid,) + tuple(zones.get(zone, ()))
        # The same object (rule_object_move_known_location): rez state, counters and hosted cards stay.
        g = replace(g, zones=FMap(zones), cards=g.cards.set(cid, replace(g.cards[cid], zone=zone)))
        # It leaves its position for a new outermost one; the Runner's position stays where it is.
        g = shift(shift(g, before.split(".")[2], cid, removed=removed), server, cid, inserted=0)
        g = log(g, "moved", f"{cid} moves to the outermost position protecting {server}",
                "rule_object_move_known_location", ctx.controller, card=cid, changes=(f"{cid}: {before} → {zone}",))
    return g


# --- uninstalling ---------------------------------------------------------------------------------------------


def uninstalled(g: Game, cid: str, active: bool) -> Game:
    """A card stops being installed for any reason (rule_uninstalled): "when this program is uninstalled"
    abilities see it, the card's own too, though it is now inactive
    (rule_active_exception_conditional_move_to_inactive_zone). Remembered without a line of its own: the move
    that uninstalled it (trashed, added to a hand, swapped...) has its own."""
    from judgebook.engine.rules.triggers import record

    card = g.cards[cid]
    return record(g, event("uninstalled", card=cid, player=card.owner, active=active))


# --- changing the attacked server as it is approached ---------------------------------------------------------


def redirect_approach(g: Game, run: Frame) -> Game:
    """At the approach of the server, a replacement "instead change the attacked server to HQ and approach HQ"
    (rule_change_attacked_server_directly): the run frame on top takes the new server."""
    from judgebook.engine.language.movement import ApproachInstead
    from judgebook.engine.rules.values import statics

    server = getattr(run, "server", None)
    to = next((e.to for e, _ in statics(g) if isinstance(e, ApproachInstead) and e.server == server), None)
    if to is None or to not in g.servers or to == server:
        return g
    g = set_top(g, replace(run, server=to))  # type: ignore[type-var]
    return log(g, "attacked_server", f"instead of approaching {server}, the attacked server becomes {to}",
               "rule_change_attacked_server_directly", "runner")


# --- installing a card hosted on another ----------------------------------------------------------------------


def install_hosted(g: Game, ctx: Ctx, targets: tuple[str, ...], onto: Selector) -> Game:
    for cid in targets[:1]:
        hosts = [h for h in onto.candidates(g, ctx) if h != cid and q.is_installed(g, h)]
        if not hosts or cid not in g.cards or q.is_installed(g, cid):
            return log(g, "no_target", f"{cid} has no card to be installed on: nothing happens", "rule_valid_hosts",
                       ctx.controller, card=ctx.source)
        if onto.chooses and len(hosts) > 1:
            from judgebook.engine.rules.verbs import ChooseHost

            return push(g, ChooseHost(ctx, (cid,), tuple(hosts), install=True))
        return install_on(g, ctx, cid, hosts[0])
    return g


def install_on(g: Game, ctx: Ctx, cid: str, on: str) -> Game:
    from judgebook.engine.language.costs import Cost
    from judgebook.engine.language.quantities import Number
    from judgebook.engine.rules import costs

    d = q.definition(g, cid)
    side = g.cards[cid].owner
    from_hand = g.cards[cid].zone.endswith(".hand")
    origin = q.from_zone(g, cid)
    price = Cost(credits=Number(costs.changed(g, "install", cid, d.cost or 0)), has_credits=True)
    why = costs.refusal(g, price, Ctx(cid, side), side, "install")
    if why:
        return log(g, "cannot_pay", f"{cid} cannot be installed: {why[1]}", why[0], side, card=cid)
    g = costs.pay(g, price, Ctx(cid, side), side, "install")
    g = move(g, cid, f"hosted.{on}")
    g = replace(g, cards=g.cards.set(cid, replace(g.cards[cid], host=on)))
    g = like_cards(g, cid)  # a program over the memory limit: room is made (rule_program_install_exceed_memory_limit)
    return emit(g, event("installed", card=cid, type=d.type, player=side, server=None, from_hand=from_hand,
                         from_zone=origin),
                f"{cid} is installed on {on}", "rule_valid_hosts", side)
