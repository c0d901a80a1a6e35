"""Static effects: what a static ability or a lasting effect changes while it applies.

{cannot: {what: run, server: HQ, player: runner, card: <selector>}} |
{cannot_break: {ice: self, more_than: 1, except_subtype: killer, breaker: <selector>}} |
{additional_cost: {to: run, cost: {...}, server: ..., card: self|any, first_this_turn: true}} |
{prevent: {what: damage, amount: 1|all, damage_type: net}} |
{cost_change: {to: install|play|rez|trash|use, card: self|<selector>, by: <quantity>, minus: true, ability: ID}} |
{strength: <quantity>, target: self|<selector>} | {strength_minus: ...} |
{hand_size: <quantity>, player: runner, minus: true} | {link: N} | {memory: N}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.language.context import PLAYER_WORDS, Ctx, player_phrase
from judgebook.engine.language.costs import Cost, parse_cost
from judgebook.engine.language.grammar import counted
from judgebook.engine.language.nodes import At, check_keys, want_bool, want_str
from judgebook.engine.language.quantities import Number, Quantity, TheX, parse_quantity
from judgebook.engine.language.registry import Registry
from judgebook.engine.language.selectors import Selector, parse_selector
from judgebook.engine.language.value import Value
from judgebook.engine.state.model import Game


class Static(Value):
    name = ""

    def render(self) -> str:
        raise NotImplementedError


STATICS: Registry[Static] = Registry("static effect")

# What a player can be barred from, as a printed card says it.
CANNOT_WHAT = {
    "take_tags": "take tags",
    "steal": "steal",
    "jack_out": "jack out",
    "run": "run",
    "rez": "rez",
    "score": "score",
    "trash": "trash",
    "install": "install",
    "play": "play",
    "access": "access",
    "draw": "draw",
    "spend_credits": "spend credits",
    "spend_pool_credits": "spend credits from their credit pool",
    "advance": "advance",
    "gain_credits": "gain credits",
    "discard": "discard",  # to maximum hand size ("skip your discard step")
    "break": "break",  # subroutines on the cards named
    "declare_successful": "declare the run successful",
    "use_paid_abilities": "use paid abilities on",  # of the cards named (Hákarl 1.0: on bioroid ice)
    "end_the_run_by_subroutines": "end the run by subroutines on",  # of the cards named (Banner)
    # This card, while active: cards hosted on it are in an illegal location, trashed at the next checkpoint
    # (step_checkpoint_card_restrictions: Tithonium).
    "host": "host cards",
}


@STATICS.register("cannot")
@dataclass(frozen=True, eq=False)
class Cannot(Static):
    what: str
    server: str | None = None
    player: str | None = None
    card: Selector | None = None
    except_: str | None = None

    @classmethod
    def parse(cls, arg: Any, at: At) -> Cannot:
        check_keys(arg, ("what", "server", "player", "card", "except"), at)
        what = want_str(arg, "what", at, None, tuple(CANNOT_WHAT))
        if what is None:
            at.fail("cannot needs `what`")
        return cls(
            what,
            want_str(arg, "server", at),
            want_str(arg, "player", at, None, PLAYER_WORDS),
            parse_selector(arg["card"], at.key(arg, "card"), None) if "card" in arg else None,
            want_str(arg, "except", at),
        )

    def render(self) -> str:
        who = f"{player_phrase(self.player)} " if self.player else ""
        where = f" on {self.server}" if self.server else ""
        card = f" {self.card.render()}" if self.card else ""
        return f"{who}cannot {CANNOT_WHAT[self.what]}{card}{where}"


@STATICS.register("can_be_advanced")
@dataclass(frozen=True, eq=False)
class CanBeAdvanced(Static):
    """"You can advance this card": the Corp may advance it (corp_basic_action_advance), even while it is
    unrezzed: abilities allowing a card to be advanced are active then (rule_active_exception_can_be_advanced)."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> CanBeAdvanced:
        if arg not in (None, True):
            at.fail("write `can_be_advanced` (no value)")
        return cls()

    def render(self) -> str:
        return "you can advance this card"


@STATICS.register("server_only")
@dataclass(frozen=True, eq=False)
class ServerOnly(Static):
    """"Remote server only." / "Central server only." / "HQ only.": where this upgrade may be installed, at all
    times, even while inactive (rule_x_server_only), so the install reads it from the card's definition."""

    servers: tuple[str, ...]

    @classmethod
    def parse(cls, arg: Any, at: At) -> ServerOnly:
        vals = arg if isinstance(arg, list) else [arg]
        if not vals or not all(isinstance(v, str) and v not in ("this", "attacked") for v in vals):
            at.fail("server_only is remote, central or server names")
        return cls(tuple(vals))

    def allows(self, server: str) -> bool:
        central = server in ("HQ", "R&D", "Archives")
        return any(s == server or (s == "remote" and not central) or (s == "central" and central)
                   for s in self.servers)

    def render(self) -> str:
        return f"{' or '.join(self.servers)} server only"


def server_only_refuses(card_def: Any, server: str) -> bool:
    """Whether a "... server only" restriction of this card keeps it out of `server` ("new" is a remote)."""
    where = "Server new" if server == "new" else server
    return any(isinstance(a.static, ServerOnly) and not a.static.allows(where) for a in card_def.abilities)


@STATICS.register("cannot_break")
@dataclass(frozen=True, eq=False)
class CannotBreak(Static):
    """The Runner cannot break more than `more_than` (default 0: any) of the printed subroutines of `ice`
    (default this ice) during each encounter, except with a breaker of `except_subtype`; with `breaker`,
    only that card's abilities are barred. Breaks by an excepted breaker do not count."""

    ice: Selector
    more_than: int = 0
    except_subtype: str | None = None
    breaker: Selector | None = None

    @classmethod
    def parse(cls, arg: Any, at: At) -> CannotBreak:
        arg = {} if arg in (None, True) else arg
        check_keys(arg, ("ice", "more_than", "except_subtype", "breaker"), at)
        more = arg.get("more_than", 0)
        if isinstance(more, bool) or not isinstance(more, int) or more < 0:
            at.key(arg, "more_than").fail("more_than is a number of subroutines")
        return cls(
            parse_selector(arg.get("ice", "self"), at.key(arg, "ice") if "ice" in arg else at, None),
            more,
            want_str(arg, "except_subtype", at),
            parse_selector(arg["breaker"], at.key(arg, "breaker"), None) if "breaker" in arg else None,
        )

    def limits(self, g: Game, ctx: Ctx, ice: str, breaker: str) -> bool:
        """Whether this restriction bars `breaker` from breaking subroutines on `ice`."""

        if ice not in self.ice.candidates(g, ctx):
            return False
        if self.breaker is not None and breaker not in self.breaker.candidates(g, ctx):
            return False
        from judgebook.engine.rules.gained_abilities import subtypes

        return not (self.except_subtype and self.except_subtype in subtypes(g, breaker))

    def render(self) -> str:
        n = "any" if not self.more_than else f"more than {self.more_than}"
        by = f" with {self.breaker.render()}" if self.breaker else ""
        but = f" except using a {self.except_subtype}" if self.except_subtype else ""
        return f"the Runner cannot break {n} of the subroutines of {self.ice.render()}{by}{but} each encounter"


ADDITIONAL_TO = ("steal", "access", "run", "rez", "trash", "install", "play", "break", "score", "trash_resource")


@STATICS.register("additional_cost")
@dataclass(frozen=True, eq=False)
class AdditionalCost(Static):
    to: str
    cost: Cost
    server: str | None = None
    card: str = "any"
    first_this_turn: bool = False
    cards: Selector | None = None  # `card: <selector>`: only for the cards it finds ("a connection resource")

    @classmethod
    def parse(cls, arg: Any, at: At) -> AdditionalCost:
        check_keys(arg, ("to", "cost", "server", "card", "first_this_turn"), at)
        to = want_str(arg, "to", at, None, ADDITIONAL_TO)
        if to is None or "cost" not in arg:
            at.fail("additional_cost needs `to` and `cost`")
        own_play = to == "play" and arg.get("card") == "self"
        cost = parse_cost(arg["cost"], at.key(arg, "cost"), other_cards=own_play)
        cards = parse_selector(arg["card"], at.key(arg, "card"), None) if isinstance(arg.get("card"), dict) else None
        return cls(
            to,
            cost,
            want_str(arg, "server", at),
            "any" if cards is not None else want_str(arg, "card", at, "any", ("self", "any")) or "any",
            want_bool(arg, "first_this_turn", at),
            cards,
        )

    def render(self) -> str:
        to = "trash with the basic action" if self.to == "trash_resource" else self.to
        what = f" {self.cards.render_kind()}" if self.cards is not None else ""
        where = {None: "", "this": " this server", "remote": " a remote server", "central": " a central server"}
        return f"an additional cost to {to}{what}{where.get(self.server, f' {self.server}')}: {self.cost.render()}"


COST_CHANGE_TO = ("install", "play", "rez", "trash", "use")


@STATICS.register("cost_change")
@dataclass(frozen=True, eq=False)
class CostChange(Static):
    """A changed cost (rule_cost_modifiers): "this program costs 2[c] less to install", "the rez cost of each
    code gate is increased by 1[c]", "this ability costs 1[c] less to use" (`to: use`, `ability`). A cost is
    never lowered below 0."""

    to: str
    card: Selector
    amount: Quantity
    minus: bool
    ability: str | None = None

    @classmethod
    def parse(cls, arg: Any, at: At) -> CostChange:
        check_keys(arg, ("to", "card", "by", "minus", "ability"), at)
        to = want_str(arg, "to", at, None, COST_CHANGE_TO)
        if to is None or "by" not in arg:
            at.fail(f"cost_change needs `to` ({', '.join(COST_CHANGE_TO)}) and `by`")
        ability = want_str(arg, "ability", at)
        if ability is not None and to != "use":
            at.key(arg, "ability").fail("`ability` names the ability whose cost to use changes: `to: use`")
        return cls(
            to,
            parse_selector(arg.get("card", "self"), at.key(arg, "card"), None),
            parse_quantity(arg["by"], at.key(arg, "by")),
            want_bool(arg, "minus", at),
            ability,
        )

    @property
    def own(self) -> bool:
        """A change to installing, playing or rezzing this very card applies while it is not yet active (Ivik:
        "the rez cost of this ice is lowered by ...", while unrezzed)."""
        return self.to in ("install", "play", "rez") and self.card.render() == "this card"

    def render(self) -> str:
        what = f"its {self.ability} ability" if self.ability else self.card.render()
        return f"the cost to {self.to} {what} is {'lowered' if self.minus else 'increased'} by {self.amount.render()}"


# What can be prevented, as the noun a count of it reads with ("prevent 1 tag", "prevent all damage").
PREVENT_WHAT = {"damage": "damage", "tags": "tag", "trash": "trash", "end_run": "end run"}


@STATICS.register("prevent")
@dataclass(frozen=True, eq=False)
class Prevent(Static):
    what: str
    amount: Quantity | None  # None: all
    damage_type: str | None = None

    @classmethod
    def parse(cls, arg: Any, at: At) -> Prevent:
        check_keys(arg, ("what", "amount", "damage_type"), at)
        what = want_str(arg, "what", at, None, tuple(PREVENT_WHAT))
        if what is None:
            at.fail("prevent needs `what`")
        amount = arg.get("amount", "all")
        return cls(
            what,
            None if amount == "all" else parse_quantity(amount, at.key(arg, "amount")),
            want_str(arg, "damage_type", at, None, ("net", "meat", "core")),
        )

    def render(self) -> str:
        n = "all" if self.amount is None else self.amount.render()
        kind = f"{self.damage_type} " if self.damage_type else ""
        return f"prevent {counted(n, kind + PREVENT_WHAT[self.what])}"


@STATICS.register("gain_subroutine")
@dataclass(frozen=True, eq=False)
class GainSubroutine(Static):
    """An ice gains a subroutine ("This ice gains '[subroutine] End the run.' for each hosted power counter"):
    `count` copies (a quantity, default 1) of `subroutine` (instructions), `position: before` or after (the
    default) its printed subroutines, on `target` (default this ice)."""

    subroutine: Any  # the Subroutine the ice gains (a card-language value; parsed late: instructions import this)
    count: Quantity
    before: bool = False
    target: Selector | None = None

    @classmethod
    def parse(cls, arg: Any, at: At) -> GainSubroutine:
        from judgebook.engine.language.cards import Subroutine
        from judgebook.engine.language.instructions import parse_instructions

        check_keys(arg, ("subroutine", "count", "position", "target"), at)
        if "subroutine" not in arg:
            at.fail("gain_subroutine needs `subroutine` (its instructions)")
        position = want_str(arg, "position", at, "after", ("before", "after"))
        return cls(
            Subroutine("", parse_instructions(arg["subroutine"], at.key(arg, "subroutine"))),
            parse_quantity(arg.get("count", 1), at.key(arg, "count") if "count" in arg else at),
            position == "before",
            parse_selector(arg["target"], at.key(arg, "target"), None) if "target" in arg else None,
        )

    def render(self) -> str:
        from judgebook.engine.language.instructions import render_all

        n = self.count.render()
        where = "before" if self.before else "after"
        return f"gains {n} \"[subroutine] {render_all(self.subroutine.effects)}\" {where} its printed subroutines"
@STATICS.register("not_trashed")
@dataclass(frozen=True, eq=False)
class NotTrashed(Static):
    """A played event or operation stays in the play area instead of being trashed, as a lingering effect
    (`lasting`, its duration the "until ..."): when that expires it is trashed (rule_play_not_trashed_until)."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> NotTrashed:
        if arg != "self":
            at.fail("write `not_trashed: self` (the played card itself)")
        return cls()

    def render(self) -> str:
        return "this card is not trashed"


@STATICS.register("mark")
@dataclass(frozen=True, eq=False)
class Mark(Static):
    """The Runner's mark: a central server designated for the turn, as a lingering effect
    (rule_mark_designation_lingering_effect). Created by `identify_mark`; written here only to be read."""

    server: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> Mark:
        if arg not in ("HQ", "R&D", "Archives"):
            at.fail("the mark is a central server: HQ, R&D or Archives")
        return cls(str(arg))

    def render(self) -> str:
        return f"{self.server} is the Runner's mark"


def _modifier(key: str, words: str, targets_cards: bool, countable: bool = False) -> None:
    @dataclass(frozen=True, eq=False)
    class Modify(Static):
        amount: Quantity
        negative: bool
        target: Selector | None  # cards (strength) or None
        player: str | None  # players (hand size, link, memory)

        @classmethod
        def parse(cls, arg: Any, at: At) -> Modify:
            if isinstance(arg, int) and not isinstance(arg, bool):
                return cls(parse_quantity(abs(arg), at), arg < 0, None, None)
            check_keys(arg, ("by", "minus", "target", "player"), at)
            if "by" not in arg:
                at.fail(f"{key} needs `by` (a quantity)")
            target = None
            if "target" in arg:
                if not targets_cards:
                    at.key(arg, "target").fail(f"{key} changes a player's value: use `player`")
                target = parse_selector(arg["target"], at.key(arg, "target"), None)
            player = want_str(arg, "player", at, None, PLAYER_WORDS)
            if player and targets_cards:
                at.key(arg, "player").fail(f"{key} changes cards: use `target`")
            return cls(parse_quantity(arg["by"], at.key(arg, "by")), want_bool(arg, "minus", at), target, player)

        def delta(self, g: Game, ctx: Ctx) -> int:
            n = self.amount.value(g, ctx)
            return -n if self.negative else n

        def render(self) -> str:
            who = f" for {player_phrase(self.player)}" if self.player else ""
            who = f" of {self.target.render()}" if self.target else who
            # a computed amount reads as X, then what X is ("+X strength, where X is the number of ...")
            computed = not isinstance(self.amount, Number | TheX)
            amount = "X" if computed else self.amount.render()
            what = counted(amount, words) if countable else f"{amount} {words}"
            where = f", where X is {self.amount.render()}" if computed else ""
            return f"{'-' if self.negative else '+'}{what}{who}{where}"

    Modify.__name__ = Modify.__qualname__ = f"Modify_{key}"
    STATICS.register(key)(Modify)


_modifier("strength", "strength", True)
_modifier("hand_size", "maximum hand size", False)
_modifier("link", "link", False)
_modifier("memory", "memory unit", False, countable=True)
_modifier("advancement_requirement", "advancement requirement", True)
_modifier("allotted_clicks", "allotted [click]", False)  # "the Runner gets -1 allotted [click] for their next turn"
_modifier("agenda_points", "agenda point", True, countable=True)


def parse_static(node: Any, at: At) -> Static:
    return STATICS.parse(node, at)
