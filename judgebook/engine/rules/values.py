"""Values computed from the state and the static effects in force: strength, hand size, link, memory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.selectors import Ref
from judgebook.engine.language.statics import AdditionalCost, Cannot, CostChange, Static
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Duration, Game, Side


def statics(g: Game, kind: str | None = None) -> Iterator[tuple[Static, Ctx]]:
    """Every static effect that applies now: active cards' static abilities whose `while:` holds, and
    lasting effects; with `kind`, only effects of that name (their `while:` alone is evaluated, so a restriction
    whose `while:` reads agenda points is not evaluated while agenda points are counted)."""
    from judgebook.engine.rules.gained_abilities import abilities

    for cid, card in g.cards.items():
        for ab in abilities(g, cid):  # as effects change them (a card that lost its abilities has none)
            if ab.static is None or (kind is not None and ab.static.name != kind):
                continue
            ctx = Ctx(cid, card.owner, ab.id)
            # An additional cost to play or install this card applies while it is not yet active, and so does a
            # restriction on playing it ("play only if": rule_act_restriction, rule_static_ability_with_restriction).
            own_cost = isinstance(ab.static, AdditionalCost) and ab.static.card == "self"
            # So does one defining or modifying the card's own advancement requirement
            # (rule_active_exception_advancement_requirement).
            own_cost = own_cost or restricts_self(ab.static) or ab.static.name == "advancement_requirement"
            own_cost = own_cost or (isinstance(ab.static, CostChange) and ab.static.own)
            # A persistent static ability stays active for the rest of the run after its card is trashed.
            persists = ab.persistent and left_this_run(g, cid)
            if not own_cost and not ability_active(g, cid, ab.active_in) and not persists:
                continue
            if ab.condition is not None and not ab.condition.holds(g, ctx):
                continue
            yield ab.static, ctx
    for lasting in g.lasting:
        if lasting.effect is None or not _in_force(g, lasting.duration):
            continue
        if kind is not None and lasting.effect.name != kind:
            continue
        owner = lasting.controller
        yield lasting.effect, Ctx(lasting.source, owner, "", chosen=(lasting.target,) if lasting.target else ())


def left_this_run(g: Game, cid: str) -> str | None:
    """The server an active card was trashed from during the run in progress ("Persistent →"), or None."""
    from judgebook.engine.rules.frames import current_run

    run = current_run(g)
    if run is None:
        return None
    for fact in reversed(g.history):
        ev = fact.event
        if fact.run == run.seq and ev.name == "trashed" and ev.get("card") == cid and ev.get("active"):
            return str(ev.get("server") or "") or None
    return None


def restricts_self(effect: Static) -> bool:
    return isinstance(effect, Cannot) and isinstance(effect.card, Ref) and effect.card.ref == "self"


def ability_active(g: Game, cid: str, active_in: str | None) -> bool:
    card = g.cards[cid]
    if active_in is None or q.is_active(g, cid):
        return q.is_active(g, cid)
    if active_in == "accessed":
        from judgebook.engine.rules.access import Access
        from judgebook.engine.rules.frames import find

        acc = find(g, Access)
        return acc is not None and acc.card == cid
    if active_in == "installed":
        return q.is_installed(g, cid)
    zone = card.zone.split(".")[-1]
    return zone == active_in or (active_in == "current" and card.zone.endswith("current"))


def _modifier_sum(g: Game, key: str, cid: str | None = None, side: Side | None = None) -> int:
    total = 0
    for effect, ctx in statics(g, key):
        if effect.name != key:
            continue
        target = getattr(effect, "target", None)
        player = getattr(effect, "player", None)
        if cid is not None:
            targets = target.candidates(g, ctx) if target is not None else [ctx.source]
            if cid not in targets:
                continue
        if side is not None and ctx.side(player or "you") != side:
            continue
        total += effect.delta(g, ctx)  # type: ignore[attr-defined]
    return total


def strength(g: Game, cid: str) -> int:
    from judgebook.engine.rules.frames import current_encounter, current_run

    base = q.printed_strength(g, cid)
    bonus = _modifier_sum(g, "strength", cid=cid)
    enc = current_encounter(g)
    if enc is not None:
        bonus += sum(n for c, n in enc.strength if c == cid)
    run = current_run(g)
    if run is not None:
        bonus += sum(n for c, n in run.strength if c == cid)
    return base + bonus


def subroutines(g: Game, cid: str) -> tuple[Any, ...]:
    """An ice's subroutines in order: its printed ones with those it gains (`gain_subroutine` statics)."""
    from judgebook.engine.language.statics import GainSubroutine
    from judgebook.engine.rules.gained_abilities import gains_abilities, printed_subroutines_kept

    # A card that lost its abilities has no subroutine (Hush: but its printed ones), and gains none.
    printed = q.definition(g, cid).subroutines if printed_subroutines_kept(g, cid) else ()
    before: list[Any] = []
    after: list[Any] = []
    for effect, ctx in statics(g) if gains_abilities(g, cid) else ():
        if not isinstance(effect, GainSubroutine):
            continue
        if cid not in (effect.target.candidates(g, ctx) if effect.target is not None else [ctx.source]):
            continue
        (before if effect.before else after).extend([effect.subroutine] * max(0, effect.count.value(g, ctx)))
    return tuple(before) + tuple(printed) + tuple(after)


def hand_size(g: Game, side: Side) -> int:
    return max(0, max_hand_size(g, side))


def max_hand_size(g: Game, side: Side) -> int:
    """The maximum hand size as modified, which may be below 0 (the Runner then flatlines at the discard step)."""
    return g.player(side).base_hand_size + _modifier_sum(g, "hand_size", side=side)


def link(g: Game) -> int:
    base = g.runner.base_link + sum(
        g.library.card(g.cards[c].name).link for c in q.installed(g, "runner") if q.is_active(g, c)
    )
    ident = g.zone("runner.identity")
    base += sum(q.definition(g, c).link for c in ident)
    return base + _modifier_sum(g, "link", side="runner")


def agenda_points(g: Game, side: Side) -> int:
    """A player's agenda points: the agendas in their score area, as static effects change what each is worth."""
    return q.agenda_points(g, side) + sum(_modifier_sum(g, "agenda_points", cid=c) for c in g.zone(f"{side}.score"))


def allotted_clicks(g: Game, side: Side, base: int) -> int:
    """The clicks a player gains at the start of their turn, as lingering effects modify them (never below 0)."""
    return max(0, base + _modifier_sum(g, "allotted_clicks", side=side))


def mark(g: Game) -> str | None:
    """The server designated as the Runner's mark this turn, if any (rule_only_one_mark)."""
    from judgebook.engine.language.statics import Mark

    return next((effect.server for effect, _ in statics(g) if isinstance(effect, Mark)), None)


def memory_limit(g: Game) -> int:
    return g.runner.base_memory + _modifier_sum(g, "memory", side="runner")


def unused_memory(g: Game) -> int:
    used = sum(q.definition(g, c).memory for c in q.installed(g, "runner") if q.definition(g, c).type == "program")
    return memory_limit(g) - used


def player_stat(g: Game, side: Side, stat: str) -> int:
    p = g.player(side)
    direct = {
        "credits": p.credits,
        "clicks": p.clicks,
        "tags": p.tags,
        "bad_publicity": p.bad_publicity,
        "core_damage": p.core_damage,
    }
    if stat in direct:
        return direct[stat]
    if stat == "agenda_points":
        return agenda_points(g, side)
    if stat == "hand_size":
        return hand_size(g, side)
    if stat == "link":
        return link(g)
    if stat == "unused_mu":
        return unused_memory(g)
    if stat == "cards_in_hand":
        return len(g.zone(f"{side}.hand"))
    if stat == "cards_in_deck":
        return len(g.zone(f"{side}.deck"))
    raise ValueError(stat)


def card_stat(g: Game, cid: str, stat: str) -> int:
    d = q.definition(g, cid)
    if stat == "strength":
        return strength(g, cid)
    if stat in ("install_cost", "rez_cost", "play_cost"):
        return d.cost or 0
    if stat == "trash_cost":
        return d.trash_cost or 0
    if stat == "printed_agenda_points":
        return d.agenda_points
    if stat == "memory_cost":
        return d.memory
    if stat == "subroutine_count":
        return len(subroutines(g, cid))
    if stat == "advancement_requirement":
        return advancement_requirement(g, cid)
    raise ValueError(stat)


def advancement_requirement(g: Game, cid: str) -> int:
    """The printed requirement (X counts as 0) changed by static effects, never below 0
    (rule_advancement_requirement)."""
    printed = q.definition(g, cid).advancement_requirement or 0
    return max(0, printed + _modifier_sum(g, "advancement_requirement", cid=cid))


def can_be_advanced(g: Game, cid: str) -> bool:
    """An installed Corp card the Corp can advance: an agenda, or a card saying it can be advanced (its ability
    active even while unrezzed: rule_active_exception_can_be_advanced)."""
    from judgebook.engine.language.statics import CanBeAdvanced

    d = q.definition(g, cid)
    if d.type == "agenda":
        return True
    if d.type != "ice" and "advanceable" in d.subtypes:
        return True
    return any(isinstance(ab.static, CanBeAdvanced) for ab in d.abilities)


def _in_force(g: Game, d: Duration) -> bool:
    """A lasting effect for a run, an encounter or a turn applies only during that one (an effect made
    before a run is for the next run: "during that run")."""
    from judgebook.engine.rules.frames import current_encounter, find
    from judgebook.engine.rules.run import Run

    if d.kind == "run":
        run = find(g, Run)
        return run is not None and run.seq == d.key
    if d.kind == "encounter":
        enc = current_encounter(g)
        return enc is not None and enc.seq == d.key
    if d.kind == "turn":
        return g.turn == d.key
    return True
