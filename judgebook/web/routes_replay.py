"""The replay page (issue 5, Interfaces): pick or upload a judge scenario and step through it.

`/replay` lists the scenarios of `rules_source/scenarios/` and offers an
upload form; `/replay/<name>` shows one scenario's timeline. Every step is
rendered server-side (the page works without JavaScript); `replay.js` turns
the list into a stepper (Prev/Next, arrow keys, `#step-N` kept in sync).

Citations are resolved by the CLI's own `rule_ref` (store.citations; newest loaded CR version
that has the anchor, else "not in the loaded documents"), so the page and
`judgebook replay` always agree. An uploaded scenario is replayed and shown,
never stored.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, abort, current_app, render_template, request
from werkzeug.exceptions import RequestEntityTooLarge

from judgebook.engine import live_mismatch
from judgebook.engine.driver.script import replay
from judgebook.engine.driver.timeline import timeline as make_timeline
from judgebook.engine.errors import ScenarioError
from judgebook.engine.scenario.load import parse
from judgebook.engine.scenario.verdict import check
from judgebook.engine.timing.structures import FORCED_ENCOUNTER, STRUCTURES
from judgebook.engine.yamlnodes import load_text
from judgebook.linking.rule_map import known
from judgebook.scenario_text import with_decisions
from judgebook.store import paths
from judgebook.store.citations import rule_ref, timeline_data
from judgebook.web.app import state
from judgebook.web.board_view import step_boards
from judgebook.web.session_link import MAX_TEXT, SessionLinkError
from judgebook.web.session_parse import parse_text

bp = Blueprint("replay", __name__)

MAX_UPLOAD = 32 * 1024          # bytes of scenario text (the app refuses bodies over 64 KiB)
MAX_UPLOAD_STEPS = 2000         # an upload cannot raise options.max_steps above the default
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$")


# ---- where scenarios live ---------------------------------------------------------
def scenarios_dir() -> Path:
    return Path(current_app.config.get("JUDGEBOOK_SCENARIOS")
                or paths.project_root() / "rules_source" / "scenarios")


def cards_dir() -> Path | None:
    d = Path(current_app.config.get("JUDGEBOOK_CARDS")
             or paths.project_root() / "rules_source" / "cards")
    return d if d.is_dir() else None


def scenario_files() -> dict[str, Path]:
    """name (file stem) -> path; names are looked up here, never joined onto a path."""
    d = scenarios_dir()
    if not d.is_dir():
        return {}
    return {p.stem: p for p in sorted(d.glob("*.yaml")) if p.is_file() and _NAME.match(p.stem)}


_HEADLINES: dict[tuple, dict[str, str]] = {}


def _headline(path: Path) -> dict[str, str]:
    """Title and source of a scenario file, read cheaply (no replay); a broken file still lists."""
    try:
        st = path.stat()
    except OSError:
        return {"name": path.stem, "title": path.stem, "source": ""}
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _HEADLINES:
        if len(_HEADLINES) > 4096:
            _HEADLINES.clear()
        _HEADLINES[key] = _read_headline(path)
    return _HEADLINES[key]


def _read_headline(path: Path) -> dict[str, str]:
    try:
        node = load_text(path.read_text(encoding="utf-8"), path.name)
    except (OSError, UnicodeDecodeError, ScenarioError):
        node = None
    node = node if isinstance(node, dict) else {}
    title = node.get("title") if isinstance(node.get("title"), str) else ""
    source = node.get("source") if isinstance(node.get("source"), str) else ""
    return {"name": path.stem, "title": title or path.stem, "source": " ".join(str(source).split())}


# ---- routes ------------------------------------------------------------------------
@bp.get("/replay")
def index():
    return _index_page()


def _index_page(error: dict | None = None, text: str = "", status: int = 200):
    items = [_headline(p) for p in scenario_files().values()]
    return render_template("replay.html", items=items, error=error, text=text,
                           max_upload=MAX_UPLOAD, max_text=MAX_TEXT), status


@bp.get("/replay/<name>")
def scenario(name: str):
    path = scenario_files().get(name) if _NAME.match(name) else None
    if path is None:
        abort(404)
    text = path.read_text(encoding="utf-8", errors="replace")
    view = build_view(text, file=f"rules_source/scenarios/{path.name}", trusted=True)
    view["name"] = name
    view["start"] = _step_arg(len(view["steps"]))
    view["table"] = _table_links(text) if view["title"] else None
    return render_template("replay_timeline.html", v=view), 200


def _table_links(text: str) -> dict[str, str] | None:
    """Links that open a scenario at the judge's table: with no decision taken, or after its own."""
    from judgebook.web.routes_table import play_url  # lazy: routes_table imports this module (pictures)

    try:
        return {"start": play_url(with_decisions(text, [])), "end": play_url(text)}
    except (SessionLinkError, ValueError, yaml.YAMLError):   # too large to share, or not a mapping
        return None


@bp.post("/replay")
def upload():
    try:
        text = _uploaded_text()
    except RequestEntityTooLarge:
        return _index_page({"message": f"the upload is too large: a scenario can be at most "
                                       f"{MAX_UPLOAD // 1024} KiB"}, status=413)
    if text is None:
        return _index_page({"message": "choose a scenario file (.yaml) or paste its text"}, status=400)
    if len(text.encode("utf-8")) > MAX_UPLOAD:
        return _index_page({"message": f"the upload is too large: a scenario can be at most "
                                       f"{MAX_UPLOAD // 1024} KiB"}, status=413)
    view = build_view(text, file="upload", trusted=False)
    if view["error"] and not view["steps"]:
        # malformed: nothing to replay; show the message and give the text back to fix
        return _index_page(view["error"], text=text, status=400)
    view["name"] = None
    view["start"] = 1
    return render_template("replay_timeline.html", v=view), 400 if view["error"] else 200


def _uploaded_text() -> str | None:
    """The scenario text of a POST: a file field `scenario` or a text field `text`."""
    f = request.files.get("scenario")
    if f is not None and f.filename:
        raw = f.stream.read(MAX_UPLOAD + 1)
        if len(raw) > MAX_UPLOAD:
            raise RequestEntityTooLarge()
        return raw.decode("utf-8", errors="replace")
    text = request.form.get("text", "")
    return text if text.strip() else None


def _step_arg(count: int) -> int:
    try:
        n = int(request.args.get("step", 1))
    except (TypeError, ValueError):
        n = 1
    return max(1, min(count, n)) if count else 1


# ---- the page's data ---------------------------------------------------------------
def build_view(text: str, file: str, trusted: bool) -> dict[str, Any]:
    """Parse and replay `text`; everything the template shows, errors included (never raises)."""
    corpus = state().corpus
    view: dict[str, Any] = {"title": "", "source": "", "notes": "", "steps": [], "outcome": None,
                            "error": None, "expect": None, "uploaded": not trusted,
                            "file": file, "lines": text.splitlines()[:2000]}
    try:
        # a shipped scenario reads the worked examples' library, as `judgebook replay` does; an upload (a
        # download from the judge's table, say) the table's: the project's whole library, with statistics
        sc = parse(text, file=file, library=cards_dir()) if trusted else parse_text(text, file)
        if not trusted and sc.max_steps > MAX_UPLOAD_STEPS:
            sc = dataclasses.replace(sc, max_steps=MAX_UPLOAD_STEPS)
    except ScenarioError as exc:
        view["error"] = error_view(exc, corpus)
        return view
    except Exception as exc:  # a parser bug must not become a 500 (RecursionError on deep nesting, ...)
        current_app.logger.exception("scenario %s could not be read", file)
        view["error"] = {"message": f"the scenario could not be read ({type(exc).__name__})"}
        return view
    view.update(title=sc.title, source=" ".join(str(sc.source or "").split()), notes=sc.notes or "")
    try:
        outcome = replay(sc)
        misses = check(sc, outcome)
    except Exception as exc:  # an engine bug: say so plainly
        current_app.logger.exception("replay of %s failed", file)
        view["error"] = {"message": f"internal engine error while replaying this scenario: "
                                    f"{type(exc).__name__}: {exc} (please report it)"}
        return view
    data = timeline_data(make_timeline(sc, outcome, misses, known(live_mismatch(sc.mismatch, misses))), corpus)
    view["steps"] = data["steps"]
    if outcome.error is not None:
        view["error"] = error_view(outcome.error, corpus)
        if view["error"]["file"] is None:   # a scripted decision's line: in the scenario itself
            view["error"]["file"] = file
    else:
        view["outcome"] = data["outcome"]
    steps = view["steps"]
    boards = step_boards(steps, outcome)
    drawn: list[Any] = []
    for i, (step, picture) in enumerate(zip(steps, pictures([s["path"] for s in steps]), strict=True)):
        step["picture"] = picture
        # the timing picture where the step is somewhere new; the board after the last step of a decision
        # that changed it (the stepper shows the latest one beside every step)
        step["new_place"] = i == 0 or step["path"] != steps[i - 1]["path"]
        k = step.get("state")
        last = i + 1 == len(steps) or steps[i + 1].get("state") != k
        changed = k is not None and (k == 0 or not drawn or boards[k] != drawn[-1])
        step["board"] = boards[k] if last and changed else None
        if step["board"] is not None:
            drawn.append(step["board"])
    if sc.expect is not None:
        view["expect"] = {"matches": not misses, "misses": misses, "error_rule": sc.expect.error_rule}
    return view


def error_view(exc: ScenarioError, corpus) -> dict[str, Any]:
    out: dict[str, Any] = {"message": exc.message, "field": exc.field, "line": exc.line,
           "file": exc.file if exc.file and not str(exc.file).startswith("/") else _rel(exc.file)}
    rule = getattr(exc, "rule", None)
    if rule:
        out["rule"] = rule_ref(corpus, rule)
    return out


def _rel(file: str | None) -> str | None:
    """A library card file is named relative to the project, never by its absolute path."""
    if not file:
        return file
    try:
        return str(Path(file).resolve().relative_to(paths.project_root()))
    except ValueError:
        return Path(file).name


# ---- "where in the timing structure": a picture per step -----------------------------
_BY_LABEL = {s.label: s for s in (*STRUCTURES, FORCED_ENCOUNTER)}


def pictures(step_paths: list[list[str]]) -> list[list[dict]]:
    """For each step, the levels of the timing structures it is in, outermost first.

    A level is {"structure", "phases": [(label, current)], "steps": [(label, current)]}.
    A phase can hold two steps of the same label (the Runner's two "paid ability
    window"s); the one at or after the previous step's position in that phase is
    taken, else the last one (the loop back to the action window).
    """
    last: dict[tuple, int] = {}
    out = []
    for path in step_paths:
        levels: list[dict[str, Any]] = []
        i = 0
        prefix: tuple[str, ...] = ()
        while i < len(path):
            struct = _BY_LABEL.get(path[i])
            if struct is None:
                levels.append({"structure": path[i], "phases": [], "steps": []})
                prefix += (path[i],)
                i += 1
                continue
            i += 1
            phase = next((p for p in struct.phases if i < len(path) and p.label == path[i]), None)
            level: dict[str, Any] = {"structure": struct.label,
                     "phases": [(p.label, p is phase) for p in struct.phases] if len(struct.phases) > 1 else [],
                     "steps": []}
            if phase is not None:
                i += 1
                key = prefix + (struct.label, phase.label)
                hits = [k for k, s in enumerate(phase.steps) if i < len(path) and s.label == path[i]]
                current = None
                if hits:
                    i += 1
                    after = [k for k in hits if key in last and k >= last[key]]
                    current = after[0] if after else hits[-1]
                    last[key] = current
                level["phase"] = phase.label
                level["steps"] = [(s.label, k == current) for k, s in enumerate(phase.steps)]
                prefix = key + ((phase.steps[current].label,) if current is not None else ())
            else:
                prefix += (struct.label,)
            levels.append(level)
        out.append(levels)
    return out


__all__ = ["bp", "build_view", "error_view", "pictures"]
