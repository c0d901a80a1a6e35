"""Additional costs and costs that choose: trashing or forfeiting a chosen card, X costs paid in tags or
counters, costs with a choice.

Constructs of the card language added for the Standard pool (round 3, family `costs`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations
