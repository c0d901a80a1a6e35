"""The rebuilt replay engine: one immutable state value and a step function.

    start(scenario)          -> Game            the state before anything happened
    choices(game)            -> ChoicePoint | None   who decides now, legal and refused options
    advance(game, decision)  -> (Game, events)  the next state and the steps it produced

A scripted replay (`driver.script.replay`), the interactive terminal player and
the web table are drivers over these three. Undo is the previous state.

    replay_warnings(steps, game, known) -> each step's warnings: a "not yet" rule it cites, a partial card
                                           it touches, a known mismatch (issue 19 §4)

This package imports nothing from the rest of judgebook.
"""

from judgebook.engine.driver.step import advance, choices, start
from judgebook.engine.errors import IllegalDecision, ScenarioError
from judgebook.engine.state.choice import ChoicePoint, Decision, Option, Refused
from judgebook.engine.state.model import Game
from judgebook.engine.step_warnings import Known, StepWarning, live_mismatch, replay_warnings, step_warnings

__all__ = [
    "ChoicePoint",
    "Decision",
    "Game",
    "IllegalDecision",
    "Known",
    "Option",
    "Refused",
    "ScenarioError",
    "StepWarning",
    "advance",
    "choices",
    "live_mismatch",
    "replay_warnings",
    "start",
    "step_warnings",
]
