"""The shipped scenarios on a rule's page and in search (issue 10, Keep and share).

Scenarios are written here into a temporary folder (cards inline), so the lists are exact; the anchors a
rule page must list are taken from the engine's own replay, not from the module under test.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_web_corpus import FakeSearcher, documents, sections
from test_web_replay import TAX, TOLL_GATE

from judgebook.engine.driver.script import replay
from judgebook.engine.scenario.load import parse
from judgebook.model import Provenance, Section
from judgebook.store import scenario_refs
from judgebook.store.corpus import Corpus
from judgebook.web.app import create_app
from judgebook.web.session_link import unpack

# a scenario in a sub-folder, citing the run's announcement like TAX, but with no encounter
JACK = """\
title: "A run on an empty HQ <b>bold</b>"
""" + TOLL_GATE.replace("HQ: {ice: [{card: Toll Gate, rezzed: true}]}", "R&D: {}") + """\
decisions:
  - {action: run, server: HQ}
"""
BROKEN = "title: Broken on purpose\nrunner: {creds: 5}\n"
ANNOUNCE = "step_initiation_announce"


@pytest.fixture
def folder(tmp_path) -> Path:
    d = tmp_path / "scenarios"
    (d / "real").mkdir(parents=True)
    (d / "tax.yaml").write_text(TAX, encoding="utf-8")
    (d / "real" / "jack.yaml").write_text(JACK, encoding="utf-8")
    (d / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    return d


def anchors_of(text: str) -> list[str]:
    """The anchors the engine's timeline cites, first-cited order: straight from a replay."""
    out = replay(parse(text, file="t", library=None))
    return list(dict.fromkeys(s.anchor for s in out.steps if s.anchor))


def test_each_scenario_cites_what_its_replay_cites(folder):
    index = scenario_refs.citations(folder, None, None)
    by_path = {r.path: r for r in index.refs}
    assert sorted(by_path) == ["broken.yaml", "real/jack.yaml", "tax.yaml"]
    assert list(by_path["tax.yaml"].anchors) == anchors_of(TAX)
    assert list(by_path["real/jack.yaml"].anchors) == anchors_of(JACK)
    assert by_path["broken.yaml"].anchors == () and "creds" in by_path["broken.yaml"].broken
    assert {r.path for r in index.citing(ANNOUNCE)} == {"tax.yaml", "real/jack.yaml"}
    assert by_path["tax.yaml"].name == "tax" and by_path["real/jack.yaml"].name is None


def test_citations_are_kept_on_disk_and_computed_again_when_a_file_changes(folder, tmp_path, monkeypatch):
    cache = tmp_path / "index"
    cache.mkdir()
    first = scenario_refs.citations(folder, None, cache)
    assert (cache / scenario_refs.CACHE_FILE).is_file()
    scenario_refs._INDEX.clear()                      # a new process: memory empty, the disk cache there

    def no_replay(*_args):
        raise AssertionError("replayed although the cache was valid")
    monkeypatch.setattr(scenario_refs, "replay_all", no_replay)
    assert scenario_refs.citations(folder, None, cache).refs == first.refs
    (folder / "broken.yaml").write_text("title: Mended\n", encoding="utf-8")
    monkeypatch.undo()
    again = scenario_refs.citations(folder, None, cache)
    assert next(r for r in again.refs if r.path == "broken.yaml").broken == ""


def test_judgebook_build_computes_the_citations_a_rule_page_reads(folder, tmp_path, monkeypatch):
    """The build replays the project's scenarios into the index (issue 10: no replay on a first page
    view); another source's build leaves the cache alone."""
    from judgebook.commands import build as build_command

    project = tmp_path / "project"
    (project / "rules_source").mkdir(parents=True)
    scenarios = folder.rename(project / "rules_source" / "scenarios")
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "none.toml"))     # no card data configured
    index = tmp_path / "index"
    index.mkdir()
    build_command._scenario_citations(tmp_path / "elsewhere", index, project / "rules_source")
    assert not (index / scenario_refs.CACHE_FILE).exists()
    build_command._scenario_citations(project / "rules_source", index, project / "rules_source")
    assert (index / scenario_refs.CACHE_FILE).is_file()
    expected = scenario_refs.replay_all(scenarios, None)
    scenario_refs._INDEX.clear()                      # the server: a new process, the build's cache there

    def no_replay(*_args):
        raise AssertionError("replayed although the build computed the citations")
    monkeypatch.setattr(scenario_refs, "replay_all", no_replay)
    assert scenario_refs.citations(scenarios, None, index).refs == expected
    assert [r.path for r in expected] == ["broken.yaml", "real/jack.yaml", "tax.yaml"]
    assert dict((r.path, r.anchors) for r in expected)["tax.yaml"] == tuple(anchors_of(TAX))


@pytest.mark.parametrize("query, titles", [
    ("toll", ["Toll Gate takes its tax, then ends the run"]),
    ("RUN", ["A run on an empty HQ <b>bold</b>", "Toll Gate takes its tax, then ends the run"]),
    ("run hq", ["A run on an empty HQ <b>bold</b>"]),
    ("un", []),                                      # a word's start, not any substring
    ("broken purpose", ["Broken on purpose"]),       # a scenario that does not load is still found by title
    ("", []),
])
def test_scenarios_are_found_by_title(folder, query, titles):
    found = scenario_refs.search(scenario_refs.titles(folder), query)
    assert sorted(r.title for r in found) == titles


@pytest.fixture
def client(folder):
    prov = Provenance(file="x.yaml", line_start=1, line_end=2)
    extra = [Section(id=f"cr-26.03:{ANNOUNCE}", doc="cr-26.03", number="6.9.2.1", title="", kind="rule",
                     text="The Runner announces the attacked server.", provenance=prov, order=90, anchor=ANNOUNCE)]
    corpus = Corpus(documents(), sections() + extra)
    app = create_app(corpus, searcher=FakeSearcher(corpus))
    app.testing = False
    app.config["JUDGEBOOK_SCENARIOS"] = str(folder)
    app.config["JUDGEBOOK_CARD_DATA"] = ""
    return app.test_client()


def test_a_rule_page_lists_the_scenarios_citing_it(client):
    html = client.get(f"/s/cr-26.03:{ANNOUNCE}").get_data(as_text=True)
    part = html.split('id="scenarios"', 1)[1].split("</section>", 1)[0]
    assert "Scenarios whose timelines cite it" in part and '<span class="count">(2)</span>' in part
    assert '<a href="/replay/tax">Toll Gate takes its tax, then ends the run</a>' in part
    # a sub-folder's scenario opens in the play view, its text carried by the link
    link = re.search(r'<a href="/replay/play\?s=([\w-]+)">A run on an empty HQ &lt;b&gt;bold&lt;/b&gt;</a>', part)
    assert link and unpack(link.group(1)) == JACK
    assert "<b>bold</b>" not in html


def test_a_rule_no_scenario_cites_has_no_list(client):
    html = client.get("/s/cr-26.03:rule_new").get_data(as_text=True)
    assert 'id="scenarios"' not in html


def test_the_search_page_lists_matching_scenarios(client):
    html = client.get("/search?q=toll").get_data(as_text=True)
    part = html.split('class="scenario-hits"', 1)[1].split("</section>", 1)[0]
    assert '<a href="/replay/tax">Toll Gate takes its tax, then ends the run</a>' in part
    html = client.get("/search?q=%3Cscript%3E").get_data(as_text=True)
    assert 'class="scenario-hits"' not in html and "<script>" not in html


def test_judgebook_search_names_the_shipped_scenarios(tmp_path):
    shipped = Path(__file__).resolve().parents[1] / "rules_source/scenarios/glossary-femme-fatale-tollbooth.yaml"
    title = re.search(r"^title: (.+)$", shipped.read_text(encoding="utf-8"), re.M).group(1)
    run = subprocess.run([sys.executable, "-m", "judgebook", "--index", str(tmp_path / "none"), "search",
                          "femme", "fatale", "tollbooth"], capture_output=True, text=True, timeout=120)
    assert f"  {title}  rules_source/scenarios/glossary-femme-fatale-tollbooth.yaml" in run.stdout.splitlines()
