"""LANGUAGE.md documents every construct of the card language, each with an example that parses.

The registries are the truth: a construct added without a row here, or a row for a construct that does
not exist, fails; every example is parsed by the construct's own parser.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from judgebook.engine.language.cards import ABILITY_KEYS, parse_ability
from judgebook.engine.language.conditions import CONDITIONS, parse_condition
from judgebook.engine.language.events import EVENT_FILTERS, parse_trigger
from judgebook.engine.language.instructions import INSTRUCTIONS, parse_instruction
from judgebook.engine.language.nodes import At
from judgebook.engine.language.quantities import QUANTITIES, parse_quantity
from judgebook.engine.language.selectors import FILTERS, parse_selector
from judgebook.engine.language.statics import STATICS, parse_static

DOC = Path(__file__).resolve().parents[1] / "judgebook" / "engine" / "LANGUAGE.md"


def _tables() -> dict[str, dict[str, str]]:
    """heading -> {construct: example}"""
    out: dict[str, dict[str, str]] = {}
    heading = ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        m = re.match(r"^\| ([a-z_]+) \| .* \| `(.+)` \|$", line)
        if m:
            table = out.setdefault(heading, {})
            # One row a construct: a second row (two edits merged side by side) would hide which one is meant.
            assert m.group(1) not in table, f"{heading}: {m.group(1)} has two rows"
            table[m.group(1)] = m.group(2)
    return out


TABLES = _tables()
AT = At("doc", 1)
SECTIONS = {
    "Quantities": (QUANTITIES, lambda n: parse_quantity(n, AT)),
    "Conditions": (CONDITIONS, lambda n: parse_condition(n, AT)),
    "Selectors": (FILTERS, lambda n: parse_selector(n, AT)),
    "Events and event filters": (EVENT_FILTERS, lambda n: parse_trigger("access", n, AT, AT)),
    "Static effects": (STATICS, lambda n: parse_static(n, AT)),
    "Instructions": (INSTRUCTIONS, lambda n: parse_instruction(n, AT)),
}


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_every_construct_has_a_row(section):
    registry, _ = SECTIONS[section]
    assert set(TABLES[section]) == set(registry.names())


CASES = [(section, name, example) for section in SECTIONS for name, example in sorted(TABLES[section].items())]


@pytest.mark.parametrize("section, name, example", CASES, ids=[f"{s}:{n}" for s, n, _ in CASES])
def test_every_example_parses(section, name, example):
    _, parse = SECTIONS[section]
    node = yaml.safe_load(example)
    parsed = parse(node)
    assert parsed is not None
    if section != "Selectors" and section != "Events and event filters":
        assert type(parsed).name == name


def test_ability_keys_documented_and_examples_parse():
    rows = TABLES["Abilities"]
    assert set(rows) == set(ABILITY_KEYS) - {"id", "text", "kind", "effects"}
    for key, example in rows.items():
        ability = parse_ability(yaml.safe_load(example), At(f"abilities.{key}", 1), 0, "resource")
        assert ability is not None
