"""A scripted replay: a session that follows the scenario's decisions, taking the stated defaults where none
fits (the policy is `session.Session.follow`). The comparison with `expect` is `scenario.verdict.check`."""

from __future__ import annotations

from judgebook.engine.driver.session import RUN_PHASES as RUN_PHASES
from judgebook.engine.driver.session import Outcome as Outcome
from judgebook.engine.driver.session import Session
from judgebook.engine.driver.session import as_decision as as_decision
from judgebook.engine.driver.session import check_names as check_names
from judgebook.engine.scenario.load import Scenario
from judgebook.engine.scenario.verdict import check as check  # the verdict's old home, still imported by tests


def replay(sc: Scenario, stop_when_used: bool = False) -> Outcome:
    """The scripted replay. `stop_when_used` (a session at the judge's table): stop at the first choice point
    after the last decision instead of taking defaults from there on; `ended` is then "decisions used"."""
    return Session.begin(sc).follow(sc.decisions, stop_when_used).outcome()
