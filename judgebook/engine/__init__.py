"""The timing engine: replays judge scenarios through the timing structures of CR 26.03.

A library of its own: it imports nothing from judgebook's store, search, web or
ingestion. See LANGUAGE.md for the scenario and ability language.
"""
from judgebook.engine.errors import IllegalDecision, ScenarioError
from judgebook.engine.expect import check_expectations
from judgebook.engine.replay import replay
from judgebook.engine.scenario import Scenario, load_library, load_scenario, parse_scenario
from judgebook.engine.timeline import Outcome, Step, Timeline

__all__ = ["IllegalDecision", "ScenarioError", "Scenario", "Timeline", "Step", "Outcome",
           "replay", "load_scenario", "parse_scenario", "load_library", "check_expectations"]
