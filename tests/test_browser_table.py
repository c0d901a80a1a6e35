"""The judge's table in a real browser: Playwright driving Debian's Chromium over a real build.

A shipped scenario (the glossary's Femme Fatale / Tollbooth example) is opened at the table from its
replay page and played by clicks and keys: the run, Femme Fatale's bypass, undo, the decline instead;
the session is downloaded and checked by `judgebook replay --check`, and its share link opened in a
fresh browser context shows the same step. Phone width without horizontal overflow, and the page
without JavaScript. Screenshots go to tests/artifacts/table-*.png.
"""
from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import test_browser_web as web
from test_browser_web import ARTIFACTS

browser, corpus = web.browser, web.corpus

pytestmark = [pytest.mark.browser, pytest.mark.corpora]

ROOT = Path(__file__).resolve().parents[1]
NAME = "glossary-femme-fatale-tollbooth"


@pytest.fixture(scope="module")
def server(corpus, cards_root):
    """The app on waitress with NetrunnerDB's card data (the table's statistics)."""
    import waitress

    from judgebook.web.app import create_app
    app = create_app(corpus)
    app.config["JUDGEBOOK_CARD_DATA"] = str(cards_root)
    srv = waitress.create_server(app, host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=srv.run, daemon=True).start()
    yield f"http://127.0.0.1:{srv.effective_port}"
    srv.close()


def new_page(browser, **options):
    ctx = browser.new_context(**({"viewport": {"width": 1280, "height": 900}} | options))
    pg = ctx.new_page()
    pg.errors = []
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    return ctx, pg


def prompt(pg) -> str:
    return pg.locator(".tb-prompt").inner_text()


def press(pg, key: str) -> None:
    """A key that moves the session: wait for the page it leads to."""
    with pg.expect_navigation():
        pg.keyboard.press(key)


def click_option(pg, label: str) -> None:
    with pg.expect_navigation():
        pg.locator("button.tb-pick", has_text=label).click()


def decisions(pg) -> int:
    return pg.locator(".tb-decisions li").count()


def to_the_encounter(pg, server) -> None:
    """From the scenario's replay page to Femme Fatale's reaction window, at the table."""
    pg.goto(f"{server}/replay/{NAME}")
    with pg.expect_navigation():
        pg.locator("a.rp-table-start").click()
    assert "/replay/play?s=" in pg.url and "Runner decides" in pg.locator(".tb-point h2").inner_text()
    press(pg, "1")                                   # the Runner passes (key 1)
    press(pg, "Enter")                               # the Corp passes (the default)
    click_option(pg, "run on HQ")
    for _ in range(4):                               # both pass at initiation and at the approach
        press(pg, "ArrowRight")
    assert prompt(pg).startswith("reaction window")


def test_play_undo_choose_the_other_download_and_share(browser, server, tmp_path, cards_root):
    ctx, pg = new_page(browser)
    try:
        to_the_encounter(pg, server)
        assert pg.locator(".bd-server.is-run .bd-card.is-encountered .bd-name").inner_text() == "Tollbooth"
        # the pending ability in the card's words, the credit drawn as a symbol (an image: no text)
        ff = "Femme Fatale: you may pay equal to the number of subroutines of that ice; if paid: bypass the " \
             "encountered ice"
        assert [" ".join(t.split()) for t in pg.locator(".tb-pick").all_inner_texts()] == \
            [f"1 resolve {ff}", f"2 do not use {ff}"]
        assert pg.locator(".tb-pick").first.locator("img.sym[alt=credit]").count() == 1
        rule = pg.locator(".tb-option").first.locator("a.rp-rule")
        assert re.fullmatch(r"/s/cr-26\.03:[\w.-]+", rule.get_attribute("href"))
        assert decisions(pg) == 7
        pg.screenshot(path=str(ARTIFACTS / "table-desktop.png"), full_page=True)

        click_option(pg, "resolve Femme Fatale:")
        assert "the Runner loses 1 credit (5 → 4)" in pg.locator(".tb-last").inner_text()
        assert "rule_bypass" in pg.locator(".tb-timeline").inner_html()
        press(pg, "u")                               # undo: the same reaction window
        assert prompt(pg).startswith("reaction window") and decisions(pg) == 7
        press(pg, "2")                               # decline the bypass this time
        for _ in range(10):                          # Tollbooth's tax, then the defaults until the run ends
            if "the run on HQ ends" in pg.locator(".tb-timeline").inner_text():
                break
            press(pg, "Enter")
        timeline = pg.locator(".tb-timeline").inner_text()
        assert "the Runner loses 3 credits (5 → 2)" in timeline and "the run on HQ ends" in timeline
        runner = pg.locator(".bd-runner .bd-pools")
        assert runner.locator("div", has_text="credits").first.locator("dd").inner_text() == "2"
        pg.screenshot(path=str(ARTIFACTS / "table-after-decline.png"), full_page=False)
        assert pg.errors == [], pg.errors

        # download: a scenario `judgebook replay --check` accepts, from anywhere
        with pg.expect_download() as got:
            pg.locator("a.tb-download").click()
        saved = tmp_path / "anywhere" / got.value.suggested_filename
        saved.parent.mkdir()
        got.value.save_as(saved)
        config = tmp_path / "c.toml"
        config.write_text(f'[build]\nwith = ["{cards_root}"]\n', encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "judgebook", "replay", str(saved), "--check"],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path,
                              env={"JUDGEBOOK_CONFIG": str(config), "PATH": "/usr/bin:/bin",
                                   "PYTHONPATH": str(ROOT)})
        assert done.returncode == 0 and done.stdout.strip().endswith("expectation met"), done.stdout + done.stderr
        assert "{decline: Femme Fatale, ability: bypass}" in saved.read_text(encoding="utf-8")

        # the share link, in a fresh context: the same step
        share = pg.locator("#tb-share").input_value()
        here = (prompt(pg), decisions(pg), pg.locator(".bd").inner_text())
    finally:
        ctx.close()
    ctx2, fresh = new_page(browser)
    try:
        fresh.goto(share)
        assert (prompt(fresh), decisions(fresh), fresh.locator(".bd").inner_text()) == here
        assert fresh.errors == [], fresh.errors
    finally:
        ctx2.close()


def test_phone_width_has_no_horizontal_overflow(browser, server):
    ctx, pg = new_page(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                       has_touch=True)
    try:
        to_the_encounter(pg, server)
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
        wide = pg.eval_on_selector_all(
            "main *", "es => es.filter(e => e.getBoundingClientRect().right > 391)"
                      ".map(e => e.tagName + '.' + e.className)")
        assert wide == [], wide
        box = pg.locator("button.tb-pick").first.bounding_box()
        assert box["height"] >= 40                   # a thumb's size
        pg.locator(".tb-point").scroll_into_view_if_needed()
        pg.screenshot(path=str(ARTIFACTS / "table-phone.png"), full_page=False)
        pg.evaluate("window.scrollTo(0, 0)")
        pg.screenshot(path=str(ARTIFACTS / "table-phone-board.png"), full_page=False)
        with pg.expect_navigation():
            pg.locator("button.tb-pick").first.tap()
        assert "the Runner loses 1 credit (5 → 4)" in pg.locator(".tb-last").inner_text()
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        assert pg.errors == [], pg.errors
    finally:
        ctx.close()


def test_without_javascript_options_and_undo_are_buttons(browser, server):
    ctx, pg = new_page(browser, java_script_enabled=False)
    try:
        pg.goto(f"{server}/replay/{NAME}")
        with pg.expect_navigation():
            pg.locator("a.rp-table-end").click()            # after the scenario's own decisions
        assert decisions(pg) == 2
        assert pg.locator(".tb-copy").is_hidden()           # the copy button needs JavaScript
        with pg.expect_navigation():
            pg.locator("button.tb-pick").first.click()
        assert decisions(pg) == 3
        with pg.expect_navigation():
            pg.locator("button.tb-undo-last").click()
        assert decisions(pg) == 2
        pg.screenshot(path=str(ARTIFACTS / "table-no-js.png"), full_page=False)
    finally:
        ctx.close()
