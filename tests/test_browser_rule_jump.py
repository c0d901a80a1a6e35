"""A cross-reference to a rule shown in full on the page being read scrolls there (issue 21, the reference
side): on 6.9 "Steps of a Run", whose page holds every step of a run, a step's reference to another step
jumps to it on the same page; Back returns to where the reader was. A reference to a rule not on the page
still opens its own page. Screenshot: reading-rule-jump-*.png.
"""
from __future__ import annotations

import pytest
import test_browser_web as web
from test_browser_web import ARTIFACTS

# The web tests' fixtures, by name: pytest finds fixtures among a module's attributes.
browser, corpus, server = web.browser, web.corpus, web.server

pytestmark = [pytest.mark.browser, pytest.mark.corpora]

VIEWPORTS = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 390, "height": 844}}
PAGE = "cr-26.03:sec_steps_of_a_run"


def same_page_refs(pg) -> list[dict]:
    """Every link in a rule's text that names a rule or example shown on this page (its heading's link)."""
    return pg.evaluate("""() => {
        const heads = new Map();
        document.querySelectorAll("section.rd[id] > .rd-head > a:first-child").forEach(
            a => heads.set(a.href, a.closest("[id]").id));
        return [...document.querySelectorAll("section.rd .text a[href]")]
            .filter(a => heads.has(a.href))
            .map(a => ({from: a.closest("section.rd").id, to: heads.get(a.href), text: a.textContent}));
    }""")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_reference_to_a_rule_on_this_page_scrolls_there_and_back_returns(browser, server, size):
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    pg = ctx.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    url = f"{server}/s/{PAGE}"
    pg.goto(url)
    # 6.9.4c "Jack out" sends the run to 6.9.6, the run ends phase: both on this page
    assert {"from": "step_jack_out_choice", "to": "rule_sec_run_run_ends_phase", "text": "step 6.9.6"} \
        in same_page_refs(pg)
    source = pg.locator("section#step_jack_out_choice > .text a", has_text="step 6.9.6")
    source.scroll_into_view_if_needed()
    before = pg.evaluate("window.scrollY")
    source.click()
    pg.wait_for_function("location.hash === '#rule_sec_run_run_ends_phase'")
    assert pg.url == url + "#rule_sec_run_run_ends_phase"          # the same page: no load
    top = pg.locator("section#rule_sec_run_run_ends_phase").evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < VIEWPORTS[size]["height"] / 2
    assert pg.evaluate("document.activeElement.id") == "rule_sec_run_run_ends_phase"
    pg.screenshot(path=str(ARTIFACTS / f"reading-rule-jump-{size}.png"))

    pg.go_back()
    pg.wait_for_function("location.hash === ''")
    assert pg.url == url
    assert abs(pg.evaluate("window.scrollY") - before) < 5      # back where the reader was

    # a reference to a rule that is not on this page opens that rule's own page
    other = pg.locator("section.rd .text a.ln-ref").filter(
        has_not=pg.locator("xpath=self::*[starts-with(., 'step 6.9')]")).first
    href = other.get_attribute("href")
    assert href and href not in same_page_hrefs(pg)
    with pg.expect_navigation():
        other.click()
    assert pg.url.endswith(href)
    assert pg.errors == []
    ctx.close()


def same_page_hrefs(pg) -> list[str]:
    return pg.evaluate("""() => [...document.querySelectorAll("section.rd[id] > .rd-head > a:first-child")]
        .map(a => a.getAttribute("href"))""")
