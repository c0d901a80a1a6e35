"""The rule map on the web (issue 19 §2): `/engine/rules` lists every anchor of CR 26.03 with what the replay
engine does with it and counts by chapter (`/engine/rules.json` the same as `judgebook engine rules --json`),
and a CR 26.03 rule's page says whether the engine enforces it (`rule_enforcement`, a template global).
The data is the one view model of `judgebook.linking.rule_map`."""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, has_app_context, jsonify, render_template, request, url_for

from judgebook.linking.rule_map import CR_VERSION, STATUSES, RuleMap, RuleRow, rule_map
from judgebook.store import scenario_refs
from judgebook.web.routes_replay import scenarios_dir
from judgebook.web.scenario_links import scenario_at_table

bp = Blueprint("rule_map", __name__)
DOC = f"cr-{CR_VERSION}"


@dataclass(frozen=True)
class ScenarioLink:
    path: str             # under rules_source/scenarios/
    title: str
    href: str | None      # its replay page, else the play view; None when neither can show it


@dataclass(frozen=True)
class Enforcement:
    row: RuleRow
    scenarios: tuple[ScenarioLink, ...]


def _titles() -> dict[str, str]:
    return {ref.path: ref.title for ref in scenario_refs.titles(scenarios_dir())}


def _links(row: RuleRow, titles: dict[str, str]) -> tuple[ScenarioLink, ...]:
    out = []
    for path in row.scenarios:
        name = path.removesuffix(".yaml")
        href = url_for("replay.scenario", name=name) if "/" not in path else scenario_at_table(path)
        out.append(ScenarioLink(path, titles.get(path, path), href))
    return tuple(out)


@bp.app_template_global()
def rule_enforcement(sec: object) -> Enforcement | None:
    """What the replay engine does with this CR 26.03 rule (None for other documents and unmapped anchors)."""
    if not has_app_context() or getattr(sec, "doc", None) != DOC:
        return None
    row = rule_map().row(getattr(sec, "anchor", None))
    if row is None:
        return None
    return Enforcement(row, _links(row, _titles()) if row.status == "enforced" else ())


@bp.get("/engine/rules")
def page():
    status = request.args.get("status") or None
    if status is not None and status not in STATUSES:
        abort(404)
    whole = rule_map()
    titles = _titles()
    shown: RuleMap = whole.only(status)
    rows = [Enforcement(r, _links(r, titles)) for r in shown.rows]
    return render_template("rule_map.html", rows=rows, counts=whole.counts(), chapters=whole.by_chapter(),
                           statuses=STATUSES, status=status, doc=DOC, cr=CR_VERSION), 200


@bp.get("/engine/rules.json")
def data():
    return jsonify(rule_map().as_json())


__all__ = ["Enforcement", "ScenarioLink", "bp", "rule_enforcement"]
