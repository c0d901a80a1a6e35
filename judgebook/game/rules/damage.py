"""Damage and ending the run: imminent instructions that interrupts may prevent (sec_relevant_interrupts)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.game.language.context import Ctx
from judgebook.game.rules.effects import move, set_player, win
from judgebook.game.rules.frames import Frame, event, log, pop, push, set_top
from judgebook.game.rules.triggers import emit
from judgebook.game.rules.values import statics
from judgebook.game.state.model import Game, Side


@dataclass(frozen=True)
class Imminent(Frame):
    """An instruction about to happen: `would_…` interrupts become pending and resolve first."""
    what: str                            # damage | end_run
    amount: int = 1
    kind: str | None = None
    by: Side | None = None
    opened: bool = False

    def step(self, g: Game) -> Game:
        if not self.opened:
            g = set_top(g, replace(self, opened=True, amount=self._after_static(g)))
            name = "would_damage" if self.what == "damage" else "would_end_run"
            g = emit(g, event(name, damage_type=self.kind, amount=self.amount, by=self.by),
                     f"{self.what.replace('_', ' ')} is imminent", "rule_interrupt_window_opening")
            if g.pending:
                from judgebook.game.rules.windows import ReactionWindow
                return push(g, ReactionWindow())
            return g
        g = pop(g)
        if self.amount <= 0:
            return log(g, "prevented", f"the {self.what.replace('_', ' ')} is prevented", "sec_prevent_avoid")
        if self.what == "end_run":
            from judgebook.game.rules.run import end_run
            g = log(g, "end_the_run", "the run ends", "rule_end_the_run", "corp")
            return end_run(g, "end_the_run")
        return suffer(g, self.kind or "net", self.amount, self.by)

    def _after_static(self, g: Game) -> int:
        amount = self.amount
        for effect, ctx in statics(g):
            if effect.name == "prevent" and getattr(effect, "what", None) == self.what:
                n = effect.amount.value(g, ctx) if effect.amount is not None else amount  # type: ignore[attr-defined]
                amount -= n
        return max(0, amount)


def deal(g: Game, ctx: Ctx, kind: str, amount: int, by: Side) -> Game:
    if amount <= 0:
        return g
    return push(g, Imminent("damage", amount, kind, by))


def imminent_end_run(g: Game, ctx: Ctx) -> Game:
    return push(g, Imminent("end_run", 1, None, ctx.controller))


def suffer(g: Game, kind: str, amount: int, by: Side | None) -> Game:
    grip = g.zone("runner.hand")
    flatline = amount > len(grip)
    for cid in grip[:amount]:
        g = move(g, cid, "runner.discard")
    if kind == "core":
        g = set_player(g, "runner", core_damage=g.runner.core_damage + amount,
                       base_hand_size=g.runner.base_hand_size - amount)
    g = emit(g, event("damage", damage_type=kind, amount=amount, by=by), f"the Runner suffers {amount} {kind} damage",
             "rule_meat_net_damage", "runner")
    if flatline:
        return win(g, "corp", "flatline", "rule_flatline")
    return g
