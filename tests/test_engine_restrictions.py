"""The checkpoint's restrictions and the like cards an install trashes (judgebook/engine/rules/restrictions.py):
who chooses, among which sets, which are refused, and the rule each trash cites (CR 26.03
step_checkpoint_uniqueness, step_checkpoint_card_restrictions, rule_install_trash_like_cards)."""
from __future__ import annotations

from pathlib import Path

from judgebook.engine.driver.script import replay
from judgebook.engine.scenario.load import load, parse

SCENARIOS = Path(__file__).resolve().parents[1] / "rules_source" / "scenarios"
LIBRARY = SCENARIOS.parent / "cards"

BAD_TIMES = """
  - name: Bad Times
    side: corp
    type: operation
    abilities:
      - id: play
        kind: play
        effects:
          - lasting: {static: {memory: {by: 2, minus: true, player: runner}}, duration: turn}
"""


def _steps(out):  # type: ignore[no-untyped-def]
    return [(s.kind, s.anchor, s.how, s.card) for s in out.steps]


def _points(out, kind: str = "target"):  # type: ignore[no-untyped-def]
    return [g.point for g in out.states if g.point is not None and g.point.kind == kind]


def test_bad_times_offers_the_runner_the_appropriate_sets_and_refuses_one_program_alone():
    out = replay(load(SCENARIOS / "cr26-bad-times-runner-chooses-programs.yaml"))
    [point] = _points(out)
    assert (point.player, point.rule) == ("runner", "step_checkpoint_card_restrictions")
    # the CR example: two 1[mu] programs, or the one 2[mu] program; never a set with a program it can spare
    assert [list(o.decision.value) for o in point.options] == [["Self-modifying Code"], ["Corroder", "Gordian Blade"]]
    assert {o.rule for o in point.options} == {"rule_program_other_exceed_memory_limit"}
    assert [(r.decision.value, r.rule) for r in point.refused] == [
        (["Corroder"], "rule_program_other_exceed_memory_limit"),
        (["Gordian Blade"], "rule_program_other_exceed_memory_limit")]
    steps = _steps(out)
    found = steps.index(("restriction", "step_checkpoint_card_restrictions", "chosen", None))
    assert steps[found + 1:found + 3] == [
        ("trashed", "rule_program_other_exceed_memory_limit", "engine", "Corroder"),
        ("trashed", "rule_program_other_exceed_memory_limit", "engine", "Gordian Blade")]


def test_one_appropriate_set_is_trashed_by_the_engine_without_a_choice():
    out = replay(load(SCENARIOS / "cr26-bad-times-memory-checkpoint.yaml"))
    assert _points(out) == []
    assert ("restriction", "step_checkpoint_card_restrictions", "engine", None) in _steps(out)
    assert ("trashed", "rule_program_other_exceed_memory_limit", "engine", "Self-modifying Code") in _steps(out)


def test_a_limit_below_zero_is_met_by_trashing_every_program_that_costs_memory():
    text = f"""
title: t
cards: [Corroder]
card_defs:{BAD_TIMES}  - {{name: Null Program, side: runner, type: program, cost: 0, memory: 0}}
start: {{turn: corp, at: action_phase}}
corp: {{hand: [Bad Times]}}
runner: {{memory: 1, installed: [Corroder, Null Program]}}
decisions:
  - {{action: play, card: Bad Times}}
"""
    out = replay(parse(text, "t.yaml", LIBRARY))
    assert out.error is None and out.limit is None
    rule = "rule_program_other_exceed_memory_limit"
    trashed = [s.card for s in out.steps if s.kind == "trashed" and s.anchor == rule]
    assert trashed == ["Corroder"]  # the 0[mu] program stays: trashing it frees nothing


def test_installing_over_the_limit_never_offers_the_program_being_installed():
    out = replay(load(SCENARIOS / "cr26-install-program-over-memory-limit.yaml"))
    [point] = _points(out)
    assert point.rule == "rule_program_install_exceed_memory_limit" and point.player == "runner"
    assert [list(o.decision.value) for o in point.options] == [["Gordian Blade"], ["Atman"]]
    assert (["Corroder"], "rule_program_install_exceed_memory_limit") in [
        (r.decision.value, r.rule) for r in point.refused]
    kinds = [s.kind for s in out.steps]
    assert kinds.index("installed") < kinds.index("restriction") < kinds.index("trashed")


def test_uniqueness_keeps_the_copy_that_became_active_most_recently():
    out = replay(load(SCENARIOS / "cr26-unique-rezzed-copy-trashes-older.yaml"))
    steps = _steps(out)
    assert ("restriction", "step_checkpoint_uniqueness", "engine", None) in steps
    assert [s for s in steps if s[0] == "trashed"] == [("trashed", "rule_uniqueness", "engine", "Mr. Stone")]


def test_a_second_console_trashes_the_first():
    out = replay(load(SCENARIOS / "cr26-second-console-trashes-first.yaml"))
    trashed = [s for s in _steps(out) if s[0] == "trashed"]
    assert trashed == [("trashed", "rule_install_console", "engine", "Spinal Modem")]


def test_an_asset_installed_over_an_agenda_trashes_it_facedown():
    out = replay(load(SCENARIOS / "cr26-asset-into-root-with-agenda.yaml"))
    assert ("trashed", "rule_must_trash_cases_in_root_of_server", "engine", "Hostile Takeover") in _steps(out)
    assert out.final.cards["Hostile Takeover"].faceup is False  # rule_install_corp_cards_trashed_facedown_archives


def _region_install(server: str) -> list[tuple[str, str, str, str | None]]:
    text = f"""
title: t
card_defs:
  - {{name: Region A, side: corp, type: upgrade, subtypes: [region], cost: 1, trash_cost: 1}}
  - {{name: Region B, side: corp, type: upgrade, subtypes: [region], cost: 1, trash_cost: 1}}
start: {{turn: corp, at: action_phase}}
corp:
  hand: [Region B]
  servers:
    {server}: {{root: [Region A]}}
decisions:
  - {{action: install, card: Region B, server: {server}}}
"""
    return [s for s in _steps(replay(parse(text, "t.yaml", LIBRARY))) if s[0] == "trashed"]


def test_the_region_limit_applies_in_a_remote_root_and_not_in_a_central_one():
    assert _region_install("Server 1") == [("trashed", "rule_region_install", "engine", "Region A")]
    assert _region_install("HQ") == []  # rule_region_one_root: it does not apply to cards in central servers


def test_two_copies_active_since_before_the_turn_keep_one_and_say_it_is_assumed():
    text = """
title: t
cards: [District 99]
start: {turn: runner, at: action_phase}
runner: {installed: [District 99, District 99]}
"""
    out = replay(parse(text, "t.yaml", LIBRARY))
    steps = _steps(out)
    # which became active most recently is not known on a board set up so: the step says it is assumed
    assert ("restriction", "step_checkpoint_uniqueness", "assumed", None) in steps
    assert [s for s in steps if s[0] == "trashed"] == [("trashed", "rule_uniqueness", "engine", "District 99")]


def test_a_card_that_cannot_host_makes_its_hosted_cards_illegal_only_while_active():
    sc = load(SCENARIOS / "cr26-tithonium-chisel-illegal-host.yaml")
    out = replay(sc)
    assert [s for s in _steps(out) if s[0] == "trashed"] == [
        ("trashed", "step_checkpoint_card_restrictions", "engine", "Chisel")]
    from dataclasses import replace

    out = replay(replace(sc, decisions=()))  # Tithonium stays unrezzed: its "cannot host cards" is inactive
    assert "Chisel" not in [s.card for s in out.steps if s.kind == "trashed"]


def test_a_program_installed_on_a_host_makes_room_too_and_stays():
    text = """
title: t
cards: [Corroder]
card_defs:
  - {name: Chisel, side: runner, type: program, subtypes: [virus, trojan], cost: 2, memory: 1, install_on: ice}
  - {name: Wall, side: corp, type: ice, subtypes: [barrier], cost: 1, strength: 1}
start: {turn: runner, at: action_phase}
corp: {servers: {HQ: {ice: [Wall]}}}
runner: {memory: 1, hand: [Chisel], installed: [Corroder]}
decisions:
  - {action: install, card: Chisel, server: Wall}
"""
    out = replay(parse(text, "t.yaml", LIBRARY))
    assert out.error is None, out.error
    trashed = [s for s in _steps(out) if s[0] == "trashed"]
    assert trashed == [("trashed", "rule_program_install_exceed_memory_limit", "engine", "Corroder")]
    assert out.final.cards["Chisel"].zone == "hosted.Wall"
