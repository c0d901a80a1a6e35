"""Cards gaining or losing abilities and subtypes, and abilities given to other cards.

Constructs of the card language added for the Standard pool (round 3, family `abilities`); each registers
itself in its kind's registry when `instructions.py` imports this module.

{lose_abilities: {target: <selector>, except: printed_subroutines, cannot_gain: true}} |
{gain_subtypes: {subtypes: [barrier, sentry], target: <selector>}}

What a card's abilities and subtypes are once these apply is worked out in `rules/gained_abilities.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.language.context import Ctx
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
