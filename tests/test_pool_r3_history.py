"""Round 3, family `history`: the scenarios of its cards (rules_source/scenarios/standard/card-<id>-N.yaml and
ruling-<id>-N.yaml) replay to their expectation, and its constructs do what they say, asserted on events,
cited anchors and state."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import replays
from test_game_verbs import verbs_registered  # noqa: F401  (a fixture: the verbs, registered for this module)

from judgebook.engine.driver.script import check

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
FAMILY = (
    "lightning_laboratory", "regenesis", "stegodon_mk_iv", "daily_quest", "front_company",
    "always_have_a_backup_plan", "red_team", "pichacao", "sudden_commandment", "charm_offensive",
    "pinhole_threading", "petty_cash", "slash_and_burn_agriculture", "eminent_domain", "vaporframe_fabricator",
    "rime", "debbie_downtown_moreira", "yakov_erikovich_avdakov", "gamenet_where_dreams_are_real",
    "the_zwicky_group_invisible_hands", "nuvem_sa_law_of_the_land",
)
MINE = sorted(
    p for p in SCENARIOS.glob("*.yaml") if re.sub(r"^(card|ruling)-|-\d+$", "", p.stem) in FAMILY
)


def _replay(path: Path, cards_root: Path):  # type: ignore[no-untyped-def]
    r = replays.shipped(path, LIBRARY, cards_root)
    return r.sc, r.out


@pytest.mark.parametrize("path", MINE, ids=[p.stem for p in MINE])
def test_scenario_replays_to_its_expectation(path: Path, cards_root: Path):
    sc, out = _replay(path, cards_root)
    missed = check(sc, out)
    if sc.mismatch is None:
        assert missed == []
    else:
        assert missed, "a stale mismatch: the engine now reaches the ruling"


def test_stegodon_lowers_icebreakers_only_during_the_run_with_a_derez(cards_root: Path):
    """card-stegodon_mk_iv-1: after the derez (event derezzed during the run) Fracter is 0 strength while
    the run lasts, so its break is refused (rule_icebreaker_interface_strength); after the run it is 2 again."""
    from judgebook.engine.rules.frames import current_encounter
    from judgebook.engine.rules.values import strength

    sc, out = _replay(SCENARIOS / "card-stegodon_mk_iv-1.yaml", cards_root)
    kinds = [s.kind for s in out.steps]
    assert kinds.index("run_begins") < kinds.index("derezzed") < kinds.index("encounter_ice")
    during = [g for g in out.states if current_encounter(g) is not None]
    assert during and all(strength(g, "Fracter") == 0 for g in during)
    assert any(r.rule == "rule_icebreaker_interface_strength" for g in during if g.point for r in g.point.refused)
    assert strength(out.final, "Fracter") == 2
    sc, out = _replay(SCENARIOS / "card-stegodon_mk_iv-2.yaml", cards_root)
    assert "derezzed" not in [s.kind for s in out.steps]


def test_lightning_laboratory_derezzes_the_remembered_server_s_ice_when_the_turn_ends(cards_root: Path):
    """card-lightning_laboratory-1: the free rez happens as the run begins; when the turn ends (no run in
    progress, so `attacked` names nothing) the delayed ability derezzes the ice protecting HQ, the
    remembered server, and not R&D's (rule_delayed_conditional_ability)."""
    _, out = _replay(SCENARIOS / "card-lightning_laboratory-1.yaml", cards_root)
    seq = [(s.kind, s.card) for s in out.steps if s.kind in ("run_begins", "rezzed", "turn_ends", "derezzed")]
    kinds = [k for k, _ in seq]
    assert kinds[0] == "run_begins" and kinds[1:3] == ["rezzed", "rezzed"]
    assert kinds.index("turn_ends") < kinds.index("derezzed")
    assert {c for k, c in seq if k == "derezzed"} == {"Wall-1", "Wall-2"}
    assert any(s.anchor == "rule_delayed_conditional_ability" for s in out.steps)


def test_vaporframe_click_install_goes_in_its_own_root(cards_root: Path):
    """ruling-vaporframe_fabricator-1: the first ability has no restriction on the root of this server."""
    from judgebook.engine.state import queries as q

    _, out = _replay(SCENARIOS / "ruling-vaporframe_fabricator-1.yaml", cards_root)
    assert q.server_of(out.final, "Cellar") == "Server 1"
    assert out.final.cards["Cellar"].zone == q.root_zone("Server 1")


RULINGS = [p for p in MINE if p.stem.startswith("ruling-")]


@pytest.mark.parametrize("path", RULINGS, ids=[p.stem for p in RULINGS])
def test_ruling_scenario_names_its_ruling(path: Path, cards_root: Path):
    import json

    text = path.read_text(encoding="utf-8")
    m = re.search(r'^source: "NetrunnerDB ruling: ([a-z0-9_]+), (\d{4}-\d\d-\d\d), (NSG-verified|not NSG-verified)"$',
                  text, re.M)
    assert m
    card_id, date, verified = m.groups()
    assert path.stem.startswith(f"ruling-{card_id}-")
    rulings = json.loads((cards_root / "v2" / "rulings" / f"{card_id}.json").read_text(encoding="utf-8"))
    assert any(r["date_update"] == date and r["nsg_rules_team_verified"] is (verified == "NSG-verified")
               for r in rulings)


def test_sudden_commandment_played_by_another_is_not_the_first_mandate(cards_root: Path):
    """card-sudden_commandment-1: the 3[c] for [click] is offered once, by the first copy (played first)."""
    _, out = _replay(SCENARIOS / "card-sudden_commandment-1.yaml", cards_root)
    played = [s.card for s in out.steps if s.kind == "played"]
    assert played == ["Sudden Commandment", "Sudden Commandment#2"]
    threes = [s for s in out.steps if s.kind == "credits_spent" and "3[c]" in s.text]
    assert len(threes) == 1 and out.final.corp.clicks == 3


def test_trashed_event_says_whether_an_install_caused_it(cards_root: Path):
    """card-yakov_erikovich_avdakov-2: the region trashed by the install of another (rule_region_install)
    carries during_install, and Yakov's "except during installation" does not fire."""
    _, out = _replay(SCENARIOS / "card-yakov_erikovich_avdakov-2.yaml", cards_root)
    assert any(s.anchor == "rule_region_install" for s in out.steps)
    trashed = [f.event for g in out.states for f in g.history if f.event.name == "trashed"]
    assert trashed and all(e.get("during_install") is True for e in trashed)
    assert not [s for s in out.steps if s.kind == "pending" and s.card == "Yakov Erikovich Avdakov"]
    _, out = _replay(SCENARIOS / "card-yakov_erikovich_avdakov-1.yaml", cards_root)
    gains = [s for s in out.steps if s.kind == "pending" and s.card == "Yakov Erikovich Avdakov"]
    assert len(gains) == 2  # Billboard's trash and its own


def test_rime_is_rezzed_in_a_movement_window_of_a_run_on_its_server(cards_root: Path):
    """card-rime-1: Rime, passed unrezzed, is rezzed in a later paid ability window of the run on HQ
    (rule_rez_procedure); card-rime-2: on a run elsewhere the rez is refused (rule_rez_ice_restriction)."""
    _, out = _replay(SCENARIOS / "card-rime-1.yaml", cards_root)
    kinds = [s.kind for s in out.steps]
    assert kinds.index("pass_ice") < kinds.index("rezzed") < kinds.index("approach_server")
    _, out = _replay(SCENARIOS / "card-rime-2.yaml", cards_root)
    assert out.error is not None and out.error.rule == "rule_rez_ice_restriction"


def test_nuvem_sees_an_operation_and_an_expendable_action_finish(cards_root: Path):
    """card-nuvem_sa_law_of_the_land-1: finished_resolving for Hedge Fund (before it is trashed) and for Tree
    Line's action (after it resolves); the second trash from R&D this turn gains nothing."""
    _, out = _replay(SCENARIOS / "card-nuvem_sa_law_of_the_land-1.yaml", cards_root)
    facts = [f.event for f in out.final.history if f.event.name == "finished_resolving"]
    assert [(e.get("card"), e.get("action")) for e in facts] == [("Hedge Fund", False), ("Tree Line", True)]
    gains = [s for s in out.steps if s.kind == "pending" and s.ability == "first-trash"]
    assert len(gains) == 1
