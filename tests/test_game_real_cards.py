"""Scenarios built on real NetrunnerDB cards (rules_source/scenarios/real/), replayed by judgebook.engine.

Card statistics come from the NetrunnerDB corpus (the `cards_root` fixture); the definitions in
rules_source/cards/real/ state only abilities. Assertions are on the scenario's `expect`, on events
(step kinds), cited anchors and state values, never on English wording.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import replays
from test_game_verbs import verbs_registered  # noqa: F401  (a fixture: the verbs, registered for this module)

from judgebook.engine import IllegalDecision, advance, choices
from judgebook.engine.driver.step import start
from judgebook.engine.errors import EngineLimit
from judgebook.engine.rules.frames import current_encounter
from judgebook.engine.rules.values import hand_size, strength
from judgebook.engine.scenario.load import setup
from judgebook.engine.state import queries as q

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / "rules_source" / "scenarios" / "real"
LIBRARY = ROOT / "rules_source" / "cards" / "real"
SCENARIOS = sorted(REAL.glob("*.yaml"))

# Scenarios that state the card's real behaviour and fail for lack of engine or language support. They
# stay as written (strict xfail: the day the support lands they pass, and the mark must go).
GAPS = {
    "cyberfeeder-installs-virus": "language: `credits_for` names one purpose, Cyberfeeder has two "
    "(icebreakers, installing virus programs)",
}


def _params() -> list[object]:
    out: list[object] = []
    for path in SCENARIOS:
        marks = [pytest.mark.xfail(strict=True, reason=GAPS[path.stem])] if path.stem in GAPS else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


def _load(path: Path, cards_root: Path):  # type: ignore[no-untyped-def]
    return replays.load_shipped(path, LIBRARY, cards_root)


def _run(name: str, cards_root: Path):  # type: ignore[no-untyped-def]
    r = replays.shipped(REAL / f"{name}.yaml", LIBRARY, cards_root)
    return r.sc, r.out


def test_scenario_count():
    # Counted independently: `ls rules_source/scenarios/real/*.yaml | wc -l` gives 57.
    assert len(SCENARIOS) == 57


def test_every_known_gap_names_an_existing_scenario():
    assert set(GAPS) <= {p.stem for p in SCENARIOS}


@pytest.mark.parametrize("path", _params())
def test_real_card_scenario_replays_to_its_expectation(path: Path, cards_root: Path):
    assert replays.shipped(path, LIBRARY, cards_root).misses == []


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_source_names_a_netrunnerdb_card_and_its_ruling(path: Path, cards_root: Path):
    text = path.read_text(encoding="utf-8")
    source = re.search(r"^source: \"(.*)\"$", text, re.M)
    assert source, "every real-card scenario has a one-line quoted source"
    ids = re.findall(r"NetrunnerDB ([a-z0-9_]+)", source.group(1))
    assert ids, "the source names the NetrunnerDB card id"
    for card_id in ids:
        assert (cards_root / "v2" / "cards" / f"{card_id}.json").is_file(), card_id
    ruling = re.search(r"NetrunnerDB ([a-z0-9_]+), ruling (\d{4}-\d\d-\d\d) \((not )?NSG-verified", source.group(1))
    if ruling:
        card_id, date, unverified = ruling.groups()
        rulings = json.loads((cards_root / "v2" / "rulings" / f"{card_id}.json").read_text(encoding="utf-8"))
        found = [r for r in rulings if r["date_update"] == date]
        assert found, f"no ruling of {date} on {card_id}"
        assert found[0]["nsg_rules_team_verified"] is (unverified is None)


def test_rulings_reproduced(cards_root: Path):
    # The scenarios citing a NetrunnerDB ruling (grep -l ", ruling 20" rules_source/scenarios/real: 4).
    cited = [p.stem for p in SCENARIOS if ", ruling 20" in p.read_text(encoding="utf-8")]
    assert sorted(cited) == ["cradle-negative-strength", "ice-carver-applies-when-the-encounter-begins",
                             "seidr-counts-itself", "self-modifying-code-pays-install"]


def _cr_anchors(nsg_cr_root: Path) -> set[str]:
    pattern = re.compile(r"^\s*-?\s*(?:chapter|section|subsection|rule|step|subsec|timing_structure):\s*(\S+)\s*$")
    found: set[str] = set()
    for file in (nsg_cr_root / "v26.03" / "data" / "input").glob("*.yaml"):
        for line in file.read_text(encoding="utf-8").splitlines():
            m = pattern.match(line)
            if m:
                found.add(m.group(1))
    return found


def test_every_cited_anchor_exists_in_cr_26_03(cards_root: Path, nsg_cr_root: Path):
    anchors = _cr_anchors(nsg_cr_root)
    cited: set[str] = set()
    for path in SCENARIOS:
        out = replays.shipped(path, LIBRARY, cards_root).out
        cited |= {s.anchor for s in out.steps}
        for g in out.states:
            if g.point is not None:
                cited |= {g.point.rule} | {o.rule for o in g.point.options} | {r.rule for r in g.point.refused}
    assert cited - anchors == set()


def test_every_rule_named_in_a_source_exists_in_cr_26_03(nsg_cr_root: Path):
    anchors = _cr_anchors(nsg_cr_root)
    named = {m for p in SCENARIOS for m in re.findall(r"cr-26\.03 ([a-z_, ]+)", p.read_text(encoding="utf-8"))}
    rules = {r.strip() for group in named for r in group.split(",") if r.strip()}
    assert rules and rules - anchors == set()


def _kinds(out) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(s.kind, s.anchor) for s in out.steps]


# --- the verbs, asserted on events and state -------------------------------------------------------


def test_precognition_arranged_cards_are_new_objects(cards_root: Path):
    _, out = _run("precognition-arrange", cards_root)
    g, before = out.final, out.states[0]
    assert ("arrange", "rule_arrange_secretly") in _kinds(out)
    assert g.zone("corp.deck") == ("Hedge Fund", "Ice Wall", "Enigma", "Ice Wall#2", "Enigma#2", "Hedge Fund#2")
    for cid in ("Hedge Fund", "Ice Wall", "Enigma", "Ice Wall#2", "Enigma#2"):
        assert g.cards[cid].incarnation == before.cards[cid].incarnation + 1
    assert g.cards["Hedge Fund#2"].incarnation == before.cards["Hedge Fund#2"].incarnation


def test_search_shuffles_before_the_found_card_is_acted_on(cards_root: Path):
    _, out = _run("trade-in-half-rounded-down", cards_root)
    kinds = [s.kind for s in out.steps]
    assert kinds.index("trashed") < kinds.index("credits") < kinds.index("search") < kinds.index("shuffle")
    assert kinds.index("shuffle") < kinds.index("reveal")
    assert ("shuffle", "rule_shuffle_deck_after_search") in _kinds(out)


def test_failing_to_find_still_shuffles(cards_root: Path):
    _, out = _run("special-order-fail-to-find", cards_root)
    assert ("shuffle", "rule_shuffle_deck_after_search") in _kinds(out)
    assert ("found_nothing", "rule_continue_after_search") in _kinds(out)
    assert "reveal" not in [s.kind for s in out.steps]


def test_search_offers_fail_to_find_only_with_criteria(cards_root: Path):
    sc, out = _run("special-order-fail-to-find", cards_root)
    search_points = [g.point for g in out.states if g.point is not None and g.point.kind == "search"]
    assert search_points and [o.rule for o in search_points[0].options] == [
        "rule_valid_search_target_criteria", "rule_fail_to_find"]


def test_tao_salonga_swaps_two_ice_keeping_their_state(cards_root: Path):
    _, out = _run("tao-salonga-swap-after-score", cards_root)
    g, before = out.final, out.states[0]
    assert ("swapped", "rule_swap_installed_cards") in _kinds(out)
    assert g.zone(q.ice_zone("HQ")) == ("Enigma",) and g.zone(q.ice_zone("R&D")) == ("Ice Wall",)
    assert g.cards["Ice Wall"].incarnation == before.cards["Ice Wall"].incarnation
    assert g.cards["Ice Wall"].count("advancement") == 1


def test_thimblerig_swaps_itself(cards_root: Path):
    _, out = _run("thimblerig-swaps-when-passed", cards_root)
    g = out.final
    assert g.zone(q.ice_zone("HQ")) == ("Ice Wall",) and g.zone(q.ice_zone("R&D")) == ("Thimblerig",)


def test_the_supplier_hosts_without_installing(cards_root: Path):
    _, out = _run("the-supplier-hosts", cards_root)
    g = out.final
    assert ("hosted", "rule_host_without_install") in _kinds(out)
    assert g.cards["The Toolbox"].host == "The Supplier"
    assert g.zone("hosted.The Supplier") == ("The Toolbox",)


def test_hosted_card_from_the_grip_is_not_installed(cards_root: Path):
    # rule_host_without_install: hosted by an ability that does not install it, so it is not installed,
    # its memory does not count and its abilities are not active.
    _, out = _run("the-supplier-hosts", cards_root)
    g = out.final
    assert g.cards["The Toolbox"].hosted_only
    assert not q.is_installed(g, "The Toolbox") and "The Toolbox" not in q.installed(g)
    assert not q.is_active(g, "The Toolbox")


def test_tapestry_moves_a_card_to_the_top_of_rnd(cards_root: Path):
    _, out = _run("tapestry-card-to-top-of-rnd", cards_root)
    assert out.final.zone("corp.deck") == ("Hedge Fund", "Ice Wall")
    assert ("moved", "rule_object") in _kinds(out)


def test_test_ground_derezzes(cards_root: Path):
    _, out = _run("test-ground-derez", cards_root)
    assert ("derezzed", "rule_rez_procedure") in _kinds(out)


def test_infiltration_exposes(cards_root: Path):
    _, out = _run("infiltration-expose", cards_root)
    exposed = [s.card for s in out.steps if s.kind == "expose"]
    assert exposed == ["Ice Wall"]          # the rezzed Enigma cannot be exposed (rule_expose)


# --- scope, duration and restrictions ---------------------------------------------------------------


def test_valley_grid_lasts_until_the_corps_next_turn(cards_root: Path):
    _, out = _run("valley-grid-hand-size", cards_root)
    during = next(g for g in out.states if g.lasting)
    assert during.active == "runner" and hand_size(during, "runner") == 4
    assert ("lasting", "rule_lingering_effect") in _kinds(out)
    final = out.final
    assert final.active == "corp" and final.lasting == () and hand_size(final, "runner") == 5


def test_capacitor_static_follows_its_condition(cards_root: Path):
    _, tagged = _run("capacitor-while-tagged", cards_root)
    _, untagged = _run("capacitor-untagged", cards_root)
    assert strength(tagged.final, "Capacitor") == 5 and strength(untagged.final, "Capacitor") == 3


def test_blackmail_refusal_cites_the_cannot_rule(cards_root: Path):
    _, out = _run("blackmail-cannot-rez", cards_root)
    assert out.error is not None and out.error.rule == "rule_cannot_precedence"
    assert ("lasting", "rule_lingering_effect") in _kinds(out)


def test_datapike_if_able(cards_root: Path):
    _, cannot = _run("datapike-cannot-pay", cards_root)
    _, can = _run("datapike-pays", cards_root)
    assert "cannot_pay" in [s.kind for s in cannot.steps]
    assert "cannot_pay" not in [s.kind for s in can.steps]
    assert can.final.runner.credits == 1 and cannot.final.runner.credits == 1


def test_first_time_this_turn(cards_root: Path):
    _, out = _run("tiered-subscription-first-run", cards_root)
    assert [s.kind for s in out.steps].count("run_begins") == 2
    assert [s.card for s in out.steps if s.kind == "resolve"] == ["Tiered Subscription"]


def test_primary_transmission_dish_credits_pay_the_trace(cards_root: Path):
    _, out = _run("primary-transmission-dish-trace", cards_root)
    assert ("trace", "step_trace_determine_success") in _kinds(out)
    assert out.final.corp.credits == 0 and out.final.cards["Primary Transmission Dish"].count("credit") == 0


def test_ice_carver_applies_from_the_start_of_the_encounter(cards_root: Path):
    _, out = _run("ice-carver-applies-when-the-encounter-begins", cards_root)
    # The first state inside the encounter already sees the lowered strength (NSG ruling 2022-04-23).
    inside = [g for g in out.states if current_encounter(g) is not None]
    assert inside and strength(inside[0], "Wall of Static") == 2
    assert strength(out.final, "Wall of Static") == 3


def test_leech_lasts_for_this_encounter_only(cards_root: Path):
    _, out = _run("leech-this-encounter", cards_root)
    kinds = [s.kind for s in out.steps]
    assert kinds.index("lasting") < kinds.index("subroutine_broken") < kinds.index("expired")
    assert ("expired", "step_checkpoint_duration_abilities") in _kinds(out)
    assert strength(out.final, "Wall of Static") == 3


def test_bad_times_lasts_until_the_end_of_the_turn(cards_root: Path):
    from judgebook.engine.rules.values import memory_limit

    _, out = _run("bad-times-until-end-of-turn", cards_root)
    assert memory_limit(out.states[0]) == 4 and memory_limit(out.final) == 2
    assert out.final.active == "corp" and out.final.lasting


def test_lockdown_draw_draws_nothing(cards_root: Path):
    _, out = _run("lockdown-cannot-draw", cards_root)
    assert ("cannot_draw", "rule_cannot_precedence") in _kinds(out)


def _target_options(out) -> list[list[str]]:  # type: ignore[no-untyped-def]
    points = [g.point for g in out.states if g.point is not None and g.point.kind == "target"]
    return [list(o.decision.value) for o in points[0].options]


def test_a_card_with_a_virus_counter_selector(cards_root: Path):
    _, out = _run("business-as-usual-virus-counters", cards_root)
    assert _target_options(out) == [["Leech"], ["Datasucker"]]       # Corroder has no virus counter


def test_up_to_two_selector_offers_zero_one_or_two(cards_root: Path):
    _, out = _run("freelancer-up-to-two-resources", cards_root)
    options = _target_options(out)
    # 3 resources: 1 way to pick none, 3 to pick one, 3 to pick two; Corroder is a program.
    assert len(options) == 7 and [] in options and all("Corroder" not in o for o in options)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_random_legal_play_property(path: Path, cards_root: Path):
    """In random legal play from each real-card scenario (the verbs' own decisions included), every option
    `choices` offers is accepted by `advance`, every refused one is refused with the same rule, and
    advancing again from the previous state (undo) gives an equal state."""
    sc = _load(path, cards_root)
    rng = random.Random(11)
    for _walk in range(4):
        g, _ = start(setup(sc))
        for _ in range(60):
            point = choices(g)
            if point is None or not point.options:
                break
            for r in point.refused:
                with pytest.raises(IllegalDecision) as err:
                    advance(g, r.decision)
                assert err.value.rule == r.rule
            before = g
            option = rng.choice(point.options)
            try:
                g, _ = advance(g, option.decision)
            except EngineLimit:
                break
            again, _ = advance(before, option.decision)
            assert again == g
