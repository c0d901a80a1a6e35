"""Round 3 of the Standard pool, family `abilities`: cards losing all their abilities, ice gaining subtypes,
strength given to another card for a duration, and the Runner barred from using paid abilities of some cards
(language/gained_abilities.py, rules/gained_abilities.py). Each construct on a scenario: events, cited rules,
state; and the card scenarios of the family replay to their expectations."""

from __future__ import annotations

from pathlib import Path

import pytest
import replays

from judgebook.engine.driver.script import check, replay
from judgebook.engine.scenario.load import parse_scenario

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
CARDS = ("klevetnik", "direct_access", "light_the_fire", "chromatophores", "hakarl_1_0", "brasilia_government_grid",
         "lycian_multi_munition", "pelangi", "hush", "nanisivik_grid", "zato_city_grid",
         "banner", "virtual_service_agent", "tsakhia_bankhar_gantulga",
         "gamedragon_pro", "airbladex_jsrf_ed")


def _files() -> list[Path]:
    return sorted(p for p in SCENARIOS.glob("*.yaml") if p.stem.split("-")[1] in CARDS)


def _replay(text: str, cards_root: Path, clean: bool = True):  # type: ignore[no-untyped-def]
    sc = parse_scenario(text, None, LIBRARY, cards_root)
    out = replay(sc)
    if clean:
        assert check(sc, out) == []
    return sc, out


def _pending(out) -> list[str]:  # type: ignore[no-untyped-def]
    return [f"{s.card}:{s.ability}" for s in out.steps if s.kind == "pending"]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.stem)
def test_the_family_scenarios_replay_to_their_expectation(path: Path, cards_root: Path):
    assert replays.shipped(path, LIBRARY, cards_root).misses == []


def test_there_is_a_scenario_for_each_card_of_the_family():
    assert {p.stem.split("-")[1] for p in _files()} == set(CARDS)


# --- lose_abilities ----------------------------------------------------------------------------------------

PAYDAY = """
title: t
start: {turn: runner, run: {server: HQ, at: approach_ice, ice: 1}}
corp:
  credits: 3
  servers:
    HQ: {ice: [Klevetnik]}
runner:
  credits: 0
  installed: [Payday Stand]
card_defs:
  - {name: Payday Stand, side: runner, type: resource, cost: 0,
     abilities: [{id: pay, trigger: run_ends, effects: [{gain_credits: 3}]}]}
decisions:
  - {rez: Klevetnik}
  - DECISION
"""


def test_a_blanked_resource_does_not_trigger_and_one_left_alone_does(cards_root: Path):
    _, blanked = _replay(PAYDAY.replace("DECISION", "{target: Payday Stand, player: corp}"), cards_root, False)
    lasting = [s for s in blanked.steps if s.kind == "lasting"]
    assert [s.anchor for s in lasting] == ["rule_lingering_effect"]
    assert "Payday Stand:pay" not in _pending(blanked)
    # The Corp declines Klevetnik's ability: the resource keeps its ability and pays at the end of the run.
    _, kept = _replay(PAYDAY.replace("DECISION", "{decline: Klevetnik, ability: rez}"), cards_root, False)
    assert "Payday Stand:pay" in _pending(kept)
    assert not [s for s in kept.steps if s.kind == "lasting"]


def test_the_blanking_lasts_until_the_end_of_the_corps_next_turn(cards_root: Path):
    from judgebook.engine.rules.gained_abilities import abilities

    _, out = _replay(PAYDAY.replace("DECISION", "{target: Payday Stand, player: corp}"), cards_root, False)
    g = out.states[-1]
    assert abilities(g, "Payday Stand") == ()
    lasting = [x for x in g.lasting if x.effect is not None and x.effect.name == "lose_abilities"]
    assert len(lasting) == 1
    assert (lasting[0].duration.kind, lasting[0].duration.player) == ("until_turn_end", "corp")


IDENTITIES = """
title: t
start: {turn: runner, at: action_phase}
corp:
  identity: Watchful Corp
runner:
  identity: Lucky Runner
  hand: [CARD]
card_defs:
  - {name: Watchful Corp, side: corp, type: identity,
     abilities: [{id: watch, trigger: run_begins, effects: [{gain_credits: 2}]}]}
  - {name: Lucky Runner, side: runner, type: identity,
     abilities: [{id: luck, trigger: successful_run, effects: [{gain_credits: 1}]}]}
  - {name: Plain Run, side: runner, type: event, cost: 1, abilities: [{id: play, effects: [{run: any}]}]}
decisions:
  - {action: play, card: CARD, server: HQ}
"""


def test_identities_lose_their_abilities_only_while_direct_access_resolves(cards_root: Path):
    _, direct = _replay(IDENTITIES.replace("CARD", "Direct Access"), cards_root, False)
    assert not {"Watchful Corp:watch", "Lucky Runner:luck"} & set(_pending(direct))
    _, plain = _replay(IDENTITIES.replace("CARD", "Plain Run"), cards_root, False)
    assert {"Watchful Corp:watch", "Lucky Runner:luck"} <= set(_pending(plain))


# --- gain_subtypes -------------------------------------------------------------------------------------------

SENTRY = """
title: t
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Plain Sentry, rezzed: true}]}
runner:
  hand: [Chromatophores]
  installed: [Plain Fracter]
card_defs:
  - {name: Plain Sentry, side: corp, type: ice, subtypes: [sentry], cost: 1, strength: 1, subroutines: [[end_the_run]]}
  - {name: Plain Fracter, side: runner, type: program, subtypes: [icebreaker, fracter], cost: 0, strength: 2,
     abilities: [{id: break, cost: {credits: 1}, break: {subtype: barrier, count: 1}}]}
decisions:
  INSTALL
  - {action: run, server: HQ}
  - {use: Plain Fracter, ability: break}
EXPECT
"""


def test_a_host_ice_gains_the_subtypes_only_while_chromatophores_is_on_it(cards_root: Path):
    from judgebook.engine.rules.gained_abilities import subtypes

    install = "- {action: install, card: Chromatophores, server: Plain Sentry}"
    _, out = _replay(SENTRY.replace("INSTALL", install).replace("EXPECT", "expect: {run: {successful: true}}"),
                     cards_root)
    assert ("subroutine_broken", "rule_break_subroutine") in [(s.kind, s.anchor) for s in out.steps]
    assert set(subtypes(out.states[-1], "Plain Sentry")) == {"sentry", "barrier", "code gate"}
    # Without Chromatophores the sentry is no barrier: the fracter's break is refused.
    _, out = _replay(SENTRY.replace("INSTALL", "").replace(
        "EXPECT", "expect: {error: {rule: rule_paid_ability_breaks_subroutines}}"), cards_root)
    assert subtypes(out.states[-1], "Plain Sentry") == ("sentry",)


# --- cannot use_paid_abilities, other_than, strength for another card -----------------------------------------


def test_hakarl_refuses_the_runner_its_break_ability_only_after_derezzing_a_card(cards_root: Path):
    path = SCENARIOS / "card-hakarl_1_0-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    assert [s.anchor for s in out.steps if s.kind == "lasting"] == ["rule_lingering_effect"]
    # The Corp declines the rez ability: the Runner breaks a subroutine losing a click.
    text = path.read_text(encoding="utf-8").replace(
        "  - {target: Plain Upgrade, player: corp}\n", "").replace(
        "  - {rez: Hákarl 1.0}\n", "  - {rez: Hákarl 1.0}\n  - {decline: Hákarl 1.0, ability: rez}\n").replace(
        "{use: Hákarl 1.0, ability: break, player: runner}", "{use: Hákarl 1.0, ability: break, subroutines: [2]}")
    sc, out = _replay(text, cards_root, False)
    assert ("subroutine_broken", "rule_break_subroutine") in [(s.kind, s.anchor) for s in out.steps]


def test_brasilia_gives_the_rezzed_ice_strength_for_the_run_and_never_offers_it_to_derez(cards_root: Path):
    from judgebook.engine.rules.values import strength

    path = SCENARIOS / "card-brasilia_government_grid-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    g = out.states[-1]
    assert strength(g, "Plain Wall") == 4 and strength(g, "Other Wall") == 1
    targets = [s for s in out.steps if s.kind == "target"]
    assert all("Plain Wall" not in s.text for s in targets)


# --- choose_subtypes ---------------------------------------------------------------------------------------------


def test_lycian_keeps_the_chosen_subtypes_until_it_is_derezzed_as_the_turn_ends(cards_root: Path):
    from judgebook.engine.rules.gained_abilities import subtypes
    from judgebook.engine.state import queries as q

    path = SCENARIOS / "card-lycian_multi_munition-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    chose = [s for s in out.steps if s.kind == "choose"]
    assert [(s.text, s.anchor) for s in chose] == [("the corp chooses barrier, code gate", "rule_choose_valid_subtype")]
    # The replay stops in the Runner's action phase after the run: still rezzed, still a barrier and a code gate.
    g = out.states[-1]
    assert g.cards["Lycian Multi-Munition"].rezzed
    printed = set(q.definition(g, "Lycian Multi-Munition").subtypes)
    assert set(subtypes(g, "Lycian Multi-Munition")) == printed | {"barrier", "code gate"}
    assert "sentry" not in printed
    # When the turn ends Lycian is derezzed, and the subtypes go with the rez ("while it remains rezzed").
    text = path.read_text(encoding="utf-8").replace("  - {choose: 4, player: corp}\n", "  - {choose: 4, player: corp}\n"
                                                      "  - {action: gain_credit}\n  - {action: gain_credit}\n"
                                                      "  - {action: gain_credit, player: corp}\n")
    _, out = _replay(text, cards_root, False)
    g = out.states[-1]
    assert not g.cards["Lycian Multi-Munition"].rezzed
    assert set(subtypes(g, "Lycian Multi-Munition")) == printed
    assert ("derezzed", "rule_rez_procedure") in [(s.kind, s.anchor) for s in out.steps]


def test_pelangi_offers_every_ice_subtype_and_nothing_else(cards_root: Path):
    """A chosen subtype must exist and belong to ice (NetrunnerDB ruling on Pelangi, 2019-04-29, not
    NSG-verified; rule_choose_valid_subtype): no "fracter"."""
    from judgebook.engine.language.gained_abilities import ICE_SUBTYPES

    path = SCENARIOS / "card-pelangi-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    assert [s.anchor for s in out.steps if s.kind == "subtypes"] == ["rule_add_remove_subtypes"]
    assert len(ICE_SUBTYPES) == 21 and "fracter" not in ICE_SUBTYPES and ICE_SUBTYPES[3] == "barrier"


def test_hush_moved_to_another_ice_gives_the_first_its_abilities_back(cards_root: Path):
    from judgebook.engine.state import queries as q

    path = SCENARIOS / "card-hush-1.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "HQ: {ice: [{card: Toll Wall, rezzed: true}]}",
        "HQ: {ice: [{card: Toll Wall, rezzed: true}]}\n    Server 1: {ice: [{card: Toll Wall, rezzed: true}]}").replace(
        "  - {action: run, server: HQ}",
        "  - {action: use, card: Hush, ability: move}\n  - {target: Toll Wall#2, player: runner}\n"
        "  - {action: run, server: HQ}").replace('not_resolved: ["Toll Wall:toll"]', 'resolved: ["Toll Wall:toll"]'
                                                  ).replace("credits: 4, installed", "credits: 3, installed")
    _, out = _replay(text, cards_root)
    g = out.states[-1]
    assert g.cards["Hush"].host == "Toll Wall#2" and q.is_installed(g, "Hush") and q.is_active(g, "Hush")


def test_nanisivik_resolves_only_the_chosen_subroutine_of_the_ice_it_turns_faceup(cards_root: Path):
    path = SCENARIOS / "card-nanisivik_grid-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    g = out.states[-1]
    assert g.cards["Split Wall"].faceup and g.cards["Split Wall"].zone == "corp.discard"
    steps = [(s.kind, s.anchor) for s in out.steps]
    assert steps.index(("turn_faceup", "rule_archives_faceup_facedown")) < steps.index(
        ("subroutine", "step_subroutine_resolution"))
    # The first subroutine instead: the Corp gains 2[c] and the run goes on to success.
    text = path.read_text(encoding="utf-8").replace("{choose: 2, player: corp}", "{choose: 1, player: corp}")
    sc, out = _replay(text, cards_root, False)
    assert out.states[-1].corp.credits == 2


# --- gain_ability ------------------------------------------------------------------------------------------------


def test_only_ice_protecting_a_rezzed_zato_grid_has_its_ability(cards_root: Path):
    from judgebook.engine.rules.gained_abilities import abilities, find_ability

    path = SCENARIOS / "card-zato_city_grid-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    assert "Split Wall:zato" in _pending(out)
    # The Corp declines to trash: the ice stays, no subroutine resolves outside the encounter's own.
    text = path.read_text(encoding="utf-8").replace("{pay: true, player: corp}", "{pay: false, player: corp}").replace(
        "  - {choose: 2, player: corp}\n", "")
    _, out = _replay(text, cards_root, False)
    g = out.states[-1]
    assert g.cards["Split Wall"].zone.endswith(".ice")
    assert [a.id for a in abilities(g, "Split Wall")] == ["zato"]
    assert find_ability(g, "Split Wall", "zato") is not None
    # Unrezzed, ZATO City Grid gives nothing.
    text = path.read_text(encoding="utf-8").replace("{card: ZATO City Grid, rezzed: true}", "ZATO City Grid").replace(
        "  - {pay: true, player: corp}\n  - {choose: 2, player: corp}\n", "")
    _, out = _replay(text, cards_root, False)
    assert "Split Wall:zato" not in _pending(out)
    assert abilities(out.states[-1], "Split Wall") == ()


# --- cannot end_the_run_by_subroutines -----------------------------------------------------------------------------


def test_banner_stops_only_the_encountered_barriers_subroutines_and_only_on_a_barrier(cards_root: Path):
    path = SCENARIOS / "card-banner-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    assert ("cannot_end_run", "rule_cannot_precedence") in [(s.kind, s.anchor) for s in out.steps]
    # A sentry: Banner cannot be used (its use restriction), and the subroutine ends the run.
    text = path.read_text(encoding="utf-8").replace("subtypes: [barrier]", "subtypes: [sentry]")
    _, out = _replay(text, cards_root, False)
    kinds = [s.kind for s in out.steps]
    assert "end_the_run" in kinds and "cannot_end_run" not in kinds and "lasting" not in kinds


# --- last_encounter ----------------------------------------------------------------------------------------------


BREAKS = "  - {use: Plain Decoder, ability: break}\n  - {use: Plain AI, ability: break}\n"


def test_virtual_service_agent_passed_unrezzed_or_unbroken(cards_root: Path):
    path = SCENARIOS / "card-virtual_service_agent-1.yaml"
    base = path.read_text(encoding="utf-8")
    # Not encountered (unrezzed, passed): no tag, though nothing broke its subroutine.
    text = base.replace("start: {turn: runner, run: {server: HQ, at: encounter_ice, ice: 1}}",
                        "start: {turn: runner, run: {server: HQ, at: approach_ice, ice: 1}}").replace(
        "{card: Virtual Service Agent, rezzed: true}, {card: Virtual Service Agent, rezzed: true}",
        "Virtual Service Agent").replace(BREAKS, "  - {pass: corp}\n")
    _, out = _replay(text, cards_root, False)
    assert out.states[-1].runner.tags == 0 and not [s for s in out.steps if s.kind == "pending"]
    # Encountered and not broken at all: the subroutine resolves, and passing it gives the tag.
    text = base.replace("{card: Virtual Service Agent, rezzed: true}, {card: Virtual Service Agent, rezzed: true}",
                        "{card: Virtual Service Agent, rezzed: true}").replace(
        BREAKS, "  - {pass: runner}\n")
    _, out = _replay(text, cards_root, False)
    assert out.states[-1].runner.tags == 1 and "Virtual Service Agent:tag" in _pending(out)


# --- replace_subroutines -------------------------------------------------------------------------------------------


def test_tsakhia_replaces_only_at_the_chosen_server_and_a_new_choice_replaces_the_old(cards_root: Path):
    from judgebook.engine.language.gained_abilities import ReplaceSubroutines

    path = SCENARIOS / "card-tsakhia_bankhar_gantulga-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    assert [s.anchor for s in out.steps if s.kind == "replaced"] == ["rule_replace_subroutine_resolution"] * 2
    # R&D chosen: the encounter at HQ is left alone, the first run already ends.
    text = path.read_text(encoding="utf-8").replace("{target: HQ, player: runner}", "{target: R&D, player: runner}")
    _, out = _replay(text, cards_root, False)
    assert not [s for s in out.steps if s.kind == "replaced"]
    g = out.states[-1]
    effects = [x.effect for x in g.lasting if isinstance(x.effect, ReplaceSubroutines)]
    assert [e.server for e in effects] == ["R&D"]


# --- strength_lasts_for_run ------------------------------------------------------------------------------------------


def test_without_gamedragon_the_pump_lasts_only_the_encounter(cards_root: Path):
    path = SCENARIOS / "card-gamedragon_pro-1.yaml"
    _, out = _replay(path.read_text(encoding="utf-8"), cards_root)
    g = out.states[-1]
    assert g.cards["GAMEDRAGON™ Pro"].host == "Plain Fracter"
    # Not hosted (the Runner declines): strength 1 + 2 for the first encounter only; the second break is refused.
    text = path.read_text(encoding="utf-8").replace(
        "  - {target: Plain Fracter, player: runner}\n", "  - {decline: GAMEDRAGON™ Pro, ability: host-installed}\n")
    _, out = _replay(text, cards_root, False)
    assert "Wall#2" in str(out.error) and "rule_icebreaker_interface_strength" in str(out.error)


def test_without_direct_access_the_stand_in_identity_forbids_the_run(cards_root: Path):
    path = SCENARIOS / "ruling-direct_access-1.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "  - {action: play, card: Direct Access, server: Server 1}", "  - {action: run, server: Server 1}").replace(
        "  run: {successful: true, server: Server 1}", "  error: {rule: rule_cannot_run_abilities}")
    _replay(text, cards_root)


def test_the_hosted_upgrade_tags_on_a_plain_run_and_light_the_fire_trashes_only_the_root(cards_root: Path):
    path = SCENARIOS / "ruling-light_the_fire-2.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "  - {action: use, card: Light the Fire!, ability: fire}\n  - {target: Server 1, player: runner}",
        "  - {action: run, server: Server 1}")
    _, out = _replay(text, cards_root, False)
    assert "Tripwire Grid:trip" in _pending(out) and out.states[-1].runner.tags == 1
    # Ice protecting the attacked server and the Runner's cards stay.
    text = path.read_text(encoding="utf-8").replace(
        "    Server 1: {root:", "    Server 1: {ice: [Ice Wall], root:").replace(
        "  - {name: Sure Gamble}", "  - {name: Sure Gamble}\n  - {name: Ice Wall, subroutines: [[end_the_run]]}")
    _, out = _replay(text, cards_root, False)
    g = out.states[-1]
    assert g.cards["Ice Wall"].zone.endswith(".ice") and g.cards["Studio Stand-in"].zone == "corp.discard"


# --- prevent_encounter_ability ---------------------------------------------------------------------------------------


def test_airbladex_prevention_is_offered_as_the_encounter_ability_resolves_and_empties_it(cards_root: Path):
    path = SCENARIOS / "card-airbladex_jsrf_ed-1.yaml"
    base = path.read_text(encoding="utf-8")
    _, out = _replay(base, cards_root)
    assert [(s.kind, s.anchor) for s in out.steps if s.kind == "prevented"] == [("prevented", "sec_prevent_avoid")]
    # The Runner passes: the ability resolves.
    text = base.replace("  - {use: AirbladeX (JSRF Ed.), ability: prevent-encounter, player: runner}",
                        "  - {pass: runner}")
    _, out = _replay(text, cards_root, False)
    assert out.states[-1].runner.credits == 3 and "prevented" not in [s.kind for s in out.steps]
    # Its last power counter: AirbladeX is trashed once used.
    _, out = _replay(base.replace("counters: {power: 3}", "counters: {power: 1}"), cards_root, False)
    assert out.states[-1].cards["AirbladeX (JSRF Ed.)"].zone == "runner.discard"
    assert out.states[-1].runner.credits == 5
