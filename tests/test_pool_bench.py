"""What bench/cards.py stands on: its generated full pool parses, and the YAML bounds' fast path (a text with no
alias is measured off the text) still refuses what the full walk refuses."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from judgebook.cards.definitions import read_definitions
from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.nrdb import CardSource
from judgebook.engine.safe_yaml import Limits, check_bounds

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import cards as bench  # noqa: E402  (bench/ is not a package)


def test_the_generated_full_pool_is_547_definitions_that_parse(cards_root, tmp_path):
    assert bench.synthetic_pool(cards_root, tmp_path) == 547
    defs = read_definitions(tmp_path, CardSource(cards_root))
    assert len(defs) == 547 and all(d.status == "defined" for d in defs.values())


def test_deep_block_nesting_without_aliases_is_still_refused():
    deep = "".join(" " * i + f"k{i}:\n" for i in range(70)) + " " * 70 + "end\n"
    with pytest.raises(ScenarioError, match="nested more than 64 levels"):
        check_bounds(deep)
    inline = "- " * 70 + "x\n"
    with pytest.raises(ScenarioError, match="nested more than 64 levels"):
        check_bounds(inline)


def test_too_many_nodes_without_aliases_are_still_refused():
    text = "[" + ",".join(["1"] * 60) + "]\n"
    with pytest.raises(ScenarioError, match="more than 50 nodes"):
        check_bounds(text, limits=Limits(max_nodes=50))
    check_bounds("{a: 1, b: [2, 3]}\n", limits=Limits(max_nodes=50))     # a small text passes the fast path
