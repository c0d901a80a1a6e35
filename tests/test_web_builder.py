"""The scenario builder (/replay/new, issue 10) through the Flask test client.

The card library is written here, into temporary folders, so completion counts are exact and do not
move when the shipped library grows; one test reads the project's library with NetrunnerDB's data.
The scenario texts a board must give are written out by hand, never produced by the code under test.
"""
from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from test_web_corpus import FakeSearcher, documents, sections
from test_web_replay import clean

from judgebook.engine.driver.script import replay
from judgebook.engine.scenario.load import parse_scenario
from judgebook.store.corpus import Corpus
from judgebook.web.app import create_app
from judgebook.web.board_form import Board, Built, from_scenario, read_form, scenario_text
from judgebook.web.session_link import pack, unpack

GATE = """\
name: Gate
side: corp
type: ice
subtypes: [code gate]
cost: 3
strength: 2
subroutines:
  - [{lose_clicks: 1, player: runner}]
  - [end_the_run]
"""
BYPASSER = """\
name: Bypasser
side: runner
type: program
subtypes: [icebreaker, killer]
cost: 4
memory: 1
strength: 2
abilities:
  - id: bypass
    text: "Whenever you encounter the chosen ice, you may pay 1[c] for each of its subroutines to bypass it."
    trigger: encounter_ice
    condition: {ice: chosen}
    optional: true
    effects:
      - {pay: {credits: {subroutine_count: event_ice}}, then: [bypass]}
"""
WALLET = "name: Wallet\nside: runner\ntype: hardware\ncost: 1\npartial: its trade-in ability is left out\n"
VAULT = "name: Vault\nside: corp\ntype: asset\ncost: 1\ntrash_cost: 2\n"
PLAN = "name: Plan\nside: corp\ntype: agenda\nadvancement_requirement: 3\nagenda_points: 2\n"
GATE_BIS = GATE.replace("strength: 2", "strength: 9")        # a second folder's Gate: the first one wins
BROKEN = "name: Broken\nside: corp\ntype: ice\nsubroutines: [[no_such_instruction]]\n"
STUB = "name: Stub\nundefined: the language lacks it\n"


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> list[Path]:
    first, second = tmp_path_factory.mktemp("lib-a"), tmp_path_factory.mktemp("lib-b")
    for name, text in (("gate", GATE), ("bypasser", BYPASSER), ("wallet", WALLET), ("vault", VAULT),
                       ("plan", PLAN), ("broken", BROKEN), ("stub", STUB)):
        (first / f"{name}.yaml").write_text(text, encoding="utf-8")
    (second / "gate.yaml").write_text(GATE_BIS, encoding="utf-8")
    (second / "gate-ii.yaml").write_text(GATE.replace("name: Gate", "name: Gate II"), encoding="utf-8")
    return [first, second]


@pytest.fixture(scope="module")
def app(library):
    corpus = Corpus(documents(), sections())
    app = create_app(corpus, searcher=FakeSearcher(corpus))
    app.testing = False          # the error handlers as in production
    app.config["JUDGEBOOK_LIBRARY"] = [str(p) for p in library]
    app.config["JUDGEBOOK_CARD_DATA"] = ""
    return app


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def errors_of(html: str) -> dict[str, str]:
    """The inline messages of a page: field key -> text."""
    return {m.group(1): unescape(re.sub(r"\s+", " ", m.group(2)).strip())
            for m in re.finditer(r'<p class="bd-err" id="([^"]*)-err">([^<]*)</p>', html)}


def value_of(html: str, name: str) -> str | None:
    m = re.search(r'<input[^>]*\bname="' + re.escape(name) + r'"[^>]*\bvalue="([^"]*)"', html)
    return m.group(1) if m else None


FF_FORM = {"title": "Bypasser against Gate", "turn": "runner", "at": "action_phase", "first_run": "HQ",
           "s0_ice0_card": "Gate", "s0_ice0_rezzed": "1", "rig0_card": "Bypasser", "rig0_chosen": "Gate",
           "runner_credits": "5", "go": "play"}
FF_TEXT = """\
title: "Bypasser against Gate"
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ:
      ice:
        - {card: Gate, rezzed: true}
runner:
  credits: 5
  installed:
    - {card: Bypasser, chosen: Gate}
decisions:
  - {action: run, server: HQ}
"""


# ---- completion --------------------------------------------------------------------------------
def test_completion_over_every_defined_card_first_folder_wins(client):
    data = client.get("/replay/new/cards.json?q=&slot=any").get_json()
    # lib-a: Gate, Bypasser, Wallet, Vault, Plan (Broken does not load, Stub is undefined); lib-b adds Gate II
    assert data["total"] == 6
    assert [c["name"] for c in data["cards"]] == ["Bypasser", "Gate", "Gate II", "Plan", "Vault", "Wallet"]
    gate = next(c for c in data["cards"] if c["name"] == "Gate")
    assert gate["line"] == "ice: code gate · rez 3 · strength 2"          # lib-a's Gate, not lib-b's (9)
    assert gate["folder"] == "lib-a0"


@pytest.mark.parametrize("slot, q, names", [
    ("ice", "", ["Gate", "Gate II"]),
    ("ice", "ii", ["Gate II"]),
    ("rig", "", ["Bypasser", "Wallet"]),
    ("root", "", ["Plan", "Vault"]),
    ("score", "", ["Plan"]),
    ("runner", "a", ["Bypasser", "Wallet"]),      # starts with "a": none; contains "a": both
    ("corp", "GA", ["Gate", "Gate II"]),           # case does not matter
    ("any", "zzz", []),
    ("hosted", "", ["Bypasser", "Plan", "Vault", "Wallet"]),    # never ice (nor an upgrade, an identity)
    ("hosted_ice", "", []),                        # none of these is "installed only on a piece of ice"
])
def test_completion_filters_by_slot(client, slot, q, names):
    data = client.get(f"/replay/new/cards.json?q={q}&slot={slot}").get_json()
    assert [c["name"] for c in data["cards"]] == names


@pytest.mark.parametrize("url, status", [
    ("/replay/new/cards.json?slot=<script>", 400),
    ("/replay/new/cards.json?q=" + "a" * 101, 400),
])
def test_completion_refuses_bad_queries_as_json(client, url, status):
    resp = client.get(url)
    assert resp.status_code == status and resp.is_json
    assert "<" not in resp.get_data(as_text=True)


def test_completion_echo_is_escaped(client):
    body = client.get("/replay/new/cards.json?q=%3Cimg%20src%3Dx%3E").get_data(as_text=True)
    assert "<img" not in body and "\\u003cimg" in body


# ---- building ------------------------------------------------------------------------------------
def test_the_replay_page_leads_to_the_builder(client):
    assert '<a href="/replay/new">Set up a situation from card names</a>' in \
        client.get("/replay").get_data(as_text=True)


def test_empty_builder_is_a_plain_form(client):
    resp = client.get("/replay/new")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200
    clean(html)                  # no inline script, handler or style; no id twice
    assert re.search(r'<form[^>]*id="bd-form"[^>]*action="/replay/new"[^>]*method="post"', html)
    for name in ("s0_ice0_card", "s1_ice0_card", "s2_ice0_card", "rig0_card", "corp_credits", "runner_tags",
                 "corp_hand0_card", "runner_discard0_card", "s0_ice0_n_advancement", "rig0_h0_card"):
        assert f'name="{name}"' in html, name
    assert errors_of(html) == {}


def test_a_board_becomes_the_scenario_text_and_a_play_link(client):
    resp = client.post("/replay/new", data=FF_FORM)
    assert resp.status_code == 303
    location = resp.headers["Location"]
    assert location.startswith("/replay/play?s=")
    assert unpack(location.split("s=", 1)[1]) == FF_TEXT


def test_the_yaml_download_is_the_same_text(client):
    resp = client.post("/replay/new", data={**FF_FORM, "go": "yaml"})
    assert resp.status_code == 200
    assert resp.headers["Content-Disposition"] == 'attachment; filename="bypasser-against-gate.yaml"'
    assert resp.get_data(as_text=True) == FF_TEXT


def test_the_built_text_replays_with_the_engine(library):
    sc = parse_scenario(FF_TEXT, "t", library, None)
    out = replay(sc)
    events = [s.kind for s in out.steps]
    assert out.error is None
    assert "bypass" in events and "successful_run" in events and "subroutine" not in events


def test_counters_hosted_piles_and_remotes():
    form = {"s0_root0_card": "Vault", "s0_root0_n_advancement": "2", "s0_root0_n_credit": "3",
            "s3_name": "Server 1", "s3_root0_card": "Plan", "s3_root0_n_advancement": "1",
            "rig0_card": "Wallet", "rig0_h0_card": "Bypasser", "rig0_h0_n_virus": "2",
            "corp_hand0_card": "Gate", "corp_hand3_card": "Vault", "corp_score0_card": "Plan",
            "corp_bad_publicity": "1", "runner_tags": "2", "runner_core_damage": "1", "turn": "corp",
            "at": "corp_turn"}
    built = scenario_text(read_form(form), lambda name: None)
    assert built.errors == {}
    assert built.text == """\
title: "A situation at the table"
start: {turn: corp, at: corp_turn}
corp:
  bad_publicity: 1
  hand:
    - Gate
    - Vault
  score:
    - Plan
  servers:
    HQ:
      root:
        - {card: Vault, counters: {advancement: 2, credit: 3}}
    Server 1:
      root:
        - {card: Plan, counters: {advancement: 1}}
runner:
  tags: 2
  core_damage: 1
  installed:
    - {card: Wallet, hosted: [{card: Bypasser, counters: {virus: 2}}]}
"""


def test_names_that_are_not_plain_yaml_are_quoted():
    form = {"rig0_card": "Yes", "rig1_card": "Card: with colon", "rig2_card": 'Quote " and # hash',
            "rig3_card": "123"}
    built = scenario_text(read_form(form), lambda name: None)
    assert built.text.splitlines()[-4:] == ['    - "Yes"', '    - "Card: with colon"',
                                             '    - "Quote \\" and # hash"', '    - "123"']


# ---- mistakes come back next to their field, the board kept ------------------------------------------
def test_an_unknown_card_is_named_next_to_its_field_and_the_board_is_kept(client):
    resp = client.post("/replay/new", data={**FF_FORM, "s0_ice0_card": "Gait"})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 400
    assert errors_of(html) == {"s0_ice0_card": "card 'Gait' is not defined (card_defs or the card library)"
                                               " — did you mean Gate?"}
    assert value_of(html, "s0_ice0_card") == "Gait"
    assert value_of(html, "rig0_card") == "Bypasser" and value_of(html, "rig0_chosen") == "Gate"
    assert value_of(html, "runner_credits") == "5"
    assert re.search(r'name="s0_ice0_rezzed" value="1" checked', html)
    assert 'aria-describedby="s0_ice0_card-err"' in html
    assert '<a href="#s0_ice0_card">' in html           # the summary links to the field


@pytest.mark.parametrize("change, key, message", [
    ({"runner_credits": "five"}, "runner_credits", "a whole number, not 'five'"),
    ({"runner_tags": "-1"}, "runner_tags", "a number from 0 to 99"),
    ({"rig0_card": "Gate"}, "rig0_card", "Gate is an ice: the rig holds programs, hardware and resources"),
    ({"s0_ice0_card": "Vault"}, "s0_ice0_card", "Vault is an asset: only ice is installed protecting a server"),
    ({"rig0_rezzed": "1"}, "rig0_rezzed", "only the Corp's installed cards are rezzed"),
    ({"s0_ice0_n_advancement": "x"}, "s0_ice0_n_advancement", "a whole number, not 'x'"),
    ({"turn": "corp"}, "first_run", "the Runner runs as an action of their turn: start on the Runner's turn"),
    ({"first_run": "Server 9"}, "first_run", "no server named 'Server 9' on the board"),
    ({"s3_name": "HQ", "s3_root0_card": "Vault"}, "s3_name", "'HQ' is already a server's name"),
    ({"s0_root0_n_power": "1"}, "s0_root0_card", "name the card (or clear the row)"),
    ({"title": "x" * 121}, "title", "at most 120 characters"),
    ({"rig0_chosen": "Gait"}, "rig0_chosen", "no card 'Gait' on the board (a second copy is Name#2)"),
    ({"rig0_chosen": "Gate#2"}, "rig0_chosen", "no card 'Gate#2' on the board (a second copy is Name#2)"),
    ({"rig1_card": "Bad\u0007Bell"}, "rig1_card", "contains a control character"),
])
def test_each_mistake_is_shown_at_its_field(client, change, key, message):
    resp = client.post("/replay/new", data={**FF_FORM, **change})
    assert resp.status_code == 400
    assert errors_of(resp.get_data(as_text=True)) == {key: message}


def test_an_engine_error_with_a_line_maps_to_the_field_of_that_line():
    built = Built(paths={"runner.credits": "runner_credits", "corp.servers.HQ.ice[0]": "s0_ice0_card"},
                  lines={7: "s0_ice0_card"})
    assert built.error_key("corp.servers.HQ.ice[0].counters", None) == "s0_ice0_card"
    assert built.error_key("corp.servers.HQ.ice[0]", 3) == "s0_ice0_card"
    assert built.error_key("runner.credits", None) == "runner_credits"
    assert built.error_key("runner.creditsx", 7) == "s0_ice0_card"        # not a path boundary: by line
    assert built.error_key("decisions[3]", 99) == ""


def test_markup_typed_into_the_board_comes_back_escaped(client):
    evil = "<script>alert(1)</script>"
    resp = client.post("/replay/new", data={**FF_FORM, "title": evil, "s0_ice0_card": evil, "s3_name": evil,
                                            "at": evil, "turn": evil, "first_run": evil})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 400
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    clean(html)
    assert set(errors_of(html)) >= {"at", "turn", "first_run"}


def test_a_filled_board_page_has_unique_ids_and_no_inline_code(client):
    form = {**FF_FORM, "go": "update", "rig0_h0_card": "Wallet", "corp_hand0_card": "Gate", "s3_name": "Server 1",
            "corp_score0_card": "Plan", "runner_score0_card": "Plan"}
    html = client.post("/replay/new", data=form).get_data(as_text=True)
    clean(html)
    assert "Score area <span class=\"count\">(1: 2 agenda points)</span>" in html


def test_unknown_fields_and_buttons_are_refused(client):
    resp = client.post("/replay/new", data={**FF_FORM, "rig100_card": "Wallet", "sneaky": "1"})
    assert resp.status_code == 400
    assert "unknown form field &#39;rig100_card&#39;" in resp.get_data(as_text=True)
    resp = client.post("/replay/new", data={**FF_FORM, "go": "<b>"})
    assert resp.status_code == 400 and "<b>" not in resp.get_data(as_text=True)


def test_an_oversized_form_is_a_clear_413(client):
    resp = client.post("/replay/new", data={**FF_FORM, "title": "x" * 70_000})
    assert resp.status_code == 413 and "Traceback" not in resp.get_data(as_text=True)


def test_update_and_add_remote_keep_the_board_and_add_rows(client):
    data = {**FF_FORM, "go": "update", "s0_ice5_card": "Gate II"}      # a gap in the numbering closes up
    html = client.post("/replay/new", data=data).get_data(as_text=True)
    assert value_of(html, "s0_ice0_card") == "Gate" and value_of(html, "s0_ice1_card") == "Gate II"
    assert value_of(html, "s0_ice2_card") == ""                           # the blank row after them
    html = client.post("/replay/new", data={**data, "go": "add_remote"}).get_data(as_text=True)
    assert value_of(html, "s3_name") == "Server 1" and value_of(html, "s3_ice0_card") == ""
    assert value_of(html, "s0_ice1_card") == "Gate II"


# ---- a session's board back in the builder ----------------------------------------------------------
def test_a_session_link_opens_its_board_in_the_builder(client):
    html = client.get(f"/replay/new?s={pack(FF_TEXT)}").get_data(as_text=True)
    assert value_of(html, "s0_ice0_card") == "Gate" and value_of(html, "rig0_chosen") == "Gate"
    assert re.search(r'<option value="HQ" selected>a run on HQ</option>', html)


def test_board_text_board_round_trip():
    board = read_form({k: v for k, v in FF_FORM.items() if k != "go"})
    assert from_scenario(scenario_text(board, lambda n: None).text) == (board, [])


def test_a_played_session_opens_as_its_starting_board_saying_what_is_left_out(client):
    played = FF_TEXT + "  - {trigger: Bypasser, ability: bypass}\n  - {jack_out: false}\nexpect: {winner: none}\n"
    html = unescape(client.get(f"/replay/new?s={pack(played)}").get_data(as_text=True))
    assert "left out: its expected outcome, 2 decisions taken from the start." in html
    assert value_of(html, "s0_ice0_card") == "Gate"


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))


@pytest.mark.parametrize("s, says", [
    ("!!!", "not base64url"),
    ("A" * 30_000, "too long"),
    (pack("title: x\ncard_defs: []\n"), "the builder has no field for card_defs"),
    (pack("a: &a [*a]\n"), "this link"),
    (pack(BOMB), "this link"),                                          # a billion laughs
    (pack("title: x\nrunner: " + "[" * 200 + "]" * 200 + "\n"), "this link"),   # deep nesting
    (pack("title: x\nrunner: {installed: [{card: A, id: A2}]}\n"), "the builder has no field for rig0.id"),
    (pack("title: x\nrunner: {installed: [{card: A, hosted: [{card: B, hosted: [C]}]}]}\n"),
     "the builder has no field for rig0_h0.hosted"),
    (pack("title: x\ncorp: {servers: {HQ: {ice: [{card: A, counters: {agenda: 1}}]}}}\n"),
     "the builder has no field for s0_ice0_n_agenda"),
])
def test_a_link_the_builder_cannot_show_says_why(client, s, says):
    resp = client.get(f"/replay/new?s={s}")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 400
    assert says in html.replace("&#39;", "'")
    assert value_of(html, "s0_ice0_card") == ""                  # an empty board to start from


# ---- the project's own library, with NetrunnerDB's statistics ---------------------------------------
@pytest.mark.corpora
def test_the_project_library_completes_enigma_with_netrunnerdb_statistics(cards_root):
    corpus = Corpus(documents(), sections())
    app = create_app(corpus, searcher=FakeSearcher(corpus))
    app.config["JUDGEBOOK_CARD_DATA"] = str(cards_root)
    data = app.test_client().get("/replay/new/cards.json?q=enig&slot=ice").get_json()
    printed = json.loads((cards_root / "v2" / "cards" / "enigma.json").read_text(encoding="utf-8"))
    enigma = next(c for c in data["cards"] if c["name"] == "Enigma")
    assert enigma["line"] == f"ice: code gate · rez {printed['cost']} · strength {printed['strength']}"
    assert enigma["nrdb_id"] == "enigma" and enigma["text"].startswith("[subroutine] The Runner loses")


def test_board_default_is_three_central_servers():
    assert [s.name for s in Board().servers] == ["HQ", "R&D", "Archives"]


def test_a_damaged_netrunnerdb_folder_is_no_500(library, tmp_path):
    (tmp_path / "v2" / "cards").mkdir(parents=True)
    (tmp_path / "v2" / "cards" / "bad.json").write_text("{not json", encoding="utf-8")
    corpus = Corpus(documents(), sections())
    app = create_app(corpus, searcher=FakeSearcher(corpus))
    app.testing = False
    app.config.update(JUDGEBOOK_LIBRARY=[str(p) for p in library], JUDGEBOOK_CARD_DATA=str(tmp_path))
    client = app.test_client()
    assert client.get("/replay/new").status_code == 200
    assert [c["name"] for c in client.get("/replay/new/cards.json?q=ga&slot=ice").get_json()["cards"]] == \
        ["Gate", "Gate II"]
    resp = client.post("/replay/new", data=FF_FORM)
    print("STATUS", resp.status_code, re.findall(r"bd-summary.*?</ul>", resp.get_data(as_text=True), re.S))


def test_a_partial_definition_says_so_where_the_card_is_placed(client):
    data = client.get("/replay/new/cards.json?q=wal&slot=rig").get_json()
    assert data["cards"][0]["partial"] == "its trade-in ability is left out"
    html = client.post("/replay/new", data={**FF_FORM, "go": "update", "rig1_card": "Wallet"}).get_data(as_text=True)
    assert "The engine's definition is partial: its trade-in ability is left out" in unescape(html)


def test_a_second_copy_can_be_the_chosen_one(client):
    resp = client.post("/replay/new", data={**FF_FORM, "s0_ice1_card": "Gate", "rig0_chosen": "Gate#2"})
    assert resp.status_code == 303
    assert "- {card: Bypasser, chosen: \"Gate#2\"}" in unpack(resp.headers["Location"].split("s=", 1)[1])


# ---- a run in progress at the start -----------------------------------------------------------------
RUN_FORM = {"title": "Inside a run", "turn": "runner", "at": "run", "run_server": "HQ", "run_at": "approach_ice",
            "run_ice": "2", "s0_ice0_card": "Gate", "s0_ice1_card": "Gate II", "go": "play"}
RUN_TEXT = """\
title: "Inside a run"
start: {turn: runner, run: {server: HQ, at: approach_ice, ice: 2}}
corp:
  servers:
    HQ:
      ice:
        - Gate
        - Gate II
runner:
"""


def test_a_run_start_becomes_the_scenario_text(client):
    resp = client.post("/replay/new", data=RUN_FORM)
    assert resp.status_code == 303
    text = unpack(resp.headers["Location"].split("s=", 1)[1])
    assert text == RUN_TEXT
    # the play view's "edit this board" link shows the same run start again
    board, left_out = from_scenario(text)
    assert (board.at, board.run_server, board.run_at, board.run_ice) == ("run", "HQ", "approach_ice", "2")
    assert left_out == []


@pytest.mark.parametrize("changes, key, message", [
    ({"run_ice": "3"}, "run_ice", "a number from 1 to 2"),
    ({"run_ice": ""}, "run_ice", "which ice: 1 (outermost) to 2"),
    ({"run_ice": "x"}, "run_ice", "a whole number, not 'x'"),
    ({"run_server": ""}, "run_server", "choose the server the run is on"),
    ({"run_server": "R&D"}, "run_ice", "R&D has no ice: the run can only approach the server"),
    ({"run_at": "encounter_ice"}, "run_at", "that ice is unrezzed: the Runner passes it without an encounter"),
    ({"run_at": "approach_server"}, "run_ice", "the server is approached after all its ice: leave the ice "
                                               "number blank"),
    ({"run_at": "breach"}, "run_at", "one of approach_ice, encounter_ice, approach_server"),
    ({"turn": "corp"}, "turn", "a run happens during the Runner's turn"),
    ({"first_run": "HQ"}, "first_run", "a run is already in progress at the start: no first action"),
    ({"at": "action_phase"}, "at", "choose “a run in progress” to start inside the run set below"),
])
def test_a_wrong_run_start_is_shown_next_to_its_field(client, changes, key, message):
    resp = client.post("/replay/new", data={**RUN_FORM, **changes})
    assert resp.status_code == 400
    assert errors_of(resp.get_data(as_text=True)) == {key: message}


def test_a_run_start_approaching_the_server_needs_no_ice_number(client):
    resp = client.post("/replay/new", data={**RUN_FORM, "run_at": "approach_server", "run_ice": ""})
    assert resp.status_code == 303
    assert "start: {turn: runner, run: {server: HQ, at: approach_server}}\n" in \
        unpack(resp.headers["Location"].split("s=", 1)[1])


def test_the_play_view_links_back_to_the_builder(client):
    packed = client.post("/replay/new", data=RUN_FORM).headers["Location"].split("s=", 1)[1]
    html = client.get(f"/replay/play?s={packed}").get_data(as_text=True)
    assert f'<a class="tb-edit" href="/replay/new?s={packed}">Edit this board</a>' in html
