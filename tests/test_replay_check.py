"""`judgebook replay FILE --check`, the expectation verdict in the output, `--library` and the remembered
library, on the rebuilt engine (judgebook.engine)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from judgebook import config
from judgebook.cli import main
from judgebook.commands.replay import Expectation, exit_code, expectation

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "rules_source" / "scenarios"
BULWARK = "cr16-bulwark-runner-chooses.yaml"           # expect: corp credits 2, an unsuccessful run
CLONE_CHIP = "cr16-clone-chip-llds-cost-not-prevented.yaml"   # expect: error {rule: rule_cost_no_interrupt}


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "judgebook.local.toml"))


def run_cli(capsys, tmp_path, *argv):
    code = main(["replay", *argv, "--index", str(tmp_path / "no-index")])
    out = capsys.readouterr()
    return code, out.out, out.err


def wrong_expectation(tmp_path, source: Path) -> Path:
    """A copy of a shipped scenario whose expect block states 2 corp credits where the replay leaves 2: made
    wrong by stating 7 (the file's own `corp: {credits: 2}` line, grep-checked below)."""
    text = source.read_text(encoding="utf-8")
    tail = text[text.index("expect:"):]
    assert tail.count("corp: {credits: 2}") == 1
    bad = tmp_path / "wrong" / source.name
    bad.parent.mkdir(exist_ok=True)
    bad.write_text(text.replace(tail, tail.replace("corp: {credits: 2}", "corp: {credits: 7}")), encoding="utf-8")
    return bad


def test_check_passes_and_the_output_says_the_expectation_was_met(capsys, tmp_path):
    code, out, err = run_cli(capsys, tmp_path, str(SCENARIOS / BULWARK), "--check")
    assert code == 0 and err == ""
    assert out == f"{SCENARIOS / BULWARK}: expectation met\n"
    code, out, _ = run_cli(capsys, tmp_path, str(SCENARIOS / BULWARK))
    assert code == 0 and out.rstrip().endswith("Expectation: met")
    code, out, _ = run_cli(capsys, tmp_path, str(SCENARIOS / BULWARK), "--json")
    data = json.loads(out)
    assert data["expectation"] == {"stated": True, "met": True, "differences": []}


def test_check_fails_and_lists_the_differences(capsys, tmp_path):
    bad = wrong_expectation(tmp_path, SCENARIOS / BULWARK)
    library = SCENARIOS.parent / "cards"           # the copy sits elsewhere: name the library
    code, out, err = run_cli(capsys, tmp_path, str(bad), "--check", "--library", str(library))
    assert code == 1
    assert out.startswith(f"{bad}: expectation NOT met\n")
    assert "  - " in out and "credits" in out and "7" in out and "2" in out
    assert "is not the scenario's `expect`" in err
    # without --check the replay itself succeeded (exit 0) and the output says the expectation was not met
    code, out, _ = run_cli(capsys, tmp_path, str(bad), "--library", str(library))
    assert code == 0 and "Expectation: NOT met (1 difference(s))" in out
    code, out, _ = run_cli(capsys, tmp_path, str(bad), "--library", str(library), "--json")
    exp = json.loads(out)["expectation"]
    assert exp["stated"] and exp["met"] is False and len(exp["differences"]) == 1


def test_an_expected_illegal_decision_passes_the_check(capsys, tmp_path):
    code, out, _ = run_cli(capsys, tmp_path, str(SCENARIOS / CLONE_CHIP))
    assert code == 1 and "ILLEGAL DECISION" in out and "Expectation: met" in out
    code, out, _ = run_cli(capsys, tmp_path, str(SCENARIOS / CLONE_CHIP), "--check")
    assert code == 0 and out.endswith("expectation met\n")


def test_check_without_an_expect_block_is_an_error(capsys, tmp_path):
    text = (SCENARIOS / BULWARK).read_text(encoding="utf-8")
    loose = tmp_path / "scenarios" / "no-expect.yaml"
    loose.parent.mkdir()
    loose.write_text(text[: text.index("expect:")], encoding="utf-8")
    code, out, err = run_cli(capsys, tmp_path, str(loose), "--check", "--library", str(SCENARIOS.parent / "cards"))
    assert code == 2 and out == "" and "no `expect` block" in err
    code, out, _ = run_cli(capsys, tmp_path, str(loose), "--library", str(SCENARIOS.parent / "cards"))
    assert code == 0 and "Expectation: none stated" in out


def test_every_shipped_scenario_passes_the_check_on_the_new_engine_in_one_call(capsys, tmp_path, shared_replays):
    files = [str(f) for f in sorted(SCENARIOS.glob("*.yaml"))]
    assert len(files) == 169      # `ls rules_source/scenarios/*.yaml | wc -l`
    code, out, err = run_cli(capsys, tmp_path, *files, "--check")
    # A file marked `mismatch: {wrong: engine}` (a CR example the engine gets wrong) reports its known
    # mismatch and what differs; every other file meets its expectation.
    known = [f for f in files if "\nmismatch:" in Path(f).read_text(encoding="utf-8")]
    # CR 26.03 examples the engine gets wrong today (cr26-examples.toml; each file's `why` names the cause).
    assert [Path(f).name for f in known] == [
        "cr26-amaze-trashed-this-server.yaml",
        "cr26-archives-upgrade-trashed-accessed-twice.yaml",
        "cr26-arruaceiras-crew-only-while-encountering.yaml",
        "cr26-azef-protocol-cannot-trash-sansan.yaml",
        "cr26-bullfrog-moves-run-to-archives.yaml",
        "cr26-loot-box-end-encounter-outside-run.yaml",
        "cr26-metamorph-swap-agenda-next-to-asset-refused.yaml",
        "cr26-nanisivik-border-control-archives.yaml",
        "cr26-nanisivik-bran-no-position.yaml",
        "cr26-project-ingatan-sansan-dividends.yaml",
        "cr26-security-testing-account-siphon-one-replacement.yaml",
        "cr26-security-testing-choice-lasts-the-turn.yaml",
        "cr26-singularity-warroid-tracker-hostile-infrastructure.yaml",
        "cr26-street-peddler-set-aside-cards-trashed.yaml",
        "cr26-zato-border-control-this-server.yaml",
    ]
    met = [line for line in out.splitlines() if line.endswith(": expectation met")]
    assert code == 0 and met == [f"{f}: expectation met" for f in files if f not in known]
    assert all(f"{f}: known mismatch: engine: " in out for f in known)
    assert "169 of 169 scenario(s) as expected" in err


def test_several_files_report_each_and_fail_if_one_fails(capsys, tmp_path):
    good = str(SCENARIOS / BULWARK)
    bad = wrong_expectation(tmp_path, SCENARIOS / BULWARK)
    files = [good, str(bad), good]
    library = str(SCENARIOS.parent / "cards")
    code, out, err = run_cli(capsys, tmp_path, *files, "--check", "--library", library)
    assert code == 1 and out.count("expectation met") == 2 and out.count("expectation NOT met") == 1
    assert "2 of 3 scenario(s) as expected" in err
    code, out, _ = run_cli(capsys, tmp_path, *files, "--check", "--library", library, "--json")
    data = json.loads(out)
    assert code == 1 and [d["file"] for d in data] == files
    assert [d["expectation"]["met"] for d in data] == [True, False, True]
    code, _, err = run_cli(capsys, tmp_path, good, good)
    assert code == 2 and "only with --check" in err


def test_new_engine_prints_its_timeline_with_rules(capsys, tmp_path):
    code, out, _ = run_cli(capsys, tmp_path, str(SCENARIOS / BULWARK), "--json")
    data = json.loads(out)
    assert code == 0 and data["outcome"]["ended"] == "script complete"
    assert data["outcome"]["runs"] == [{"server": "HQ", "successful": False, "ended_by": "end_the_run"}]
    kinds = [s["kind"] for s in data["steps"]]
    assert {"subroutine", "end_the_run", "run_ends"} <= set(kinds)
    assert all(s["rule"]["anchor"] for s in data["steps"])
    assert [s["n"] for s in data["steps"]] == list(range(1, len(data["steps"]) + 1))
    code, out, _ = run_cli(capsys, tmp_path, str(SCENARIOS / BULWARK), "--until", "2")
    numbered = [line.split(".")[0] for line in out.splitlines() if line[:1].isdigit()]
    assert code == 0 and numbered == ["1", "2"]
    assert "(listing stopped at step 2 by --until)" in out


def test_unreadable_files(capsys, tmp_path):
    code, _, err = run_cli(capsys, tmp_path, str(tmp_path / "nope.yaml"))
    assert code == 2 and "cannot read scenario" in err
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00title")
    code, out, err = run_cli(capsys, tmp_path, str(binary))
    assert code == 2 and out == "" and "not UTF-8" in err and "Traceback" not in err


def _loose_copy(tmp_path: Path) -> Path:
    """A shipped scenario copied where no ../cards folder sits beside it."""
    loose = tmp_path / "anywhere" / "deeper" / BULWARK
    loose.parent.mkdir(parents=True)
    loose.write_text((SCENARIOS / BULWARK).read_text(encoding="utf-8"), encoding="utf-8")
    return loose


def test_library_option_and_the_remembered_library(capsys, tmp_path):
    loose = _loose_copy(tmp_path)
    cards = SCENARIOS.parent / "cards"
    empty = tmp_path / "empty-library"
    empty.mkdir()
    # no library beside it: the project's whole library (config.card_library) defines Bulwark
    code, out, err = run_cli(capsys, tmp_path, str(loose), "--check")
    assert code == 0 and out.endswith("expectation met\n"), err
    code, _, err = run_cli(capsys, tmp_path, str(loose), "--check", "--library", str(empty))
    assert code == 2 and "'Bulwark' is not in the card library" in err      # an explicit library is the only one
    code, out, _ = run_cli(capsys, tmp_path, str(loose), "--check", "--library", str(cards))
    assert code == 0 and out.endswith("expectation met\n")
    # remember it: with no FILE the command only stores the setting
    code, out, err = run_cli(capsys, tmp_path, "--library", str(cards), "--remember")
    assert code == 0 and out == "" and "remembered" in err
    assert config.load_config().library == str(cards.resolve())
    code, out, _ = run_cli(capsys, tmp_path, str(loose), "--check")
    assert code == 0 and out.endswith("expectation met\n")
    # a library beside the scenario still wins over the remembered one
    code, _, _ = run_cli(capsys, tmp_path, str(SCENARIOS / BULWARK), "--check")
    assert code == 0
    code, _, err = run_cli(capsys, tmp_path, "--forget-library")
    assert code == 0 and "forgotten" in err and config.load_config().library is None
    code, _, _ = run_cli(capsys, tmp_path, str(loose), "--check")
    assert code == 0                                  # the project's library again


def test_a_loose_file_takes_the_remembered_library_first_then_the_projects(capsys, tmp_path):
    """library_for: the remembered folder, then config.card_library() — the first that defines a name wins."""
    from judgebook.commands.replay import library_for
    mine = tmp_path / "mine"
    mine.mkdir()
    loose = _loose_copy(tmp_path)
    assert library_for(loose, None) == config.card_library(statistics=False) == [SCENARIOS.parent / "cards"]
    config.save_config(config.LocalConfig(library=str(mine)))
    assert library_for(loose, None) == [mine, SCENARIOS.parent / "cards"]
    # a definition of Bulwark in the remembered folder wins over the project's
    (mine / "bulwark.yaml").write_text("name: Bulwark\nside: corp\ntype: ice\nsubtypes: [barrier]\n"
                                       "cost: 0\nstrength: 0\n", encoding="utf-8")
    code, out, err = run_cli(capsys, tmp_path, str(loose), "--check")
    assert code == 1 and "expectation NOT met" in out


def test_library_errors(capsys, tmp_path):
    code, _, err = run_cli(capsys, tmp_path, str(SCENARIOS / BULWARK), "--library", str(tmp_path / "none"))
    assert code == 2 and "not a folder" in err
    code, _, err = run_cli(capsys, tmp_path, "--remember")
    assert code == 2 and "--remember needs --library" in err
    code, _, err = run_cli(capsys, tmp_path, "--library", str(tmp_path / "none"), "--remember")
    assert code == 2 and "not a folder" in err and config.load_config().library is None
    code, _, err = run_cli(capsys, tmp_path)
    assert code == 2 and "FILE" in err
    # a remembered library that has gone is named
    config.save_config(config.LocalConfig(library=str(tmp_path / "gone")))
    code, _, err = run_cli(capsys, tmp_path, str(_loose_copy(tmp_path)))
    assert code == 2 and "gone" in err and "--forget-library" in err


def test_config_keeps_both_settings(tmp_path):
    path = tmp_path / "c.toml"
    config.remember(["/x/nsg-cr"], path)
    config.remember_library(str(tmp_path), path)
    assert config.load_config(path) == config.LocalConfig(("/x/nsg-cr",), str(tmp_path.resolve()))
    config.forget(["/x/nsg-cr"], path)
    assert config.load_config(path).library == str(tmp_path.resolve())
    path.write_text('[scenarios]\nlibrary = 3\n', encoding="utf-8")
    with pytest.raises(config.ConfigError, match="library"):
        config.load_config(path)
    path.write_text('[scenarios]\nlibary = "/x"\n', encoding="utf-8")
    with pytest.raises(config.ConfigError, match="only `library`"):
        config.load_config(path)


def test_the_verdict_is_engine_agnostic():
    assert expectation(False, []).met is None
    assert expectation(True, []).met is True
    assert expectation(True, ["run.successful: expected True, got False"]).met is False
    assert expectation(True, ["x"]).lines() == ["Expectation: NOT met (1 difference(s))", "  - x"]
    # --check: the verdict decides; without it, the replay's own exit code stands
    assert exit_code(Expectation(True), check=True, replay_code=1) == 0
    assert exit_code(Expectation(True, ("x",)), check=True, replay_code=0) == 1
    assert exit_code(Expectation(True, ("x",)), check=False, replay_code=0) == 0
    assert exit_code(Expectation(True), check=False, replay_code=1) == 1


def test_card_statistics_come_from_the_remembered_netrunnerdb_data(capsys, tmp_path, cards_root, monkeypatch,
                                                                    shared_replays):
    """With NetrunnerDB's card data among the sources given to `judgebook build --with`, the real-card
    scenarios (whose definitions state only abilities) replay, and the worked examples' library still
    agrees with every printed statistic it states."""
    config = tmp_path / "with-cards.toml"
    config.write_text(f'[build]\nwith = ["{cards_root}"]\n', encoding="utf-8")
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(config))
    real = sorted((ROOT / "rules_source" / "scenarios" / "real").glob("*.yaml"))
    wanted = ("trade-in-half-rounded-down", "valley-grid-hand-size", "precognition-arrange")
    sample = [p for p in real if p.stem in wanted]
    assert len(sample) == 3
    code, out, err = run_cli(capsys, tmp_path, "--check", *map(str, sample))
    assert code == 0, err
    code, out, err = run_cli(capsys, tmp_path, "--check", *map(str, sorted(SCENARIOS.glob("*.yaml"))))
    assert code == 0 and "169 of 169" in err
    # without the card data, a definition that states only abilities cannot be read
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "none.toml"))
    code, _, err = run_cli(capsys, tmp_path, "--check", str(sample[0]))
    assert code == 2 and "needs `side`" in err
