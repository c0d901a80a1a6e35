"""The JSON API for tools and bots, and its documentation page."""
from __future__ import annotations

from flask import Blueprint, jsonify, render_template

from judgebook.model import to_dict
from judgebook.web.app import state
from judgebook.web.params import int_arg, plausible_id, text_arg

bp = Blueprint("api", __name__)


def _error(message: str, status: int):
    return jsonify({"error": message}), status


@bp.get("/api")
def docs():
    return render_template("api.html")


@bp.get("/api/search")
def search():
    q = text_arg("q")
    filters = {f: text_arg(f, 40) for f in ("doc", "era", "kind") if text_arg(f, 40)}
    if not q:
        return _error("missing parameter q", 400)
    resp = state().searcher.search(q, int_arg("limit", 10, 1, 100), filters)
    return jsonify({"query": q, "total": resp.total, "message": resp.message,
                    "did_you_mean": resp.did_you_mean,
                    "answer": answer.to_json() if (answer := getattr(resp, "answer", None)) is not None else None,
                    "results": [_hit_json(h) for h in resp.results]})


def _hit_json(hit) -> dict:
    if hasattr(hit, "to_json"):
        return hit.to_json()
    return {k: getattr(hit, k, "") for k in ("id", "doc", "number", "title", "kind", "score")}


@bp.get("/api/complete")
def complete():
    q = text_arg("q", 100)
    found = state().searcher.complete(q, int_arg("limit", 8, 1, 20)) if q else []
    return jsonify([{"text": c.text, "kind": c.kind, "id": c.id, "label": c.label or c.text}
                    for c in found])


@bp.get("/api/section/<path:sid>")
def section(sid: str):
    corpus = state().corpus
    sec = corpus.get(sid) if plausible_id(sid) else None
    if sec is None:
        return _error(f"no section {sid[:100]!r}", 404)
    return jsonify(_section_json(corpus, sec))


@bp.get("/api/r/<path:ref>")
def by_number(ref: str):
    corpus = state().corpus
    ref = ref.strip("/")
    doc, _, number = ref.rpartition("/")
    sec = corpus.lookup(f"{doc}:{number}" if doc else number) if plausible_id(ref) else None
    if sec is None:
        return _error(f"no rule {ref[:100]!r}", 404)
    return jsonify(_section_json(corpus, sec))


def _section_json(corpus, sec) -> dict:
    out = to_dict(sec)
    out["url"] = state().html.urls.section(sec.id)
    out["breadcrumb"] = [{"id": s.id, "number": s.number, "title": s.title}
                         for s in corpus.breadcrumb(sec.id)]
    out["backlinks"] = [to_dict(b) for b in corpus.backlinks(sec.id)]
    out["history"] = [{"id": s.id, "doc": s.doc, "number": s.number} for s in corpus.history(sec.id)]
    return out
