"""The cards page's coverage figures and a card page showing the printed text beside the engine's rendering,
in a real browser (Playwright driving Debian's Chromium; the fixtures follow tests/test_browser_web.py).
Screenshots go to tests/artifacts/pool-*.png."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
import test_browser_web as web
from test_browser_web import no_errors, shot

browser, corpus, page = web.browser, web.corpus, web.page

pytestmark = [pytest.mark.browser, pytest.mark.corpora]
FIXTURE_CARDS = Path(__file__).resolve().parent / "fixtures" / "pool_cards"


@pytest.fixture(scope="module")
def server(corpus, cards_root):
    """The app on waitress with the fixture definitions and the NetrunnerDB data."""
    import waitress

    from judgebook.web.app import create_app
    app = create_app(corpus)
    app.config.update(JUDGEBOOK_NRDB=str(cards_root), JUDGEBOOK_POOL_CARDS=str(FIXTURE_CARDS))
    srv = waitress.create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.effective_port}"
    srv.close()


def test_the_cards_page_shows_the_standard_figures(page, server):
    page.goto(f"{server}/cards")
    figures = page.locator("#pool-standard .pool-figures")
    assert figures.is_visible()
    assert figures.inner_text() == "13 of 547 defined (2.4 %), 1 partial, 533 undefined"
    rows = page.locator("#pool-standard table.pool-table tbody tr")
    assert rows.count() == 11
    assert rows.nth(0).inner_text().split() == ["corp", "agenda", "0", "0", "54", "54"]
    assert not page.locator("#pool-eternal table.pool-table").is_visible()    # closed until asked for
    page.locator("#pool-eternal > summary").click()
    assert page.locator("#pool-eternal table.pool-table").is_visible()
    shot(page, "pool-cards")
    no_errors(page)


def test_a_card_page_shows_printed_text_and_rendering_side_by_side(page, server):
    page.goto(f"{server}/s/cards:self_modifying_code")
    printed, rendered = page.locator(".def-printed"), page.locator(".def-rendered")
    assert printed.is_visible() and rendered.is_visible()
    assert "Search your stack for 1 program. Install it." in printed.inner_text()
    assert rendered.locator("li").count() == 1
    assert rendered.locator("li").inner_text().startswith("2")
    assert "search for a card in the deck" in rendered.inner_text()
    a, b = printed.bounding_box(), rendered.bounding_box()
    assert a and b and a["x"] < b["x"] and abs(a["y"] - b["y"]) < 2        # beside each other, not stacked
    assert page.locator(".def-status").inner_text().startswith("Defined")
    shot(page, "pool-card-page")
    no_errors(page)
