"""A table session as a file to download: the scenario with its legal decisions and an `expect` block
that holds, so that `judgebook replay FILE --check` accepts it wherever it is saved."""
from __future__ import annotations

import dataclasses
from typing import Any

import yaml

from judgebook.engine.driver.script import Outcome, replay
from judgebook.engine.errors import ScenarioError
from judgebook.engine.scenario.verdict import check
from judgebook.engine.state import queries as q
from judgebook.scenario_text import plain
from judgebook.web.session_parse import parse_text
from judgebook.web.table_session import EXPECT_HEAD, Session, with_decisions


def download(s: Session) -> str:
    """The session as a scenario file `judgebook replay --check` accepts: its legal decisions, and an
    `expect` block that holds — the scenario's own while its replay still meets it, else what the replay
    of these decisions reaches (checked here before it is written)."""
    base = dataclasses.replace(s.scenario, decisions=s.scenario.decisions[: s.used])
    out = replay(base)
    if base.expect is not None and not check(base, out):
        return with_decisions(s, s.legal, expect=None)
    for block in _expectations(out):
        text = with_decisions(s, s.legal, expect=block)
        try:
            sc = parse_text(text)
        except ScenarioError:
            continue
        if not check(sc, replay(sc)):
            return text
    return with_decisions(s, s.legal, expect="# no expectation holds for this replay (it stops: see the page)\n")


def _expectations(out: Outcome) -> list[str]:
    """Candidate `expect` blocks for a replay's outcome, the fullest first."""
    if not out.states or out.limit is not None:
        return []
    g = out.final
    state = {side: {"credits": g.player(side).credits, "score": q.agenda_points(g, side),
                    "hand": len(g.zone(f"{side}.hand"))} for side in ("corp", "runner")}
    state["runner"].update(tags=g.runner.tags, core_damage=g.runner.core_damage)
    state["corp"]["bad_publicity"] = g.corp.bad_publicity
    body: dict[str, Any] = {}
    if out.error is not None:
        body["error"] = {"rule": out.error.rule}
    else:
        if g.winner:
            body["winner"] = g.winner
        body["state"] = state
    runs = [dict(f.event.fields) for st in out.states for f in st.history if f.event.name == "run_ends"]
    full = dict(body, run={"server": runs[-1].get("server"), "successful": bool(runs[-1].get("successful"))}) \
        if runs and "error" not in body else None

    def block(data: dict[str, Any]) -> str:
        return EXPECT_HEAD + yaml.safe_dump({"expect": plain(data)}, sort_keys=False, allow_unicode=True,
                                            default_flow_style=None, width=10**6)
    return [block(b) for b in (full, body) if b]


__all__ = ["download"]
