"""Priority windows (rule_paid_ability_window) and reaction windows (rule_reaction_window).

A priority window: the active player receives priority first; a player with
priority uses a paid ability (and keeps priority), rezzes or scores where the
window allows, or passes; the window closes when both players pass in
succession. Before any player receives priority, pending abilities resolve in a
reaction window: the active player's first, in the order they choose.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING, Any

from judgebook.engine.language.cards import Ability
from judgebook.engine.language.context import Ctx
from judgebook.engine.rules import costs
from judgebook.engine.rules.checkpoint import checkpoint
from judgebook.engine.rules.frames import Frame, current_encounter, current_run, event, log, path, pop, push, set_top
from judgebook.engine.rules.gained_abilities import abilities, find_ability, subtypes
from judgebook.engine.rules.resolve import Resolve
from judgebook.engine.rules.triggers import emit
from judgebook.engine.rules.values import ability_active, strength, subroutines
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, Refused, decision
from judgebook.engine.state.model import Game, GameEvent, Pending, Side, Use, evolve, other

if TYPE_CHECKING:
    from judgebook.engine.language.costs import Cost
    from judgebook.engine.rules.damage import Imminent


@dataclass(frozen=True)
class PriorityWindow(Frame):
    kinds: frozenset[str]
    anchor: str
    holder: Side | None = None  # None: the active player receives priority first
    passed: frozenset[Side] = frozenset()
    run_seq: int | None = None  # a window of a run closes when the run ends

    def step(self, g: Game) -> Game | ChoicePoint:
        if g.over:
            return pop(g)
        if self.run_seq is not None:
            run = current_run(g)
            if run is None or run.seq != self.run_seq:
                return pop(g)
        depth = len(g.stack)
        g = checkpoint(g)
        if len(g.stack) > depth:  # a restriction to put right first (rules/restrictions.py)
            return g
        # (a trace's initiation is no imminent instruction: its window closes when both players pass)
        if "interrupt" in self.kinds and not _imminent_live(g) and not _increase_pending(g) \
                and self.anchor != "step_trace_initiated":
            # Fully prevented: the remaining interrupts are no longer relevant (sec_relevant_interrupts).
            stale = tuple(p for p in g.pending if p.event.name.startswith("would_"))
            if stale:
                g = evolve(g, pending=tuple(p for p in g.pending if p not in stale))
                for p in stale:
                    g = log(
                        g,
                        "expired",
                        f"{p.label} is no longer relevant: nothing it interrupts is imminent",
                        "sec_relevant_interrupts",
                        p.controller,
                        card=p.card,
                        ability=p.ability,
                    )
            return pop(g)
        interrupting = "interrupt" in self.kinds
        # In an interrupt window, pending interrupts are triggered with priority, like paid interrupts
        # (rule_interrupt_window_priority); other pending abilities resolve first in a reaction window.
        if not interrupting and g.pending:
            return push(g, ReactionWindow())
        holder = self.holder or g.active
        if len(self.passed) == 2:
            stale = tuple(p for p in g.pending if _is_would(p))
            if stale:
                g = evolve(g, pending=tuple(p for p in g.pending if p not in stale))
                for p in stale:
                    g = log(
                        g,
                        "not_used",
                        f"{p.label} is not used",
                        "rule_optional_conditional_ability",
                        p.controller,
                        card=p.card,
                        ability=p.ability,
                    )
            return pop(g)
        kinds = self.kinds | ({"encounter"} if self.anchor == "step_encounter_paw" else set())
        opts, refused = options(g, holder, kinds)
        mine = [p for p in g.pending if p.controller == holder and interrupting and _is_would(p)]
        triggers = [
            Option(
                decision("trigger", p.card, ability=p.ability), f"resolve {p.label}", "rule_interrupt_window_priority"
            )
            for p in mine
        ]
        declines = [
            Option(
                decision("decline", p.card, ability=p.ability),
                f"do not use {p.label}",
                "rule_optional_conditional_ability",
            )
            for p in mine
            if _ability(g, p).optional
        ]
        pass_option = Option(decision("pass", holder), "pass priority", "rule_pass")
        mandatory = [p for p in mine if not _ability(g, p).optional]
        if mandatory:
            refused.append(
                Refused(
                    pass_option.decision,
                    "pass priority",
                    "rule_cannot_pass_with_mandatory_conditional_abilities_pending",
                    f"{mandatory[0].label} must resolve first",
                )
            )
            head: list[Option] = triggers + declines
        else:
            head = triggers + [pass_option] + declines
        return ChoicePoint(
            holder,
            "priority",
            f"{'interrupt' if interrupting else 'paid ability'} window: the {holder} has priority",
            self.anchor,
            tuple(head) + tuple(opts),
            tuple(refused),
            default=0,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        holder = self.holder or g.active
        d = option.decision
        if d.kind == "pass":
            g = log(g, "pass", f"the {holder} passes priority", "rule_pass", holder, how="chosen")
            return set_top(g, replace(self, holder=other(holder), passed=self.passed | {holder}))
        g = set_top(g, replace(self, holder=holder, passed=frozenset()))
        if d.kind in ("trigger", "decline"):
            return resolve_pending(g, option)
        return act(g, holder, option)


def _increase_pending(g: Game) -> bool:
    """Interrupts that increase the imminent value stay relevant though it is all prevented for now."""
    from judgebook.engine.language.instructions import ChangeImminent

    return any(
        isinstance(e, ChangeImminent) and e.increase for p in g.pending if _is_would(p) for e in _ability(g, p).effects
    )


def _is_would(p: Pending) -> bool:
    return p.event.name.startswith("would_")


def _live_pending(g: Game) -> bool:
    return bool(g.pending)


def _imminent(g: Game) -> Imminent | None:
    from judgebook.engine.rules.damage import Imminent
    from judgebook.engine.rules.frames import find

    found: Imminent | None = find(g, Imminent)
    return found


def _imminent_live(g: Game) -> bool:
    imm = _imminent(g)
    return imm is not None and imm.live


def interrupt_options(g: Game) -> bool:
    """Whether either player could use a paid interrupt now (else no interrupt window opens)."""
    return any(options(g, side, frozenset({"paid", "interrupt"}))[0] for side in ("corp", "runner"))


def _prevents(ab: Ability, event_name: str) -> bool:
    from judgebook.engine.language.instructions import ChangeImminent

    what = {"trashed": "trash", "damage": "damage", "tags_taken": "tags"}.get(event_name)
    return any(isinstance(e, ChangeImminent) and e.what == what for e in ab.effects)


def _paid_as_cost(ev: GameEvent) -> str:
    if ev.name == "trashed":
        return f"{ev.get('card')} was trashed"
    return "damage was suffered" if ev.name == "damage" else "tags were taken"


def _relevant(g: Game, ab: Ability) -> bool:
    """An interrupt is relevant while something it prevents or increases is still imminent."""
    from judgebook.engine.language.instructions import ChangeImminent

    # An interrupt to something other than an imminent instruction (a trace's initiation) says when it is relevant.
    own = [e for e in ab.effects if hasattr(e, "interrupts")]
    if own:
        return any(e.interrupts(g) for e in own)
    imm = _imminent(g)
    if imm is None:
        return False
    changes = [e for e in ab.effects if isinstance(e, ChangeImminent)]
    if not changes:
        return True
    # "Prevent core damage" is not relevant while only net damage is imminent (rule_replace_imminent_effects).
    return any(p.what == c.what and (not c.kind or p.kind == c.kind) and (p.amount > 0 or c.increase)
               for c in changes for p in imm.parts)


def options(g: Game, side: Side, kinds: frozenset[str]) -> tuple[list[Option], list[Refused]]:
    opts: list[Option] = []
    refused: list[Refused] = []
    offered = _offered_by_the_ice(g, side)
    for cid in _controlled(g, side) + offered:
        for ab in abilities(g, cid):  # as effects change them
            if ab.kind != "paid" or ab.is_action:
                continue
            # "Only the Runner can use this ability": the encountered ice's, never its controller's.
            if ab.used_by is not None and ab.used_by != side or cid in offered and ab.used_by != side:
                continue
            if not ability_active(g, cid, ab.active_in) and not (ab.access and _accessing(g) == cid):
                continue
            if ab.access and side == "runner" and _accessing(g) != cid:
                continue  # a Runner's "Access →" ability: only in the mid-access ability window (access.py)
            _ability_options(g, side, cid, ab, kinds, opts, refused)
    refused += _hosted_only_refusals(g, side)
    if "rez" in kinds or "rez_ice" in kinds:
        from judgebook.engine.rules.memory import rez_any_time

        for cid in q.installed(g, "corp") if side == "corp" else ():
            card = g.cards[cid]
            if card.rezzed:
                continue
            d = q.definition(g, cid)
            ice = q.is_ice(g, cid)
            if d.type == "agenda":
                continue
            rez_as_non_ice = "rez" in kinds and rez_any_time(g, cid)  # Rime, during runs on its server
            if ice and not ("rez_ice" in kinds and _approached(g) == cid) and not rez_as_non_ice:
                refused.append(
                    Refused(
                        decision("rez", cid),
                        f"rez {cid}",
                        "rule_rez_ice_restriction",
                        "ice is rezzed only when the Runner approaches it",
                        later=True,
                    )
                )
                continue
            if not ice and "rez" not in kinds:
                continue
            why = _rez_refusal(g, cid)
            if why:
                refused.append(Refused(decision("rez", cid), f"rez {cid}", why[0], why[1]))
            else:
                rez_it = Option(decision("rez", cid), f"rez {cid} ({d.cost or 0}[c])", "rule_rez_procedure")
                opts += costs.with_sources(rez_it, g, "corp", "any", cid,  # which credits pay (rule_spend_credits)
                                           costs.changed(g, "rez", cid, d.cost or 0))
    if "score" in kinds and side == "corp":
        for cid in q.installed(g, "corp"):
            d = q.definition(g, cid)
            from judgebook.engine.rules.values import advancement_requirement

            requirement = advancement_requirement(g, cid)  # as changed by static effects
            if d.type == "agenda" and g.cards[cid].count("advancement") >= requirement:
                extra = costs.additional_cost(g, "score", cid)
                why = costs.refusal(g, extra, Ctx(cid, "corp"), "corp") if extra is not None else None
                if costs.cannot(g, "score", "corp", q.server_of(g, cid), cid):
                    refused.append(
                        Refused(
                            decision("score", cid),
                            f"score {cid}",
                            "rule_cannot_precedence",
                            "a card forbids scoring it",
                        )
                    )
                elif why is not None:  # its additional cost to score cannot be paid (rule_additional_cost)
                    refused.append(Refused(decision("score", cid), f"score {cid}", "rule_additional_cost", why[1]))
                else:
                    opts.append(Option(decision("score", cid), f"score {cid}", "rule_paid_ability_window_corp_score"))
            elif d.type == "agenda":
                refused.append(
                    Refused(
                        decision("score", cid),
                        f"score {cid}",
                        "rule_advancement_requirement",
                        f"{g.cards[cid].count('advancement')} of {requirement} advancement counters",
                        later=True,
                    )
                )
    return opts, refused


def _hosted_only_refusals(g: Game, side: Side) -> list[Refused]:
    """A card hosted without being installed is not installed, so not active: its paid abilities are refused
    with the rule that keeps it uninstalled (rule_host_without_install), not silently left out."""
    return [
        Refused(decision("use", cid, ability=ab.id), f"{cid}: {ab.text or ab.id}", "rule_host_without_install",
                f"{cid} is hosted on {card.host} without being installed: its abilities are not active")
        for cid, card in g.cards.items()
        if card.hosted_only and card.owner == side
        for ab in abilities(g, cid)
        if ab.kind == "paid" and not ab.is_action
    ]


def _controlled(g: Game, side: Side) -> list[str]:
    out = q.installed(g, side) + list(g.zone(f"{side}.identity")) + list(g.zone(f"{side}.score"))
    # An event or operation in the play area is active: its paid abilities too (Spree, during its run).
    out += [c for c in g.zone("play") if g.cards[c].owner == side]
    acc = _accessing(g)
    if acc and side == "runner":
        out.append(acc)
    return out


def _offered_by_the_ice(g: Game, side: Side) -> list[str]:
    """The encountered ice, whose abilities marked `used_by: runner` the Runner may use (Ansel 1.0's
    "Lose [click]: Break 1 subroutine on this ice. Only the Runner can use this ability.")."""
    enc = current_encounter(g)
    if side != "runner" or enc is None or enc.ice not in g.cards:
        return []
    return [enc.ice] if any(a.used_by == side for a in abilities(g, enc.ice)) else []


def _accessing(g: Game) -> str | None:
    from judgebook.engine.rules.access import Access
    from judgebook.engine.rules.frames import find

    f = find(g, Access)
    return f.card if f is not None else None


def _approached(g: Game) -> str | None:
    run = current_run(g)
    return run.ice_at(g) if run is not None and run.phase == "approach_ice" else None


def _rez_refusal(g: Game, cid: str) -> tuple[str, str] | None:
    if costs.cannot(g, "rez", "corp", q.server_of(g, cid), cid):
        return "rule_cannot_precedence", "a card forbids rezzing it"
    return costs.refusal(g, _rez_cost(g, cid), Ctx(cid, "corp"), "corp")


def _rez_cost(g: Game, cid: str) -> Cost:
    """The rez cost as changed by static effects, with any additional cost to rez (rule_additional_cost)."""
    from judgebook.engine.language.costs import Cost
    from judgebook.engine.language.quantities import Number

    price = Cost(credits=Number(costs.changed(g, "rez", cid, q.definition(g, cid).cost or 0)), has_credits=True)
    extra = costs.additional_cost(g, "rez", cid)
    return price.plus(extra) if extra is not None else price


def use_key(g: Game, cid: str, ab: Ability) -> Use | None:
    if ab.once_per is None:
        return None
    if ab.once_per == "turn":
        key = g.turn
    elif ab.once_per == "run":
        run = current_run(g)
        key = int(run.seq) if run else -1
    else:
        enc = current_encounter(g)
        key = int(enc.seq) if enc else -1
    return Use(cid, ab.id, ab.once_per, key, g.cards[cid].incarnation if cid in g.cards else 0)


def used_by_previous_object(g: Game, use: Use | None) -> Game:
    """Say so where a once-per ability is used again because its card is a new object (rule_no_memory)."""
    if use is None or use in g.uses:
        return g
    if not any(replace(u, incarnation=use.incarnation) == use for u in g.uses):
        return g
    text = f"{use.card} is a new object: its previous object's use of {use.ability} (once per {use.scope}) " \
        "does not count"
    return log(g, "new_object", text, "rule_no_memory", g.cards[use.card].owner, card=use.card)


def _ability_options(
    g: Game, side: Side, cid: str, ab: Ability, kinds: frozenset[str], opts: list[Option], refused: list[Refused]
) -> None:
    label = f"{cid}: {ab.text or ab.id}"
    base = decision("use", cid, ability=ab.id)
    use = use_key(g, cid, ab)
    if use is not None and use in g.uses:
        refused.append(Refused(base, label, "rule_cost_restrictions", f"once per {ab.once_per}"))
        return
    ctx = Ctx(cid, side, ab.id)
    if costs.cannot(g, "use_paid_abilities", side, card=cid):  # "cannot use paid abilities printed on …"
        refused.append(Refused(base, label, "rule_cannot_precedence", "a card forbids using it"))
        return
    if ab.condition is not None and not ab.condition.holds(g, ctx):
        # "Use this ability only …": a restriction the ability's `if` states (rule_use_restriction).
        refused.append(Refused(base, label, "rule_use_restriction", f"only {ab.condition.render()}", later=True))
        return
    if ab.interrupt:
        paid = [f.event for f in g.history if f.event.get("cost") and f.turn == g.turn and _prevents(ab, f.event.name)]
        if "interrupt" not in kinds and paid:
            refused.append(
                Refused(
                    base,
                    label,
                    "rule_cost_no_interrupt",
                    f"{_paid_as_cost(paid[-1])} to pay a cost, and paying a cost cannot be prevented",
                )
            )
            return
        if "interrupt" not in kinds:
            refused.append(
                Refused(
                    base,
                    label,
                    "rule_interrupt",
                    "an interrupt is used only while what it interrupts is imminent",
                    later=True,
                )
            )
            return
        if not _relevant(g, ab):
            # Not here; while an interrupt to the instruction is still pending, it may replace the expected effect
            # with one this interrupt answers at a later point (rule_replace_imminent_effects).
            later = any(p.event.name.startswith("would_") for p in g.pending)
            refused.append(Refused(base, label, "sec_relevant_interrupts", "nothing it prevents is imminent",
                                   later=later))
            return
    elif "interrupt" in kinds:
        return
    if ab.brk is not None:
        enc = current_encounter(g)
        if enc is None or "encounter" not in kinds:
            refused.append(
                Refused(
                    base,
                    label,
                    "rule_paid_ability_breaks_subroutines",
                    "breaks subroutines only during an encounter's paid ability window",
                    later=True,
                )
            )
            return
        if q.is_ice(g, cid) and cid != enc.ice:
            refused.append(Refused(base, label, "rule_paid_ability_breaks_subroutines",
                                   f"breaks subroutines on {cid} only", later=True))
            return
        if ab.brk.subtype and ab.brk.subtype not in subtypes(g, enc.ice):  # as effects change them
            refused.append(
                Refused(
                    base,
                    label,
                    "rule_paid_ability_breaks_subroutines",
                    f"{enc.ice} is not a {ab.brk.subtype}",
                    later=True,
                )
            )
            return
        if costs.cannot(g, "break", side, card=enc.ice):
            refused.append(
                Refused(base, label, "rule_cannot_precedence", f"{enc.ice}'s subroutines cannot be broken", later=True)
            )
            return
        # Only an icebreaker's interface needs its strength (rule_icebreaker_interface_strength): Botulus,
        # Endurance or Boomerang break at any strength.
        if "icebreaker" in q.definition(g, cid).subtypes and strength(g, cid) < strength(g, enc.ice):
            refused.append(
                Refused(
                    base,
                    label,
                    "rule_icebreaker_interface_strength",
                    f"strength {strength(g, cid)} is below {enc.ice}'s {strength(g, enc.ice)}",
                )
            )
            return
        unbroken = [i for i in range(len(subroutines(g, enc.ice))) if i not in enc.broken]
        if not unbroken:
            refused.append(Refused(base, label, "rule_break_subroutine", "no unbroken subroutine", later=True))
            return
        from judgebook.engine.rules.encounter import break_allowance

        allowance = break_allowance(g, cid, enc)  # a card's "cannot break more than N subroutines"
        if allowance == 0:
            refused.append(Refused(base, label, "rule_cannot_precedence", f"{cid} cannot break more of "
                                   f"{enc.ice}'s subroutines this encounter"))
            return
    purpose, amount = "use", 0
    if ab.cost is not None:
        purpose = "break" if ab.brk is not None or "icebreaker" in q.definition(g, cid).subtypes else "use"
        price = costs.changed_cost(g, ab.cost, ctx)
        why = costs.refusal(g, price, ctx, side, purpose)
        if why:
            refused.append(Refused(base, label, why[0], why[1]))
            return
        amount = price.credits.value(g, ctx) if price.has_credits and not price.x else 0
    if ab.brk is not None and ab.brk.x:
        from judgebook.engine.rules.amounts import x_break_options

        opts.extend(x_break_options(g, side, cid, ab, unbroken, allowance, label))
        return
    if ab.brk is not None:
        n = len(unbroken) if ab.brk.count is None else min(ab.brk.count, len(unbroken))
        n = n if allowance is None else min(n, allowance)
        # "Break up to N": any 1 to N unbroken subroutines are its targets, the most first so that a
        # decision naming none breaks as many as it can (rule_target: Cleaver's "1 or 2 subroutines").
        # "Break N": N targets while N remain; fewer only when fewer are left (rule_distinct_targets).
        for size in range(n, 0, -1):
            for subs in combinations(unbroken, size):
                chosen = [i + 1 for i in subs]
                d = decision("use", cid, ability=ab.id, subroutines=chosen)
                text = f"{label} (subroutine {', '.join(map(str, chosen))})"
                if size == n:
                    opts.extend(costs.with_sources(Option(d, text, "rule_break_subroutine"),
                                                   g, side, purpose, cid, amount))  # once per way credits pay
                elif ab.brk.up_to:
                    opts.extend(costs.with_sources(Option(d, text, "rule_target"), g, side, purpose, cid, amount))
                else:
                    refused.append(Refused(d, text, "rule_distinct_targets",
                                           f"{cid} breaks {ab.brk.count or 'all'} subroutines, not \"up to\" "
                                           f"{ab.brk.count or 'all'}: with {n} unbroken it breaks {n}"))
        return
    opts.extend(costs.with_sources(Option(base, label, "step_paid_ability_resolution"), g, side, purpose, cid, amount))


def act(g: Game, side: Side, option: Option) -> Game:
    d = option.decision
    if d.kind == "rez":
        from judgebook.engine.rules.effects import rez

        cid = str(d.value)
        return costs.pay_then(g, _rez_cost(g, cid), Ctx(cid, "corp"), "corp", rez, (cid, True),
                              using=tuple(d.get("using") or ()), checkpoint=True)
    if d.kind == "score":
        cid = str(d.value)
        extra = costs.additional_cost(g, "score", cid)  # "as an additional cost to score this agenda"
        if extra is None:
            return _score(g, cid)
        return costs.pay_then(g, extra, Ctx(cid, "corp"), "corp", _score, (cid,), checkpoint=True)
    if d.kind == "use":
        return use_ability(
            g, side, str(d.value), str(d.get("ability")), d.get("subroutines"), tuple(d.get("using") or ()), d.get("x")
        )
    raise ValueError(d.kind)


def _score(g: Game, cid: str) -> Game:
    from judgebook.engine.rules.effects import move

    # The server it was scored from, for "whenever you score an agenda from this server"; and the
    # advancement counters it had as it began to be scored (rule_dividends_timing): the move to the
    # score area makes a new object without them, so the event carries the count.
    server = q.server_of(g, cid)
    advancements = g.cards[cid].count("advancement")
    g = move(g, cid, "corp.score")
    return emit(
        g,
        event("scored", card=cid, player="corp", server=server, advancements=advancements),
        f"the Corp scores {cid}",
        "rule_paid_ability_window_corp_score",
        "corp",
    )


def use_ability(
    g: Game,
    side: Side,
    cid: str,
    ability: str,
    subroutines: list[int] | None,
    using: tuple[str, ...] = (),
    x: int | None = None,
) -> Game:
    ab = find_ability(g, cid, ability)  # printed or gained
    assert ab is not None
    if x is not None and not (ab.cost is not None and ab.cost.x):
        from judgebook.engine.errors import IllegalDecision

        raise IllegalDecision(f"x: {x} given, but {cid}'s {ab.id} has no X in its cost", "rule_cost_x")
    if ab.brk is not None and ab.brk.x:
        from judgebook.engine.rules.amounts import check_x_break

        check_x_break(g, cid, subroutines, x)
    ctx = Ctx(cid, side, ab.id, x=int(x or 0))
    before = g.pending
    use = use_key(g, cid, ab)
    g = used_by_previous_object(g, use)
    if use is not None:
        g = evolve(g, uses=g.uses | {use})
    if ab.cost is not None:
        purpose = "break" if ab.brk is not None or "icebreaker" in q.definition(g, cid).subtypes else "use"
        # A cost with choices (cards to trash, one cost of several) is paid before the ability goes on.
        return costs.pay_then(g, costs.changed_cost(g, ab.cost, ctx), ctx, side, _used,
                              (side, cid, ability, subroutines, ctx, before), purpose, using)
    return _used(g, side, cid, ability, subroutines, ctx, before)


def _used(
    g: Game, side: Side, cid: str, ability: str, subroutines: list[int] | None, ctx: Ctx, before: Any
) -> Game:
    ab = q.definition(g, cid).ability(ability)
    assert ab is not None
    g = emit(
        g,
        event(
            "ability_used",
            card=cid,
            ability=ab.id,
            player=side,
            trash_cost=bool(ab.cost and ab.cost.trash_self),
            type=q.definition(g, cid).type,  # "take an action on an installed resource" (Juli Moreira Lee)
            action=ab.is_action,
        ),
        f"the {side} uses {cid}: {ab.text or ab.id}",
        "step_paid_ability_resolution",
        side,
    )
    if ab.brk is not None:
        from judgebook.engine.rules.encounter import break_subroutines

        g = _fewer_targets(g, side, cid, ab, subroutines or [])
        g = break_subroutines(g, cid, [s - 1 for s in subroutines or []])
    if ab.is_action:
        from judgebook.engine.rules.frames import Call
        from judgebook.engine.rules.memory import finished_action

        g = push(g, Call(finished_action, (cid,)))  # after it resolves: "finish resolving an action" (Nuvem SA)
    if ab.effects:
        g = push(g, Resolve(ab.effects, ctx, "step_paid_ability_resolution", announce=ab.text or ab.id))
    # Abilities that paying the cost made pending resolve before the paid ability does.
    fresh = [p for p in g.pending if p not in before]
    return push(g, ReactionWindow()) if fresh else g


def _fewer_targets(g: Game, side: Side, cid: str, ab: Ability, subs: list[int]) -> Game:
    """ "Break up to N": the timeline says so where the Runner chose fewer targets than it could (rule_target:
    Cleaver's targets are "the 1 or 2 subroutines that it will break")."""
    enc = current_encounter(g)
    if ab.brk is None or not ab.brk.up_to or ab.brk.count is None or enc is None:
        return g
    unbroken = len(subroutines(g, enc.ice)) - len(enc.broken)
    if len(subs) >= min(ab.brk.count, unbroken):
        return g
    chosen = ", ".join(map(str, subs))
    return log(g, "chosen", f"the {side} chooses {len(subs)} of up to {ab.brk.count} subroutines for {cid} to "
               f"break (subroutine {chosen})", "rule_target", side, card=cid, ability=ab.id)


@dataclass(frozen=True)
class ReactionWindow(Frame):
    after: int = -1  # only abilities that became pending after this sequence number (a chain reaction's)

    def step(self, g: Game) -> Game | ChoicePoint:
        g = _drop_stale(g)
        pending = [p for p in g.pending if p.serial > self.after]
        if g.over or not pending:
            return pop(g)
        side = g.active if any(p.controller == g.active for p in pending) else other(g.active)
        mine = [p for p in pending if p.controller == side]
        opts = [
            Option(
                decision("trigger", p.card, ability=p.ability), f"resolve {p.label}", "rule_reaction_window_priority"
            )
            for p in mine
        ]
        opts += [
            Option(
                decision("decline", p.card, ability=p.ability),
                f"do not use {p.label}",
                "rule_optional_conditional_ability",
            )
            for p in mine
            if _ability(g, p).optional
        ]
        refused = tuple(
            Refused(
                decision("decline", p.card, ability=p.ability),
                f"do not use {p.label}",
                "rule_cannot_pass_with_mandatory_conditional_abilities_pending",
                "it is mandatory",
            )
            for p in mine
            if not _ability(g, p).optional
        )
        return ChoicePoint(
            side,
            "reaction",
            f"reaction window: the {side} resolves a pending ability",
            "rule_reaction_window",
            tuple(opts),
            refused,
            default=0,
            default_reason="only" if len(opts) == 1 else "default",
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        return resolve_pending(g, option)


def resolve_pending(g: Game, option: Option) -> Game:
    d = option.decision
    p = next(p for p in g.pending if p.card == d.value and p.ability == d.get("ability"))
    g = evolve(g, pending=tuple(x for x in g.pending if x is not p))
    if d.kind == "decline":
        return log(
            g,
            "decline",
            f"the {p.controller} does not use {p.label}",
            "rule_optional_conditional_ability",
            p.controller,
            how="chosen",
            card=p.card,
            ability=p.ability,
        )
    ab = _ability(g, p)
    ctx = Ctx(p.card, p.controller, p.ability, p.event, chosen=(p.target,) if p.target else (), since=p.since,
              incarnation=p.incarnation)
    if ab.condition is not None and not ab.condition.holds(g, ctx):
        return log(
            g,
            "fizzle",
            f"{p.label}: its condition no longer holds",
            "step_checkpoint_conditional_abilities",
            p.controller,
            card=p.card,
            ability=p.ability,
        )
    from judgebook.engine.rules.gained_abilities import offer_prevention

    offered = offer_prevention(g, p, option)  # "prevent a 'when encountered' ability" (AirbladeX)
    if offered is not None:
        return offered
    use = use_key(g, p.card, ab)
    if use is not None and use in g.uses:
        # Two instances pending at once: the first used the ability, this one cannot resolve.
        return log(g, "fizzle", f"{p.label}: once per {ab.once_per}, already used", "rule_cost_restrictions",
                   p.controller, card=p.card, ability=p.ability)
    g = log(
        g,
        "resolve",
        f"{p.label} resolves: {ab.text or ab.id}",
        _order_rule(g, p),
        p.controller,
        how="chosen",  # which pending ability resolves next was the player's choice: advance marks a default
        card=p.card,
        ability=p.ability,
    )
    if use is not None:
        g = evolve(g, uses=g.uses | {use})
    if ab.optional:  # an optional ability chosen to resolve is used, with its source (rule_using)
        from judgebook.engine.rules.revealed import used_optionally

        g = used_optionally(g, ctx, p.controller)
    card = g.cards.get(p.card)
    if card is not None and p.incarnation is not None and card.incarnation != p.incarnation:
        g = log(g, "new_object", f"{p.card} has changed zones since {p.label} was created: a new object the "
                "ability cannot act on", "rule_abilities_resolution_independent", p.controller, card=p.card)
    return push(g, Resolve(ab.effects, ctx, "step_conditional_ability_resolution"))


def _order_rule(g: Game, p: Pending) -> str:
    """The rule that decided this pending ability resolves now (`g.pending` no longer holds it): the active
    player's first while the other player's wait (rule_reaction_window_priority, rule_interrupt_window_priority),
    or its controller's choice among their own (…_unordered); alone, the resolution step itself."""
    would = _is_would(p)
    peers = [x for x in g.pending if _is_would(x) == would]
    if p.controller == g.active and any(x.controller != p.controller for x in peers):
        return "rule_interrupt_window_priority" if would else "rule_reaction_window_priority"
    if any(x.controller == p.controller for x in peers):
        return ("rule_interrupt_window_abilities_unordered" if would
                else "rule_reaction_window_pending_abilities_unordered")
    return "step_conditional_ability_resolution"


def _ability(g: Game, p: Pending) -> Ability:
    if p.delayed is not None:
        return p.delayed
    ab = find_ability(g, p.card, p.ability)  # printed or gained
    assert ab is not None
    return ab


def _drop_stale(g: Game) -> Game:
    """rule_reaction_window_closing_timing_structure: abilities that became pending in an encounter that is
    over no longer resolve."""
    enc = current_encounter(g)
    keep = []
    for p in g.pending:
        ab = p.delayed or find_ability(g, p.card, p.ability)
        own_move = p.event.get("card") == p.card and p.event.name in ("trashed", "access", "forfeited", "uninstalled")
        if (
            p.delayed is None
            and ab is not None
            and not ab.persistent
            and not own_move
            and not ability_active(g, p.card, ab.active_in)
        ):
            g = log(
                g,
                "expired",
                f"{p.label} no longer resolves: {p.card} is no longer active",
                "rule_conditional_ability_lose_pending_when_ability_becomes_inactive",
                p.controller,
                card=p.card,
                ability=p.ability,
            )
            continue
        seq = p.event.get("encounter_seq") if p.event.name == "encounter_ice" else None
        if seq is not None and (enc is None or enc.seq != seq):
            g = log(
                g,
                "expired",
                f"{p.label} no longer resolves: its encounter has ended",
                "rule_reaction_window_closing_timing_structure",
                p.controller,
                card=p.card,
                ability=p.ability,
            )
            continue
        keep.append(p)
    return evolve(g, pending=tuple(keep)) if len(keep) != len(g.pending) else g
