"""The reference side seen in a real browser (issue 21), on a desktop and a phone: a worked-example card's page
(Tollbooth, outside the Standard pool, defined in rules_source/cards/) shows the engine's reading and the
scenarios using it, and What changed shows each chapter once. Screenshots: card-tollbooth-*.png,
changes-chapters-*.png.
"""
from __future__ import annotations

import pytest
import test_browser_pool as pool
import test_browser_web as web
from test_browser_builder import VIEWPORTS, new_page, no_overflow
from test_browser_web import shot

browser, corpus, server = web.browser, web.corpus, pool.server

pytestmark = [pytest.mark.browser, pytest.mark.corpora]


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_tollbooths_page_shows_the_engines_reading_and_its_scenarios(browser, server, size):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/s/cards:tollbooth")
    panel = pg.locator("section.card-definition")
    assert panel.locator(".def-status").inner_text() == "Defined (rules_source/cards/tollbooth.yaml)"
    read = panel.locator(".def-rendered li").all_inner_texts()
    # the definition's tax ("When encountered: the Runner must pay 3[c] if able; if they do not, end the run")
    # and its printed subroutine, as the engine reads them
    assert any(line.startswith("when the Runner encounters this card") and "end the run" in line for line in read)
    assert "[subroutine] end the run" in read
    titles = panel.locator(".def-scenarios li a").all_inner_texts()
    assert "Femme Fatale bypasses Tollbooth, whose tax never resolves" in titles
    no_overflow(pg)
    panel.scroll_into_view_if_needed()
    shot(pg, f"card-tollbooth-{size}")
    web.no_errors(pg)
    ctx.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_what_changed_shows_each_chapter_once(browser, server, size):
    ctx, pg = new_page(browser, size)
    pg.goto(f"{server}/changes?from=cr-23.08&to=cr-26.03")
    chapters = pg.evaluate("""() => [...document.querySelectorAll("details.chg-group > summary")].map(s => {
        const c = s.cloneNode(true); c.querySelector(".count").remove();
        return c.textContent.split(/\\s+/).join(" ").trim(); })""")
    # CR 26.03's 11 chapters, each once and in order (before, removed rules and examples made a second set of
    # groups: 15 for 11 chapters)
    assert chapters == ["1 Game Concepts", "2 Parts of a Card", "3 Card Types", "4 Game Zones", "5 Turns", "6 Runs",
                        "7 Accessing Cards and Breaching Servers", "8 Card Manipulation", "9 Abilities",
                        "10 Additional Rules", "11 Appendix: Timing Structure Reference"]
    no_overflow(pg)
    pg.locator("details.chg-group").first.scroll_into_view_if_needed()
    shot(pg, f"changes-chapters-{size}")
    web.no_errors(pg)
    ctx.close()
