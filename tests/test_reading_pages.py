"""Reading, What changed and First run over the real build (seeds + NSG CR YAML + NetrunnerDB)."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from test_web_corpus import real_index

from judgebook.engine.citations import cited_anchors
from judgebook.linking.cited_rules import RULES
from judgebook.web import pages
from judgebook.web.app import create_app

pytestmark = pytest.mark.corpora


@pytest.fixture(scope="module")
def app(tmp_path_factory, corpora_root):
    return create_app(index_root=real_index(tmp_path_factory, corpora_root))


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def corpus(app):
    return app.extensions["judgebook"].corpus


def _get(client, url: str) -> str:
    resp = client.get(url)
    assert resp.status_code == 200, url
    return resp.get_data(as_text=True)


def test_a_section_page_holds_the_full_text_of_everything_under_it(client, corpus):
    html = _get(client, "/s/cr-26.03:sec_steps_of_a_run")
    # every rule under 6.9, each with its own anchor and a link to its own page:
    # 6 subsections + 29 rules: `grep -E '^\s*- (subsection|rule):'` in v26.03/data/input/06_runs.yaml
    # from "- section: sec_steps_of_a_run" (line 330) to the file's end
    under = [s for s in _descendants(corpus, "cr-26.03:sec_steps_of_a_run") if s.kind != "example"]
    assert len(under) == 35
    for sec in under:
        assert f'id="{sec.anchor}"' in html, sec.id
        assert f'href="/s/{sec.id}"' in html, sec.id
    # the text itself, not only titles: 6.9.4c's words are on 6.9's page
    jack_out = corpus.by_anchor("cr-26.03", "step_jack_out_choice")
    assert "The Runner may choose to jack out" in jack_out.text
    assert "The Runner may choose to jack out" in html


def _descendants(corpus, sid: str) -> list:
    out = []
    for kid in corpus.children(sid):
        out += [kid, *_descendants(corpus, kid.id)]
    return out


def test_a_document_page_is_the_whole_text_with_a_contents_sidebar(client):
    html = _get(client, "/d/cr-26.03")
    assert '<details class="sidebar" id="contents" data-spy="1">' in html
    side = html.split('<details class="sidebar"', 1)[1].split("</details>", 1)[0]
    assert 'href="#sec_steps_of_a_run"' in side            # the sidebar links into this page
    body = html.split('<div class="reading doc-text">', 1)[1]
    assert body.index('id="sec_steps_of_a_run"') < body.index('id="step_approach_paw"')
    # a flat, long document (the cards) stays a list, without a sidebar of 1,988 names
    cards = _get(client, "/d/cards")
    assert 'class="sidebar"' not in cards and "<h2>Contents</h2>" in cards


def test_the_sidebar_marks_the_page_and_the_way_down_to_it(client):
    html = _get(client, "/s/cr-26.03:step_approach_paw")
    side = html.split('<details class="sidebar"', 1)[1].split("</details>", 1)[0]
    assert re.search(r'<li class="on-path"><a href="/s/cr-26\.03:sec_steps_of_a_run"', side)
    assert re.search(r'href="/s/cr-26\.03:step_approach_paw" data-frag="step_approach_paw" aria-current="page"',
                     side)


def test_format_legality_counts(corpus):
    # Counted independently from the raw JSON with jq: the newest snapshot's pool
    # (card_pools/<format>.json card_set_ids) joined with printings/*.json card_set_id,
    # then `comm` against the restriction list's "banned":
    #   standard (rotation_2025, Standard Ban List 25.10): 547 in the pool, 27 banned, 520 legal
    #   startup (startup_elevation, Startup Balance Update 25.04): 289 in the pool, 4 banned, 285 legal
    #   eternal (Eternal Points List 25.07): 1821 in the pool, 7 banned, 1814 legal
    cards = [s for s in corpus.in_doc("cards") if s.kind == "card"]
    assert len(cards) == 1988       # ls v2/cards | wc -l
    seen = {}
    for fmt in ("Standard", "Startup", "Eternal"):
        counts = Counter()
        for card in cards:
            (entry,) = [x for x in pages.legality(card) if x.format == fmt]
            counts["legal" if entry.legal else entry.status] += 1
        seen[fmt] = counts
    assert seen["Standard"] == Counter({"legal": 520, "banned": 27, "not in the card pool": 1441})
    assert seen["Startup"] == Counter({"legal": 285, "banned": 4, "not in the card pool": 1699})
    assert seen["Eternal"] == Counter({"legal": 1814, "banned": 7, "not in the card pool": 167})


def test_card_page_in_words_with_reflowed_rulings_and_numbered_references(client, corpus):
    html = _get(client, "/s/cards:hostile_infrastructure")
    assert "<dt>Unique</dt><dd>No</dd>" in html and "unique false" not in html.lower()
    assert "<strong>Eternal</strong>: <span class=\"legal-status\">legal</span>" in html
    assert "<strong>Standard</strong>: <span class=\"legal-status\">not in the card pool</span>" in html
    # the source's hard line break ("his or\nher cards") is undone
    assert "his or her cards" in html and "his or<br>" not in html
    # a ruling is named by its card and a whole phrase, never cut mid-phrase
    assert "Hostile Infrastructure ruling: If Hostile Infrastructure and any other Corp cards are trashed " \
           "simultaneously…" in html
    # Referenced by: the example that names the card is called by its rule's number, not by its first words
    backlinks = html.split('id="referenced-by"', 1)[1]
    assert "1.14.5a Example 1" in backlinks


def test_rule_numbers_in_rulings_offer_the_rule_in_the_numbering_they_use(client, corpus):
    # Sneakdoor Beta's ruling (2022) cites "6.9.5a": CR 1.4 (in force by date) stops at 1.11.3;
    # 6.9.5a is the step "The run is declared successful" in the YAML versions.
    ruling = corpus.get("nrdb-rulings:sneakdoor_beta/1")
    (link,) = [l for l in ruling.links if l.ref == "6.9.5a"]
    assert link.alternatives == ("cr-22.12:step_run_declared_successful",)
    html = _get(client, "/s/cards:sneakdoor_beta")
    assert 'href="/s/cr-22.12:step_run_declared_successful">see CR 22.12 6.9.5a' in html


def test_typography_is_kept_apart_on_what_changed(client, corpus):
    result = pages.compare(corpus, "cr-1.6", "cr-26.03")
    # 234 rules changed between CR 1.6 and 26.03; 176 only in typography. Counted independently:
    # each pair's "title text" (example labels dropped) written to files and folded in the shell with
    # sed (curly quotes to straight, en/em dash to "-", {x} to [x], [trashcost] to [trash], [dash] to "-",
    # "◆" removed), tr (upper to lower case, whitespace runs to one space): 176 of the 234 pairs are equal.
    assert result.count("changed") == 234
    assert result.typography == 176
    html = _get(client, "/changes?from=cr-1.6&to=cr-26.03")
    assert 'id="show-typography" data-count="176"' in html
    assert html.count('class="chg chg-changed chg-typography"') + \
        html.count('class="chg chg-renumbered chg-changed chg-typography"') == 176
    # folded by chapter: one <details> per chapter of the newer version that has changes
    assert html.count('<details class="chg-group"') == len(result.groups())


def test_an_older_document_that_stops_short_does_not_make_the_rest_added(client, corpus):
    result = pages.compare(corpus, "cr-1.6", "cr-26.03")
    assert result.old_stops_at.number == "4.1.2"
    added = result.only("added")
    assert added
    # nothing from chapter 5 on (turns, runs, access...) is "added": CR 1.6's text never got there
    assert not [e for e in added if (e.new.number or "0").split(".")[0] in {"5", "6", "7", "8", "9", "10"}]
    assert result.not_covered > 1000
    html = _get(client, "/changes?from=cr-1.6&to=cr-26.03")
    assert "stops at" in html and f"the {result.not_covered} rules of CR 26.03" in html
    # versions that both hold the whole text report everything
    assert pages.compare(corpus, "cr-23.08", "cr-26.03").old_stops_at is None


def test_home_page_names_the_newest_rules_and_needs_nothing_more(client):
    html = _get(client, "/")
    assert "Newest Comprehensive Rules loaded" in html and "26.03" in html
    assert "Not loaded yet" not in html


def test_every_cited_rule_has_its_number_and_heading(corpus):
    assert set(RULES) == cited_anchors()
    wrong = {a: (number, corpus.by_anchor("cr-26.03", a).number)
             for a, (number, _) in RULES.items() if corpus.by_anchor("cr-26.03", a).number != number}
    assert wrong == {}


@pytest.mark.parametrize("name, shown, note", [
    ("Hostile Infrastructure", "cards:hostile_infrastructure", ""),
    ("hostle infrastructur", "cards:hostile_infrastructure", "showing the closest, 'Hostile Infrastructure'"),
    ("reina roja", "cards:reina_roja_freedom_fighter", ""),                  # an identity by its short name
    ("Paid Ability Window", "glossary:paid-ability-window", ""),
])
def test_show_finds_a_card_or_glossary_entry_by_name(capsys, tmp_path_factory, corpora_root, name, shown, note):
    from judgebook.cli import main
    code = main(["--index", str(real_index(tmp_path_factory, corpora_root)), "show", name, "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["section"]["id"] == shown
    assert (note in err) if note else "closest" not in err


def test_show_without_a_match_says_what_it_accepts(capsys, tmp_path_factory, corpora_root):
    from judgebook.cli import main
    code = main(["--index", str(real_index(tmp_path_factory, corpora_root)), "show", "xyzzy quux"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and "card or glossary entry's name" in err


def test_what_changed_shows_each_chapter_once(client, corpus):
    """Removed rules and examples sit in their chapter's group, not in a second set of chapter groups."""
    for old, new in pages.version_pairs(corpus):
        result = pages.compare(corpus, old.key, new.key)
        for status in ("", "removed", "added", "changed"):
            chapters = [g.chapter.id if g.chapter else "" for g in result.groups(status)]
            assert len(chapters) == len(set(chapters)), (old.key, new.key, status)
            orders = [g.chapter.order for g in result.groups(status) if g.chapter]
            assert orders == sorted(orders)
    result = pages.compare(corpus, "cr-23.08", "cr-26.03")
    html = _get(client, "/changes?from=cr-23.08&to=cr-26.03")
    labels = re.findall(r'<details class="chg-group"[^>]*>\s*<summary>(.*?)<span class="count">', html, re.S)
    assert len(labels) == len(result.groups()) == len(set(labels))
    # every removed entry is inside a chapter's group (none stranded outside) when its chapter was kept
    assert sum(len(g.entries) for g in result.groups()) == len(result.entries)
