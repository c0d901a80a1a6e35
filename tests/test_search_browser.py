"""Search in a real browser: questions, and "superseded" on an older CR's reworded text,
on the server's search page and on the static export's (file://), desktop and phone."""
from __future__ import annotations

import pytest
from test_browser_web import browser, corpus, exported, no_errors, page, server, shot  # noqa: F401

pytestmark = pytest.mark.browser

OLD_TEXT = "credit symbol doc:cr-23.08"   # CR 23.08's 1.3.3, which 26.03 words differently


def test_the_search_page_says_superseded_and_links_the_current_rule(page, server):  # noqa: F811
    page.goto(f"{server}/search?q=credit+symbol&doc=cr-23.08")
    first = page.locator("li.hit").first
    first.wait_for()
    label = first.locator(".superseded")
    assert label.is_visible()
    assert "Superseded" in label.inner_text()
    assert label.locator("a").get_attribute("href").startswith("/s/cr-26.03:")
    shot(page, "search-superseded")
    # Today's rule, unfiltered, carries no such label.
    page.goto(f"{server}/search?q=credit+symbol")
    page.locator("li.hit").first.wait_for()
    assert page.locator("li.hit").first.locator(".superseded").count() == 0
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{server}/search?q=credit+symbol&doc=cr-23.08")
    page.locator("li.hit .superseded").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "search-superseded-phone")
    no_errors(page)


def test_a_question_lands_on_the_rule_on_both_search_pages(page, server, exported):  # noqa: F811
    q = "can the corp rez ice during a run"
    page.goto(f"{server}/search?q={q.replace(' ', '+')}")
    page.locator("li.hit").first.wait_for()
    served = page.locator("li.hit a.hit-title").all_inner_texts()[:5]
    assert served[0].startswith("CR 26.03"), served
    page.goto((exported.out_dir / "search.html").as_uri() + "?q=" + q.replace(" ", "+"))
    page.locator("li.hit").first.wait_for()
    static = page.locator("li.hit a.hit-title").all_inner_texts()[:5]
    assert [" ".join(t.split()) for t in static] == [" ".join(t.split()) for t in served]
    shot(page, "static-search-question")
    page.goto((exported.out_dir / "search.html").as_uri() + "?q=" + OLD_TEXT.replace(" ", "+"))
    first = page.locator("li.hit").first
    first.wait_for()
    assert first.locator(".superseded").is_visible()
    assert first.locator(".superseded a").get_attribute("href").startswith("s/cr-26.03~3a")
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "static-search-superseded-phone")
    no_errors(page)
