"""Events: logged, remembered for the turn, and checked against every active conditional ability."""

from __future__ import annotations

from judgebook.engine.language.cards import Ability
from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.frames import current_run, log
from judgebook.engine.rules.values import ability_active
from judgebook.engine.state.model import Fact, Game, GameEvent, Pending, Side, evolve

# The event fields naming a card, and the roles a card has only for a while (the card being accessed, the ice
# being encountered or approached): `roles` records which it had when the event happened.
CARD_KEYS = ("card", "ice", "breaker")
ROLES = ("accessed", "encountered", "approached")


def stamped(g: Game, ev: GameEvent) -> GameEvent:
    """The event with the roles its cards had when it happened (`roles`: "card:accessed", ...), so a later
    look at it ("the first time each turn you trash a card you are accessing") judges it by the state it
    happened in, not by the state now (rule_previous_object: the past game state is remembered). An event on a
    server records the Runner's mark then (`mark`, "" for none): "the first time each turn you make a
    successful run on your mark" counts only runs made while that server was the mark
    (rule_mark_designated_condition_check)."""
    if ev.get("server") is not None and ev.get("mark") is None:
        from judgebook.engine.rules.values import mark

        ev = GameEvent(ev.name, ev.fields.set("mark", mark(g) or ""))
    cards = [(k, ev.get(k)) for k in CARD_KEYS if ev.get(k) is not None]
    if not cards or ev.get("roles") is not None:
        return ev
    from judgebook.engine.language.selectors import resolve_ref

    holders = {role: set(resolve_ref(g, Ctx("", "runner"), role)) for role in ROLES}  # no side in these
    roles = tuple(f"{k}:{role}" for k, cid in cards for role in ROLES if cid in holders[role])
    return GameEvent(ev.name, ev.fields.set("roles", roles))


def emit(g: Game, ev: GameEvent, text: str, anchor: str, player: Side | None = None) -> Game:
    ev = stamped(g, ev)
    run = current_run(g)
    g = evolve(g, history=g.history + (Fact(ev, g.turn, int(run.seq) if run else -1),))
    g = log(g, ev.name, text, anchor, player, card=ev.get("card") or ev.get("ice"))
    return _trigger(g, ev)


def record(g: Game, ev: GameEvent) -> Game:
    """An event already in the timeline under its own step (a subroutine resolving): remembered and
    checked against conditional abilities, without a second line."""
    ev = stamped(g, ev)
    run = current_run(g)
    g = evolve(g, history=g.history + (Fact(ev, g.turn, int(run.seq) if run else -1),))
    return _trigger(g, ev)


def _trigger(g: Game, ev: GameEvent) -> Game:
    added: list[Pending] = []
    seq = g.seq
    from judgebook.engine.rules.gained_abilities import abilities

    for cid, card in g.cards.items():
        for ab in abilities(g, cid):  # as effects change them
            if ab.trigger is None or ab.trigger.event != ev.name:
                continue
            if not ability_active(g, cid, ab.active_in) and not _sees_own_move(g, cid, ev):
                continue
            ctx = Ctx(cid, card.owner, ab.id, ev)
            if not ab.trigger.matches(g, ctx, ev):
                continue
            if ab.once_per is not None and _used(g, cid, ab):
                continue  # "once per turn →": already used this turn, it does not become pending
            if ab.condition is not None and not ab.condition.holds(g, ctx):
                continue
            seq += 1
            added.append(Pending(cid, ab.id, card.owner, ev, serial=seq))
    for lasting in g.lasting:
        delayed = lasting.ability
        trig = delayed.trigger if delayed is not None else None
        if delayed is None or trig is None or trig.event != ev.name:
            continue
        ab = delayed
        chosen = (lasting.target,) if lasting.target else ()
        ctx = Ctx(lasting.source, lasting.controller, ab.id, ev, chosen=chosen, since=lasting.since,
                  named=lasting.named)
        if not trig.matches(g, ctx, ev) or (ab.condition is not None and not ab.condition.holds(g, ctx)):
            continue
        seq += 1
        added.append(
            Pending(
                lasting.source,
                ab.id,
                lasting.controller,
                ev,
                target=lasting.target,
                serial=seq,
                delayed=ab,
                since=lasting.since,
                incarnation=lasting.incarnation,
            )
        )
    if not added:
        return g
    g = evolve(g, pending=g.pending + tuple(added), seq=seq)
    for p in added:
        g = log(
            g,
            "pending",
            f"{p.label} becomes pending for the {p.controller}",
            "rule_pending_instances",
            p.controller,
            card=p.card,
            ability=p.ability,
        )
    return g


def _used(g: Game, cid: str, ab: Ability) -> bool:
    from judgebook.engine.rules.windows import use_key

    use = use_key(g, cid, ab)
    return use is not None and use in g.uses


def _sees_own_move(g: Game, cid: str, ev: GameEvent) -> bool:
    """A card sees events about itself where the rules say so though it is inactive: leaving play
    (rule_active_exception_conditional_move_to_inactive_zone) and being accessed
    (rule_accessing_trigger_condition)."""
    if ev.get("card") != cid:
        return False
    # Only an active card's ability stays active as the card moves to an inactive zone: an unrezzed asset
    # trashed by the Runner does not trigger its "when trashed" ability.
    # A forfeited agenda leaves its score area (where it was active) for the removed-from-game zone.
    return ev.name in ("access", "forfeited") or (ev.name in ("trashed", "uninstalled") and bool(ev.get("active")))
