"""tests/replays.py hands a test a kept replay only for the very input it was made from: the same scenario
with the same definitions, else a replay of its own; and never one another test has changed."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import replays

from judgebook.engine.driver.script import replay
from judgebook.engine.scenario.load import load_scenario, parse_scenario

BULWARK = replays.SHIPPED / "cr16-bulwark-runner-chooses.yaml"


def _timeline(out) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return [(s.kind, s.anchor, s.how) for s in out.steps]


def _states(out) -> list[str]:  # type: ignore[no-untyped-def]
    # by value: states of two readings of one file differ by identity (instructions.Mods)
    return [repr(g) for g in out.states]


def test_a_kept_replay_is_the_engines_replay_of_that_input():
    kept = replays.shipped(BULWARK, None, None)
    fresh = replay(load_scenario(BULWARK))
    assert _timeline(kept.out) == _timeline(fresh) and _states(kept.out) == _states(fresh)
    assert (kept.out.ended, kept.misses) == (fresh.ended, [])
    # asked again (as another test file does), it is handed out, not replayed
    before = dict(replays.COUNTS)
    again = replays.shipped(BULWARK, None, None)
    assert replays.COUNTS == {"replayed": before["replayed"], "shared": before["shared"] + 1}
    assert _timeline(again.out) == _timeline(fresh)


def test_a_different_definition_is_a_different_input(tmp_path: Path):
    """The same scenario text over a library whose Bulwark gains 3 credits a subroutine, not 2."""
    library = tmp_path / "cards"
    shutil.copytree(replays.ROOT / "rules_source" / "cards", library)
    bulwark = library / "bulwark.yaml"
    bulwark.write_text(bulwark.read_text(encoding="utf-8").replace("gain_credits: 2", "gain_credits: 3"),
                       encoding="utf-8")
    shipped = replays.shipped(BULWARK, None, None)
    changed = parse_scenario(BULWARK.read_text(encoding="utf-8"), str(BULWARK), library)
    assert changed == shipped.sc      # the scenario compares equal: only its definitions differ
    out = replays.verdict_only(changed)
    assert out.final.corp.credits == replay(changed).final.corp.credits == 3
    assert shipped.out.final.corp.credits == 2


def test_another_reading_of_the_same_file_shares_only_the_verdict():
    """Two readings of one file compare by value but their games' states do not (instructions.Mods compares
    by identity): a test reading the verdict shares the kept replay, one comparing states gets its own."""
    kept = replays.shipped(BULWARK, None, None)
    other = load_scenario(BULWARK)
    assert other == kept.sc and other.library is not kept.sc.library
    before = dict(replays.COUNTS)
    shared = replays.verdict_only(other)
    assert replays.COUNTS["shared"] == before["shared"] + 1 and _timeline(shared) == _timeline(kept.out)
    own = replays.replayed(other)
    assert replays.COUNTS["replayed"] == before["replayed"] + 1 and own.final == replay(other).final


def test_a_test_changing_its_replay_changes_no_other_tests():
    out = replays.replayed(replays.load_shipped(BULWARK, None, None))
    out.steps.clear()
    out.states.clear()
    again = replays.replayed(replays.load_shipped(BULWARK, None, None))
    assert again.steps and again.states


def test_only_shipped_files_are_kept(tmp_path: Path):
    copy = tmp_path / BULWARK.name
    shutil.copy(BULWARK, copy)
    with pytest.raises(ValueError, match="not a shipped scenario"):
        replays.load_shipped(copy, replays.SHIPPED.parent / "cards", None)
