"""Costs (rule_cost): all parts paid together or not at all.

{clicks: 1, credits: 2 | X | <quantity>, from: <selector>, trash: self, remove: self, tags: 1, counters: {power: 1},
 damage: {net: 1}}   (from: the credits come only from the hosted credits of these cards)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judgebook.engine.language.nodes import At, check_keys, want_int
from judgebook.engine.language.quantities import Number, Quantity, TheX, parse_quantity
from judgebook.engine.language.selectors import parse_selector

COST_KEYS = ("clicks", "credits", "from", "trash", "remove", "tags", "counters", "damage", "forfeit")


@dataclass(frozen=True)
class Cost:
    clicks: int = 0
    credits: Quantity = Number(0)
    trash_self: bool = False
    tags: int = 0
    counters: tuple[tuple[str, int], ...] = ()
    damage: tuple[tuple[str, int], ...] = ()
    has_credits: bool = False  # "0[c]" is still a cost that is paid (rule_cost_zero)
    remove_self: bool = False  # "Remove this hardware from the game:" (rule_rfg_move)
    credits_from: Any = None  # a Selector: "use this ability only by spending credits from stealth cards"

    @property
    def x(self) -> bool:
        return isinstance(self.credits, TheX)

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
            self.remove_self or other.remove_self,
            self.credits_from or other.credits_from,
        )

    def render(self) -> str:
        parts = []
        if self.clicks:
            parts.append("[click]" * self.clicks)
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
        parts += [f"remove {n} {kind} counter{'s' if n != 1 else ''}" for kind, n in self.counters]
        parts += [f"suffer {n} {kind} damage" for kind, n in self.damage]
        return ", ".join(parts) or "nothing"


def parse_cost(node: Any, at: At) -> Cost:
    check_keys(node, COST_KEYS, at)
    counters = node.get("counters") or {}
    damage = node.get("damage") or {}
    for key, body in (("counters", counters), ("damage", damage)):
        if not isinstance(body, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in body.values()
        ):
            at.key(node, key).fail(f"{key} is a mapping of kind: number")
    for kind in damage:
        if kind not in ("net", "meat", "core"):
            at.key(node, "damage").fail("damage kinds are net, meat, core")
    if "trash" in node and node["trash"] != "self":
        at.key(node, "trash").fail("a [trash] cost is written `trash: self`")
    if "from" in node and "credits" not in node:
        at.key(node, "from").fail("`from` says which cards' credits pay the `credits` of this cost")
    if "remove" in node and node["remove"] != "self":
        at.key(node, "remove").fail("removing this card from the game as a cost is written `remove: self`")
    if "forfeit" in node:
        at.key(node, "forfeit").fail("forfeiting an agenda as a cost is not implemented yet")
    return Cost(
        clicks=want_int(node, "clicks", at, 0) or 0,
        credits=parse_quantity(node["credits"], at.key(node, "credits")) if "credits" in node else Number(0),
        trash_self="trash" in node,
        tags=want_int(node, "tags", at, 0) or 0,
        counters=tuple(sorted(counters.items())),
        damage=tuple(sorted(damage.items())),
        has_credits="credits" in node,
        remove_self="remove" in node,
        credits_from=parse_selector(node["from"], at.key(node, "from"), None) if "from" in node else None,
    )
