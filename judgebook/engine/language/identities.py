"""Identities and the score area: flipping identities, cards scored as agendas, replaced draws.

Constructs of the card language added for the Standard pool (round 3, family `identities`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations
