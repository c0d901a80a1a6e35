"""The rules of the board in a real browser (issue 21): the builder says what breaks a rule of the game and
what is legal but surprising as the board is built, offers a filler R&D, checks the chosen format's pool,
and stops a Play on a broken rule until "play anyway" — on a desktop and a phone."""
from __future__ import annotations

import pytest
import test_browser_web as web
from playwright.sync_api import expect
from test_browser_builder import VIEWPORTS, new_page, no_overflow, pick_card, server
from test_browser_web import shot

browser, corpus, server = web.browser, web.corpus, server

pytestmark = [pytest.mark.browser, pytest.mark.corpora]


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_builder_says_the_rules_of_the_board(browser, server, size):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/replay/new")
    surprising = pg.locator(".bd-surprising li")
    expect(surprising.first).to_contain_text("R&D is empty: the Corp loses when it must draw")
    with pg.expect_navigation():
        pg.locator("#bd-filler").click()
    assert pg.locator("#corp_deck4_card").input_value() == "Hedge Fund"
    expect(pg.locator(".bd-fine")).to_have_text("Nothing breaks a rule of the game.")

    pick_card(pg, "rig0_card", "Makl", "Makler")
    pg.select_option("#format", "startup")
    expect(surprising).to_have_text(["Makler is not in the card pool in Startup"])
    pg.select_option("#format", "standard")
    expect(pg.locator(".bd-fine")).to_be_visible()

    pg.locator("details.bd-pile:has(#corp_hand0_card) > summary").click()     # HQ's list, closed while empty
    pg.locator("#corp_hand0_card").fill("Tranquilizer")
    pg.locator("#corp_hand0_card").press("Escape")
    pg.locator("#title").click()                        # leaving the field: the board is checked again
    broken = pg.locator(".bd-broken li")
    expect(broken).to_have_text(["Tranquilizer is a Runner card: it cannot be in HQ"])
    pg.locator("#bd-review").scroll_into_view_if_needed()
    no_overflow(pg)
    shot(pg, f"builder-rules-{size}")

    with pg.expect_navigation():
        pg.locator("button.bd-play").click()
    assert "/replay/new" in pg.url                      # stopped before play starts
    expect(pg.locator(".bd-stopped")).to_be_visible()
    expect(broken).to_have_text(["Tranquilizer is a Runner card: it cannot be in HQ"])
    with pg.expect_navigation():
        pg.locator("#bd-anyway").click()
    assert "/replay/play?s=" in pg.url
    web.no_errors(pg)
    ctx.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_from_a_card_page_and_a_ruling_to_the_builder(browser, server, size):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/s/cards:palisade")
    with pg.expect_navigation():
        pg.get_by_role("link", name="Set up a situation with this card").click()
    expect(pg.locator("#s0_ice0_card")).to_have_value("Palisade")         # ice, rezzed, on HQ
    assert pg.locator("input[name=s0_ice0_rezzed]").is_checked()
    no_overflow(pg)

    # Tranquilizer's third ruling names Cookbook and Hivemind: all three are placed, in the rig or hand
    pg.goto(f"{server}/s/cards:tranquilizer")
    link = pg.locator("a.situation", has_text="Set up a situation for this ruling").nth(2)
    with pg.expect_navigation():
        link.click()
    expect(pg.locator("#title")).to_have_value("For a ruling on Tranquilizer")
    rig = [pg.locator(f"#rig{i}_card").input_value() for i in range(2)]
    notes = [t.strip() for t in pg.locator(".bd-note").all_text_contents()]
    assert rig[0] == "Cookbook"
    # Hivemind is placed if the engine defines it, else said to be missing: never silently dropped
    assert rig[1] == "Hivemind" or \
        "Hivemind is not a card the engine defines: add it by hand if it matters" in notes
    assert pg.locator("#runner_hand0_card").input_value() == "Tranquilizer"
    assert "Tranquilizer: installed only on ice — add the ice, then host it" in notes
    no_overflow(pg)
    web.no_errors(pg)
    ctx.close()
