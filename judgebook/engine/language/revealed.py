"""Cards remembered as a set: revealed or set-aside cards, a trashed card as a reference, a card type or name chosen.

Constructs of the card language added for the Standard pool (round 3, family `reveal`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations
