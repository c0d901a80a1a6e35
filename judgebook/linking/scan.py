"""Longest-match scanning of a token sequence, shared by term and card linking.

At each token the longest candidate that fits wins and the scan jumps past it,
so a name inside a longer name ("Data Fort" in "Data Fort Reclamation") is
never a hit of its own. What "fits" differs (stemmed last word for terms,
capitals for common-word card names) and is the caller's predicate.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def longest_matches(count: int, candidates: Callable[[int], Iterable[T]],
                    length: Callable[[T], int],
                    fits: Callable[[int, T], bool]) -> list[tuple[T, int, int]]:
    """(candidate, first token, last token) for each match, left to right, non-overlapping.

    Among candidates of equal length the first one offered wins.
    """
    hits, i = [], 0
    while i < count:
        fitting = (c for c in sorted(candidates(i), key=lambda c: -length(c))
                   if i + length(c) <= count and fits(i, c))
        hit = next(fitting, None)
        if hit is None:
            i += 1
            continue
        n = length(hit)
        hits.append((hit, i, i + n - 1))
        i += n
    return hits


_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})


def gap(text: str, end: int, start: int) -> str:
    """What separates two words besides spaces and hyphens: "" for "paid ability" and
    "Mushin-no-Shin", "," for "paid, abilities"; curly quotes read as straight ones."""
    between = text[end:start]
    mark = "".join(between.split()).translate(_QUOTES).replace("-", "")
    return mark + "¶" if "\n\n" in between else mark   # a paragraph break separates like punctuation


def joined(text: str, end: int, start: int) -> bool:
    """Do two words read as one phrase? Only spaces (or a hyphen) between them: never a
    sentence's or clause's punctuation ("been paid, abilities" is not a "paid ability")."""
    return gap(text, end, start) == ""
