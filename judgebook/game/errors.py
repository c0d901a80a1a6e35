"""Errors: a malformed scenario or card file, and a decision the rules refuse.

The classes are shared with the YAML loader (`judgebook.engine.yamlnodes`), so a
line-numbered load error and a language error are caught the same way.
"""

from __future__ import annotations

from judgebook.engine.errors import IllegalDecision, ScenarioError

__all__ = ["EngineLimit", "IllegalDecision", "ScenarioError"]


class EngineLimit(Exception):
    """The game could not go on: a loop the rules end, or the step budget."""

    def __init__(self, message: str, rule: str):
        self.rule = rule
        super().__init__(message)
