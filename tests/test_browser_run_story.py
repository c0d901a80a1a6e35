"""The table mid-run and the story of the run in a real browser (issue 21): the glossary's Femme Fatale
against Tollbooth, played from the share link; priority passes folded and expandable; the run summed up
where it ends — on a desktop and a phone. Screenshots: table-midrun-*.png, run-summary-*.png."""
from __future__ import annotations

from pathlib import Path

import pytest
import test_browser_web as web
from playwright.sync_api import expect
from test_browser_builder import VIEWPORTS, new_page, no_overflow, server
from test_browser_web import shot

from judgebook.scenario_text import with_decisions
from judgebook.web.session_link import pack

browser, corpus, server = web.browser, web.corpus, server

pytestmark = [pytest.mark.browser, pytest.mark.corpora]

FEMME = Path(__file__).resolve().parents[1] / "rules_source" / "scenarios" / "glossary-femme-fatale-tollbooth.yaml"


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_run_mid_way_and_its_summary(browser, server, size):
    ctx, pg = new_page(browser, size)
    text = with_decisions(FEMME.read_text(encoding="utf-8"), [{"action": "run", "server": "HQ"}])
    pg.goto(f"{server}/replay/play?s={pack(text)}")
    expect(pg.locator(".tb-prompt")).to_be_visible()
    # mid-run: the encountered ice is marked on the board, the options are in words with the spelling folded
    for _ in range(10):
        if pg.locator("button.tb-pick", has_text="resolve Femme Fatale").count():
            break
        with pg.expect_navigation():
            pg.locator(".tb-option.is-default button.tb-pick, button.tb-pick").first.click()
    expect(pg.locator("[data-card=Tollbooth] .bd-mark")).to_contain_text("encountered")
    spelling = pg.locator(".tb-option details.tb-spelling").first
    expect(spelling.locator("code")).to_be_hidden()
    spelling.locator("summary").click()
    expect(spelling.locator("code")).to_be_visible()
    no_overflow(pg)
    shot(pg, f"table-midrun-{size}")

    with pg.expect_navigation():
        pg.locator("button.tb-pick", has_text="resolve Femme Fatale").click()
    for _ in range(30):
        if pg.locator(".tb-run-summary").count():
            break
        with pg.expect_navigation():
            pg.locator(".tb-option.is-default button.tb-pick, button.tb-pick").first.click()
    summary = pg.locator(".tb-run-summary")
    expect(summary.locator("h3")).to_contain_text("The run on HQ")
    expect(summary).to_contain_text("Ice: passed Tollbooth")
    expect(summary).to_contain_text("How it ended: the run on HQ is successful")
    # a fold of priority passes opens to show its steps
    fold = pg.locator(".tb-fold details").first
    expect(fold.locator(".rp-step").first).to_be_hidden()
    fold.locator("summary").click()
    expect(fold.locator(".rp-step").first).to_be_visible()
    summary.scroll_into_view_if_needed()
    no_overflow(pg)
    shot(pg, f"run-summary-{size}")
    web.no_errors(pg)
    ctx.close()
