"""The HTML pages."""
from __future__ import annotations

import re

from flask import Blueprint, abort, redirect, render_template, send_from_directory

from judgebook.web import card_pool, pages
from judgebook.web.app import STATIC, state
from judgebook.web.params import int_arg, plausible_id, text_arg

bp = Blueprint("pages", __name__)
FILTERS = ("doc", "era", "kind")


@bp.get("/")
def home():
    corpus = state().corpus
    missing = pages.missing_sources(corpus)
    return render_template("home.html", docs=pages.documents(corpus),
                           newest=corpus.newest_cr(), counts=_doc_counts(corpus), autofocus=True,
                           missing=missing, build_line=pages.build_line(missing))


def _doc_counts(corpus) -> dict[str, int]:
    return {key: len(corpus.in_doc(key)) for key in corpus.documents}


_RULE_NUMBER = re.compile(r"^\s*(?:rule\s+)?(\d{1,2}(?:\.\d{1,3}){1,3}[a-z]?)\s*$", re.I)


@bp.get("/search")
def search():
    q = text_arg("q")
    filters = {f: text_arg(f, 40) for f in FILTERS if text_arg(f, 40)}
    limit = int_arg("limit", 30, 1, 100)
    # a rule number typed and Enter: open that rule (the newest CR that has it), as a judge expects
    number = _RULE_NUMBER.match(q)
    if number and not filters:
        sec = state().corpus.lookup(number.group(1))
        if sec is not None:
            return redirect(state().html.urls.section(sec.id), code=303)
    response = state().searcher.search(q, limit, filters) if q else None
    return render_template("search.html", q=q, filters=filters, response=response,
                           facets=_facets(state().corpus), autofocus=not q)


def _facets(corpus) -> dict[str, list[str]]:
    docs = [d.key for d in pages.documents(corpus)]
    eras = sorted({d.era for d in corpus.documents.values() if d.era})
    kinds = sorted({s.kind for s in corpus.sections.values()})
    return {"doc": docs, "era": eras, "kind": kinds}


@bp.get("/s/<path:sid>")
def section(sid: str):
    if not plausible_id(sid):
        abort(404)
    page = pages.section_page(state().corpus, sid)
    if page is None:
        abort(404)
    return render_template("section.html", page=page, sec=page.section, panel=card_pool.card_panel(page.section))


@bp.get("/diff/<path:sid>")
def diff(sid: str):
    corpus = state().corpus
    if not plausible_id(sid) or corpus.get(sid) is None:
        abort(404)
    history = corpus.history(sid)
    ids = [s.id for s in history]
    a, b = text_arg("from", 300), text_arg("to", 300)
    if len(history) < 2:
        a = b = sid
    else:
        a = a if a in ids else ids[-2]
        b = b if b in ids else ids[-1]
    return render_template("diff.html", sec=corpus.get(sid), history=history,
                           old=corpus.get(a), new=corpus.get(b))


@bp.get("/r/<path:ref>")
def by_number(ref: str):
    corpus = state().corpus
    ref = ref.strip("/")
    if not plausible_id(ref):
        abort(404)
    doc, _, number = ref.rpartition("/")
    sec = corpus.lookup(f"{doc}:{number}" if doc else number)
    if sec is None:
        abort(404)
    return redirect(state().html.urls.section(sec.id), code=302)


@bp.get("/d/<doc>")
def document(doc: str):
    page = pages.document_page(state().corpus, doc)
    if page is None:
        abort(404)
    return render_template("document.html", page=page, doc=page.document)


@bp.get("/changes")
def changes():
    corpus = state().corpus
    versions = corpus.cr_versions()
    keys = [d.key for d in versions]
    a, b = text_arg("from", 40), text_arg("to", 40)
    if len(keys) >= 2:
        a = a if a in keys else keys[-2]
        b = b if b in keys else keys[-1]
    result = pages.compare(corpus, a, b) if a != b else None
    only = text_arg("only", 20)
    return render_template("changes.html", versions=versions, pairs=pages.version_pairs(corpus),
                           a=a, b=b, result=result, logs=pages.changelogs(corpus),
                           only=only if only in pages.CHANGE_KINDS else "")


@bp.get("/rulings")
def rulings():
    corpus = state().corpus
    return render_template("rulings.html", topics=pages.ruling_topics(corpus),
                           cards=pages.ruling_cards(corpus),
                           doc=corpus.documents.get("onr-rulings"))


@bp.get("/cards")
def cards():
    corpus = state().corpus
    return render_template("cards.html", cards=pages.card_list(corpus),
                           doc=corpus.documents.get("cards"), pool=card_pool.pool_page())


@bp.get("/sw.js")
def service_worker():
    resp = send_from_directory(STATIC, "sw.js", mimetype="text/javascript", max_age=0)
    resp.headers["Service-Worker-Allowed"] = "/"
    return resp


@bp.get("/manifest.webmanifest")
def manifest():
    return send_from_directory(STATIC, "manifest.webmanifest", mimetype="application/manifest+json")
