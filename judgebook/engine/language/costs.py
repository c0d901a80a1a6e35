"""Costs (rule_cost): all parts paid together or not at all.

{clicks: 1 | <quantity>, lose_clicks: 1, credits: 2 | X | <quantity>, trash: self | <selector>, tags: 1,
 counters: {power: 1}, damage: {net: 1}, forfeit: self | <selector>, remove_from_game: self, remove_tags: 1,
 bad_publicity: 1, derez: <selector>, add_to_hand: self | <selector>, add_to_bottom_of_deck: <selector>,
 reveal_and_trash: <selector>, either: [<cost>, <cost>]}
 from: <selector>   (from: the credits come only from the hosted credits of these cards)

A part acting on cards other than the cost's own (`trash: {zone: hand, side: you, count: 2}`) has them chosen by
the payer as the cost is paid (decision `{target: [cards]}`); `either` lets the payer choose one of its costs
(decision `{choose: N}`), paid with the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from judgebook.engine.language.nodes import At, check_keys, want_int
from judgebook.engine.language.quantities import Number, Quantity, TheX, parse_quantity
from judgebook.engine.language.selectors import Ref, parse_selector

# Parts of a cost done to cards (the cost's own card, `self`, or cards a selector finds), in the order they are
# paid, with the words that render them.
CARD_VERBS = {
    "trash": "trash",
    "forfeit": "forfeit",
    "derez": "derez",
    "add_to_hand": "add {} to its owner's hand",
    "add_to_bottom_of_deck": "add {} to the bottom of its owner's deck",
    "reveal_and_trash": "reveal and trash",
}
COST_KEYS = ("clicks", "lose_clicks", "credits", "from", "tags", "counters", "damage", "remove_from_game",
             "remove_tags", "bad_publicity", "either", "turn_facedown", "pays", *CARD_VERBS)


@dataclass(frozen=True)
class CardPart:
    """A part of a cost done to cards: `verb` (a key of CARD_VERBS) on the cards `cards` (a Selector) finds."""

    verb: str
    cards: Any

    def render(self) -> str:
        words = CARD_VERBS[self.verb]
        what = self.cards.render()
        return words.format(what) if "{}" in words else f"{words} {what}"


@dataclass(frozen=True)
class Cost:
    clicks: int = 0
    credits: Quantity = Number(0)
    trash_self: bool = False
    tags: int = 0
    counters: tuple[tuple[str, int], ...] = ()
    damage: tuple[tuple[str, int], ...] = ()
    has_credits: bool = False  # "0[c]" is still a cost that is paid (rule_cost_zero)
    forfeit_self: bool = False  # "forfeit this agenda" (movement_forfeit)
    remove_self: bool = False  # "remove this card from the game" (rule_rfg_move)
    remove_tags: int = 0  # "remove 1 tag" (rule_remove_tags_or_bad_publicity_as_cost)
    lose_clicks: int = 0  # "Lose [click]": clicks lost, not spent (no "spent" event)
    cards: tuple[CardPart, ...] = ()  # "trash 1 installed resource", "derez another harmonic ice", …
    credits_from: Any = None  # a Selector: "use this ability only by spending credits from stealth cards"
    counters_x: str | None = None  # "X hosted power counters": the kind of counter X of which are removed
    bad_publicity: int = 0  # "take 1 bad publicity" (rule_remove_tags_or_bad_publicity_as_cost)
    either: tuple[Cost, ...] = ()  # "take 1 bad publicity or remove 1 tag": the payer pays one of them
    clicks_of: Quantity | None = None  # "[click] for each hosted power counter": clicks as a quantity
    turn_facedown: Any = None  # a Selector: "turn 1 hosted copy of Matryoshka facedown" (its first matches)
    pays: int = 0  # "forfeit 1 agenda … to pay for 10[c] of its rez cost": this much less of the credits is paid
    remove_tags_x: bool = False  # "remove X tags": X chosen as the cost is paid (decision `x:`)

    @property
    def x(self) -> bool:
        return isinstance(self.credits, TheX) or self.counters_x is not None or self.remove_tags_x

    def counters_paid(self, x: int) -> tuple[tuple[str, int], ...]:
        """The counters this cost removes, its X counters (if any) being `x`."""
        return self.counters + ((self.counters_x, x),) if self.counters_x is not None else self.counters

    @property
    def trash_cards(self) -> Any:
        """The cards a `trash: <selector>` part trashes (None without one)."""
        return next((p.cards for p in self.cards if p.verb == "trash"), None)

    @property
    def chooses(self) -> bool:
        """Paying it takes a decision beyond X: cards to choose, or one cost of an `either`."""
        return bool(self.either) or any(p.cards.chooses for p in self.cards)

    def plus(self, other: Cost) -> Cost:
        from judgebook.engine.language.quantities import Plus

        credits: Quantity = self.credits
        if other.has_credits:
            credits = other.credits if not self.has_credits else Plus((self.credits, other.credits))
        clicks_of = self.clicks_of
        if other.clicks_of is not None:
            clicks_of = other.clicks_of if clicks_of is None else Plus((clicks_of, other.clicks_of))
        return Cost(
            self.clicks + other.clicks,
            credits,
            self.trash_self or other.trash_self,
            self.tags + other.tags,
            self.counters + other.counters,
            self.damage + other.damage,
            self.has_credits or other.has_credits,
            self.forfeit_self or other.forfeit_self,
            self.remove_self or other.remove_self,
            self.remove_tags + other.remove_tags,
            self.lose_clicks + other.lose_clicks,
            self.cards + other.cards,
            self.credits_from or other.credits_from,
            self.counters_x or other.counters_x,
            self.bad_publicity + other.bad_publicity,
            self.either + other.either,
            clicks_of,
            self.turn_facedown or other.turn_facedown,
            self.pays + other.pays,
            self.remove_tags_x or other.remove_tags_x,
        )

    def without_cards(self) -> Cost:
        return replace(self, cards=())

    def render(self) -> str:
        parts = []
        if self.clicks:
            parts.append("[click]" * self.clicks)
        if self.clicks_of is not None:
            parts.append(f"[click] for each of {self.clicks_of.render()}")
        if self.lose_clicks:
            parts.append("lose " + "[click]" * self.lose_clicks)
        if self.has_credits:
            c = self.credits
            parts.append(f"{c.render()}[c]" if isinstance(c, Number | TheX) else f"[c] equal to {c.render()}")
            if self.credits_from is not None:
                parts[-1] += f" (only from {self.credits_from.render()})"
        if self.trash_self:
            parts.append("[trash]")
        if self.remove_self:
            parts.append("remove this card from the game")
        if self.tags:
            parts.append(f"take {self.tags} tag{'s' if self.tags != 1 else ''}")
        if self.bad_publicity:
            parts.append(f"take {self.bad_publicity} bad publicity")
        if self.remove_tags:
            parts.append(f"remove {self.remove_tags} tag{'s' if self.remove_tags != 1 else ''}")
        if self.remove_tags_x:
            parts.append("remove X tags")
        if self.forfeit_self:
            parts.append("forfeit this agenda")
        parts += [f"remove {n} {kind} counter{'s' if n != 1 else ''}" for kind, n in self.counters]
        if self.counters_x is not None:
            parts.append(f"remove X {self.counters_x} counters")
        parts += [f"suffer {n} {kind} damage" for kind, n in self.damage]
        parts += [p.render() for p in self.cards]
        if self.pays:
            parts.append(f"to pay for {self.pays}[c] of the cost as you rez")
        if self.either:
            parts.append(" or ".join(c.render() for c in self.either))
        if self.turn_facedown is not None:
            parts.append(f"turn {self.turn_facedown.render()} facedown")
        return ", ".join(parts) or "nothing"


def parse_cost(node: Any, at: At, other_cards: bool = True) -> Cost:
    """`other_cards`: kept for callers; a cost may act on other cards wherever costs are paid (rules/costs.py)."""
    return _parse_cost(node, at)


def _parse_cost(node: Any, at: At) -> Cost:
    check_keys(node, COST_KEYS, at)
    counters = node.get("counters") or {}
    # "X hosted power counters": one kind whose number is the X the payer chooses (decision `x:`)
    counters_x = [k for k, v in counters.items() if v == "X"] if isinstance(counters, dict) else []
    if len(counters_x) > 1 or (counters_x and isinstance(parse_quantity(node.get("credits", 0), at), TheX)):
        at.key(node, "counters").fail("a cost has one X: one kind of counter, and no X credits beside it")
    counters = {k: v for k, v in counters.items() if v != "X"} if counters_x else counters
    damage = node.get("damage") or {}
    for key, body in (("counters", counters), ("damage", damage)):
        if not isinstance(body, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in body.values()
        ):
            at.key(node, key).fail(f"{key} is a mapping of kind: number")
    for kind in damage:
        if kind not in ("net", "meat", "core"):
            at.key(node, "damage").fail("damage kinds are net, meat, core")
    cards: list[CardPart] = []
    for verb in CARD_VERBS:
        if verb not in node or (verb in ("trash", "forfeit") and node[verb] == "self"):
            continue
        sel = parse_selector(node[verb], at.key(node, verb))
        if isinstance(sel, Ref) and (sel.ref != "self" or verb not in ("add_to_hand",)):
            at.key(node, verb).fail(f"a cost does `{verb}` to cards a selector finds (`add_to_hand: self` too)")
        cards.append(CardPart(verb, sel))
    if "remove_from_game" in node and node["remove_from_game"] != "self":
        at.key(node, "remove_from_game").fail("write `remove_from_game: self`: another card is not implemented")
    if "from" in node and "credits" not in node:
        at.key(node, "from").fail("`from` says which cards' credits pay the `credits` of this cost")
    either: tuple[Cost, ...] = ()
    if "either" in node:
        options = node["either"]
        if not isinstance(options, list) or len(options) < 2:
            at.key(node, "either").fail("either is a list of two or more costs, one of which is paid")
        either = tuple(_parse_cost(o, at.key(node, "either").key(options, i)) for i, o in enumerate(options))
        if any(c.either for c in either):
            at.key(node, "either").fail("an `either` inside an `either`: write one list")
    clicks, clicks_of = 0, None
    if isinstance(node.get("clicks"), dict):
        clicks_of = parse_quantity(node["clicks"], at.key(node, "clicks"))
    else:
        clicks = want_int(node, "clicks", at, 0) or 0
    return Cost(
        clicks=clicks,
        credits=parse_quantity(node["credits"], at.key(node, "credits")) if "credits" in node else Number(0),
        trash_self=node.get("trash") == "self",
        tags=want_int(node, "tags", at, 0) or 0,
        counters=tuple(sorted(counters.items())),
        damage=tuple(sorted(damage.items())),
        has_credits="credits" in node,
        forfeit_self=node.get("forfeit") == "self",
        remove_self="remove_from_game" in node,
        remove_tags=0 if node.get("remove_tags") == "X" else want_int(node, "remove_tags", at, 0) or 0,
        remove_tags_x=node.get("remove_tags") == "X",
        lose_clicks=want_int(node, "lose_clicks", at, 0) or 0,
        cards=tuple(cards),
        credits_from=parse_selector(node["from"], at.key(node, "from"), None) if "from" in node else None,
        counters_x=counters_x[0] if counters_x else None,
        bad_publicity=want_int(node, "bad_publicity", at, 0) or 0,
        either=either,
        clicks_of=clicks_of,
        turn_facedown=parse_selector(node["turn_facedown"], at.key(node, "turn_facedown"))
        if "turn_facedown" in node else None,
        pays=want_int(node, "pays", at, 0) or 0,
    )
