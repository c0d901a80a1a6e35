"""The web app: `create_app()` wires the corpus, search and blueprints together.

Routes hold no logic: they ask `judgebook.web.pages` what a page shows and
render a template from `templates/`. Blueprints are registered from a list,
so another part (the replay page) adds itself with one line.
"""
from __future__ import annotations

import importlib
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import Flask, current_app, g, render_template, request
from flask.json.provider import DefaultJSONProvider

from judgebook.store import paths
from judgebook.store.corpus import Corpus
from judgebook.store.generations import Lease, current_target
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
    ("judgebook.web.routes_table", "bp"),
    ("judgebook.web.routes_builder", "bp"),
    ("judgebook.web.scenario_links", "bp"),
    ("judgebook.web.bank_links", "bp"),
    ("judgebook.web.rule_map_page", "bp"),
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
    generation: str = ""        # the generation's folder name; "" for a corpus given in memory
    built: float = 0.0          # when it was built (seconds since the epoch), for Last-Modified


class Live:
    """The app's State, following `index/current` when the app was opened from an index.

    Every request asks `current()`, which costs one readlink. When `current`
    names a new generation, the first request to notice opens it (holding a
    lease, so no build deletes it) while the other threads go on answering
    from the old one; then the old lease is kept one more switch for requests
    still in flight and dropped after that.
    """

    def __init__(self, initial: State, root: Path | None = None, lease: Lease | None = None,
                 target: str | None = None, logger: Any = None):
        self._state = initial
        self._root = root
        self._target = target
        self._leases = [lease] if lease else []
        self._lock = threading.Lock()
        self._failed: str | None = None
        self._logger = logger
        self.cache = PageCache()

    def __getattr__(self, name: str) -> Any:
        # `extensions["judgebook"].corpus` and the like read the current State
        return getattr(self.current(), name)

    def current(self) -> State:
        if self._root is None:
            return self._state
        target = current_target(self._root)
        if target is None or target == self._target or target == self._failed:
            return self._state
        if self._lock.acquire(blocking=False):      # the others keep serving the old generation
            try:
                if target != self._target:
                    self._switch(target)
            finally:
                self._lock.release()
        return self._state

    def _switch(self, target: str) -> None:
        assert self._root is not None
        gen = self._root / target
        lease = Lease(gen)
        try:
            new = open_state(Corpus.load_generation(gen.resolve()), None)
        except (OSError, ValueError) as exc:
            lease.release()
            self._failed = target      # retried when `current` moves again
            if self._logger:
                self._logger.warning("index generation %s could not be opened: %s", target, exc)
            return
        self._state, self._target = new, target
        self.cache.clear()
        self._leases.append(lease)
        while len(self._leases) > 2:
            self._leases.pop(0).release()


def open_state(corpus: Corpus, searcher: Searcher | None) -> State:
    """A State over `corpus`, with its search reader opened now rather than by a first visitor."""
    gen = getattr(corpus, "generation", None)
    whoosh_dir = Path(gen) / paths.WHOOSH if gen is not None else None
    built = 0.0
    if gen is not None:
        try:
            built = (Path(gen) / paths.BUILD_INFO).stat().st_mtime
        except OSError:
            built = 0.0
    st = State(corpus=corpus, searcher=searcher or IndexSearcher(whoosh_dir), html=Html(corpus, Urls()),
               generation=Path(gen).name if gen is not None else "", built=built)
    if searcher is None and whoosh_dir is not None:
        st.searcher.complete("a", 1)        # opens (and keeps) this process's reader
    return st


def state() -> State:
    found = g.get("judgebook_state")
    if found is None:
        found = g.judgebook_state = current_app.extensions["judgebook"].current()
    return found


def create_app(corpus: Corpus | None = None, index_root: str | Path | None = None,
               searcher: Searcher | None = None, follow: bool | None = None) -> Flask:
    """The app over `corpus` (default: the current build under `index_root`).

    Opened from an index, the app follows `index/current` (`follow`, default on):
    a rebuild is served without a restart.
    """
    root = lease = target = None
    if corpus is None:
        root = paths.index_root(index_root)
        target = current_target(root)
        gen = paths.current_generation(root)
        lease = Lease(gen)
        try:
            corpus = Corpus.load_generation(gen)
        except BaseException:
            lease.release()
            raise
    app = Flask(__name__, template_folder=str(TEMPLATES), static_folder=str(STATIC))
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    app.json = SafeJSONProvider(app)
    live = Live(open_state(corpus, searcher), root if follow is not False else None, lease, target,
                app.logger)
    app.extensions["judgebook"] = live
    configure_jinja(app.jinja_env)
    for module, attr in BLUEPRINTS:
        # Imported here, not at the top: the route modules import this module's `state`.
        app.register_blueprint(getattr(importlib.import_module(module), attr))
    app.before_request(_from_cache)
    app.after_request(_to_cache)
    app.after_request(_security_headers)
    _error_pages(app)

    @app.context_processor
    def _globals():
        st = state()
        return {"urls": st.html.urls, "h": st.html, "q": "",
                "has_replay": "replay.index" in current_app.view_functions}
    return app


def warm_up(app: Flask) -> list[tuple[str, int, float]]:
    """Answer, once, the pages whose first view loads something (the scenario citations of a rule page, the
    card pool behind a card page, the search reader, the whole-document and changes pages), so that no
    visitor pays for it: `judgebook serve` calls this in each process before it accepts connections.
    Returns (path, status, seconds) per page; the answers stay in the page cache."""
    corpus = app.extensions["judgebook"].current().corpus
    versions = corpus.cr_versions()
    newest = versions[-1].key if versions else None
    firsts: dict[str, str] = {}
    for sec in corpus.sections.values():
        firsts.setdefault(sec.doc, sec.id)
    wanted = ["/", "/search?q=run", "/api/search?q=run", "/api/complete?q=ru", "/cards", "/changes"]
    wanted += [f"/s/{quote(firsts[key], safe=':')}" for key in (newest, "cards") if key in firsts]
    if newest:
        wanted.append(f"/d/{newest}")
    done = []
    client = app.test_client()
    for path in wanted:
        t = time.perf_counter()
        status = client.get(path).status_code
        done.append((path, status, time.perf_counter() - t))
    # A card page lists the scenarios naming the card: an index of every scenario, read on the first one
    # (a card with no definition and outside the pool shows no panel, so no page above is sure to read it).
    # Imported lazily: card_pool pulls in the card definitions and the comparator, which only the warm-up and
    # the card pages need; importing this module (every CLI command) stays light.
    from judgebook.web import card_pool
    t = time.perf_counter()
    with app.test_request_context("/"):
        card_pool.scenarios_using("")
    done.append(("(card pages' scenario index)", 200, time.perf_counter() - t))
    return done


# ---- caching by generation ------------------------------------------------------------
# A page depends only on the index generation and the request, so the generation
# is its validator: ETag and Last-Modified let a browser revalidate for nothing,
# and an in-process cache answers a repeated request without rendering it again.
# The replay pages also read scenario files and uploads, so they are left out.
UNCACHED = ("/replay", "/static/")


def _cacheable() -> bool:
    return (request.method in ("GET", "HEAD") and not request.path.startswith(UNCACHED)
            and request.endpoint is not None and request.endpoint != "static")


def _etag(st: State) -> str:
    return st.generation


def _from_cache():
    if not _cacheable():
        return None
    st = state()
    tag = _etag(st)
    if not tag:
        return None
    if request.if_none_match and tag in request.if_none_match:
        resp = current_app.response_class(status=304)
        _validators(resp, st)
        g.judgebook_cached = True
        return resp
    hit = current_app.extensions["judgebook"].cache.get(tag, request.full_path)
    if hit is None:
        return None
    g.judgebook_cached = True
    status, mimetype, body = hit
    resp = current_app.response_class(body, status=status, mimetype=mimetype)
    _validators(resp, st)
    resp.headers["X-Cache"] = "hit"
    return resp


def _to_cache(response):
    if not _cacheable() or g.get("judgebook_cached"):
        return response
    st = state()
    tag = _etag(st)
    if not tag or response.status_code not in (200, 404) or response.direct_passthrough:
        return response
    if "Set-Cookie" in response.headers:
        return response
    _validators(response, st)
    current_app.extensions["judgebook"].cache.put(tag, request.full_path, response.status_code,
                                                  response.mimetype, response.get_data())
    return response


def _validators(response, st: State) -> None:
    response.set_etag(_etag(st))
    if st.built:
        response.last_modified = datetime.fromtimestamp(int(st.built), UTC)
    # revalidate every time: a rebuild must show at once, and a 304 is nearly free
    response.headers["Cache-Control"] = "no-cache"


class PageCache:
    """Rendered bodies by (generation, path with query), least recently used out first."""

    # An entry may be as large as a whole document's page (CR 26.03's is 2.3 MB and took 0.4 s to render on
    # every request while the limit was 2 MiB: issue 23's load bench spent most of its CPU there).
    def __init__(self, max_bytes: int = 96 * 1024 * 1024, max_entry: int = 8 * 1024 * 1024):
        self._items: OrderedDict[tuple[str, str], tuple[int, str, bytes]] = OrderedDict()
        self._bytes = 0
        self._max_bytes, self._max_entry = max_bytes, max_entry
        self._lock = threading.Lock()

    def get(self, tag: str, key: str) -> tuple[int, str, bytes] | None:
        with self._lock:
            hit = self._items.get((tag, key))
            if hit is not None:
                self._items.move_to_end((tag, key))
            return hit

    def put(self, tag: str, key: str, status: int, mimetype: str, body: bytes) -> None:
        if len(body) > self._max_entry:
            return
        with self._lock:
            old = self._items.pop((tag, key), None)
            if old is not None:
                self._bytes -= len(old[2])
            self._items[(tag, key)] = (status, mimetype, body)
            self._bytes += len(body)
            while self._bytes > self._max_bytes:
                _, (_, _, dropped) = self._items.popitem(last=False)
                self._bytes -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0


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
