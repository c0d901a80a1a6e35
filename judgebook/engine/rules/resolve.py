"""Resolving an ability's instructions one at a time, with a checkpoint after each (rule_checkpoint)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.instructions import ChooseOne, Instruction
from judgebook.engine.language.selectors import InZone, Matching, Selector
from judgebook.engine.rules.checkpoint import checkpoint
from judgebook.engine.rules.frames import Frame, log, path, pop, push, set_top
from judgebook.engine.state.choice import ChoicePoint, Option, Refused, decision
from judgebook.engine.state.model import Game


@dataclass(frozen=True)
class Resolve(Frame):
    instrs: tuple[Instruction, ...]
    ctx: Ctx
    anchor: str
    index: int = 0
    announce: str = ""  # a paid ability's text: its resolution begins with this step
    seq0: int = -1  # the game's sequence number as the resolution began: later pending abilities chain
    picked: bool = False  # the current instruction's cards are chosen (an "up to" choice may be none)

    def step(self, g: Game) -> Game | ChoicePoint:
        if g.over or self.index >= len(self.instrs):
            return pop(g)
        if self.seq0 < 0:
            return set_top(g, replace(self, seq0=g.seq))
        if self.announce:
            g = set_top(g, replace(self, announce=""))
            return log(
                g,
                "resolve",
                f"{self.ctx.source}:{self.ctx.ability} resolves: {self.announce}",
                self.anchor,
                self.ctx.controller,
                card=self.ctx.source,
                ability=self.ctx.ability,
            )
        if self.index > 0 and any(p.serial > self.seq0 for p in g.pending):
            # Between two instructions, abilities that became pending while this one resolved resolve first
            # (a "chain reaction": rule_checkpoint_after_instruction_resolution, rule_chain_reaction).
            from judgebook.engine.rules.windows import ReactionWindow

            return push(g, ReactionWindow(after=self.seq0))
        ins = self.instrs[self.index]
        sel = ins.selector
        if ins.mods.if_able and not self.picked and not ins.possible(g, self.ctx):
            # Not carried out in full, so not at all: no target is chosen for it (rule_if_able).
            g = set_top(g, replace(self, index=self.index + 1, ctx=replace(self.ctx, targets=()), picked=False))
            return log(g, "not_able", f"{ins.render()}: cannot be carried out in full, so not at all", "rule_if_able",
                       self.ctx.controller, card=self.ctx.source)
        if sel is not None and sel.chooses and not self.ctx.targets and not self.picked:
            invalid = ins.invalid_targets(g, self.ctx)
            picks = sel.picks(g, self.ctx, frozenset(invalid))
            chooser = ins.chooser(self.ctx) if hasattr(ins, "chooser") else self.ctx.controller
            if picks and picks != [()]:
                return ChoicePoint(
                    chooser,
                    "target",
                    f"choose {sel.render()} for: {ins.render()}",
                    "rule_instruction_target",
                    tuple(
                        Option(decision("target", list(p)), ", ".join(p) or "none", "rule_instruction_target")
                        for p in picks
                    ),
                    _outside_play(g, self.ctx, sel) + tuple(
                        Refused(decision("target", [c]), c, "rule_targets_must_be_valid", why)
                        for c, why in invalid.items()
                    ),
                    default_reason="only" if len(picks) == 1 else "default",
                    path=path(g),
                )
            # No legal target: the instruction does nothing (rule_no_valid_targets); where the cards it finds
            # cannot be acted on, that is why (rule_targets_must_be_valid).
            why = "; ".join(f"{c}: {reason}" for c, reason in invalid.items())
            g = log(
                g,
                "no_target",
                f"{ins.render()}: no legal target" + (f" ({why})" if why else ""),
                "rule_targets_must_be_valid" if invalid else "rule_targets_must_be_in_play_area",
                self.ctx.controller,
                card=self.ctx.source,
            )
            return set_top(g, replace(self, index=self.index + 1))
        ctx = self.ctx
        if self.index + 1 == len(self.instrs):
            # The last instruction: this resolution is done once it runs, so it leaves the stack first and a
            # chain of abilities resolving each other does not pile frames up (the loop rule compares states);
            # what it makes pending still chains when it resolves in a reaction window (ChainReaction).
            g = pop(g)
            if _in_reaction_window(g):
                g = push(g, ChainReaction(self.seq0))
        else:
            g = set_top(g, replace(self, index=self.index + 1, ctx=replace(ctx, targets=()), picked=False))
        if ins.mods.if_able and not ins.possible(g, ctx):
            return log(
                g,
                "not_able",
                f"{ins.render()}: cannot be carried out in full, so not at all",
                "rule_if_able",
                ctx.controller,
                card=ctx.source,
            )
        if not isinstance(g.top(), Checkpoint):
            g = push(g, Checkpoint())
        return ins.run(g, ctx)

    def choose(self, g: Game, option: Option) -> Game:
        targets = tuple(option.decision.value or ())
        sel = self.instrs[self.index].selector
        if targets and getattr(sel, "up_to", False):  # "up to": choosing cards is an optional part (rule_using)
            from judgebook.engine.rules.revealed import used_optionally

            ins = self.instrs[self.index]
            g = used_optionally(g, self.ctx, ins.chooser(self.ctx) if hasattr(ins, "chooser") else self.ctx.controller)
        # An explicit choice, even of no card, is what "those cards" refer to next: not an earlier choice.
        return set_top(g, replace(self, ctx=replace(self.ctx, targets=targets, chosen=targets), picked=True))


def _in_reaction_window(g: Game) -> bool:
    from judgebook.engine.rules.windows import ReactionWindow

    return isinstance(g.top(), ReactionWindow)


@dataclass(frozen=True)
class ChainReaction(Frame):
    """After a resolving ability's last instruction: abilities it made pending are not part of the reaction
    window it resolved in, whose set was fixed as it opened (rule_reaction_window_linked_to_pending_conditional_
    abilities); while that window still has abilities of its own pending, the new ones resolve first, in a
    window of their own (rule_chain_reaction). When it has none left, it takes the new ones itself: the same
    order, and no frame piles up."""

    seq0: int  # the resolving ability's start: abilities pending after it are the chain's

    def step(self, g: Game) -> Game:
        from judgebook.engine.rules.windows import ReactionWindow

        g = pop(g)
        window = g.top()
        if not isinstance(window, ReactionWindow) or not any(p.serial > self.seq0 for p in g.pending):
            return g
        if not any(window.after < p.serial <= self.seq0 for p in g.pending):
            return g
        chained = ", ".join(p.label for p in g.pending if p.serial > self.seq0)
        g = log(g, "chain", f"{chained}: not of the open reaction window's abilities; a separate reaction window "
                "opens for them first", "rule_reaction_window_linked_to_pending_conditional_abilities")
        return push(g, ReactionWindow(after=self.seq0))


@dataclass(frozen=True)
class Checkpoint(Frame):
    def step(self, g: Game) -> Game:
        return checkpoint(pop(g))


def _outside_play(g: Game, ctx: Ctx, sel: Selector) -> tuple[Refused, ...]:
    """Cards that match a target's description but are not installed: refused, because targets of an
    instruction about installed cards must be in the play area (rule_targets_must_be_in_play_area)."""
    if not isinstance(sel, Matching) or any(isinstance(f, InZone) and f.zone != "installed" for f in sel.filters):
        return ()
    anywhere = Matching(tuple(f for f in sel.filters if not isinstance(f, InZone)) + (InZone("any"),))
    inside = set(sel.candidates(g, ctx))
    return tuple(
        Refused(decision("target", [c]), c, "rule_targets_must_be_in_play_area", f"{c} is not installed")
        for c in anywhere.candidates(g, ctx)
        if c not in inside
    )


def resolve_now(g: Game, ctx: Ctx, instrs: tuple[Instruction, ...], anchor: str) -> Game:
    """Resolve `instrs` next, before anything else on the stack (a branch, a loop body)."""
    return push(g, Resolve(instrs, ctx, anchor))


@dataclass(frozen=True)
class Choose(Frame):
    ctx: Ctx
    instr: ChooseOne
    done: tuple[int, ...] = ()  # options already resolved ("resolve 2 of the following": each once)
    total: int = 1  # how many options are resolved, the instruction's count as it began

    def step(self, g: Game) -> Game | ChoicePoint:
        chooser = self.ctx.side(self.instr.by)
        rule = self._rule()
        possible = [
            i
            for i, opt in enumerate(self.instr.options)
            if i not in self.done and (not self.instr.must or all(ins.possible(g, self.ctx) for ins in opt))
        ]
        if not possible:
            return log(pop(g), "no_option", "no option can be carried out: nothing happens", rule, chooser)
        refused = tuple(
            Refused(
                decision("choose", i + 1),
                _render(opt),
                rule,
                "already resolved" if i in self.done else "it cannot be carried out",
            )
            for i, opt in enumerate(self.instr.options)
            if i not in possible
        )
        # "Resolve up to N": the chooser may resolve no more modes (choose 0).
        stop = (Option(decision("choose", 0), "resolve no more", "rule_choose_next_mode"),) if self.instr.up_to else ()
        return ChoicePoint(
            chooser,
            "choose",
            self.instr.render(),
            rule,
            tuple(Option(decision("choose", i + 1), _render(self.instr.options[i]), rule) for i in possible) + stop,
            refused,
            default_reason="only" if len(possible) == 1 else "default",
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        n = int(option.decision.value)
        chooser = self.ctx.side(self.instr.by)
        if n == 0:
            return log(pop(g), "choose", f"the {chooser} resolves no more of them", "rule_choose_next_mode", chooser,
                       how="chosen")
        g = log(
            pop(g),
            "choose",
            f"the {chooser} chooses option {n}: {option.label}",
            self._rule(),
            chooser,
            how="chosen",  # advance marks a default or the only possible option
        )
        if self.instr.options[n - 1] and () in self.instr.options:  # a "may" option taken (rule_using)
            from judgebook.engine.rules.revealed import used_optionally

            g = used_optionally(g, self.ctx, chooser)
        if len(self.done) + 1 < self.total:  # the next option is chosen once this one has resolved
            g = push(g, Choose(self.ctx, self.instr, self.done + (n - 1,), self.total))
        return resolve_now(g, self.ctx, self.instr.options[n - 1], self._rule())

    def _rule(self) -> str:
        return choice_rule(self.instr)


def _render(instrs: tuple[Instruction, ...]) -> str:
    return "; ".join(i.render() for i in instrs)


def choice_rule(instr: ChooseOne) -> str:
    """A "must" ability's choice is limited to what can be fully resolved; any other choice is free."""
    return "rule_mandatory_choice" if instr.must else "rule_choice_instruction"


def push_choose(g: Game, ctx: Ctx, instr: ChooseOne) -> Game:
    total = min(instr.count.value(g, ctx), len(instr.options))
    if total < 1:
        return log(g, "no_option", "no option is to be resolved", choice_rule(instr), ctx.side(instr.by))
    return push(g, Choose(ctx, instr, (), total))
