"""Cards gaining or losing abilities and subtypes, and abilities given to other cards.

Constructs of the card language added for the Standard pool (round 3, family `abilities`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations
