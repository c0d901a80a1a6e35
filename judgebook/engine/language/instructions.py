"""Instructions: what an ability does, one at a time, with a checkpoint after each.

Each instruction is one class: its `parse`, its `run` (a pure function of the
state, which may push frames for decisions and interrupt windows) and its
`render`. Modifiers allowed beside any instruction: `if_able` (carried out fully
or not at all: rule_if_able), `player` (whose pool or hand it acts on), `note`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from judgebook.engine.language.conditions import Condition, parse_condition
from judgebook.engine.language.context import PLAYER_WORDS, Ctx, player_phrase
from judgebook.engine.language.costs import Cost, parse_cost
from judgebook.engine.language.grammar import agreeing, counted, possessive
from judgebook.engine.language.nodes import At, check_keys, want_bool, want_str
from judgebook.engine.language.quantities import Number, Quantity, parse_quantity
from judgebook.engine.language.registry import Registry
from judgebook.engine.language.selectors import Selector, parse_selector
from judgebook.engine.language.statics import Static, parse_static
from judgebook.engine.language.value import Value
from judgebook.engine.state.model import Game

MODIFIERS = ("if_able", "player", "note", "then", "otherwise", "by", "optional", "duration")


@dataclass(frozen=True, eq=False)
class Mods:
    if_able: bool = False
    player: str | None = None  # you | opponent | corp | runner (default: you)
    note: str = ""


class Instruction(Value):
    name = ""
    mods: Mods
    selector: Selector | None = None  # the cards it needs chosen when it resolves, if any

    def run(self, g: Game, ctx: Ctx) -> Game:
        raise NotImplementedError

    def possible(self, g: Game, ctx: Ctx) -> bool:
        """Whether it can be carried out in full (for `if_able` and for `choose` options)."""
        return True

    def invalid_targets(self, g: Game, ctx: Ctx) -> dict[str, str]:
        """Cards its selector finds that this instruction cannot act on, with why: not valid targets
        (rule_targets_must_be_valid)."""
        return {}

    def render(self) -> str:
        raise NotImplementedError

    def who(self, ctx: Ctx) -> Any:
        return ctx.side(self.mods.player or "you")


INSTRUCTIONS: Registry[Instruction] = Registry("instruction", MODIFIERS)
# Which modifiers each instruction reads besides if_able/player/note; any other is an error.
EXTRA: dict[str, tuple[str, ...]] = {}


def parse_instructions(node: Any, at: At) -> tuple[Instruction, ...]:
    if node is None:
        return ()
    if not isinstance(node, list):
        node = [node]
    return tuple(parse_instruction(item, at.key(node, i)) for i, item in enumerate(node))


def parse_instruction(node: Any, at: At) -> Instruction:
    cls, arg = INSTRUCTIONS.head(node, at)
    name = cls.name  # type: ignore[attr-defined]
    mods = node if isinstance(node, dict) else {}
    allowed = ("if_able", "player", "note") + EXTRA.get(name, ())
    for key in mods:
        if key != name and key not in allowed:
            at.key(mods, str(key)).fail(f"{key!r} has no meaning on {name} (allowed: {', '.join(allowed)})")
    m = Mods(
        want_bool(mods, "if_able", at), want_str(mods, "player", at, None, PLAYER_WORDS), str(mods.get("note", ""))
    )
    inner = at.key(node, name) if isinstance(node, dict) else at
    ins = cls.parse(arg, inner, mods, at)  # type: ignore[attr-defined]
    return replace(ins, mods=m)  # type: ignore[no-any-return]


def instruction(name: str, *extra: str) -> Any:
    def add(cls: type) -> type:
        EXTRA[name] = extra
        # a key some instruction reads may stand beside any head (which instruction reads it is checked after)
        INSTRUCTIONS.modifiers = tuple(sorted(set(INSTRUCTIONS.modifiers) | set(extra)))
        return INSTRUCTIONS.register(name)(cls)

    return add


# --- players' pools -------------------------------------------------------------------------

ALL = parse_quantity({"credits": "you"}, At("lose_credits: all", None))   # rendered "all" below


def _amount_instruction(name: str, verb: str, noun: str) -> None:
    @dataclass(frozen=True, eq=False)
    class Amount(Instruction):
        amount: Quantity
        mods: Mods = field(default_factory=Mods)

        @classmethod
        def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Amount:
            if name == "lose_credits" and arg == "all":
                return cls(ALL)
            return cls(parse_quantity(arg, at))

        def possible(self, g: Game, ctx: Ctx) -> bool:
            from judgebook.engine.rules import effects

            return effects.amount_possible(g, name, self.who(ctx), self.count(g, ctx))

        def run(self, g: Game, ctx: Ctx) -> Game:
            from judgebook.engine.rules import effects

            return effects.apply_amount(g, ctx, name, self.who(ctx), self.count(g, ctx))

        def count(self, g: Game, ctx: Ctx) -> int:
            # "Lose all credits": the pool of the player losing them, not of the ability's controller.
            return g.player(self.who(ctx)).credits if self.amount is ALL else self.amount.value(g, ctx)

        def render(self) -> str:
            said = agreeing(self.mods.player, verb) if self.mods.player else verb
            if noun == "[click]" and isinstance(self.amount, Number):
                return f"{said} {'[click]' * self.amount.n}".strip()  # printed "gain [click][click]"
            amount = "all" if self.amount is ALL else self.amount.render()
            return f"{said} {counted(amount, noun)}".strip()

    Amount.__name__ = Amount.__qualname__ = f"Amount_{name}"
    instruction(name)(Amount)


for _name, _verb, _noun in (
    ("gain_credits", "gain", "[c]"),
    ("lose_credits", "lose", "[c]"),
    ("gain_clicks", "gain", "[click]"),
    ("lose_clicks", "lose", "[click]"),
    ("draw", "draw", "card"),
    ("remove_tags", "remove", "tag"),
    ("bad_publicity", "take", "bad publicity"),
    ("remove_bad_publicity", "remove", "bad publicity"),
):
    _amount_instruction(_name, _verb, _noun)


# --- the run -----------------------------------------------------------------------------------


def _run_instruction(name: str, words: str) -> None:
    @dataclass(frozen=True, eq=False)
    class RunInstr(Instruction):
        mods: Mods = field(default_factory=Mods)

        @classmethod
        def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> RunInstr:
            if arg not in (None, True):
                at.fail(f"{name} takes no value")
            return cls()

        def possible(self, g: Game, ctx: Ctx) -> bool:
            from judgebook.engine.rules.frames import current_encounter, current_run

            return (current_encounter(g) if name == "bypass" else current_run(g)) is not None

        def run(self, g: Game, ctx: Ctx) -> Game:
            from judgebook.engine.rules import run as runs

            return runs.instruction(g, ctx, name)

        def parts(self, g: Game, ctx: Ctx) -> tuple[Any, ...]:
            from judgebook.engine.rules.damage import Part

            return (Part("end_run", 1, by=ctx.controller),)

        def render(self) -> str:
            return words

    RunInstr.__name__ = RunInstr.__qualname__ = f"Run_{name}"
    instruction(name)(RunInstr)


for _name, _words in (
    ("end_the_run", "end the run"),
    ("bypass", "bypass the encountered ice"),
    ("jack_out", "jack out"),
):
    _run_instruction(_name, _words)


# --- cards --------------------------------------------------------------------------------------


def _card_instruction(name: str, verb: str) -> None:
    @dataclass(frozen=True, eq=False)
    class CardInstr(Instruction):
        selector: Selector
        by: str | None = None  # who performs it (and chooses the cards): default the controller
        then: tuple[Instruction, ...] = ()  # "if you do": only after it acted on a card
        mods: Mods = field(default_factory=Mods)

        @classmethod
        def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> CardInstr:
            return cls(
                parse_selector(arg, at),
                want_str(mods, "by", whole, None, PLAYER_WORDS),
                parse_instructions(mods.get("then"), whole.key(mods, "then")),
            )

        def chooser(self, ctx: Ctx) -> Any:
            return ctx.side(self.by or "you")

        def possible(self, g: Game, ctx: Ctx) -> bool:
            # In full: as many cards as it names that it can act on (rule_if_able: "trash 2 ..., if able").
            invalid = self.invalid_targets(g, ctx)
            found = [c for c in self.selector.candidates(g, ctx) if c not in invalid]
            return bool(found) and len(found) >= self.selector.needed(g, ctx)

        def invalid_targets(self, g: Game, ctx: Ctx) -> dict[str, str]:
            if name != "trash":
                return {}
            from judgebook.engine.rules.costs import cannot

            chooser = self.chooser(ctx)
            return {c: "it cannot be trashed" for c in self.selector.candidates(g, ctx)
                    if cannot(g, "trash", chooser, card=c) is not None}

        def run(self, g: Game, ctx: Ctx) -> Game:
            from judgebook.engine.rules import effects
            from judgebook.engine.rules.resolve import resolve_now

            targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
            if self.then and targets:
                g = resolve_now(g, replace(ctx, targets=(), chosen=targets), self.then, "rule_nested_cost")
            return effects.apply_to_cards(g, replace(ctx, controller=self.chooser(ctx)), name, targets)

        def render(self) -> str:
            text = f"{verb} {self.selector.render()}"
            return text + (f"; if you do, {render_all(self.then)}" if self.then else "")

    CardInstr.__name__ = CardInstr.__qualname__ = f"Card_{name}"
    instruction(name, "by", "then")(CardInstr)


for _name, _verb in (
    ("trash", "trash"),
    ("rez", "rez"),
    ("derez", "derez"),
    ("expose", "expose"),
    ("reveal", "reveal"),
    ("look_at", "look at"),
    ("turn_faceup", "turn faceup"),
    ("choose_card", "choose"),
    ("add_to_hand", "add to its owner's hand"),
    ("shuffle_into_deck", "shuffle into its owner's deck"),
    ("add_to_top_of_deck", "add to the top of its owner's deck"),
    ("add_to_bottom_of_deck", "add to the bottom of its owner's deck"),
    ("turn_facedown", "turn facedown"),
):
    _card_instruction(_name, _verb)


@instruction("sabotage")
@dataclass(frozen=True, eq=False)
class Sabotage(Instruction):
    """ "Sabotage N": the Corp trashes N cards collectively from HQ (its choice) and the top of R&D
    (rule_sabotage); the decision `{target: [HQ cards]}` is the Corp's, the rest comes from R&D."""

    amount: Quantity
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Sabotage:
        return cls(parse_quantity(arg, at))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.verbs import sabotage

        return sabotage(g, ctx, self.amount.value(g, ctx))

    def render(self) -> str:
        return f"sabotage {self.amount.render()}"


@instruction("remove_from_game")
@dataclass(frozen=True, eq=False)
class RemoveFromGame(Instruction):
    """Move cards to the removed-from-game zone (rule_rfg_move); a played card removed this way is not
    trashed when it finishes resolving (rule_play_no_trash_left_play_area)."""

    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> RemoveFromGame:
        return cls(parse_selector(arg, at))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.verbs import remove_from_game

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        return remove_from_game(g, ctx, targets)

    def render(self) -> str:
        return f"remove {self.selector.render()} from the game"


@instruction("counters", "then")
@dataclass(frozen=True, eq=False)
class PlaceCounters(Instruction):
    """{counters: {add: 2, kind: virus, card: self}} / {counters: {remove: 1, kind: power, card: target}};
    `then` acts on the cards as `chosen` ("place 4 advancement counters on 1 installed card; score that card")."""

    kind: str
    amount: Quantity
    remove: bool
    on: Selector
    then: tuple[Instruction, ...] = ()
    mods: Mods = field(default_factory=Mods)

    @property
    def selector(self) -> Selector:  # type: ignore[override]
        return self.on

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> PlaceCounters:
        check_keys(arg, ("add", "remove", "kind", "card"), at)
        if ("add" in arg) == ("remove" in arg):
            at.fail("counters needs `add: N` or `remove: N`")
        kind = want_str(arg, "kind", at)
        if kind is None:
            at.fail("counters needs `kind`")
        key = "add" if "add" in arg else "remove"
        return cls(
            kind,
            parse_quantity(arg[key], at.key(arg, key)),
            key == "remove",
            parse_selector(arg.get("card", "self"), at.key(arg, "card")),
            parse_instructions(mods.get("then"), whole.key(mods, "then")),
        )

    def possible(self, g: Game, ctx: Ctx) -> bool:
        if not self.remove:
            return True
        n = self.amount.value(g, ctx)
        return all(g.cards[c].count(self.kind) >= n for c in self.on.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import effects

        n = self.amount.value(g, ctx)
        targets = ctx.targets if self.on.chooses else tuple(self.on.candidates(g, ctx))
        g = effects.counters(g, targets, self.kind, -n if self.remove else n)
        if self.then and targets:
            from judgebook.engine.rules.resolve import resolve_now

            anchor = "rule_checkpoint_after_instruction_resolution"
            g = resolve_now(g, replace(ctx, targets=(), chosen=targets), self.then, anchor)
        return g

    def render(self) -> str:
        verb = "remove" if self.remove else "place"
        prep = "from" if self.remove else "on"
        then = f"; if you do, {render_all(self.then)}" if self.then else ""
        return f"{verb} {counted(self.amount.render(), self.kind + ' counter')} {prep} {self.on.render()}{then}"


# --- lasting effects --------------------------------------------------------------------------

# Each duration of a lasting effect, as a printed card says it ("while" is followed by its condition).
DURATIONS = {
    "encounter": "for the remainder of this encounter",
    "run": "for the remainder of this run",
    "turn": "for the remainder of this turn",
    "until_your_next_turn_begins": "until your next turn begins",
    "until_end_of_your_next_turn": "until the end of your next turn",
    "until_opponent_next_turn_begins": "until your opponent's next turn begins",
    "until_end_of_opponent_next_turn": "until the end of your opponent's next turn",
    "while": "while",
}


@instruction("lasting")
@dataclass(frozen=True, eq=False)
class CreateLasting(Instruction):
    """{lasting: {static: {hand_size: {by: 1, minus: true, player: runner}}, duration: until_opponent_next_turn_begins}}
    or a delayed conditional ability: {lasting: {duration: run, ability: {trigger, condition, if, effects}}}."""

    effect: Static | None
    ability: Any
    duration: str
    condition: Condition | None
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> CreateLasting:
        check_keys(arg, ("static", "ability", "duration", "while"), at)
        duration = want_str(arg, "duration", at, None, tuple(DURATIONS))
        if duration is None or ("static" in arg) == ("ability" in arg):
            at.fail("lasting needs `duration` and one of `static` (an effect) or `ability` (a delayed ability)")
        cond = parse_condition(arg["while"], at.key(arg, "while")) if "while" in arg else None
        if (duration == "while") != (cond is not None):
            at.fail("`duration: while` goes with a `while:` condition, and only with it")
        ability = None
        if "ability" in arg:
            from judgebook.engine.language.cards import parse_ability

            ability = parse_ability(arg["ability"], at.key(arg, "ability"), 0, "delayed")
            if ability.trigger is None:
                at.key(arg, "ability").fail("a delayed ability needs a `trigger`")
        static = parse_static(arg["static"], at.key(arg, "static")) if "static" in arg else None
        return cls(static, ability, duration, cond)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import effects

        return effects.create_lasting(g, ctx, self.effect, self.duration, self.ability, self.condition)

    def render(self) -> str:
        span = DURATIONS[self.duration]
        if self.condition is not None:
            span = f"{span} {self.condition.render()}"
        if self.effect is not None:
            return f"{self.effect.render()} {span}"
        ab = self.ability
        cond = f", if {ab.condition.render()}" if ab.condition is not None else ""
        what = f"delayed: {ab.trigger.render()}{cond}, {render_all(ab.effects)}"
        # "When that run ends, ...": a delayed ability waiting for an event of its own duration says no duration
        if ab.trigger.event in _ENDS.get(self.duration, ()) \
                or any(getattr(f, "within", None) == self.duration for f in ab.trigger.filters):
            return what
        return f"{what} {span}"


# The events that fall within a duration and say it themselves ("When that run ends", "...during that run").
_ENDS = {"turn": ("turn_ends",), "encounter": ("encounter_ends",),
         "run": ("run_ends", "run_unsuccessful", "successful_run", "breach", "encounter_ice", "approach_ice",
                 "pass_ice", "approach_server")}


@instruction("strength")
@dataclass(frozen=True, eq=False)
class Pump(Instruction):
    """+N strength for this card: an icebreaker's for the encounter (or until the next checkpoint outside
    one), an ice's for the run."""

    amount: Quantity
    negative: bool
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Pump:
        if isinstance(arg, int) and not isinstance(arg, bool):
            return cls(parse_quantity(abs(arg), at), arg < 0)
        return cls(parse_quantity(arg, at), False)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import encounter

        n = self.amount.value(g, ctx)
        return encounter.pump(g, ctx.source, -n if self.negative else n)

    def render(self) -> str:
        return f"{'-' if self.negative else '+'}{self.amount.render()} strength"


# --- control ----------------------------------------------------------------------------------


@instruction("pay", "by", "optional", "then", "otherwise")
@dataclass(frozen=True, eq=False)
class NestedCost(Instruction):
    """rule_nested_cost: "pay 1[c] to ...", "end the run unless the Runner pays 1[c]", "must pay, if able"."""

    cost: Cost
    by: str
    optional: bool
    then: tuple[Instruction, ...]
    otherwise: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> NestedCost:
        return cls(
            parse_cost(arg, at),
            want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you",
            want_bool(mods, "optional", whole),
            parse_instructions(mods.get("then"), whole.key(mods, "then")),
            parse_instructions(mods.get("otherwise"), whole.key(mods, "otherwise")),
        )

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import costs

        return costs.nested(g, ctx, self)

    def render(self) -> str:
        # a required payment reads as the imperative ("pay 2[c]", "the Runner pays 2[c]"): after an optional
        # ability's "you may" a "must" would contradict it
        if self.optional:
            said = f"{player_phrase(self.by)} may pay"
        else:
            said = "pay" if self.by == "you" else agreeing(self.by, "pay")
        text = f"{said} {self.cost.render()}"
        if self.mods.if_able:
            text += " if able"
        if self.then:
            text += "; if paid: " + render_all(self.then)
        if self.otherwise:
            text += "; if not: " + render_all(self.otherwise)
        return text


@instruction("if", "then", "otherwise")
@dataclass(frozen=True, eq=False)
class Branch(Instruction):
    condition: Condition
    then: tuple[Instruction, ...]
    otherwise: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Branch:
        if "then" not in mods and "otherwise" not in mods:
            whole.fail("`if` needs `then` and/or `otherwise`")
        return cls(
            parse_condition(arg, at),
            parse_instructions(mods.get("then"), whole.key(mods, "then")),
            parse_instructions(mods.get("otherwise"), whole.key(mods, "otherwise")),
        )

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.resolve import resolve_now

        branch = self.then if self.condition.holds(g, ctx) else self.otherwise
        return resolve_now(g, ctx, branch, "rule_checkpoint_after_instruction_resolution") if branch else g

    def render(self) -> str:
        text = f"if {self.condition.render()}, {render_all(self.then) or 'nothing'}"
        return text + (f"; otherwise {render_all(self.otherwise)}" if self.otherwise else "")


@instruction("for_each")
@dataclass(frozen=True, eq=False)
class ForEach(Instruction):
    """{for_each: <selector>, do: [...]}: the instructions once per selected card (that card is `target`)."""

    over: Selector
    body: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ForEach:
        check_keys(arg, ("cards", "do"), at)
        if "cards" not in arg or "do" not in arg:
            at.fail("for_each needs `cards` (a selector) and `do` (instructions)")
        return cls(
            parse_selector(arg["cards"], at.key(arg, "cards"), None), parse_instructions(arg["do"], at.key(arg, "do"))
        )

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.resolve import resolve_now

        for cid in reversed(self.over.candidates(g, ctx)):
            g = resolve_now(
                g,
                replace(ctx, targets=(cid,), chosen=(cid,)),
                self.body,
                "rule_checkpoint_after_instruction_resolution",
            )
        return g

    def render(self) -> str:
        return f"for each of {self.over.render()}: {render_all(self.body)}"


@instruction("choose", "by", "count", "must")
@dataclass(frozen=True, eq=False)
class ChooseOne(Instruction):
    """ "X or Y": the chooser picks any option (rule_choice_instruction: the choice needs no potential to change
    the game state); `must: true` for a "must" ability ("the Runner must take 1 tag or end the run"): only an
    option that can be fully resolved, and nothing happens if none can (rule_mandatory_choice). `count: N`:
    "resolve N of the following in any order", N different options, each resolved before the next is chosen."""

    options: tuple[tuple[Instruction, ...], ...]
    by: str
    count: Quantity = Number(1)  # how many different options ("for each time you passed ice": a quantity)
    must: bool = False
    mods: Mods = field(default_factory=Mods)
    up_to: bool = False  # `count: {up_to: N}`: "resolve up to N", the chooser may stop (rule_choose_next_mode)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseOne:
        if not isinstance(arg, list) or len(arg) < 2:
            at.fail("choose is a list of at least two options, each a list of instructions")
        raw = mods.get("count", 1)
        up_to = isinstance(raw, dict) and list(raw) == ["up_to"]
        where = whole.key(mods, "count")
        count = parse_quantity(raw["up_to"], where.key(raw, "up_to")) if up_to else parse_quantity(raw, where)
        if isinstance(count, Number) and not 1 <= count.n <= len(arg):
            whole.key(mods, "count").fail("count is at least 1 and at most the number of options")
        return cls(
            tuple(parse_instructions(o, at.key(arg, i)) for i, o in enumerate(arg)),
            want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you",
            count,
            want_bool(mods, "must", whole),
            up_to=up_to,
        )

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.resolve import push_choose

        return push_choose(g, ctx, self)

    def render(self) -> str:
        text = " or ".join(f"({render_all(o) or 'nothing'})" for o in self.options)
        single = isinstance(self.count, Number) and self.count.n == 1 and not self.up_to
        up_to = "up to " if self.up_to else ""
        text = text if single else f"resolve {up_to}{self.count.render()} of: {text}, in any order"
        return f"must {text}" if self.must else text


@instruction("win")
@dataclass(frozen=True, eq=False)
class Win(Instruction):
    side: str
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Win:
        if arg not in PLAYER_WORDS:
            at.fail(f"win is one of {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import effects

        return effects.win(g, ctx.side(self.side), "card", "step_checkpoint_agenda_points")

    def render(self) -> str:
        return f"{agreeing(self.side, 'win')} the game"


@instruction("end_action_phase")
@dataclass(frozen=True, eq=False)
class EndActionPhase(Instruction):
    """A terminal card's "after you resolve this operation, your action phase ends" (rule_forced_action_phase_end),
    written as the last instruction of its play ability."""

    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> EndActionPhase:
        if arg not in (None, True):
            at.fail("end_action_phase takes no value")
        return cls()

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.turn import end_action_phase

        return end_action_phase(g, self.who(ctx))

    def render(self) -> str:
        return "your action phase ends"


@instruction("shuffle")
@dataclass(frozen=True, eq=False)
class Shuffle(Instruction):
    deck: str
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Shuffle:
        if arg not in PLAYER_WORDS:
            at.fail(f"shuffle names whose deck: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import effects

        return effects.shuffle(g, ctx.side(self.deck))

    def render(self) -> str:
        return f"shuffle {possessive(self.deck)} deck"


@instruction("purge")
@dataclass(frozen=True, eq=False)
class Purge(Instruction):
    """Purge virus counters (rule_purge): always possible, even with none in play."""

    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Purge:
        if arg not in (None, True):
            at.fail("purge takes no value")
        return cls()

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import effects

        return effects.purge(g, ctx.controller)

    def render(self) -> str:
        return "purge virus counters"


@instruction("damage", "by")
@dataclass(frozen=True, eq=False)
class Damage(Instruction):
    """{damage: {type: net, amount: 2}}: the Runner suffers it (an interrupt window opens first)."""

    kind: str
    amount: Quantity
    by: str | None
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Damage:
        check_keys(arg, ("type", "amount"), at)
        kind = want_str(arg, "type", at, None, ("net", "meat", "core"))
        if kind is None or "amount" not in arg:
            at.fail("damage needs `type` (net, meat, core) and `amount`")
        return cls(
            kind, parse_quantity(arg["amount"], at.key(arg, "amount")), want_str(mods, "by", whole, None, PLAYER_WORDS)
        )

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules import damage

        return damage.deal(g, ctx, self.kind, self.amount.value(g, ctx), ctx.side(self.by or "you"))

    def parts(self, g: Game, ctx: Ctx) -> tuple[Any, ...]:
        from judgebook.engine.rules.damage import Part

        return (Part("damage", self.amount.value(g, ctx), self.kind, by=ctx.side(self.by or "you")),)

    def render(self) -> str:
        return f"do {self.amount.render()} {self.kind} damage"


def render_all(instrs: tuple[Instruction, ...]) -> str:
    return "; ".join(i.render() for i in instrs)


# --- imminent instructions and interrupts --------------------------------------------------


@instruction("prevent")
@dataclass(frozen=True, eq=False)
class ChangeImminent(Instruction):
    """{prevent: {what: damage, amount: 1|all, damage_type: net}} / {increase: {what: damage, amount: 1}}:
    change the imminent instruction this interrupt interrupts."""

    what: str
    amount: Quantity | None
    kind: str | None
    increase: bool = False
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChangeImminent:
        from judgebook.engine.language.statics import PREVENT_WHAT

        check_keys(arg, ("what", "amount", "damage_type"), at)
        what = want_str(arg, "what", at, None, tuple(PREVENT_WHAT))
        if what is None:
            at.fail("needs `what` (damage, tags, trash, end_run)")
        amount = arg.get("amount", "all")
        return cls(
            what,
            None if amount == "all" else parse_quantity(amount, at.key(arg, "amount")),
            want_str(arg, "damage_type", at, None, ("net", "meat", "core")),
        )

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.damage import change_imminent

        n = None if self.amount is None else self.amount.value(g, ctx)
        if self.increase:
            return change_imminent(g, self.what, n or 0, self.kind)
        return change_imminent(g, self.what, None if n is None else -n, self.kind)

    def render(self) -> str:
        from judgebook.engine.language.statics import PREVENT_WHAT

        n = "all" if self.amount is None else self.amount.render()
        kind = f"{self.kind} " if self.kind else ""  # "prevent 1 net damage"
        return f"{'increase' if self.increase else 'prevent'} {counted(n, kind + PREVENT_WHAT[self.what])}"


@instruction("increase")
@dataclass(frozen=True, eq=False)
class Increase(ChangeImminent):
    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Increase:
        base = ChangeImminent.parse(arg, at, mods, whole)
        if base.amount is None:
            at.fail("increase needs an amount")
        return cls(base.what, base.amount, base.kind, True)


@instruction("give_tags")
@dataclass(frozen=True, eq=False)
class GiveTags(Instruction):
    amount: Quantity
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> GiveTags:
        return cls(parse_quantity(arg, at))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.costs import cannot

        return cannot(g, "take_tags", "runner") is None

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.damage import Part, imminent

        n = self.amount.value(g, ctx)
        return imminent(g, (Part("tags", n, by=ctx.controller),), ctx.source) if n > 0 else g

    def parts(self, g: Game, ctx: Ctx) -> tuple[Any, ...]:
        from judgebook.engine.rules.damage import Part

        return (Part("tags", self.amount.value(g, ctx), by=ctx.controller),)

    def render(self) -> str:
        return f"give the Runner {counted(self.amount.render(), 'tag')}"


@instruction("all")
@dataclass(frozen=True, eq=False)
class AllAtOnce(Instruction):
    """Several imminent instructions as one: one interrupt window for all their parts (Snare!)."""

    parts_of: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> AllAtOnce:
        instrs = parse_instructions(arg, at)
        for i, ins in enumerate(instrs):
            if ins.name not in ("give_tags", "damage", "end_the_run"):
                at.key(arg, i).fail("`all` joins imminent instructions: give_tags, damage, end_the_run")
        return cls(instrs)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.damage import imminent

        parts = tuple(p for ins in self.parts_of for p in ins.parts(g, ctx))  # type: ignore[attr-defined]
        return imminent(g, parts, ctx.source)

    def render(self) -> str:
        return " and ".join(i.render() for i in self.parts_of)


# --- installing, playing, running ------------------------------------------------------------


@instruction("install", "pay_cost", "server", "position", "rezzed", "discount", "then", "surcharge")
@dataclass(frozen=True, eq=False)
class Install(Instruction):
    """Install cards (ignoring the install cost unless `pay_cost`, lowered by `discount`); Corp cards in
    `server` (new | this | a name, or remote | central | any: the Corp chooses), ice `position` (`outermost`,
    the default, or `inward_of_self`: rules/positions.py);
    `rezzed: true` installs and rezzes it;
    `then` acts on each installed card as `chosen` ("place 2 advancement counters on that card")."""

    selector: Selector
    pay_cost: bool = False
    server: str | None = None
    position: str | None = None
    rez: bool = False
    discount: Quantity | None = None
    then: tuple[Instruction, ...] = ()
    surcharge: Quantity | None = None  # "paying 1[c] more" (Masterwork)
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Install:
        discount = parse_quantity(mods["discount"], whole.key(mods, "discount")) if "discount" in mods else None
        if discount is not None and not want_bool(mods, "pay_cost", whole):
            whole.key(mods, "discount").fail("a discount lowers a cost that is paid: add `pay_cost: true`")
        surcharge = parse_quantity(mods["surcharge"], whole.key(mods, "surcharge")) if "surcharge" in mods else None
        if surcharge is not None and not want_bool(mods, "pay_cost", whole):
            whole.key(mods, "surcharge").fail("a surcharge raises a cost that is paid: add `pay_cost: true`")
        return cls(
            parse_selector(arg, at),
            want_bool(mods, "pay_cost", whole),
            want_str(mods, "server", whole),
            want_str(mods, "position", whole, None, ("inward_of_self", "outermost")),
            want_bool(mods, "rezzed", whole),
            discount,
            parse_instructions(mods.get("then"), whole.key(mods, "then")),
            surcharge,
        )

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.procedures import SERVER_CHOICES, after_install, install_by_instruction
        from judgebook.engine.state.queries import is_installed

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        if self.server in SERVER_CHOICES:
            # Each card waits for the Corp's choice of server (and does its `then` once installed).
            for cid in reversed(targets):
                g = install_by_instruction(g, ctx, cid, self)
            return g
        seq0 = g.seq
        installed = []
        for cid in targets:
            g = install_by_instruction(g, ctx, cid, self)
            if is_installed(g, cid):
                installed.append(cid)
        return after_install(g, ctx, self, installed, seq0)

    def render(self) -> str:
        how = "" if self.pay_cost else ", ignoring all costs"
        if self.discount is not None:
            how += f", paying {self.discount.render()}[c] less"
        rez = " and rez it" if self.rez else ""
        then = f"; then, on that card: {render_all(self.then)}" if self.then else ""
        return f"install {self.selector.render()}{rez}{how}{then}"


@instruction("play", "pay_cost", "remove_after")
@dataclass(frozen=True, eq=False)
class Play(Instruction):
    """Play cards (`pay_cost`: paying their costs). `remove_after`: "after it resolves, remove it from the game":
    not trashed as it finishes resolving but removed from the game (rule_rfg_move; no `trashed` event)."""

    selector: Selector
    pay_cost: bool = False
    remove_after: bool = False
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Play:
        return cls(parse_selector(arg, at), want_bool(mods, "pay_cost", whole), want_bool(mods, "remove_after", whole))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.additional_costs import play_and_remove
        from judgebook.engine.rules.turn import play

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        for cid in reversed(targets):
            if self.remove_after:
                g = play_and_remove(g, ctx.controller, cid, self.pay_cost)
            else:
                g = play(g, ctx.controller, cid, pay=self.pay_cost)
        return g

    def render(self) -> str:
        after = "; after it resolves, remove it from the game" if self.remove_after else ""
        return f"play {self.selector.render()}{after}"


@instruction("run", "instead_of_breach")
@dataclass(frozen=True, eq=False)
class MakeRun(Instruction):
    server: str  # a server name, any, central, remote, protected (by ice), mark, or among (a list: "HQ or R&D")
    among: tuple[str, ...] = ()
    instead: tuple[Instruction, ...] = ()  # "If successful, instead of breaching the server, ..."
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> MakeRun:
        instead = parse_instructions(mods.get("instead_of_breach"), whole.key(mods, "instead_of_breach"))
        if "instead_of_breach" in mods and not instead:
            whole.key(mods, "instead_of_breach").fail("instead_of_breach lists what replaces the breach")
        if isinstance(arg, list) and len(arg) >= 2 and all(isinstance(a, str) for a in arg):
            return cls("among", tuple(arg), instead)
        if not isinstance(arg, str):
            at.fail("run names a server, `any`, `central`, `remote`, `protected`, `mark` or a list of servers")
        return cls(arg, (), instead)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.procedures import run_instruction

        return run_instruction(g, ctx, self.server, self.among, (self.instead, ctx) if self.instead else None)

    def render(self) -> str:
        names = {
            "any": "any server",
            "mark": "your mark",
            "central": "a central server",
            "remote": "a remote server",
            "protected": "a server protected by ice",
        }
        text = f"run {' or '.join(self.among) if self.among else names.get(self.server, self.server)}"
        return text + (f"; if successful, instead of breaching: {render_all(self.instead)}" if self.instead else "")


@instruction("instead_of_breaching")
@dataclass(frozen=True, eq=False)
class InsteadOfBreaching(Instruction):
    """ "If successful, instead of breaching the server, ...": at this run's breach step the instructions
    resolve and there is no breach (a replacement, rule_if_successful_lingering_effect)."""

    instrs: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> InsteadOfBreaching:
        instrs = parse_instructions(arg, at)
        if not instrs:
            at.fail("instead_of_breaching lists the instructions that replace the breach")
        return cls(instrs)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.run import replace_breach

        return replace_breach(g, ctx, self.instrs)

    def render(self) -> str:
        return f"instead of breaching the server, {render_all(self.instrs)}"


@instruction("identify_mark")
@dataclass(frozen=True, eq=False)
class IdentifyMark(Instruction):
    """ "Identify your mark": if no server is the mark, a random central server becomes it for the turn
    (rule_mark_identification); otherwise nothing (rule_mark_already_identified). The random result is a
    decision `{target: SERVER}` a scenario may state."""

    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> IdentifyMark:
        if arg not in (None, True):
            at.fail("identify_mark takes no value")
        return cls()

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.procedures import identify_mark

        return identify_mark(g, ctx)

    def render(self) -> str:
        return "identify your mark"


@instruction("access")
@dataclass(frozen=True, eq=False)
class MoreAccess(Instruction):
    """Access N additional cards when breaching R&D or HQ this run."""

    amount: Quantity
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> MoreAccess:
        return cls(parse_quantity(arg, at))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.procedures import access_bonus

        return access_bonus(g, self.amount.value(g, ctx))

    def render(self) -> str:
        return f"access {counted(self.amount.render(), 'additional card')}"


@instruction("breach")
@dataclass(frozen=True, eq=False)
class BreachNow(Instruction):
    server: str
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> BreachNow:
        if not isinstance(arg, str):
            at.fail("breach names a server")
        return cls(arg)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.access import Breach
        from judgebook.engine.rules.frames import current_run, push

        run = current_run(g)
        return push(g, Breach(self.server, run.seq if run else 0))

    def render(self) -> str:
        return f"the Runner breaches {self.server}"


@instruction("encounter")
@dataclass(frozen=True, eq=False)
class ForcedEncounter(Instruction):
    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ForcedEncounter:
        return cls(parse_selector(arg, at, default_count=None))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.procedures import forced_encounter

        cards = self.selector.candidates(g, ctx)
        return forced_encounter(g, cards[0]) if cards else g

    def render(self) -> str:
        return f"the Runner encounters {self.selector.render()}"


@instruction("add_to_score")
@dataclass(frozen=True, eq=False)
class AddToScore(Instruction):
    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> AddToScore:
        return cls(parse_selector(arg, at, default_count=None))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.effects import move
        from judgebook.engine.rules.frames import log

        side = self.who(ctx)
        for cid in self.selector.candidates(g, ctx):
            g = move(g, cid, f"{side}.score")
            g = log(
                g,
                "add_to_score",
                f"{cid} is added to the {side}'s score area",
                "rule_add_agenda_to_score_area",
                side,
                card=cid,
            )
        return g

    def render(self) -> str:
        return f"add {self.selector.render()} to a score area"


@instruction("score")
@dataclass(frozen=True, eq=False)
class ScoreAgenda(Instruction):
    """Score an installed agenda "if able": only with enough advancement counters and nothing forbidding it
    (rule_advancement_requirement); outside a paid ability window, by the instruction itself."""

    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ScoreAgenda:
        return cls(parse_selector(arg, at, default_count=None))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.procedures import score_refusal

        return any(score_refusal(g, cid) is None for cid in self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.procedures import score_by_instruction

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        for cid in targets:
            g = score_by_instruction(g, ctx, cid)
        return g

    def render(self) -> str:
        return f"score {self.selector.render()}"


@instruction("trace")
@dataclass(frozen=True, eq=False)
class Trace(Instruction):
    base: Quantity
    success: tuple[Instruction, ...]
    failure: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Trace:
        check_keys(arg, ("base", "success", "failure"), at)
        if "base" not in arg:
            at.fail("trace needs `base` (the base trace strength)")
        return cls(
            parse_quantity(arg["base"], at.key(arg, "base")),
            parse_instructions(arg.get("success"), at.key(arg, "success")),
            parse_instructions(arg.get("failure"), at.key(arg, "failure")),
        )

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.procedures import start_trace

        return start_trace(g, ctx, self)

    def render(self) -> str:
        text = f"trace[{self.base.render()}]"
        if self.success:
            text += f". If successful, {render_all(self.success)}"
        if self.failure:
            text += f". If unsuccessful, {render_all(self.failure)}"
        return text


@instruction("psi_game")
@dataclass(frozen=True, eq=False)
class PsiGame(Instruction):
    """"Play a Psi Game": each player secretly bids 0, 1 or 2[c]; both bids are revealed and spent; then
    `match` or `differ` resolves (rule_psi_game)."""

    match: tuple[Instruction, ...]
    differ: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> PsiGame:
        arg = {} if arg in (None, True) else arg
        check_keys(arg, ("match", "differ"), at)
        return cls(parse_instructions(arg.get("match"), at.key(arg, "match")),
                   parse_instructions(arg.get("differ"), at.key(arg, "differ")))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.procedures import PsiFrame

        return PsiFrame.start(g, ctx, self.match, self.differ)

    def render(self) -> str:
        text = "play a Psi Game"
        if self.match:
            text += f". If the bids match, {render_all(self.match)}"
        if self.differ:
            text += f". If the bids differ, {render_all(self.differ)}"
        return text


@instruction("resolve_subroutine")
@dataclass(frozen=True, eq=False)
class ResolveSubroutine(Instruction):
    """{resolve_subroutine: {ice: <selector>, subroutine: N}}: resolve a subroutine of another ice, as that
    ice's subroutine (its controller, its card)."""

    selector: Selector
    subroutine: int = 1
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ResolveSubroutine:
        from judgebook.engine.language.nodes import want_int

        check_keys(arg, ("ice", "subroutine"), at)
        if "ice" not in arg:
            at.fail("resolve_subroutine needs `ice` (a selector)")
        n = want_int(arg, "subroutine", at, 1) or 1
        if n < 1:
            at.key(arg, "subroutine").fail("subroutines are numbered from 1")
        return cls(parse_selector(arg["ice"], at.key(arg, "ice")), n)

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.frames import log, push
        from judgebook.engine.rules.resolve import Resolve
        from judgebook.engine.rules.values import subroutines

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        for ice in targets:
            subs = subroutines(g, ice)
            if len(subs) < self.subroutine:
                g = log(g, "no_subroutine", f"{ice} has no subroutine {self.subroutine}", "rule_instruction_target")
                continue
            g = log(
                g,
                "subroutine",
                f"{ice} subroutine {self.subroutine} resolves: {subs[self.subroutine - 1].text}",
                "step_subroutine_resolution",
                g.cards[ice].owner,
                card=ice,
                ability=f"sub{self.subroutine}",
            )
            g = push(
                g,
                Resolve(
                    subs[self.subroutine - 1].effects,
                    Ctx(ice, g.cards[ice].owner, f"sub{self.subroutine}"),
                    "step_subroutine_resolution",
                ),
            )
        return g

    def render(self) -> str:
        return f"resolve subroutine {self.subroutine} of {self.selector.render()}"


