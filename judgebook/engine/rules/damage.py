"""Imminent instructions — damage, tags, trash, ending the run — that interrupts may prevent or change.

When such an instruction is about to resolve, static prevention applies first, then
`would_…` conditional interrupts become pending and players may use paid
interrupts, in one interrupt window (rule_interrupt_window_opening); once all of
it is prevented the remaining interrupts are no longer relevant
(sec_relevant_interrupts). Several parts of one instruction (Snare!'s tag and
damage) share one window.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.effects import move, set_player, trash, win
from judgebook.engine.rules.frames import Frame, event, find, log, pop, push, set_top, swap
from judgebook.engine.rules.triggers import emit
from judgebook.engine.rules.values import statics
from judgebook.engine.state.model import Game, Side

WOULD = {"damage": "would_damage", "tags": "would_tags", "trash": "would_trash", "end_run": "would_end_run"}


@dataclass(frozen=True)
class Part:
    what: str  # damage | tags | trash | end_run
    amount: int = 1
    kind: str | None = None  # damage type
    card: str | None = None  # trash: the card
    by: Side | None = None
    unpreventable: bool = False


@dataclass(frozen=True)
class Imminent(Frame):
    parts: tuple[Part, ...]
    source: str = ""
    opened: bool = False

    @property
    def live(self) -> bool:
        return any(p.amount > 0 for p in self.parts)

    def step(self, g: Game) -> Game:
        if not self.opened:
            me = replace(self, opened=True, parts=tuple(_static_prevention(g, p) for p in self.parts))
            g = set_top(g, me)
            # An interrupt that prevented all of an imminent instruction and does something else instead has
            # replaced it: the new expected effect, which interrupts now answer (rule_replace_imminent_effects).
            outer = [f for f in g.stack[:-1] if isinstance(f, Imminent) and f.opened]
            replaced = bool(outer) and not outer[-1].live
            for p in me.parts:
                g = emit(
                    g,
                    event(WOULD[p.what], damage_type=p.kind, amount=p.amount, by=p.by, card=p.card,
                          source=self.source or None),  # the card whose ability does it (`source:` filter)
                    f"{_describe(p)} is imminent" + (" instead: the new expected effect" if replaced else ""),
                    "rule_replace_imminent_effects" if replaced else "rule_interrupt_window_opening",
                    p.by,
                )
            from judgebook.engine.rules.windows import PriorityWindow, interrupt_options

            if any(p.event.name.startswith("would_") for p in g.pending) or interrupt_options(g):
                return push(g, PriorityWindow(frozenset({"paid", "interrupt"}), "rule_interrupt_window"))
            return g
        g = pop(g)
        for p in self.parts:
            if p.amount <= 0:
                g = log(g, "prevented", f"{_describe(p, whole=True)}: all prevented", "sec_prevent_avoid", p.by)
                continue
            g = _apply(g, p, self.source)
        return g


def _describe(p: Part, whole: bool = False) -> str:
    if p.what == "damage":
        return f"{p.amount} {p.kind} damage"
    if p.what == "tags":
        return f"{p.amount} tag(s)"
    if p.what == "trash":
        return f"trashing {p.card}"
    return "ending the run"


def _static_prevention(g: Game, p: Part) -> Part:
    if p.unpreventable:
        return p
    amount = p.amount
    for effect, ctx in statics(g):
        if effect.name != "prevent" or getattr(effect, "what", None) != p.what:
            continue
        kind = getattr(effect, "damage_type", None)
        if kind and kind != p.kind:
            continue
        q = getattr(effect, "amount", None)
        amount -= amount if q is None else q.value(g, ctx)
    return replace(p, amount=max(0, amount))


def _apply(g: Game, p: Part, source: str = "") -> Game:
    if p.what == "damage":
        return suffer(g, p.kind or "net", p.amount, p.by)
    if p.what == "tags":
        from judgebook.engine.rules.costs import cannot

        if cannot(g, "take_tags", "runner"):  # "cannot" beats the instruction giving them
            return log(g, "cannot", "the Runner cannot take tags", "rule_cannot_precedence", "runner")
        g = set_player(g, "runner", tags=g.runner.tags + p.amount)
        return emit(
            g, event("tags_taken", amount=p.amount, by=p.by), f"the Runner takes {p.amount} tag(s)", "rule_tag",
            "runner",
        )
    if p.what == "trash":
        from judgebook.engine.rules.costs import cannot

        if p.card not in g.cards:
            return g
        if p.by is not None and cannot(g, "trash", p.by, card=p.card):
            return log(g, "cannot_trash", f"{p.card} cannot be trashed", "rule_cannot_precedence", p.by)
        return trash(g, p.card or "", p.by, source=source)
    from judgebook.engine.rules.run import end_run

    g = log(g, "end_the_run", "the run ends", "rule_end_the_run", "corp")
    return end_run(g, "end_the_run")


def imminent(g: Game, parts: tuple[Part, ...], source: str) -> Game:
    return push(g, Imminent(parts, source))


def deal(g: Game, ctx: Ctx, kind: str, amount: int, by: Side) -> Game:
    if amount <= 0:
        return g
    return imminent(g, (Part("damage", amount, kind, by=by),), ctx.source)


def imminent_end_run(g: Game, ctx: Ctx) -> Game:
    from judgebook.engine.rules.costs import cannot

    # "Subroutines on the barrier you are encountering cannot end the run" (Banner): the instruction does nothing.
    if ctx.ability.startswith("sub") and cannot(g, "end_the_run_by_subroutines", ctx.controller, card=ctx.source):
        return log(g, "cannot_end_run", f"subroutines on {ctx.source} cannot end the run", "rule_cannot_precedence",
                   ctx.controller, card=ctx.source)
    return imminent(g, (Part("end_run", 1, by=ctx.controller),), ctx.source)


def change_imminent(g: Game, what: str, delta: int | None, kind: str | None) -> Game:
    """`prevent` (delta < 0, None: all) or `increase` the nearest imminent instruction's matching part."""
    imm = find(g, Imminent)
    if imm is None:
        return g
    parts = list(imm.parts)
    for i, p in enumerate(parts):
        if p.what != what or (kind and p.kind != kind):
            continue
        if delta is not None and delta < 0 and p.unpreventable:
            return log(g, "unpreventable", f"{_describe(p)} cannot be prevented", "sec_prevent_avoid")
        # While imminent a value may go below 0 and back up (rule_negative_values_imminent).
        n = min(0, p.amount) if delta is None else p.amount + delta
        parts[i] = replace(p, amount=n)
        g = swap(g, imm, replace(imm, parts=tuple(parts)))
        verb = "prevented" if delta is None or delta < 0 else "increased"
        return log(
            g,
            verb,
            f"{_describe(p)}: {verb} to {parts[i].amount}",
            "sec_prevent_avoid" if verb == "prevented" else "rule_modify_value_relevant",
        )
    return g


def suffer(g: Game, kind: str, amount: int, by: Side | None, cost: bool = False) -> Game:
    """`cost`: suffered to pay a cost, which optional interrupts cannot touch (rule_cost_no_interrupt)."""
    grip = g.zone("runner.hand")
    flatline = amount > len(grip)
    if 0 < amount < len(grip):
        # Random in play: the engine takes the first cards of the grip, one of the possible outcomes,
        # and says so.
        g = log(
            g,
            "random",
            f"{amount} card(s) of the grip at random: {', '.join(grip[:amount])}",
            "rule_meat_net_damage",
            "runner",
            how="assumed",
        )
    for cid in grip[:amount]:
        # Random in play: the engine takes the first cards of the grip, one of the possible outcomes.
        g = move(g, cid, "runner.discard")
        g = emit(
            g,
            event(
                "trashed",
                card=cid,
                type=g.library.card(g.cards[cid].name).type,
                player="runner",
                damage_type=kind,
                from_zone="hand",
                by=by,  # the player responsible for the damage trashes the card (rule_meat_net_damage)
                cost=cost or None,
            ),
            f"{cid} is trashed by {kind} damage",
            "rule_meat_net_damage",
            "runner",
        )
    if kind == "core":
        g = set_player(
            g, "runner", core_damage=g.runner.core_damage + amount, base_hand_size=g.runner.base_hand_size - amount
        )
    g = emit(
        g,
        event("damage", damage_type=kind, amount=amount, by=by, cost=cost or None),
        f"the Runner suffers {amount} {kind} damage",
        "rule_meat_net_damage" if kind != "core" else "rule_core_damage",
        "runner",
    )
    if flatline:
        return win(g, "corp", "flatline", "rule_flatline")
    return g
