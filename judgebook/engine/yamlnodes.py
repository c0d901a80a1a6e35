"""YAML loading that remembers line numbers, so errors can name a field's line.

Mappings load as `LocDict` and sequences as `LocList`: ordinary dict/list
subclasses with the 1-based line of the node and of each key/item.
"""
from __future__ import annotations

from typing import Any

import yaml

from judgebook.engine.errors import ScenarioError
from judgebook.engine.safe_yaml import DEFAULT, Limits, check_bounds


class LocDict(dict[Any, Any]):
    line: int = 0
    key_lines: dict[Any, int]

    def line_of(self, key: str) -> int:
        return int(getattr(self, "key_lines", {}).get(key, self.line))


class LocList(list[Any]):
    line: int = 0
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        lines = getattr(self, "item_lines", [])
        return lines[index] if index < len(lines) else self.line


# libyaml's loader when PyYAML was built with it: the same nodes and marks, a third of the time (loading the
# card definitions of a whole pool is mostly YAML scanning; bench/cards.py).
if yaml.__with_libyaml__:

    class _Loader(yaml.CSafeLoader):
        pass

else:  # pragma: no cover - a PyYAML built without libyaml

    class _Loader(yaml.SafeLoader):  # type: ignore[no-redef]
        pass


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LocDict:
    loader.flatten_mapping(node)
    out = LocDict()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)):
            raise ScenarioError("mapping keys must be plain words", line=key_node.start_mark.line + 1)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LocList:
    out = LocList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_MAP, _SEQ = yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG
_STR, _INT, _NULL = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:null"


def _build(loader: _Loader, node: yaml.Node) -> Any:
    """The value of a composed node with no alias or merge key: what `_mapping`/`_sequence` and PyYAML's safe
    constructors give, built directly (a card library is hundreds of small files: bench/cards.py). Scalars
    other than plain strings, whole numbers and null go to PyYAML's constructors."""
    if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
        out = LocDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = _build(loader, key_node)
            if not isinstance(key, (str, int, float, bool)):
                raise ScenarioError("mapping keys must be plain words", line=key_node.start_mark.line + 1)
            out[key] = _build(loader, value_node)
            out.key_lines[key] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
        seq = LocList(_build(loader, child) for child in node.value)
        seq.line = node.start_mark.line + 1
        seq.item_lines = [child.start_mark.line + 1 for child in node.value]
        return seq
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STR:
            return node.value
        if node.tag == _INT and node.value.isdigit():
            return int(node.value)
        if node.tag == _NULL:
            return None
    return loader.construct_object(node, deep=True)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def load_text(text: str, file: str | None = None, limits: Limits = DEFAULT) -> Any:
    """The one way a scenario (or card) text becomes data: bounded first, then loaded.

    The web upload, `judgebook replay` and anything else that reads a scenario
    come through here, so none of them can be handed a billion laughs.
    """
    check_bounds(text, file, limits)
    try:
        if "*" in text or "<<" in text:      # aliases and merge keys: PyYAML's own construction
            return yaml.load(text, Loader=_Loader)  # noqa: S506 - SafeLoader subclass
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            return None if node is None else _build(loader, node)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise ScenarioError(f"not valid YAML: {exc.problem or exc}", line=line, file=file) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}", file=file) from None


def line_of(container: Any, key: Any) -> int | None:
    if isinstance(container, LocDict):
        return container.line_of(key)
    if isinstance(container, LocList) and isinstance(key, int):
        return container.line_of(key)
    return getattr(container, "line", None)
