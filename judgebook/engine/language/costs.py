"""Costs (rule_cost): all parts paid together or not at all.

{clicks: 1, lose_clicks: 1, credits: 2 | X | <quantity>, trash: self, tags: 1, counters: {power: 1},
 damage: {net: 1}, forfeit: self, remove_from_game: self, remove_tags: 1}
 from: <selector>   (from: the credits come only from the hosted credits of these cards)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.language.nodes import At, check_keys, want_int
from judgebook.engine.language.quantities import Number, Quantity, TheX, parse_quantity
from judgebook.engine.language.selectors import parse_selector

COST_KEYS = ("clicks", "lose_clicks", "credits", "from", "trash", "tags", "counters", "damage", "forfeit",
             "remove_from_game", "remove_tags", "turn_facedown")


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
    trash_cards: Any = None  # a Selector: "trash 1 installed resource" as an additional cost to play
    credits_from: Any = None  # a Selector: "use this ability only by spending credits from stealth cards"
    counters_x: str | None = None  # "X hosted power counters": the kind of counter X of which are removed
    turn_facedown: Any = None  # a Selector: "turn 1 hosted copy of Matryoshka facedown" (its first matches)

    @property
    def x(self) -> bool:
        return isinstance(self.credits, TheX) or self.counters_x is not None

    def counters_paid(self, x: int) -> tuple[tuple[str, int], ...]:
        """The counters this cost removes, its X counters (if any) being `x`."""
        return self.counters + ((self.counters_x, x),) if self.counters_x is not None else self.counters

    def plus(self, other: Cost) -> Cost:
        from judgebook.engine.language.quantities import Plus

        credits: Quantity = self.credits
        if other.has_credits:
            credits = other.credits if not self.has_credits else Plus((self.credits, other.credits))
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
            self.trash_cards or other.trash_cards,
            self.credits_from or other.credits_from,
            self.counters_x or other.counters_x,
            self.turn_facedown or other.turn_facedown,
        )

    def render(self) -> str:
        parts = []
        if self.clicks:
            parts.append("[click]" * self.clicks)
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
        if self.remove_tags:
            parts.append(f"remove {self.remove_tags} tag{'s' if self.remove_tags != 1 else ''}")
        if self.forfeit_self:
            parts.append("forfeit this agenda")
        parts += [f"remove {n} {kind} counter{'s' if n != 1 else ''}" for kind, n in self.counters]
        if self.counters_x is not None:
            parts.append(f"remove X {self.counters_x} counters")
        parts += [f"suffer {n} {kind} damage" for kind, n in self.damage]
        if self.trash_cards is not None:
            parts.append(f"trash {self.trash_cards.render()}")
        if self.turn_facedown is not None:
            parts.append(f"turn {self.turn_facedown.render()} facedown")
        return ", ".join(parts) or "nothing"


def parse_cost(node: Any, at: At, other_cards: bool = False) -> Cost:
    """`other_cards`: the cost may trash cards other than its own (only a card's additional cost to play)."""
    cost = _parse_cost(node, at)
    if cost.trash_cards is not None and not other_cards:
        at.key(node, "trash").fail("trashing other cards as a cost is implemented for a card's own cost to play only")
    return cost


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
    trash_cards = None
    if "trash" in node and node["trash"] != "self":
        # Other cards trashed as a cost ("trash 1 installed resource"): chosen as the cost is paid.
        trash_cards = parse_selector(node["trash"], at.key(node, "trash"))
        if not trash_cards.chooses:
            at.key(node, "trash").fail("a cost trashes `self` or cards chosen by a selector with a count")
    for key in ("forfeit", "remove_from_game"):
        if key in node and node[key] != "self":
            # Forfeiting or removing a chosen card ("forfeit 1 agenda") is not implemented: only the card itself.
            at.key(node, key).fail(f"write `{key}: self`: {key} of another card is not implemented")
    if "from" in node and "credits" not in node:
        at.key(node, "from").fail("`from` says which cards' credits pay the `credits` of this cost")
    return Cost(
        clicks=want_int(node, "clicks", at, 0) or 0,
        credits=parse_quantity(node["credits"], at.key(node, "credits")) if "credits" in node else Number(0),
        trash_self=node.get("trash") == "self",
        tags=want_int(node, "tags", at, 0) or 0,
        counters=tuple(sorted(counters.items())),
        damage=tuple(sorted(damage.items())),
        has_credits="credits" in node,
        forfeit_self="forfeit" in node,
        remove_self="remove_from_game" in node,
        remove_tags=want_int(node, "remove_tags", at, 0) or 0,
        lose_clicks=want_int(node, "lose_clicks", at, 0) or 0,
        trash_cards=trash_cards,
        credits_from=parse_selector(node["from"], at.key(node, "from"), None) if "from" in node else None,
        counters_x=counters_x[0] if counters_x else None,
        turn_facedown=parse_selector(node["turn_facedown"], at.key(node, "turn_facedown"))
        if "turn_facedown" in node else None,
    )
