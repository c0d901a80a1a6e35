"""The judge's path in a real browser (issue 10, Must show): from an empty board, build Femme Fatale against
Enigma by typing and clicking, play the run, undo a choice and take the other, download the scenario and
replay it with `judgebook replay --check`, open the share link in a fresh browser context and see the same
step — on a desktop and on a phone-sized viewport, with no horizontal overflow.

Playwright drives Debian's Chromium over the app on waitress, with a real build (the web tests' fixtures)
and NetrunnerDB's card data. Screenshots go to tests/artifacts/builder-*.png and judge-path-*.png.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading

import pytest
import test_browser_web as web
from playwright.sync_api import expect
from test_browser_web import ARTIFACTS, no_errors, shot

# The web tests' fixtures, by name: pytest finds fixtures among a module's attributes.
browser, corpus = web.browser, web.corpus

pytestmark = [pytest.mark.browser, pytest.mark.corpora]

VIEWPORTS = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def server(corpus, cards_root):
    """The app on waitress with the project's card library and NetrunnerDB's statistics."""
    import waitress

    from judgebook.web.app import create_app
    app = create_app(corpus)
    app.config["JUDGEBOOK_CARD_DATA"] = str(cards_root)
    srv = waitress.create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.effective_port}"
    srv.close()


def new_page(browser, size: str):
    ctx = browser.new_context(viewport=VIEWPORTS[size], accept_downloads=True)
    pg = ctx.new_page()
    pg.errors = []
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    return ctx, pg


def no_overflow(pg) -> None:
    assert pg.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
        pg.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def pick_card(pg, field: str, typed: str, name: str) -> None:
    """Type the start of a name into a card field, then click the match `name` in the list."""
    pg.locator(f"#{field}").click()
    pg.locator(f"#{field}").press_sequentially(typed, delay=20)
    option = pg.locator("#bd-suggest .bd-opt").filter(
        has=pg.locator(".bd-opt-name", has_text=re.compile(f"^{re.escape(name)}$")))
    option.click()
    assert pg.locator(f"#{field}").input_value() == name


def decisions(pg) -> list[str]:
    return [(t or "").strip() for t in pg.locator(".tb-decisions li code").all_text_contents()]


def prompt(pg) -> str:
    return pg.locator(".tb-prompt").inner_text()


def take(pg, label: str) -> None:
    with pg.expect_navigation():
        pg.locator("button.tb-pick", has_text=label).first.click()


def pass_until(pg, wanted: str, most: int = 12) -> None:
    for _ in range(most):
        if wanted in prompt(pg):
            return
        take(pg, "pass priority")
    raise AssertionError(f"never reached {wanted!r}; at {prompt(pg)!r}")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_judges_path(browser, server, size, tmp_path, cards_root):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/replay/new")
    no_overflow(pg)

    # the board, from empty, by typing and clicking
    pick_card(pg, "s0_ice0_card", "Enig", "Enigma")
    stat = pg.locator("li[data-key=s0_ice0] .bd-stat-line")
    assert stat.inner_text() == "ice: code gate · rez 3 · strength 2"       # NetrunnerDB's Enigma
    pg.locator("input[name=s0_ice0_rezzed]").check()
    pick_card(pg, "rig0_card", "Femme", "Femme Fatale")
    assert "strength 2" in pg.locator("li[data-key=rig0] .bd-stat-line").inner_text()
    assert pg.locator("#rig1_card").count() == 1                            # a new blank row came
    pg.locator("li[data-key=rig0] > details.bd-more > summary").click()
    pg.locator("#rig0_chosen").fill("Enigma")
    pg.select_option("#first_run", "HQ")
    pg.locator("#title").fill("Femme Fatale against Enigma")
    no_overflow(pg)
    pg.screenshot(path=str(ARTIFACTS / f"builder-{size}-full.png"), full_page=True)
    pg.locator("li[data-key=rig0]").scroll_into_view_if_needed()
    shot(pg, f"builder-{size}")
    no_errors(pg)

    with pg.expect_navigation():
        pg.locator("button.bd-play").click()
    assert "/replay/play?s=" in pg.url
    pg.wait_for_selector(".tb-prompt")

    # the run: pass to the encounter, where Femme Fatale's bypass is pending
    pass_until(pg, "reaction window")
    take(pg, "resolve Femme Fatale:")
    assert decisions(pg)[-1] == "{trigger: Femme Fatale, ability: bypass}"
    bypassed = decisions(pg)

    # undo that choice and take the other
    with pg.expect_navigation():
        pg.locator("button.tb-undo-last").click()
    assert "reaction window" in prompt(pg)
    assert decisions(pg) == bypassed[:-1]
    take(pg, "do not use Femme Fatale:")
    assert decisions(pg) == bypassed[:-1] + ["{decline: Femme Fatale, ability: bypass}"]
    no_overflow(pg)
    shot(pg, f"judge-path-play-{size}")

    # download it and replay it with the command line
    with pg.expect_download() as dl:
        pg.locator("a.tb-download").click()
    file = tmp_path / "session.yaml"
    dl.value.save_as(str(file))
    config = tmp_path / "judgebook.local.toml"
    config.write_text(f'[build]\nwith = ["{cards_root}"]\n', encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "judgebook", "replay", str(file), "--check"],
                         capture_output=True, text=True, env={**os.environ, "JUDGEBOOK_CONFIG": str(config)},
                         cwd=tmp_path, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "decline: Femme Fatale" in file.read_text(encoding="utf-8")

    # the share link, in a fresh context, shows the same step
    link = pg.locator("#tb-share").input_value()
    here = (prompt(pg), decisions(pg))
    no_errors(pg)
    ctx.close()
    ctx2, fresh = new_page(browser, size)
    fresh.goto(link)
    assert (prompt(fresh), decisions(fresh)) == here
    no_overflow(fresh)
    no_errors(fresh)
    ctx2.close()


def test_keys_pick_a_card_and_a_renamed_remote_can_be_run_on(browser, server):
    ctx, pg = new_page(browser, "desktop")
    pg.goto(f"{server}/replay/new")
    pg.locator("#rig0_card").click()
    pg.keyboard.type("Femm", delay=20)
    # the list shown on focus (every rig card) gives way to the matches of what was typed
    expect(pg.locator("#bd-suggest .bd-opt-name").first).to_have_text("Femme Fatale")
    pg.keyboard.press("ArrowDown")
    assert pg.locator("#rig0_card").get_attribute("aria-activedescendant") == "bd-opt-0"
    pg.keyboard.press("Enter")                                   # picks: the form is not sent
    assert pg.locator("#rig0_card").input_value() == "Femme Fatale" and "/replay/new" in pg.url
    assert pg.locator("#bd-suggest").is_hidden()
    with pg.expect_navigation():
        pg.locator("button[value=add_remote]").click()
    assert pg.locator("#rig0_card").input_value() == "Femme Fatale"      # the board kept
    pg.locator("#s3_name").fill("Bank")
    pg.select_option("#first_run", "Bank")
    pick_card(pg, "s3_ice0_card", "Enig", "Enigma")
    with pg.expect_navigation():
        pg.locator("button.bd-play").click()
    assert "/replay/play?s=" in pg.url
    assert decisions(pg)[0] == "{action: run, server: Bank}"
    no_errors(pg)
    ctx.close()


def test_a_mistake_comes_back_next_to_its_field_in_the_browser(browser, server):
    ctx, pg = new_page(browser, "desktop")
    pg.goto(f"{server}/replay/new")
    pick_card(pg, "s0_ice0_card", "Enig", "Enigma")
    pg.locator("#s0_ice0_card").fill("Enigmaa")              # typed over after picking
    pg.locator("#runner_credits").fill("abc")
    with pg.expect_navigation():
        pg.locator("button.bd-play").click()
    assert pg.locator("#runner_credits-err").inner_text() == "a whole number, not 'abc'"
    assert pg.locator("#s0_ice0_card").input_value() == "Enigmaa"         # the board is kept
    pg.locator("#runner_credits").fill("5")
    with pg.expect_navigation():
        pg.locator("button.bd-play").click()
    assert "did you mean Enigma?" in pg.locator("#s0_ice0_card-err").inner_text()
    shot(pg, "builder-mistake")
    # the board with its mistakes is answered 400, which Chromium logs; nothing else may be logged
    assert [e for e in pg.errors if "status of 400" not in e] == []
    ctx.close()


def test_a_board_starting_inside_a_run_shows_the_rez_choice(browser, server):
    ctx, pg = new_page(browser, "desktop")
    pg.goto(f"{server}/replay/new")
    pick_card(pg, "s0_ice0_card", "Enig", "Enigma")                  # s0: HQ
    pg.select_option("#run_server", "HQ")
    assert pg.locator("#at").input_value() == "run"                 # choosing the run's server starts in it
    pg.select_option("#run_at", "approach_ice")
    pg.locator("#run_ice").fill("2")                                # HQ has one ice: refused next to the field
    with pg.expect_navigation():
        pg.locator("button.bd-play").click()
    assert pg.locator("#run_ice-err").inner_text() == "a number from 1 to 1"
    pg.locator("#run_ice").fill("1")
    with pg.expect_navigation():
        pg.locator("button.bd-play").click()
    assert "/replay/play?s=" in pg.url
    pg.wait_for_selector(".tb-prompt")
    take(pg, "pass priority")                                       # the Runner's, in the approach window
    assert pg.locator("button.tb-pick", has_text="rez Enigma").count() == 1
    # back to the builder: the same run start
    with pg.expect_navigation():
        pg.locator("a.tb-edit").click()
    assert (pg.locator("#at").input_value(), pg.locator("#run_server").input_value(),
            pg.locator("#run_ice").input_value()) == ("run", "HQ", "1")
    assert [e for e in pg.errors if "status of 400" not in e] == []
    ctx.close()
