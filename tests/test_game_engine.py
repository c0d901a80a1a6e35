"""The rebuilt engine (judgebook.engine): one state value, choices/advance, the composing card language.

Assertions are on events (step kinds), cited anchors and state values, never on English wording.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from judgebook.engine import IllegalDecision, advance, choices
from judgebook.engine.driver.script import check, replay
from judgebook.engine.driver.step import start
from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.conditions import parse_condition
from judgebook.engine.language.context import Ctx
from judgebook.engine.language.nodes import At
from judgebook.engine.language.quantities import parse_quantity
from judgebook.engine.language.selectors import parse_selector
from judgebook.engine.scenario.load import load, parse, setup
from judgebook.engine.state.choice import decision

HERE = Path(__file__).parent / "game"
SCENARIOS = sorted(HERE.glob("*.yaml"))


def _game(name: str = "femme_tollbooth.yaml"):
    sc = load(HERE / name)
    g, _ = start(setup(sc))
    return sc, g


def test_femme_fatale_bypass_drops_tollbooth_tax():
    sc, _ = _game()
    out = replay(sc)
    assert check(sc, out) == []
    kinds = [(s.kind, s.anchor) for s in out.steps]
    assert ("bypass", "rule_bypass") in kinds
    assert ("expired", "rule_reaction_window_closing_timing_structure") in kinds
    resolved = [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "resolve"]
    assert resolved == ["Femme Fatale:bypass"]
    assert out.final.runner.credits == 4


def test_choice_point_names_player_options_and_rules():
    _, g = _game()
    point = choices(g)
    assert point is not None and point.player == "runner" and point.kind == "priority"
    assert point.options[0].decision.kind == "pass"
    g2, _ = advance(g, decision("pass", "runner"))
    g3, _ = advance(g2, decision("pass", "corp"))
    action = choices(g3)
    assert action is not None and action.kind == "action" and action.default is None
    runs = [o for o in action.options if o.decision.value == "run"]
    assert {o.decision.get("server") for o in runs} == {"HQ", "R&D", "Archives"}
    assert all(o.rule == "runner_basic_action_run" for o in runs)


def test_refused_option_is_refused_by_advance_with_its_rule():
    _, g = _game()
    for d in (decision("pass", "runner"), decision("pass", "corp"), decision("action", "run", server="HQ")):
        g, _ = advance(g, d)
    while choices(g).kind != "priority" or "encounter ice" not in choices(g).path:
        g, _ = advance(g, choices(g).options[0].decision)
    # In Tollbooth's encounter window (after the tax was paid), Femme Fatale cannot break a code gate.
    point = choices(g)
    refused = [r for r in point.refused if r.decision.value == "Femme Fatale" and r.decision.get("ability") == "break"]
    assert refused and refused[0].rule == "rule_paid_ability_breaks_subroutines"
    with pytest.raises(IllegalDecision) as err:
        advance(g, refused[0].decision)
    assert err.value.rule == "rule_paid_ability_breaks_subroutines"


def test_same_inputs_same_timeline_and_undo_is_the_previous_state():
    sc, _ = _game()
    a, b = replay(sc), replay(sc)
    assert [(s.kind, s.anchor, s.how) for s in a.steps] == [(s.kind, s.anchor, s.how) for s in b.steps]
    assert a.states == b.states
    # Undo: going back to an earlier state and taking the same decision again reaches an equal state.
    g0 = a.states[0]
    g1, _ = advance(g0, choices(g0).options[0].decision)
    assert g1 == a.states[1] and hash(g1) == hash(a.states[1])
    assert g0 == a.states[0]  # the earlier state was not touched


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_random_legal_play_property(path):
    """Every option `choices` offers is accepted by `advance`; every refused one is refused with the same
    rule; undo (the previous value) is unchanged by advancing from it."""
    sc = load(path)
    rng = random.Random(7)
    for _walk in range(12):
        g, _ = start(setup(sc))
        for _ in range(80):
            point = choices(g)
            if point is None or not point.options:
                break
            for r in point.refused:
                with pytest.raises(IllegalDecision) as err:
                    advance(g, r.decision)
                assert err.value.rule == r.rule
            before = g
            option = rng.choice(point.options)
            g, _ = advance(g, option.decision)
            again, _ = advance(before, option.decision)
            assert again == g


def _ctx_game():
    sc = parse("""
title: quantities
card_defs:
  - {name: Ice Wall, side: corp, type: ice, subtypes: [barrier], cost: 1, strength: 1, subroutines: [[end_the_run]]}
  - {name: Corroder, side: runner, type: program, subtypes: [icebreaker, fracter], cost: 2, memory: 1, strength: 2}
  - {name: Sure Gamble, side: runner, type: event, cost: 5}
corp:
  credits: 7
  servers: {HQ: {ice: [{card: Ice Wall, rezzed: true}]}}
runner:
  credits: 3
  tags: 2
  hand: [Sure Gamble]
  installed: [{card: Corroder, counters: {virus: 3}}]
""")
    return setup(sc)


@pytest.mark.parametrize(
    "node, want",
    [
        (4, 4),
        ({"credits": "corp"}, 7),
        ({"credits": "you"}, 3),
        ({"tags": "runner"}, 2),
        ({"half_down": {"credits": "corp"}}, 3),
        ({"half_up": {"credits": "corp"}}, 4),
        ({"plus": [{"tags": "runner"}, 1]}, 3),
        ({"minus": [1, {"credits": "corp"}]}, 0),
        ({"times": [2, {"tags": "runner"}]}, 4),
        ({"max": [{"tags": "runner"}, 5]}, 5),
        ({"count": {"zone": "installed", "side": "runner", "subtype": "icebreaker"}}, 1),
        ({"counters": {"kind": "virus", "cards": {"zone": "installed", "counter": "virus"}}}, 3),
        ({"install_cost": "Corroder"}, 2),
        ({"strength": "Ice Wall"}, 1),
        ({"cards_in_hand": "runner"}, 1),
        ({"unused_mu": "runner"}, 3),
    ],
)
def test_quantities(node, want):
    g = _ctx_game()
    assert parse_quantity(node, At("q", 1)).value(g, Ctx("Corroder", "runner")) == want


@pytest.mark.parametrize(
    "node, want",
    [
        ({"at_least": [{"tags": "runner"}, 2]}, True),
        ({"less_than": [{"credits": "runner"}, 3]}, False),
        ({"all": [{"tagged": True}, {"exists": {"zone": "ice", "rezzed": True}}]}, True),
        ({"not": {"tagged": True}}, False),
        ({"any": ["during_run", {"equals": [{"counters": "virus"}, 3]}]}, True),
        ("during_run", False),
    ],
)
def test_conditions(node, want):
    g = _ctx_game()
    assert parse_condition(node, At("c", 1)).holds(g, Ctx("Corroder", "runner")) is want


def test_selectors_pick_and_count():
    g = _ctx_game()
    sel = parse_selector({"zone": "installed", "side": "opponent", "count": {"up_to": 2}}, At("s", 1))
    ctx = Ctx("Corroder", "runner")
    assert sel.candidates(g, ctx) == ["Ice Wall"]
    assert sel.picks(g, ctx) == [(), ("Ice Wall",)]


@pytest.mark.parametrize(
    "bad, field",
    [
        (
            "abilities: [{trigger: encounter_ice, condition: {ice: self, colour: red}, effects: [end_the_run]}]",
            "condition.colour",
        ),
        ("abilities: [{trigger: encounter_ice, effects: [{gain_credits: 1, server: HQ}]}]", "effects[0].server"),
        ("abilities: [{cost: {credits: 1}, effects: [{explode: 1}]}]", "effects[0]"),
        ("abilities: [{cost: {credits: 1}, optional: true, effects: [end_the_run]}]", "optional"),
        ("abilities: [{static: {strength: 1}, if: during_run}]", "if"),
        ("abilities: [{cost: {credits: {half_down: [1, 2]}}, effects: [end_the_run]}]", "credits"),
    ],
)
def test_unimplemented_or_meaningless_keys_are_errors_with_line(bad, field):
    text = (
        "title: bad\ncard_defs:\n  - name: X\n    side: corp\n    type: ice\n    "
        + bad
        + "\ncorp: {servers: {HQ: {ice: [X]}}}\n"
    )
    with pytest.raises(ScenarioError) as err:
        parse(text, file="bad.yaml")
    assert field in err.value.field
    assert err.value.line == 6


def test_no_instruction_modifier_is_also_an_instruction():
    """A modifier spelled like an instruction would make `{install: ..., rez: true}` two instructions."""
    from judgebook.engine.language.instructions import EXTRA, INSTRUCTIONS, MODIFIERS

    clashes = ({k for keys in EXTRA.values() for k in keys} | set(MODIFIERS)) & set(INSTRUCTIONS.by_name)
    assert clashes == set()


LOOP = """
title: two Wormholes
card_defs:
  - name: Wormhole
    side: corp
    type: ice
    subtypes: [code gate]
    strength: 7
    subroutines: [[{resolve_subroutine: {ice: {zone: ice, rezzed: true, other: true, count: 1}}}]]
corp:
  servers:
    Archives: {ice: [{card: Wormhole, rezzed: true}]}
    Server 1: {ice: [{card: Wormhole, rezzed: true}]}
decisions:
  - {action: run, server: Archives}
  - {loop: 2157, player: corp}
expect:
  run: {successful: true, server: Archives}
"""


def test_mandatory_loop_resolves_the_named_count_and_ends():
    """Issue 12 defect 4: the glossary's 2,157 repetitions replay (no recursion) and the run goes on."""
    sc = parse(LOOP)
    out = replay(sc)
    assert check(sc, out) == []
    loops = [s for s in out.steps if s.kind == "loop"]
    assert [(s.anchor, s.player) for s in loops] == [("rule_mandatory_infinite_loop", "corp")]
    assert "2157" in loops[0].text


def test_self_feeding_trigger_is_reported_as_an_infinite_loop():
    sc = parse("""
title: feeds itself
card_defs:
  - name: Feeder
    side: runner
    type: resource
    abilities:
      - {trigger: credits_spent, condition: {player: you}, effects: [{gain_credits: 1}, {lose_credits: 1}]}
      - {trigger: drawn, condition: {player: you}, effects: [{draw: 1}]}
runner:
  installed: [Feeder]
  deck: [Feeder, Feeder, Feeder]
decisions:
  - {action: draw}
""")
    out = replay(sc)
    # Drawing feeds drawing; once the stack is empty each round is the same state: the loop rule.
    assert out.final.zone("runner.deck") == ()
    assert [s.anchor for s in out.steps if s.kind == "loop"] == ["rule_mandatory_infinite_loop"]


def test_gaining_credits_forever_is_stopped_with_the_loop_rule():
    sc = parse("""
title: gains forever
card_defs:
  - name: Feeder
    side: runner
    type: resource
    abilities:
      - trigger: clicks_spent
        condition: {player: you}
        effects: [{gain_credits: 1}, {gain_clicks: 1}, {lose_clicks: 1}]
runner:
  installed: [Feeder]
options: {max_steps: 300}
decisions:
  - {action: gain_credit}
""")
    out = replay(sc)
    assert out.limit is not None and out.limit.rule == "rule_mandatory_infinite_loop"


def test_an_action_with_no_click_left_is_refused_with_the_rule():
    """Issue 12 defect 8: `{action: run}` after the last click is refused, citing the rule."""
    sc = parse("""
title: no click left
runner: {clicks: 1}
decisions:
  - {action: gain_credit}
  - {action: run, server: HQ}
""")
    out = replay(sc)
    assert out.error is not None and out.error.rule == "step_runner_turn_action"
    assert out.error.line == 6


def test_a_conditional_decision_falls_back_with_the_reason():
    """`{rez: X, if_able: true}`: refused (the Corp cannot pay) -> the default, logged with the rule."""
    text = """
title: rez it if able
card_defs:
  - {name: Big Ice, side: corp, type: ice, subtypes: [barrier], cost: 9, strength: 5, subroutines: [[end_the_run]]}
corp:
  credits: 2
  servers: {HQ: {ice: [Big Ice]}}
decisions:
  - {action: run, server: HQ}
  - {rez: Big Ice, player: corp, if_able: true}
expect:
  run: {successful: true}
"""
    sc = parse(text)
    out = replay(sc)
    assert check(sc, out) == []
    assert [(s.kind, s.anchor) for s in out.steps if s.kind == "not_able"] == [("not_able", "rule_cost")]
    strict = parse(text.replace(", if_able: true", ""))
    assert replay(strict).error.rule == "rule_cost"


BASE_EXPECT = (HERE / "femme_tollbooth.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("wrong", [
    "winner: corp",
    "win_reason: flatline",
    "run: {successful: false}",
    "run: {server: R&D}",
    "run: {ended_by: jack_out}",
    'resolved: ["Tollbooth:tax"]',
    'not_resolved: ["Femme Fatale:bypass"]',
    'resolved_in: {"Femme Fatale:bypass": access}',
    "state: {runner: {credits: 5}}",
    "state: {runner: {clicks: 4}}",
    "state: {runner: {tags: 1}}",
    "state: {runner: {hand: 1}}",
    "state: {runner: {installed: [Tollbooth]}}",
    "state: {corp: {trashed: [Tollbooth]}}",
    "state: {corp: {score: 1}}",
    "state: {corp: {scored: [Tollbooth]}}",
    "state: {corp: {rezzed: [Femme Fatale]}}",
    "state: {corp: {bad_publicity: 1}}",
    "state: {runner: {core_damage: 1}}",
    "state: {cards: {Tollbooth: {zone: discard}}}",
    "state: {cards: {Tollbooth: {rezzed: false}}}",
    "state: {cards: {Femme Fatale: {strength: 3}}}",
    "state: {cards: {Tollbooth: {counters: {advancement: 1}}}}",
    "error: {rule: rule_cost}",
])
def test_every_expect_key_is_checked(wrong):
    """Nothing accepted and ignored: a wrong expectation of any kind is reported."""
    head, _ = BASE_EXPECT.split("expect:")
    sc = parse(head + "expect:\n  " + wrong + "\n")
    assert check(sc, replay(sc)) != []


def test_purge_and_trash_a_resource():
    sc = parse("""
title: corp basic actions
start: {turn: corp, at: action_phase}
card_defs:
  - {name: Virus, side: runner, type: program, cost: 1}
  - {name: Contact, side: runner, type: resource, cost: 1}
corp: {credits: 5, clicks: 4}
runner:
  tags: 1
  installed: [{card: Virus, counters: {virus: 3}}, Contact]
decisions:
  - {action: trash_resource, card: Contact}
  - {action: purge}
expect:
  state:
    corp: {credits: 3, clicks: 0}
    runner: {trashed: [Contact]}
    cards: {Virus: {counters: {virus: 0}}}
""")
    out = replay(sc)
    assert check(sc, out) == []
    assert ("purge", "rule_purge") in [(s.kind, s.anchor) for s in out.steps]


def test_an_x_for_a_cost_without_x_is_refused():
    sc = parse("""
title: no X here
card_defs:
  - name: Corroder
    side: runner
    type: program
    subtypes: [icebreaker, fracter]
    strength: 2
    abilities: [{id: pump, cost: {credits: 1}, effects: [{strength: 1}]}]
runner: {installed: [Corroder]}
decisions:
  - {use: Corroder, ability: pump, x: 2}
""")
    out = replay(sc)
    assert out.error is not None and out.error.rule == "rule_cost_x"
