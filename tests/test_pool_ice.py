"""The Standard pool's Corp ice and upgrades (rotation_2025): their definitions in rules_source/cards/standard/,
the constructs added for them, and the ruling scenarios in rules_source/scenarios/standard/ruling-*.yaml.

The slice is computed from NetrunnerDB's own pool files (not from the definitions); every definition loads
with NetrunnerDB statistics; the constructs are exercised by scenarios asserting events, cited rules and
state; each ruling scenario replays to its ruling's answer, or misses it where it carries `mismatch`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import replays
from corpora import CORPORA
from pool_scenarios import kinds_and_rules as _kinds
from pool_slices import standard_pool_types
from test_game_verbs import verbs_registered  # noqa: F401  (a fixture: the verbs, registered for this module)

from judgebook.engine.driver.script import check, replay
from judgebook.engine.language.cards import library_items, undefined_reason
from judgebook.engine.language.nodes import At, node_line
from judgebook.engine.language.nrdb import card_source, load_with_stats, parse_with_stats
from judgebook.engine.scenario.load import parse_scenario

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
TYPES = {"ice", "upgrade"}


def _slice_ids(cards_root: Path) -> set[str]:
    return set(standard_pool_types(cards_root, TYPES))


def _items(ids: set[str]) -> dict[str, object]:
    return {i: library_items(LIBRARY / f"{i}.yaml")[0] for i in sorted(ids)}


def test_the_slice_is_79_ice_and_30_upgrades(cards_root: Path):
    ids = _slice_ids(cards_root)
    types = [json.loads((cards_root / "v2" / "cards" / f"{i}.json").read_text(encoding="utf-8"))["card_type_id"]
             for i in ids]
    assert (types.count("ice"), types.count("upgrade")) == (79, 30)


def test_every_card_of_the_slice_has_a_file_keyed_by_its_id(cards_root: Path):
    ids = _slice_ids(cards_root)
    for i, item in _items(ids).items():
        assert isinstance(item, dict) and item["id"] == i


def test_every_definition_loads_with_netrunnerdb_statistics(cards_root: Path):
    source = card_source(cards_root)
    defined = partial = undefined = 0
    for i, item in _items(_slice_ids(cards_root)).items():
        if undefined_reason(item) is not None:
            undefined += 1
            continue
        card = parse_with_stats(item, source, At("card", node_line(item, 1)), str(LIBRARY / f"{i}.yaml"))
        stats = source.by_id[i]
        assert (card.name, card.type, card.side, card.cost) == (stats.title, stats.type, stats.side, stats.cost)
        if card.type == "ice":
            assert card.strength == stats.strength
        partial += card.partial is not None
        defined += card.partial is None
    # Counted independently: `grep -L 'partial:\|undefined:' rules_source/cards/standard/<slice>.yaml | wc -l`,
    # `grep -l '^partial:'` and `grep -l '^undefined:'` over the slice's 109 files.
    assert (defined, partial, undefined) == (DEFINED, PARTIAL, UNDEFINED)


DEFINED, PARTIAL, UNDEFINED = 108, 0, 1


def test_the_library_loader_takes_every_defined_card(cards_root: Path):
    lib = load_with_stats(LIBRARY, cards_root, {str(it["name"]) for it in _items(_slice_ids(cards_root)).values()
                                                if isinstance(it, dict)})
    assert len(lib) == DEFINED + PARTIAL


# --- ruling scenarios ----------------------------------------------------------------------------


def _collect() -> list[Path]:
    """This slice's ruling scenarios (ruling-<card id>-<n>.yaml), read at collection from the corpora folder
    the fixtures use; without it the list is empty and test_at_least_25_ruling_scenarios fails or skips."""
    cards = CORPORA / "netrunner-cards-json"
    if not cards.is_dir():
        return []
    ids = _slice_ids(cards)
    return [p for p in sorted(SCENARIOS.glob("ruling-*.yaml")) if p.stem[len("ruling-"):].rsplit("-", 1)[0] in ids]


RULINGS = _collect()


def test_at_least_25_ruling_scenarios_for_the_slice(cards_root: Path):
    assert len(RULINGS) >= 25


@pytest.mark.parametrize("path", RULINGS, ids=[p.stem for p in RULINGS])
def test_ruling_scenario_replays_to_its_ruling(path: Path, cards_root: Path):
    r = replays.shipped(path, LIBRARY, cards_root)
    sc, diffs = r.sc, r.misses
    if sc.mismatch is None:
        assert diffs == []
    else:
        assert diffs != [], "a scenario marked `mismatch` meets its expectation: the mark is stale"


@pytest.mark.parametrize("path", RULINGS, ids=[p.stem for p in RULINGS])
def test_ruling_scenario_names_its_ruling(path: Path, cards_root: Path):
    text = path.read_text(encoding="utf-8")
    m = re.search(r'^source: "NetrunnerDB ruling: ([a-z0-9_]+), (\d{4}-\d\d-\d\d), (not )?NSG-verified"$', text, re.M)
    assert m, "source: \"NetrunnerDB ruling: <card_id>, <date_update>, NSG-verified\" (or not NSG-verified)"
    card_id, date, unverified = m.groups()
    assert path.stem.startswith(f"ruling-{card_id}-")
    rulings = json.loads((cards_root / "v2" / "rulings" / f"{card_id}.json").read_text(encoding="utf-8"))
    found = [r for r in rulings if r["date_update"].startswith(date)]
    assert found, f"no ruling of {date} on {card_id}"
    assert any(r["nsg_rules_team_verified"] is (unverified is None) for r in found)


# --- the constructs added for this slice, each on a scenario: events, cited rules, state -----------


def _replay(text: str, cards_root: Path):  # type: ignore[no-untyped-def]
    sc = parse_scenario(text, None, LIBRARY, cards_root)
    out = replay(sc)
    assert check(sc, out) == []
    return out


def _pending(out) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "pending"]


JAGUARUNDI = """
title: Jaguarundi's Threat 4 ability
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Jaguarundi, rezzed: true}]}
runner:
  score: [%s]
card_defs: [{name: Hostile Takeover}, {name: Project Vitruvius}, {name: Vanity Project}]
decisions:
  - {action: run, server: HQ}
"""


def test_threat_turns_an_ability_on_at_the_threat_level(cards_root: Path):
    # NetrunnerDB: Vanity Project is worth 4 points; Hostile Takeover 1 + Project Vitruvius 2 = 3.
    on = _replay(JAGUARUNDI % "Vanity Project", cards_root)
    assert "Jaguarundi:encounter" in _pending(on)
    off = _replay(JAGUARUNDI % "Hostile Takeover, Project Vitruvius", cards_root)
    assert "Jaguarundi:encounter" not in _pending(off)
    # Unpaid, the encounter ability's tag comes before the subroutines' (2 tags in all, against 1).
    assert [k for k in _kinds(on) if k[0] == "tags_taken"] == [("tags_taken", "rule_tag")] * 2
    assert [k for k in _kinds(off) if k[0] == "tags_taken"] == [("tags_taken", "rule_tag")]


BATHYNOMUS = """
title: Bathynomus protecting %s
start: {turn: corp, at: action_phase}
corp:
  servers:
    %s: {ice: [{card: Bathynomus, rezzed: true}]}
expect:
  state:
    cards:
      Bathynomus: {strength: %d}
"""


def test_protecting_holds_for_the_server_the_ice_protects(cards_root: Path):
    printed = card_source(cards_root).by_id["bathynomus"].strength
    assert printed is not None
    _replay(BATHYNOMUS % ("Archives", "Archives", printed + 3), cards_root)
    _replay(BATHYNOMUS % ("HQ", "HQ", printed), cards_root)


ADVANCE = """
title: advancing ice that says it can be advanced
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  servers:
    HQ: {ice: [Pharos]}
    R&D: {ice: [Maskirovka]}
decisions:
  - {action: advance, card: %s}
"""


def test_can_be_advanced_makes_the_advance_action_legal_on_unrezzed_ice(cards_root: Path):
    out = _replay(ADVANCE % "Pharos", cards_root)
    assert ("action", "corp_basic_action_advance") in _kinds(out)
    assert out.states[-1].cards["Pharos"].count("advancement") == 1
    refused = replay(parse_scenario(ADVANCE % "Maskirovka", None, LIBRARY, cards_root))
    assert refused.error is not None and "rule_action_window" in str(refused.error)
    first = next(g.point for g in refused.states if g.point is not None and g.point.kind == "action")
    advanced = {str(o.decision.get("card")) for o in first.options if o.rule == "corp_basic_action_advance"}
    assert advanced == {"Pharos"}


VASILISA = """
title: Vasilisa places a counter on a card the Corp can advance
start: {turn: runner, at: action_phase}
corp:
  credits: 5
  servers:
    HQ: {ice: [{card: Vasilisa, rezzed: true}]}
    R&D: {ice: [{card: Maskirovka, rezzed: true}, Pharos]}
decisions:
  - {action: run, server: HQ}
  - {pay: true, player: corp}
expect:
  state:
    corp: {credits: 4}
    cards:
      Pharos: {counters: {advancement: 1}}
      Maskirovka: {counters: {advancement: 0}}
"""


def test_can_be_advanced_filter_offers_only_advanceable_cards(cards_root: Path):
    sc = parse_scenario(VASILISA, None, LIBRARY, cards_root)
    out = replay(sc)
    assert check(sc, out) == []
    targets = [g.point for g in out.states if g.point is not None and g.point.kind == "target"]
    assert targets and [o.decision.value for o in targets[0].options] == [["Pharos"]]


HAGEN = """
title: Hagen trashes a program that is not a decoder, fracter or killer
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Hagen, rezzed: true}]}
runner:
  installed: [Corroder, Datasucker]
card_defs: [{name: Corroder}, {name: Datasucker}]
decisions:
  - {action: run, server: HQ}
expect:
  state:
    runner: {installed: [Corroder], trashed: [Datasucker]}
"""


def test_not_subtype_leaves_out_the_named_subtypes(cards_root: Path):
    out = _replay(HAGEN, cards_root)
    assert ("trashed", "rule_trashing") in _kinds(out)


FLYSWATTER = """
title: Flyswatter purges virus counters when rezzed during a run on its server
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [Flyswatter]}
runner:
  installed: [{card: Datasucker, counters: {virus: 2}}]
card_defs: [{name: Datasucker}]
decisions:
  - {action: run, server: HQ}
  - {rez: Flyswatter, player: corp}
expect:
  run: {successful: false, ended_by: end_the_run}
  resolved: ["Flyswatter:rez"]
  state:
    cards:
      Datasucker: {counters: {virus: 0}}
"""


def test_purge_instruction_removes_every_virus_counter(cards_root: Path):
    out = _replay(FLYSWATTER, cards_root)
    assert ("purge", "rule_purge") in _kinds(out)


DROP_RATES = """
title: Increased Drop Rates removes 1 bad publicity unless the Runner takes 1 tag
start: {turn: runner, at: action_phase}
corp:
  bad_publicity: 1
  servers:
    Server 1: {root: [Increased Drop Rates]}
runner:
  credits: 0
decisions:
  - {action: run, server: Server 1}
  - {pay: %s, player: runner}
expect:
  state:
    corp: {bad_publicity: %d}
    runner: {tags: %d}
"""


def test_remove_bad_publicity_unless_the_runner_takes_a_tag(cards_root: Path):
    declined = _replay(DROP_RATES % ("false", 0, 0), cards_root)
    assert "Increased Drop Rates:access" in _pending(declined)
    taken = _replay(DROP_RATES % ("true", 1, 1), cards_root)
    assert ("tags_taken", "rule_cost") in _kinds(taken)  # the tag is a nested cost, paid


LAMPLIGHTER = """
title: Lamplighter is trashed when an agenda is scored from its server
start: {turn: corp, at: action_phase}
corp:
  servers:
    Server 1: {ice: [{card: Lamplighter, rezzed: true}], root: [{card: Hostile Takeover, counters: {advancement: 2}}]}
    Server 2: {ice: [{card: Lamplighter, id: Other, rezzed: true}]}
card_defs: [{name: Hostile Takeover}]
decisions:
  - {score: Hostile Takeover, player: corp}
expect:
  resolved: ["Lamplighter:scored"]
  not_resolved: ["Other:scored"]
  state:
    corp: {trashed: [Lamplighter], installed: [Other]}
"""


def test_scored_event_carries_the_server_it_was_scored_from(cards_root: Path):
    out = _replay(LAMPLIGHTER, cards_root)
    scored = [f.event for g in out.states[-1:] for f in g.history if f.event.name == "scored"]
    assert [e.get("server") for e in scored] == ["Server 1"]


TRANQUILITY = """
title: Tranquility Home Grid, the first install in its root this turn
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  hand: [PAD Campaign, Hedge Fund]
  servers:
    Server 1: {root: [{card: Tranquility Home Grid, rezzed: true}]}
card_defs: [{name: PAD Campaign}, {name: Hedge Fund}]
decisions:
  - {action: install, card: PAD Campaign, server: Server 1}
expect:
  resolved: ["Tranquility Home Grid:install"]
  state:
    corp: {credits: 7}
"""


def test_installed_event_carries_the_server_installed_in(cards_root: Path):
    out = _replay(TRANQUILITY, cards_root)
    assert ("installed", "rule_installing") in _kinds(out)


YAKOV = """
title: Yakov Erikovich Avdakov, a card trashed from the root of its server
start: {turn: runner, at: action_phase}
corp:
  credits: 0
  servers:
    Server 1: {root: [{card: Yakov Erikovich Avdakov, rezzed: true}, PAD Campaign]}
runner:
  credits: 10
card_defs: [{name: PAD Campaign}]
decisions:
  - {action: run, server: Server 1}
  - {access: PAD Campaign}
  - {trash: PAD Campaign}
expect:
  resolved: ["Yakov Erikovich Avdakov:trashed"]
  state:
    corp: {credits: 2}
"""


def test_trashed_event_carries_the_server_it_was_trashed_from(cards_root: Path):
    out = _replay(YAKOV, cards_root)
    assert ("trashed", "rule_trashing") in _kinds(out)


TREE_LINE = """
title: Tree Line's action used from HQ
start: {turn: corp, at: action_phase}
corp:
  credits: 5
  hand: [Tree Line]
  servers:
    HQ: {ice: [Maskirovka]}
decisions:
  - {action: use, card: Tree Line, ability: from-hq}
expect:
  state:
    corp: {credits: 4, clicks: 2, hand: 0}
    cards:
      Maskirovka: {counters: {advancement: 3}}
      Tree Line: {zone: discard}
"""


def test_an_action_of_a_card_in_hand_is_offered_and_trashes_it_as_its_cost(cards_root: Path):
    out = _replay(TREE_LINE, cards_root)
    assert ("action", "rule_action") in _kinds(out)
    assert ("trashed", "rule_trashing") in _kinds(out)


TYR = """
title: The Runner breaks Tyr's subroutines with the ice's own "Lose [click]" ability
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Týr, rezzed: true}]}
decisions:
  - {action: run, server: HQ}
  - {use: Týr, ability: break, subroutines: [1], player: runner}
  - {use: Týr, ability: break, subroutines: [2], player: runner}
  - {use: Týr, ability: break, subroutines: [3], player: runner}
expect:
  run: {successful: true}
  state:
    runner: {clicks: 0, core_damage: 0}
"""


def test_used_by_runner_lets_the_runner_break_the_encountered_ice_losing_clicks(cards_root: Path):
    out = _replay(TYR, cards_root)
    broken = [k for k in _kinds(out) if k[0] == "subroutine_broken"]
    assert broken == [("subroutine_broken", "rule_break_subroutine")] * 3
    assert [k for k in _kinds(out) if k[0] == "clicks_lost"] == [("clicks_lost", "rule_cost")] * 3
    # Lost, not spent: the only click spent is the run action's.
    assert [k for k in _kinds(out) if k[0] == "clicks_spent"] == [("clicks_spent", "rule_cost")]


def test_the_corp_cannot_use_an_ability_only_the_runner_can_use(cards_root: Path):
    out = replay(parse_scenario(TYR, None, LIBRARY, cards_root))
    corp_points = [g.point for g in out.states if g.point is not None and g.point.player == "corp"]
    assert corp_points and not any(o.decision.kind == "use" for p in corp_points for o in p.options)


F2P = """
title: F2P's break ability only for an untagged Runner
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: F2P, rezzed: true}]}
runner:
  credits: 4
  tags: %d
decisions:
  - {action: run, server: HQ}
  - {use: F2P, ability: break, subroutines: [1], player: runner}
"""


def test_a_runner_only_ability_keeps_its_use_restriction(cards_root: Path):
    untagged = replay(parse_scenario(F2P % 0, None, LIBRARY, cards_root))
    assert untagged.error is None
    assert ("subroutine_broken", "rule_break_subroutine") in _kinds(untagged)
    tagged = replay(parse_scenario(F2P % 1, None, LIBRARY, cards_root))
    refusals = {r.rule for g in tagged.states if g.point is not None for r in g.point.refused
                if r.decision.kind == "use" and r.decision.value == "F2P"}
    assert refusals == {"rule_use_restriction"}


AFSHAR = """
title: Afshar protecting %s, both subroutines broken one at a time
start: {turn: runner, at: action_phase}
corp:
  servers:
    %s: {ice: [{card: Afshar, rezzed: true}]}
runner:
  credits: 10
  installed: [Breaker]
card_defs:
  - {name: Breaker, side: runner, type: program, subtypes: [icebreaker, %s], cost: 0, strength: 9,
     abilities: [{id: break, cost: {credits: 1}, break: {count: 1}}]}
decisions:
  - {action: run, server: %s}
  - {use: Breaker, ability: break, subroutines: [1], at: encounter_ice}
  - {use: Breaker, ability: break, subroutines: [2], at: encounter_ice}
"""


def test_cannot_break_more_than_one_subroutine_each_encounter(cards_root: Path):
    free = replay(parse_scenario(AFSHAR % ("R&D", "R&D", "decoder", "R&D"), None, LIBRARY, cards_root))
    assert free.error is None
    assert ("fully_broken", "rule_fully_break") in _kinds(free)
    limited = replay(parse_scenario(AFSHAR % ("HQ", "HQ", "decoder", "HQ"), None, LIBRARY, cards_root))
    assert limited.error is not None
    broken = [k for k in _kinds(limited) if k[0] == "subroutine_broken"]
    assert broken == [("subroutine_broken", "rule_break_subroutine")]
    refused = {r.rule for g in limited.states if g.point is not None for r in g.point.refused
               if r.decision.kind == "use" and r.decision.value == "Breaker"}
    assert "rule_cannot_precedence" in refused


HAMMER = AFSHAR.replace("Afshar", "Hammer").replace(
    "  - {use: Breaker, ability: break, subroutines: [2], at: encounter_ice}\n",
    "  - {use: Breaker, ability: break, subroutines: [2], at: encounter_ice}\n"
    "  - {use: Breaker, ability: break, subroutines: [3], at: encounter_ice}\n")


def test_cannot_break_except_using_a_subtype(cards_root: Path):
    killer = replay(parse_scenario(HAMMER % ("HQ", "HQ", "killer", "HQ"), None, LIBRARY, cards_root))
    assert killer.error is None and ("fully_broken", "rule_fully_break") in _kinds(killer)
    other = replay(parse_scenario(HAMMER % ("HQ", "HQ", "decoder", "HQ"), None, LIBRARY, cards_root))
    assert other.error is not None
    assert len([k for k in _kinds(other) if k[0] == "subroutine_broken"]) == 1


REGION = """
title: a second region in the root of a server
start: {turn: corp, at: action_phase}
corp:
  hand: [Cayambe Grid]
  servers:
    Server 1: {root: [Djupstad Grid, PAD Campaign]}
card_defs: [{name: PAD Campaign}]
decisions:
  - {action: install, card: Cayambe Grid, server: Server 1}
expect:
  state:
    corp: {installed: [Cayambe Grid, PAD Campaign], trashed: [Djupstad Grid]}
"""


def test_installing_a_region_trashes_the_region_already_in_that_root(cards_root: Path):
    out = _replay(REGION, cards_root)
    assert ("trashed", "rule_region_install") in _kinds(out)  # the trash cites the rule that decides it
    elsewhere = _replay(REGION.replace("server: Server 1}", "server: new}").replace(
        "installed: [Cayambe Grid, PAD Campaign], trashed: [Djupstad Grid]",
        "installed: [Cayambe Grid, PAD Campaign, Djupstad Grid]"), cards_root)
    assert "rule_region_install" not in [a for _, a in _kinds(elsewhere)]


def test_server_only_refuses_every_central_root_and_allows_remotes(cards_root: Path):
    sc = parse_scenario(REGION.replace("Cayambe Grid", "La Costa Grid"), None, LIBRARY, cards_root)
    out = replay(sc)
    action = next(g.point for g in out.states if g.point is not None and g.point.kind == "action")
    refused = {str(r.decision.get("server")) for r in action.refused
               if r.decision.get("card") == "La Costa Grid" and r.rule == "rule_x_server_only"}
    allowed = {str(o.decision.get("server")) for o in action.options if o.decision.get("card") == "La Costa Grid"}
    assert refused == {"HQ", "R&D", "Archives"}
    assert allowed == {"Server 1", "new"}


ENVELOPMENT = """
title: Envelopment's gained subroutines come before its printed one
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Envelopment, rezzed: true, counters: {power: 2}}]}
runner:
  credits: 10
  installed: [Breaker]
card_defs:
  - {name: Breaker, side: runner, type: program, subtypes: [icebreaker], cost: 0, strength: 9,
     abilities: [{id: break, cost: {credits: 1}, break: {count: 1}}]}
decisions:
  - {action: run, server: HQ}
  - {use: Breaker, ability: break, subroutines: [1], at: encounter_ice}
  - {use: Breaker, ability: break, subroutines: [2], at: encounter_ice}
expect:
  run: {successful: true}
  state:
    corp: {trashed: [Envelopment]}
    runner: {credits: 8}
"""


def test_gain_subroutine_adds_subroutines_before_the_printed_ones(cards_root: Path):
    # 2 power counters: 2 "End the run." first, then "Trash this ice.": both gained ones broken, the
    # printed one resolves and trashes Envelopment.
    out = _replay(ENVELOPMENT, cards_root)
    subs = [s.ability for s in out.steps if s.kind == "subroutine"]
    assert subs == ["sub3"]
    assert ("trashed", "rule_trashing") in _kinds(out)


WINCHESTER = """
title: Winchester protecting %s, unbroken
start: {turn: runner, at: action_phase}
corp:
  servers:
    %s: {ice: [{card: Winchester, rezzed: true}]}
decisions:
  - {action: run, server: %s}
expect:
  run: {successful: %s}
"""


def test_gain_subroutine_while_a_condition_holds(cards_root: Path):
    hq = _replay(WINCHESTER % ("HQ", "HQ", "HQ", "false"), cards_root)
    assert [s.ability for s in hq.steps if s.kind == "subroutine"] == ["sub1", "sub2", "sub3"]
    rd = _replay(WINCHESTER % ("R&D", "R&D", "R&D", "true"), cards_root)
    assert [s.ability for s in rd.steps if s.kind == "subroutine"] == ["sub1", "sub2"]


VOVO = """
title: Vovô Ozetti lowers the rez cost of ice protecting its server
start: {turn: runner, at: action_phase}
corp:
  credits: 10
  servers:
    %s: {ice: [Ivik], root: [{card: Vovô Ozetti, rezzed: true}]}
    R&D: {ice: [{card: Funhouse, rezzed: true}]}
decisions:
  - {action: run, server: %s}
  - {rez: Ivik, player: corp}
expect:
  state:
    corp: {credits: %d}
    cards:
      Ivik: {rezzed: true}
"""


def test_rez_cost_statics_add_up_and_a_card_lowers_its_own_while_unrezzed(cards_root: Path):
    printed = card_source(cards_root).by_id["ivik"].cost
    assert printed is not None
    # Ivik: 1 less for the rezzed Funhouse (a code gate); Vovô Ozetti: 2 less for ice protecting its server.
    out = _replay(VOVO % ("HQ", "HQ", 10 - (printed - 3)), cards_root)
    assert ("rezzed", "rule_rez_procedure") in _kinds(out)


CLOUD_EATER = """
title: Cloud Eater's ability when an encounter with it ends
start: {turn: runner, at: action_phase}
corp:
  credits: 10
  servers:
    HQ: {ice: [{card: Cloud Eater, rezzed: %s}]}
runner:
  credits: 10
  installed: [Breaker]
card_defs:
  - {name: Breaker, side: runner, type: program, subtypes: [icebreaker], cost: 0, strength: 9,
     abilities: [{id: break, cost: {credits: 1}, break: {count: all}}]}
decisions:
  - {action: run, server: HQ}
  %s
  - {use: Breaker, ability: break, subroutines: [1, 2, 3], at: encounter_ice}
"""


def test_rezzed_this_turn_holds_only_for_a_card_rezzed_this_turn(cards_root: Path):
    fresh = replay(parse_scenario(CLOUD_EATER % ("false", "- {rez: Cloud Eater, player: corp}"), None, LIBRARY,
                                  cards_root))
    assert "Cloud Eater:encounter-ends" in _pending(fresh)
    assert ("trashed", "rule_trashing") in _kinds(fresh)  # nothing paid: the Runner loses the Breaker
    old = replay(parse_scenario(CLOUD_EATER % ("true", ""), None, LIBRARY, cards_root))
    assert "Cloud Eater:encounter-ends" not in _pending(old)


REDUCED_SERVICE = """
title: Reduced Service, rezzed with 3 power counters bought, taxes a run on its server
start: {turn: corp, at: action_phase}
corp:
  credits: 10
  clicks: 1
  servers:
    Server 1: {root: [Reduced Service]}
runner:
  credits: 7
decisions:
  - {rez: Reduced Service, player: corp}
  - {choose: 4, player: corp}
  - {action: gain_credit, player: corp}
  - {action: run, server: Server 1, player: runner}
expect:
  state:
    corp: {credits: %d}
    runner: {credits: 1}
    cards:
      Reduced Service: {counters: {power: 3}}
"""


def test_an_additional_cost_quantity_is_valued_on_the_card_that_states_it(cards_root: Path):
    printed = card_source(cards_root).by_id["reduced_service"].cost
    assert printed is not None
    out = _replay(REDUCED_SERVICE % (10 - printed - 3 + 1), cards_root)
    assert ("action", "runner_basic_action_run") in _kinds(out)


KONJIN = """
title: Konjin's Psi Game
start: {turn: runner, at: action_phase}
corp:
  credits: 5
  servers:
    HQ: {ice: [{card: Konjin, rezzed: true}]}
    R&D: {ice: [{card: Maskirovka, rezzed: true}]}
runner:
  credits: 5
decisions:
  - {action: run, server: HQ}
  - {trace: 1, player: corp}
  - {trace: %d, player: runner}
  %s
expect:
  run: {successful: %s}
  state:
    corp: {credits: %d}
    runner: {credits: %d}
"""


def test_psi_game_bids_are_spent_and_the_outcome_picks_the_branch(cards_root: Path):
    # Bids differ: the Corp has the Runner encounter Maskirovka (gain 2[c]; end the run).
    differ = _replay(KONJIN % (0, "- {choose: 2, player: corp}", "false", 6, 5), cards_root)
    assert ("psi_outcome", "rule_psi_outcome") in _kinds(differ)
    assert ("forced_encounter", "rule_forced_encounter") in _kinds(differ)
    match = _replay(KONJIN % (1, "", "true", 4, 4), cards_root)
    assert ("psi_outcome", "rule_psi_outcome") in _kinds(match)
    assert "forced_encounter" not in [k for k, _ in _kinds(match)]


def test_psi_game_refuses_a_bid_the_player_cannot_spend(cards_root: Path):
    sc = parse_scenario((KONJIN % (0, "", "false", 6, 5)).replace("  credits: 5\ndecisions", "  credits: 1\ndecisions"),
                        None, LIBRARY, cards_root)
    out = replay(sc)
    bids = [g.point for g in out.states if g.point is not None and g.point.rule == "rule_psi_bid_options"
            and g.point.player == "runner"]
    assert bids and [o.decision.value for o in bids[0].options] == [0, 1]
    assert [(r.decision.value, r.rule) for r in bids[0].refused] == [(2, "rule_bid_possible")]


ADRIAN = """
title: Adrian Seis's Psi Game
start: {turn: runner, at: action_phase}
corp:
  servers:
    Server 1: {root: [{card: Adrian Seis, rezzed: true}, Hostile Takeover]}
runner:
  credits: 5
card_defs: [{name: Hostile Takeover}]
decisions:
  - {action: run, server: Server 1}
  - {trace: 0, player: corp}
  - {trace: %d, player: runner}
expect:
  run: {successful: true}
  state:
    runner: {score: %d}
"""


def test_psi_game_branches_limit_what_the_runner_accesses(cards_root: Path):
    differ = _replay(ADRIAN % (1, 0), cards_root)  # only Adrian Seis can be accessed: no agenda stolen
    accessed = [s.card for s in differ.steps if s.kind == "access"]
    assert accessed == ["Adrian Seis"]
    match = _replay(ADRIAN % (0, 1), cards_root)  # Adrian Seis cannot be accessed; the agenda is stolen
    assert [s.card for s in match.steps if s.kind == "access"] == ["Hostile Takeover"]


ISAAC = """
title: Isaac Liberdade moves to another server's root as the Corp's turn ends
start: {turn: corp, at: action_phase}
corp:
  clicks: 1
  servers:
    Server 1: {root: [{card: Isaac Liberdade, rezzed: true}]}
    Server 2: {ice: [{card: Ice Wall, id: Advanced, counters: {advancement: 1}}, {card: Ice Wall, id: Plain}]}
    Server 3: {root: [{card: Djupstad Grid, rezzed: true}]}
card_defs: [{name: Ice Wall}]
decisions:
  - {action: gain_credit, player: corp}
  - {target: [Server 2], player: corp}
  - {target: Plain, player: corp}
expect:
  resolved: ["Isaac Liberdade:move", "Isaac Liberdade:moved"]
  state:
    cards:
      Isaac Liberdade: {zone: installed, rezzed: true}
      Plain: {counters: {advancement: 1}}
      Advanced: {counters: {advancement: 1}}
"""


def test_move_to_root_keeps_the_same_object_and_triggers_moved_to_root(cards_root: Path):
    out = _replay(ISAAC, cards_root)
    assert ("moved_to_root", "rule_object_move_known_location") in _kinds(out)
    assert out.states[-1].cards["Isaac Liberdade"].zone.endswith("Server 2.root")
    # The target of the "moved" ability: only ice protecting its new server with no advancement counter.
    points = [g.point for g in out.states if g.point is not None and g.point.kind == "target"]
    assert sorted(o.decision.value[0] for o in points[0].options) == ["Archives", "HQ", "R&D", "Server 2", "Server 3"]
    assert [o.decision.value for o in points[1].options] == [["Plain"]]


LOGJAM = """
title: Logjam rezzed with three card types faceup in Archives
start: {turn: runner, at: action_phase}
corp:
  credits: 10
  discard: [Hedge Fund, {card: Hedge Fund, id: Second}, Ice Wall, PAD Campaign, {card: Hostile Takeover, faceup: false}]
  servers:
    HQ: {ice: [Logjam]}
card_defs: [{name: Hedge Fund}, {name: Ice Wall}, {name: PAD Campaign}, {name: Hostile Takeover}]
decisions:
  - {action: run, server: HQ}
  - {rez: Logjam, player: corp}
expect:
  run: {successful: false, ended_by: end_the_run}
  state:
    cards:
      Logjam: {counters: {advancement: 4}}
"""


def test_card_types_counts_types_not_cards_and_only_the_faceup_ones(cards_root: Path):
    # operation, ice, asset faceup (the facedown agenda is not seen): 1 + 3 counters.
    out = _replay(LOGJAM, cards_root)
    assert "Logjam:rez" in _pending(out)


ATTINI = """
title: Attini at threat level %d
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Attini, rezzed: true}]}
runner:
  credits: 6
  hand: [Sure Gamble, Sure Gamble, Sure Gamble, Sure Gamble]
  score: [%s]
card_defs: [{name: Sure Gamble}, {name: Hostile Takeover}, {name: Project Vitruvius}]
decisions:
  - {action: run, server: HQ}
  - {pay: true, player: runner, if_able: true}
  - {pay: true, player: runner, if_able: true}
  - {pay: true, player: runner, if_able: true}
expect:
  state:
    runner: {credits: %d, hand: %d}
"""


def test_resolving_subroutines_bars_spending_while_this_ice_resolves_them(cards_root: Path):
    # Threat 3 (1 + 2 points): the Runner cannot pay 2[c] for any subroutine and takes 3 net damage.
    barred = _replay(ATTINI % (3, "Hostile Takeover, Project Vitruvius", 6, 1), cards_root)
    assert [k for k in _kinds(barred) if k[0] == "damage"] == [("damage", "rule_meat_net_damage")] * 3
    # Threat 1: the Runner pays for all three.
    paid = _replay(ATTINI % (1, "Hostile Takeover", 0, 4), cards_root)
    assert "damage" not in [k for k, _ in _kinds(paid)]
