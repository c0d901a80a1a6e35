"""Bounds on what a YAML text may expand to, checked before anything builds or walks it.

A scenario is small, but YAML aliases let a few hundred bytes stand for
billions of nodes ("billion laughs"), and deeply nested flow collections make
PyYAML's scanner quadratic. So every scenario text passes three checks, each
linear in the text and each before PyYAML composes a single node:

1. bytes: the text itself is at most `max_bytes`;
2. depth, raw: no more than `max_depth` unclosed `[` / `{` at any point
   (counted on the characters, so PyYAML's scanner never sees deep nesting);
3. expansion: walking PyYAML's event stream (an iterative parser, no node
   tree), the number of nodes, the nesting depth and the scalar bytes the
   document stands for *with every alias expanded* stay under the limits.
   An alias to a collection still open (a recursive structure) is refused.

Only then does the line-numbering loader in `yamlnodes` build the value.
Imports only the standard library and PyYAML: the engine stays self-contained.
"""
from __future__ import annotations

from dataclasses import dataclass

import yaml

from judgebook.engine.errors import ScenarioError


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 256 * 1024          # of the text as written
    max_depth: int = 64                  # nesting, aliases expanded
    max_nodes: int = 100_000             # scalars + collections, aliases expanded
    max_scalar_bytes: int = 4 * 1024 * 1024   # scalar text, aliases expanded


DEFAULT = Limits()
# libyaml's parser when PyYAML was built with it: the same events, several times faster.
_EVENTS_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class _Frame:
    anchor: str | None
    nodes: int = 1
    size: int = 0
    depth: int = 1          # deepest nesting below and including this collection


def check_bounds(text: str, file: str | None = None, limits: Limits = DEFAULT) -> None:
    """Raise ScenarioError (with the line) if `text` is or expands to more than `limits` allow."""
    size = len(text.encode("utf-8", errors="replace"))
    if size > limits.max_bytes:
        raise ScenarioError(f"the YAML text is too large: {size} bytes, at most {limits.max_bytes}",
                            file=file)
    flow = _check_raw_depth(text, file, limits)
    if not _expands_to_itself(text, flow, limits):
        _check_expansion(text, file, limits)


def _check_raw_depth(text: str, file: str | None, limits: Limits) -> int:
    """The deepest flow nesting ([ and {) written; raises past the limit."""
    # Quotes and comments are not tracked on purpose: brackets inside strings
    # only make this stricter, and no honest scenario has dozens unclosed.
    depth, deepest, line = 0, 0, 1
    for ch in text:
        if ch == "\n":
            line += 1
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if depth > limits.max_depth:
                raise ScenarioError(f"the YAML is nested too deeply (more than {limits.max_depth} "
                                    "levels of [ or {)", line=line, file=file)
        elif ch in "]}" and depth:
            depth -= 1
    return deepest


def _expands_to_itself(text: str, flow: int, limits: Limits) -> bool:
    """A small text with no alias (no `*` at all) stands for what is written, so the limits can be read off the
    text and the event walk is not needed (a card library loads hundreds of files: bench/cards.py). Bounds:
    every node takes at least half a character (a key and its empty value); scalar text is at most the text;
    a line nests no deeper than its indentation plus its "- ", "? " and ": " plus the flow nesting."""
    if "*" in text or 2 * len(text) > limits.max_nodes or len(text) > limits.max_scalar_bytes:
        return False
    block = 0
    for line in text.splitlines():
        body = line.lstrip(" ")
        block = max(block, len(line) - len(body) + body.count("- ") + body.count("? ") + body.count(": ") + 1)
    return block + flow <= limits.max_depth


def _check_expansion(text: str, file: str | None, limits: Limits) -> None:
    done: dict[str, tuple[int, int, int]] = {}      # anchor -> (nodes, scalar bytes, depth)
    open_anchors: set[str] = set()
    stack: list[_Frame] = []
    total_nodes = total_size = 0

    def count(nodes: int, size: int, depth: int, event: yaml.Event) -> None:
        """A node (or an alias standing for `nodes`) inside the innermost open collection."""
        nonlocal total_nodes, total_size
        total_nodes += nodes
        total_size += size
        line = event.start_mark.line + 1 if event.start_mark is not None else None
        if total_nodes > limits.max_nodes:
            raise ScenarioError(f"the YAML expands to more than {limits.max_nodes} nodes "
                                "with its aliases expanded", line=line, file=file)
        if total_size > limits.max_scalar_bytes:
            raise ScenarioError(f"the YAML expands to more than {limits.max_scalar_bytes} bytes of "
                                "text with its aliases expanded", line=line, file=file)
        if len(stack) + depth > limits.max_depth:
            raise ScenarioError(f"the YAML is nested more than {limits.max_depth} levels deep "
                                "with its aliases expanded", line=line, file=file)
        if stack:
            top = stack[-1]
            top.nodes += nodes
            top.size += size
            top.depth = max(top.depth, depth + 1)

    try:
        for event in yaml.parse(text, Loader=_EVENTS_LOADER):
            if isinstance(event, yaml.ScalarEvent):
                value = event.value or ""
                count(1, len(value), 0, event)
                if event.anchor:
                    done[event.anchor] = (1, len(value), 0)
            elif isinstance(event, yaml.CollectionStartEvent):
                count(0, 0, 1, event)           # checks the depth; the node is counted at its end
                stack.append(_Frame(event.anchor))
                if event.anchor:
                    open_anchors.add(event.anchor)
            elif isinstance(event, yaml.CollectionEndEvent):
                frame = stack.pop()
                total_nodes += 1
                if stack:
                    parent = stack[-1]
                    parent.nodes += frame.nodes
                    parent.size += frame.size
                    parent.depth = max(parent.depth, frame.depth + 1)
                if frame.anchor:
                    open_anchors.discard(frame.anchor)
                    done[frame.anchor] = (frame.nodes, frame.size, frame.depth)
            elif isinstance(event, yaml.AliasEvent):
                if event.anchor in open_anchors:
                    raise ScenarioError(f"the YAML alias *{event.anchor} refers to a collection that "
                                        "contains it (a recursive structure)",
                                        line=event.start_mark.line + 1 if event.start_mark else None, file=file)
                if event.anchor in done:   # an undefined alias: the loader reports it with its line
                    count(*done[event.anchor], event)
    except yaml.YAMLError:
        return      # malformed YAML: the loader reports it with its line
