"""The rules documents' worked examples, replayed by the timing engine.

Every YAML file under ``rules_source/scenarios/`` is one scenario (see
``judgebook/engine/LANGUAGE.md``). Each must

* name its source: the document key, the section or anchor, and the file and
  line where the example is (``engine-*.yaml`` are the engine's own model
  scenarios and only need a non-empty ``source``);
* state an ``expect``ed outcome — the one the DOCUMENT states, quoted in the
  scenario's ``source`` block — and replay to it;
* replay to the same timeline every time.

Scenarios the engine cannot replay yet are listed in ``KNOWN_FAILURES`` with
the reason; they are marked ``xfail(strict=True)``, so the day the engine
learns the missing feature the test fails and tells us to take them off the
list. The expected outcomes themselves are never weakened.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from judgebook import engine
from judgebook.engine.errors import IllegalDecision

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_DIR = ROOT / "rules_source" / "scenarios"
SCENARIOS = sorted(SCENARIO_DIR.glob("*.yaml"))
CARD_LIBRARY = ROOT / "rules_source" / "cards"

# Document keys a worked example can come from (see rules_source/manifest.toml
# and the list of keys; cr-26.03 is the current CR, read from the corpora).
DOC_KEYS = ("cr-1.6", "cr-1.4", "glossary", "ffg-core-rulebook", "onr-rulebook",
            "onr-rulings", "cr-22.12", "cr-23.08", "cr-26.03")
# "file.ext:123" — where in the document the example is.
LINE_REF = re.compile(r"[\w.-]+\.(?:txt|md|yaml):\d+")

# Scenario file name -> (stage, why the engine does not replay it to the
# documented outcome yet). The reasons name the missing feature as requested in
# rules_source/scenarios/REQUESTS.md. `stage` is "no-replay" when the engine
# cannot load or finish the replay at all (unknown language, a crash: then the
# determinism test cannot run either) and "outcome" when it replays to a
# different outcome (or stops with a different error) than the document states.
KNOWN_FAILURES: dict[str, tuple[str, str]] = {
    # Empty: every worked example replays to its documented outcome today.
    # Example entry:
    # "file.yaml": ("no-replay", "REQUESTS R30: no `breach:` instruction"),
}


def _is_engine_model(path: Path) -> bool:
    return path.name.startswith("engine-")


def _params(paths, stages=("no-replay", "outcome")):
    """One param per scenario, a strict xfail where KNOWN_FAILURES lists it at these stages."""
    for path in paths:
        marks = []
        known = KNOWN_FAILURES.get(path.name)
        if known and known[0] in stages:
            marks.append(pytest.mark.xfail(strict=True, reason=f"{known[0]}: {known[1]}"))
        yield pytest.param(path, id=path.stem, marks=marks)


def _replay(scenario):
    """The timeline, or the illegal-decision error the replay stopped with."""
    try:
        return engine.replay(scenario), None
    except IllegalDecision as exc:
        return None, exc


def test_there_are_enough_worked_examples():
    examples = [p for p in SCENARIOS if not _is_engine_model(p)]
    assert len(examples) >= 40, f"only {len(examples)} worked-example scenarios"


def test_known_failures_name_existing_scenarios():
    names = {p.name for p in SCENARIOS}
    assert not set(KNOWN_FAILURES) - names, "KNOWN_FAILURES names a scenario that does not exist"
    assert all(stage in ("no-replay", "outcome") for stage, _ in KNOWN_FAILURES.values())


def test_card_library_loads_and_every_card_is_used():
    """The shared card definitions parse, and none is dead weight."""
    library = engine.load_library(CARD_LIBRARY)
    assert library, "empty card library"
    texts = " ".join(p.read_text(encoding="utf-8") for p in SCENARIOS)
    unused = sorted(name for name in library if name not in texts)
    assert not unused, f"library cards no scenario uses: {unused}"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in SCENARIOS
                                  if not _is_engine_model(p)])
def test_scenario_names_its_source(path):
    """Checked on the raw YAML, so it holds even where the engine cannot load the file yet."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    source = data.get("source")
    assert isinstance(source, str) and source.strip(), "no `source`"
    first_word = source.strip().split()[0].rstrip(":,")
    assert first_word in DOC_KEYS, f"source must start with a document key, not {first_word!r}"
    assert LINE_REF.search(source), "source must give the file and line of the example"
    assert '"' in source or "“" in source, "source must quote the document's outcome sentence"
    assert data.get("expect"), "a worked example states its documented outcome in `expect`"


@pytest.mark.parametrize("path", list(_params(SCENARIOS)))
def test_scenario_replays_to_documented_outcome(path):
    scenario = engine.load_scenario(path)
    assert scenario.expect is not None, "no `expect`"
    timeline, error = _replay(scenario)
    if scenario.expect.error_rule:
        assert error is not None, "the replay should have stopped with an illegal decision"
        assert error.rule == scenario.expect.error_rule, str(error)
        return
    assert error is None, f"unexpected illegal decision: {error}"
    mismatches = engine.check_expectations(scenario, timeline)
    assert not mismatches, "\n".join(map(str, mismatches))


@pytest.mark.parametrize("path", list(_params(SCENARIOS, stages=("no-replay",))))
def test_replay_is_deterministic(path):
    scenario = engine.load_scenario(path)
    first, err1 = _replay(scenario)
    second, err2 = _replay(engine.load_scenario(path))
    if first is None or second is None:
        assert (err1 and err2) and str(err1) == str(err2)
        return
    assert first.to_dict() == second.to_dict()
