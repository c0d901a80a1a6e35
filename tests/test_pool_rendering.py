"""Every definition renders back to English, and the rendering has the printed text's structure: the same
triggers, costs, numbers, durations, targets and instructions (judgebook.cards.compare). A mismatch not in
tests/pool_render_known.toml fails; so does a listed one that no longer happens."""
from __future__ import annotations

import functools
import tomllib
from pathlib import Path

import pytest

from judgebook.cards.compare import CATEGORIES, compare, features
from judgebook.cards.definitions import Definition, read_definitions
from judgebook.engine.language.nrdb import card_source
from judgebook.engine.language.render import render_card
from judgebook.ingestion.nrdb import clean_html

TESTS = Path(__file__).resolve().parent
FOLDERS = (TESTS.parent / "rules_source" / "cards" / "standard", TESTS / "fixtures" / "pool_cards")
KNOWN_FILE = TESTS / "pool_render_known.toml"


def known() -> dict[tuple[str, str], str]:
    rows = tomllib.loads(KNOWN_FILE.read_text("utf-8"))["known"]
    for row in rows:
        assert set(row) == {"id", "category", "why"} and row["category"] in CATEGORIES and row["why"].strip(), row
    return {(row["id"], row["category"]): row["why"] for row in rows}


@functools.cache
def definitions(cards_root: Path) -> list[Definition]:
    """Every definition of the pool folders (stubs included), read once for all the cards' tests."""
    source = card_source(cards_root)
    return [d for folder in FOLDERS for d in read_definitions(folder, source).values()]


def _ids() -> list[str]:
    """Definition files by id, read without NetrunnerDB (for test ids; the test itself joins them)."""
    return sorted({f.stem for folder in FOLDERS for f in folder.glob("*.yaml")})


def test_the_features_of_a_printed_text_and_a_rendering():
    printed = ("Interface → 2[credit], [trash]: Break 1 sentry subroutine.\nWhenever you make a successful run on "
               "HQ, gain 2[credit] and draw 1 card. (Reminder: trash it.)\nThe first time each turn you install a "
               "program, it gets +3 strength for the remainder of this turn. This ice gets +1 strength.")
    f = features(printed, printed=True)
    assert f == {"trigger": {"when", "first time"}, "cost": {"2[c]", "[trash]"}, "number": {"2", "3"},
                 "duration": {"turn"}, "target": {"program"}, "instruction": {"gain_credits", "draw", "install"}}
    rendered = ("2[c], [trash]: break 1 sentry subroutine\nwhen a successful run (on HQ), gain 2 [c]; draw 1 cards\n"
                "the first time each turn when installed, +3 strength of the card (turn)")
    assert [m.category for m in compare(printed, rendered)] == ["target", "instruction"]
    assert features("the Runner may pay 4[c]; if not: give the Runner 1 tags")["cost"] == frozenset()
    assert features("Once per turn → [click], suffer 1 net damage: gain 1[c]")["cost"] == {"1[click]"}


@pytest.mark.parametrize("card_id", _ids())
def test_each_definition_renders_with_the_printed_structure(card_id: str, cards_root: Path):
    table = known()
    source = card_source(cards_root)
    found = [d for d in definitions(cards_root) if d.id == card_id]
    assert found, f"{card_id}: no definition keyed by this id (the file is named for the card's id)"
    seen: set[str] = set()                  # categories mismatched by some definition of this id
    for d in found:
        if d.card is None:                  # an `undefined` stub: nothing to render
            continue
        lines = render_card(d.card)
        assert all(line.strip() for line in lines)
        if d.status == "partial":           # what it leaves out is its `partial:`, the reason for any mismatch
            continue
        mismatches = compare(clean_html(source.by_id[d.id].text), "\n".join(lines))
        unexplained = [m.describe() for m in mismatches if (d.id, m.category) not in table]
        assert not unexplained, f"{d.file}: {unexplained}\nrendered: {lines}"
        seen |= {m.category for m in mismatches}
    # a known mismatch no definition of the id has any more is stale (the fixtures share ids with the pool's)
    stale = [c for (i, c) in table if i == card_id and c not in seen]
    assert not stale, f"{card_id}: known mismatches that no longer happen: {stale}"


def test_every_known_mismatch_names_a_definition(cards_root: Path):
    ids = {d.id for d in definitions(cards_root)}
    assert {i for i, _ in known()} <= ids
