"""Card definitions: statistics and abilities in the card language, parsed with every key checked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgebook.engine.errors import ScenarioError
from judgebook.engine.language import families as _families  # noqa: F401  (every family registers its words)
from judgebook.engine.language.conditions import Condition, parse_condition
from judgebook.engine.language.context import Ctx
from judgebook.engine.language.costs import Cost, parse_cost
from judgebook.engine.language.events import Trigger, parse_trigger
from judgebook.engine.language.identities import current_face
from judgebook.engine.language.instructions import Instruction, parse_instructions
from judgebook.engine.language.nodes import At, check_keys, node_line, want_bool, want_int, want_list, want_str
from judgebook.engine.language.selectors import Selector, parse_selector
from judgebook.engine.language.statics import Static, parse_static
from judgebook.engine.language.value import Value
from judgebook.engine.state.model import Card, Game
from judgebook.engine.yamlnodes import load_text

SIDES = ("corp", "runner")
CORP_TYPES = ("agenda", "asset", "upgrade", "ice", "operation", "identity")
RUNNER_TYPES = ("event", "program", "hardware", "resource", "identity")
ONCE_PER = ("turn", "run", "encounter")
ACTIVE_IN = ("hand", "discard", "deck", "score", "accessed", "installed", "current")
CREDIT_USES = ("icebreakers", "traces", "install", "run", "central_run", "trash", "any")


@dataclass(frozen=True, eq=False)
class Break(Value):
    subtype: str | None
    count: int | None  # None: all subroutines
    x: bool = False  # "Break X subroutines": as many as the X paid (rules/amounts.py)
    # "Break up to N subroutines": the Runner chooses 1 to N targets (rule_target, its Cleaver example);
    # without it, N targets while N unbroken remain (rule_distinct_targets).
    up_to: bool = False


CREDITS_TO = ("install", "play", "use", "trash", "any")


@dataclass(frozen=True, eq=False)
class CreditUse(Value):
    """`credits_for: {to, card?, while?}`: hosted credits pay only to install / play / use (an ability of) /
    pay the trash cost of a card the selector finds, while the condition holds ("You can spend hosted
    credits to install connection and job resources", "… to use programs during runs")."""

    to: str
    card: Selector | None = None
    condition: Condition | None = None

    def allows(self, g: Game, purpose: str, source: str | None, ctx: Ctx) -> bool:
        to_ok = self.to == "any" or purpose == self.to or (self.to == "use" and purpose in ("use", "break"))
        card_ok = self.card is None or (source is not None and source in self.card.candidates(g, ctx))
        return to_ok and card_ok and (self.condition is None or self.condition.holds(g, ctx))


def parse_credit_use(node: Any, at: At) -> CreditUse:
    check_keys(node, ("to", "card", "while"), at)
    to = want_str(node, "to", at, None, CREDITS_TO)
    if to is None:
        at.fail(f"credits_for needs `to`: one of {', '.join(CREDITS_TO)}")
    return CreditUse(
        to,
        parse_selector(node["card"], at.key(node, "card"), None) if "card" in node else None,
        parse_condition(node["while"], at.key(node, "while")) if "while" in node else None,
    )


@dataclass(frozen=True, eq=False)
class Ability(Value):
    id: str
    kind: str  # conditional | paid | static | play
    text: str = ""
    trigger: Trigger | None = None
    condition: Condition | None = None  # `if:` (must hold to trigger and to resolve) or `while:` (statics)
    cost: Cost | None = None
    effects: tuple[Instruction, ...] = ()
    optional: bool = False
    interrupt: bool = False
    once_per: str | None = None
    access: bool = False
    active_in: str | None = None
    brk: Break | None = None
    static: Static | None = None
    persistent: bool = False
    line: int | None = None
    used_by: str | None = None  # "Only the Runner can use this ability" (on Corp ice): runner

    @property
    def is_action(self) -> bool:
        return self.kind == "paid" and self.cost is not None and self.cost.clicks > 0


@dataclass(frozen=True, eq=False)
class Subroutine(Value):
    text: str
    effects: tuple[Instruction, ...]


@dataclass(frozen=True, eq=False)
class CardDef(Value):
    name: str
    side: str
    type: str
    subtypes: tuple[str, ...] = ()
    cost: int | None = None
    strength: int | None = None
    trash_cost: int | None = None
    advancement_requirement: int | None = None
    agenda_points: int = 0
    memory: int = 0
    recurring: int = 0
    link: int = 0
    unique: bool = False
    credits_for: str | None = None  # hosted/recurring credits may pay only for this purpose
    credits_when: CreditUse | None = None  # or for this use, card and condition (`credits_for: {to, ...}`)
    install_faceup: bool = False
    install_on: str | None = None  # "Install only on a piece of ice": installed hosted on an installed ice
    text: str = ""
    abilities: tuple[Ability, ...] = ()
    subroutines: tuple[Subroutine, ...] = ()
    file: str | None = None
    line: int | None = None
    id: str | None = None  # the NetrunnerDB id the definition is keyed by (statistics joined by it)
    partial: str | None = None  # what of the printed card the language cannot say, and why
    back: CardDef | None = None  # a double-faced identity's other face (`flip:`; rule_identity_double_sided)
    face_title: str | None = None  # that other face's own printed title
    faction: str | None = None  # NetrunnerDB's faction id, joined from the card source ("matches the faction")

    def ability(self, ability_id: str) -> Ability | None:
        return next((a for a in self.abilities if a.id == ability_id), None)


class CardLibrary:
    """The definitions a game uses, by card name; constant for the whole game."""

    def __init__(self, cards: dict[str, CardDef]) -> None:
        self.cards = dict(cards)

    def card(self, name: str) -> CardDef:
        return self.cards[name]

    def face(self, card: Card) -> CardDef:
        """The definition that applies to a card now (its other face, or what it is as an agenda): asked by
        `state/queries.py`, which so imports nothing of the language."""
        return current_face(self.cards[card.name], card)

    def __contains__(self, name: object) -> bool:
        return name in self.cards


ABILITY_KEYS = (
    "id",
    "text",
    "kind",
    "trigger",
    "condition",
    "if",
    "while",
    "cost",
    "effects",
    "optional",
    "interrupt",
    "once_per",
    "access",
    "active_in",
    "break",
    "static",
    "persistent",
    "used_by",
)


def parse_ability(node: Any, at: At, index: int, card_type: str) -> Ability:
    check_keys(node, ABILITY_KEYS, at)
    trigger = (
        parse_trigger(node["trigger"], node.get("condition"), at.key(node, "trigger"), at.key(node, "condition"))
        if "trigger" in node
        else None
    )
    if "condition" in node and trigger is None:
        at.key(node, "condition").fail("`condition` filters a trigger event: this ability has no `trigger`")
    cost = parse_cost(node["cost"], at.key(node, "cost")) if "cost" in node else None
    static = parse_static(node["static"], at.key(node, "static")) if "static" in node else None
    if "while" in node and static is None:
        at.key(node, "while").fail("`while` limits a static ability: this ability has no `static`")
    if "if" in node and static is not None:
        at.key(node, "if").fail("a static ability applies `while:` a condition holds")
    cond_key = "while" if "while" in node else "if"
    condition = parse_condition(node[cond_key], at.key(node, cond_key)) if cond_key in node else None
    if trigger:
        default_kind = "conditional"
    elif static:
        default_kind = "static"
    elif cost is not None or "break" in node:
        default_kind = "paid"
    elif card_type in ("event", "operation"):
        default_kind = "play"
    else:
        at.fail("an ability needs a trigger, a cost, a break or a static effect")
    kind = want_str(node, "kind", at, default_kind, ("conditional", "paid", "static", "play")) or default_kind
    if kind != default_kind:
        at.key(node, "kind").fail(f"this ability's keys make it a {default_kind} ability, not {kind}")
    brk = None
    if "break" in node:
        body = check_keys(node["break"], ("subtype", "count"), at.key(node, "break"))
        count = body.get("count", 1)
        up_to = isinstance(count, dict) and list(count) == ["up_to"]
        count = count["up_to"] if up_to else count
        if count not in ("all", "X") and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
            at.key(node, "break").fail("count is a number, {up_to: N}, X or `all`")
        if up_to and not isinstance(count, int):
            at.key(node, "break").fail("`count: {up_to: N}` takes a number N of at least 1")
        if count == "X" and (cost is None or not cost.x):
            at.key(node, "break").fail("`count: X` breaks as many subroutines as the X paid: the cost needs an X")
        brk = Break(want_str(body, "subtype", at.key(node, "break")), None if count in ("all", "X") else count,
                    count == "X", up_to)
    effects = parse_instructions(node.get("effects"), at.key(node, "effects"))
    if static is not None and effects:
        at.key(node, "effects").fail("a static ability has a static effect, not instructions")
    optional = want_bool(node, "optional", at)
    if optional and kind not in ("conditional",):
        at.key(node, "optional").fail(
            "only a conditional ability is optional (`may`); a paid ability is always optional to use"
        )
    interrupt = want_bool(node, "interrupt", at)
    if interrupt and not (trigger and trigger.event.startswith("would_")) and kind != "paid":
        at.key(node, "interrupt").fail("an interrupt has a `would_...` trigger or is a paid ability")
    access = want_bool(node, "access", at)
    if access and kind != "paid":
        at.key(node, "access").fail("`access: true` marks a paid ability usable while accessing")
    persistent = want_bool(node, "persistent", at)
    if persistent and kind not in ("conditional", "static"):
        at.key(node, "persistent").fail("`persistent` keeps a conditional or static ability active after its card "
                                        "leaves")
    used_by = want_str(node, "used_by", at, None, ("runner",))
    if used_by and kind != "paid":
        at.key(node, "used_by").fail("used_by marks a paid ability (of a piece of ice) that only the Runner can use")
    once = want_str(node, "once_per", at, None, ONCE_PER)
    if once and kind not in ("paid", "conditional"):
        at.key(node, "once_per").fail("once_per limits a paid or conditional ability")
    return Ability(
        id=str(node.get("id", f"a{index + 1}")),
        kind=kind,
        text=str(node.get("text", "")),
        trigger=trigger,
        condition=condition,
        cost=cost,
        effects=effects,
        optional=optional,
        interrupt=interrupt,
        once_per=once,
        access=access,
        active_in=want_str(node, "active_in", at, None, ACTIVE_IN),
        brk=brk,
        static=static,
        persistent=persistent,
        line=node_line(node, at.line),
        used_by=used_by,
    )


CARD_KEYS = (
    "name",
    "side",
    "type",
    "subtypes",
    "cost",
    "strength",
    "trash_cost",
    "advancement_requirement",
    "agenda_points",
    "memory",
    "recurring",
    "link",
    "unique",
    "text",
    "abilities",
    "subroutines",
    "source",
    "notes",
    "credits_for",
    "install_faceup",
    "install_on",
    "code",
    "id",
    "partial",
    "flip",
    "faction",
)


def parse_card(node: Any, at: At, file: str | None = None) -> CardDef:
    check_keys(node, CARD_KEYS, at)
    for key in ("name", "side", "type"):
        if key not in node:
            at.fail(f"a card needs `{key}`")
    side = want_str(node, "side", at, None, SIDES) or "corp"
    ctype = want_str(node, "type", at, None, CORP_TYPES if side == "corp" else RUNNER_TYPES) or ""
    subtypes = want_list(node, "subtypes", at)
    abilities = want_list(node, "abilities", at)
    subs = want_list(node, "subroutines", at)
    if subs and ctype != "ice":
        at.key(node, "subroutines").fail("only ice has subroutines")
    ab_at = at.key(node, "abilities")
    parsed = tuple(parse_ability(a, ab_at.key(abilities, i), i, ctype) for i, a in enumerate(abilities))
    ids = [a.id for a in parsed]
    if len(set(ids)) != len(ids):
        at.key(node, "abilities").fail(f"ability ids repeat: {ids}")
    recurring = want_int(node, "recurring", at, 0) or 0
    credit_use = node.get("credits_for")
    credits_when = parse_credit_use(credit_use, at.key(node, "credits_for")) if isinstance(credit_use, dict) else None
    credits_for = None if credits_when is not None else want_str(node, "credits_for", at, None, CREDIT_USES)
    return CardDef(
        name=str(node["name"]),
        side=side,
        type=ctype,
        subtypes=tuple(str(s) for s in subtypes),
        cost=want_int(node, "cost", at),
        strength=want_int(node, "strength", at),
        trash_cost=want_int(node, "trash_cost", at),
        advancement_requirement=want_int(node, "advancement_requirement", at),
        agenda_points=want_int(node, "agenda_points", at, 0) or 0,
        memory=want_int(node, "memory", at, 0) or 0,
        recurring=recurring,
        link=want_int(node, "link", at, 0) or 0,
        unique=want_bool(node, "unique", at),
        credits_for=credits_for,
        credits_when=credits_when,
        install_faceup=want_bool(node, "install_faceup", at),
        install_on=want_str(node, "install_on", at, None, ("ice",)),
        text=str(node.get("text", "")),
        abilities=parsed,
        subroutines=tuple(_subroutine(s, at.key(node, "subroutines").key(subs, i)) for i, s in enumerate(subs)),
        file=file,
        line=node_line(node, at.line),
        id=want_str(node, "id", at),
        partial=_partial(node, at),
        faction=want_str(node, "faction", at),
        back=_back(node, at, ctype, side, parsed, file),
    )


BACK_KEYS = ("name", "subtypes", "link", "abilities")


def _back(node: Any, at: At, ctype: str, side: str, front: tuple[Ability, ...], file: str | None) -> CardDef | None:
    """`flip: {name, subtypes?, link?, abilities}`: the other face of a double-faced identity, active only while
    it is faceup (rule_identity_double_sided); its statistics are stated here (tests check them against
    NetrunnerDB's `faces`). Its ability ids differ from the front's, so an ability pending from one face never
    resolves as the other's."""
    if "flip" not in node:
        return None
    where = at.key(node, "flip")
    if ctype != "identity":
        where.fail("only an identity has another face to flip to")
    body = check_keys(node["flip"], BACK_KEYS, where)
    if "name" not in body:
        where.fail("the other face needs its `name` (its printed title)")
    abilities = want_list(body, "abilities", where)
    ab_at = where.key(body, "abilities")
    parsed = tuple(parse_ability(a, ab_at.key(abilities, i), i, ctype) for i, a in enumerate(abilities))
    ids = [a.id for a in front] + [a.id for a in parsed]
    if len(set(ids)) != len(ids):
        ab_at.fail(f"the two faces' ability ids must all differ: {ids}")
    return CardDef(
        name=str(node["name"]),  # the same card: it is looked up by the front's title
        side=side,
        type=ctype,
        subtypes=tuple(str(s) for s in want_list(body, "subtypes", where)),
        link=want_int(body, "link", where, 0) or 0,
        face_title=str(body["name"]),
        abilities=parsed,
        file=file,
        line=node_line(body, where.line),
        id=want_str(node, "id", at),
    )


def _partial(node: Any, at: At) -> str | None:
    if "partial" not in node:
        return None
    reason = node["partial"]
    if not isinstance(reason, str) or not reason.strip():
        at.key(node, "partial").fail("`partial` says what the definition leaves out and why")
    return str(reason)


def undefined_reason(item: Any) -> str | None:
    """A stub `{id, name, undefined: WHY}` names a card the language cannot yet define at all."""
    if isinstance(item, dict) and "undefined" in item:
        return str(item["undefined"])
    return None


def _subroutine(node: Any, at: At) -> Subroutine:
    if isinstance(node, dict) and ("effects" in node or "text" in node):
        check_keys(node, ("text", "effects"), at)
        return Subroutine(str(node.get("text", "")), parse_instructions(node.get("effects"), at.key(node, "effects")))
    return Subroutine("", parse_instructions(node, at))


_RAW: dict[tuple[str, float], Any] = {}


def library_items(file: Path) -> list[Any]:
    key = (str(file), file.stat().st_mtime)
    if key not in _RAW:
        node = load_text(file.read_text(encoding="utf-8"), str(file))
        _RAW[key] = node.get("cards") if isinstance(node, dict) and "cards" in node else [node]
    items = _RAW[key]
    if not isinstance(items, list):
        raise ScenarioError("`cards` is a list", field="cards", file=str(file))
    return items


ParseCard = Callable[[Any, At, str], CardDef]


def load_library(directory: str | Path, names: set[str] | None = None, parse: ParseCard | None = None
                 ) -> dict[str, CardDef]:
    """Card definitions under a library folder, by name (only `names` when given). `parse` reads one
    definition node (NetrunnerDB's loader passes one that joins the card's statistics)."""
    parse = parse or parse_card
    out: dict[str, CardDef] = {}
    for file in sorted(Path(directory).glob("*.yaml")):
        items = library_items(file)
        for i, item in enumerate(items):
            if names is not None and not (isinstance(item, dict) and str(item.get("name")) in names):
                continue
            if undefined_reason(item) is not None:
                continue
            try:
                card = parse(item, At(f"cards[{i}]" if len(items) > 1 else "card", node_line(item, 1)), str(file))
            except ScenarioError as exc:
                exc.file = exc.file or str(file)
                raise
            out[card.name] = card
    return out
