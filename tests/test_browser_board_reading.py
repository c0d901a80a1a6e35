"""Reading the board in a real browser (issue 21 "Reading the board", Must show "subroutines with broken
marks"): Makler and Paperclip against Palisade and Gold Farmer on a remote server, on a desktop and a phone.

What the page must show, from the printed cards (Standard library): Palisade at 4 strength beside its printed
2 ("While this ice is protecting a remote server, it gets +2 strength"); the encountered ice marked as the
run's place; its subroutine "End the run" unbroken, then broken by Makler; options in words with the credit
symbol drawn ("Makler: +2 strength (2[c])"), the scenario spelling folded behind a disclosure; Gold Farmer's two
pending "lose 1[c]" told apart by the subroutine whose break triggered each; a Runner's Tranquilizer hosted
on Gold Farmer shown as the Runner's; and, when the Runner cannot pay, Palisade's subroutine marked as the one
that ended the run. Screenshots: board-reading-*.png, board-pending-*.png, board-ended-*.png.
"""
from __future__ import annotations

import re

import pytest
import test_browser_web as web
from playwright.sync_api import expect
from test_browser_builder import VIEWPORTS, new_page, no_overflow, server, take
from test_browser_web import shot

from judgebook.scenario_text import with_decisions
from judgebook.web.session_link import pack

browser, corpus, server = web.browser, web.corpus, server

pytestmark = [pytest.mark.browser, pytest.mark.corpora]

BOARD = """title: Makler and Paperclip against Palisade and Gold Farmer
start: {turn: runner, at: action_phase}
corp:
  credits: 5
  servers:
    Remote 1:
      ice:
        - {card: Palisade, rezzed: true}
        - {card: Gold Farmer, rezzed: true, hosted: [{card: Tranquilizer, counters: {virus: 1}}]}
runner:
  credits: CREDITS
  installed: [Makler, Paperclip]
card_defs:
  - name: Paperclip
    abilities:
      - {id: break, cost: {credits: 1}, break: {subtype: barrier, count: all}}
"""


def session(credits: int) -> str:
    return pack(with_decisions(BOARD.replace("CREDITS", str(credits)),
                               [{"action": "run", "server": "Remote 1"}]))


def until(pg, ready, limit: int = 30) -> None:
    """Take the default option until `ready()` holds (each pick is a page load)."""
    for _ in range(limit):
        if ready():
            return
        with pg.expect_navigation():
            pg.locator(".tb-option.is-default button.tb-pick").first.click()
    raise AssertionError("the state was not reached")


def card(pg, name: str):
    return pg.locator(f".bd-card[data-card='{name}']")


def no_raw_spelling(pg) -> None:
    """No option's visible words show the file notation: no `[c]`, no `{use: ...}`."""
    for text in pg.locator("button.tb-pick").all_inner_texts():
        assert "[c]" not in text and "{" not in text, text


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_ice_shows_its_subroutines_strength_and_the_runs_place_and_options_read_in_words(browser, server, size):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/replay/play?s={session(9)}")
    expect(pg.locator(".tb-prompt")).to_be_visible()
    pump = pg.locator("button.tb-pick", has_text="Makler: +2 strength")
    until(pg, lambda: pump.count() > 0 and "encountered" in card(pg, "Palisade").inner_text())

    palisade = card(pg, "Palisade")
    expect(palisade.locator(".bd-mark")).to_have_text("▶ encountered: the run is here")
    expect(palisade.locator(".bd-str")).to_have_text("strength 4 (printed 2)")
    expect(palisade.locator(".bd-subr")).to_have_count(1)
    expect(palisade.locator(".bd-subr").first).to_have_text(re.compile(r"^\s*1\s+end the run\s+unbroken\s*$"))
    expect(card(pg, "Gold Farmer").locator(".bd-mark")).to_have_count(0)    # not reached yet
    expect(pg.locator(".bd-run")).to_have_text("run here: at ice 1 of 2 (from the outermost)")
    tranq = card(pg, "Tranquilizer")
    expect(tranq.locator(".bd-owner")).to_have_text("Runner's card, hosted on Gold Farmer")

    # the options in words, the credit drawn as its symbol, the file spelling folded
    expect(pump).to_contain_text("Makler: +2 strength (2")
    expect(pump.locator("img.sym[alt=credit]")).to_have_count(1)
    no_raw_spelling(pg)
    take(pg, "Makler: +2 strength")            # Makler at 2 cannot break Palisade at 4 before this
    expect(card(pg, "Makler").locator(".bd-str")).to_have_text("strength 4 (printed 2)")
    brk = pg.locator(".tb-option",
                     has=pg.locator("button.tb-pick", has_text="Makler: break up to 2 barrier subroutines"))
    expect(brk.locator(".tb-detail")).to_have_text("Palisade subroutine 1: end the run")
    no_raw_spelling(pg)
    spelling = brk.locator("details.tb-spelling")
    expect(spelling.locator("code")).to_be_hidden()
    spelling.locator("summary").click()
    expect(spelling.locator("code")).to_have_text("{use: Makler, ability: break, subroutines: [1]}")

    take(pg, "Makler: break up to 2 barrier subroutines")
    sub = card(pg, "Palisade").locator(".bd-subr").first
    expect(sub).to_have_class(re.compile(r"\bis-broken\b"))
    expect(sub.locator(".bd-subrstate")).to_have_text("broken by Makler")
    no_overflow(pg)
    card(pg, "Palisade").scroll_into_view_if_needed()
    shot(pg, f"board-reading-{size}")

    # Gold Farmer: Paperclip breaks both; the two pending losses name the subroutine that triggered each
    paperclip = pg.locator("button.tb-pick", has_text="Paperclip: break all barrier subroutines")
    until(pg, lambda: paperclip.count() > 0)
    expect(card(pg, "Gold Farmer").locator(".bd-mark")).to_contain_text("encountered")
    expect(card(pg, "Palisade").locator(".bd-mark")).to_have_text("✓ passed")
    take(pg, "Paperclip: break all barrier subroutines")
    pending = pg.locator(".tb-option", has=pg.locator("button.tb-pick",
                                                      has_text="resolve Gold Farmer: the Runner loses 1"))
    expect(pending).to_have_count(2)
    expect(pending.nth(0).locator(".tb-detail")).to_have_text(
        "triggered when a subroutine is broken: Gold Farmer subroutine 1, by Paperclip")
    expect(pending.nth(1).locator(".tb-detail")).to_contain_text(
        "triggered when a subroutine is broken: Gold Farmer subroutine 2, by Paperclip")
    expect(card(pg, "Gold Farmer").locator(".bd-subrstate")).to_have_text(["broken by Paperclip"] * 2)
    no_raw_spelling(pg)
    no_overflow(pg)
    shot(pg, f"board-pending-{size}")
    web.no_errors(pg)
    ctx.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_subroutine_that_ended_the_run_is_marked_so(browser, server, size):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/replay/play?s={session(0)}")        # nothing to pay a break or a pump with
    until(pg, lambda: pg.locator(".bd-subr.is-ended-the-run").count() > 0)
    expect(pg.locator(".bd-run")).to_have_count(0)             # the run is over
    expect(card(pg, "Palisade").locator(".bd-subrstate")).to_have_text("ended the run")
    expect(card(pg, "Gold Farmer").locator(".bd-subrstate")).to_have_count(0)   # never encountered
    no_overflow(pg)
    card(pg, "Palisade").scroll_into_view_if_needed()
    shot(pg, f"board-ended-{size}")
    web.no_errors(pg)
    ctx.close()
