"""Every rule the rebuilt engine cites exists in CR 26.03, and the engine's list of them is complete."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from judgebook.engine.citations import CITED, cited_anchors

ENGINE = Path(__file__).resolve().parents[1] / "judgebook" / "engine"
ANCHOR = re.compile(r"^(rule|step|sec|subsec|corp_basic|runner_basic)_[a-z0-9_]+$")


def _written_anchors() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # the names a module exports (`__all__`) are Python names, not anchors ("step_warnings")
        exported = {id(c) for n in tree.body if isinstance(n, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)
                    for c in ast.walk(n.value)}
        for node in ast.walk(tree):
            if id(node) in exported:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and ANCHOR.match(node.value):
                found.add(node.value)
            if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                head = str(node.values[0].value)
                if ANCHOR.match(head + "x"):
                    # A composed anchor (f"step_{side}_turn_action"): every side's spelling must be cited.
                    tail = "".join(str(v.value) for v in node.values[2:] if isinstance(v, ast.Constant))
                    found |= {f"{head}{side}{tail}" for side in ("corp", "runner")}
    return found


def test_every_anchor_written_in_the_engine_is_listed():
    assert _written_anchors() - cited_anchors() == set()


def test_no_listed_anchor_is_stale():
    assert CITED - _written_anchors() == set()


def test_every_cited_anchor_exists_in_cr_26_03(nsg_cr_root):
    # Anchors are the values of `rule:`/`step:`/`section:`… keys in the YAML, as `grep -ohE` finds them.
    pattern = re.compile(r"^\s*-?\s*(?:rule|step|section|subsection|chapter)\s*:\s*([a-z0-9_]+)\s*$", re.M)
    known: set[str] = set()
    for path in (nsg_cr_root / "v26.03" / "data" / "input").glob("*.yaml"):
        known |= set(pattern.findall(path.read_text(encoding="utf-8")))
    assert cited_anchors() - known == set()
