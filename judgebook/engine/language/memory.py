"""What the game remembers: servers attacked, cards accessed, actions taken, restrictions on timing.

Constructs of the card language added for the Standard pool (round 3, family `history`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations
