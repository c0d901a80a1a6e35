"""The judge's table (issue 10): play a scenario choice by choice in the browser.

    GET  /replay/play?s=PACKED            the play view of a session (the board, where the game is, the
                                          open choice point, the timeline, undo, share, download)
    GET  /replay/play?s=..&pick=N         take option N (with its fields num-N, x-N, using-N): 303 to
                                          the new session; &undo=K keeps the first K decisions
    POST /replay/play                     a scenario text (field `scenario`: text or a file): 303 to it
    GET  /replay/play.yaml?s=PACKED       the session as a scenario file (a download)

A session is a scenario text packed into the link (`session_link`); nothing is stored. Every request
is read as an upload is (bounded YAML, the table's card library, steps capped): a broken link, a
malformed scenario or a refused decision is a page that says so — never a 5xx.
"""
from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from judgebook.engine import ScenarioError
from judgebook.scenario_text import flow
from judgebook.web import board_form
from judgebook.web import table_session as ts
from judgebook.web.app import state
from judgebook.web.routes_replay import pictures
from judgebook.web.session_download import download as download_text
from judgebook.web.session_link import MAX_PACKED, MAX_TEXT, SessionLinkError, pack, unpack

bp = Blueprint("table", __name__)

MAX_USING = 20       # cards named in one `using:` choice


def play_url(text: str) -> str:
    return url_for("table.play", s=pack(text))


def _problem(message: str, status: int, text: str = "") -> tuple[str, int]:
    return render_template("table_open.html", error={"message": message}, text=text,
                           max_text=MAX_TEXT), status


@bp.get("/replay/play")
def play():
    packed = request.args.get("s", "")
    if not packed:
        return _problem("open a session: paste a scenario, upload a file, or follow a shared link", 400)
    try:
        text = unpack(packed)
    except SessionLinkError as exc:
        return _problem(str(exc), 400)
    session = ts.read(text, state().corpus)
    if "pick" in request.args or "undo" in request.args:
        return _move(session)
    return _page(session, packed)


def _move(session: ts.Session):
    """A pick or an undo: the new session's link (303), or the page with why it cannot be taken."""
    try:
        if session.scenario is None:
            raise ts.PickError("this session cannot be read, so nothing can be chosen in it")
        if "undo" in request.args:
            text = ts.undo_to(session, _int_arg("undo"))
        else:
            n = _int_arg("pick")
            using = [u for u in request.args.getlist(f"using-{n}") if u][:MAX_USING]
            text = ts.pick(session, n, number=request.args.get(f"num-{n}", "")[:12],
                           x=request.args.get(f"x-{n}", "")[:12], using=using)
        return redirect(play_url(text), 303)
    except ts.PickError as exc:
        return _page(session, pack(session.text), pick_error=str(exc))
    except SessionLinkError as exc:
        return _page(session, pack(session.text), pick_error=str(exc))


def _int_arg(name: str) -> int:
    raw = request.args.get(name, "")
    if not re.fullmatch(r"\d{1,6}", raw):
        raise ts.PickError(f"{name}: expected a whole number")
    return int(raw)


def _page(session: ts.Session, packed: str, pick_error: str | None = None):
    view = _view(session, packed)
    view["pick_error"] = pick_error
    status = 400 if session.error or pick_error else 200
    return render_template("table.html", v=view), status


def _view(session: ts.Session, packed: str) -> dict[str, Any]:
    sc = session.scenario
    out = session.outcome
    steps = session.steps
    where = pictures([list(s["path"]) for s in steps] + ([list(session.point.path)] if session.point else []))
    view: dict[str, Any] = {
        "s": packed, "title": sc.title if sc else "", "source": " ".join(str(sc.source or "").split()) if sc else "",
        "notes": sc.notes if sc else "", "has_expect": bool(sc and sc.expect is not None),
        "error": session.error, "steps": steps, "board": session.board, "last": session.last,
        "point": session.point, "where": where[-1] if where else [],
        "recent_warnings": _recent_warnings(steps, len(out.states) - 1 if out else -1),
        "board_rules": _board_rules(session),
        "decisions": [(k, _flow(d)) for k, d in enumerate(session.decisions, 1)], "used": session.used,
        "undo_last": max(0, min(session.used, len(session.decisions)) - 1),
        "ended": out.ended if out else "", "winner": out.final.winner if out and out.states else None,
        "win_reason": out.final.win_reason if out and out.states else None,
        "share": request.host_url.rstrip("/") + url_for("table.play", s=packed),
        "download": url_for("table.download", s=packed), "lines": session.text.splitlines()[:2000],
    }
    return view


def _board_rules(session: ts.Session) -> tuple[str, ...]:
    """What the board breaks of the rules of the game, said at the table as well until the first decision: the
    builder says it before Play, but a board played anyway, opened from a file or from a link would start
    without a word. A board the builder cannot show (inline card definitions...) is not reviewed here."""
    if session.scenario is None or session.used or session.outcome is None or not session.outcome.states:
        return ()
    from judgebook.web.routes_builder import the_review  # lazy: routes_builder imports this module

    try:
        board, _ = board_form.from_scenario(session.text)
    except ScenarioError:
        return ()
    return tuple(note.text for note in the_review(board).broken)


def _recent_warnings(steps: list[dict[str, Any]], state: int) -> list[dict[str, Any]]:
    """The warnings of the steps the last decision led to (those of the last `state`), shown beside what it
    changed (issue 19 §4): each once, with the steps it stands at ({"steps": [n, ...], "warning": {...}})."""
    grouped: dict[tuple[Any, ...], dict[str, Any]] = {}
    for s in steps:
        if s.get("state") != state:
            continue
        for w in s.get("warnings", ()):
            grouped.setdefault(tuple(sorted(w.items())), {"steps": [], "warning": w})["steps"].append(s["n"])
    return list(grouped.values())


def _flow(decision: Any) -> str:
    return flow(decision)


@bp.post("/replay/play")
def open_text():
    try:
        text = _posted_text()
    except RequestEntityTooLarge:
        return _problem(f"the scenario is too large: at most {MAX_TEXT // 1024} KiB", 413)
    if text is None:
        return _problem("choose a scenario file (.yaml) or paste its text", 400)
    try:
        return redirect(play_url(text), 303)
    except SessionLinkError as exc:
        return _problem(str(exc), 413, text=text[:MAX_TEXT])


def _posted_text() -> str | None:
    """The scenario of a POST: the field `scenario`, a file or a text."""
    f = request.files.get("scenario")
    if f is not None and f.filename:
        raw = f.stream.read(MAX_TEXT + 1)
        if len(raw) > MAX_TEXT:
            raise RequestEntityTooLarge()
        return raw.decode("utf-8", errors="replace")
    text = request.form.get("scenario", "")
    if len(text.encode("utf-8")) > MAX_TEXT:
        raise RequestEntityTooLarge()
    return text if text.strip() else None


@bp.get("/replay/play.yaml")
def download():
    try:
        text = unpack(request.args.get("s", ""))
    except SessionLinkError as exc:
        return _problem(str(exc), 400)
    session = ts.read(text, state().corpus)
    if session.scenario is None:
        return _page(session, request.args.get("s", ""))
    body = download_text(session)
    name = re.sub(r"[^a-z0-9]+", "-", session.scenario.title.lower()).strip("-")[:60] or "session"
    return Response(body, mimetype="text/yaml", headers={
        "Content-Disposition": f'attachment; filename="{name}.yaml"'})


__all__ = ["MAX_PACKED", "bp", "play_url"]
