"""Paying costs (rule_cost): all parts or nothing; credits from the pool and from hosted credits whose
card allows this use; nested costs inside instructions (rule_nested_cost)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from judgebook.engine.errors import IllegalDecision
from judgebook.engine.language.context import Ctx
from judgebook.engine.language.costs import CardPart, Cost
from judgebook.engine.language.quantities import Number
from judgebook.engine.language.selectors import server_matches
from judgebook.engine.language.statics import Cannot
from judgebook.engine.rules.effects import forfeit, move, remove_from_game, set_player, tags_removed, trash
from judgebook.engine.rules.frames import Call, Frame, current_run, event, log, path, pop, push
from judgebook.engine.rules.resolve import resolve_now
from judgebook.engine.rules.triggers import emit
from judgebook.engine.rules.values import statics
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Decision, Option, Refused, decision
from judgebook.engine.state.fmap import FMap
from judgebook.engine.state.model import Game, Side, evolve

if TYPE_CHECKING:
    from judgebook.engine.language.instructions import NestedCost


def cannot(g: Game, what: str, side: Side, server: str | None = None, card: str | None = None) -> Cannot | None:
    for effect, ctx in statics(g):
        if not isinstance(effect, Cannot) or effect.what != what:
            continue
        if effect.player and ctx.side(effect.player) != side:
            continue
        if effect.server and server and not server_matches(g, ctx, effect.server, server):
            continue  # a name, or `this`, `central`, `remote` ("cannot be made against a remote server")
        if effect.server == "this" and server != q.server_of(g, ctx.source):
            continue
        if effect.card is not None and card is not None and card not in effect.card.candidates(g, ctx):
            continue
        return effect
    return None


def would_be_prevented(g: Game, what: str, kind: str | None) -> bool:
    """rule_cost_interrupt_static_mandatory: a static prevention, or a mandatory conditional interrupt that
    would prevent it, makes taking tags or suffering damage as a cost impossible."""
    from judgebook.engine.language.instructions import ChangeImminent
    from judgebook.engine.language.statics import Prevent
    from judgebook.engine.rules.damage import WOULD
    from judgebook.engine.rules.frames import event
    from judgebook.engine.rules.values import ability_active

    for effect, _ in statics(g):
        if isinstance(effect, Prevent) and effect.what == what and (effect.damage_type in (None, kind)):
            return True
    ev = event(WOULD[what], damage_type=kind, amount=1)
    for cid, card in g.cards.items():
        for ab in q.definition(g, cid).abilities:
            if ab.trigger is None or ab.trigger.event != ev.name or ab.optional:
                continue
            if not any(isinstance(e, ChangeImminent) and e.what == what and not e.increase for e in ab.effects):
                continue
            ctx = Ctx(cid, card.owner, ab.id, ev)
            if ability_active(g, cid, ab.active_in) and ab.trigger.matches(g, ctx, ev):
                return True
    return False


def not_interruptible(g: Game, what: str, kind: str | None, payer: Side, card: str | None = None) -> Game:
    """Paying a cost cannot be modified or cancelled by optional interrupts (rule_cost_no_interrupt): the
    optional conditional interrupts that would fit the cost's trash, damage or tags are not offered, and the
    timeline says so (a scripted decision for one is refused with this step's rule)."""
    from judgebook.engine.language.instructions import ChangeImminent
    from judgebook.engine.rules.damage import WOULD
    from judgebook.engine.rules.values import ability_active

    ev = event(WOULD[what], damage_type=kind, amount=1, card=card)
    for cid, c in g.cards.items():
        for ab in q.definition(g, cid).abilities:
            if ab.trigger is None or ab.trigger.event != ev.name or not ab.optional:
                continue
            if not any(isinstance(e, ChangeImminent) and e.what == what for e in ab.effects):
                continue
            ctx = Ctx(cid, c.owner, ab.id, ev)
            if ability_active(g, cid, ab.active_in) and ab.trigger.matches(g, ctx, ev):
                g = log(g, "not_offered", f"{cid}: {ab.text or ab.id}: not offered, as paying a cost cannot be "
                        "modified by optional interrupts", "rule_cost_no_interrupt", c.owner, card=cid,
                        ability=ab.id)
    return g


def credit_sources(g: Game, side: Side, purpose: str, source: str | None) -> list[tuple[str, int]]:
    """Hosted credits this payment may use: (card, credits), the pool not included."""
    out = []
    # Credits hosted on an event being played count too ("you can spend hosted credits during that run").
    playing = [c for c in g.zone("play") if g.cards[c].owner == side]
    for cid in list(q.installed(g, side)) + playing:
        d = q.definition(g, cid)
        n = g.cards[cid].count("credit")
        if not n or not q.is_active(g, cid):
            continue
        if d.credits_when is not None:
            if d.credits_when.allows(g, purpose, source, Ctx(cid, side)):
                out.append((cid, n))
            continue
        if d.credits_for is None:
            continue
        allowed = {
            "any": True,
            "icebreakers": purpose == "icebreakers" or (purpose == "break"),
            "traces": purpose == "trace",
            "install": purpose == "install",
            "run": current_run(g) is not None,
            "central_run": (run := current_run(g)) is not None and run.server in q.CENTRAL,
            "trash": purpose == "trash" and current_run(g) is not None,  # trash costs during the run
        }[d.credits_for]
        if allowed:
            out.append((cid, n))
    return out


def with_sources(opt: Option, g: Game, side: Side, purpose: str, source: str | None = None,
                 amount: int = 1) -> list[Option]:
    """An option that spends credits, offered once per way of choosing the credits that pay (rule_spend_credits):
    as given (the pool first, then hosted credits), and with each card's hosted credits that may pay spent first
    (a decision's `using:`). A scripted decision names the option without `using`; its own `using` is then the
    payer's choice (Decision.with_payment)."""
    out = [opt]
    if amount <= 0:  # no credits to pay: nothing to choose
        return out
    for cid, n in credit_sources(g, side, purpose, source):
        d = Decision(opt.decision.kind, opt.decision.value, FMap({**opt.decision.params, "using": [cid]}))
        out.append(Option(d, f"{opt.label}, spending {cid}'s {n}[c] first", opt.rule))
    return out


def available_credits(g: Game, side: Side, purpose: str, source: str | None = None) -> int:
    pool = 0 if cannot(g, "spend_pool_credits", side) else g.player(side).credits
    bp = 0
    run = current_run(g)
    if side == "runner" and run is not None:
        bp = run.bp_credits
    return pool + bp + sum(n for _, n in credit_sources(g, side, purpose, source))


def refusal(g: Game, cost: Cost, ctx: Ctx, payer: Side, purpose: str = "any") -> tuple[str, str] | None:
    """Why `cost` cannot be paid now: (rule anchor, reason), or None when it can."""
    p = g.player(payer)
    if cost.either:
        # "Take 1 bad publicity or remove 1 tag": payable if the rest and one of the choices are (rule_cost).
        why: tuple[str, str] | None = ("rule_cost", "no choice of the cost can be paid")
        for option in cost.either:
            why = refusal(g, replace(cost, either=()).plus(option), ctx, payer, purpose)
            if why is None:
                return None
        return why
    from judgebook.engine.rules.amounts import click_discount  # an extra action "paying [click] less"

    clicks = max(0, cost.clicks + clicks_of(g, cost, ctx) - click_discount(g, payer)) + cost.lose_clicks
    if clicks > p.clicks:
        return "rule_cost", f"needs {clicks}[click], has {p.clicks}"
    credits = max(0, cost.credits.value(g, ctx) - cost.pays) if cost.has_credits else 0
    if credits and cannot(g, "spend_credits", payer):
        return "rule_cannot_precedence", "cannot spend credits"
    can = available_credits(g, payer, purpose, ctx.source)
    if cost.credits_from is not None:
        # Only credits hosted on the named cards may pay (the pool cannot): "… only by spending credits from
        # stealth cards".
        named = cost.credits_from.candidates(g, ctx)
        can = sum(n for c, n in credit_sources(g, payer, purpose, ctx.source) if c in named)
    if credits > can:
        return "rule_cost", f"needs {credits}[c], can spend {can}"
    # A [trash] cost trashes the card from where it is: installed, in the play area, or in hand for an
    # ability used from HQ ("reveal and trash this ice from HQ").
    zone = g.cards[ctx.source].zone if cost.trash_self else ""
    if cost.trash_self and not q.is_installed(g, ctx.source) and zone != "play" and not zone.endswith(".hand"):
        return "rule_cost", "the card is not installed"
    if cost.forfeit_self and not g.cards[ctx.source].zone.endswith(".score"):
        return "rule_cost", "the agenda is not in a score area"
    if cost.remove_self and g.cards[ctx.source].zone.endswith(".removed"):
        return "rule_cost", "the card is already removed from the game"
    remove = cost.remove_tags + (ctx.x if cost.remove_tags_x else 0)
    if remove > g.runner.tags:
        return "rule_cost", f"needs {remove} tag(s) to remove, the Runner has {g.runner.tags}"
    if cost.tags and cannot(g, "take_tags", payer):
        return "rule_cannot_precedence", "cannot take tags"
    if cost.tags and would_be_prevented(g, "tags", None):
        return "rule_cost_interrupt_static_mandatory", "taking the tag would be prevented"
    for kind, _ in cost.damage:
        if would_be_prevented(g, "damage", kind):
            return "rule_cost_interrupt_static_mandatory", f"the {kind} damage would be prevented"
    for kind, n in cost.counters_paid(ctx.x):
        if g.cards[ctx.source].count(kind) < n:
            return "rule_cost", f"needs {n} {kind} counter(s) on {ctx.source}"
    for part in cost.cards:
        need = part_need(part)
        if len(part_candidates(g, part, ctx)) < need:
            return "rule_cost", f"needs {need} card(s) to {part.render()}"
    if cost.turn_facedown is not None:
        from judgebook.engine.rules.amounts import facedown_refusal

        if (why := facedown_refusal(g, cost.turn_facedown, ctx)) is not None:
            return why
    return None


def clicks_of(g: Game, cost: Cost, ctx: Ctx) -> int:
    """The clicks a cost's quantity of [click] comes to ("[click] for each hosted power counter")."""
    return cost.clicks_of.value(g, ctx) if cost.clicks_of is not None else 0


def part_candidates(g: Game, part: CardPart, ctx: Ctx) -> list[str]:
    """The cards a part of a cost can act on. A cost's "trash N cards" never counts its own card (that is a
    [trash] cost): the card being played is in the play area as its costs are paid, and cannot trash itself."""
    from judgebook.engine.language.selectors import Ref

    cands = part.cards.candidates(g, ctx)
    return cands if isinstance(part.cards, Ref) else [c for c in cands if c != ctx.source]


def part_need(part: CardPart) -> int:
    """How many cards a part of a cost must act on to be paid ("trash 2 cards from your grip": 2)."""
    from judgebook.engine.language.selectors import Matching, Ref, TopOfDeck

    sel = part.cards
    if isinstance(sel, TopOfDeck):
        return sel.count if sel.count is not None else sel.n
    if isinstance(sel, Ref):
        return 1
    if isinstance(sel, Matching) and (sel.up_to or sel.count is None):
        return 0
    return int(sel.count or 1)


def part_picks(g: Game, part: CardPart, ctx: Ctx) -> list[tuple[str, ...]]:
    """The legal choices of cards for a part of a cost: only full ones (a cost is paid in full)."""
    need = part_need(part)
    if not part.cards.chooses:
        cands = part_candidates(g, part, ctx)
        return [tuple(cands[:need] if need else cands)] if len(cands) >= need else []
    return [p for p in part.cards.picks(g, ctx) if ctx.source not in p and len(p) >= need]


def apply_part(g: Game, verb: str, cards: tuple[str, ...], ctx: Ctx, payer: Side) -> Game:
    """Do a part of a cost to the chosen cards. Paying a cost cannot be prevented (rule_cost): the cards are
    trashed or moved at once, with no interrupt window. The cards paid to play a card are its `chosen` while it
    resolves ("the card you added to your grip")."""
    from judgebook.engine.rules.effects import apply_to_cards

    for cid in cards:
        counters = g.cards[cid].counters
        if verb in ("trash", "reveal_and_trash"):
            if verb == "reveal_and_trash":
                g = log(g, "reveal", f"{cid} is revealed", "rule_reveal", payer, card=cid)
            g = trash(not_interruptible(g, "trash", None, payer, cid), cid, payer, cause="cost")
        elif verb == "forfeit":
            g = forfeit(g, cid, payer)
        else:
            g = apply_to_cards(g, replace(ctx, controller=payer), verb, (cid,))
            if verb in ("add_to_hand", "add_to_bottom_of_deck"):
                where = "its owner's hand" if verb == "add_to_hand" else "the bottom of its owner's deck"
                g = log(g, "moved", f"{cid} is added to {where} as a cost", "rule_cost", payer, card=cid)
            if cid == ctx.source and not q.is_installed(g, cid):
                # Its own abilities see the counters it left play with ("add this asset to HQ: take all credits
                # from this asset"): last known information.
                g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], last_counters=counters)))
    if len(cards) == 1 and ctx.source in g.cards and g.cards[ctx.source].zone == "play":
        g = evolve(g, cards=g.cards.set(ctx.source, replace(g.cards[ctx.source], chosen=cards[0])))
    return g


def purpose_of(g: Game, source: str) -> str:
    """What a payment is for, as hosted credits restricted to a use see it."""
    if source in g.cards and "icebreaker" in q.definition(g, source).subtypes:
        return "icebreakers"
    return "any"


def pay(g: Game, cost: Cost, ctx: Ctx, payer: Side, purpose: str = "any", using: tuple[str, ...] = ()) -> Game:
    """Pay `cost`; credits come first from the cards named in `using` (the payer's choice), then the pool,
    then hosted credits this payment may use, then (the Runner, in a run) bad publicity credits."""
    p = g.player(payer)
    changes = []
    if cost.either:
        raise ValueError(f"{cost.render()}: which cost of the `either` is paid is chosen first (PayCost)")
    for part in cost.cards:
        # The parts chosen by the payer were paid by PayCost; the ones no one chooses are paid here.
        picks = part_picks(g, part, ctx)
        if part.cards.chooses or not picks:
            raise ValueError(f"{part.render()}: the cards are chosen as the cost is paid (PayCost)")
        g = apply_part(g, part.verb, picks[0], ctx, payer)
    if cost.clicks_of is not None:
        cost = replace(cost, clicks=cost.clicks + clicks_of(g, cost, ctx), clicks_of=None)
    from judgebook.engine.rules.amounts import use_click_discount

    g, cost = use_click_discount(g, cost, payer)
    if cost.clicks:
        g = set_player(g, payer, clicks=p.clicks - cost.clicks)
        g = emit(
            g,
            event("clicks_spent", player=payer, amount=cost.clicks),
            f"the {payer} spends {cost.clicks}[click]",
            "rule_cost",
            payer,
        )
    if cost.lose_clicks:
        lost = g.player(payer).clicks
        g = set_player(g, payer, clicks=lost - cost.lose_clicks)
        g = log(g, "clicks_lost", f"the {payer} loses {cost.lose_clicks}[click]", "rule_cost", payer,
                changes=(f"{payer} clicks {lost} → {lost - cost.lose_clicks}",))
    credits = max(0, cost.credits.value(g, ctx) - cost.pays) if cost.has_credits else 0
    if using and not credits:  # nothing accepted and ignored: `using` chooses credits, and none are paid
        raise IllegalDecision(f"`using: {list(using)}`: no credits are paid here", "rule_spend_credits")
    if credits:
        left = credits
        sources = dict(credit_sources(g, payer, purpose, ctx.source))
        for cid in using:
            if cid not in sources:
                raise IllegalDecision(f"{cid}'s credits cannot pay for this", "rule_spend_credits")
        pool = 0 if cannot(g, "spend_pool_credits", payer) else g.player(payer).credits
        order = list(using) + ["pool"] + [c for c in sources if c not in using]
        if sources and not using:
            # The payer chooses which credits pay (rule_spend_credits); no `using` chose: the pool first.
            changes.append("the pool first, as no `using:` chose")
        if cost.credits_from is not None:
            allowed = set(cost.credits_from.candidates(g, ctx))
            order = [c for c in order if c in allowed]
        for cid in order:
            if not left:
                break
            if cid == "pool":
                take = min(pool, left)
                if take:
                    g = set_player(g, payer, credits=g.player(payer).credits - take)
                    changes.append(f"{take}[c] from the pool ({pool} → {pool - take})")
                    left -= take
                continue
            take = min(sources[cid], left)
            if take:
                g = evolve(g, cards=g.cards.set(cid, g.cards[cid].with_counter("credit", -take)))
                changes.append(f"{take}[c] from {cid}")
                left -= take
                # "Spend credits from an installed card" (The Twinning) and "when it is empty" (Penumbral Toolkit).
                g = emit(g, event("hosted_credits_spent", card=cid, amount=take, player=payer),
                         f"{take}[c] spent from {cid}", "rule_cost", payer)
                from judgebook.engine.rules.revealed import used_optionally  # the host is used (rule_using)

                g = used_optionally(g, Ctx(cid, payer), payer, "rule_hosted_counter_used_condition")
        run = current_run(g)
        if left and payer == "runner" and run is not None and run.bp_credits and cost.credits_from is None:
            from judgebook.engine.rules.frames import swap

            take = min(left, run.bp_credits)
            g = swap(g, run, replace(run, bp_credits=run.bp_credits - take))
            changes.append(f"{take}[c] from bad publicity")
            left -= take
        if left:
            raise IllegalDecision(f"{credits}[c] cannot be paid", "rule_cost")
        g = emit(
            g,
            event("credits_spent", player=payer, amount=credits),
            f"the {payer} pays {credits}[c]: {', '.join(changes)}",
            # Credits from more than the pool: how they divide is the payer's choice (rule_spend_credits).
            "rule_spend_credits" if sources else "rule_cost",
            payer,
        )
    for kind, n in cost.counters_paid(ctx.x):
        if g.cards[ctx.source].count(kind) < n:  # "X hosted counters": X is at most what the card has
            raise IllegalDecision(f"X = {n}: {ctx.source} has fewer {kind} counters", "rule_cost")
        g = evolve(g, cards=g.cards.set(ctx.source, g.cards[ctx.source].with_counter(kind, -n)))
    if cost.turn_facedown is not None:
        from judgebook.engine.rules.amounts import pay_facedown

        g = pay_facedown(g, cost.turn_facedown, ctx)
    if cost.tags:
        g = not_interruptible(g, "tags", None, payer)
        g = set_player(g, "runner", tags=g.runner.tags + cost.tags)
        g = emit(
            g,
            event("tags_taken", amount=cost.tags, by=ctx.controller, cost=True),
            f"the Runner takes {cost.tags} tag(s) as a cost",
            "rule_cost",
            "runner",
        )
    if cost.bad_publicity:
        before = g.corp.bad_publicity
        g = set_player(g, "corp", bad_publicity=before + cost.bad_publicity)
        g = log(g, "bad_publicity", f"the Corp takes {cost.bad_publicity} bad publicity as a cost", "rule_cost",
                "corp", changes=(f"corp bad publicity {before} → {before + cost.bad_publicity}",))
    remove = cost.remove_tags + (ctx.x if cost.remove_tags_x else 0)
    if remove > g.runner.tags:
        raise IllegalDecision(f"X = {ctx.x}: the Runner has {g.runner.tags} tag(s) to remove", "rule_cost")
    if remove:
        g = set_player(g, "runner", tags=g.runner.tags - remove)
        g = tags_removed(g, remove, "rule_remove_tags_or_bad_publicity_as_cost")
    if cost.forfeit_self:
        g = forfeit(g, ctx.source, payer)
    if cost.remove_self:
        g = remove_from_game(g, ctx.source, payer)
    if cost.trash_self:
        g = trash(not_interruptible(g, "trash", None, payer, ctx.source), ctx.source, payer, cause="cost")
    for kind, n in cost.damage:
        from judgebook.engine.rules.damage import suffer

        g = suffer(not_interruptible(g, "damage", kind, payer), kind, n, payer, cost=True)
    if cost.has_credits and not credits and not cost.clicks:
        g = log(g, "cost", "a cost of 0[c] is paid", "rule_cost_zero", payer)
    return g


@dataclass(frozen=True)
class PayOrNot(Frame):
    """A nested cost: the payer decides when it is optional; otherwise it is paid if it can be."""

    ctx: Ctx
    instr: NestedCost

    def step(self, g: Game) -> Game | ChoicePoint:
        payer = self.ctx.side(self.instr.by)
        why = refusal(g, self.instr.cost, self.ctx, payer, purpose_of(g, self.ctx.source))
        if not self.instr.optional:
            purpose = purpose_of(g, self.ctx.source)
            if why is None and self.instr.cost.has_credits and credit_sources(g, payer, purpose, self.ctx.source):
                # Which credits pay is the payer's choice (`using`): a point with the one option.
                return ChoicePoint(
                    payer,
                    "pay",
                    self.instr.render(),
                    "rule_nested_cost",
                    (Option(decision("pay", True), f"pay {self.instr.cost.render()}", "rule_nested_cost"),),
                    default=0,
                    default_reason="only",
                    path=path(g),
                )
            if why is None:
                return _paid(pop(g), self)
            g = log(
                pop(g),
                "cannot_pay",
                f"the {payer} cannot pay {self.instr.cost.render()}: {why[1]}",
                "rule_if_able" if self.instr.mods.if_able else why[0],
                payer,
            )
            return resolve_now(g, self.ctx, self.instr.otherwise, "rule_nested_cost") if self.instr.otherwise else g
        decline = Option(decision("pay", False), "do not pay", "rule_nested_cost")
        if why is not None:
            refused = Refused(decision("pay", True), f"pay {self.instr.cost.render()}", why[0], why[1])
            return ChoicePoint(
                payer,
                "pay",
                self.instr.render(),
                "rule_nested_cost",
                (decline,),
                (refused,),
                default=0,
                default_reason="only",
                path=path(g),
            )
        return ChoicePoint(
            payer,
            "pay",
            self.instr.render(),
            "rule_nested_cost",
            (decline, Option(decision("pay", True), f"pay {self.instr.cost.render()}", "rule_nested_cost")),
            default=0,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        if option.decision.value:
            g = pop(g)
            if self.instr.optional:  # a "you may pay" paid: an optional part of the ability (rule_using)
                from judgebook.engine.rules.revealed import used_optionally

                g = used_optionally(g, self.ctx, self.ctx.side(self.instr.by))
            return _paid(g, self, int(option.decision.get("x", 0) or 0), tuple(option.decision.get("using") or ()))
        g = log(
            pop(g),
            "not_paid",
            f"the cost {self.instr.cost.render()} is not paid",
            "rule_nested_cost",
            self.ctx.side(self.instr.by),
        )
        return resolve_now(g, self.ctx, self.instr.otherwise, "rule_nested_cost") if self.instr.otherwise else g


def _paid(g: Game, frame: PayOrNot, x: int = 0, using: tuple[str, ...] = ()) -> Game:
    payer = frame.ctx.side(frame.instr.by)
    ctx = replace(frame.ctx, x=x) if frame.instr.cost.x else frame.ctx
    credits = frame.instr.cost.credits.value(g, ctx) if frame.instr.cost.has_credits else 0
    purpose = purpose_of(g, ctx.source)
    if credits > available_credits(g, payer, purpose, ctx.source):
        raise IllegalDecision(f"X = {x}: the {payer} cannot pay {credits}[c]", "rule_cost")
    return pay_then(g, frame.instr.cost, ctx, payer, _then, (replace(ctx, paid=credits), frame.instr.then, payer),
                    purpose, using)


def _then(g: Game, ctx: Ctx, then: Any, payer: Side) -> Game:
    from judgebook.engine.rules.memory import credits_taken

    g = credits_taken(g, ctx, payer, ctx.paid)  # an ability made the payer spend them (GameNET)
    return resolve_now(g, ctx, then, "rule_nested_cost") if then else g


def nested(g: Game, ctx: Ctx, instr: NestedCost) -> Game:
    from judgebook.engine.rules.frames import push

    return push(g, PayOrNot(ctx, instr))


def trash_to_discard(g: Game, cid: str) -> Game:
    return move(g, cid, f"{g.cards[cid].owner}.discard")


def changed(g: Game, to: str, card: str, base: int, ability: str | None = None) -> int:
    """A cost of `base` credits to `to` (install, play, rez, trash, use) `card`, after the static abilities that
    lower or increase it (rule_cost_calculation); never below 0."""
    from judgebook.engine.language.statics import CostChange

    total = base
    for effect, ctx in statics(g):
        if not isinstance(effect, CostChange) or effect.to != to:
            continue
        if effect.ability is not None and effect.ability != ability:
            continue
        if card not in effect.card.candidates(g, ctx):
            continue
        n = effect.amount.value(g, ctx)
        total += -n if effect.minus else n
    return max(0, total)


def changed_cost(g: Game, cost: Cost, ctx: Ctx, to: str = "use") -> Cost:
    """An ability's cost with its credits changed by `cost_change` statics (rule_cost_calculation)."""
    from judgebook.engine.language.quantities import Number

    if not cost.has_credits:
        return cost
    base = cost.credits.value(g, ctx)
    n = changed(g, to, ctx.source, base, ctx.ability or None)
    return cost if n == base else replace(cost, credits=Number(n))


def additional_cost(g: Game, to: str, card: str | None = None, server: str | None = None) -> Cost | None:
    """The additional costs static abilities add to doing `to` (rule_additional_cost), summed; None if none."""
    total: Cost | None = None
    for cost in additional_costs(g, to, card, server):
        total = cost if total is None else total.plus(cost)
    return total


def additional_costs(g: Game, to: str, card: str | None = None, server: str | None = None) -> list[Cost]:
    """Each additional cost a static ability adds to doing `to` (rule_additional_cost), one per ability."""
    from judgebook.engine.language.selectors import server_matches
    from judgebook.engine.language.statics import AdditionalCost
    from judgebook.engine.rules.history import count_this

    out: list[Cost] = []
    for effect, ctx in statics(g):
        if not isinstance(effect, AdditionalCost) or effect.to != to:
            continue
        if effect.card == "self" and card != ctx.source:
            continue
        if effect.cards is not None and card not in effect.cards.candidates(g, ctx):
            continue  # "a connection resource": only the cards the selector finds
        if effect.server == "this" and not q.is_installed(g, ctx.source):
            from judgebook.engine.rules.values import left_this_run

            # A persistent one whose card was trashed this run: the server it was in.
            if left_this_run(g, ctx.source) != server:
                continue
        elif effect.server and not server_matches(g, ctx, effect.server, server):
            continue
        if effect.first_this_turn and count_this(g, "run_begins" if to == "run" else to, "turn") > 0:
            continue
        cost = effect.cost
        if cost.has_credits and not cost.x:
            # A quantity ("2[c] for each hosted power counter") is the static's card's, valued now.
            cost = replace(cost, credits=Number(cost.credits.value(g, ctx)))
        if cost.clicks_of is not None:
            cost = replace(cost, clicks=cost.clicks + cost.clicks_of.value(g, ctx), clicks_of=None)
        out.append(cost)
    return out


def _additional_paid(g: Game, to: str) -> Game:
    from judgebook.engine.rules.access import Access
    from judgebook.engine.rules.frames import find, swap

    acc = find(g, Access)
    return swap(g, acc, replace(acc, paid=acc.paid | {to})) if acc is not None else g


SIMULTANEOUS = "rule_additonal_cost_simultaenous"  # CR 26.03 1.16.10b, the anchor spelled as the CR spells it


@dataclass(frozen=True)
class AdditionalCostChoice(Frame):
    """An additional cost to steal or access a card: the Runner may decline it (rule_decline_additional_cost),
    and then does not steal or access it; one that cannot be paid cannot be chosen."""

    to: str
    card: str
    cost: Cost
    parts: int = 1  # how many additional costs `cost` sums: several are paid together or not at all

    def step(self, g: Game) -> ChoicePoint:
        why = refusal(g, self.cost, Ctx(self.card, "runner"), "runner")
        decline = Option(
            decision("pay", False), f"do not pay: do not {self.to} {self.card}", "rule_decline_additional_cost"
        )
        pay_it = decision("pay", True)
        label = f"pay {self.cost.render()} to {self.to} {self.card}"
        if why is not None:
            # All additional costs are paid together with the cost they add to, or none is
            # (rule_additonal_cost_simultaenous, the CR's own spelling): not a choice to decline one.
            # A cost that cannot be paid for another reason (damage that would be prevented) keeps that rule.
            rule = SIMULTANEOUS if why[0] == "rule_cost" and self.parts > 1 else why[0]
            forced = Option(decision("pay", False), f"cannot pay: do not {self.to} {self.card}", rule)
            return ChoicePoint(
                "runner",
                "pay",
                f"additional cost to {self.to} {self.card}",
                "rule_additional_cost",
                (forced,),
                (Refused(pay_it, label, rule, f"all of it is paid at once or none: {why[1]}"),),
                default=0,
                default_reason="only",
                path=path(g),
            )
        return ChoicePoint(
            "runner",
            "pay",
            f"additional cost to {self.to} {self.card}",
            "rule_additional_cost",
            (Option(pay_it, label, "rule_additional_cost"), decline),
            default=0,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.rules.access import Access
        from judgebook.engine.rules.frames import find, swap

        g = pop(g)
        acc = find(g, Access)
        if option.decision.value:
            return pay_then(g, self.cost, Ctx(self.card, "runner"), "runner", _additional_paid, (self.to,),
                            checkpoint=True)
        done = "stolen" if self.to == "steal" else "accessed"
        if option.rule != "rule_decline_additional_cost":  # no choice: the cost cannot be paid
            what = f"all of {self.cost.render()} at once, so pays none of it" if option.rule == SIMULTANEOUS \
                else self.cost.render()
            g = log(g, "declined", f"the Runner cannot pay {what}: {self.card} is not {done}", option.rule, "runner")
        else:
            g = log(g, "declined", f"the Runner declines the additional cost: {self.card} is not {done}",
                    "rule_decline_additional_cost", "runner")
        return swap(g, acc, replace(acc, declined=acc.declined | {self.to})) if acc is not None else g


def pay_then(
    g: Game, cost: Cost, ctx: Ctx, payer: Side, fn: Any, args: tuple[Any, ...] = (), purpose: str = "any",
    using: tuple[str, ...] = (), checkpoint: bool = False,
) -> Game:
    """Pay `cost`, then go on with `fn(g, *args)`: at once when paying takes no decision, else after the payer
    has made the cost's choices (PayCost). With `checkpoint`, abilities that paying the cost made pending resolve
    before the effect is carried out (rule_additional_cost_checkpoint, rule_checkpoint_after_paying_cost: a card
    trashed to pay Azef Protocol's cost is seen before the agenda is scored)."""
    if checkpoint:
        fn, args = _checkpointed, (fn, args, g.pending)
    if not cost.chooses:
        return fn(pay(g, cost, ctx, payer, purpose, using), *args)  # type: ignore[no-any-return]
    return push(g, Call(fn, args), PayCost(ctx, cost, payer, purpose, using))


def _checkpointed(g: Game, fn: Any, args: tuple[Any, ...], before: Any) -> Game:
    if not [p for p in g.pending if p not in before] or g.over:
        return fn(g, *args)  # type: ignore[no-any-return]
    from judgebook.engine.rules.windows import ReactionWindow

    return push(g, Call(fn, args), ReactionWindow())


@dataclass(frozen=True)
class PayCost(Frame):
    """A cost whose payment takes decisions (rule_cost): first which cost of an `either` ("take 1 bad publicity
    or remove 1 tag": `{choose: N}`), then the cards each part acts on ("trash 1 installed program": `{target:
    [cards]}`), chosen by the payer among the cards then legal; then the rest is paid."""

    ctx: Ctx
    cost: Cost
    payer: Side
    purpose: str = "any"
    using: tuple[str, ...] = ()

    def _part(self) -> int | None:
        return next((i for i, p in enumerate(self.cost.cards) if p.cards.chooses), None)

    def step(self, g: Game) -> Game | ChoicePoint:
        if self.cost.either:
            base = replace(self.cost, either=())
            opts, refused = [], []
            for n, option in enumerate(self.cost.either):
                d = decision("choose", n + 1)
                why = refusal(g, base.plus(option), self.ctx, self.payer, self.purpose)
                if why is None:
                    opts.append(Option(d, f"pay {option.render()}", "rule_cost"))
                else:
                    refused.append(Refused(d, f"pay {option.render()}", why[0], why[1]))
            if not opts:
                raise IllegalDecision(f"no choice of {self.cost.render()} can be paid", "rule_cost")
            return ChoicePoint(self.payer, "choose", f"pay one of: {self.cost.render()}", "rule_cost", tuple(opts),
                               tuple(refused), default=0, default_reason="only" if len(opts) == 1 else "default",
                               path=path(g))
        i = self._part()
        if i is None:
            return pay(pop(g), self.cost, self.ctx, self.payer, self.purpose, self.using)
        part = self.cost.cards[i]
        picks = part_picks(g, part, self.ctx)
        if not picks:
            raise IllegalDecision(f"the cost cannot be paid: {part.render()}", "rule_cost")
        return ChoicePoint(
            self.payer,
            "target",
            f"as a cost: {part.render()}",
            "rule_cost",
            tuple(Option(decision("target", list(p)), ", ".join(p) or "no card", "rule_cost") for p in picks),
            default=0,
            default_reason="only" if len(picks) == 1 else "default",
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        g = pop(g)
        if option.decision.kind == "choose":
            chosen = self.cost.either[int(option.decision.value) - 1]
            g = log(g, "cost_choice", f"the {self.payer} pays {chosen.render()}", "rule_cost", self.payer,
                    how="chosen")
            return push(g, replace(self, cost=replace(self.cost, either=()).plus(chosen)))
        i = self._part()
        assert i is not None
        part = self.cost.cards[i]
        g = apply_part(g, part.verb, tuple(str(c) for c in option.decision.value or ()), self.ctx, self.payer)
        rest = self.cost.cards[:i] + self.cost.cards[i + 1 :]
        return push(g, replace(self, cost=replace(self.cost, cards=rest)))
