"""The app over a real build (seeds + NSG CR YAML + NetrunnerDB): real search, real pages."""
from __future__ import annotations

import pytest
from test_web_app import Inspector
from test_web_corpus import real_index

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


def test_rule_number_search_and_deep_links(client, corpus):
    newest = corpus.newest_cr().key
    want = corpus.by_number(newest, "1.16.10b").id
    # a rule number typed into the search box opens that rule of the newest CR
    typed = client.get("/search?q=1.16.10b")
    assert typed.status_code == 303 and typed.headers["Location"].endswith(f"/s/{want}")
    # with a filter it is a search again, and the rule is the first hit
    html = client.get(f"/search?q=1.16.10b&doc={newest}").get_data(as_text=True)
    first = html.index('class="hit-title"')
    assert html[first:first + 200].count(f'href="/s/{want}"') == 1
    assert client.get("/r/1.16.10b").headers["Location"].endswith(f"/s/{want}")
    assert client.get("/r/cr-1.6/1.16.10b").headers["Location"].endswith("/s/cr-1.6:1.16.10b")
    api = client.get("/api/search?q=1.16.10b&limit=3").get_json()
    assert api["results"][0]["id"] == want and len(api["results"]) == 3
    assert client.get("/api/complete?q=1.16.10").get_json()[0]["text"].startswith("1.16.10")


@pytest.mark.parametrize("q", ['"unbalanced', "-", "doc:", "doc:nope trace", "x" * 10000,
                               "<script>alert(1)</script>", "a\x00b", "kind:ruling era:onr-1996 trace",
                               "((((", "*", "obokata protocl", "Mirāju"])
def test_hostile_and_odd_queries_on_the_real_search(client, q):
    resp = client.get("/search", query_string={"q": q})
    assert resp.status_code == 200
    assert "<script>alert" not in resp.get_data(as_text=True)
    assert client.get("/api/search", query_string={"q": q}).status_code == 200


def test_filter_links_narrow_the_real_search(client):
    import re
    html = client.get("/search?q=trace&era=onr-1996").get_data(as_text=True)
    docs = re.findall(r'class="hit-title" href="/s/([^:"]*):', html)
    assert len(docs) > 5
    assert set(docs) <= {"onr-rulebook", "onr-rulings", "onr-floor-rules"}, set(docs)
    assert "Netrunner (1996) rulebook, glossary and index" in html or "Netrunner Rulings v1.70" in html


def test_every_page_of_the_text_documents_renders_cleanly(client, corpus):
    """Every section of the seven seed documents, and every document page."""
    docs = ("cr-1.6", "cr-1.4", "ffg-core-rulebook", "glossary", "onr-rulebook", "onr-rulings",
            "onr-floor-rules")
    ids = [s.id for d in docs for s in corpus.in_doc(d)]
    assert len(ids) > 1500
    for sid in ids + [f"__doc__{d}" for d in corpus.documents]:
        url = f"/d/{sid[7:]}" if sid.startswith("__doc__") else f"/s/{sid}"
        resp = client.get(url)
        assert resp.status_code == 200, url
        ins = Inspector()
        ins.feed(resp.get_data(as_text=True))
        assert ins.inline_scripts == 0 and not ins.handlers and not ins.styles, url


def test_unresolved_cr16_reference_offers_the_newer_rule(client, corpus):
    sec, link = next((s, l) for s in corpus.in_doc("cr-1.6") for l in s.links
                     if l.kind == "ref" and not l.target and l.alternatives and l.start >= 0)
    html = client.get(f"/s/{sec.id}").get_data(as_text=True)
    assert link.reason in html   # e.g. "section 5.5.4 is not in this document (it stops at 4.1.2)"
    assert f'class="ln ln-alt" href="/s/{link.alternatives[0]}"' in html


def test_card_page_shows_rulings_and_mentions(client, corpus):
    card = next(s for s in corpus.in_doc("cards") if s.children and corpus.backlinks(s.id))
    html = client.get(f"/s/{card.id}").get_data(as_text=True)
    ruling = corpus.get(card.children[0])
    assert ruling.text.split()[0] in html
    assert f'datetime="{ruling.provenance.date}"' in html
    assert ("NSG rules team verified" in html) or ("not verified" in html)
    rb = html[html.index('id="referenced-by"'):]
    assert f'href="/s/{corpus.backlinks(card.id)[0].source}"' in rb


def test_what_changed_for_every_pair_of_versions(client, corpus):
    from judgebook.web.pages import version_pairs
    pairs = version_pairs(corpus)
    assert len(pairs) == 10   # five CR versions: 1.4, 1.6, 22.12, 23.08, 26.03
    for a, b in pairs:
        html = client.get(f"/changes?from={a.key}&to={b.key}").get_data(as_text=True)
        assert " added · " in html and " renumbered</p>" in html, (a.key, b.key)
    # CR 1.4 -> 1.6 inserted 1.12 "Objects": 1.11.3 became 1.11.4 (issue 2), a renumbering
    html = client.get("/changes?from=cr-1.4&to=cr-1.6").get_data(as_text=True)
    assert '<a href="/s/cr-1.4:1.11.3"><span class="doc-tag">CR 1.4</span> 1.11.3</a> → ' \
           '<a href="/s/cr-1.6:1.11.4">' in html


def test_legacy_rulings_page(client):
    html = client.get("/rulings").get_data(as_text=True)
    # 265 card entries in onr-rulings (issue 2's count)
    assert "<p>265 cards, alphabetically;" in html
    assert "General Netrunner Rulings" in html
