"""The rebuilt replay engine: one immutable state value and a step function.

    start(scenario)          -> Game            the state before anything happened
    choices(game)            -> ChoicePoint | None   who decides now, legal and refused options
    advance(game, decision)  -> (Game, events)  the next state and the steps it produced

A scripted replay (`driver.script.replay`), the interactive terminal player and
the web table are drivers over these three. Undo is the previous state.
What a driver shows of a state (the numbers as modified, where a run is, each
ice's subroutines and what happened to them, an option in a judge's words) is
`driver.view`; reading a state's cards and zones is `state.queries`; setting up
a board is `scenario`. Drivers import these names from here, not from past it.

    replay_warnings(steps, game, known) -> each step's warnings: a "not yet" rule it cites, a partial card
                                           it touches, a known mismatch (issue 19 §4)

This package imports nothing from the rest of judgebook.
"""

from judgebook.engine.driver.script import Outcome
from judgebook.engine.driver.step import advance, choices, start
from judgebook.engine.driver.view import (
    ALLOTTED,
    OptionWords,
    RunAt,
    SubroutineMark,
    link,
    memory_limit,
    option_words,
    run_at,
    strength,
    subroutine_marks,
    unused_memory,
)
from judgebook.engine.errors import IllegalDecision, ScenarioError
from judgebook.engine.language.cards import CardDef
from judgebook.engine.language.nrdb import CardSource, card_source
from judgebook.engine.scenario.board import all_specs
from judgebook.engine.scenario.load import setup
from judgebook.engine.state import queries
from judgebook.engine.state.choice import ChoicePoint, Decision, Option, Refused
from judgebook.engine.state.model import SIDES, Game, Side
from judgebook.engine.step_warnings import Known, StepWarning, live_mismatch, replay_warnings, step_warnings

__all__ = [
    "ALLOTTED",
    "SIDES",
    "CardDef",
    "CardSource",
    "ChoicePoint",
    "Decision",
    "Game",
    "IllegalDecision",
    "Known",
    "Option",
    "OptionWords",
    "Outcome",
    "Refused",
    "RunAt",
    "ScenarioError",
    "Side",
    "StepWarning",
    "SubroutineMark",
    "advance",
    "all_specs",
    "card_source",
    "choices",
    "link",
    "live_mismatch",
    "memory_limit",
    "option_words",
    "queries",
    "replay_warnings",
    "run_at",
    "setup",
    "start",
    "step_warnings",
    "strength",
    "subroutine_marks",
    "unused_memory",
]
