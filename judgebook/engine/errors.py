"""Errors the engine raises: a malformed scenario, or a decision that breaks a rule.

Both carry the scenario field and line so a judge can find the culprit; an
illegal decision also carries the anchor of the rule it breaks.
"""
from __future__ import annotations


class ScenarioError(Exception):
    """The scenario file is malformed: `field` (a dotted path) at `line`."""

    def __init__(self, message: str, field: str = "", line: int | None = None,
                 file: str | None = None):
        self.message = message
        self.field = field
        self.line = line
        self.file = file
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:" if self.file else ""
        where += f"line {self.line}: " if self.line else ""
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{self.message}"


class IllegalDecision(ScenarioError):
    """A scripted decision the rules do not allow; `rule` is the anchor it breaks."""

    def __init__(self, message: str, rule: str, field: str = "", line: int | None = None,
                 file: str | None = None):
        self.rule = rule
        super().__init__(message, field, line, file)

    def __str__(self) -> str:
        return f"{super().__str__()} (rule {self.rule})"


class EngineLimit(Exception):
    """The game could not go on: a loop the rules end, or the step budget."""

    def __init__(self, message: str, rule: str):
        self.rule = rule
        super().__init__(message)
