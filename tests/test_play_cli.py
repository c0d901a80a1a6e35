"""`judgebook play FILE`: the interactive player over the rebuilt engine's choices/advance, driven through a
pipe as a person would type. Expected options, rules and states come from the engine's API (choices,
advance, the scripted replay) or from the scenario files, never from the command's own output."""
from __future__ import annotations

import io
import random
from dataclasses import replace
from pathlib import Path

import pytest
import replays

from judgebook.cli import main
from judgebook.commands.play import (
    COMMANDS_HELP,
    Command,
    CommandError,
    Session,
    option_decision,
    parse_command,
    play_script,
    with_decisions,
)
from judgebook.engine import advance, choices
from judgebook.engine.driver.script import check, replay
from judgebook.engine.driver.step import start
from judgebook.engine.errors import ScenarioError
from judgebook.engine.scenario.load import load, setup
from judgebook.engine.state.choice import ChoicePoint, Option, decision

FEMME = Path(__file__).parent / "game" / "femme_tollbooth.yaml"

# Inline card definitions in the new card language; the Runner has exactly 1 credit for one break.
CORRODER = """\
title: Corroder breaks Ice Wall's only subroutine (play test)
source: "written for tests/test_play_cli.py"
# a comment the saved file keeps
card_defs:
  - name: Ice Wall
    side: corp
    type: ice
    subtypes: [barrier]
    cost: 1
    strength: 1
    subroutines:
      - {text: "End the run.", effects: [end_the_run]}
  - name: Corroder
    side: runner
    type: program
    subtypes: [icebreaker, fracter]
    cost: 2
    memory: 1
    strength: 2
    abilities:
      - {id: break, cost: {credits: 1}, break: {subtype: barrier, count: 1}}
      - {id: pump, cost: {credits: 1}, effects: [{strength: 1}]}
corp:
  servers:
    HQ: {ice: [{card: Ice Wall, rezzed: true}]}
runner:
  credits: 1
  installed: [Corroder]
decisions:
  - {action: run, server: HQ}
  - {use: Corroder, ability: break, subroutines: [1]}
expect:
  run: {successful: true, server: HQ}
  state:
    runner: {credits: 0}
"""


@pytest.fixture
def corroder(tmp_path):
    path = tmp_path / "scenarios" / "corroder.yaml"
    path.parent.mkdir()
    path.write_text(CORRODER, encoding="utf-8")
    return path


def play(capsys, monkeypatch, tmp_path, file, lines, *options):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", str(file), "--index", str(tmp_path / "no-index"), *options])
    out = capsys.readouterr()
    return code, out.out, out.err


def first_point(path):
    g, _ = start(setup(load(path)))
    return g, choices(g)


def test_first_choice_point_lists_who_where_options_and_rules(capsys, monkeypatch, tmp_path):
    _, point = first_point(FEMME)
    code, out, err = play(capsys, monkeypatch, tmp_path, FEMME, ["quit"])
    assert code == 0 and err == ""
    assert f"— at: {' › '.join(point.path)}" in out
    assert f"{point.player} decides ({point.kind}): {point.prompt}   rule: {point.rule}" in out
    for i, option in enumerate(point.options, 1):
        assert f"  {i}. {option.label}   rule: {option.rule}" in out
    assert f"({len(point.refused)} refused: type r to list them)" in out


def test_refused_options_on_request_and_a_refused_choice_prints_its_rule(capsys, monkeypatch, tmp_path):
    _, point = first_point(FEMME)
    refused = point.refused[0]       # Femme Fatale's break outside an encounter
    assert refused.rule == "rule_paid_ability_breaks_subroutines"
    lines = ["r", "r1", "{use: Femme Fatale, ability: break}", "1"]
    code, out, err = play(capsys, monkeypatch, tmp_path, FEMME, lines)
    assert code == 0
    assert f"r1. {refused.label}: {refused.reason} (may be legal later)   rule: {refused.rule}" in out
    # both the listed refused option and the same decision typed out are refused with the rule
    assert err.count(f"rule: {refused.rule}") == 2 and err.count("refused: ") == 2
    # the loop went on: option 1 (pass) was taken after the errors
    assert "chosen: {pass: runner}" in out


def test_errors_do_not_leave_the_loop(capsys, monkeypatch, tmp_path):
    _, point = first_point(FEMME)
    lines = ["9", "r7", "fly", "{action: run, server: HQ, speed: 3}", "save", "help", "1", "quit", "2"]
    code, out, err = play(capsys, monkeypatch, tmp_path, FEMME, lines)
    assert code == 0
    assert COMMANDS_HELP in out
    assert "no option 2" not in err and out.count("chosen:") == 1   # nothing is read after quit
    assert f"no option 9: choose 1 to {len(point.options)}" in err
    assert "no refused option r7" in err
    assert "'fly'" in err
    assert "speed" in err                       # the unknown key of a written decision is named
    assert "save needs a file" in err
    assert "chosen: {pass: runner}" in out


def test_undo_returns_to_the_earlier_choice_point(capsys, monkeypatch, tmp_path):
    g0, point = first_point(FEMME)
    pump = next(i for i, o in enumerate(point.options, 1) if o.decision.get("ability") == "pump")
    code, out, _ = play(capsys, monkeypatch, tmp_path, FEMME, [str(pump), "undo", str(pump), "quit"])
    assert code == 0
    blocks = out.split("— at: ")
    # the point shown after undo is the first point, shown the same way
    first_shown = blocks[1][: blocks[1].index("chosen:")]
    assert blocks[3].startswith(first_shown)
    # pumping again after undo starts from the state before the first pump: the same payment step twice
    _, steps = advance(g0, point.options[pump - 1].decision)
    pay = next(s for s in steps if s.kind == "credits_spent")
    assert out.count(pay.text) == 2
    assert "undone: 0 decision(s) taken now" in out


def test_undo_is_the_previous_state_value():
    sc = load(FEMME)
    g0, _ = start(setup(sc))
    session = Session(sc, g0)
    session.take(choices(g0).options[1].decision)
    assert session.game != g0
    assert session.undo() and session.game == g0 and session.taken == []
    assert not session.undo()


def _walk_to_next_action(g, decisions):
    """Defaults from `g` until a point with none (the next action), as a scripted replay takes them."""
    while (point := choices(g)) is not None and point.default is not None:
        decisions.append(point.options[point.default].decision)
        g, _ = advance(g, decisions[-1])
    return g


def same_cards(sc, saved):
    """The scripted replay of a saved file's decisions over `sc`'s own parsed board and card definitions
    (the saved file's board and definitions are the input's text, checked apart)."""
    return replay(replace(sc, decisions=load(saved).decisions))


def test_save_writes_a_scenario_whose_replay_ends_in_an_equal_state(capsys, monkeypatch, tmp_path):
    saved = tmp_path / "session.yaml"
    # pass, pass, run on HQ, then Enter (each point's default) for long enough, then save
    lines = ["", "", "3"] + [""] * 40 + [f"save {saved}", "quit"]
    code, out, err = play(capsys, monkeypatch, tmp_path, FEMME, lines)
    assert code == 0 and f"to {saved}" in out
    assert "note:" not in err                   # the replay stops where the session did
    # The same game through the API: pass, pass, run on HQ, then the defaults up to the next action.
    sc = load(FEMME)
    g, _ = start(setup(sc))
    taken = []
    g = _walk_to_next_action(g, taken)
    run = next(o.decision for o in choices(g).options if o.decision.get("server") == "HQ")
    taken.append(run)
    g, _ = advance(g, run)
    g = _walk_to_next_action(g, taken)
    back = load(saved)
    assert [d.describe() for d in back.decisions][:3] == ["{pass: runner}", "{pass: corp}", "{action: run, server: HQ}"]
    assert len(back.decisions) == len(taken)
    outcome = replay(back)
    assert outcome.error is None and outcome.ended == "script complete" and outcome.final.turn == g.turn
    # States hold the parsed card definitions, which compare by identity: replay the saved decisions over the
    # scenario the walk used, so that its states are comparable with the walk's.
    assert same_cards(sc, saved).final == g
    text = saved.read_text(encoding="utf-8")
    original = FEMME.read_text(encoding="utf-8")
    assert original[: original.index("decisions:")] in text      # board and card definitions kept as written
    assert "expect:" not in text


def test_inline_cards_scenario_played_by_hand_then_saved(capsys, monkeypatch, tmp_path, corroder):
    saved = tmp_path / "by-hand.yaml"
    lines = ["", "", "{action: run, server: HQ}"] + [""] * 4 + [
        "{use: Corroder, ability: break, subroutines: [1]}", "r"] + [""] * 30 + [f"save {saved}"]
    code, out, err = play(capsys, monkeypatch, tmp_path, corroder, lines)
    assert code == 0, err
    # with its only credit spent, Corroder's abilities are refused for the cost (rule_cost)
    assert "Corroder: pump: " in out and "rule: rule_cost" in out
    outcome = replay(load(saved))
    assert check(load(corroder), outcome) == []   # the input's own expect: the run succeeded, 0 credits left
    assert "# a comment the saved file keeps" in saved.read_text(encoding="utf-8")


def test_script_option_plays_the_scenario_decisions_first(capsys, monkeypatch, tmp_path, corroder):
    saved = tmp_path / "scripted.yaml"
    code, out, _ = play(capsys, monkeypatch, tmp_path, corroder, [""] * 30 + [f"save {saved}"], "--script")
    assert code == 0
    assert "script: {action: run, server: HQ}" in out
    assert "script: {use: Corroder, ability: break, subroutines: [1]}" in out
    assert "script: 2 of 2 decision(s) played" in out
    # the scripted part is undoable like any decision: the saved file replays to the expected outcome
    assert check(load(corroder), replay(load(saved))) == []
    # the scripted replay of the input and the saved session end in the same state
    sc = load(corroder)
    assert same_cards(sc, saved).final == replay(sc).final


def test_play_with_a_card_library_elsewhere(capsys, monkeypatch, tmp_path):
    lib = tmp_path / "my-cards"
    lib.mkdir()
    cards = CORRODER[CORRODER.index("  - name: Ice Wall"): CORRODER.index("corp:")]
    (lib / "cards.yaml").write_text("cards:\n" + cards, encoding="utf-8")
    scenario = tmp_path / "loose.yaml"     # no ../cards beside it
    scenario.write_text(CORRODER[: CORRODER.index("card_defs:")] + CORRODER[CORRODER.index("corp:"):],
                        encoding="utf-8")
    empty = tmp_path / "no-cards"
    empty.mkdir()
    # (with no --library, the project's own library would define Ice Wall: config.card_library)
    code, _, err = play(capsys, monkeypatch, tmp_path, scenario, ["quit"], "--library", str(empty))
    assert code == 2 and "Ice Wall" in err and "not defined" in err
    code, out, err = play(capsys, monkeypatch, tmp_path, scenario, ["", "", "quit"], "--library", str(lib))
    assert code == 0 and err == "" and "chosen: {pass: corp}" in out


def test_missing_file_and_bad_scenario(capsys, monkeypatch, tmp_path):
    code, _, err = play(capsys, monkeypatch, tmp_path, tmp_path / "nope.yaml", [])
    assert code == 2 and "cannot read scenario" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: bad\nrunner:\n  credits: many\n", encoding="utf-8")
    code, _, err = play(capsys, monkeypatch, tmp_path, bad, [])
    assert code == 2 and "line 3" in err and "Traceback" not in err
    bad.write_bytes(b"\xff\xfe\x00title")
    code, out, err = play(capsys, monkeypatch, tmp_path, bad, [])
    assert code == 2 and out == "" and "not UTF-8" in err


def test_parse_command():
    assert parse_command("3") == Command("option", 3)
    assert parse_command("2 x=3 using=[Cyberfeeder]") == Command("option", 2, (("x", 3), ("using", ["Cyberfeeder"])))
    assert parse_command("1 4") == Command("option", 1, (), 4)
    assert parse_command("  ") == Command("default")
    assert parse_command("r") == parse_command("refused") == Command("refused")
    assert parse_command("r2") == Command("try_refused", 2)
    assert parse_command("save out.yaml") == Command("save", path="out.yaml")
    assert parse_command("{pass: runner}") == Command("decision", decision={"pass": "runner"})
    for bad in ("save", "1 2 3", "1 fast", "undo now", "go"):
        with pytest.raises(CommandError):
            parse_command(bad)


def test_an_option_asking_for_a_number():
    rule = "rule_mandatory_infinite_loop"
    point = ChoicePoint("corp", "loop", "name a number", rule, (Option(decision("loop", "*"), "repetitions", rule),))
    assert option_decision(point, parse_command("1 3")).as_yaml() == {"loop": 3}
    with pytest.raises(CommandError, match="needs a number"):
        option_decision(point, parse_command("1"))
    plain = ChoicePoint("runner", "pay", "pay?", "rule_nested_cost", (Option(decision("pay", True), "pay", "r"),))
    with pytest.raises(CommandError, match="takes no number"):
        option_decision(plain, parse_command("1 3"))
    assert option_decision(plain, parse_command("1 x=2")).as_yaml() == {"pay": True, "x": 2}
    # a key that kind of decision does not take is an error, not carried along unused
    passing = ChoicePoint("runner", "priority", "pass?", "rule_pass", (Option(decision("pass", "runner"), "p", "r"),))
    with pytest.raises(ScenarioError, match="x"):
        option_decision(passing, parse_command("1 x=2"))


def test_with_decisions_replaces_only_decisions_and_drops_expect():
    text = ("# head\ntitle: t\ndecisions:\n  - {action: draw}\n# about expect\nexpect:\n  winner: corp\n"
            "runner: {credits: 1}\n")
    out = with_decisions(text, [decision("pass", "runner")])
    assert out.startswith("# head\ntitle: t\n")
    assert "  - {pass: runner}\n" in out and "draw" not in out and "winner" not in out
    assert out.endswith("runner: {credits: 1}\n")
    appended = with_decisions("title: t\nrunner: {credits: 1}", [decision("action", "run", server="R&D")])
    assert appended.startswith("title: t\nrunner: {credits: 1}\n") and "- {action: run, server: R&D}" in appended
    flow = with_decisions("{title: t, decisions: [{action: draw}]}", [])
    assert "decisions: []" in flow and "title: t" in flow and "draw" not in flow


SHIPPED = sorted((Path(__file__).resolve().parent.parent / "rules_source" / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", [FEMME, *SHIPPED], ids=lambda p: p.stem)
def test_saved_decisions_replay_through_the_same_states(path):
    """Random legal play from every shipped scenario: every decision the engine offers is written so that the
    scenario parser reads it back and the scripted replay takes it, through the very same states."""
    from judgebook.engine.scenario.load import parse
    from judgebook.engine.state.choice import ANY_NUMBER

    library = path.resolve().parent.parent / "cards"
    library = library if library.is_dir() else None
    sc = load(path, library)
    rng = random.Random(path.stem)
    for _walk in range(2):
        g, _ = start(setup(sc))
        session = Session(sc, g)
        for _ in range(rng.randint(1, 40)):
            point = choices(session.game)
            if point is None or not point.options:
                break
            d = rng.choice(point.options).decision
            if d.value == ANY_NUMBER:
                d = decision(d.kind, 2, **dict(d.params))
            session.take(d)
        text = with_decisions(path.read_text(encoding="utf-8"), session.decisions)
        back = parse(text, str(path), library)
        assert back.title == sc.title and back.corp == sc.corp and back.runner == sc.runner
        outcome = replay(replace(sc, decisions=back.decisions))
        k = len(session.taken)
        assert len(outcome.states) > k and outcome.states[k] == session.game


def test_a_real_pipe(tmp_path):
    """The command in its own process, reading a pipe (not a terminal): no prompt, the game on stdout."""
    import subprocess
    import sys

    _, point = first_point(FEMME)
    proc = subprocess.run([sys.executable, "-m", "judgebook", "--index", str(tmp_path / "none"), "play", str(FEMME)],
                          input="r1\n1\nquit\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert f"rule: {point.refused[0].rule}" in proc.stderr and "Traceback" not in proc.stderr
    assert "chosen: {pass: runner}" in proc.stdout and "> " not in proc.stdout


def test_board_shows_the_pools_and_zones_of_the_current_state(capsys, monkeypatch, tmp_path):
    g0, point = first_point(FEMME)
    pump = next(i for i, o in enumerate(point.options, 1) if o.decision.get("ability") == "pump")
    g1, _ = advance(g0, point.options[pump - 1].decision)
    code, out, _ = play(capsys, monkeypatch, tmp_path, FEMME, ["board", str(pump), "board"])
    first, second = out.split("turn 1, ")[1:]
    for shown, g in ((first, g0), (second, g1)):
        assert f"runner: {g.runner.credits}[c], {g.runner.clicks}[click]" in shown
        assert f"corp: {g.corp.credits}[c]" in shown
    assert g0.runner.credits != g1.runner.credits
    assert "corp.server.HQ.ice: Tollbooth (rezzed)" in first and "runner.rig: Femme Fatale" in first


@pytest.mark.parametrize("path", [FEMME, *SHIPPED], ids=lambda p: p.stem)
def test_script_part_goes_where_the_scripted_replay_goes(path):
    """--script takes the scenario's decisions as the engine's scripted replay does: after them, the session is
    in the state the replay reached with as many advances (the replay may then go on by defaults)."""
    library = path.resolve().parent.parent / "cards"
    sc = replays.loaded(path, library if library.is_dir() else None)
    g, _ = start(setup(sc))
    session = Session(sc, g)
    out = io.StringIO()
    play_script(session, out, str)
    outcome = replays.replayed(sc)  # the scripted replay, once per run (tests/replays.py)
    k = len(session.taken)
    assert k < len(outcome.states) and outcome.states[k] == session.game
    if outcome.error is None:
        assert f"script: {len(sc.decisions)} of {len(sc.decisions)} decision(s) played" in out.getvalue()
