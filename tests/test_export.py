"""The static export: same pages as files, relative links only, a client-side search index."""
from __future__ import annotations

import json
import re
from urllib.parse import unquote, urlsplit

import pytest
from test_web_corpus import sample_corpus

from judgebook.web.export import MARKER, ExportError, export_site
from judgebook.web.urls import file_slug, section_path

LINK = re.compile(r'(?:href|src)="([^"]*)"')


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    corpus = sample_corpus()
    out = tmp_path_factory.mktemp("export") / "site"
    result = export_site(corpus, out)
    return corpus, out, result


def test_every_section_document_and_page_is_written(site):
    corpus, out, result = site
    for sid in corpus.sections:
        assert (out / section_path(sid)).is_file(), sid
    for key in corpus.documents:
        assert (out / "d" / f"{file_slug(key)}.html").is_file()
    for name in ("index.html", "search.html", "404.html", "rulings.html", "cards.html",
                 "changes/index.html", "changes/cr-1.6--cr-26.03.html", "sw.js",
                 "manifest.webmanifest", "search-index.js", "static/style.css", "static/app.js",
                 "static/search-static.js", "static/icons/click.svg", MARKER):
        assert (out / name).is_file(), name
    # 19 sections (counted in test_web_corpus.sections: 7 cr-1.6, 4 cr-26.03, 1 glossary,
    # 5 onr-rulings, 1 card, 1 nrdb ruling) + 6 documents + index, search, 404, rulings,
    # cards + the changes index and its 1 pair of versions
    assert len(corpus.sections) == 19
    assert result.pages == 19 + 6 + 5 + 2


def test_links_are_relative_and_all_resolve(site):
    _corpus, out, _ = site
    checked = 0
    for page in out.rglob("*.html"):
        html = page.read_text("utf-8")
        for url in LINK.findall(html):
            parts = urlsplit(url.replace("&amp;", "&"))
            assert not parts.scheme and not parts.netloc, (page, url)
            assert not url.startswith("/"), (page, url)
            if not parts.path:
                continue   # a fragment on the same page
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file(), (page.relative_to(out), url)
            assert out.resolve() in target.parents
            checked += 1
    assert checked > 300


def test_section_pages_match_the_server_rendering(site):
    _corpus, out, _ = site
    html = (out / section_path("cr-1.6:1.16.10")).read_text("utf-8")
    assert '<a class="ln ln-ref" href="cr-1.6~3a1.16.10b.html">rule 1.16.10b</a>' in html
    assert 'href="glossary~3aaccess.html" data-def="To access a card' in html
    assert 'src="../static/icons/recurring.svg" alt="recurring credit"' in html
    assert '<a href="../search.html">' not in html   # the search form posts to it, no bare link
    assert 'action="../search.html"' in html
    history = (out / section_path("cr-1.6:1.16.10b")).read_text("utf-8")
    assert "<del>do not</del><ins>never</ins>" in history
    assert "/api/" not in history and "data-complete" not in history


def test_search_index_is_a_script_assigning_a_global(site):
    corpus, out, result = site
    js = (out / "search-index.js").read_text("utf-8")
    assert js.startswith("window.JB_INDEX=") and js.rstrip().endswith(";")
    data = json.loads(js[len("window.JB_INDEX="):].rstrip().rstrip(";"))
    # The server's search records (one per distinct text), as the Whoosh index holds them.
    from judgebook.search import indexer
    records = list(indexer.records_of(corpus))
    assert len(data["items"]) == len(records) == result.index_items == data["n"]
    hrefs = {m[0] for item in data["items"] for m in item[6]}
    assert "s/cr-26.03~3arule_recurring.html" in hrefs
    # "accumulate" is in 1.16.10b of both versions: its postings decode to the record(s) holding them
    ids, prev = [], 0
    for gap in data["text"]["post"]["accumul"].split(","):
        prev += int(gap.split(".")[0], 36)
        ids.append(prev)
    members = sorted(m[0] for i in ids for m in data["items"][i][6])
    assert members == ["s/cr-1.6~3a1.16.10b.html", "s/cr-26.03~3arule_recurring.html"]
    # both versions of 1.16.10b are one rule (one family), shown once by the page
    fam = {m[0]: item[4] for item in data["items"] for m in item[6]}
    assert fam["s/cr-1.6~3a1.16.10b.html"] == fam["s/cr-26.03~3arule_recurring.html"]
    assert fam["s/cr-1.6~3a1.16.10.html"] != fam["s/cr-1.6~3a1.16.10b.html"]
    assert "<script>" not in js   # hostile text is data; the JS side inserts it as text nodes


def test_file_slugs_are_safe_and_distinct():
    assert file_slug("cr-1.6:1.16.10b/ex1") == "cr-1.6~3a1.16.10b~2fex1"
    assert file_slug("../../etc") == "..~2f..~2fetc"
    assert "/" not in file_slug("a/b") and file_slug("a~3ab") != file_slug("a:b")
    assert file_slug("..") == "~2e~2e"


def test_export_refuses_a_folder_that_is_not_an_export(tmp_path):
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(ExportError, match="not empty"):
        export_site(sample_corpus(), tmp_path)
    assert (tmp_path / "precious.txt").read_text() == "keep me"


def test_export_replaces_a_previous_export(tmp_path):
    out = tmp_path / "site"
    export_site(sample_corpus(), out)
    (out / "stale.html").write_text("old")
    export_site(sample_corpus(), out)
    assert not (out / "stale.html").exists() and (out / "index.html").is_file()


def test_export_command(tmp_path, monkeypatch, capsys):
    from judgebook.cli import main
    missing = main(["--index", str(tmp_path / "no-index"), "export", str(tmp_path / "out")])
    assert missing == 1
    assert "no index at" in capsys.readouterr().err
