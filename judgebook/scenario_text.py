"""A scenario's text as judgebook writes it back: a decision in the scenario spelling, and the file with
its `decisions:` (and `expect:`) replaced, everything else kept byte for byte.

`judgebook play` saves sessions with it and the web's judge's table carries its sessions in it; it lives
below both (the web and the CLI never import each other). It imports YAML and the engine lazily: the CLI
loads this module when it starts.
"""
from __future__ import annotations

from typing import Any


def read_decision(node: dict[str, Any]) -> Any:
    """A decision written as in a scenario file (a mapping), read by the scenario parser: its checks and its
    errors (ScenarioError naming the key)."""
    import yaml

    from judgebook.engine.driver.session import as_decision
    from judgebook.engine.scenario import board
    from judgebook.engine.yamlnodes import load_text

    parsed = board.read_decisions(load_text(yaml.safe_dump([node]), "<input>"))
    return as_decision(parsed[0])


def plain(value: Any) -> Any:
    """A decision's value as plain YAML data (tuples and the engine's mappings become lists and dicts)."""
    from collections.abc import Mapping

    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def flow(decision: Any) -> str:
    """A decision (an engine Decision, or a scenario's decision as plain data) in the scenario spelling, on
    one line: {action: run, server: HQ}."""
    import yaml

    data = decision.as_yaml() if hasattr(decision, "as_yaml") else decision
    return str(yaml.safe_dump(plain(data), default_flow_style=True, sort_keys=False,
                              allow_unicode=True, width=10**6)).strip()


PLAY_HEAD = ("# the decisions taken in `judgebook play`; the input's `expect` block was left out, as these\n"
             "# decisions may lead elsewhere\n")


def decisions_block(decisions: list[Any], head: str = PLAY_HEAD) -> str:
    if not decisions:
        return head + "decisions: []\n"
    return head + "decisions:\n" + "".join(f"  - {flow(d)}\n" for d in decisions)


def with_decisions(text: str, decisions: list[Any], head: str = PLAY_HEAD, expect: str | None = "") -> str:
    """The scenario text with its top-level `decisions:` replaced and `expect:` replaced by the block
    `expect` (left out when empty, kept as it is when None); everything else (board, card definitions,
    comments) kept byte for byte."""
    import yaml

    root = yaml.compose(text, Loader=yaml.SafeLoader)
    block = decisions_block(decisions, head)
    if not isinstance(root, yaml.MappingNode) or root.flow_style:
        data = yaml.safe_load(text)
        stated = data.pop("expect", None)
        data.pop("decisions", None)
        kept = yaml.safe_dump({"expect": stated}, sort_keys=False, allow_unicode=True) \
            if expect is None and stated is not None else expect or ""
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True) + block + kept
    lines = text.splitlines(keepends=True)
    starts = [(k.value, k.start_mark.line) for k, _ in root.value]
    out: list[str] = []
    cursor = 0
    placed = False
    for i, (key, line) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(lines)
        if i == 0:
            out += lines[:line]
        if key == "decisions":
            out.append(block)
            placed = True
        elif key == "expect":
            out += lines[line:end] if expect is None else [expect]
            expect = ""
        else:
            out += lines[line:end]
        cursor = end
    out += lines[cursor:]
    body = "".join(out)
    if not placed:
        body = (body if body.endswith("\n") or not body else body + "\n") + block
    return body + ("\n" if expect and not body.endswith("\n") else "") + (expect or "")
