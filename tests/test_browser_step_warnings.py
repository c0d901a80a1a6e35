"""Never silently wrong, in a real browser (issue 19 §4, Must show): at the judge's table and on the replay page, a
step that touches a partial card (Pauleʼs Café: its install discount left out) and a step that touches a rule the
rule map marks "not yet" (the Runner's jack-out, step_jack_out_choice) each show their warning with the reason,
on a desktop and on a 390x844 phone, without widening the page. The reasons expected are the documents' own
(test_step_warnings reads them from the rule map's TOML and the partial card's file).
"""
from __future__ import annotations

import pytest
import test_browser_web as web
from playwright.sync_api import expect
from test_browser_builder import VIEWPORTS, new_page, no_overflow, server
from test_browser_web import shot
from test_step_warnings import BOARD, CARD, DECISIONS, JACK_OUT, JACK_OUT_STEP, MAP, PARTIAL, PARTIAL_STEPS

from judgebook.web.session_link import pack

browser, corpus, server = web.browser, web.corpus, server

pytestmark = [pytest.mark.browser, pytest.mark.corpora]


def options(pg) -> list[str]:
    return [t.strip() for t in pg.locator("button.tb-pick").all_inner_texts()]


def take(pg, label: str) -> None:
    """Pass priority until an option containing `label` is offered, then take it (each pick is a new page)."""
    for _ in range(12):
        if pg.locator("button.tb-pick", has_text=label).count():
            with pg.expect_navigation():
                pg.locator("button.tb-pick", has_text=label).first.click()
            return
        with pg.expect_navigation():
            pg.locator("button.tb-pick", has_text="pass priority").first.click()
    raise AssertionError(f"{label!r} never offered; last {options(pg)}")


def in_view(pg, locator) -> bool:
    box = locator.bounding_box()
    size = pg.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_table_says_at_the_step_where_the_engine_may_be_wrong(browser, server, size):
    assert MAP[JACK_OUT]["status"] == "not-yet"
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/replay/play?s={pack(BOARD)}")
    expect(pg.locator(".tb-prompt")).to_be_visible()
    assert pg.locator(".rp-warning").count() == 0         # nothing touched yet: nothing said

    take(pg, f"{CARD}: host")
    # the last decision used the partial card: the box beside the board says so, with the card's own reason
    box = pg.locator(".tb-warned")
    expect(box).to_be_visible()
    partial = box.locator(".rp-warn-partial-card")
    expect(partial).to_have_count(1)         # said once, at each step it stands at
    expect(partial).to_be_visible()
    expect(partial.locator(".rp-warn-reason")).to_have_text(PARTIAL)
    expect(partial.locator(".rp-warn-card")).to_have_text(CARD)
    # the decision's steps that touch the card: its use and its host instruction resolving
    assert box.locator("a").all_inner_texts() == [f"Step {n}" for n, _ in PARTIAL_STEPS]
    box.scroll_into_view_if_needed()
    no_overflow(pg)
    shot(pg, f"warnings-partial-card-{size}")
    pg.screenshot(path=f"/tmp/warnings-partial-card-{size}.png")

    take(pg, "Makler#2")                                     # the card in the grip it hosts
    take(pg, "run on HQ")
    take(pg, "Makler: break")
    assert pg.locator(".tb-warned .rp-warn-partial-card").count() == 0      # Makler is fully defined
    take(pg, "resolve Makler: gain")
    take(pg, "jack out")
    box = pg.locator(".tb-warned")
    expect(box.locator(".rp-warn-not-yet-rule")).to_have_count(1)
    rule = box.locator(".rp-warn-not-yet-rule")
    expect(rule.locator(".rp-warn-rule")).to_have_text(JACK_OUT)
    expect(rule.locator(".rp-warn-reason")).to_have_text(MAP[JACK_OUT]["reason"])
    expect(rule).to_be_visible()
    assert box.locator(".rp-warn-partial-card").count() == 0        # only the last decision's steps
    # the link goes to the step itself in the timeline, where the same warning stands
    box.locator("a", has_text=f"Step {JACK_OUT_STEP[0]}").click()
    step = pg.locator(f"#step-{JACK_OUT_STEP[0]}")
    expect(step).to_be_in_viewport()
    expect(step.locator(".rp-warn-not-yet-rule .rp-warn-reason")).to_have_text(MAP[JACK_OUT]["reason"])
    expect(step.locator(".rp-warn-not-yet-rule")).to_be_visible()
    for n, _ in PARTIAL_STEPS:       # the timeline keeps the partial card's warnings at their steps
        expect(pg.locator(f"#step-{n} .rp-warn-partial-card .rp-warn-reason")).to_have_text(PARTIAL)
    assert in_view(pg, step.locator(".rp-warning"))
    no_overflow(pg)
    shot(pg, f"warnings-not-yet-rule-{size}")
    pg.screenshot(path=f"/tmp/warnings-not-yet-rule-{size}.png")
    assert pg.errors == [], pg.errors
    ctx.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_replay_page_shows_the_warning_on_its_step(browser, server, size):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/replay")
    pg.locator("#rp-text").fill(BOARD + DECISIONS)
    with pg.expect_navigation():
        pg.get_by_role("button", name="Replay", exact=True).click()
    expect(pg.locator(".rp-steps")).to_be_visible()
    for n, label in [(PARTIAL_STEPS[0][0], PARTIAL), (JACK_OUT_STEP[0], MAP[JACK_OUT]["reason"])]:
        pg.locator(".rp-warned a", has_text=f"step {n}").first.click()   # the list of steps that warn
        current = pg.locator(f"#step-{n}")
        expect(current).to_have_attribute("aria-current", "step")
        warning = current.locator(".rp-warning")
        expect(warning).to_be_visible()
        expect(warning.locator(".rp-warn-reason")).to_have_text(label)
        no_overflow(pg)
        warning.scroll_into_view_if_needed()
        shot(pg, f"warnings-replay-step-{n}-{size}")
        pg.screenshot(path=f"/tmp/warnings-replay-step-{n}-{size}.png")
    assert pg.errors == [], pg.errors
    ctx.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_board_that_breaks_a_rule_says_so_at_the_table_before_the_first_decision(browser, server, size):
    ctx, pg = new_page(browser, size)
    illegal = BOARD.replace("  hand: [Hedge Fund]", "  hand: [Hedge Fund, Tranquilizer]")
    pg.goto(f"{server}/replay/play?s={pack(illegal)}")
    box = pg.locator(".tb-board-rules")
    expect(box).to_be_visible()
    expect(box.locator("li")).to_have_text(["Tranquilizer is a Runner card: it cannot be in HQ"])
    no_overflow(pg)
    pg.screenshot(path=f"/tmp/warnings-board-rules-{size}.png")
    take(pg, "run on HQ")                                   # play goes on; the note was for the start
    expect(pg.locator(".tb-prompt")).to_be_visible()
    assert pg.locator(".tb-board-rules").count() == 0
    assert pg.errors == [], pg.errors
    ctx.close()
