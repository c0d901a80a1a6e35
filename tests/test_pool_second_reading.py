"""The second reading of the pool's definitions (issue 20): each card fixed has a scenario written from its printed
text or a ruling that failed on the definition before the fix and replays to its `expect` now; a card marked
partial keeps a scenario whose known mismatch is still the engine's (it goes stale when the engine is fixed)."""
from __future__ import annotations

import pytest
import replays
from pool_scenarios import LIBRARY, replay_named

from judgebook.engine.driver.script import check

FIXED = ["card-stegodon_mk_iv-3", "card-stavka-1", "card-drafter-1", "card-eminent_domain-1",
         "card-business_as_usual-1",
         # written from the printed text to kill mutants that survived (tools/mutate_cards.py)
         "card-extract-1", "card-extract-2", "card-amaze_amusements-1", "card-amaze_amusements-2",
         "card-cats_cradle-1", "card-pressure_spike-1", "card-stegodon_mk_iv-4", "card-biawak-3",
         "card-stegodon_mk_iv-5"]


@pytest.mark.parametrize("name", FIXED)
def test_a_fixed_card_replays_to_its_printed_outcome(name, cards_root):
    from pool_scenarios import SCENARIOS

    sc = replays.load_shipped(SCENARIOS / f"{name}.yaml", LIBRARY, cards_root)
    assert check(sc, replay_named(name, cards_root)) == []


def test_rene_loup_arcemont_pays_out_on_the_first_trash_only(cards_root):
    # The printed text gives 4 credits and 1 card (only the first trash each turn pays out); it paid twice before
    # "the first time each turn" judged earlier events by the roles they recorded.
    out = replay_named("card-rene_loup_arcemont_party_animal-1", cards_root)
    assert (out.final.runner.credits, len(out.final.zone("runner.hand"))) == (4, 1)


def test_the_reading_log_names_defined_cards_and_settles_each_defect():
    import re
    import tomllib

    from pool_scenarios import ROOT

    log = tomllib.loads((ROOT / "rules_source" / "cards" / "READING.toml").read_text("utf-8"))["card"]
    ids = {p.stem for p in LIBRARY.glob("*.yaml")}
    commits = re.compile(r"[0-9a-f]{7,40}")
    for row in log:
        assert row["id"] in ids and row["result"] in ("exact", "minor", "wrong", "undefined"), row
        for d in row.get("defect", []):
            assert d["status"] in ("fixed", "partial", "open") and d["what"].strip(), row
            assert d["status"] == "open" or commits.fullmatch(d["commit"]), row
            if d["status"] == "partial":
                assert "partial:" in (LIBRARY / f"{row['id']}.yaml").read_text("utf-8"), row
    assert len({row["id"] for row in log}) == len(log)
