"""Smoke scenarios, generated here (never files): every defined card of the pool folders takes part in a game
— installed (rezzed, for Corp cards), played from hand, or as the identity — and a driver uses each of its
abilities once when the engine offers it (its cost payable), runs the server of a Corp card (never trashing
it), and otherwise takes the default; each game starts at the beginning of the card's side's turn. The game
must go on without an engine error: only options the engine offers are taken, so any exception is one (an
EngineLimit is a rule ending a loop, and allowed)."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
import yaml

from judgebook.cards.definitions import read_definitions
from judgebook.engine import advance, choices, start
from judgebook.engine.errors import EngineLimit
from judgebook.engine.language.cards import CardDef
from judgebook.engine.language.nrdb import card_source
from judgebook.engine.scenario.load import parse_scenario, setup

TESTS = Path(__file__).resolve().parent
FOLDERS = (TESTS.parent / "rules_source" / "cards" / "standard", TESTS / "fixtures" / "pool_cards")
STEPS = 400
# Cards to draw and play that are no real card (so they never stand in for a definition under test).
FILLERS = [{"name": "Smoke Corp Filler", "side": "corp", "type": "operation", "cost": 0,
            "abilities": [{"effects": [{"gain_credits": 1}]}]},
           {"name": "Smoke Runner Filler", "side": "runner", "type": "event", "cost": 0,
            "abilities": [{"effects": [{"gain_credits": 1}]}]}]


def board(card: CardDef) -> dict[str, Any]:
    corp: dict[str, Any] = {"credits": 30, "hand": ["Smoke Corp Filler"] * 2, "deck": ["Smoke Corp Filler"] * 8}
    runner: dict[str, Any] = {"credits": 30, "hand": ["Smoke Runner Filler"] * 2,
                              "deck": ["Smoke Runner Filler"] * 8}
    mine = corp if card.side == "corp" else runner
    if card.type == "identity":
        mine["identity"] = card.name
    elif card.type in ("operation", "event"):
        mine["hand"] = [card.name] + mine["hand"]
    elif card.type == "ice":
        corp["servers"] = {"Server 1": {"ice": [{"card": card.name, "rezzed": True}]}}
    elif card.type in ("asset", "upgrade"):
        corp["servers"] = {"Server 1": {"root": [{"card": card.name, "rezzed": True}]}}
    elif card.type == "agenda":
        corp["servers"] = {"Server 1": {"root": [card.name]}}
    else:
        runner["installed"] = [card.name]
    return {"title": f"smoke: {card.name}", "start": {"turn": card.side, "at": f"{card.side}_turn"},
            "card_defs": FILLERS, "corp": corp, "runner": runner}


def mentions(decision: Any, name: str) -> bool:
    values = [decision.value, *decision.params.values()]
    return any(str(v).split("#")[0] == name or (isinstance(v, list | tuple) and any(
        str(x).split("#")[0] == name for x in v)) for v in values)


# A card's play refused by its own restriction ("play only if ...") or a cost the board cannot pay (remove a tag,
# trash an installed resource): the engine refuses it with the rule, which the smoke game records.
PLAY_REFUSALS = ("rule_act_restriction", "rule_cost")


def drive(card: CardDef, folder: Path, cards_root: Path) -> tuple[set[str], Any]:
    """Play the smoke game; the options naming the card that were taken (and the rules refusing its play,
    as "refused: <anchor>"), and the last state."""
    sc = parse_scenario(yaml.safe_dump(board(card), sort_keys=False), f"smoke-{card.id}.yaml", folder,
                        card_source(cards_root))
    try:
        g, _ = start(setup(sc))
    except EngineLimit:
        return set(), None
    taken: set[str] = set()
    ran = False
    target = "Server 1" if card.side == "corp" and card.type not in ("operation", "identity") else "HQ"
    for _ in range(STEPS):
        point = choices(g)
        if point is None or not point.options:
            break
        taken |= {f"refused: {r.rule}" for r in point.refused if mentions(r.decision, card.name)
                  and r.decision.kind == "action" and r.decision.value == "play" and r.rule in PLAY_REFUSALS}
        fresh = [o.decision for o in point.options if mentions(o.decision, card.name)
                 and o.decision.kind not in ("decline", "trash") and str(o.decision.as_yaml()) not in taken]
        run = [o.decision for o in point.options if o.decision.kind == "action" and o.decision.value == "run"
               and o.decision.get("server") == target]
        if fresh:
            choice = fresh[0]
            taken.add(str(choice.as_yaml()))
        elif run and not ran:
            choice, ran = run[0], True
        elif point.default is not None:
            choice = point.options[point.default].decision
        else:
            gain = [o.decision for o in point.options if o.decision.value == "gain_credit"]
            choice = (gain or [point.options[0].decision])[0]
        try:
            g, _ = advance(g, choice, "chosen")
        except EngineLimit:
            break
    return taken, g


@functools.cache
def definitions(folder: Path, cards_root: Path) -> dict[str, Any]:
    """The folder's definitions by id, read once per run (once per card cost half its game)."""
    return read_definitions(folder, card_source(cards_root))


def _cases() -> list[Any]:
    return [pytest.param(folder, f.stem, id=f.stem) for folder in FOLDERS for f in sorted(folder.glob("*.yaml"))]


@pytest.mark.parametrize("folder, card_id", _cases())
def test_every_defined_card_plays_a_smoke_game_without_an_engine_error(folder: Path, card_id: str, cards_root):
    found = [d for d in definitions(folder, cards_root).values() if d.id == card_id]
    if not found or found[0].card is None:      # an `undefined` stub: nothing to play
        assert not found or found[0].status == "undefined"
        return
    card = found[0].card
    taken, last = drive(card, folder, cards_root)
    if card.type in ("operation", "event"):
        played = any("'play'" in t for t in taken)
        assert played or any(t.startswith("refused: ") for t in taken), f"{card.name} was never played: {taken}"
    assert last is None or last.cards, "the game has cards"
