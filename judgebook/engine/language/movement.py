"""Moving cards and the Runner: swaps with cards outside play, hosting by install or from access, moving the Runner.

Constructs of the card language added for the Standard pool (round 3, family `moving`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations
