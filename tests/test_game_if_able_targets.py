"""An instruction with "if able" is carried out in full or not at all (CR 26.03 rule_if_able): "choose 2 installed
Runner cards, if able" with one installed card chooses none and asks nothing (Jua, and its NetrunnerDB ruling);
with two it asks. Cards the instruction cannot act on are not valid targets (rule_targets_must_be_valid): Sorocaban
Blade's "cannot trash more than 1 installed Runner card" leaves its later subroutines no target to offer.
Assertions are on choice points, steps and cited anchors."""
from __future__ import annotations

from pathlib import Path

from judgebook.engine.driver.session import Session
from judgebook.engine.scenario.load import load_scenario
from judgebook.engine.state import queries as q

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "rules_source" / "scenarios"
STANDARD = ROOT / "rules_source" / "cards" / "standard"


def _steps(s: Session) -> list[tuple[str, str]]:
    return [(x.kind, x.anchor) for x in s.outcome().steps]


def test_jua_with_one_installed_card_chooses_nothing_and_asks_nothing():
    sc = load_scenario(SCENARIOS / "cr26-jua-choose-two-if-able.yaml")
    s = Session.begin(sc).follow(sc.decisions)
    steps = _steps(s)
    assert ("not_able", "rule_if_able") in steps
    assert ("chosen", "rule_lingering_effect_maintaining_choice_duration_other_cases") not in steps
    assert s.final.zone("runner.deck") == () and q.installed(s.final, "runner") == ["Corroder"]


def test_jua_with_two_installed_cards_asks_the_corp_for_both(tmp_path):
    text = (SCENARIOS / "cr26-jua-choose-two-if-able.yaml").read_text("utf-8")
    text = text.replace("installed: [Corroder]", "installed: [Corroder, Spare Resource]").replace(
        "card_defs:\n", "card_defs:\n  - {name: Spare Resource, side: runner, type: resource, cost: 0}\n")
    f = tmp_path / "jua-two.yaml"
    f.write_text(text, "utf-8")
    sc = load_scenario(f, ROOT / "rules_source" / "cards")
    s = Session.begin(sc).follow(sc.decisions, stop_when_used=True)
    for _ in range(12):
        point = s.point
        assert point is not None
        if point.kind == "target":
            break
        s = s.pick((point.default or 0) + 1)
    assert point.player == "corp"
    assert [o.decision.value for o in point.options] == [["Corroder", "Spare Resource"]]


def test_cards_that_cannot_be_trashed_are_not_offered_and_the_step_says_why(cards_root):
    sc = load_scenario(SCENARIOS / "standard" / "card-sorocaban_blade-1.yaml", STANDARD, cards_root)
    s = Session.begin(sc).follow(sc.decisions)
    no_target = [(x.anchor, x.text) for x in s.outcome().steps if x.kind == "no_target"]
    assert no_target == [
        ("rule_targets_must_be_valid", "trash a card installed your opponent controls of type hardware: no legal "
                                       "target (Spare Hardware: it cannot be trashed)"),
        ("rule_targets_must_be_valid", "trash a card installed your opponent controls of type program: no legal "
                                       "target (Spare Program: it cannot be trashed)")]
    assert "cannot_trash" not in [x.kind for x in s.outcome().steps]       # never chosen, so never refused


def test_two_cards_that_cannot_be_trashed_are_not_offered_either(tmp_path, cards_root):
    text = (SCENARIOS / "standard" / "card-sorocaban_blade-1.yaml").read_text("utf-8")
    # a second resource: after the first is trashed, the hardware subroutine finds two, neither valid
    text = text.replace("installed: [Spare Resource, Spare Hardware, Spare Program]",
                        "installed: [Spare Resource, Spare Hardware, {card: Spare Hardware, id: Hardware Two}]")
    f = tmp_path / "blade.yaml"
    f.write_text(text, "utf-8")
    sc = load_scenario(f, STANDARD, cards_root)
    s = Session.begin(sc).follow(sc.decisions)
    # the only target asked for is the resource's: neither hardware is offered to the hardware subroutine
    asked = [[o.decision.value for o in g.point.options] for g in s.outcome().states
             if g.point is not None and g.point.kind == "target"]
    assert asked == [[["Spare Resource"]]]
    assert [x.anchor for x in s.outcome().steps if x.kind == "no_target"] == [
        "rule_targets_must_be_valid", "rule_targets_must_be_in_play_area"]      # then no program at all
