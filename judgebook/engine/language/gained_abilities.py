"""Cards gaining or losing abilities and subtypes, and abilities given to other cards.

Constructs of the card language added for the Standard pool (round 3, family `abilities`); each registers
itself in its kind's registry when `instructions.py` imports this module.

{lose_abilities: {target: <selector>, except: printed_subroutines, cannot_gain: true}} |
{gain_subtypes: {subtypes: [barrier, sentry], target: <selector>}} |
{gain_ability: {ability: <ability>, target: <selector>}}                                   (static effects)
{choose_subtypes: {among: [barrier, code gate, sentry] | ice, count: 1 | one_or_more, target: <selector>,
                   duration: encounter | while, while: <condition>}}                          (an instruction)

What a card's abilities and subtypes are once these apply is worked out in `rules/gained_abilities.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from judgebook.engine.language.conditions import CONDITIONS, Condition, parse_condition
from judgebook.engine.language.context import Ctx
from judgebook.engine.language.instructions import Instruction, Mods, instruction
from judgebook.engine.language.nodes import At, check_keys, want_bool, want_str
from judgebook.engine.language.selectors import FILTERS, Filter, Ref, Selector, parse_selector, resolve_ref
from judgebook.engine.language.statics import STATICS, Static
from judgebook.engine.state.model import Game


def _target(arg: dict[str, Any], at: At) -> Selector:
    if "target" not in arg:
        at.fail("name the cards it changes: `target` (a selector)")
    return parse_selector(arg["target"], at.key(arg, "target"), None)


def _phrase(words: tuple[str, ...]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@STATICS.register("lose_abilities")
@dataclass(frozen=True, eq=False)
class LoseAbilities(Static):
    """"That resource loses all abilities", "each player's identity loses all abilities": the cards the
    selector finds have none of their abilities, printed or gained, while this applies (a
    lingering effect inside `lasting` or a static ability). `except: printed_subroutines` keeps the printed
    subroutines of an ice; `cannot_gain: true` is "cannot gain abilities" too (the card gains no subroutine
    or ability from any effect). A card's statistics and subtypes are not abilities: they stay."""

    target: Selector
    keep_subroutines: bool = False
    cannot_gain: bool = False

    @classmethod
    def parse(cls, arg: Any, at: At) -> LoseAbilities:
        check_keys(arg, ("target", "except", "cannot_gain"), at)
        keep = want_str(arg, "except", at, None, ("printed_subroutines",))
        return cls(_target(arg, at), keep is not None, want_bool(arg, "cannot_gain", at))

    def cards(self, g: Game, ctx: Ctx) -> list[str]:
        return list(self.target.candidates(g, ctx))

    def render(self) -> str:
        gain = f"{self.target.render()} cannot gain abilities and " if self.cannot_gain else f"{self.target.render()} "
        keep = " except its printed subroutines" if self.keep_subroutines else ""
        return f"{gain}loses all abilities{keep}"


@STATICS.register("gain_subtypes")
@dataclass(frozen=True, eq=False)
class GainSubtypes(Static):
    """"Host ice gains barrier, code gate, and sentry": the cards the selector finds have these subtypes as
    well as their own while this applies (a static ability, or a lingering effect inside `lasting`)."""

    subtypes: tuple[str, ...]
    target: Selector

    @classmethod
    def parse(cls, arg: Any, at: At) -> GainSubtypes:
        check_keys(arg, ("subtypes", "target"), at)
        vals = arg.get("subtypes")
        vals = [vals] if isinstance(vals, str) else vals
        if not vals or not isinstance(vals, list) or not all(isinstance(v, str) for v in vals):
            at.fail("gain_subtypes needs `subtypes`: a subtype or a list of them")
        return cls(tuple(vals), _target(arg, at))

    def cards(self, g: Game, ctx: Ctx) -> list[str]:
        return list(self.target.candidates(g, ctx))

    def render(self) -> str:
        return f"{self.target.render()} gains {_phrase(self.subtypes)}"


@FILTERS.register("other_than")
@dataclass(frozen=True, eq=False)
class OtherThan(Filter):
    """Not the card a reference names ("another installed piece of ice" than the rezzed one: `other_than:
    event_card`); `other: true` is "not this card"."""

    ref: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> OtherThan:
        if not isinstance(arg, str):
            at.fail("other_than is a card reference (event_card, chosen, host, ...)")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return cid not in resolve_ref(g, ctx, self.ref)

    def render(self) -> str:
        return f"other than {Ref(self.ref).render()}"


# The ice subtypes a player may choose from (rule_ice_subtypes; rule_choose_valid_subtype).
ICE_SUBTYPES = ("ap", "advertisement", "ambush", "barrier", "bioroid", "code gate", "deep net", "deflector",
                "destroyer", "expendable", "grail", "harmonic", "liability", "morph", "mythic", "next", "observer",
                "psi", "sentry", "tracer", "trap")
CHOOSE_DURATIONS = {"encounter": "for the remainder of this encounter", "while": "while"}


@instruction("choose_subtypes")
@dataclass(frozen=True, eq=False)
class ChooseSubtypes(Instruction):
    """"Choose an ice subtype. The ice you are encountering gains that subtype for the remainder of this
    encounter" (`among: ice`, every ice subtype), "choose 1 or more subtypes among barrier, code gate, and sentry.
    This ice gains the chosen subtypes while it remains rezzed" (`count: one_or_more`, `duration: while`,
    `while: {rezzed: true}`). The controller chooses (decision `{choose: N}`: the Nth of the options, which are
    the subtypes in the listed order, or with `one_or_more` every non-empty combination, the single ones
    first); the target gains them as a lingering effect (`gain_subtypes`) for the duration."""

    among: tuple[str, ...]
    one_or_more: bool
    target: Selector
    duration: str
    condition: Condition | None
    every_ice_subtype: bool = False
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseSubtypes:
        check_keys(arg, ("among", "count", "target", "duration", "while"), at)
        among = arg.get("among")
        every = among == "ice"
        vals = ICE_SUBTYPES if every else among
        if not isinstance(vals, list | tuple) or not vals or not all(isinstance(v, str) for v in vals):
            at.fail("choose_subtypes needs `among`: a list of subtypes, or `ice` (every ice subtype)")
        count = arg.get("count", 1)
        if count not in (1, "one_or_more"):
            at.key(arg, "count").fail("count is 1 or one_or_more")
        duration = want_str(arg, "duration", at, None, tuple(CHOOSE_DURATIONS))
        if duration is None:
            at.fail(f"choose_subtypes needs `duration`: {', '.join(CHOOSE_DURATIONS)}")
        cond = parse_condition(arg["while"], at.key(arg, "while")) if "while" in arg else None
        if (duration == "while") != (cond is not None):
            at.fail("`duration: while` goes with a `while:` condition, and only with it")
        return cls(tuple(vals), count == "one_or_more", _target(arg, at), duration, cond, every)

    def options(self) -> list[tuple[str, ...]]:
        if not self.one_or_more:
            return [(s,) for s in self.among]
        return [c for n in range(1, len(self.among) + 1) for c in combinations(self.among, n)]

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.frames import push
        from judgebook.engine.rules.gained_abilities import ChooseSubtypesFrame

        return push(g, ChooseSubtypesFrame(ctx, self))

    def render(self) -> str:
        what = "an ice subtype" if self.every_ice_subtype else (
            ("1 or more subtypes among " if self.one_or_more else "1 subtype among ") + _phrase(self.among))
        span = CHOOSE_DURATIONS[self.duration]
        if self.condition is not None:
            span = f"{span} {self.condition.render()}"
        return f"choose {what}; {self.target.render()} gains the chosen subtypes {span}"


@instruction("resolve_chosen_subroutine")
@dataclass(frozen=True, eq=False)
class ResolveChosenSubroutine(Instruction):
    """"Resolve 1 subroutine on that ice": the controller chooses which of the ice's subroutines (decision
    `{choose: N}`, the Nth subroutine) and it resolves as that ice's subroutine (as `resolve_subroutine`)."""

    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ResolveChosenSubroutine:
        return cls(parse_selector(arg, at))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.values import subroutines

        return any(subroutines(g, c) for c in self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.frames import log, push
        from judgebook.engine.rules.gained_abilities import ChooseSubroutineFrame

        ices = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        if not ices:
            return log(g, "no_target", f"{self.render()}: no ice", "rule_instruction_target", ctx.controller)
        return push(g, ChooseSubroutineFrame(ctx, ices[0]))

    def render(self) -> str:
        return f"resolve 1 subroutine on {self.selector.render()}"


@STATICS.register("gain_ability")
@dataclass(frozen=True, eq=False)
class GainAbility(Static):
    """"Each piece of ice protecting this server gains 'When the Runner encounters this ice, ...'": the cards the
    selector finds have this ability as well as their own while this applies; in it, `self` is the card that
    gained it, whose controller uses it. Its `id` names it on those cards (a pending instance, a decision)."""

    ability: Any  # cards.Ability (parsed late: cards imports the instructions that import this module)
    target: Selector

    @classmethod
    def parse(cls, arg: Any, at: At) -> GainAbility:
        from judgebook.engine.language.cards import parse_ability

        check_keys(arg, ("ability", "target"), at)
        if not isinstance(arg.get("ability"), dict) or "id" not in arg["ability"]:
            at.fail("gain_ability needs `ability`: an ability with its `id`")
        return cls(parse_ability(arg["ability"], at.key(arg, "ability"), 0, "gained"), _target(arg, at))

    def cards(self, g: Game, ctx: Ctx) -> list[str]:
        return list(self.target.candidates(g, ctx))

    def render(self) -> str:
        from judgebook.engine.language.render import render_ability

        return f'{self.target.render()} gains "{render_ability(self.ability)}"'


@CONDITIONS.register("last_encounter")
@dataclass(frozen=True, eq=False)
class LastEncounter(Condition):
    """"If the Runner passes this ice after encountering it, if they did not break its printed subroutine with a
    decoder during that encounter": the ice's latest approach in this run led to an encounter; with `broken_by`,
    during that encounter a breaker of that subtype broke one of its printed subroutines (numbered after any
    subroutines the ice gained before its printed ones: none of the pool's cards give those to such ice)."""

    ice: str
    broken_by: str | None = None

    @classmethod
    def parse(cls, arg: Any, at: At) -> LastEncounter:
        check_keys(arg, ("ice", "broken_by"), at)
        ice = want_str(arg, "ice", at, "self")
        return cls(ice or "self", want_str(arg, "broken_by", at))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.frames import current_run
        from judgebook.engine.rules.gained_abilities import subtypes
        from judgebook.engine.state import queries as q

        found = resolve_ref(g, ctx, self.ice)
        run = current_run(g)
        if not found or run is None:
            return False
        ice = found[0]
        facts = [f.event for f in g.history if f.run == run.seq and f.event.get("ice") == ice]
        approaches = [i for i, e in enumerate(facts) if e.name == "approach_ice"]
        since = facts[approaches[-1]:] if approaches else facts
        encounter = next((e for e in since if e.name == "encounter_ice"), None)
        if encounter is None:
            return False
        if self.broken_by is None:
            return True
        printed = len(q.definition(g, ice).subroutines)
        return any(e.name == "subroutine_broken" and e.get("encounter_seq") == encounter.get("encounter_seq")
                   and int(e.get("subroutine") or 0) <= printed and e.get("breaker") in g.cards
                   and self.broken_by in subtypes(g, e.get("breaker")) for e in since)

    def render(self) -> str:
        ice = Ref(self.ice).render()
        if self.broken_by is None:
            return f"the Runner encountered {ice} as they last approached it"
        return f"a {self.broken_by} broke a printed subroutine of {ice} during its last encounter"


@STATICS.register("replace_subroutines")
@dataclass(frozen=True, eq=False)
class ReplaceSubroutines(Static):
    """"During the first encounter each turn with a piece of ice protecting the chosen server, whenever the Corp
    would resolve a subroutine, instead they resolve '[subroutine] Do 1 net damage.'": during that encounter each
    subroutine the encounter resolves is replaced by `subroutine`. Made by the instruction `replace_subroutines`
    once the server is chosen; written here with the server's name."""

    server: str
    subroutine: tuple[Instruction, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> ReplaceSubroutines:
        from judgebook.engine.language.instructions import parse_instructions

        check_keys(arg, ("server", "subroutine"), at)
        server = want_str(arg, "server", at)
        if server is None or "subroutine" not in arg:
            at.fail("replace_subroutines needs `server` (a server's name) and `subroutine` (its instructions)")
        return cls(server, parse_instructions(arg["subroutine"], at.key(arg, "subroutine")))

    def render(self) -> str:
        from judgebook.engine.language.instructions import render_all

        return (f"during the first encounter each turn with a piece of ice protecting {self.server}, whenever the Corp "
                f'would resolve a subroutine, instead they resolve "[subroutine] {render_all(self.subroutine)}"')


@instruction("replace_subroutines")
@dataclass(frozen=True, eq=False)
class ChooseServerReplaceSubroutines(Instruction):
    """"You may choose a server. During the first encounter each turn with a piece of ice protecting the chosen
    server, whenever the Corp would resolve a subroutine, instead they resolve '[subroutine] ...'": the controller
    chooses a server (decision `{target: SERVER}`); the choice is maintained while this card stays installed, and
    a new choice replaces it (rule_lingering_effect_maintaining_choice_duration_other_cases)."""

    subroutine: tuple[Instruction, ...]
    condition: Condition
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> ChooseServerReplaceSubroutines:
        from judgebook.engine.language.instructions import parse_instructions

        check_keys(arg, ("subroutine",), at)
        if "subroutine" not in arg:
            at.fail("replace_subroutines needs `subroutine` (the instructions resolved instead)")
        installed = parse_condition({"exists": {"zone": "installed", "is": "self"}}, at)
        return cls(parse_instructions(arg["subroutine"], at.key(arg, "subroutine")), installed)

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.frames import push
        from judgebook.engine.rules.gained_abilities import ChooseServerFrame

        return push(g, ChooseServerFrame(ctx, self))

    def render(self) -> str:
        from judgebook.engine.language.instructions import render_all

        return ("choose a server; during the first encounter each turn with a piece of ice protecting the chosen "
                f'server, whenever the Corp would resolve a subroutine, instead they resolve "[subroutine] '
                f'{render_all(self.subroutine)}"')


@STATICS.register("strength_lasts_for_run")
@dataclass(frozen=True, eq=False)
class StrengthLastsForRun(Static):
    """"Abilities that increase its strength last for the remainder of the run (instead of any shorter
    duration)": an icebreaker's strength increase from an ability (`strength: N` on it), which would last for
    the encounter, lasts for the run."""

    target: Selector

    @classmethod
    def parse(cls, arg: Any, at: At) -> StrengthLastsForRun:
        check_keys(arg, ("target",), at)
        return cls(_target(arg, at))

    def cards(self, g: Game, ctx: Ctx) -> list[str]:
        return list(self.target.candidates(g, ctx))

    def render(self) -> str:
        return (f"abilities that increase the strength of {self.target.render()} last for the remainder of the run "
                "instead of any shorter duration")


@instruction("prevent_encounter_ability")
@dataclass(frozen=True, eq=False)
class PreventEncounterAbility(Instruction):
    """"Prevent a 'when encountered' ability on a piece of ice": an [interrupt] paid ability with this instruction
    is offered to the Runner as a conditional ability of a piece of ice triggered by its encounter is about to
    resolve (a use restriction `preventing_encounter_ability` keeps it to that moment); using it, that instance
    does not resolve. The prevention itself is done as the ability is used (rules/gained_abilities.py)."""

    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> PreventEncounterAbility:
        if arg not in (None, True):
            at.fail("prevent_encounter_ability takes no value")
        return cls()

    def run(self, g: Game, ctx: Ctx) -> Game:
        return g  # the instance was set aside as the ability was used

    def render(self) -> str:
        return 'prevent a "when encountered" ability on a piece of ice'


@CONDITIONS.register("preventing_encounter_ability")
@dataclass(frozen=True, eq=False)
class PreventingEncounterAbility(Condition):
    """A "when encountered" ability of a piece of ice is about to resolve: the moment a prevention of it is used."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> PreventingEncounterAbility:
        if arg not in (None, True):
            at.fail("write `preventing_encounter_ability` (no value)")
        return cls()

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.gained_abilities import PreventionWindow

        return bool(g.stack) and isinstance(g.stack[-1], PreventionWindow)

    def render(self) -> str:
        return 'a "when encountered" ability on a piece of ice is about to resolve'
