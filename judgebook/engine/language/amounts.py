"""Amounts the language lacked: X chosen by a player (bounded), break X subroutines, counts of servers and actions.

Constructs of the card language added for the Standard pool (round 3, family `amounts`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from typing import Any

from judgebook.engine.language.context import PLAYER_WORDS, Ctx
from judgebook.engine.language.grammar import agreeing
from judgebook.engine.language.instructions import (
    CreateLasting,
    Instruction,
    Mods,
    instruction,
    parse_instructions,
    render_all,
)
from judgebook.engine.language.nodes import At, check_keys, want_bool, want_str
from judgebook.engine.language.quantities import QUANTITIES, Number, Quantity, parse_quantity
from judgebook.engine.language.selectors import FILTERS, Filter, Selector, parse_selector
from judgebook.engine.state.model import Game


@instruction("choose_number", "by", "then")
@dataclass(frozen=True, eq=False)
class ChooseNumber(Instruction):
    """ "Remove any number of tags", "choose a value for X equal to or less than …": a player chooses a whole
    number from `at_least` (default 0) to `at_most`, valued as the instruction resolves; the `then` instructions
    read it as X. `{choose_number: {at_most: {tags: runner}}, then: [{remove_tags: X}]}`"""

    most: Quantity
    least: Quantity
    by: str
    then: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseNumber:
        check_keys(arg, ("at_most", "at_least"), at)
        if "at_most" not in arg:
            at.fail("choose_number needs `at_most` (a quantity)")
        if "then" not in mods:
            whole.fail("choose_number needs `then`: the instructions that use the number as X")
        return cls(
            parse_quantity(arg["at_most"], at.key(arg, "at_most")),
            parse_quantity(arg.get("at_least", 0), at.key(arg, "at_least")),
            want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you",
            parse_instructions(mods["then"], whole.key(mods, "then")),
        )

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.amounts import push_number

        return push_number(g, ctx, self)

    def render(self) -> str:
        least = "" if isinstance(self.least, Number) and self.least.n == 0 else f" at least {self.least.render()} and"
        who = "choose" if self.by == "you" else agreeing(self.by, "choose")
        return f"{who} a number X,{least} at most {self.most.render()}: {render_all(self.then)}"



SERVER_KINDS = ("remote", "central", "any")


@QUANTITIES.register("servers")
@dataclass(frozen=True, eq=False)
class ServerCount(Quantity):
    """How many servers there are of a kind, with a card in their root (`root: true`) and protected by ice
    (`protected: true`), or without (false): `{servers: {kind: remote, root: true, protected: true}}`."""

    kind: str
    root: bool | None = None
    protected: bool | None = None

    @classmethod
    def parse(cls, arg: Any, at: At) -> ServerCount:
        check_keys(arg, ("kind", "root", "protected"), at)
        kind = want_str(arg, "kind", at, "any", SERVER_KINDS) or "any"
        return cls(
            kind,
            want_bool(arg, "root", at) if "root" in arg else None,
            want_bool(arg, "protected", at) if "protected" in arg else None,
        )

    def value(self, g: Game, ctx: Ctx) -> int:
        from judgebook.engine.state import queries as q

        def fits(server: str) -> bool:
            central = server in q.CENTRAL
            if (self.kind == "remote" and central) or (self.kind == "central" and not central):
                return False
            if self.root is not None and bool(g.zone(q.root_zone(server))) != self.root:
                return False
            return self.protected is None or bool(g.zone(q.ice_zone(server))) == self.protected

        return sum(1 for server in g.servers if fits(server))

    def render(self) -> str:
        kind = "" if self.kind == "any" else f"{self.kind} "
        parts = []
        if self.root is not None:
            parts.append(f"{'with' if self.root else 'without'} a card in their root")
        if self.protected is not None:
            parts.append(f"{'' if self.protected else 'not '}protected by ice")
        return f"the number of {kind}servers{' ' + ' and '.join(parts) if parts else ''}"


@instruction("repeat_process")
@dataclass(frozen=True, eq=False)
class RepeatProcess(Instruction):
    """ "…. Repeat this process N times" (rule_repeat_this_process_x_times): the process resolves once, then N is
    valued (after that first resolution, fixed from then on) and it resolves N more times, a checkpoint after
    each: `{repeat_process: {process: [...], times: <quantity>}}`."""

    process: tuple[Instruction, ...]
    times: Quantity
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> RepeatProcess:
        check_keys(arg, ("process", "times"), at)
        if "process" not in arg or "times" not in arg:
            at.fail("repeat_process needs `process` (instructions) and `times` (a quantity)")
        return cls(parse_instructions(arg["process"], at.key(arg, "process")),
                   parse_quantity(arg["times"], at.key(arg, "times")))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.amounts import push_repeat

        return push_repeat(g, ctx, self)

    def render(self) -> str:
        return f"{render_all(self.process)}; repeat this process {self.times.render()} times"


@instruction("fixed_lasting")
@dataclass(frozen=True, eq=False)
class FixedLasting(Instruction):
    """A lasting effect whose numbers are valued once, as it is created ("it gains X subroutines for the remainder
    of this run … X is equal to the number of tags the Runner has", X counted when the ice is encountered): the
    same keys as `lasting`; each quantity of its static effect becomes the number it is then."""

    lasting: CreateLasting
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> FixedLasting:
        lasting = CreateLasting.parse(arg, at, {}, whole)
        if lasting.effect is None:
            at.fail("fixed_lasting fixes the numbers of a static effect: write `static`")
        return cls(lasting)

    def run(self, g: Game, ctx: Ctx) -> Game:
        effect = self.lasting.effect
        assert effect is not None
        now = {f.name: Number(getattr(effect, f.name).value(g, ctx)) for f in fields(effect)  # type: ignore[arg-type]
               if isinstance(getattr(effect, f.name), Quantity)}
        return replace(self.lasting, effect=replace(effect, **now)).run(g, ctx)  # type: ignore[type-var]

    def render(self) -> str:
        return f"{self.lasting.render()} (its numbers counted as it begins)"


@instruction("rez_paying", "discount")
@dataclass(frozen=True, eq=False)
class RezPaying(Instruction):
    """ "Rez 1 installed piece of ice, paying 2[c] less": the rez cost is paid, lowered by `discount` (never
    below 0: rule_cost_calculation); a card whose cost cannot be paid is not rezzed.
    `{rez_paying: {zone: ice, rezzed: false, count: {up_to: 1}}, discount: 2}`"""

    selector: Selector
    discount: Quantity = Number(0)
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> RezPaying:
        discount = parse_quantity(mods["discount"], whole.key(mods, "discount")) if "discount" in mods else Number(0)
        return cls(parse_selector(arg, at), discount)

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.amounts import rez_paying

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        for cid in targets:
            g = rez_paying(g, ctx, cid, self.discount.value(g, ctx))
        return g

    def render(self) -> str:
        less = "" if isinstance(self.discount, Number) and self.discount.n == 0 else \
            f", paying {self.discount.render()}[c] less"
        return f"rez {self.selector.render()}{less}"


@QUANTITIES.register("same_action_this_turn")
@dataclass(frozen=True, eq=False)
class SameActionThisTurn(Quantity):
    """How many times this turn the player finished taking the triggering event's action (an `action_completed`
    trigger: "if you have taken that action exactly 3 times this turn"), this one included: the same basic
    action, or the same ability of the same card (rule_same_actions)."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> SameActionThisTurn:
        if arg is not True:
            at.fail("write `same_action_this_turn: true` (with an action_completed trigger)")
        return cls()

    def value(self, g: Game, ctx: Ctx) -> int:
        from judgebook.engine.rules.history import facts_this

        ev = ctx.event
        if ev is None or ev.name != "action_completed":
            return 0
        return sum(1 for f in facts_this(g, "turn") if f.event.name == "action_completed"
                   and f.event.get("player") == ev.get("player") and f.event.get("action") == ev.get("action"))

    def render(self) -> str:
        return "the number of times that action was taken this turn"


@QUANTITIES.register("distinct_actions_this_turn")
@dataclass(frozen=True, eq=False)
class DistinctActionsThisTurn(Quantity):
    """How many different actions a player finished taking this turn ("the first, second, and third actions you
    take on your turn are each different from one another": 3 of 3; rule_defferent_actions).
    `{distinct_actions_this_turn: you}`"""

    who: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> DistinctActionsThisTurn:
        if arg not in PLAYER_WORDS:
            at.fail(f"expected one of: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def value(self, g: Game, ctx: Ctx) -> int:
        from judgebook.engine.rules.history import facts_this

        side = ctx.side(self.who)
        return len({f.event.get("action") for f in facts_this(g, "turn")
                    if f.event.name == "action_completed" and f.event.get("player") == side})

    def render(self) -> str:
        return f"the number of different actions {agreeing(self.who, 'have')} taken this turn"


@instruction("install_and_rez", "discount", "server")
@dataclass(frozen=True, eq=False)
class InstallAndRez(Instruction):
    """ "Install and rez that ice, paying a total of 3[c] less": the install cost is paid lowered by the discount,
    and what the install cost did not use lowers the rez cost (the total paid is the same however the Corp
    splits it: rule_cost_calculation). `server` as for `install`.
    `{install_and_rez: target, discount: 3, server: any}`"""

    selector: Selector
    discount: Quantity = Number(0)
    server: str | None = None
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> InstallAndRez:
        if "discount" not in mods:
            whole.fail("install_and_rez needs `discount` (write 0 for none)")
        return cls(parse_selector(arg, at), parse_quantity(mods["discount"], whole.key(mods, "discount")),
                   want_str(mods, "server", whole))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.language.instructions import Install

        n = self.discount.value(g, ctx)
        install = Install(self.selector, pay_cost=True, server=self.server, discount=Number(n), then=(RezRest(n),))
        return install.run(g, ctx)

    def render(self) -> str:
        return f"install {self.selector.render()} and rez it, paying a total of {self.discount.render()}[c] less"


@dataclass(frozen=True, eq=False)
class RezRest(Instruction):
    """Part of `install_and_rez` (not written in a card): rez the card just installed (`chosen`), paying its rez
    cost lowered by what the install cost left of the discount."""

    discount: int
    mods: Mods = field(default_factory=Mods)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.amounts import rez_paying
        from judgebook.engine.state import queries as q

        for cid in ctx.chosen:
            server = q.server_of(g, cid)
            # the install cost of a piece of ice was the ice already protecting its server (rule_install_cost_ice)
            used = len(g.zone(q.ice_zone(server))) - 1 if server is not None and q.is_ice(g, cid) else 0
            g = rez_paying(g, ctx, cid, max(0, self.discount - min(used, self.discount)))
        return g

    def render(self) -> str:
        return f"rez it, paying what is left of {self.discount}[c] less"


@FILTERS.register("trash_limit")
@dataclass(frozen=True, eq=False)
class TrashLimit(Filter):
    """{trash_limit: N}, in a `cannot: {what: trash}` static ("you cannot trash more than 1 installed Runner card
    with this ice during each encounter"): an installed Runner card this card would now trash (as a subroutine on
    it resolves), when N installed Runner cards were already trashed with this card during this encounter."""

    limit: int

    @classmethod
    def parse(cls, arg: Any, at: At) -> TrashLimit:
        if isinstance(arg, bool) or not isinstance(arg, int) or arg < 1:
            at.fail("trash_limit is a whole number of cards, 1 or more")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        from judgebook.engine.rules.amounts import trashed_with_this_encounter
        from judgebook.engine.rules.revealed import by_subroutine

        return by_subroutine(g, ctx.source) and trashed_with_this_encounter(g, ctx.source) >= self.limit

    def render(self) -> str:
        return f"beyond the first {self.limit} trashed with this card during each encounter"


@instruction("reduce_trace_base")
@dataclass(frozen=True, eq=False)
class ReduceTraceBase(Instruction):
    """ "Reduce the base trace strength of a trace to 0": an interrupt to a trace's initiation (the interrupt
    window opened as it is initiated, before the Corp spends credits: step_trace_initiated) lowers that trace's
    base strength to the number, never raising it. `{reduce_trace_base: 0}`"""

    to: Quantity
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ReduceTraceBase:
        return cls(parse_quantity(arg, at))

    def interrupts(self, g: Game) -> bool:
        """Relevant while a trace is initiated and the Corp has not yet spent credits on it."""
        from judgebook.engine.rules.amounts import initiated_trace

        return initiated_trace(g) is not None

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.amounts import reduce_trace_base

        return reduce_trace_base(g, ctx, self.to.value(g, ctx))

    def render(self) -> str:
        return f"reduce the base trace strength of a trace to {self.to.render()}"


@instruction("trash_unless_paid", "cost", "by")
@dataclass(frozen=True, eq=False)
class TrashUnlessPaid(Instruction):
    """ "Trash all installed … . For each card that would be trashed this way, the Runner may pay 3[c] to prevent
    that card from being trashed": one trash of every card the selector finds (one interrupt window); as it is
    imminent, the player `by` may pay `cost` for each card in turn (decision `{pay: true|false}` per card, in the
    selector's order), each payment preventing that card's trash (rule_nested_cost, sec_prevent_avoid).
    `{trash_unless_paid: {zone: installed, side: opponent, type: program, count: all}, cost: {credits: 3}}`"""

    selector: Selector
    cost: Any = None  # a Cost (always given: parse requires it)
    by: str = "opponent"
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> TrashUnlessPaid:
        from judgebook.engine.language.costs import parse_cost

        if "cost" not in mods:
            whole.fail("trash_unless_paid needs `cost`: what preventing one card's trash costs")
        return cls(parse_selector(arg, at), parse_cost(mods["cost"], whole.key(mods, "cost")),
                   want_str(mods, "by", whole, "opponent", PLAYER_WORDS) or "opponent")

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.amounts import trash_unless_paid

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        return trash_unless_paid(g, ctx, self, targets)

    def render(self) -> str:
        from judgebook.engine.language.context import player_phrase

        return (f"trash {self.selector.render()}; for each card that would be trashed this way, "
                f"{player_phrase(self.by)} may pay {self.cost.render()} to prevent that card from being trashed")


@dataclass(frozen=True, eq=False)
class PreventTrashOf(Instruction):
    """Part of `trash_unless_paid` (not written in a card): prevent the imminent trash of one card."""

    card: str
    mods: Mods = field(default_factory=Mods)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.amounts import prevent_trash_of

        return prevent_trash_of(g, self.card)

    def render(self) -> str:
        return f"prevent {self.card} from being trashed"


_SAY_X = 987654321


@instruction("pay_counted", "x", "by", "optional", "then", "otherwise")
@dataclass(frozen=True, eq=False)
class PayCounted(Instruction):
    """A nested cost with a count only known as it resolves ("unless the Corp reveals and trashes X cards from HQ
    at random. X is equal to the number of cards in the root of the attacked server"): `x` is valued as it
    resolves and written in for `X` wherever the cost says it (a card count too: `count: {at_random: X}`); then
    it is a nested cost like `pay` (rule_nested_cost), with `by`, `optional`, `then`, `otherwise`. X = 0 asks for
    nothing: paid at once if not optional.
    `{pay_counted: {reveal_and_trash: {zone: hand, side: corp, count: {at_random: X}}}, x: 2, by: opponent}`"""

    node: str = ""  # the cost's YAML, with X in it, as JSON (a value of the language is hashable)
    where: Any = None  # its place in the file (for an error while parsing it with X written in)
    x: Quantity = Number(0)
    by: str = "you"
    optional: bool = False
    then: tuple[Instruction, ...] = ()
    otherwise: tuple[Instruction, ...] = ()
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> PayCounted:
        from judgebook.engine.language.costs import parse_cost
        from judgebook.engine.language.revealed import _holds, _put_type

        if "x" not in mods:
            whole.fail("pay_counted needs `x`: the quantity the cost's X is")
        if not _holds(arg, "X"):
            at.fail("pay_counted's cost says X somewhere (else write `pay`)")
        parse_cost(_put_type(arg, 1, "X"), at)  # the cost is valid whatever X is
        return cls(json.dumps(arg, sort_keys=True), at, parse_quantity(mods["x"], whole.key(mods, "x")),
                   want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you",
                   bool(want_bool(mods, "optional", whole)),
                   parse_instructions(mods.get("then"), whole.key(mods, "then")),
                   parse_instructions(mods.get("otherwise"), whole.key(mods, "otherwise")))

    def cost(self, n: int) -> Any:
        from judgebook.engine.language.costs import Cost, parse_cost
        from judgebook.engine.language.revealed import _put_type

        return parse_cost(_put_type(json.loads(self.node), n, "X"), self.where) if n > 0 else Cost()

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.language.instructions import NestedCost
        from judgebook.engine.rules import costs

        n = self.x.value(g, ctx)
        nested = NestedCost(self.cost(n), self.by, self.optional, self.then, self.otherwise)
        return costs.nested(g, ctx, nested)

    def render(self) -> str:
        from judgebook.engine.language.context import player_phrase

        said = f"{player_phrase(self.by)} may pay" if self.optional else \
            ("pay" if self.by == "you" else agreeing(self.by, "pay"))
        # the cost as written, X in it (rendered with a number no card says, then named X again)
        cost = self.cost(_SAY_X).render().replace(str(_SAY_X), "X")
        text = f"{said} {cost}, X being {self.x.render()}"
        if self.then:
            text += "; if paid: " + render_all(self.then)
        if self.otherwise:
            text += "; if not: " + render_all(self.otherwise)
        return text


@instruction("take_action")
@dataclass(frozen=True, eq=False)
class TakeAction(Instruction):
    """ "Take another different action, paying [click] less": the player takes one more action now, one not taken
    yet this turn (`different: true`: not the same basic action, nor the same ability of the same card), its
    [click] cost lowered by `clicks_less` (on its first payment of clicks, never below 0).
    `{take_action: {different: true, clicks_less: 1}}`"""

    different: bool = False
    clicks_less: int = 0
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> TakeAction:
        check_keys(arg, ("different", "clicks_less"), at)
        less = arg.get("clicks_less", 0)
        if isinstance(less, bool) or not isinstance(less, int) or less < 0:
            at.key(arg, "clicks_less").fail("clicks_less is a whole number of [click], 0 or more")
        return cls(bool(want_bool(arg, "different", at)), less)

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.amounts import extra_action_options

        return bool(extra_action_options(g, ctx.controller, self.different, self.clicks_less)[0])

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.amounts import ExtraAction

        return push_frame(g, ExtraAction(ctx.controller, self.different, self.clicks_less))

    def render(self) -> str:
        what = "another different action" if self.different else "another action"
        less = f", paying {'[click]' * self.clicks_less} less" if self.clicks_less else ""
        return f"take {what}{less}"


def push_frame(g: Game, frame: Any) -> Game:
    from judgebook.engine.rules.frames import push

    return push(g, frame)
