"""Round 3, family `identities`: double-faced identities that flip, limits on remote servers, cards added to a
score area as agendas, and the score a player needs to win (judgebook/engine/language/identities.py).

Scenarios are rules_source/scenarios/standard/card-<id>-<n>.yaml for this family's cards; assertions are on
events, cited anchors and state, never on English wording.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import replays
from pool_scenarios import kinds_and_rules as _kinds
from pool_scenarios import replay_named as _run

from judgebook.cards.compare import compare
from judgebook.engine.language.cards import library_items
from judgebook.engine.language.nodes import At, node_line
from judgebook.engine.language.nrdb import card_source, parse_with_stats
from judgebook.engine.language.render import render_ability
from judgebook.ingestion.nrdb import clean_html

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
FAMILY = (
    "dewi_subrotoputri_pedagogical_dhalang", "hoshiko_shiro_untold_protagonist", "earth_station_sea_headquarters",
    "nebula_talent_management_making_stars", "a_teia_ip_recovery", "bangun_when_disaster_strikes",
    "issuaq_adaptics_sustaining_diversity", "project_vacheron", "nightmare_archive", "backroom_machinations",
    "jeitinho", "the_class_act", "verbal_plasticity", "mr_hendrik", "climactic_showdown", "hyoubu_precog_manifold",
)
FLIPS = ("dewi_subrotoputri_pedagogical_dhalang", "hoshiko_shiro_untold_protagonist",
         "earth_station_sea_headquarters", "nebula_talent_management_making_stars")
MINE = sorted(p for p in SCENARIOS.glob("*.yaml") if any(p.stem.startswith((f"card-{c}-", f"ruling-{c}-"))
                                                          for c in FAMILY))


def _card(card_id: str, cards_root: Path):  # type: ignore[no-untyped-def]
    item = library_items(LIBRARY / f"{card_id}.yaml")[0]
    return parse_with_stats(item, card_source(cards_root), At("card", node_line(item, 1)), card_id)


@pytest.mark.parametrize("path", MINE, ids=[p.stem for p in MINE])
def test_scenario_replays_to_its_expectation(path: Path, cards_root: Path):
    r = replays.shipped(path, LIBRARY, cards_root)
    sc, missed = r.sc, r.misses
    assert missed == [] if sc.mismatch is None else missed


# --- double-faced identities -----------------------------------------------------------------------


@pytest.mark.parametrize("card_id", FLIPS)
def test_the_other_face_is_netrunnerdbs_and_renders_with_its_structure(card_id: str, cards_root: Path):
    card = _card(card_id, cards_root)
    raw = json.loads((cards_root / "v2" / "cards" / f"{card_id}.json").read_text(encoding="utf-8"))
    face = raw["faces"][0]
    back = card.back
    assert back is not None and back.face_title == face["title"]
    assert back.link == face.get("base_link", raw.get("base_link") or 0)
    assert sorted(back.subtypes) == sorted(face.get("subtypes", []))
    rendered = "\n".join(render_ability(a) for a in back.abilities)
    assert compare(clean_html(face["text"]), rendered) == []


def test_hoshiko_flips_and_only_the_faceup_side_is_active(cards_root: Path):
    out = _run("card-hoshiko_shiro_untold_protagonist-1", cards_root)
    assert ("flipped", "rule_identity_double_sided") in _kinds(out)
    assert out.final.cards["Hoshiko Shiro: Untold Protagonist"].flipped
    from judgebook.engine.rules.values import link

    assert link(out.final) == 1  # the Mahou Shoujo face's base link


def test_the_remote_server_limit_refuses_a_new_remote_server_with_its_rule(cards_root: Path):
    out = _run("card-earth_station_sea_headquarters-2", cards_root)
    assert ("flipped", "rule_identity_double_sided") in _kinds(out)
    actions = [g.point for g in out.states if g.point is not None and g.point.kind == "action"
               and g.point.player == "corp"]
    refused = [r for r in actions[0].refused if r.decision.get("server") == "new"]
    assert refused and all(r.rule == "rule_limit_remote_servers" for r in refused)
    # flipped, then flipped back by the successful run on HQ
    assert not out.final.cards["Earth Station: SEA Headquarters"].flipped


def test_a_card_added_as_an_agenda_is_an_agenda_there_and_its_printed_self_elsewhere(cards_root: Path):
    from judgebook.engine.rules.effects import move
    from judgebook.engine.state import queries as q

    out = _run("card-backroom_machinations-1", cards_root)
    assert ("add_to_score", "rule_add_card_to_score_area") in _kinds(out)
    g = out.final
    d = q.definition(g, "Backroom Machinations")
    assert (d.type, d.agenda_points, d.abilities) == ("agenda", 1, ())
    assert ("win", "step_checkpoint_agenda_points") in _kinds(out)
    g = move(g, "Backroom Machinations", "corp.discard")
    assert q.definition(g, "Backroom Machinations").type == "operation"


def test_a_teia_offers_only_another_remote_server_within_its_limit(cards_root: Path):
    out = _run("card-a_teia_ip_recovery-1", cards_root)
    servers = [[o.decision.value for o in g.point.options] for g in out.states
               if g.point is not None and g.point.kind == "target" and g.point.rule == "rule_installing"]
    # Server 2 holds the triggering install; a new server would be a third remote (limit 2)
    assert servers == [[["Server 1"]]]
    assert out.final.cards["Quick Agenda"].zone == "corp.server.Server 1.root"
    assert ("not_able", "rule_cannot_precedence") in _kinds(out)


def test_bangun_offers_the_install_action_faceup_and_the_agenda_stays_inactive(cards_root: Path):
    out = _run("card-bangun_when_disaster_strikes-1", cards_root)
    first = next(g.point for g in out.states if g.point is not None and g.point.kind == "action")
    faceup = [o for o in first.options if o.decision.get("faceup")]
    assert faceup and all(o.decision.get("card") == "Quick Agenda" for o in faceup)
    installed = next(g for g in out.states if g.cards["Quick Agenda"].zone.endswith("root"))
    from judgebook.engine.state import queries as q

    assert installed.cards["Quick Agenda"].faceup and not q.is_active(installed, "Quick Agenda")


def test_mr_hendrik_prevention_is_an_interrupt_of_its_own_damage(cards_root: Path):
    out = _run("card-mr_hendrik-1", cards_root)
    kinds = _kinds(out)
    would = kinds.index(("would_damage", "rule_interrupt_window_opening"))
    assert ("prevented", "sec_prevent_avoid") in kinds[would:]
    assert out.final.runner.core_damage == 0


def test_verbal_plasticity_replaces_the_draw_before_the_class_act_looks(cards_root: Path):
    out = _run("ruling-verbal_plasticity-1", cards_root)
    drawn = [s for s in out.steps if s.kind == "drawn"]
    assert len(drawn) == 1 and ("look_at", "rule_interrupt") in _kinds(out)
    assert out.final.zone("runner.hand") == ("Card A", "Card C")


def test_project_vacheron_is_worth_its_points_once_its_counters_are_gone(cards_root: Path):
    from dataclasses import replace

    from judgebook.engine.rules.values import agenda_points
    from judgebook.engine.state.model import evolve

    out = _run("card-project_vacheron-1", cards_root)
    assert ("counters", "rule_interrupt") in _kinds(out)
    g = out.final
    assert agenda_points(g, "runner") == 0
    card = g.cards["Project Vacheron"]
    g = evolve(g, cards=g.cards.set("Project Vacheron", replace(card, counters=card.counters.remove("agenda"))))
    assert agenda_points(g, "runner") == 3


def test_a_checkpoint_over_the_remote_server_limit_lets_the_corp_keep_servers(cards_root: Path):
    out = _run("card-earth_station_sea_headquarters-3", cards_root)
    points = [g.point for g in out.states if g.point is not None and g.point.rule == "rule_limit_remote_servers"]
    assert points and sorted(o.decision.value[0] for o in points[0].options) == ["Server 1", "Server 2"]
    assert ("restriction", "rule_limit_remote_servers") in _kinds(out)
