"""Amounts the language lacked: X chosen by a player (bounded), break X subroutines, counts of servers and actions.

Constructs of the card language added for the Standard pool (round 3, family `amounts`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations
