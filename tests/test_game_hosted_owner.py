"""A card hosted on another player's card keeps its own side: a Runner's Tranquilizer on the Corp's Palisade
is the Runner's program (it uses the Runner's memory, the Corp cannot rez it, its printed "when your turn
begins" ability triggers on the Runner's turn). Printed text of Tranquilizer, from the Standard library."""
from __future__ import annotations

from pathlib import Path

import pytest

from judgebook.engine import advance, choices, start
from judgebook.engine.rules.values import unused_memory
from judgebook.engine.scenario.load import parse, setup

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "rules_source" / "cards" / "standard"

BOARD = """
title: a Runner's program hosted on Corp ice
start: {turn: runner, at: runner_turn}
corp:
  servers:
    HQ: {ice: [{card: Palisade, rezzed: true, hosted: [{card: Tranquilizer, counters: {virus: 2}}]}]}
runner:
  credits: 5
"""


def _setup(cards_root: Path):
    return setup(parse(BOARD, library=LIBRARY, cards_source=cards_root))


def test_the_hosted_card_is_the_runners_and_uses_the_runners_memory(cards_root):
    g = _setup(cards_root)
    assert g.cards["Tranquilizer"].owner == "runner"
    assert g.cards["Palisade"].owner == "corp"
    assert g.cards["Tranquilizer"].host == "Palisade"
    assert unused_memory(g) == 3  # 4 base, Tranquilizer costs 1 memory (printed)


def test_the_corp_is_never_offered_to_rez_it_and_it_triggers_when_the_runners_turn_begins(cards_root):
    g, steps = start(_setup(cards_root))
    labels: list[str] = []
    for _ in range(12):
        point = choices(g)
        assert point is not None
        labels += [o.label for o in point.options]
        if any(o.label.startswith("run on") for o in point.options):
            break
        g, more = advance(g, point.options[point.default or 0].decision)
        steps += more
    assert not any("rez Tranquilizer" in label for label in labels)
    assert "resolve Tranquilizer:virus-turn" in labels
    # 2 virus counters + 1 at the start of the Runner's turn = 3: "derez the host ice".
    assert g.cards["Tranquilizer"].count("virus") == 3
    assert g.cards["Palisade"].rezzed is False
    assert any(s.kind == "turn_begins" for s in steps)


MADANI = """
title: programs hosted on Madani from the grip, and one hosted on an installed program
start: {turn: runner, at: action_phase}
runner:
  credits: 5
  installed:
    - {card: Madani, hosted: [{card: Unity, installed: false}, {card: Abaasy, installed: false}]}
    - {card: Matryoshka, hosted: [{card: Matryoshka, installed: false}]}
"""


def test_a_card_hosted_without_install_uses_no_memory_and_is_not_active(cards_root):
    # rule_host_without_install: hosted by an ability that does not install them, the programs are not
    # installed: of the 4 [mu], only the installed Matryoshka's 2 are used (Unity, Abaasy and the hosted copy
    # printed 1, 1 and 2 would make 6).
    from judgebook.engine.state import queries as q

    g = setup(parse(MADANI, library=LIBRARY, cards_source=cards_root))
    assert [c for c in ("Unity", "Abaasy", "Matryoshka#2") if g.cards[c].hosted_only] == ["Unity", "Abaasy",
                                                                                          "Matryoshka#2"]
    assert unused_memory(g) == 2
    assert sorted(q.installed(g, "runner")) == ["Madani", "Matryoshka"]
    assert not any(q.is_installed(g, c) or q.is_active(g, c) for c in ("Unity", "Abaasy", "Matryoshka#2"))
    point = choices(start(g)[0])
    assert point is not None
    refused = {(r.decision.value, r.rule) for r in point.refused if r.decision.kind == "use"}
    assert {("Unity", "rule_host_without_install"), ("Matryoshka#2", "rule_host_without_install")} <= refused


def test_installed_false_on_a_card_that_is_not_hosted_is_an_error(cards_root):
    from judgebook.engine.errors import ScenarioError

    board = MADANI.replace("- {card: Matryoshka, hosted: [{card: Matryoshka, installed: false}]}",
                           "- {card: Matryoshka, installed: false}")
    with pytest.raises(ScenarioError, match="this card is not hosted") as err:
        setup(parse(board, library=LIBRARY, cards_source=cards_root))
    assert "runner.installed[1].installed" in str(err.value)
