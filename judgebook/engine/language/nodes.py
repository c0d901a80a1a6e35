"""Reading YAML nodes of the card language: every key checked, every error with field and line."""

from __future__ import annotations

from typing import Any, NoReturn

from judgebook.engine.errors import ScenarioError
from judgebook.engine.yamlnodes import line_of


class At:
    """Where a node is: its dotted field path and line, for errors."""

    __slots__ = ("path", "line")

    def __init__(self, path: str, line: int | None) -> None:
        self.path = path
        self.line = line

    def key(self, node: Any, key: str | int) -> At:
        return At(f"{self.path}.{key}" if isinstance(key, str) else f"{self.path}[{key}]", _line(node, key, self.line))

    def fail(self, message: str) -> NoReturn:
        raise ScenarioError(message, field=self.path, line=self.line)


def _line(node: Any, key: str | int, default: int | None) -> int | None:
    try:
        found = line_of(node, key)
    except Exception:  # a plain dict/list (built in code, not loaded) has no lines
        return default
    return int(found) if found else default


def node_line(node: Any, default: int | None) -> int | None:
    line = getattr(node, "line", None)
    return int(line) if line else default


def check_keys(node: Any, allowed: tuple[str, ...], at: At) -> dict[str, Any]:
    if not isinstance(node, dict):
        at.fail(f"expected a mapping with keys from: {', '.join(allowed)}")
    for key in node:
        if key not in allowed:
            at.key(node, str(key)).fail(f"unknown key {key!r} (allowed here: {', '.join(allowed)})")
    return node


def want_int(node: dict[str, Any], key: str, at: At, default: int | None = None) -> int | None:
    if key not in node or node[key] is None:
        return default
    value = node[key]
    if isinstance(value, bool) or not isinstance(value, int):
        at.key(node, key).fail("expected a whole number")
    return int(value)


def want_bool(node: dict[str, Any], key: str, at: At, default: bool = False) -> bool:
    if key not in node:
        return default
    value = node[key]
    if not isinstance(value, bool):
        at.key(node, key).fail("expected true or false")
    return value


def want_str(
    node: dict[str, Any], key: str, at: At, default: str | None = None, choices: tuple[str, ...] | None = None
) -> str | None:
    if key not in node or node[key] is None:
        return default
    value = node[key]
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        at.key(node, key).fail("expected a word")
    text = str(value)
    if choices is not None and text not in choices:
        at.key(node, key).fail(f"expected one of: {', '.join(choices)} (got {text!r})")
    return text


def want_list(node: dict[str, Any], key: str, at: At) -> list[Any]:
    value = node.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        at.key(node, key).fail("expected a list")
    return value


def single_key(node: Any, at: At, known: tuple[str, ...], extra: tuple[str, ...] = ()) -> tuple[str, Any]:
    """A construct spelled as a one-key mapping (`{gain_credits: 2}`) or a bare word (`end_the_run`),
    possibly with modifier keys beside it (`extra`)."""
    if isinstance(node, str):
        if node not in known:
            at.fail(f"unknown construct {node!r} (known: {', '.join(sorted(known))})")
        return node, None
    if not isinstance(node, dict) or not node:
        at.fail(f"expected one of: {', '.join(sorted(known))}")
    heads = [k for k in node if k in known]
    if len(heads) != 1:
        others = [k for k in node if k not in extra]
        at.fail(
            f"expected exactly one of the known constructs, got {others or list(node)} "
            f"(known: {', '.join(sorted(known))})"
        )
    head = heads[0]
    for key in node:
        if key != head and key not in extra:
            at.key(node, str(key)).fail(f"unknown key {key!r} beside {head!r} (allowed: {', '.join(extra)})")
    return head, node[head]
