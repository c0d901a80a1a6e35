"""What a driver shows of a state (`judgebook.engine` face, driver/view.py; issue 21 "Reading the board"):
each ice's subroutines marked as the encounter left them, where the run is, options in a judge's words.

The board is the printed cards of the Standard library: Palisade ("[subroutine] End the run"; +2 strength
while protecting a remote server, printed strength 2), Gold Farmer ("Whenever the Runner breaks a subroutine
on this ice, they lose 1[c]"; two subroutines), Makler ("2[c]: Break up to 2 barrier subroutines", read by the
engine as 2 — its card file says so — and "2[c]: +2 strength"). Paperclip's break is given here in the
scenario (it breaks every barrier subroutine for 1[c]), as Gold Farmer's ruling scenario gives it.
"""
from __future__ import annotations

from pathlib import Path

from judgebook.engine import (
    Decision,
    advance,
    choices,
    option_words,
    run_at,
    setup,
    start,
    strength,
    subroutine_marks,
)
from judgebook.engine.scenario.load import parse
from judgebook.scenario_text import read_decision

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"

BOARD = """
title: Makler and Paperclip against Palisade and Gold Farmer on a remote server
start: {turn: runner, at: action_phase}
corp:
  credits: 5
  servers:
    Remote 1: {ice: [{card: Palisade, rezzed: true}, {card: Gold Farmer, rezzed: true}]}
runner:
  credits: %d
  installed: [Makler, Paperclip]
card_defs:
  - name: Paperclip
    abilities:
      - {id: break, cost: {credits: 1}, break: {subtype: barrier, count: all}}
"""


def _game(cards_root: Path, credits: int = 9):
    g, _ = start(setup(parse(BOARD % credits, library=LIBRARY, cards_source=cards_root)))
    return g


def _to(g, wanted: dict, encountering: str | None = None, limit: int = 40):
    """Advance by each point's default until an option fits `wanted` (while `encountering` that ice, if
    given); take it. Returns the state."""
    want: Decision = read_decision(wanted)
    for _ in range(limit):
        point = choices(g)
        assert point is not None, wanted
        found = point.find(want)
        at = run_at(g)
        if found is not None and (encountering is None or (at is not None and at.encountered == encountering)):
            return advance(g, found.decision.with_payment(want))[0]
        g, _ = advance(g, point.options[point.default or 0].decision)
    raise AssertionError(f"no option {wanted} within {limit} points")


def _words(g) -> list[tuple[str, str]]:
    point = choices(g)
    return [(w.label, w.detail) for w in option_words(g, point)]


def test_a_break_reads_as_the_card_states_it_and_marks_the_subroutine_broken(cards_root):
    g = _game(cards_root)
    g = _to(g, {"action": "run", "server": "Remote 1"})
    # Palisade is 4 on a remote: Makler 2 → 4
    g = _to(g, {"use": "Makler", "ability": "pump"}, encountering="Palisade")
    assert strength(g, "Palisade") == 4 and strength(g, "Makler") == 4
    at = run_at(g)
    assert at is not None and (at.server, at.encountered) == ("Remote 1", "Palisade")
    assert [(m.n, m.text, m.state) for m in subroutine_marks(g, "Palisade")] == \
        [(1, "end the run", "unbroken")]
    assert _words(g) == [("pass priority", ""),
                         ("Makler: break up to 2 barrier subroutines (2[c])", "Palisade subroutine 1: end the run"),
                         ("Makler: +2 strength (2[c])", "")]
    g = _to(g, {"use": "Makler", "ability": "break", "subroutines": [1]})
    marks = subroutine_marks(g, "Palisade")
    assert [(m.state, m.by, m.current) for m in marks] == [("broken", "Makler", True)]
    # Makler's "first time each turn you fully break a piece of ice": what triggered it is said
    assert ("resolve Makler: gain 1[c]", "triggered when a piece of ice is fully broken: Palisade, by Makler") \
        in _words(g)


def test_two_pending_instances_of_one_ability_are_told_apart_by_what_triggered_each(cards_root):
    g = _game(cards_root)
    g = _to(g, {"action": "run", "server": "Remote 1"})
    g = _to(g, {"use": "Makler", "ability": "pump"}, encountering="Palisade")
    g = _to(g, {"use": "Makler", "ability": "break", "subroutines": [1]})
    g = _to(g, {"use": "Paperclip", "ability": "break", "subroutines": [1, 2]})
    assert run_at(g).encountered == "Gold Farmer"
    assert run_at(g).passed == ("Palisade",)
    assert [(m.state, m.by) for m in subroutine_marks(g, "Gold Farmer")] == [("broken", "Paperclip")] * 2
    # Palisade keeps the marks of its encounter in this run
    assert [(m.state, m.current) for m in subroutine_marks(g, "Palisade")] == [("broken", False)]
    words = _words(g)
    assert [label for label, _ in words] == ["resolve Gold Farmer: the Runner loses 1[c]"] * 2
    assert words[0][1] == "triggered when a subroutine is broken: Gold Farmer subroutine 1, by Paperclip"
    assert words[1][1].startswith("triggered when a subroutine is broken: Gold Farmer subroutine 2, by Paperclip")


def test_a_subroutine_that_ended_the_run_is_marked_so_after_the_run(cards_root):
    g = _game(cards_root, credits=0)                    # nothing to pay a break with
    g = _to(g, {"action": "run", "server": "Remote 1"})
    for _ in range(40):
        if run_at(g) is None:
            break
        point = choices(g)
        g, _ = advance(g, point.options[point.default or 0].decision)
    assert run_at(g) is None
    assert [(m.state, m.current) for m in subroutine_marks(g, "Palisade")] == [("ended the run", False)]
    # Gold Farmer was never encountered: no marks
    assert [m.state for m in subroutine_marks(g, "Gold Farmer")] == ["", ""]
