"""What a card's abilities, subroutines and subtypes are now: its printed ones as the static effects in force
change them (`lose_abilities`, `gain_subtypes`: language/gained_abilities.py).

Every place the engine reads a card's abilities (triggers, statics, paid abilities, actions) or its subtypes
(selectors, event filters, break abilities) asks here. The effects that change abilities are read from the
printed abilities and lasting effects only: an effect making a card lose its abilities does not itself depend
on another such effect (no card of the pool needs that layering).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.frames import Frame, log, path, pop
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game

if TYPE_CHECKING:
    from judgebook.engine.language.cards import Ability
    from judgebook.engine.state.choice import ChoicePoint, Option


@dataclass(frozen=True)
class Changes:
    lost: dict[str, bool] = field(default_factory=dict)  # card → keeps its printed subroutines
    no_gain: frozenset[str] = frozenset()  # cards that cannot gain abilities
    subtypes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # card → subtypes gained
    gained: dict[str, tuple[Ability, ...]] = field(default_factory=dict)  # card → abilities gained


_NONE = Changes()


class _Memo(threading.local):
    """Per thread (the web app may serve games from threads): the last game state's changes, remembered while
    the engine asks about that same (immutable) state, and whether they are being worked out."""

    last: Any = None
    found: Changes = _NONE
    busy: bool = False


_memo = _Memo()
_KINDS = ("lose_abilities", "gain_subtypes", "gain_ability")


def _library_uses(g: Game) -> bool:
    """Whether a static ability of some card of the game's library changes abilities (worked out once)."""
    lib = g.library
    known = getattr(lib, "_changes_abilities", None)
    if known is None:
        known = any(ab.static is not None and ab.static.name in _KINDS
                    for d in lib.cards.values() for ab in d.abilities)
        lib._changes_abilities = known  # type: ignore[attr-defined]
    return bool(known)


def _lasting_uses(g: Game) -> bool:
    return any(lasting.effect is not None and lasting.effect.name in _KINDS for lasting in g.lasting)


def changes(g: Game) -> Changes:
    if _memo.last is g:
        return _memo.found
    if _memo.busy or not (_library_uses(g) or _lasting_uses(g)):
        return _NONE
    _memo.busy = True
    try:
        found = _compute(g)
    finally:
        _memo.busy = False
    _memo.last, _memo.found = g, found
    return found


def _compute(g: Game) -> Changes:
    from judgebook.engine.language.gained_abilities import GainAbility, GainSubtypes, LoseAbilities
    from judgebook.engine.rules.values import statics

    lost: dict[str, bool] = {}
    no_gain: set[str] = set()
    gained: dict[str, tuple[str, ...]] = {}
    granted: dict[str, tuple[Ability, ...]] = {}
    # While this runs, `changes` answers "none": the effects are read from printed abilities.
    for effect, ctx in statics(g):
        if isinstance(effect, LoseAbilities):
            for cid in effect.cards(g, ctx):
                lost[cid] = lost.get(cid, True) and effect.keep_subroutines
                if effect.cannot_gain:
                    no_gain.add(cid)
        elif isinstance(effect, GainSubtypes):
            for cid in effect.cards(g, ctx):
                have = gained.get(cid, ())
                gained[cid] = have + tuple(s for s in effect.subtypes if s not in have)
        elif isinstance(effect, GainAbility):
            for cid in effect.cards(g, ctx):
                granted[cid] = granted.get(cid, ()) + (effect.ability,)
    # A card that lost its abilities or cannot gain any has none of the gained ones.
    granted = {c: abs_ for c, abs_ in granted.items() if c not in lost and c not in no_gain}
    if not (lost or gained or granted):
        return _NONE
    return Changes(lost, frozenset(no_gain), gained, granted)


def abilities(g: Game, cid: str) -> tuple[Ability, ...]:
    """The card's abilities now: none while it has lost all abilities."""
    ch = changes(g)
    if cid in ch.lost:
        return ()
    printed = q.definition(g, cid).abilities
    return printed + ch.gained[cid] if cid in ch.gained else printed


def find_ability(g: Game, cid: str, ability_id: str) -> Ability | None:
    """The card's ability by id: a printed one, or one it gained (even if it has since lost it: a pending
    instance still resolves)."""
    found = q.definition(g, cid).ability(ability_id)
    if found is None:
        found = next((a for a in changes(g).gained.get(cid, ()) if a.id == ability_id), None)
    if found is None:  # gained once, no longer: look through every ability-granting effect in the library
        from judgebook.engine.language.gained_abilities import GainAbility

        found = next((st.ability for d in g.library.cards.values() for a in d.abilities
                      if isinstance(st := a.static, GainAbility) and st.ability.id == ability_id), None)
    return found


def printed_subroutines_kept(g: Game, cid: str) -> bool:
    ch = changes(g)
    return cid not in ch.lost or ch.lost[cid]


def gains_abilities(g: Game, cid: str) -> bool:
    """Whether effects can give this card abilities (subroutines) now."""
    ch = changes(g)
    return cid not in ch.lost and cid not in ch.no_gain


def subtypes(g: Game, cid: str) -> tuple[str, ...]:
    """The card's subtypes now: its printed ones and those it gained."""
    printed = q.definition(g, cid).subtypes
    extra = changes(g).subtypes.get(cid, ())
    return printed + tuple(s for s in extra if s not in printed) if extra else printed


@dataclass(frozen=True)
class ChooseSubtypesFrame(Frame):
    """The controller chooses the subtypes of a `choose_subtypes` instruction (rule_choose_valid_subtype); the
    target gains them as a lingering effect (rule_add_remove_subtypes)."""

    ctx: Ctx
    instr: Any  # language.gained_abilities.ChooseSubtypes

    def step(self, g: Game) -> Game | ChoicePoint:
        from judgebook.engine.state.choice import ChoicePoint, Option, decision

        options = self.instr.options()
        return ChoicePoint(
            self.ctx.controller,
            "choose",
            self.instr.render(),
            "rule_choose_valid_subtype",
            tuple(Option(decision("choose", i + 1), ", ".join(o), "rule_choose_valid_subtype")
                  for i, o in enumerate(options)),
            default_reason="only" if len(options) == 1 else "default",
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.language.gained_abilities import GainSubtypes
        from judgebook.engine.rules.effects import create_lasting

        picked = self.instr.options()[int(option.decision.value) - 1]
        g = log(pop(g), "choose", f"the {self.ctx.controller} chooses {', '.join(picked)}",
                "rule_choose_valid_subtype", self.ctx.controller, how="chosen")
        effect = GainSubtypes(tuple(picked), self.instr.target)
        g = create_lasting(g, self.ctx, effect, self.instr.duration, None, self.instr.condition)
        cards = ", ".join(self.instr.target.candidates(g, self.ctx)) or self.instr.target.render()
        return log(g, "subtypes", f"{cards} gains {', '.join(picked)}",
                   "rule_add_remove_subtypes", self.ctx.controller, card=self.ctx.source)


@dataclass(frozen=True)
class ChooseSubroutineFrame(Frame):
    """The controller chooses 1 subroutine of `ice` to resolve (`resolve_chosen_subroutine`)."""

    ctx: Ctx
    ice: str

    def step(self, g: Game) -> Game | ChoicePoint:
        from judgebook.engine.rules.values import subroutines
        from judgebook.engine.state.choice import ChoicePoint, Option, decision

        subs = subroutines(g, self.ice)
        if not subs:
            return log(pop(g), "no_subroutine", f"{self.ice} has no subroutine", "rule_instruction_target",
                       self.ctx.controller)
        return ChoicePoint(
            self.ctx.controller,
            "choose",
            f"choose 1 subroutine on {self.ice} to resolve",
            "step_subroutine_resolution",
            tuple(Option(decision("choose", i + 1), f"subroutine {i + 1}: {s.text}", "step_subroutine_resolution")
                  for i, s in enumerate(subs)),
            default_reason="only" if len(subs) == 1 else "default",
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.language.instructions import ResolveSubroutine
        from judgebook.engine.language.selectors import Ref

        n = int(option.decision.value)
        g = log(pop(g), "choose", f"the {self.ctx.controller} chooses subroutine {n} of {self.ice}",
                "step_subroutine_resolution", self.ctx.controller, how="chosen")
        return ResolveSubroutine(Ref(self.ice), n).run(g, self.ctx)


@dataclass(frozen=True)
class ChooseServerFrame(Frame):
    """The controller chooses a server for `replace_subroutines`; the choice replaces this card's earlier one."""

    ctx: Ctx
    instr: Any  # language.gained_abilities.ChooseServerReplaceSubroutines

    def step(self, g: Game) -> Game | ChoicePoint:
        from judgebook.engine.state.choice import ChoicePoint, Option, decision

        return ChoicePoint(
            self.ctx.controller,
            "target",
            "choose a server",
            "rule_lingering_effect_maintaining_choice_duration_other_cases",
            tuple(Option(decision("target", s), s, "rule_lingering_effect_maintaining_choice_duration_other_cases")
                  for s in g.servers),
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        from dataclasses import replace

        from judgebook.engine.language.gained_abilities import ReplaceSubroutines
        from judgebook.engine.rules.effects import create_lasting
        from judgebook.engine.state.model import evolve

        value = option.decision.value
        server = str(value[0] if isinstance(value, list | tuple) else value)
        g = pop(g)
        # A new choice replaces the one this card made before.
        kept = tuple(x for x in g.lasting if not (x.source == self.ctx.source
                                                    and isinstance(x.effect, ReplaceSubroutines)))
        g = evolve(g, lasting=kept)
        g = log(g, "chosen", f"{self.ctx.source} chooses {server}",
                "rule_lingering_effect_maintaining_choice_duration_other_cases", self.ctx.controller, how="chosen")
        effect = ReplaceSubroutines(server, self.instr.subroutine)
        g = create_lasting(replace(g), self.ctx, effect, "while", None, self.instr.condition)
        return g


def replaced_subroutine(g: Game, ice: str, encounter_seq: int) -> tuple[Any, ...] | None:
    """What the encounter resolves instead of a subroutine of `ice`: a `replace_subroutines` effect for the
    server the ice protects, if this is the first encounter this turn with ice protecting that server."""
    from judgebook.engine.language.gained_abilities import ReplaceSubroutines
    from judgebook.engine.rules.values import statics

    server = q.server_of(g, ice)
    for effect, _ in statics(g):
        if not isinstance(effect, ReplaceSubroutines) or effect.server != server:
            continue
        first = next((f.event for f in g.history if f.turn == g.turn and f.event.name == "encounter_ice"
                      and f.event.get("ice") in g.cards and q.server_of(g, f.event.get("ice")) == server), None)
        if first is not None and first.get("encounter_seq") == encounter_seq:
            return tuple(effect.subroutine)
    return None


def strength_lasts_for_run(g: Game, cid: str) -> bool:
    """Whether a `strength_lasts_for_run` effect makes this card's strength increases last for the run."""
    from judgebook.engine.language.gained_abilities import StrengthLastsForRun
    from judgebook.engine.rules.values import statics

    return any(isinstance(effect, StrengthLastsForRun) and cid in effect.cards(g, ctx) for effect, ctx in statics(g))


def _preventions(g: Game) -> list[tuple[str, Ability]]:
    """The Runner's abilities that prevent a "when encountered" ability, usable now (cost payable)."""
    from judgebook.engine.language.gained_abilities import PreventEncounterAbility
    from judgebook.engine.rules import costs
    from judgebook.engine.rules.values import ability_active

    found = []
    for cid in q.installed(g, "runner") + list(g.zone("runner.identity")):
        for ab in abilities(g, cid):
            if ab.kind != "paid" or not any(isinstance(e, PreventEncounterAbility) for e in ab.effects):
                continue
            if not ability_active(g, cid, ab.active_in):
                continue
            here = Ctx(cid, "runner", ab.id)
            if ab.cost is not None and costs.refusal(g, costs.changed_cost(g, ab.cost, here), here, "runner", "use"):
                continue
            found.append((cid, ab))
    return found


def offer_prevention(g: Game, p: Any, option: Option) -> Game | None:
    """Before a conditional ability of a piece of ice triggered by its encounter resolves, the Runner may use an
    ability preventing it (once for each instance): the window for it, or None."""
    from judgebook.engine.rules.frames import push
    from judgebook.engine.state.model import Use, evolve

    if p.event.name != "encounter_ice" or p.delayed is not None or p.card not in g.cards or not q.is_ice(g, p.card):
        return None
    asked = Use(p.card, p.ability, "prevention_offered", p.serial)
    if asked in g.uses or not _preventions(g):
        return None
    g = evolve(g, uses=g.uses | {asked}, pending=g.pending + (p,))  # it waits, pending, for the Runner's choice
    return push(g, PreventionWindow(p.serial, option))


@dataclass(frozen=True)
class PreventionWindow(Frame):
    """The Runner may prevent the "when encountered" ability `serial` that is about to resolve."""

    serial: int
    option: Any  # the reaction window's option resolving it

    def step(self, g: Game) -> Game | ChoicePoint:
        from judgebook.engine.state.choice import ChoicePoint, Option, decision

        opts = tuple(Option(decision("use", cid, ability=ab.id), f"{cid}: {ab.text or ab.id}", "sec_prevent_avoid")
                     for cid, ab in _preventions(g))
        return ChoicePoint(
            "runner",
            "priority",
            'the Runner may prevent a "when encountered" ability',
            "sec_prevent_avoid",
            opts + (Option(decision("pass", "runner"), "pass priority", "rule_pass"),),
            default=len(opts),
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.rules import costs
        from judgebook.engine.rules.resolve import Resolve
        from judgebook.engine.rules.windows import resolve_pending
        from judgebook.engine.state.model import evolve

        g = pop(g)
        d = option.decision
        if d.kind == "pass":
            return resolve_pending(g, self.option)
        p = next(x for x in g.pending if x.serial == self.serial)
        g = evolve(g, pending=tuple(x for x in g.pending if x is not p))
        cid = str(d.value)
        ab = next(a for a in abilities(g, cid) if a.id == d.get("ability"))
        ctx = Ctx(cid, "runner", ab.id)
        if ab.cost is not None:
            g = costs.pay(g, costs.changed_cost(g, ab.cost, ctx), ctx, "runner", "use")
        g = log(g, "prevented", f"{cid} prevents {p.label}", "sec_prevent_avoid", "runner", card=p.card,
                ability=p.ability)
        from judgebook.engine.rules.frames import push

        return push(g, Resolve(ab.effects, ctx, "step_paid_ability_resolution"))
