"""The table's board (judgebook/web/board_view.py) shows each server's ice outermost first as the engine now
places it (ice installs outermost: rule_ice_install_outermost), and a vacant Runner position as vacant."""
from __future__ import annotations

from pathlib import Path

from judgebook.engine.driver.script import replay
from judgebook.engine.scenario.load import load
from judgebook.web.board_view import board

SCENARIOS = Path(__file__).resolve().parents[1] / "rules_source" / "scenarios"


def test_ice_installed_on_a_protected_server_is_shown_first():
    out = replay(load(SCENARIOS / "cr26-ice-installs-outermost.yaml"))
    [hq] = [s for s in board(out.final).servers if s.name == "HQ"]
    assert [c.id for c in hq.ice] == ["Tollbooth", "Ice Wall"]


def test_a_vacated_position_is_shown_as_the_runners():
    out = replay(load(SCENARIOS / "cr26-encountered-ice-trashed-next-ice-approached.yaml"))
    # the first choice point after Whirlpool trashed itself: the Runner is still in the position it left
    vacant = [g for g in out.states if any(getattr(f, "vacated", None) == "Whirlpool" for f in g.stack)]
    assert vacant
    [hq] = [s for s in board(vacant[0]).servers if s.name == "HQ"]
    assert hq.run_here and [c.id for c in hq.ice] == ["Ice Wall"]
    assert hq.run_at == "at the position Whirlpool left, outward of ice 1 of 1"
