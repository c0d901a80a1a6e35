"""Moving cards and the Runner: swaps with cards outside play, hosting by install or from access, moving the Runner.

Constructs of the card language added for the Standard pool (round 3, family `moving`); each registers
itself in its kind's registry when `instructions.py` imports this module.

    {swap_in: <a card in HQ or Archives>, with: <an installed card>}  swap a card outside play with an installed one
    {move_runner: Archives | this | attacked}     the Runner moves to a server's outermost position
    {move_ice: self, server: attacked}            move an installed ice to a server's outermost position
    {install_hosted: chosen, onto: self | {zone: ice, count: 1}}  install a card hosted on another, paying its cost
    {approach_instead: {server: Archives, to: HQ}}  "when you would approach Archives, instead change the attacked
                                                  server to HQ and approach HQ" (before `run`: for that run)

Their state changes and decisions are in `judgebook.engine.rules.movement`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.instructions import Instruction, Mods, instruction, parse_instructions, render_all
from judgebook.engine.language.nodes import At, check_keys, want_str
from judgebook.engine.language.selectors import InZone, Matching, Selector, TopOfDeck, parse_selector
from judgebook.engine.language.statics import Static
from judgebook.engine.language.verbs import Host
from judgebook.engine.state.model import Game

OUTSIDE = ("hand", "discard")  # where the card swapped into play comes from


def _where(sel: Selector) -> str:
    zones = [f.zone for f in sel.filters if isinstance(f, InZone)] if isinstance(sel, Matching) else []
    return {"hand": "HQ", "discard": "Archives"}.get(zones[0], zones[0]) if zones else ""


@instruction("swap_in", "with", "then")
@dataclass(frozen=True, eq=False)
class SwapIn(Instruction):
    """Swap a card that is not installed (in HQ or Archives) with an installed card (rule_swap_become_installed):
    the installed card leaves play for the other's zone (a new object: its hosted cards and counters are
    trashed), the other becomes installed in its exact position, unrezzed, without an install cost. The card
    from outside play is this instruction's target; `with` names the installed card, or chooses it (a
    selector with a count: the controller chooses among the cards it could legally be swapped with). `then`
    resolves only if the swap happened ("If you do"), after what the swap made pending (the install's
    trigger conditions are met at the next checkpoint: rule_swap_become_installed)."""

    other: Selector
    selector: Selector
    then: tuple[Instruction, ...] = ()  # "If you do, ...": only once the swap happened
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> SwapIn:
        sel = parse_selector(arg, at)
        if isinstance(sel, TopOfDeck) or _where(sel) not in ("HQ", "Archives"):
            at.fail(f"swap_in takes a card outside play: filters with `zone: {' | '.join(OUTSIDE)}`")
        if sel.count != 1:
            at.fail("swap_in swaps one card: `count: 1`")
        if "with" not in mods:
            whole.fail("swap_in needs `with`: the installed card it is swapped with")
        other = parse_selector(mods["with"], whole.key(mods, "with"))
        if other.chooses and other.count != 1:
            whole.key(mods, "with").fail("`with` names one installed card, or chooses one (`count: 1`)")
        return cls(other, sel, parse_instructions(mods.get("then"), whole.key(mods, "then")))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules import movement

        return any(movement.swap_pairs(g, ctx, self, c) for c in self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import movement

        return movement.swap_in(g, ctx, self)

    def render(self) -> str:
        text = f"swap {self.other.render()} with {self.selector.render()}"
        return text + (f". If you do, {render_all(self.then)}" if self.then else "")


SERVER_ARGS = ("this", "attacked")


@instruction("move_runner")
@dataclass(frozen=True, eq=False)
class MoveRunner(Instruction):
    """The Runner moves to the outermost position of a server (rule_move_to_specific_position): it becomes the
    attacked server; with ice protecting it, the run goes on at the Approach Ice Phase of the outermost ice,
    without ice at the Movement Phase with no position. In the Success or Run Ends Phase, or with no run, the
    Runner does nothing (rule_ineffective_move). `this`: the server of the card (or, once the card has left,
    the server of the event that made the ability pending)."""

    server: str
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> MoveRunner:
        if not isinstance(arg, str) or not arg:
            at.fail(f"move_runner names a server: a name, or one of {', '.join(SERVER_ARGS)}")
        return cls(arg)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import movement

        return movement.move_runner(g, ctx, self.server)

    def render(self) -> str:
        where = {"this": "this server", "attacked": "the attacked server"}.get(self.server, self.server)
        return f"the Runner moves to the outermost position of {where}"


@instruction("move_ice", "server")
@dataclass(frozen=True, eq=False)
class MoveIce(Instruction):
    """Move installed ice to the outermost position protecting a server (`server: attacked`, `this` or a name):
    it stays installed, the same object, rezzed or not, with its counters and hosted cards
    (rule_object_move_known_location); no install cost is paid."""

    selector: Selector
    server: str = "attacked"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> MoveIce:
        server = want_str(mods, "server", whole, None)
        if server is None:
            whole.fail(f"move_ice needs `server`: a name, or one of {', '.join(SERVER_ARGS)}")
        return cls(parse_selector(arg, at), server)

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules import movement

        return movement.server_named(g, ctx, self.server) is not None and bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import movement

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        return movement.move_ice(g, ctx, targets, self.server)

    def render(self) -> str:
        where = {"this": "this server", "attacked": "the attacked server"}.get(self.server, self.server)
        return f"move {self.selector.render()} to the outermost position protecting {where}"


@dataclass(frozen=True, eq=False)
class ApproachInstead(Static):
    """The lasting effect `approach_instead` creates for its run (read by `rules.movement.redirect_approach`)."""

    server: str
    to: str

    def render(self) -> str:
        return (f"when you would approach {self.server}, instead change the attacked server to {self.to} and "
                f"approach {self.to}")


@instruction("approach_instead")
@dataclass(frozen=True, eq=False)
class ApproachInsteadOf(Instruction):
    """"Run Archives. When you would approach Archives (after passing all ice), instead change the attacked server
    to HQ and approach HQ": a replacement of the approach of the server for the run in progress, or else for the
    next run (written just before `run`), as a lasting effect for that run. The run's timing step does not change
    and the ice of the new server is not approached (rule_change_attacked_server_directly)."""

    server: str
    to: str
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ApproachInsteadOf:
        body = check_keys(arg, ("server", "to"), at)
        server, to = body.get("server"), body.get("to")
        if not isinstance(server, str) or not isinstance(to, str):
            at.fail("approach_instead needs `server` (whose approach is replaced) and `to` (the new attacked server)")
        return cls(server, to)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.effects import create_lasting

        return create_lasting(g, ctx, ApproachInstead(self.server, self.to), "run")

    def render(self) -> str:
        return ApproachInstead(self.server, self.to).render()


@instruction("install_hosted", "onto")
@dataclass(frozen=True, eq=False)
class InstallHosted(Host):
    """Install a Runner card hosted on another card (Muse: "install it on a piece of ice", "install it on this
    program"), paying its install cost: it is installed while its host is (rule_valid_hosts). `onto` names the host,
    or chooses it (`count: 1`) once the card to install is known (parsed as `host`'s)."""

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import movement

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        return movement.install_hosted(g, ctx, tuple(targets), self.on)

    def render(self) -> str:
        return f"install {self.selector.render()} on {self.on.render()}"
