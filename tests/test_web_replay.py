"""The replay page (issue 5, Interfaces) through the Flask test client.

The scenarios are written here, into a temporary scenarios folder, with their
cards defined inline: the tests do not move when the shipped scenarios or the
card library change. One test walks every shipped scenario to check that none
gives a 500.
"""
from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import replays
from test_web_app import Inspector
from test_web_corpus import FakeSearcher, documents, sections

from judgebook.engine.driver.script import check, replay
from judgebook.engine.driver.timeline import Timeline, timeline
from judgebook.engine.scenario.load import parse
from judgebook.model import Provenance, Section
from judgebook.store.citations import NOT_LOADED, rule_ref
from judgebook.store.corpus import Corpus
from judgebook.web.app import create_app

TOLL_GATE = """\
card_defs:
  - name: Toll Gate
    side: corp
    type: ice
    subtypes: [code gate]
    cost: 8
    strength: 5
    abilities:
      - id: tax
        text: "When encountered: the Runner must pay 3[c] if able; if they do not, end the run."
        trigger: encounter_ice
        condition: {ice: self}
        effects:
          - pay: {credits: 3}
            by: runner
            if_able: true
            otherwise: [end_the_run]
    subroutines:
      - {text: "End the run.", effects: [end_the_run]}
start: {turn: runner, at: action_phase}
corp:
  servers:
    HQ: {ice: [{card: Toll Gate, rezzed: true}]}
"""

# A breaker whose only ability (+1 strength) the Runner could use in every paid ability window: the
# replay passes there by default, so those steps are assumed, not scripted.
GAUGE = """\
  - name: Gauge
    side: runner
    type: program
    subtypes: [icebreaker, fracter]
    cost: 2
    memory: 1
    strength: 1
    abilities:
      - {id: pump, text: "1[c]: +1 strength.", cost: {credits: 1}, effects: [{strength: 1}]}
"""

TAX = """\
title: Toll Gate takes its tax, then ends the run
source: "test: a made-up example"
""" + TOLL_GATE.replace("card_defs:\n", "card_defs:\n" + GAUGE, 1) + """\
runner:
  credits: 5
  installed: [Gauge]
decisions:
  - {action: run, server: HQ}
expect:
  run: {successful: false, server: HQ}
  state:
    runner: {credits: 2}
"""

HOSTILE = """\
title: "Hostile <script>alert('title')</script>"
source: "source <img src=x onerror=alert(1)> & co"
notes: "notes <script>alert('notes')</script>"
""" + TOLL_GATE + """\
runner:
  credits: 5
decisions:
  - {action: run, server: HQ, note: "a judge's note <script>alert('note')</script>"}
"""

# An illegal decision: Toll Gate ends the run before the Runner could jack out, so the first `jack_out` is
# never used, which the engine reports as an illegal decision with a rule (the rest stay unread).
ILLEGAL = """\
title: A decision nothing asks for
""" + TOLL_GATE + """\
runner:
  credits: 5
decisions:
  - {action: run, server: HQ}
  - {jack_out: true}
  - {jack_out: true}
  - {jack_out: true}
"""

# an unknown key `creds` on line 4 (runner.creds)
MALFORMED_KEY = """\
title: Typo
start: {turn: runner, at: action_phase}
runner:
  creds: 5
"""

MALFORMED_YAML = """\
title: Broken
runner:
  credits: [5
decisions: []
"""


def replayed(text: str) -> Timeline:
    """The timeline the page shows, built here straight from the engine."""
    sc = parse(text, file="t", library=None)
    outcome = replay(sc)
    return timeline(sc, outcome, check(sc, outcome))


@pytest.fixture(scope="module")
def scenario_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("scenarios")
    (d / "tax.yaml").write_text(TAX, encoding="utf-8")
    (d / "hostile.yaml").write_text(HOSTILE, encoding="utf-8")
    (d / "illegal.yaml").write_text(ILLEGAL, encoding="utf-8")
    (d / "malformed.yaml").write_text(MALFORMED_KEY, encoding="utf-8")
    (d / "notes.txt").write_text("not a scenario", encoding="utf-8")
    return d


ANNOUNCE = "step_initiation_announce"


@pytest.fixture(scope="module")
def corpus():
    """The sample corpus plus one cited anchor in two CR versions (the newest must win)."""
    prov = Provenance(file="x.yaml", line_start=1, line_end=2)
    extra = [
        Section(id=f"cr-1.6:{ANNOUNCE}", doc="cr-1.6", number="6.9.1.1", title="", kind="rule",
                text="Old text.", provenance=prov, order=90, anchor=ANNOUNCE),
        Section(id=f"cr-26.03:{ANNOUNCE}", doc="cr-26.03", number="6.9.2.1", title="",
                kind="rule", text="The Runner announces the attacked server [click].",
                provenance=prov, order=90, anchor=ANNOUNCE),
    ]
    return Corpus(documents(), sections() + extra)


@pytest.fixture(scope="module")
def app(corpus, scenario_dir, tmp_path_factory):
    app = create_app(corpus, searcher=FakeSearcher(corpus))
    app.testing = False   # the error handlers as in production
    app.config["JUDGEBOOK_SCENARIOS"] = str(scenario_dir)
    app.config["JUDGEBOOK_CARDS"] = str(tmp_path_factory.mktemp("no-cards") / "none")
    return app


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def get(client, url: str, status: int = 200) -> str:
    resp = client.get(url)
    assert resp.status_code == status, (url, resp.status_code)
    return resp.get_data(as_text=True)


class Steps(HTMLParser):
    """The <li class="rp-step"> items: their id, attributes and text."""

    def __init__(self):
        super().__init__()
        self.items: list[dict] = []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "li" and "rp-step" in (a.get("class") or "").split():
            self.items.append({"attrs": a, "text": "", "links": []})
            self._depth = 1
        elif self._depth and tag == "li":
            self._depth += 1
        if self._depth and tag == "a":
            self.items[-1]["links"].append(a)

    def handle_endtag(self, tag):
        if self._depth and tag == "li":
            self._depth -= 1

    def handle_data(self, data):
        if self._depth:
            self.items[-1]["text"] += data


def steps_of(html: str) -> list[dict]:
    p = Steps()
    p.feed(html)
    return p.items


def clean(html: str) -> None:
    ins = Inspector()
    ins.feed(html)
    assert ins.inline_scripts == 0 and ins.handlers == [] and ins.styles == []
    assert len(ins.ids) == len(set(ins.ids)), "duplicate ids"


# ---- the list -----------------------------------------------------------------------
def test_list_shows_every_scenario_and_an_upload_form(client):
    html = get(client, "/replay")
    clean(html)
    assert '<a href="/replay/tax">Toll Gate takes its tax, then ends the run</a>' in html
    assert "test: a made-up example" in html
    assert 'href="/replay/illegal"' in html
    # a file that does not parse still lists, under its name; a non-YAML file does not
    assert 'href="/replay/malformed"' in html and "notes" not in re.findall(r'href="/replay/(\w+)"', html)
    assert re.search(r'<form[^>]*action="/replay"[^>]*method="post"[^>]*enctype="multipart/form-data"', html)
    assert 'type="file"' in html and 'name="scenario"' in html and "<textarea" in html
    assert 'href="/replay">Replay</a>' in html     # the nav slot of base.html


def test_the_shipped_scenarios_list_and_none_gives_a_500(corpus, monkeypatch):
    from judgebook.web import routes_replay

    # every shipped scenario's page: its replay read from the run's kept ones (tests/replays.py)
    monkeypatch.setattr(routes_replay, "replay", replays.verdict_only)
    app = create_app(corpus, searcher=FakeSearcher(corpus))
    app.testing = False
    client = app.test_client()
    html = get(client, "/replay")
    names = [n for n in re.findall(r'href="/replay/([^"]+)"', html) if n != "new"]   # "new": the builder
    shipped = sorted(p.stem for p in (Path(__file__).parents[1] / "rules_source" / "scenarios").glob("*.yaml"))
    assert sorted(set(names)) == shipped and len(shipped) >= 40
    for name in shipped:
        resp = client.get(f"/replay/{name}")
        assert resp.status_code == 200, name
        body = resp.get_data(as_text=True)
        assert "<h1>" in body and ("rp-step" in body or "rp-error" in body), name


# ---- a scenario's timeline ---------------------------------------------------------------
def test_timeline_shows_every_step_with_phase_event_text_rule_and_changes(client):
    timeline = replayed(TAX)
    html = get(client, "/replay/tax")
    clean(html)
    items = steps_of(html)
    assert len(items) == len(timeline.steps) >= 10
    for item, step in zip(items, timeline.steps, strict=True):
        a = item["attrs"]
        assert a["id"] == f"step-{step.n}" and a["data-n"] == str(step.n)
        assert {"href": f"#step-{step.n}", "class": "rp-n", "title": f"Link to step {step.n}"} in item["links"]
        text = " ".join(item["text"].split())
        assert step.phase in text and step.event in text
        # text with its symbol tokens as icons ("[c]" -> an <img alt="credit">)
        assert re.sub(r"\[\w+\]", "", step.text).split()[0] in text
    # what a decision changed, in a player's words, on its last step (with the board after it)
    pay = next(i for i, s in zip(items, timeline.steps, strict=True) if s.event == "credits_spent" and "3" in s.text)
    assert "runner credits" not in html
    changed = [i for i in items if "The board after step" in i["text"]]
    assert any("the Runner loses 3 credits (5 → 2)" in " ".join(i["text"].split()) for i in changed), pay


def test_citation_links_to_the_newest_loaded_version_or_says_not_loaded(client, corpus):
    timeline = replayed(TAX)
    html = get(client, "/replay/tax")
    items = steps_of(html)
    seen_link = seen_missing = 0
    for item, step in zip(items, timeline.steps, strict=True):
        ref = rule_ref(corpus, step.rule)      # the CLI's own resolution
        rule_links = [l for l in item["links"] if l.get("class") == "rp-rule"]
        if ref["id"]:
            assert [l["href"] for l in rule_links] == [f"/s/{ref['id']}"]
            seen_link += 1
        else:
            assert rule_links == [] and step.rule in item["text"] and NOT_LOADED in item["text"]
            seen_missing += 1
    assert seen_link >= 1 and seen_missing >= 1
    # the announce step cites cr-26.03 (newest), not cr-1.6, with number and text
    assert f'<a class="rp-rule" href="/s/cr-26.03:{ANNOUNCE}">CR 26.03 6.9.2.1</a>' in html
    assert f"/s/cr-1.6:{ANNOUNCE}" not in html
    assert "The Runner announces the attacked server" in html


def test_assumed_decisions_are_marked(client):
    timeline = replayed(TAX)
    items = steps_of(get(client, "/replay/tax"))
    assumed = [s.n for s in timeline.steps if s.assumed]
    assert assumed and len(assumed) < len(timeline.steps)
    for item, step in zip(items, timeline.steps, strict=True):
        marked = "is-assumed" in item["attrs"]["class"].split()
        assert marked == step.assumed, step.n
        assert ("assumed" in item["text"].split()) == step.assumed, step.n


def test_outcome_and_expectation_verdict(client):
    html = get(client, "/replay/tax")
    out = html[html.index('id="outcome"'):]
    assert "No winner" in out and "Run on HQ: unsuccessful, ended by “end the run”" in out
    assert "<code>Toll Gate:tax</code>, <code>Toll Gate:sub1</code>" in out
    assert 'class="rp-expect ok"' in html


def test_step_query_marks_the_current_step_and_is_clamped(client):
    def current(url):
        return [i["attrs"]["id"] for i in steps_of(get(client, url)) if i["attrs"].get("aria-current")]
    assert current("/replay/tax") == ["step-1"]
    assert current("/replay/tax?step=5") == ["step-5"]
    count = len(steps_of(get(client, "/replay/tax")))
    assert current("/replay/tax?step=99999") == [f"step-{count}"]
    assert current("/replay/tax?step=-3") == ["step-1"]
    assert current("/replay/tax?step=abc") == ["step-1"]
    assert 'data-start="5"' in get(client, "/replay/tax?step=5")


def test_picture_of_the_timing_structure(client):
    timeline = replayed(TAX)
    html = get(client, "/replay/tax")
    n = next(s.n for s in timeline.steps if s.event == "subroutine")
    li = html[html.index(f'id="step-{n}"'):html.index(f'id="step-{n + 1}"')]
    pic = li[li.index('class="tp-pic"'):]
    # the run's phases, in order, the encounter highlighted; then that phase's steps
    run = pic[pic.index(">run<"):]
    phases = re.findall(r"<li(?: class=\"on\" aria-current=\"step\")?>([^<]+)</li>", run.split("</ol>")[0])
    assert phases == ["initiation phase", "approach ice", "encounter ice", "movement", "success", "run ends"]
    assert '<li class="on" aria-current="step">encounter ice</li>' in run
    assert '<li class="on" aria-current="step">resolve unbroken subroutines</li>' in run
    # outer level: the Runner's turn, its action phase, taking an action
    assert '<li class="on" aria-current="step">take an action</li>' in pic[:pic.index(">run<")]
    assert pic.count('class="on"') == 4


def test_picture_tells_apart_two_steps_with_the_same_label():
    from judgebook.web.routes_replay import pictures
    turn = ["Runner's turn", "action phase"]

    def on(levels):
        return [k for k, (_, current) in enumerate(levels[0]["steps"]) if current]
    paths = [turn + ["gain allotted clicks"], turn + ["paid ability window"],
             turn + ["turn formally begins"], turn + ["paid ability window"],
             turn + ["take an action"], turn + ["paid ability window"]]
    assert [on(p) for p in pictures(paths)] == [[0], [1], [3], [4], [5], [4]]
    # starting in the action phase: the window is the action loop's
    assert on(pictures([turn + ["paid ability window"]])[0]) == [4]
    # an unknown label is shown as it is, never dropped
    assert pictures([["somewhere new"]])[0] == [{"structure": "somewhere new", "phases": [], "steps": []}]


# ---- errors ------------------------------------------------------------------------
def test_illegal_decision_shows_the_partial_timeline_and_the_rule(client):
    html = get(client, "/replay/illegal")
    clean(html)
    assert 'class="rp-error"' in html and "Illegal decision" in html
    m = re.search(r'<a href="#L(\d+)">Line \1</a>, field <code>decisions\[(\d)\]\.jack_out</code>', html)
    assert m, html[html.index('class="rp-error"'):][:600]
    line, index = int(m.group(1)), int(m.group(2))
    assert ILLEGAL.splitlines()[line - 1].strip() == "- {jack_out: true}"
    assert line == ILLEGAL.splitlines().index("decisions:") + 1 + index + 1   # decisions[index]'s line
    # the link lands on that line of the scenario file, shown below the timeline
    assert f'<li id="L{line}" class="rp-bad"><code>  - {{jack_out: true}}</code></li>' in html
    assert "Breaks " in html and steps_of(html)


def test_a_broken_shipped_file_shows_its_error_not_a_500(client):
    html = get(client, "/replay/malformed")
    assert "Line 4" in html and "runner" in html and "creds" in html


@pytest.mark.parametrize("url", [
    "/replay/../etc/passwd", "/replay/..%2F..%2Fetc%2Fpasswd", "/replay/%2e%2e", "/replay/..",
    "/replay/.hidden", "/replay/nope", "/replay/notes", "/replay/tax.yaml", "/replay/tax%00",
    "/replay/" + "a" * 500, "/replay/tax/../../app.py", "/replay/%2Fetc%2Fpasswd",
])
def test_hostile_and_unknown_names_are_404(client, url):
    resp = client.get(url)
    assert resp.status_code == 404, url
    body = resp.get_data(as_text=True)
    assert "root:" not in body and "title:" not in body


def test_scenario_text_is_escaped(client):
    html = get(client, "/replay/hostile")
    clean(html)
    for needle in ("alert('title')", "alert('notes')", "alert('note')", "onerror=alert(1)"):
        assert needle.replace("'", "&#39;") in html, needle   # shown, as text
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;" in html
    listing = get(client, "/replay")
    assert "<script>alert" not in listing and "&lt;script&gt;" in listing


# ---- uploads -----------------------------------------------------------------------
def upload(client, text: str | bytes, as_file: bool = True):
    if as_file:
        data = {"scenario": (io.BytesIO(text if isinstance(text, bytes) else text.encode()), "mine.yaml")}
    else:
        data = {"text": text}
    return client.post("/replay", data=data, content_type="multipart/form-data")


@pytest.mark.parametrize("as_file", [True, False])
def test_upload_replays_and_renders_the_timeline(client, as_file):
    resp = upload(client, TAX, as_file)
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    clean(html)
    assert "<h1>Toll Gate takes its tax, then ends the run</h1>" in html
    assert len(steps_of(html)) == len(replayed(TAX).steps)
    assert "Uploaded scenario: not stored" in html and 'href="#step-3"' in html


def test_upload_hostile_text_is_escaped(client):
    resp = upload(client, HOSTILE)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200
    assert "<script>alert" not in html and "&lt;script&gt;alert(&#39;note&#39;)" in html


@pytest.mark.parametrize("text, line, field", [
    (MALFORMED_KEY, 4, "runner"),
    (MALFORMED_YAML, 4, None),      # where the parser finds the problem
    ("- just\n- a list\n", 1, None),
    ("source: no title\n", 1, "title"),
])
def test_malformed_upload_is_a_400_naming_line_and_field(client, text, line, field):
    resp = upload(client, text)
    assert resp.status_code == 400
    html = resp.get_data(as_text=True)
    clean(html)
    assert 'class="rp-error"' in html and "could not be replayed" in html
    assert f"Line {line}" in html
    if field:
        assert re.search(rf"field <code>{field}[^<]*</code>", html)
    assert "Traceback" not in html
    # the text comes back in the form, escaped, to be fixed
    assert "<textarea" in html and text.splitlines()[0].replace("'", "&#39;") in html


def test_illegal_upload_is_a_400_with_the_partial_timeline(client):
    resp = upload(client, ILLEGAL)
    assert resp.status_code == 400
    html = resp.get_data(as_text=True)
    assert "Illegal decision" in html and steps_of(html) and "jack_out" in html


@pytest.mark.parametrize("text", [
    "",                                   # nothing chosen
    "a: &a [" + "x, " * 10 + "]\n" + "".join(f"b{i}: &b{i} [*a, *a, *a]\n" for i in range(70)),  # aliases
    "title: deep\nnotes: " + "[" * 5000 + "]" * 5000 + "\n",   # deep nesting
    "\x00\x01\x02",                       # not text
])
def test_hostile_uploads_are_refused_cleanly_never_a_500(client, text):
    resp = upload(client, text) if text else client.post("/replay", data={})
    assert resp.status_code == 400, resp.status_code
    assert 'class="rp-error"' in resp.get_data(as_text=True)


def test_too_large_upload_is_refused_never_a_500(client):
    from judgebook.web.routes_replay import MAX_UPLOAD
    big = TAX + "#" * (MAX_UPLOAD + 10)
    for resp in (upload(client, big), upload(client, "# x\n" * 40000),
                 upload(client, big, as_file=False)):
        assert resp.status_code == 413
        assert "too large" in resp.get_data(as_text=True)


def test_upload_form_is_only_post_and_get(client):
    assert client.put("/replay").status_code in (404, 405)
    assert client.post("/replay/tax").status_code in (404, 405)
