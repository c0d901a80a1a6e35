"""Rule numbers: the one reader of "1.16.10b" in all its spellings.

Part of the model layer: parsers, linking, the store, search and the web all
compare rule numbers, so the reading lives below all of them.
"""
from __future__ import annotations

import re

# "1.16.10b", "1.16.10.b", "1.16.10 b", "r1.16.10b", "rule 6.9.2", "§10.3", "step 6.9.4b".
# One or two digits, then groups of at most three: a year ("1996") is not a rule number.
_NUMBER = re.compile(
    r"^(?:(?:rules?|r|sections?|sec|steps?|§)\s*)?"
    r"(\d{1,2}(?:\.\d{1,3})*)(?:(?:\.|\s)?([a-z]))?\.?$", re.I)
# A number already in canonical form, as `number_key` sorts it.
_CANONICAL = re.compile(r"^(\d+(?:\.\d+)*)([a-z]?)$")


def normalise_number(text: str) -> str | None:
    """A rule number in canonical form ("1.16.10b"), or None if `text` is not one."""
    m = _NUMBER.match(text.strip())
    if not m:
        return None
    return m.group(1) + (m.group(2) or "").lower()


def number_key(number: str) -> tuple[int | str, ...]:
    """Sort key for canonical rule numbers: "1.10.5d" -> (1, 10, 5, 'd'); () for anything else.

    Comparable across depths: "1.10" sorts before "1.10.5" and "1.9" before "1.10".
    """
    m = _CANONICAL.match(number)
    if not m:
        return ()
    parts: list[int | str] = [int(p) for p in m.group(1).split(".")]
    if m.group(2):
        parts.append(m.group(2))
    return tuple(parts)


def outer_numbers(number: str) -> list[str]:
    """The number and every number containing it: "10.4.2c" -> ["10", "10.4", "10.4.2", "10.4.2c"]."""
    m = _CANONICAL.match(number)
    if not m:
        return []
    parts = m.group(1).split(".")
    out = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return out + [number] if m.group(2) else out
