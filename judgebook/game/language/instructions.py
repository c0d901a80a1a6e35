"""Instructions: what an ability does, one at a time, with a checkpoint after each.

Each instruction is one class: its `parse`, its `run` (a pure function of the
state, which may push frames for decisions and interrupt windows) and its
`render`. Modifiers allowed beside any instruction: `if_able` (carried out fully
or not at all: rule_if_able), `player` (whose pool or hand it acts on), `note`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from judgebook.game.language.conditions import Condition, parse_condition
from judgebook.game.language.context import PLAYER_WORDS, Ctx, player_phrase
from judgebook.game.language.costs import Cost, parse_cost
from judgebook.game.language.nodes import At, check_keys, want_bool, want_str
from judgebook.game.language.quantities import Quantity, parse_quantity
from judgebook.game.language.registry import Registry
from judgebook.game.language.selectors import Selector, parse_selector
from judgebook.game.language.statics import Static, parse_static
from judgebook.game.state.model import Game

MODIFIERS = ("if_able", "player", "note", "then", "otherwise", "by", "optional", "duration")


@dataclass(frozen=True)
class Mods:
    if_able: bool = False
    player: str | None = None            # you | opponent | corp | runner (default: you)
    note: str = ""


class Instruction:
    name = ""
    mods: Mods
    selector: Selector | None = None     # the cards it needs chosen when it resolves, if any

    def run(self, g: Game, ctx: Ctx) -> Game:
        raise NotImplementedError

    def possible(self, g: Game, ctx: Ctx) -> bool:
        """Whether it can be carried out in full (for `if_able` and for `choose` options)."""
        return True

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
    m = Mods(want_bool(mods, "if_able", at), want_str(mods, "player", at, None, PLAYER_WORDS),
             str(mods.get("note", "")))
    inner = at.key(node, name) if isinstance(node, dict) else at
    ins = cls.parse(arg, inner, mods, at)  # type: ignore[attr-defined]
    return replace(ins, mods=m)  # type: ignore[no-any-return]


def instruction(name: str, *extra: str) -> Any:
    def add(cls: type) -> type:
        EXTRA[name] = extra
        return INSTRUCTIONS.register(name)(cls)
    return add


# --- players' pools -------------------------------------------------------------------------

def _amount_instruction(name: str, verb: str, noun: str) -> None:
    @dataclass(frozen=True)
    class Amount(Instruction):
        amount: Quantity
        mods: Mods = field(default_factory=Mods)

        @classmethod
        def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Amount:
            if name == "lose_credits" and arg == "all":
                from judgebook.game.language.quantities import QUANTITIES
                return cls(QUANTITIES.by_name["credits"]("you"))
            return cls(parse_quantity(arg, at))

        def possible(self, g: Game, ctx: Ctx) -> bool:
            from judgebook.game.rules import effects
            return effects.amount_possible(g, name, self.who(ctx), self.amount.value(g, ctx))

        def run(self, g: Game, ctx: Ctx) -> Game:
            from judgebook.game.rules import effects
            return effects.apply_amount(g, ctx, name, self.who(ctx), self.amount.value(g, ctx))

        def render(self) -> str:
            who = f"{player_phrase(self.mods.player)} " if self.mods.player else ""
            return f"{who}{verb} {self.amount.render()} {noun}".strip()

    Amount.__name__ = Amount.__qualname__ = f"Amount_{name}"
    instruction(name)(Amount)


for _name, _verb, _noun in (("gain_credits", "gain", "[c]"), ("lose_credits", "lose", "[c]"),
                            ("gain_clicks", "gain", "[click]"), ("lose_clicks", "lose", "[click]"),
                            ("draw", "draw", "cards"), ("give_tags", "take", "tags"),
                            ("remove_tags", "remove", "tags"), ("bad_publicity", "take", "bad publicity")):
    _amount_instruction(_name, _verb, _noun)


# --- the run -----------------------------------------------------------------------------------

def _run_instruction(name: str, words: str) -> None:
    @dataclass(frozen=True)
    class RunInstr(Instruction):
        mods: Mods = field(default_factory=Mods)

        @classmethod
        def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> RunInstr:
            if arg not in (None, True):
                at.fail(f"{name} takes no value")
            return cls()

        def possible(self, g: Game, ctx: Ctx) -> bool:
            from judgebook.game.rules.frames import current_encounter, current_run
            return (current_encounter(g) if name == "bypass" else current_run(g)) is not None

        def run(self, g: Game, ctx: Ctx) -> Game:
            from judgebook.game.rules import run as runs
            return runs.instruction(g, ctx, name)

        def render(self) -> str:
            return words

    RunInstr.__name__ = RunInstr.__qualname__ = f"Run_{name}"
    instruction(name)(RunInstr)


for _name, _words in (("end_the_run", "end the run"), ("bypass", "bypass the encountered ice"),
                      ("jack_out", "jack out")):
    _run_instruction(_name, _words)


# --- cards --------------------------------------------------------------------------------------

def _card_instruction(name: str, verb: str) -> None:
    @dataclass(frozen=True)
    class CardInstr(Instruction):
        selector: Selector
        mods: Mods = field(default_factory=Mods)

        @classmethod
        def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> CardInstr:
            return cls(parse_selector(arg, at))

        def possible(self, g: Game, ctx: Ctx) -> bool:
            return bool(self.selector.candidates(g, ctx))

        def run(self, g: Game, ctx: Ctx) -> Game:
            from judgebook.game.rules import effects
            targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
            return effects.apply_to_cards(g, ctx, name, targets)

        def render(self) -> str:
            return f"{verb} {self.selector.render()}"

    CardInstr.__name__ = CardInstr.__qualname__ = f"Card_{name}"
    instruction(name)(CardInstr)


for _name, _verb in (("trash", "trash"), ("rez", "rez"), ("derez", "derez"), ("expose", "expose"),
                     ("reveal", "reveal"), ("look_at", "look at"), ("add_to_hand", "add to its owner's hand"),
                     ("shuffle_into_deck", "shuffle into its owner's deck"), ("add_to_top_of_deck",
                     "add to the top of its owner's deck"), ("add_to_bottom_of_deck",
                     "add to the bottom of its owner's deck")):
    _card_instruction(_name, _verb)


@instruction("counters")
@dataclass(frozen=True)
class PlaceCounters(Instruction):
    """{counters: {add: 2, kind: virus, on: self}} / {counters: {remove: 1, kind: power, on: target}}"""
    kind: str
    amount: Quantity
    remove: bool
    on: Selector
    mods: Mods = field(default_factory=Mods)

    @property
    def selector(self) -> Selector:  # type: ignore[override]
        return self.on

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> PlaceCounters:
        check_keys(arg, ("add", "remove", "kind", "on"), at)
        if ("add" in arg) == ("remove" in arg):
            at.fail("counters needs `add: N` or `remove: N`")
        kind = want_str(arg, "kind", at)
        if kind is None:
            at.fail("counters needs `kind`")
        key = "add" if "add" in arg else "remove"
        return cls(kind, parse_quantity(arg[key], at.key(arg, key)), key == "remove",
                   parse_selector(arg.get("on", "self"), at.key(arg, "on")))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        if not self.remove:
            return True
        n = self.amount.value(g, ctx)
        return all(g.cards[c].count(self.kind) >= n for c in self.on.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules import effects
        n = self.amount.value(g, ctx)
        targets = ctx.targets if self.on.chooses else tuple(self.on.candidates(g, ctx))
        return effects.counters(g, targets, self.kind, -n if self.remove else n)

    def render(self) -> str:
        verb = "remove" if self.remove else "place"
        prep = "from" if self.remove else "on"
        return f"{verb} {self.amount.render()} {self.kind} counters {prep} {self.on.render()}"


# --- lasting effects --------------------------------------------------------------------------

DURATIONS = ("encounter", "run", "turn", "until_your_next_turn_begins", "until_end_of_your_next_turn",
             "until_opponent_next_turn_begins", "until_end_of_opponent_next_turn", "while")


@instruction("lasting", "while")
@dataclass(frozen=True)
class CreateLasting(Instruction):
    """{lasting: {hand_size: -1, player: runner}, duration: until_your_next_turn_begins}"""
    effect: Static
    duration: str
    condition: Condition | None
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> CreateLasting:
        check_keys(arg, ("static", "duration", "while"), at)
        duration = want_str(arg, "duration", at, None, DURATIONS)
        if duration is None or "static" not in arg:
            at.fail("lasting needs `static` (the effect) and `duration`")
        cond = parse_condition(arg["while"], at.key(arg, "while")) if "while" in arg else None
        if (duration == "while") != (cond is not None):
            at.fail("`duration: while` goes with a `while:` condition, and only with it")
        return cls(parse_static(arg["static"], at.key(arg, "static")), duration, cond)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules import effects
        return effects.create_lasting(g, ctx, self.effect, self.duration)

    def render(self) -> str:
        return f"{self.effect.render()} ({self.duration.replace('_', ' ')})"


@instruction("strength")
@dataclass(frozen=True)
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
        from judgebook.game.rules import encounter
        n = self.amount.value(g, ctx)
        return encounter.pump(g, ctx.source, -n if self.negative else n)

    def render(self) -> str:
        return f"{'-' if self.negative else '+'}{self.amount.render()} strength"


# --- control ----------------------------------------------------------------------------------

@instruction("pay", "by", "optional", "then", "otherwise")
@dataclass(frozen=True)
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
        return cls(parse_cost(arg, at), want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you",
                   want_bool(mods, "optional", whole),
                   parse_instructions(mods.get("then"), whole.key(mods, "then")),
                   parse_instructions(mods.get("otherwise"), whole.key(mods, "otherwise")))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules import costs
        return costs.nested(g, ctx, self)

    def render(self) -> str:
        who = "" if self.by == "you" else f"{player_phrase(self.by)} "
        text = f"{who}{'may ' if self.optional else 'must '}pay {self.cost.render()}"
        if self.mods.if_able:
            text += " if able"
        if self.then:
            text += "; if paid: " + render_all(self.then)
        if self.otherwise:
            text += "; if not: " + render_all(self.otherwise)
        return text


@instruction("if", "then", "otherwise")
@dataclass(frozen=True)
class Branch(Instruction):
    condition: Condition
    then: tuple[Instruction, ...]
    otherwise: tuple[Instruction, ...]
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Branch:
        if "then" not in mods and "otherwise" not in mods:
            whole.fail("`if` needs `then` and/or `otherwise`")
        return cls(parse_condition(arg, at), parse_instructions(mods.get("then"), whole.key(mods, "then")),
                   parse_instructions(mods.get("otherwise"), whole.key(mods, "otherwise")))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules.resolve import resolve_now
        branch = self.then if self.condition.holds(g, ctx) else self.otherwise
        return resolve_now(g, ctx, branch, "rule_checkpoint_after_instruction_resolution") if branch else g

    def render(self) -> str:
        text = f"if {self.condition.render()}, {render_all(self.then) or 'nothing'}"
        return text + (f"; otherwise {render_all(self.otherwise)}" if self.otherwise else "")


@instruction("for_each")
@dataclass(frozen=True)
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
        return cls(parse_selector(arg["cards"], at.key(arg, "cards"), None),
                   parse_instructions(arg["do"], at.key(arg, "do")))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules.resolve import resolve_now
        for cid in reversed(self.over.candidates(g, ctx)):
            g = resolve_now(g, replace(ctx, targets=(cid,), chosen=(cid,)), self.body, "rule_checkpoint_after_instruction_resolution")
        return g

    def render(self) -> str:
        return f"for each of {self.over.render()}: {render_all(self.body)}"


@instruction("choose", "by")
@dataclass(frozen=True)
class ChooseOne(Instruction):
    """"X or Y": the chooser picks an option that can be carried out (rule_mandatory_choice)."""
    options: tuple[tuple[Instruction, ...], ...]
    by: str
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseOne:
        if not isinstance(arg, list) or len(arg) < 2:
            at.fail("choose is a list of at least two options, each a list of instructions")
        return cls(tuple(parse_instructions(o, at.key(arg, i)) for i, o in enumerate(arg)),
                   want_str(mods, "by", whole, "you", PLAYER_WORDS) or "you")

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules.resolve import push_choose
        return push_choose(g, ctx, self)

    def render(self) -> str:
        return " or ".join(f"({render_all(o)})" for o in self.options)


@instruction("win")
@dataclass(frozen=True)
class Win(Instruction):
    side: str
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Win:
        if arg not in PLAYER_WORDS:
            at.fail(f"win is one of {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules import effects
        return effects.win(g, ctx.side(self.side), "card", "step_checkpoint_agenda_points")

    def render(self) -> str:
        return f"{player_phrase(self.side)} win{'s' if self.side != 'you' else ''} the game"


@instruction("shuffle")
@dataclass(frozen=True)
class Shuffle(Instruction):
    deck: str
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> Shuffle:
        if arg not in PLAYER_WORDS:
            at.fail(f"shuffle names whose deck: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules import effects
        return effects.shuffle(g, ctx.side(self.deck))

    def render(self) -> str:
        return f"shuffle {player_phrase(self.deck)}'s deck"


@instruction("damage", "by")
@dataclass(frozen=True)
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
        return cls(kind, parse_quantity(arg["amount"], at.key(arg, "amount")),
                   want_str(mods, "by", whole, None, PLAYER_WORDS))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.game.rules import damage
        return damage.deal(g, ctx, self.kind, self.amount.value(g, ctx), ctx.side(self.by or "you"))

    def render(self) -> str:
        return f"do {self.amount.render()} {self.kind} damage"


def render_all(instrs: tuple[Instruction, ...]) -> str:
    return "; ".join(i.render() for i in instrs)
