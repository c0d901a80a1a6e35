"""Never silently wrong on the web (issue 19 §4): the replay page and the judge's table show each step's warnings
where the step is, with the reason, escaped. The situation is test_step_warnings's (Pauleʼs Café hosts a
Makler, Makler breaks Palisade, the Runner jacks out); here Palisade is redefined inline as a partial card
whose reason is hostile markup.
"""
from __future__ import annotations

import html as htmllib
import re

import pytest
from test_step_warnings import BOARD, DECISIONS, JACK_OUT, JACK_OUT_STEP, MAP, PARTIAL, PARTIAL_STEPS
from test_web_corpus import FakeSearcher, documents, sections

from judgebook.store.corpus import Corpus
from judgebook.web.app import create_app
from judgebook.web.session_link import pack

HOSTILE = "<script>alert('partial')</script> & <b>bold</b>"
PALISADE = f"""\
card_defs:
  - name: Palisade
    partial: {HOSTILE!r}
    subroutines: [[end_the_run]]
"""


@pytest.fixture(scope="module")
def client(cards_root):
    corpus = Corpus(documents(), sections())
    app = create_app(corpus, searcher=FakeSearcher(corpus))
    app.config["JUDGEBOOK_CARD_DATA"] = str(cards_root)
    return app.test_client()


def step_items(page: str) -> dict[int, str]:
    """Each timeline step's <li> by its number: from its opening tag to the next step's (or the list's end)."""
    parts = re.split(r'<li class="rp-step[^"]*" id="step-(\d+)"', page)
    return {int(n): body.split("</ol>")[0] for n, body in zip(parts[1::2], parts[2::2], strict=True)}


def warnings_in(item: str) -> list[tuple[str, str]]:
    """(kind, reason as the reader sees it) of each warning shown in a step's item."""
    return [(kind, htmllib.unescape(reason)) for kind, reason in re.findall(
        r'<li class="rp-warning rp-warn-([a-z-]+)">.*?<span class="rp-warn-reason">(.*?)</span></li>', item, re.S)]


def test_the_replay_page_shows_each_warning_at_its_step_escaped(client):
    r = client.post("/replay", data={"text": BOARD + PALISADE + DECISIONS})
    page = r.get_data(as_text=True)
    assert r.status_code == 200, page[:2000]
    items = step_items(page)
    assert len(items) > JACK_OUT_STEP[0]
    for n, _ in PARTIAL_STEPS:
        assert ("partial-card", PARTIAL) in warnings_in(items[n]), n
    assert warnings_in(items[JACK_OUT_STEP[0]]) == [("not-yet-rule", MAP[JACK_OUT]["reason"])]
    # Palisade's hostile reason: shown at every step Palisade is the source of, as text, never as markup
    palisade = [n for n, item in items.items() if ("partial-card", HOSTILE) in warnings_in(item)]
    assert palisade and all('<span class="rp-warn-card">Palisade</span>' in items[n] for n in palisade)
    assert "<script>alert" not in page and "&lt;script&gt;alert(&#39;partial&#39;)&lt;/script&gt;" in page
    # above the steps, the list of the steps that warn, each a link to it
    summary = re.search(r'<p class="rp-warned" role="note">(.*?)</p>', page, re.S)
    assert summary is not None
    linked = [int(n) for n in re.findall(r'<a href="#step-(\d+)">', summary.group(1))]
    assert linked == sorted({*palisade, *dict(PARTIAL_STEPS), JACK_OUT_STEP[0]})
    assert f"may be wrong at {len(linked)} steps" in summary.group(1)
    quiet = [n for n, item in items.items() if n not in palisade and n not in dict(PARTIAL_STEPS)
             and n != JACK_OUT_STEP[0]]
    assert quiet and all('class="rp-warnings"' not in items[n] for n in quiet)


def test_the_table_shows_the_last_decisions_warnings_beside_the_board_and_in_the_timeline(client):
    r = client.get("/replay/play?s=" + pack(BOARD + DECISIONS))
    page = r.get_data(as_text=True)
    assert r.status_code == 200, page[:2000]
    box = re.search(r'<div class="tb-warned" role="note">(.*?)</div>', page, re.S)
    assert box is not None, "the last decision (jack out) touched a not-yet rule: the table says so"
    assert re.findall(r'<a href="#step-(\d+)">', box.group(1)) == [str(JACK_OUT_STEP[0])]
    assert warnings_in(box.group(1)) == [("not-yet-rule", MAP[JACK_OUT]["reason"])]
    items = step_items(page)
    for n, _ in PARTIAL_STEPS:
        assert warnings_in(items[n]) == [("partial-card", PARTIAL)], n
    assert warnings_in(items[JACK_OUT_STEP[0]]) == [("not-yet-rule", MAP[JACK_OUT]["reason"])]


def test_a_table_session_with_nothing_known_wrong_has_no_warning_box(client):
    board = BOARD.replace("installed: [Pauleʼs Café, Makler]", "installed: [Makler]")
    assert board != BOARD
    page = client.get("/replay/play?s=" + pack(board)).get_data(as_text=True)
    assert 'class="tb-point"' in page and 'tb-warned' not in page and 'rp-warning' not in page


def test_a_board_that_breaks_a_rule_says_so_at_the_table_until_the_first_decision(client):
    """The builder stops Play on a broken rule; a board played anyway, or opened from a file or a link, is said
    to break it at the table too (web/board_rules.py's words), until a decision is taken."""
    illegal = BOARD.replace("  hand: [Hedge Fund]", "  hand: [Hedge Fund, Tranquilizer]")
    page = client.get("/replay/play?s=" + pack(illegal)).get_data(as_text=True)
    box = re.search(r'<div class="rp-error tb-board-rules" role="alert">(.*?)</div>', page, re.S)
    assert box is not None and 'class="tb-point"' in page            # said, and the game still plays
    assert re.findall(r"<li>(.*?)</li>", box.group(1)) == ["Tranquilizer is a Runner card: it cannot be in HQ"]
    assert "tb-board-rules" not in client.get("/replay/play?s=" + pack(BOARD)).get_data(as_text=True)
    later = illegal + "decisions:\n  - {action: run, server: HQ}\n"
    assert "tb-board-rules" not in client.get("/replay/play?s=" + pack(later)).get_data(as_text=True)
