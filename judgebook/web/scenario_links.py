"""Links to the shipped scenarios from other pages: a rule's page (the scenarios whose timelines cite it)
and the search page (scenarios by title). Two template globals, so the pages' routes stay as they are;
the data comes from `scenario_refs` (citations cached, never replayed per request)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, has_app_context, url_for

from judgebook.store import scenario_refs
from judgebook.web import table_session as ts
from judgebook.web.app import state
from judgebook.web.routes_replay import scenarios_dir
from judgebook.web.session_link import SessionLinkError, pack

bp = Blueprint("scenario_links", __name__)


@dataclass(frozen=True)
class ScenarioLink:
    title: str
    path: str           # under rules_source/scenarios/
    href: str | None    # its replay page, else the play view of its text; None when neither can show it


def _link(ref: scenario_refs.ScenarioRef, folder: Path) -> ScenarioLink:
    if ref.name is not None:
        return ScenarioLink(ref.title, ref.path, url_for("replay.scenario", name=ref.name))
    try:
        text = (folder / ref.path).read_text(encoding="utf-8")
        return ScenarioLink(ref.title, ref.path, url_for("table.play", s=pack(text)))
    except (OSError, UnicodeDecodeError, SessionLinkError):
        return ScenarioLink(ref.title, ref.path, None)


@bp.app_template_global()
def scenarios_citing(anchor: str | None) -> list[ScenarioLink]:
    """The shipped scenarios whose timelines cite `anchor` (none on the static site: it has no replay)."""
    if not anchor or not has_app_context():
        return []
    folder = scenarios_dir()
    gen = state().corpus.generation
    index = scenario_refs.citations(folder, ts.card_data(), Path(gen).parent if gen is not None else None)
    return [_link(ref, folder) for ref in index.citing(anchor)]


@bp.app_template_global()
def scenarios_matching(query: str) -> list[ScenarioLink]:
    """The shipped scenarios whose titles hold every word of `query`."""
    if not query or not has_app_context():
        return []
    folder = scenarios_dir()
    return [_link(ref, folder) for ref in scenario_refs.search(scenario_refs.titles(folder), query)]


@bp.app_template_global()
def scenario_at_table(path: str) -> str | None:
    """The play view of a shipped scenario without a replay page of its own (real/, standard/): a card
    page links its scenarios there. None outside the server or when the file cannot be packed."""
    if not has_app_context():
        return None
    folder = scenarios_dir().resolve()
    file = (folder / path).resolve()
    if not file.is_relative_to(folder) or file.suffix != ".yaml":
        return None
    try:
        return url_for("table.play", s=pack(file.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, SessionLinkError):
        return None


__all__ = ["ScenarioLink", "bp", "scenario_at_table", "scenarios_citing", "scenarios_matching"]
