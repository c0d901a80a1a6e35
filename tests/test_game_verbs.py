"""The verbs of judgebook.engine.language.verbs: meaningless or unimplemented combinations are errors with
file, line and field; every key changes the replay (a scenario with and without it differ)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from judgebook.engine.driver.script import replay
from judgebook.engine.errors import ScenarioError
from judgebook.engine.scenario.load import parse
from judgebook.engine.state.model import Game

VERBS = ("arrange", "search", "host", "move", "swap")
_SAVED: dict[str, tuple[type, tuple[str, ...]]] = {}


@pytest.fixture(autouse=True, scope="module")
def verbs_registered() -> Iterator[None]:
    """The verbs registered for this module's tests only, so the rest of the suite sees the registries as
    the language package builds them (LANGUAGE.md's tables are checked against the registries) in any
    test order. Once judgebook.engine.language imports the verbs module itself, they stay registered."""
    owned = "judgebook.engine.language.verbs" not in sys.modules or bool(_SAVED)
    import judgebook.engine.language.verbs  # noqa: F401  (registers them on first import)
    from judgebook.engine.language.instructions import EXTRA, INSTRUCTIONS

    for name, (cls, extra) in _SAVED.items():
        INSTRUCTIONS.by_name[name], EXTRA[name] = cls, extra
    _SAVED.clear()
    yield
    if owned:
        for name in VERBS:
            _SAVED[name] = (INSTRUCTIONS.by_name.pop(name), EXTRA.pop(name, ()))


# The effect under test is written on line 11 (counted in the template below).
TEMPLATE = """title: verbs
start: {{turn: corp, at: action_phase}}
card_defs:
  - name: Op
    side: corp
    type: operation
    cost: 0
    abilities:
      - id: play
        effects:
          - {effect}
  - {{name: A, side: corp, type: operation}}
  - {{name: B, side: runner, type: event}}
  - {{name: Host, side: corp, type: asset}}
  - {{name: W1, side: corp, type: ice, cost: 0, strength: 0}}
  - {{name: W2, side: corp, type: ice, cost: 0, strength: 0}}
  - {{name: W3, side: corp, type: ice, cost: 0, strength: 0}}
corp:
  hand: [Op, A]
  deck: [A, A, A]
  servers:
    HQ: {{ice: [W1]}}
    R&D: {{ice: [W2]}}
    Archives: {{ice: [W3]}}
    Server 1: {{root: [Host]}}
runner:
  deck: [B, B, B]
decisions:
  - {{action: play, card: Op}}
"""
LINE = 11


def _parse(effect: str):  # type: ignore[no-untyped-def]
    return parse(TEMPLATE.format(effect=effect), "verbs.yaml")


def _final(effect: str) -> Game:
    out = replay(_parse(effect))
    assert out.error is None and out.limit is None
    return out.final


BAD = [
    ("{arrange: {zone: hand, side: you}}", "arranging installed cards is not implemented"),
    ("{arrange: {top: 7, deck: you}}", "more than 6 cards"),
    ("{search: {zone: installed, side: you}}", "search needs `zone`"),
    ("{search: {zone: deck, type: ice}}", "search needs `side`"),
    ("{search: {zone: deck, side: you, count: all}}", "not all"),
    ("{search: {top: 3, deck: you}}", "search takes filters"),
    ("{host: self}", "host needs `onto`"),
    ("{host: self, onto: {zone: installed, type: asset, count: 2}}", "or chooses one"),
    ("{move: self}", "move needs `to`"),
    ("{move: self, to: heap}", "expected one of"),
    ("{swap: {zone: hand, side: you, count: 2}}", "between zones is not implemented"),
    ("{swap: {top: 2, deck: you}}", "in a deck is not implemented"),
    ("{swap: {zone: ice}}", "swap picks two cards"),
    ("{swap: {zone: ice, count: 2}, with: self}", "the selector picks one card"),
    ("{arrange: {top: 3, deck: you}, to: hand}", "'to' has no meaning on arrange"),
    ("{search: {zone: deck, side: you}, onto: self}", "'onto' has no meaning on search"),
    ("{move: self, to: hand, then: [end_the_run]}", "'then' has no meaning on move"),
    ("{host: self, onto: self, with: W1}", "'with' has no meaning on host"),
]


@pytest.mark.parametrize("effect,message", BAD, ids=[b[0] for b in BAD])
def test_meaningless_or_unimplemented_combination_is_an_error_with_file_line_and_field(effect: str, message: str):
    with pytest.raises(ScenarioError) as err:
        _parse(effect)
    assert err.value.line == LINE
    assert err.value.field.startswith("card_defs[0].abilities[0].effects[0]")
    assert message in err.value.message
    assert "verbs.yaml" in str(err.value) or err.value.file is None


def test_a_good_spelling_of_each_verb_parses():
    for effect in ("{arrange: {top: 3, deck: you}, by: opponent}",
                   "{search: {zone: deck, side: you, count: {up_to: 2}}, then: [{move: target, to: hand}], by: you}",
                   "{host: A, onto: Host}", "{move: A, to: deck_bottom}", "{swap: {zone: ice, count: 2}}",
                   "{swap: {name: W3}, with: W1}"):
        _parse(effect)


# --- each key changes the replay --------------------------------------------------------------------


def _points(effect: str) -> list[tuple[str, str, int]]:
    out = replay(_parse(effect))
    return [(g.point.kind, g.point.player, len(g.point.options)) for g in out.states if g.point is not None]


def test_arrange_keys_change_the_replay():
    base = "{arrange: {top: 3, deck: you}}"
    assert ("arrange", "corp", 6) in _points(base)
    assert ("arrange", "runner", 6) in _points("{arrange: {top: 3, deck: you}, by: opponent}")     # by
    assert ("arrange", "corp", 2) in _points("{arrange: {top: 2, deck: you}}")                     # top
    g_you, g_opp = _final(base), _final("{arrange: {top: 3, deck: opponent}}")                    # deck
    assert g_you.cards["A#2"].incarnation != g_opp.cards["A#2"].incarnation
    assert g_you.cards["B"].incarnation != g_opp.cards["B"].incarnation


def test_search_keys_change_the_replay():
    plain = "{search: {zone: deck, side: you}}"
    then = "{search: {zone: deck, side: you}, then: [{move: target, to: hand}]}"
    assert len(_final(plain).zone("corp.hand")) == 1                 # A stays in HQ, the found card stays put
    assert len(_final(then).zone("corp.hand")) == 2                  # then: the found card goes to HQ
    # Without criteria a player must find a card; with criteria they may find nothing (rule_fail_to_find).
    assert ("search", "corp", 3) in _points(plain)
    assert ("search", "corp", 4) in _points("{search: {zone: deck, side: you, type: operation}}")
    assert ("search", "corp", 7) in _points("{search: {zone: deck, side: you, count: {up_to: 2}}}")
    assert ("search", "runner", 3) in _points("{search: {zone: deck, side: opponent}, by: opponent}")
    assert ("search", "corp", 3) in _points("{search: {zone: deck, side: opponent}}")


def test_host_onto_changes_the_host():
    assert _final("{host: A, onto: Host}").cards["A"].host == "Host"
    assert _final("{host: A, onto: W1}").cards["A"].host == "W1"


@pytest.mark.parametrize("to,zone,index", [("hand", "corp.hand", None), ("deck_top", "corp.deck", 0),
                                           ("deck_bottom", "corp.deck", -1), ("discard", "corp.discard", None),
                                           ("score", "corp.score", None)])
def test_move_to_each_destination(to: str, zone: str, index: int | None):
    g = _final(f"{{move: A, to: {to}}}")
    assert g.cards["A"].zone == zone
    if index is not None:
        assert g.zone(zone)[index] == "A"


def test_move_player_names_whose_score_area():
    assert _final("{move: A, to: score, player: opponent}").cards["A"].zone == "runner.score"


def test_if_able_on_a_verb_uses_whether_it_can_be_done():
    # The Runner's grip is empty: "move each card in the grip" cannot be carried out.
    out = replay(_parse("{move: {zone: hand, side: opponent, count: all}, to: deck_top, if_able: true}"))
    assert ("not_able", "rule_if_able") in [(s.kind, s.anchor) for s in out.steps]
    out = replay(_parse("{move: {zone: hand, side: opponent, count: all}, to: deck_top}"))
    assert "not_able" not in [s.kind for s in out.steps]
    out = replay(_parse("{move: {zone: hand, side: you, count: all}, to: deck_top, if_able: true}"))
    assert "not_able" not in [s.kind for s in out.steps] and out.final.zone("corp.deck")[0] == "A"


def test_swap_with_changes_which_cards_swap():
    g1 = _final("{swap: {name: W3}, with: W1}")
    g2 = _final("{swap: {name: W3}, with: W2}")
    assert g1.zone("corp.server.HQ.ice") == ("W3",) and g1.zone("corp.server.R&D.ice") == ("W2",)
    assert g2.zone("corp.server.R&D.ice") == ("W3",) and g2.zone("corp.server.HQ.ice") == ("W1",)
    g3 = _final("{swap: {zone: ice, count: 2}}")                     # the default pick: the first pair
    assert g3.zone("corp.server.HQ.ice") == ("W2",) and g3.zone("corp.server.R&D.ice") == ("W1",)


# --- the existing card instructions the verbs build on, checked against the rules -------------------


def test_a_rezzed_card_cannot_be_exposed():
    text = TEMPLATE.format(effect="{expose: W1}").replace("HQ: {ice: [W1]}", "HQ: {ice: [{card: W1, rezzed: true}]}")
    out = replay(parse(text, "verbs.yaml"))
    assert "expose" not in [s.kind for s in out.steps]


def test_look_at_and_reveal_do_not_cite_the_expose_rule():
    for effect, kind in (("{look_at: {top: 2, deck: opponent}}", "look_at"),
                         ("{reveal: {top: 1, deck: you}}", "reveal")):
        out = replay(_parse(effect))
        anchors = {s.anchor for s in out.steps if s.kind == kind}
        assert anchors and "rule_expose" not in anchors


def test_lose_all_credits_is_the_losing_players_pool():
    text = TEMPLATE.format(effect="{lose_credits: all, player: runner}").replace(
        "runner:\n  deck: [B, B, B]", "runner:\n  credits: 7\n  deck: [B, B, B]")
    assert replay(parse(text, "verbs.yaml")).final.runner.credits == 0


def test_language_doc_rows_cover_every_verb_and_parse():
    import re
    from pathlib import Path

    import yaml

    from judgebook.engine.language.instructions import parse_instruction
    from judgebook.engine.language.nodes import At

    doc = Path(__file__).resolve().parents[1] / "judgebook" / "engine" / "LANGUAGE-verbs.md"
    rows = dict(m.groups() for line in doc.read_text(encoding="utf-8").splitlines()
                if (m := re.match(r"^\| ([a-z_]+) \| .* \| `(.+)` \|$", line)))
    assert set(rows) == set(VERBS)
    for name, example in rows.items():
        assert parse_instruction(yaml.safe_load(example), At("doc", 1)).name == name
