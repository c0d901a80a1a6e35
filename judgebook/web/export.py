"""`judgebook export DIR`: the same pages as static files.

Every page is rendered with the app's own templates, with `ExportUrls`
making each link relative to the file it sits in, so the site works from
`file://` and from any static host. Search runs in the browser over
`search-index.js`; the manifest and service worker sit at the root.
"""
from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judgebook.store.corpus import Corpus
from judgebook.web import pages, search_index
from judgebook.web.app import STATIC, create_app
from judgebook.web.html import Html
from judgebook.web.searching import NoResults
from judgebook.web.urls import ExportUrls, file_slug, section_path

MARKER = ".judgebook-export"


class ExportError(Exception):
    """The target folder cannot take an export."""


@dataclass(frozen=True)
class ExportResult:
    out_dir: Path
    pages: int
    seconds: float
    index_bytes: int
    index_items: int


def export_site(corpus: Corpus, out_dir: str | Path,
                progress: Callable[[str], None] | None = None) -> ExportResult:
    started = time.perf_counter()
    out = _prepare(Path(out_dir))
    env = _environment(corpus)
    site = _Site(out, env, Html(corpus, ExportUrls()))
    say = progress or (lambda _msg: None)
    missing = pages.missing_sources(corpus)
    site.write("index.html", "home.html", docs=pages.documents(corpus), newest=corpus.newest_cr(),
               counts={k: len(corpus.in_doc(k)) for k in corpus.documents}, autofocus=True,
               missing=missing, build_line=pages.build_line(missing))
    site.write("search.html", "static_search.html", autofocus=True)
    site.write("404.html", "404.html", missing="this page")
    for doc in corpus.documents.values():
        site.write(f"d/{file_slug(doc.key)}.html", "document.html", page=pages.document_page(corpus, doc.key),
                   doc=doc)
    _write_changes(site, corpus)
    site.write("rulings.html", "rulings.html", topics=pages.ruling_topics(corpus),
               cards=pages.ruling_cards(corpus), doc=corpus.documents.get("onr-rulings"))
    site.write("cards.html", "cards.html", cards=pages.card_list(corpus),
               doc=corpus.documents.get("cards"))
    say(f"writing {len(corpus.sections)} section pages")
    for n, sid in enumerate(corpus.sections, 1):
        page = pages.section_page(corpus, sid)
        assert page is not None     # sid comes from the corpus itself
        site.write(section_path(sid), "section.html", page=page, sec=page.section)
        if n % 2000 == 0:
            say(f"  {n} pages")
    stats = _write_assets(out, corpus, site.html)
    (out / MARKER).write_text("judgebook static export\n", "utf-8")
    return ExportResult(out, site.count, time.perf_counter() - started, stats.bytes, stats.items)


def _prepare(out: Path) -> Path:
    """An empty folder to write into; a previous export there is replaced, anything else refused."""
    if out.exists():
        if not out.is_dir():
            raise ExportError(f"{out} exists and is not a folder")
        if any(out.iterdir()):
            if not (out / MARKER).exists():
                raise ExportError(f"{out} is not empty and holds no previous export: "
                                  "choose an empty or new folder")
            shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    return out


def _environment(corpus: Corpus):
    """The app's Jinja environment (same templates, filters and settings)."""
    class _NoSearch:   # the export never searches on the server side
        def search(self, *a, **k):
            return NoResults()

        def complete(self, *a, **k):
            return []
    return create_app(corpus, searcher=_NoSearch()).jinja_env


class _Site:
    def __init__(self, out: Path, env, html: Html):
        self.out, self.env, self.html, self.count = out, env, html, 0
        self.pairs: frozenset[tuple[str, str]] = frozenset()
        self._made: set[Path] = set()

    def write(self, rel: str, template: str, **context) -> None:
        urls = ExportUrls(rel)
        ctx = {"urls": urls, "h": self.html.at(urls), "q": "", "has_replay": False,
               "autofocus": False, **context}
        target = self.out / rel
        if target.parent not in self._made:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made.add(target.parent)
        target.write_text(self.env.get_template(template).render(ctx), "utf-8")
        self.count += 1


def _write_changes(site: _Site, corpus: Corpus) -> None:
    """changes/index.html (the two newest versions) and one page per pair of versions."""
    versions = corpus.cr_versions()
    pairs = pages.version_pairs(corpus)
    logs = pages.changelogs(corpus)
    default = (versions[-2].key, versions[-1].key) if len(versions) >= 2 else ("", "")
    jobs = [("changes/index.html", *default)]
    jobs += [(f"changes/{file_slug(x.key)}--{file_slug(y.key)}.html", x.key, y.key) for x, y in pairs]
    for rel, a, b in jobs:
        site.write(rel, "changes.html", versions=versions, pairs=pairs, a=a, b=b,
                   result=pages.compare(corpus, a, b) if a else None, logs=logs, only="")


def _write_assets(out: Path, corpus: Corpus, html: Html) -> search_index.IndexStats:
    shutil.copytree(STATIC, out / "static")
    shutil.copy(STATIC / "sw.js", out / "sw.js")
    shutil.copy(STATIC / "manifest.webmanifest", out / "manifest.webmanifest")
    js, stats = search_index.build(corpus, section_path, html.doc_short)
    (out / "search-index.js").write_text(js, "utf-8")
    return stats
