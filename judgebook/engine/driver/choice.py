"""The choice point's vocabulary lives in `state/choice.py` (it is a field of the `Game` value, so it sits
below the rules and the driver); this name stays for the drivers' callers until they import from there."""

from judgebook.engine.state.choice import ANY_NUMBER, PAYMENT, ChoicePoint, Decision, Option, Refused, decision

__all__ = ["ANY_NUMBER", "PAYMENT", "ChoicePoint", "Decision", "Option", "Refused", "decision"]
