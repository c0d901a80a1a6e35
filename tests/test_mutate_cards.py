"""The mutation tool (tools/mutate_cards.py) on a known card: a mutant a scenario kills, one that survives, one
that no longer loads, and mutants made in memory only (the definition file is unchanged)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "mutate_cards.py"


@pytest.fixture(scope="module")
def tool(cards_root):
    spec = importlib.util.spec_from_file_location("mutate_cards", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutate_cards"] = module
    spec.loader.exec_module(module)
    module.set_cards_root(cards_root)
    return module


@pytest.fixture(scope="module")
def stegodon(tool):
    file = tool.LIBRARY / "stegodon_mk_iv.yaml"
    before = file.read_text(encoding="utf-8")
    texts = {p: p.read_text(encoding="utf-8") for p in sorted(tool.SCENARIOS.glob("*.yaml"))}
    import random
    report = tool.run_card(file, texts, None, random.Random(0))
    assert file.read_text(encoding="utf-8") == before
    return report


def by_change(report, change):
    found = [m for m in report.mutants if m.change == change]
    assert len(found) == 1, [m.change for m in report.mutants]
    return found[0]


def test_the_scenarios_naming_the_card_are_replayed(stegodon):
    assert stegodon.scenarios == [f"card-stegodon_mk_iv-{n}.yaml" for n in range(1, 6)]


def test_a_dropped_may_is_killed_by_the_scenario_that_declines_it(stegodon):
    m = by_change(stegodon, "drop optional (may → must)")
    assert (m.status, m.killed_by) == ("killed", "card-stegodon_mk_iv-2.yaml")


def test_a_mutant_no_scenario_tells_apart_survives(stegodon):
    # "Derez 1 piece of ice": each scenario has a single other rezzed ice, so derezzing 2 plays alike.
    m = by_change(stegodon, "count: 1 → 2")
    assert (m.status, m.path) == ("survived", "abilities[1].effects[0].derez.count")


def test_a_changed_once_per_limit_is_killed_by_a_second_run(stegodon):
    m = by_change(stegodon, "once per turn → once per run")
    assert (m.status, m.killed_by) == ("killed", "card-stegodon_mk_iv-4.yaml")


def test_a_mutant_that_does_not_load_is_invalid_not_killed(tool):
    # Cataloguer pays 1 power counter: a cost of 0 counters is refused by the loader.
    import random
    texts = {p: p.read_text(encoding="utf-8") for p in sorted(tool.SCENARIOS.glob("*.yaml"))}
    report = tool.run_card(tool.LIBRARY / "cataloguer.yaml", texts, None, random.Random(0))
    invalid = [m for m in report.mutants if m.status == "invalid"]
    assert [m.change for m in invalid] == ["power: 1 → 0", "power: 1 → 0"]
    assert all(not m.killed_by for m in invalid)


def test_mutants_are_made_in_memory_one_edit_each(tool):
    node = {"id": "stegodon_mk_iv", "name": "Stegodon MK IV", "abilities": [{"id": "x", "trigger": "run_begins",
                                                                             "effects": [{"gain_credits": 1}]}]}
    mutants = {change: mutant for _, _, change, mutant in tool.mutants_of(node)}
    assert mutants["trigger run_begins → run_ends"]["abilities"][0]["trigger"] == "run_ends"
    assert node["abilities"][0]["trigger"] == "run_begins"
    assert "gain_credits: 1 → 2" in mutants and "gain_credits: 1 → 0" in mutants


def test_the_report_counts_killed_share_by_kind(tool, stegodon):
    s = tool.summary([stegodon], 1.0, 547)
    assert s["overall"]["killed"] + s["overall"]["survived"] + s["overall"].get("invalid", 0) == len(stegodon.mutants)
    assert "may" in s["by_kind"] and "survivors" in s
    assert "Stegodon MK IV: number: count: 1 → 2 (at abilities[1].effects[0].derez.count)" in tool.render(s)
