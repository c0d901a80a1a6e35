"""Card definitions in the ability language (LANGUAGE.md §2–§6), parsed into dataclasses.

Parsing validates every key, so a typo in a card file is an error naming the
field and line rather than an ability that silently does nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from judgebook.engine.errors import ScenarioError
from judgebook.engine.yamlnodes import LocDict, LocList, line_of

SIDES = ("corp", "runner")
CORP_TYPES = ("agenda", "asset", "upgrade", "ice", "operation", "identity")
RUNNER_TYPES = ("event", "program", "hardware", "resource", "identity")

EVENTS = (
    "turn_begins", "turn_ends", "action_phase_ends", "run_begins", "approach_ice",
    "encounter_ice", "pass_ice", "approach_server", "successful_run", "breach", "access",
    "run_ends", "run_unsuccessful", "installed", "rezzed", "played", "trashed", "scored",
    "stolen", "damage", "tags_taken", "drawn", "subroutine_broken", "trace", "fully_broken",
    "ability_used", "advanced", "encounter_ends", "clicks_spent",
    "would_damage", "would_tags", "would_trash", "would_end_run", "would_resolve_subroutine",
)
CONDITION_KEYS = (
    "player", "card", "ice", "server", "type", "damage_type", "first_this_turn", "first_this_run",
    "installed",
    "runner_tagged", "during_run", "run_server", "corp_credits_at_least",
    "runner_credits_at_least", "by", "ice_subtype", "trash_cost", "ability", "stole_this_run",
    "runner_link_at_least", "next_ice", "fully_broken",
)
# instruction name -> whether it takes an argument
INSTRUCTIONS = {
    "gain_credits": True, "lose_credits": True, "gain_clicks": True, "lose_clicks": True,
    "draw": True, "damage": True, "give_tags": True, "remove_tags": True,
    "end_the_run": False, "bypass": False, "jack_out": False, "trash": True, "rez": True,
    "derez": True, "add_counters": True, "remove_counters": True, "bad_publicity": True,
    "install": True, "access": True, "prevent": True, "strength": True, "lasting": True,
    "trace": True, "pay": True, "if": True, "win": True, "choose": True, "run": True,
    "add_to_score": True, "play": True, "increase": True, "all": True, "encounter": True,
    "add_to_hand": True, "resolve_subroutine": True, "breach": True, "add_to_deck": True,
}
PER = ("unused_mu", "accesses_this_run", "tags", "cards_in_grip", "subroutines", "x",
       "advancement", "power", "virus", "agenda", "credit")
INSTRUCTION_MODIFIERS = ("player", "if_able", "then", "otherwise", "by", "optional",
                         "target_filter", "pay_cost", "note", "server", "position", "rez", "discount")
MODIFIER_KINDS = ("cannot", "additional_cost", "prevent", "strength", "hand_size", "link")
CANNOT_WHAT = ("take_tags", "steal", "jack_out", "run", "rez", "score", "trash", "install",
               "play", "access", "draw", "spend_credits")
PREVENT_WHAT = ("damage", "tags", "trash", "end_run")
DURATIONS = ("run", "turn", "encounter")


@dataclass(frozen=True)
class Cost:
    clicks: int = 0
    credits: int = 0
    x: bool = False                      # credits are X, chosen by the payer
    trash_self: bool = False
    tags: int = 0
    counters: tuple[tuple[str, int], ...] = ()
    damage: tuple[tuple[str, int], ...] = ()
    per_subroutine: int = 0              # credits per subroutine of the encountered ice

    def plus(self, other: Cost) -> Cost:
        return Cost(self.clicks + other.clicks, self.credits + other.credits,
                    self.x or other.x, self.trash_self or other.trash_self,
                    self.tags + other.tags, self.counters + other.counters,
                    self.damage + other.damage, self.per_subroutine + other.per_subroutine)

    def describe(self, x: int = 0) -> str:
        parts = []
        if self.clicks:
            parts.append("[click]" * self.clicks)
        if self.credits or self.x or not any((self.clicks, self.trash_self, self.tags,
                                               self.counters, self.damage)):
            parts.append(f"{self.credits + (x if self.x else 0)}[c]")
        if self.trash_self:
            parts.append("[trash]")
        if self.tags:
            parts.append(f"take {self.tags} tag(s)")
        parts += [f"{n} {kind} counter(s)" for kind, n in self.counters]
        parts += [f"{n} {kind} damage" for kind, n in self.damage]
        return ", ".join(parts)


@dataclass(frozen=True)
class Instr:
    """One instruction: `op` with its argument and modifiers (LANGUAGE.md §5)."""
    op: str
    arg: Any = None
    line: int | None = None
    field: str = ""
    player: str | None = None
    by: str | None = None
    if_able: bool = False
    optional: bool = False
    pay_cost: bool = False
    cost: Cost | None = None
    then: tuple[Instr, ...] = ()
    otherwise: tuple[Instr, ...] = ()
    target_filter: tuple[tuple[str, Any], ...] = ()
    modifier: Modifier | None = None
    duration: str | None = None
    options: tuple[tuple[Instr, ...], ...] = ()   # `choose`: one effects list per option
    server: str | None = None            # `install`: destination server (`new`: a new remote)
    position: str | None = None          # `install`: `inward_of_self` (default: outermost)
    rez: bool = False                    # `install`: and rez it, ignoring all costs
    discount: int = 0                    # `install`: lower the install cost by this much
    ability: Ability | None = None     # `lasting`: a delayed conditional ability


@dataclass(frozen=True)
class Modifier:
    """A static effect: cannot / additional cost / prevention / value modifier (§6)."""
    kind: str
    what: str | None = None
    cost: Cost | None = None
    amount: int | None = None            # None with prevent means "all"
    damage_type: str | None = None
    server: str | None = None
    card: str | None = None
    target: str | None = None
    first_this_turn: bool = False        # additional_cost: only the first time each turn
    exempt: str | None = None            # cannot: every card but this one (`self`: the source)
    line: int | None = None


@dataclass(frozen=True)
class Break:
    subtype: str | None
    count: int | None                    # None: all subroutines


@dataclass(frozen=True)
class Ability:
    id: str
    kind: str                            # conditional | paid | static | play
    text: str = ""
    trigger: str | None = None
    condition: tuple[tuple[str, Any], ...] = ()
    cost: Cost | None = None
    effects: tuple[Instr, ...] = ()
    optional: bool = False
    interrupt: bool = False
    once_per_turn: bool = False
    access: bool = False
    active_in: str | None = None
    brk: Break | None = None
    static: Modifier | None = None
    persistent: bool = False
    line: int | None = None

    @property
    def is_action(self) -> bool:
        return self.kind == "paid" and self.cost is not None and self.cost.clicks > 0


@dataclass(frozen=True)
class Subroutine:
    text: str
    effects: tuple[Instr, ...]


@dataclass(frozen=True)
class CardDef:
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
    spend_hosted: str | None = None      # hosted credits spendable: run | icebreakers | any
    install_faceup: bool = False         # a Corp card installed faceup (active while installed)
    text: str = ""
    abilities: tuple[Ability, ...] = ()
    subroutines: tuple[Subroutine, ...] = ()
    line: int | None = None
    file: str | None = None

    def ability(self, ability_id: str) -> Ability | None:
        return next((a for a in self.abilities if a.id == ability_id), None)


# --- parsing helpers -------------------------------------------------------

def _fail(msg: str, path: str, container: Any, key: Any = None) -> ScenarioError:
    return ScenarioError(msg, field=path, line=line_of(container, key) if key is not None
                         else getattr(container, "line", None))


def check_keys(mapping: Any, allowed: tuple[str, ...], path: str) -> None:
    if not isinstance(mapping, dict):
        raise ScenarioError(f"expected a mapping, found {type(mapping).__name__}",
                            field=path, line=getattr(mapping, "line", None))
    for key in mapping:
        if key not in allowed:
            raise _fail(f"unknown key {key!r} (allowed: {', '.join(allowed)})",
                        f"{path}.{key}", mapping, key)


def want_int(mapping: dict, key: str, path: str, default: Any = None, allow_x: bool = False) -> Any:
    value = mapping.get(key, default)
    if value is default:
        return value
    if allow_x and value == "X":
        return "X"
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"expected a whole number, found {value!r}", f"{path}.{key}", mapping, key)
    return value


def want_bool(mapping: dict, key: str, path: str, default: bool = False) -> bool:
    value = mapping.get(key, default)
    if not isinstance(value, bool):
        raise _fail(f"expected true or false, found {value!r}", f"{path}.{key}", mapping, key)
    return value


def want_str(mapping: dict, key: str, path: str, default: Any = None,
             choices: tuple[str, ...] | None = None) -> Any:
    value = mapping.get(key, default)
    if value is default:
        return value
    if not isinstance(value, str):
        value = str(value)
    if choices and value not in choices:
        raise _fail(f"expected one of {', '.join(choices)}, found {value!r}",
                    f"{path}.{key}", mapping, key)
    return value


def parse_cost(node: Any, path: str) -> Cost:
    check_keys(node, ("clicks", "credits", "trash", "tags", "counters", "damage",
                      "credits_per_subroutine"), path)
    credits = want_int(node, "credits", path, 0, allow_x=True)
    trash = node.get("trash")
    if trash not in (None, "self", True):
        raise _fail("only `trash: self` is supported", f"{path}.trash", node, "trash")
    counters = node.get("counters", {}) or {}
    damage = node.get("damage", {}) or {}
    for key, sub in (("counters", counters), ("damage", damage)):
        if not isinstance(sub, dict) or not all(isinstance(v, int) for v in sub.values()):
            raise _fail("expected a mapping of kind: number", f"{path}.{key}", node, key)
    return Cost(clicks=want_int(node, "clicks", path, 0),
                credits=0 if credits == "X" else credits, x=credits == "X",
                trash_self=trash is not None, tags=want_int(node, "tags", path, 0),
                counters=tuple(counters.items()), damage=tuple(damage.items()),
                per_subroutine=want_int(node, "credits_per_subroutine", path, 0))


def parse_modifier(node: Any, path: str) -> Modifier:
    if not isinstance(node, dict) or len(node) != 1 and not ("strength" in node and "target" in node):
        raise ScenarioError("a static modifier is a one-key mapping "
                            f"({', '.join(MODIFIER_KINDS)})", field=path,
                            line=getattr(node, "line", None))
    kind = next(k for k in node if k != "target")
    if kind not in MODIFIER_KINDS:
        raise _fail(f"unknown modifier {kind!r} (known: {', '.join(MODIFIER_KINDS)})",
                    f"{path}.{kind}", node, kind)
    body = node[kind]
    sub = f"{path}.{kind}"
    line = line_of(node, kind)
    if kind in ("strength", "hand_size", "link"):
        if isinstance(body, bool) or not isinstance(body, int):
            raise _fail("expected a whole number", sub, node, kind)
        return Modifier(kind, amount=body, target=want_str(node, "target", path, "self"), line=line)
    if kind == "cannot":
        check_keys(body, ("what", "server", "card", "player", "except"), sub)
        return Modifier(kind, what=want_str(body, "what", sub, None, CANNOT_WHAT),
                        server=want_str(body, "server", sub), card=want_str(body, "card", sub),
                        target=want_str(body, "player", sub, None, SIDES),
                        exempt=want_str(body, "except", sub), line=line)
    if kind == "additional_cost":
        check_keys(body, ("to", "cost", "card", "server", "first_this_turn"), sub)
        if "cost" not in body:
            raise _fail("additional_cost needs a `cost`", sub, node, kind)
        return Modifier(kind, what=want_str(body, "to", sub, None, CANNOT_WHAT),
                        cost=parse_cost(body["cost"], f"{sub}.cost"),
                        card=want_str(body, "card", sub, "any"), server=want_str(body, "server", sub),
                        first_this_turn=want_bool(body, "first_this_turn", sub), line=line)
    check_keys(body, ("what", "amount", "damage_type"), sub)
    amount = body.get("amount", "all")
    if amount != "all" and (isinstance(amount, bool) or not isinstance(amount, int)):
        raise _fail("amount is a number or `all`", f"{sub}.amount", body, "amount")
    return Modifier(kind, what=want_str(body, "what", sub, None, PREVENT_WHAT),
                    amount=None if amount == "all" else amount,
                    damage_type=want_str(body, "damage_type", sub, None, ("net", "meat", "core")),
                    line=line)


def parse_effects(node: Any, path: str) -> tuple[Instr, ...]:
    if node is None:
        return ()
    if not isinstance(node, list):
        node_list = LocList([node])
        node_list.line = getattr(node, "line", 0)
        node_list.item_lines = [node_list.line]
        node = node_list
    return tuple(parse_instr(item, f"{path}[{i}]", line_of(node, i)) for i, item in enumerate(node))


def parse_instr(node: Any, path: str, line: int | None) -> Instr:
    if isinstance(node, str):
        op, arg, mods = node, None, {}
    elif isinstance(node, dict):
        ops = [k for k in node if k in INSTRUCTIONS]
        if "install" in ops and "rez" in ops:
            ops.remove("rez")            # `rez: true` on an install is "install and rez"
        if len(ops) != 1:
            raise ScenarioError(
                f"an instruction has exactly one of: {', '.join(INSTRUCTIONS)}; found "
                f"{', '.join(map(str, node)) or 'nothing'}", field=path, line=line)
        op = ops[0]
        arg = node[op]
        mods = {k: v for k, v in node.items() if k != op}
        if op == "install" and "rez" in mods and not isinstance(mods["rez"], bool):
            raise ScenarioError("on install, rez is true or false", field=f"{path}.rez", line=line)
        for key in mods:
            if key not in INSTRUCTION_MODIFIERS + (("duration",) if op == "lasting" else ()):
                raise _fail(f"unknown key {key!r} for instruction {op}", f"{path}.{key}", node, key)
    else:
        raise ScenarioError(f"expected an instruction, found {node!r}", field=path, line=line)
    if op not in INSTRUCTIONS:
        raise ScenarioError(f"unknown instruction {op!r} (known: {', '.join(INSTRUCTIONS)})",
                            field=path, line=line)
    if INSTRUCTIONS[op] and arg is None and op not in ("trash", "rez", "derez"):
        raise ScenarioError(f"instruction {op} needs a value", field=path, line=line)
    base = Instr(op=op, arg=arg, line=line, field=path,
                 player=want_str(mods, "player", path, None, SIDES + ("self", "opponent")),
                 by=want_str(mods, "by", path, None, SIDES + ("self", "opponent")),
                 if_able=want_bool(mods, "if_able", path), optional=want_bool(mods, "optional", path),
                 pay_cost=want_bool(mods, "pay_cost", path),
                 then=parse_effects(mods.get("then"), f"{path}.then"),
                 otherwise=parse_effects(mods.get("otherwise"), f"{path}.otherwise"),
                 target_filter=_target_filter(mods, path),
                 server=want_str(mods, "server", path),
                 position=want_str(mods, "position", path, None, ("inward_of_self", "outermost")),
                 rez=want_bool(mods, "rez", path), discount=want_int(mods, "discount", path, 0))
    return _specialise(base, node, path)


def _target_filter(mods: dict, path: str) -> tuple:
    value = mods.get("target_filter") or {}
    check_keys(value, ("type", "side", "subtype", "installed", "zone", "name"), f"{path}.target_filter")
    return tuple(value.items())


def is_amount(value: Any) -> bool:
    """A whole number, or a quantity computed from the state: {per: unused_mu}."""
    if isinstance(value, dict):
        return set(value) <= {"per", "times"} and value.get("per") in PER
    return isinstance(value, int) and not isinstance(value, bool)


def _specialise(ins: Instr, node: Any, path: str) -> Instr:
    """Parse the argument of instructions whose argument has structure."""
    sub = f"{path}.{ins.op}"
    arg = ins.arg
    if ins.op == "pay":
        return replace(ins, cost=parse_cost(arg, sub))
    if ins.op == "choose":
        if not isinstance(arg, list) or len(arg) < 2:
            raise ScenarioError("choose is a list of at least 2 options, each an effects list",
                                field=sub, line=ins.line)
        return replace(ins, options=tuple(parse_effects(opt, f"{sub}[{i}]") for i, opt in enumerate(arg)))
    if ins.op == "all":
        if not isinstance(arg, list) or len(arg) < 2:
            raise ScenarioError("all is a list of at least 2 instructions resolved as one", field=sub,
                                line=ins.line)
        return replace(ins, options=(parse_effects(arg, sub),))
    if ins.op == "increase":
        check_keys(arg, ("what", "amount", "damage_type"), sub)
        want_str(arg, "what", sub, None, ("damage", "tags"))
        want_int(arg, "amount", sub, 1)
        return ins
    if ins.op in ("prevent",):
        check_keys(arg, ("what", "amount", "damage_type"), sub)
        return replace(ins, modifier=parse_modifier(LocDict(prevent=arg), path))
    if ins.op == "lasting":
        check_keys(arg, ("duration", "static", "ability"), sub)
        if ("static" in arg) == ("ability" in arg):
            raise _fail("lasting needs exactly one of `static` or `ability`", sub, node, ins.op)
        duration = want_str(arg, "duration", sub, "turn", DURATIONS)
        if "ability" in arg:
            ability = parse_ability(arg["ability"], f"{sub}.ability", 0, "")
            if ability.kind != "conditional":
                raise _fail("a delayed ability needs a `trigger`", f"{sub}.ability", arg, "ability")
            return replace(ins, duration=duration, ability=ability)
        return replace(ins, duration=duration, modifier=parse_modifier(arg.get("static"), f"{sub}.static"))
    if ins.op == "resolve_subroutine":
        check_keys(arg, ("ice", "subroutine"), sub)
        want_str(arg, "ice", sub, None, ("other_rezzed", "target"))
        return ins
    if ins.op == "damage":
        check_keys(arg, ("type", "amount"), sub)
        want_str(arg, "type", sub, None, ("net", "meat", "core"))
        if not is_amount(arg.get("amount", 1)):
            raise _fail(f"amount is a whole number or {{per: {'|'.join(PER)}}}", f"{sub}.amount", arg, "amount")
    elif ins.op == "trace":
        check_keys(arg, ("base", "success", "failure"), sub)
        want_int(arg, "base", sub, 0)
        return replace(ins, then=parse_effects(arg.get("success"), f"{sub}.success"),
                       otherwise=parse_effects(arg.get("failure"), f"{sub}.failure"))
    elif ins.op in ("add_counters", "remove_counters"):
        check_keys(arg, ("type", "count", "card"), sub)
        want_int(arg, "count", sub, 1, allow_x=True)
        want_str(arg, "card", sub)
    elif ins.op == "if":
        check_keys(arg, CONDITION_KEYS, sub)
    elif ins.op == "win":
        if arg not in SIDES:
            raise ScenarioError("win: corp or runner", field=sub, line=ins.line)
    elif ins.op in ("gain_credits", "lose_credits", "draw", "give_tags"):
        if not is_amount(arg) and not (ins.op == "lose_credits" and arg == "all"):
            raise ScenarioError(f"expected a whole number or {{per: {'|'.join(PER)}}}, found {arg!r}",
                                field=sub, line=ins.line)
    elif ins.op in ("gain_clicks", "lose_clicks", "remove_tags", "bad_publicity", "access", "strength"):
        if isinstance(arg, bool) or not isinstance(arg, int):
            raise ScenarioError(f"expected a whole number, found {arg!r}", field=sub, line=ins.line)
    elif ins.op == "add_to_deck":
        check_keys(arg, ("card", "position"), sub)
        want_str(arg, "position", sub, "top", ("top", "bottom"))
        want_str(arg, "card", sub)
    elif ins.op == "add_to_score" and arg not in SIDES:
        raise ScenarioError("add_to_score: corp or runner", field=sub, line=ins.line)
    elif ins.op == "trash" and isinstance(arg, dict):
        check_keys(arg, ("all",), sub)
    return ins


ABILITY_KEYS = ("id", "text", "kind", "trigger", "condition", "cost", "effects", "optional",
                "interrupt", "once_per_turn", "access", "active_in", "break", "static", "persistent")


def parse_ability(node: Any, path: str, index: int, card_type: str) -> Ability:
    check_keys(node, ABILITY_KEYS, path)
    trigger = want_str(node, "trigger", path, None, EVENTS)
    cost = parse_cost(node["cost"], f"{path}.cost") if "cost" in node else None
    static = parse_modifier(node["static"], f"{path}.static") if "static" in node else None
    if trigger:
        default_kind = "conditional"
    elif static:
        default_kind = "static"
    elif cost is not None or "break" in node:
        default_kind = "paid"
    elif card_type in ("event", "operation"):
        default_kind = "play"
    else:
        raise _fail("an ability needs a trigger, a cost, a break or a static modifier",
                    path, node)
    kind = want_str(node, "kind", path, default_kind, ("conditional", "paid", "static", "play"))
    brk = None
    if "break" in node:
        body = node["break"]
        check_keys(body, ("subtype", "count"), f"{path}.break")
        count = body.get("count", 1)
        if count != "all" and (isinstance(count, bool) or not isinstance(count, int)):
            raise _fail("count is a number or `all`", f"{path}.break.count", body, "count")
        brk = Break(want_str(body, "subtype", f"{path}.break"), None if count == "all" else count)
    condition = node.get("condition") or {}
    check_keys(condition, CONDITION_KEYS, f"{path}.condition")
    return Ability(
        id=str(node.get("id", f"a{index + 1}")), kind=kind, text=str(node.get("text", "")),
        trigger=trigger, condition=tuple(condition.items()), cost=cost,
        effects=parse_effects(node.get("effects"), f"{path}.effects"),
        optional=want_bool(node, "optional", path), interrupt=want_bool(node, "interrupt", path),
        once_per_turn=want_bool(node, "once_per_turn", path), access=want_bool(node, "access", path),
        active_in=want_str(node, "active_in", path, None,
                           ("hand", "discard", "deck", "score", "accessed", "installed", "current")),
        brk=brk, static=static, persistent=want_bool(node, "persistent", path),
        line=getattr(node, "line", None))


CARD_KEYS = ("name", "side", "type", "subtypes", "cost", "strength", "trash_cost",
             "advancement_requirement", "agenda_points", "memory", "recurring", "link", "unique",
             "text", "abilities", "subroutines", "source", "notes", "spend_hosted", "install_faceup")


def parse_card(node: Any, path: str, file: str | None = None) -> CardDef:
    check_keys(node, CARD_KEYS, path)
    for key in ("name", "side", "type"):
        if key not in node:
            raise _fail(f"a card needs `{key}`", path, node)
    side = want_str(node, "side", path, None, SIDES)
    ctype = want_str(node, "type", path, None, CORP_TYPES if side == "corp" else RUNNER_TYPES)
    subtypes = node.get("subtypes") or []
    if not isinstance(subtypes, list):
        raise _fail("subtypes is a list", f"{path}.subtypes", node, "subtypes")
    abilities = node.get("abilities") or []
    subs = node.get("subroutines") or []
    if not isinstance(abilities, list) or not isinstance(subs, list):
        raise _fail("abilities and subroutines are lists", path, node)
    parsed = tuple(parse_ability(a, f"{path}.abilities[{i}]", i, ctype) for i, a in enumerate(abilities))
    ids = [a.id for a in parsed]
    if len(set(ids)) != len(ids):
        raise _fail(f"ability ids repeat: {ids}", f"{path}.abilities", node, "abilities")
    return CardDef(
        name=str(node["name"]), side=side, type=ctype, subtypes=tuple(str(s) for s in subtypes),
        cost=want_int(node, "cost", path), strength=want_int(node, "strength", path),
        trash_cost=want_int(node, "trash_cost", path),
        advancement_requirement=want_int(node, "advancement_requirement", path),
        agenda_points=want_int(node, "agenda_points", path, 0), memory=want_int(node, "memory", path, 0),
        recurring=want_int(node, "recurring", path, 0), link=want_int(node, "link", path, 0),
        unique=want_bool(node, "unique", path), text=str(node.get("text", "")),
        spend_hosted=want_str(node, "spend_hosted", path, None, ("run", "icebreakers", "any")),
        install_faceup=want_bool(node, "install_faceup", path),
        abilities=parsed, subroutines=tuple(_parse_sub(s, f"{path}.subroutines[{i}]", line_of(subs, i))
                                            for i, s in enumerate(subs)),
        line=getattr(node, "line", None), file=file)


def _parse_sub(node: Any, path: str, line: int | None) -> Subroutine:
    if isinstance(node, dict) and ("effects" in node or "text" in node):
        check_keys(node, ("text", "effects"), path)
        return Subroutine(str(node.get("text", "")), parse_effects(node.get("effects"), f"{path}.effects"))
    effects = parse_effects(node, path)
    return Subroutine("", effects)
