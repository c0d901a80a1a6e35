"""Engine side of the `amounts` constructs: breaking X subroutines (the X paid), a number a player chooses,
repeating an ability's process (rule_repeat_this_process_x_times)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from judgebook.engine.errors import IllegalDecision
from judgebook.engine.language.amounts import ChooseNumber, RepeatProcess
from judgebook.engine.language.cards import Ability
from judgebook.engine.language.context import Ctx
from judgebook.engine.language.quantities import TheX
from judgebook.engine.rules.frames import Frame, log, path, pop, push, set_top
from judgebook.engine.rules.resolve import Resolve, resolve_now
from judgebook.engine.state.choice import ANY_NUMBER, ChoicePoint, Option, Refused, decision
from judgebook.engine.state.model import Game, Side


def x_break_options(
    g: Game, side: Side, cid: str, ab: Ability, unbroken: list[int], allowance: int | None, label: str
) -> list[Option]:
    """ "X[c]: Break X subroutines": one option per set of unbroken subroutines, X being how many it breaks
    (rule_cost_x: X is chosen as the cost is paid); a set whose X the Runner cannot pay is not offered."""
    from judgebook.engine.rules import costs
    from judgebook.engine.state import queries as q

    assert ab.cost is not None
    most = len(unbroken) if allowance is None else min(len(unbroken), allowance)
    purpose = "break" if ab.brk is not None or "icebreaker" in q.definition(g, cid).subtypes else "use"
    out = []
    for n in range(1, most + 1):
        ctx = Ctx(cid, side, ab.id, x=n)
        if costs.refusal(g, costs.changed_cost(g, ab.cost, ctx), ctx, side, purpose) is not None:
            break
        for subs in combinations(unbroken, n):
            chosen = [i + 1 for i in subs]
            out.append(Option(decision("use", cid, ability=ab.id, subroutines=chosen, x=n),
                              f"{label} (X = {n}: subroutine {', '.join(map(str, chosen))})", "rule_cost_x"))
    return out


def check_x_break(g: Game, cid: str, subs: list[int] | None, x: int | None) -> None:
    """The subroutines a "break X" ability breaks are X of them, or every unbroken one when X is more."""
    from judgebook.engine.rules.frames import current_encounter
    from judgebook.engine.rules.values import subroutines

    enc = current_encounter(g)
    chosen = len(subs or [])
    unbroken = 0 if enc is None else len(subroutines(g, enc.ice)) - len(enc.broken)
    if x is None or chosen != min(x, unbroken):
        raise IllegalDecision(
            f"{cid} breaks X subroutines: X = {x}, but {chosen} subroutine(s) were named", "rule_cost_x"
        )


@dataclass(frozen=True)
class ChooseNumberFrame(Frame):
    """A player chooses a whole number within the bounds the ability states, valued as it resolves; the
    instructions after it read that number as X (rule_values_defined_by_x)."""

    ctx: Ctx
    instr: ChooseNumber
    least: int
    most: int

    def step(self, g: Game) -> ChoicePoint:
        chooser = self.ctx.side(self.instr.by)
        return ChoicePoint(
            chooser,
            "number",
            self.instr.render(),
            "rule_values_defined_by_x",
            tuple(Option(decision("number", n), f"X = {n}", "rule_values_defined_by_x")
                  for n in range(self.least, self.most + 1)),
            # Any other number breaks the bound the ability states (options are matched first).
            (Refused(decision("number", ANY_NUMBER), "another number", "rule_values_defined_by_x",
                     f"X is at least {self.least} and at most {self.most}"),),
            default_reason="only" if self.most == self.least else "default",
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        n = int(option.decision.value)
        chooser = self.ctx.side(self.instr.by)
        g = log(pop(g), "number", f"the {chooser} chooses X = {n}", "rule_values_defined_by_x", chooser, how="chosen")
        return resolve_now(g, replace(self.ctx, x=n), fix_x(self.instr.then, n),
                           "rule_checkpoint_after_instruction_resolution")


def fix_x(instrs: tuple[Any, ...], n: int) -> tuple[Any, ...]:
    """The instructions after "choose a value for X" with that X: a nested cost of X[c] among them ("you may pay
    X[c] to …") pays the X chosen, not an X chosen anew as it is paid (rule_values_defined_by_x)."""
    from dataclasses import fields, is_dataclass

    from judgebook.engine.language.instructions import Instruction, NestedCost
    from judgebook.engine.language.quantities import Number

    def fixed(node: Any) -> Any:
        if isinstance(node, tuple):
            return tuple(fixed(v) for v in node)
        if not isinstance(node, Instruction) or not is_dataclass(node):
            return node
        if isinstance(node, NestedCost) and node.cost.x:
            cost = node.cost
            if isinstance(cost.credits, TheX):
                cost = replace(cost, credits=Number(n))
            if cost.counters_x is not None:
                cost = replace(cost, counters=cost.counters_paid(n), counters_x=None)
            node = replace(node, cost=cost)
        changed = {f.name: fixed(getattr(node, f.name)) for f in fields(node) if f.init and f.name != "mods"}
        return replace(node, **changed)

    return tuple(fixed(i) for i in instrs)


def push_number(g: Game, ctx: Ctx, instr: ChooseNumber) -> Game:
    least = instr.least.value(g, ctx)
    most = instr.most.value(g, ctx)
    if most < least:
        return log(g, "no_number", f"{instr.render()}: no number from {least} to {most}", "rule_values_defined_by_x",
                   ctx.side(instr.by))
    return push(g, ChooseNumberFrame(ctx, instr, least, most))


@dataclass(frozen=True)
class Repetitions(Frame):
    """Below the process's first resolution: once it is done, the number of repetitions is valued (and fixed),
    then the process resolves that many more times (rule_repeat_this_process_x_times)."""

    ctx: Ctx
    instr: RepeatProcess
    left: int | None = None  # None: the first resolution is not done yet

    def step(self, g: Game) -> Game:
        left = self.left
        if left is None:
            left = self.instr.times.value(g, self.ctx)
            g = log(g, "repeat", f"the process repeats {left} time(s)", "rule_repeat_this_process_x_times",
                    self.ctx.controller, card=self.ctx.source)
        if left <= 0:
            return pop(g)
        g = set_top(g, replace(self, left=left - 1))
        return push(g, Resolve(self.instr.process, self.ctx, "rule_repeat_this_process_x_times"))


def push_repeat(g: Game, ctx: Ctx, instr: RepeatProcess) -> Game:
    return push(g, Repetitions(ctx, instr), Resolve(instr.process, ctx, "rule_repeat_this_process_x_times"))


def rez_paying(g: Game, ctx: Ctx, cid: str, discount: int) -> Game:
    """Rez `cid` paying its rez cost (after cost changes) less `discount`, never below 0 (rule_cost_calculation);
    if it cannot be paid, or a card forbids the rez, it stays unrezzed."""
    from judgebook.engine.language.costs import Cost
    from judgebook.engine.language.quantities import Number
    from judgebook.engine.rules import costs
    from judgebook.engine.rules.effects import rez
    from judgebook.engine.state import queries as q

    side = g.cards[cid].owner
    if g.cards[cid].rezzed or not q.is_installed(g, cid):
        return log(g, "no_target", f"{cid} is not an unrezzed installed card", "rule_instruction_target", side)
    if costs.cannot(g, "rez", side, q.server_of(g, cid), cid):
        return log(g, "cannot_rez", f"{cid} cannot be rezzed", "rule_cannot_precedence", side, card=cid)
    price = max(0, costs.changed(g, "rez", cid, q.definition(g, cid).cost or 0) - discount)
    cost = Cost(credits=Number(price), has_credits=True)
    why = costs.refusal(g, cost, Ctx(cid, side), side)
    if why:
        return log(g, "cannot_pay", f"{cid} is not rezzed: {why[1]}", why[0], side, card=cid)
    g = costs.pay(g, cost, Ctx(cid, side), side)
    return rez(g, cid, paid=True)


@dataclass(frozen=True)
class ActionCompleted(Frame):
    """Below an action's resolution: once it is complete (a run it began has ended: rule_action_completion), the
    event `action_completed` says which action it was (a basic action, or `use:<card>:<ability>`: the same
    action is the same basic action or the same ability of the same card, rule_same_actions)."""

    side: Side
    action: str

    def step(self, g: Game) -> Game:
        from judgebook.engine.rules.frames import event
        from judgebook.engine.rules.triggers import emit

        return emit(pop(g), event("action_completed", player=self.side, action=self.action),
                    f"the {self.side} finishes taking the action", "rule_finish_action_trigger_condition", self.side)


def _facedown_candidates(g: Game, sel: Any, ctx: Ctx) -> list[str]:
    return [c for c in sel.candidates(g, ctx) if g.cards[c].faceup]


def facedown_refusal(g: Game, sel: Any, ctx: Ctx) -> tuple[str, str] | None:
    """A cost "turn 1 hosted copy facedown" is payable only with that many faceup cards (rule_cost)."""
    need = sel.count if isinstance(sel.count, int) else 1
    if len(_facedown_candidates(g, sel, ctx)) < need:
        return "rule_cost", f"needs {need} faceup card(s) to turn facedown: {sel.render()}"
    return None


def pay_facedown(g: Game, sel: Any, ctx: Ctx) -> Game:
    """Turn the first matching faceup cards facedown as a cost (the copies are alike: which one is no choice
    that changes anything)."""
    from judgebook.engine.rules.effects import apply_to_cards

    need = sel.count if isinstance(sel.count, int) else 1
    return apply_to_cards(g, ctx, "turn_facedown", tuple(_facedown_candidates(g, sel, ctx)[:need]))


def trashed_with_this_encounter(g: Game, card: str) -> int:
    """How many installed Runner cards `card`'s instructions trashed during the current encounter (the trashed
    events since it began that name `card` as their source); 0 outside an encounter."""
    from judgebook.engine.rules.frames import current_encounter

    enc = current_encounter(g)
    if enc is None:
        return 0
    began = [i for i, f in enumerate(g.history)
             if f.event.name == "encounter_ice" and f.event.get("encounter_seq") == enc.seq]
    since = g.history[began[-1]:] if began else ()
    return sum(1 for f in since if f.event.name == "trashed" and f.event.get("source") == card
               and f.event.get("installed") and f.event.get("player") == "runner")


def initiated_trace(g: Game) -> Any:
    """The trace just initiated, before the Corp spends credits on it (its base strength can still change)."""
    from judgebook.engine.rules.frames import find
    from judgebook.engine.rules.procedures import TraceFrame

    trace = find(g, TraceFrame)
    return trace if trace is not None and trace.corp is None else None


def reduce_trace_base(g: Game, ctx: Ctx, n: int) -> Game:
    """Lower the initiated trace's base strength to `n` (an interrupt to its initiation: step_trace_initiated)."""
    from judgebook.engine.rules.frames import swap

    trace = initiated_trace(g)
    if trace is None:
        return log(g, "no_target", "no trace is being initiated", "rule_instruction_target", ctx.controller)
    base = min(trace.base, n)
    g = swap(g, trace, replace(trace, base=base))
    return log(g, "trace_base", f"the base trace strength becomes {base}", "step_trace_initiated", ctx.controller,
               card=ctx.source)


def trash_unless_paid(g: Game, ctx: Ctx, instr: Any, targets: tuple[str, ...]) -> Game:
    """One trash of `targets` made imminent, then, above it and before its interrupt window opens, the payer's
    optional nested cost for each card in turn, each one paid preventing that card's trash (rule_nested_cost)."""
    from judgebook.engine.language.amounts import PreventTrashOf
    from judgebook.engine.language.instructions import NestedCost
    from judgebook.engine.rules.costs import PayOrNot
    from judgebook.engine.rules.damage import Part, imminent

    targets = tuple(cid for cid in targets if cid in g.cards)
    if not targets:
        return g
    g = imminent(g, tuple(Part("trash", 1, card=cid, by=ctx.controller) for cid in targets), ctx.source)
    for cid in reversed(targets):  # the first card's payment is decided first
        g = push(g, PayOrNot(ctx, NestedCost(instr.cost, instr.by, True, (PreventTrashOf(cid),), ())))
    return g


def prevent_trash_of(g: Game, card: str) -> Game:
    """The imminent trash of `card` is prevented (sec_prevent_avoid): its part of the trash becomes 0."""
    from judgebook.engine.rules.damage import Imminent
    from judgebook.engine.rules.frames import find, swap

    imm = find(g, Imminent)
    if imm is None:
        return g
    parts = tuple(replace(p, amount=0) if p.what == "trash" and p.card == card else p for p in imm.parts)
    g = swap(g, imm, replace(imm, parts=parts))
    return log(g, "prevented", f"trashing {card}: prevented", "sec_prevent_avoid", card=card)


def _action_key(d: Any) -> str:
    """Which action a decision takes, as `action_completed` names it (rule_action_window)."""
    return f"use:{d.get('card')}:{d.get('ability')}" if d.value == "use" else str(d.value)


def extra_action_options(g: Game, side: Side, different: bool, less: int) -> tuple[list[Option], list[Refused]]:
    """The actions the player may take as an extra action: with `less` [click] off its cost, and (`different`)
    none taken this turn already."""
    from judgebook.engine.rules.history import facts_this
    from judgebook.engine.rules.turn import action_options

    g = push(g, ExtraAction(side, different, less))  # its discount counts as the options are found
    opts, refused = action_options(g, side)
    if not different:
        return opts, refused
    taken = {f.event.get("action") for f in facts_this(g, "turn")
             if f.event.name == "action_completed" and f.event.get("player") == side}
    kept = [o for o in opts if _action_key(o.decision) not in taken]
    refused = refused + [Refused(o.decision, o.label, "rule_action_window", "an action already taken this turn")
                         for o in opts if _action_key(o.decision) in taken]
    return kept, refused


@dataclass(frozen=True)
class ExtraAction(Frame):
    """An action taken as an instruction resolves ("take another different action, paying [click] less"); it stays
    below the action as it resolves, holding the [click] discount until the action's first payment of clicks
    uses it (`used`)."""

    side: Side
    different: bool
    less: int
    used: bool = False
    started: bool = False

    def step(self, g: Game) -> Game | ChoicePoint:
        if self.started:
            return pop(g)
        opts, refused = extra_action_options(pop(g), self.side, self.different, self.less)
        return ChoicePoint(self.side, "action", f"the {self.side} takes another action", "rule_action_window",
                           tuple(opts), tuple(refused), default=None, default_reason="the script ends here",
                           path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.rules.turn import Action

        g = set_top(g, replace(self, started=True))
        # The action is taken as in the action phase (its own frame, at once chosen).
        g = push(g, Action(self.side))
        return Action(self.side).choose(g, option)


def click_discount(g: Game, side: Side) -> int:
    """The [click] an extra action being taken does not pay (0 when none is, or once it is used)."""
    from judgebook.engine.rules.frames import find

    frame = find(g, ExtraAction)
    return frame.less if frame is not None and frame.side == side and not frame.used else 0


def use_click_discount(g: Game, cost: Any, payer: Side) -> tuple[Game, Any]:
    """The first payment of clicks of an extra action pays its discount less (never below 0)."""
    from judgebook.engine.rules.frames import find, swap

    n = click_discount(g, payer)
    if not n or not cost.clicks:
        return g, cost
    frame = find(g, ExtraAction)
    g = swap(g, frame, replace(frame, used=True))
    g = log(g, "click_discount", f"the {payer} pays {min(n, cost.clicks)}[click] less", "rule_cost", payer)
    return g, replace(cost, clicks=max(0, cost.clicks - n))
