"""Reading in a real browser: a section read straight through, the contents
sidebar, a card's legality and What changed's typography toggle.

Same launch helper and build as tests/test_browser_web.py (its fixtures are
imported); screenshots go to tests/artifacts/reading-*.png.
"""
from __future__ import annotations

import pytest
from test_browser_web import ARTIFACTS, browser, corpus, no_errors, page, server  # noqa: F401

pytestmark = pytest.mark.browser

STEPS_OF_A_RUN = "cr-26.03:sec_steps_of_a_run"
# 6.9's steps, as counted in the NSG source (v26.03/rules/chapter-6.yaml, section 6.9):
# 6 phases (6.9.1-6.9.6) with 6, 3, 5, 8, 3 and 4 steps = 35 rules under 6.9.
PHASES = ["6.9.1", "6.9.2", "6.9.3", "6.9.4", "6.9.5", "6.9.6"]
STEP_COUNTS = [6, 3, 5, 8, 3, 4]


def _shot(pg, name: str, full: bool = False) -> None:
    pg.screenshot(path=str(ARTIFACTS / f"reading-{name}.png"), full_page=full)


def _read_through(pg, base: str) -> None:
    pg.goto(base + f"/s/{STEPS_OF_A_RUN}")
    article = pg.locator("article.section")
    for phase, steps in zip(PHASES, STEP_COUNTS, strict=True):
        block = article.locator(f"section.rd-0:has(> h2 a:text-is('{phase} {_phase_title(phase)}'))")
        assert block.count() == 1, phase
        assert block.locator("section.rd-1").count() == steps, phase
    # every step has its own text, anchor and link to its own page
    step = article.locator("section#step_approach_paw")
    assert "A paid ability window occurs" in step.locator(".text").inner_text()
    assert step.locator("h3 a").first.get_attribute("href").endswith("/s/cr-26.03:step_approach_paw")
    assert step.locator("a.rd-anchor").get_attribute("href") == "#step_approach_paw"


def _phase_title(number: str) -> str:
    return {"6.9.1": "Initiation Phase", "6.9.2": "Approach Ice Phase", "6.9.3": "Encounter Ice Phase",
            "6.9.4": "Movement Phase", "6.9.5": "Success Phase", "6.9.6": "Run Ends Phase"}[number]


def test_read_steps_of_a_run_through_on_desktop(page, server):  # noqa: F811
    _read_through(page, server)
    # a step is a deep link on its ancestor's page, and its term links still open definitions
    page.goto(server + f"/s/{STEPS_OF_A_RUN}#step_before_jack_out_paw")
    target = page.locator("section#step_before_jack_out_paw")
    box = target.bounding_box()
    assert box is not None and 0 <= box["y"] < 300
    term = page.locator("article section.rd a.ln-term[data-def]").first
    term.click()
    page.locator("#popover").wait_for(state="visible")
    page.keyboard.press("Escape")
    _shot(page, "steps-of-a-run-desktop")
    no_errors(page)


def test_read_steps_of_a_run_through_on_a_phone(browser, server):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    _read_through(pg, server)
    assert pg.evaluate("document.documentElement.scrollWidth") <= 360
    # on a phone the contents are folded above the text, and open on a tap
    side = pg.locator("details#contents")
    assert side.get_attribute("open") is None
    assert not pg.locator("#contents nav").is_visible()
    _shot(pg, "steps-of-a-run-phone")
    pg.locator("#contents summary").tap()
    assert pg.locator("#contents a[aria-current='page']").is_visible()
    assert pg.evaluate("document.documentElement.scrollWidth") <= 360
    _shot(pg, "sidebar-phone-open")
    ctx.close()


def test_the_sidebar_shows_where_you_are(page, server):  # noqa: F811
    # on a rule's page: the entry of the rule itself is marked, its chapter is open
    page.goto(server + "/s/cr-26.03:rule_sec_run_approach_ice_phase")
    nav = page.locator("details#contents nav")
    assert nav.is_visible()
    current = nav.locator("a[aria-current='page']")
    assert current.inner_text() == "6.9.2 Approach Ice Phase"
    assert nav.locator("li.on-path > a").all_inner_texts()[:2] == ["6 Runs", "6.9 Steps of a Run"]
    # the sidebar sits beside the text, not above it
    side_box, text_box = nav.bounding_box(), page.locator("article.section").bounding_box()
    assert side_box["x"] + side_box["width"] <= text_box["x"]
    _shot(page, "sidebar-rule")
    # on the document's page the whole text is there, and the sidebar follows the reading
    page.goto(server + "/d/cr-26.03")
    assert page.locator("section#sec_steps_of_a_run section#step_approach_paw").count() == 1
    page.locator("details#contents a[data-frag='sec_steps_of_a_run']").click()
    page.locator("#contents a[aria-current='location'][data-frag='sec_steps_of_a_run']").wait_for()
    _shot(page, "document-sidebar")
    page.evaluate("window.scrollBy(0, 4000)")
    page.locator("#contents a[aria-current='location']:not([data-frag='sec_steps_of_a_run'])").wait_for(
        state="attached")
    no_errors(page)


def test_card_page_shows_legality_in_words(page, server, corpus):  # noqa: F811
    card = next(s for s in corpus.in_doc("cards") if s.title == "Hostile Infrastructure")
    page.goto(server + f"/s/{card.id}")
    legal = page.locator("section.legality li")
    assert legal.all_inner_texts()[0].startswith("Standard: not in the card pool")
    assert legal.all_inner_texts()[2].startswith("Eternal: legal")
    facts = dict(zip(page.locator(".card-facts dt").all_inner_texts(),
                     page.locator(".card-facts dd").all_inner_texts(), strict=True))
    assert facts["Unique"] == "No" and facts["Rez cost"] == "5" and facts["Deck limit"] == "3 copies per deck"
    # rulings read as prose: the source's hard line breaks are gone
    first = page.locator("section.kind-ruling .text").first
    assert "<br>" not in first.inner_html()
    _shot(page, "card-legality", full=True)
    no_errors(page)


def test_what_changed_hides_typography_behind_a_toggle(page, server):  # noqa: F811
    page.goto(server + "/changes?from=cr-1.6&to=cr-26.03")
    toggle = page.locator("#show-typography")
    assert int(toggle.get_attribute("data-count")) == page.locator("li.chg.chg-typography").count() > 0
    # open a chapter: its changes of substance show, its typography-only ones do not
    group = page.locator("details.chg-group:has(li.chg-typography):has(li.chg:not(.chg-typography))").first
    group.locator("> summary").click()
    typo = group.locator("li.chg.chg-typography")
    assert group.locator("li.chg:not(.chg-typography)").first.is_visible()
    assert not typo.first.is_visible()
    _shot(page, "changes-typography-hidden")
    toggle.check()
    assert typo.first.is_visible()
    _shot(page, "changes-typography-shown")
    toggle.uncheck()
    assert not typo.first.is_visible()
    # the page is folded by chapter: far shorter than one long list
    assert page.evaluate("document.documentElement.scrollHeight") < 20000
    no_errors(page)
