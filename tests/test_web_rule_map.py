"""The rule map on the web: a CR 26.03 rule's page says whether the replay engine enforces it (with links to
its scenarios) or why not yet, a heading says nothing; `/engine/rules` lists the map with counts by chapter."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_web_corpus import FakeSearcher, documents, sections

from judgebook.linking import rule_map as rm
from judgebook.model import Provenance, Section
from judgebook.store.corpus import Corpus
from judgebook.web.app import create_app
from judgebook.web.session_link import unpack

SCENARIOS = Path(__file__).resolve().parents[1] / "rules_source" / "scenarios"


def _rule(anchor: str, number: str, kind: str = "rule", order: int = 90) -> Section:
    return Section(id=f"cr-26.03:{anchor}", doc="cr-26.03", number=number, title="", kind=kind,
                   text=f"Text of {number}.", provenance=Provenance(file="x.yaml", line_start=1, line_end=2),
                   order=order, anchor=anchor)


@pytest.fixture
def client(shared_replays):
    extra = [_rule("rule_flatline", "1.7.2b", order=91), _rule("rule_empty_rnd", "1.7.2c", order=92),
             _rule("rule_player_definitions", "1.1.1", order=93),
             _rule("sec_concepts_general", "1.1", kind="section", order=94)]
    corpus = Corpus(documents(), sections() + extra)
    app = create_app(corpus, searcher=FakeSearcher(corpus))
    app.testing = False
    app.config["JUDGEBOOK_SCENARIOS"] = str(SCENARIOS)
    app.config["JUDGEBOOK_CARD_DATA"] = ""
    return app.test_client()


def _engine_part(html: str) -> str:
    return html.split('id="engine"', 1)[1].split("</section>", 1)[0]


def test_an_enforced_rule_links_its_scenarios(client):
    html = client.get("/s/cr-26.03:rule_flatline").get_data(as_text=True)
    part = _engine_part(html)
    assert "The replay engine enforces this rule <span class=\"count\">(1 scenario)</span>" in part
    assert ('<a href="/replay/glossary-boom-flatline">BOOM! flatlines a Runner with 4 cards who prevents '
            'nothing</a>') in part
    assert '<a href="/engine/rules">the rule map</a>' in part


def test_a_sub_folder_scenario_opens_at_the_table(client):
    part = _engine_part(client.get("/s/cr-26.03:rule_empty_rnd").get_data(as_text=True))
    assert "(3 scenarios)" in part
    links = re.findall(r'<a href="/replay/play\?s=([\w-]+)">', part)
    assert len(links) == 3
    assert unpack(links[1]) == (SCENARIOS / "real/datapike-cannot-pay.yaml").read_text(encoding="utf-8")


def test_a_not_yet_rule_says_why_and_a_heading_says_nothing(client):
    part = _engine_part(client.get("/s/cr-26.03:rule_player_definitions").get_data(as_text=True))
    assert f"<strong>Not yet enforced:</strong> {rm.rule_map().row('rule_player_definitions').reason}" in part
    assert 'id="engine"' not in client.get("/s/cr-26.03:sec_concepts_general").get_data(as_text=True)


def test_the_map_page_lists_every_rule_with_counts_by_chapter(client):
    resp = client.get("/engine/rules")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200
    assert html.count('<li class="st-') == 1551
    assert '<tr><th scope="row"><a href="#ch-11">11</a></th><td>0</td><td>9</td><td>0</td></tr>' in html
    c = rm.rule_map().counts()               # asserted exactly in tests/test_rule_map.py
    assert (f'<tr class="total"><th scope="row">All</th><td>207</td><td>{c["no-behaviour"]}</td>'
            f'<td>{c["not-yet"]}</td></tr>') in html
    assert '<a href="/s/cr-26.03:rule_flatline">1.7.2b</a>' in html
    assert '<a href="/replay/glossary-boom-flatline">' in html


def test_the_map_page_filters_by_status_and_refuses_an_unknown_one(client):
    html = client.get("/engine/rules?status=enforced").get_data(as_text=True)
    assert html.count('<li class="st-enforced"') == 207 and 'class="st-not-yet"' not in html
    assert client.get("/engine/rules?status=%3Cb%3E").status_code == 404


def test_the_map_as_json_is_the_cli_s(client):
    data = client.get("/engine/rules.json").get_json()
    assert data["counts"] == rm.rule_map().counts() and len(data["rules"]) == 1551
    assert data["chapters"]["11"] == {"enforced": 0, "no-behaviour": 9, "not-yet": 0}


def test_the_replay_page_links_the_map(client):
    assert '<a href="/engine/rules">the rule map</a>' in client.get("/replay").get_data(as_text=True)
