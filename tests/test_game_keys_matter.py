"""Every key of the card language changes the replay: each case is a small scenario written twice,
with and without one key (or with two values of it), and the two replays must end differently.
A key that is accepted and ignored would make a pair end the same."""
from __future__ import annotations

import pytest

from judgebook.game.driver.script import replay
from judgebook.game.rules.values import hand_size, link
from judgebook.game.scenario.load import parse
from judgebook.game.state.model import Game

RUNNER = """
title: keys
card_defs:
  - name: Card
    side: runner
    type: resource
    abilities:
      - {ABILITY}
  - {name: Filler, side: runner, type: event, cost: 0}
  - {name: Wall, side: corp, type: ice, subtypes: [barrier], cost: 1, strength: 1, subroutines: [[end_the_run]]}
runner:
  credits: 5
  hand: [Filler, Filler]
  deck: [Filler, Filler, Filler]
  installed: [Card]
corp:
  credits: 5
  servers: {HQ: {ice: [{card: Wall, rezzed: true}]}}
decisions: [DECISIONS]
"""


def outcome(ability: str, decisions: str = "", where: str = "installed: [Card]") -> tuple[object, ...]:
    """What a replay ended with: the board, and the rule of any refused decision."""
    text = RUNNER.replace("{ABILITY}", ability).replace("[DECISIONS]", f"[{decisions}]")
    sc = parse(text.replace("installed: [Card]", where))
    out = replay(sc)
    g = out.final
    return (g.runner.credits, g.runner.clicks, g.runner.tags, len(g.zone("runner.hand")), g.corp.credits,
            hand_size(g, "runner"), link(g),
            tuple(sorted((c, tuple(sorted(card.counters.items()))) for c, card in g.cards.items())),
            tuple(sorted(c for c, card in g.cards.items() if card.zone.endswith("discard"))),
            out.error.rule if out.error else None)


PAIRS = {
    "if_able": ("{cost: {clicks: 1}, effects: [{lose_credits: 9, if_able: true}]}",
                "{cost: {clicks: 1}, effects: [{lose_credits: 9}]}", "{action: use, card: Card, ability: a1}"),
    "player": ("{cost: {clicks: 1}, effects: [{lose_credits: 2, player: corp}]}",
               "{cost: {clicks: 1}, effects: [{lose_credits: 2}]}", "{action: use, card: Card, ability: a1}"),
    "then": ("{cost: {clicks: 1}, effects: [{trash: self, then: [{gain_credits: 3}]}]}",
             "{cost: {clicks: 1}, effects: [{trash: self}]}", "{action: use, card: Card, ability: a1}"),
    "otherwise": ("{cost: {clicks: 1}, effects: [{pay: {credits: 9}, if_able: true, otherwise: [{draw: 1}]}]}",
                  "{cost: {clicks: 1}, effects: [{pay: {credits: 9}, if_able: true}]}",
                  "{action: use, card: Card, ability: a1}"),
    "optional (pay)": ("{cost: {clicks: 1}, effects: [{pay: {credits: 2}, optional: true, then: [{draw: 1}]}]}",
                       "{cost: {clicks: 1}, effects: [{pay: {credits: 2}, then: [{draw: 1}]}]}",
                       "{action: use, card: Card, ability: a1}"),
    "once_per": ("{cost: {clicks: 1}, once_per: turn, effects: [{gain_credits: 1}]}",
                 "{cost: {clicks: 1}, effects: [{gain_credits: 1}]}",
                 "{action: use, card: Card, ability: a1}, {action: use, card: Card, ability: a1, if_able: true}"),
    "optional (ability)": ("{trigger: drawn, condition: {player: you}, optional: true, effects: [{gain_credits: 2}]}",
                           "{trigger: drawn, condition: {player: you}, effects: [{gain_credits: 2}]}",
                           "{action: draw}, {decline: Card, ability: a1, if_able: true}"),
    "condition": ("{trigger: drawn, condition: {player: opponent}, effects: [{gain_credits: 2}]}",
                  "{trigger: drawn, effects: [{gain_credits: 2}]}", "{action: draw}"),
    "if": ("{trigger: drawn, if: {tagged: true}, effects: [{gain_credits: 2}]}",
           "{trigger: drawn, effects: [{gain_credits: 2}]}", "{action: draw}"),
    "while": ("{static: {link: 2}, while: during_run}", "{static: {link: 2}}", ""),
    "count up_to": ("{cost: {clicks: 1}, effects: [{trash: {zone: hand, side: you, count: {up_to: 2}}}]}",
                    "{cost: {clicks: 1}, effects: [{trash: {zone: hand, side: you, count: 1}}]}",
                    "{action: use, card: Card, ability: a1}, {target: [Filler, Filler#2]}"),
    "count all": ("{cost: {clicks: 1}, effects: [{trash: {zone: hand, side: you, count: all}}]}",
                  "{cost: {clicks: 1}, effects: [{trash: {zone: hand, side: you}}]}",
                  "{action: use, card: Card, ability: a1}"),
    "duration": ("{cost: {clicks: 1}, effects: [{lasting: {static: {cannot: {what: draw}}, duration: turn}}]}",
                 "{cost: {clicks: 1}, effects: [{lasting: {static: {cannot: {what: draw}}, duration: run}}]}",
                 "{action: use, card: Card, ability: a1}, {action: draw}"),
    "cannot server": ("{static: {cannot: {what: run, server: HQ}}}", "{static: {cannot: {what: run, server: R&D}}}",
                      "{action: run, server: HQ, if_able: true}"),
    "cannot player": ("{static: {cannot: {what: draw, player: corp}}}", "{static: {cannot: {what: draw}}}",
                      "{action: draw}"),
}


@pytest.mark.parametrize("key", [k for k, v in PAIRS.items() if v])
def test_the_key_changes_the_replay(key):
    with_key, without, decisions = PAIRS[key]  # type: ignore[misc]
    assert outcome(with_key, decisions) != outcome(without, decisions)


def test_active_in_makes_an_ability_work_from_that_zone():
    ability = "{trigger: drawn, condition: {player: you}, active_in: hand, effects: [{gain_credits: 2}]}"
    plain = "{trigger: drawn, condition: {player: you}, effects: [{gain_credits: 2}]}"
    in_hand = "hand: [Card, Filler, Filler]"
    assert outcome(ability, "{action: draw}", in_hand) != outcome(plain, "{action: draw}", in_hand)


def _credits_for(purpose: str) -> Game:
    sc = parse(f"""
title: hosted credits for a purpose
card_defs:
  - {{name: Feeder, side: runner, type: hardware, recurring: 1, credits_for: {purpose}}}
  - {{name: Breaker, side: runner, type: program, subtypes: [icebreaker], strength: 1,
      abilities: [{{id: pump, cost: {{credits: 1}}, effects: [{{strength: 1}}]}}]}}
runner:
  credits: 0
  installed: [Feeder, Breaker]
decisions:
  - {{use: Breaker, ability: pump, if_able: true}}
""")
    return replay(sc).final


def test_credits_for_limits_what_hosted_credits_pay():
    assert _credits_for("icebreakers").cards["Feeder"].count("credit") == 0
    assert _credits_for("traces").cards["Feeder"].count("credit") == 1


CANNOT = """
title: cannot {WHAT}
start: {turn: corp, at: action_phase}
card_defs:
  - {name: Law, side: corp, type: asset, cost: 0, abilities: [{static: {cannot: {what: WHAT}}}]}
  - {name: Plan, side: corp, type: agenda, advancement_requirement: 1, agenda_points: 1}
  - {name: Fund, side: corp, type: operation, cost: 0, abilities: [{kind: play, effects: [{gain_credits: 3}]}]}
corp:
  credits: 5
  hand: [Fund, Plan]
  servers: {Server 1: {root: [{card: Law, rezzed: true}]}}
decisions: [DECISIONS]
"""


@pytest.mark.parametrize("what, decisions", [
    ("play", "{action: play, card: Fund}"),
    ("install", "{action: install, card: Plan, server: new}"),
    ("gain_credits", "{action: gain_credit}"),
    ("advance", "{action: install, card: Plan, server: new}, {action: advance, card: Plan}"),
])
def test_every_cannot_has_an_effect(what, decisions):
    def ending(text: str) -> tuple[object, ...]:
        out = replay(parse(text.replace("DECISIONS", decisions)))
        g = out.final
        return (g.corp.credits, g.corp.clicks, g.zone("corp.hand"), out.error.rule if out.error else None)

    forbidden = ending(CANNOT.replace("WHAT", what))
    allowed = ending(CANNOT.replace("WHAT", "steal"))
    assert forbidden != allowed
