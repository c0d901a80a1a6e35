"""The web app: `create_app()` wires the corpus, search and blueprints together.

Routes hold no logic: they ask `judgebook.web.pages` what a page shows and
render a template from `templates/`. Blueprints are registered from a list,
so another part (the replay page) adds itself with one line.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app, render_template, request
from flask.json.provider import DefaultJSONProvider

from judgebook.store import paths
from judgebook.store.corpus import Corpus
from judgebook.web.html import Html
from judgebook.web.searching import IndexSearcher, Searcher
from judgebook.web.urls import Urls

TEMPLATES = paths.project_root() / "templates"
STATIC = Path(__file__).parent / "static"

# (module, attribute) of each blueprint; every one is required.
BLUEPRINTS = [
    ("judgebook.web.routes_pages", "bp"),
    ("judgebook.web.routes_api", "bp"),
    ("judgebook.web.routes_replay", "bp"),
]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}


class SafeJSONProvider(DefaultJSONProvider):
    """JSON with <, > and & escaped, so no answer can be read as HTML by anything."""
    sort_keys = False

    def dumps(self, obj, **kwargs) -> str:
        text = super().dumps(obj, **kwargs)
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@dataclass
class State:
    corpus: Corpus
    searcher: Searcher
    html: Html


def state() -> State:
    return current_app.extensions["judgebook"]


def create_app(corpus: Corpus | None = None, index_root: str | Path | None = None,
               searcher: Searcher | None = None) -> Flask:
    """The app over `corpus` (default: the current build under `index_root`)."""
    whoosh_dir = None
    if corpus is None:
        corpus = Corpus.load(index_root)
    gen = getattr(corpus, "generation", None)
    if gen is not None:
        whoosh_dir = Path(gen) / paths.WHOOSH
    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder=str(STATIC))
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    app.json = SafeJSONProvider(app)
    urls = Urls()
    app.extensions["judgebook"] = State(
        corpus=corpus,
        searcher=searcher or IndexSearcher(whoosh_dir),
        html=Html(corpus, urls),
    )
    configure_jinja(app.jinja_env)
    for module, attr in BLUEPRINTS:
        # imported here, not at the top, because the route modules import `state` from
        # this module; a missing one fails loudly (no blueprint is optional)
        app.register_blueprint(getattr(importlib.import_module(module), attr))
    app.after_request(_security_headers)
    _error_pages(app)

    @app.context_processor
    def _globals():
        st = state()
        return {"urls": st.html.urls, "h": st.html, "q": "",
                "has_replay": "replay.index" in current_app.view_functions}
    return app


def configure_jinja(env) -> None:
    env.trim_blocks = True
    env.lstrip_blocks = True
    env.autoescape = True


def _security_headers(response):
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _error_pages(app: Flask) -> None:
    """Every error is a page offering a search (JSON under /api/), never a traceback."""
    def page(status: int, error: bool = False):
        if request.path.startswith("/api/"):
            from flask import jsonify
            return jsonify({"error": "not found" if status == 404 else f"error {status}"}), status
        return render_template("404.html", missing=request.path[:200], error=error), status

    for status in (400, 404, 405, 413, 414):
        app.register_error_handler(status, lambda _exc, status=status: page(status))

    def server_error(_exc):
        app.logger.exception("error serving %s", request.path[:200])
        return page(500, error=True)
    app.register_error_handler(500, server_error)
