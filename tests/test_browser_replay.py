"""The replay page in a real browser: Playwright driving Debian's Chromium.

The app (over a real build, so citations link to real CR 26.03 pages) runs
under waitress in a thread; the fixtures are the web tests' own
(tests/test_browser_web.py): the browser fails the test under CI when
/usr/bin/chromium is missing, and skips on a developer machine without it.
Screenshots go to tests/artifacts/replay-*.png.
"""
from __future__ import annotations

import re

import pytest
import test_browser_web as web
from test_browser_web import ARGS, ARTIFACTS, CHROMIUM, no_errors, shot

# The web tests' fixtures, by name: pytest finds fixtures among a module's attributes.
browser, corpus, page, server = web.browser, web.corpus, web.page, web.server

pytestmark = [pytest.mark.browser, pytest.mark.corpora]

# The glossary's Femme Fatale / Tollbooth example: a run with an encounter and an access.
NAME = "glossary-femme-fatale-tollbooth"


def test_a_missing_chromium_fails_under_ci_and_skips_elsewhere(monkeypatch, tmp_path):
    """The browser fixture these tests use: under CI a missing browser is a failure, not a skip."""
    monkeypatch.setattr(web, "CHROMIUM", tmp_path / "no-chromium")
    launch = browser.__wrapped__
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception):
        next(launch())
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        next(launch())
    # and the real one is launched with the project's flags
    for flag in ("--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"):
        assert flag in ARGS
    assert str(CHROMIUM) == "/usr/bin/chromium"


def visible_steps(pg) -> list[str]:
    return pg.eval_on_selector_all("li.rp-step", "ls => ls.filter(l => !l.hidden && l.offsetParent)"
                                   ".map(l => l.id)")


def at(pg, n: int) -> None:
    """Exactly step n is shown, the counter says n, and the URL fragment is #step-n."""
    assert visible_steps(pg) == [f"step-{n}"]
    assert pg.locator(".rp-cur").inner_text() == str(n)
    assert pg.evaluate("location.hash") == f"#step-{n}"
    assert pg.locator(f"#step-{n}").get_attribute("aria-current") == "step"


def test_step_with_buttons_and_arrow_keys(page, server):
    page.goto(f"{server}/replay/{NAME}")
    bar = page.locator(".rp-stepper")
    assert bar.is_visible()
    count = int(page.locator("ol.rp-steps").get_attribute("data-count"))
    assert count >= 10
    assert visible_steps(page) == ["step-1"] and page.locator(".rp-prev").is_disabled()
    assert page.evaluate("location.hash") == ""            # nothing changes until you move
    shot(page, "replay-step-1")

    page.click(".rp-next")
    at(page, 2)
    page.click(".rp-next")
    at(page, 3)
    page.click(".rp-prev")
    at(page, 2)
    page.keyboard.press("ArrowRight")
    at(page, 3)
    page.keyboard.press("ArrowRight")
    at(page, 4)
    page.keyboard.press("ArrowLeft")
    at(page, 3)
    page.keyboard.press("End")
    at(page, count)
    assert page.locator(".rp-next").is_disabled()
    page.keyboard.press("ArrowRight")                       # no step beyond the last
    at(page, count)
    page.keyboard.press("Home")
    at(page, 1)
    # typing in the search box does not step
    page.focus("#q")
    page.keyboard.press("ArrowRight")
    assert visible_steps(page) == ["step-1"]
    no_errors(page)


def test_a_link_opens_its_step_and_back_returns_to_it(page, server):
    page.goto(f"{server}/replay/{NAME}#step-7")
    at(page, 7)
    page.goto(f"{server}/replay/{NAME}?step=5")
    assert visible_steps(page) == ["step-5"]
    # the per-step link is #step-N: following one shows that step
    page.goto(f"{server}/replay/{NAME}#step-2")
    at(page, 2)
    page.evaluate("location.hash = '#step-6'")
    page.wait_for_function("document.querySelector('.rp-cur').textContent === '6'")
    at(page, 6)
    no_errors(page)


def test_citation_is_a_link_to_the_rule_page(page, server):
    page.goto(f"{server}/replay/{NAME}#step-4")
    at(page, 4)
    rule = page.locator("#step-4 a.rp-rule")
    href = rule.get_attribute("href")
    assert re.fullmatch(r"/s/cr-26\.03:[\w.-]+", href), href
    number = rule.inner_text().removeprefix("CR 26.03 ").strip()
    rule.click()
    page.wait_for_url(f"{server}{href}")
    assert number in page.locator("h1").inner_text()
    page.go_back()
    page.wait_for_url(f"**/replay/{NAME}#step-4")
    at(page, 4)
    no_errors(page)


def test_picture_shows_where_the_step_is(page, server):
    page.goto(f"{server}/replay/{NAME}")
    phases = page.eval_on_selector_all("li.rp-step", "ls => ls.map(l => l.querySelector('.rp-phase').textContent)")
    n = next(i for i, p in enumerate(phases, 1) if p.strip().endswith("encounter ice"))   # "run / encounter ice"
    page.goto(f"{server}/replay/{NAME}#step-{n}")
    pic = page.locator(f"#step-{n} .tp-pic")
    assert pic.is_visible()
    on = pic.locator("li.on")
    labels = [on.nth(i).inner_text() for i in range(on.count())]
    assert "encounter ice" in labels and "action phase" in labels
    # the run's strip: six phases, the current one filled with the accent colour
    run_level = pic.locator(".tp-level").filter(
        has=page.locator(".tp-struct", has_text=re.compile(r"^run$", re.I)))
    assert run_level.count() == 1
    run_phases = run_level.locator(".tp-phases li")
    assert run_phases.count() == 6
    current = pic.locator(".tp-phases li.on", has_text="encounter ice")
    other = pic.locator(".tp-phases li", has_text="movement")
    assert current.evaluate("e => getComputedStyle(e).backgroundColor") != \
        other.evaluate("e => getComputedStyle(e).backgroundColor")
    shot(page, "replay-encounter")
    no_errors(page)


@pytest.mark.parametrize("where", ["/replay", f"/replay/{NAME}", "deepest"])
def test_phone_width_has_no_horizontal_overflow(browser, server, where):
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                              is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    errors = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        if where == "deepest":
            pg.goto(f"{server}/replay/{NAME}")
            depth = pg.eval_on_selector_all("li.rp-step", "ls => ls.map(l => l.querySelectorAll('.tp-level').length)")
            n = depth.index(max(depth)) + 1
            assert max(depth) >= 3                   # turn > run > breach (or access)
            pg.goto(f"{server}/replay/{NAME}#step-{n}")
            assert visible_steps(pg) == [f"step-{n}"]
        else:
            pg.goto(server + where)
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, (where, width)
        wide = pg.eval_on_selector_all(
            "main *",
            "es => es.filter(e => e.getBoundingClientRect().right > 361).map(e => e.tagName + '.' + e.className)")
        assert wide == [], wide
        if where != "/replay":
            # the buttons are a thumb's size
            box = pg.locator(".rp-next").bounding_box()
            assert box["height"] >= 40 and box["width"] >= 60
        pg.screenshot(path=str(ARTIFACTS / f"replay-phone-{where.strip('/').replace('/', '-') or 'list'}.png"),
                      full_page=False)
        assert errors == [], errors
    finally:
        ctx.close()


def test_upload_in_the_browser_then_step(page, server, tmp_path):
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "rules_source" / "scenarios" / f"{NAME}.yaml").read_text()
    page.goto(f"{server}/replay")
    page.fill("#rp-text", text)
    page.click(".rp-form button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("h1").inner_text().startswith("Femme Fatale")
    assert visible_steps(page) == ["step-1"]
    page.keyboard.press("ArrowRight")
    at(page, 2)
    # a malformed file: the message names the line and field
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: x\nrunner:\n  creds: 5\n")
    page.goto(f"{server}/replay")
    page.set_input_files("#rp-file", str(bad))
    page.click(".rp-form button[type=submit]")
    page.wait_for_load_state()
    err = page.locator(".rp-error")
    assert err.is_visible() and "Line 3" in err.inner_text() and "creds" in err.inner_text()
    shot(page, "replay-upload-error")


def test_an_illegal_decision_links_to_its_line(page, server):
    from test_web_replay import ILLEGAL
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{server}/replay")
    page.fill("#rp-text", ILLEGAL)
    page.click(".rp-form button[type=submit]")
    page.wait_for_load_state()
    err = page.locator(".rp-error")
    assert "Illegal decision" in err.inner_text()
    assert visible_steps(page)                          # the partial timeline still steps
    link = err.locator("a[href^='#L']")
    line = link.get_attribute("href")
    link.click()
    target = page.locator(line)
    assert target.is_visible() and target.inner_text().strip() == "- {jack_out: true}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "replay-phone-illegal-line")


def test_without_javascript_every_step_is_listed(browser, server):
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, java_script_enabled=False)
    pg = ctx.new_page()
    try:
        pg.goto(f"{server}/replay/{NAME}?step=3")
        count = int(pg.locator("ol.rp-steps").get_attribute("data-count"))
        assert len(visible_steps(pg)) == count
        assert not pg.locator(".rp-stepper").is_visible()
        assert pg.locator("li.rp-step[aria-current]").get_attribute("id") == "step-3"
        pg.locator("#step-3").scroll_into_view_if_needed()
        pg.screenshot(path=str(ARTIFACTS / "replay-no-js.png"))
    finally:
        ctx.close()
