"""The Tranquilizer board in a real browser (issue 21, Must show): a Runner's Tranquilizer with 3 virus
counters hosted on the Corp's rezzed Palisade, built from an empty builder with the keyboard's Enter picking
each suggestion, played from the start of the Runner's turn to the ruling's answer (NetrunnerDB,
Tranquilizer: "If Tranquilizer still has 3 or more virus counters at the start of the Runner's turn, then it
will become derezzed again"), on a desktop and a phone. The clicks and keys it takes are counted.
"""
from __future__ import annotations

import pytest
import test_browser_web as web
from playwright.sync_api import expect
from test_browser_builder import VIEWPORTS, decisions, new_page, no_overflow, server, take
from test_browser_web import shot

browser, corpus, server = web.browser, web.corpus, server

pytestmark = [pytest.mark.browser, pytest.mark.corpora]


class Counted:
    """The page's clicks and keys, counted as a judge would make them."""

    def __init__(self, pg) -> None:
        self.pg, self.clicks, self.keys = pg, 0, 0

    def click(self, selector: str) -> None:
        self.clicks += 1
        self.pg.locator(selector).click()

    def type(self, text: str) -> None:
        self.keys += len(text)
        self.pg.keyboard.type(text)

    def press(self, key: str) -> None:
        self.keys += 1
        self.pg.keyboard.press(key)


def names_offered(pg) -> list[str]:
    return [t.strip() for t in pg.locator("#bd-suggest .bd-opt-name").all_text_contents()]


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_tranquilizer_on_palisade_is_the_runners_and_derezzes_it_when_the_runners_turn_begins(
        browser, server, size):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/replay/new")
    do = Counted(pg)

    do.click("#s0_ice0_card")
    do.type("Palis")
    expect(pg.locator("#bd-suggest .bd-opt-name").first).to_have_text("Palisade")
    do.press("Enter")                       # picks the highlighted card: the form is not sent
    expect(pg.locator("#s0_ice0_card")).to_have_value("Palisade")
    assert "/replay/new" in pg.url and pg.locator("#bd-suggest").is_hidden()
    do.click("input[name=s0_ice0_rezzed]")
    do.click("li[data-key=s0_ice0] > details.bd-more > summary")

    do.click("#s0_ice0_h0_card")
    do.type("Tranquil")
    expect(pg.locator("#bd-suggest .bd-opt-name").first).to_have_text("Tranquilizer")
    assert names_offered(pg) == ["Tranquilizer"]        # not Tranquility Home Grid, an upgrade
    do.press("Enter")
    expect(pg.locator("#s0_ice0_h0_card")).to_have_value("Tranquilizer")
    do.click("input[name=s0_ice0_h0_n_virus]")          # a hosted card's counters are shown open
    do.type("3")
    pg.select_option("#at", "runner_turn")
    do.clicks += 2                                      # open the menu, choose
    no_overflow(pg)
    # the sticky button bar takes one line, on a phone too
    tops = pg.locator(".bd-actions button").evaluate_all("bs => bs.map(b => b.getBoundingClientRect().top)")
    assert len(tops) == 3 and len(set(tops)) == 1, tops
    shot(pg, f"builder-tranquilizer-{size}")
    with pg.expect_navigation():
        do.click("button.bd-play")
    board = (do.clicks, do.keys)

    hosted = pg.locator(".bd-hosted [data-card=Tranquilizer]")
    expect(hosted.locator(".bd-owner")).to_have_text("Runner's card, hosted on Palisade")
    assert "unrezzed" not in hosted.inner_text()
    assert "3 virus" in hosted.inner_text()
    # the Corp is never offered to rez the Runner's program; its ability triggers when the turn begins
    for _ in range(6):
        labels = [t.strip() for t in pg.locator("button.tb-pick").all_text_contents()]
        assert not any("rez Tranquilizer" in t for t in labels), labels
        if any("Tranquilizer" in t for t in labels):
            break
        take(pg, "pass priority")
        do.clicks += 1
    take(pg, "Tranquilizer")
    do.clicks += 1
    assert decisions(pg)[-1] == "{trigger: Tranquilizer, ability: virus-turn}"
    # the ruling's answer: 4 virus counters now, and Palisade is derezzed again
    expect(pg.locator(".bd-hosted [data-card=Tranquilizer]")).to_contain_text("4 virus")
    expect(pg.locator("[data-card=Palisade] > .bd-meta .bd-state")).to_have_text("unrezzed")
    no_overflow(pg)
    print(f"\nTranquilizer board ({size}): {board[0]} clicks and {board[1]} keys to build; "
          f"{do.clicks} clicks and {do.keys} keys to the ruling's answer")
    assert board[0] <= 8 and board[1] <= 16
    web.no_errors(pg)
    ctx.close()


def test_a_fast_down_enter_never_picks_a_stale_list(browser, server):
    ctx, pg = new_page(browser, "desktop")
    pg.goto(f"{server}/replay/new")
    pg.locator("#s0_ice0_card").click()
    expect(pg.locator("#bd-suggest .bd-opt").first).to_be_visible()     # the list for "" (every ice)
    stale = names_offered(pg)[0]
    pg.keyboard.type("Palis")                 # no delay: ↓ and Enter come before the list for "Palis"
    pg.keyboard.press("ArrowDown")
    pg.keyboard.press("Enter")
    expect(pg.locator("#s0_ice0_card")).to_have_value("Palisade")
    assert stale != "Palisade" and "/replay/new" in pg.url
    web.no_errors(pg)
    ctx.close()
