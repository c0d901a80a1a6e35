"""Spelling correction for words that found nothing exact.

Whoosh's fuzzy terms count a swap of two neighbouring letters as two edits, so
"brian" is as far from "brain" as from "bring". Here a swap is one edit
(optimal string alignment distance), and the candidates come from the
index's own vocabulary: the backend hands us (word, document frequency) pairs.
"""
from __future__ import annotations

from collections.abc import Iterable

MIN_LENGTH = 3        # "ab" has too many neighbours to guess from
MAX_LENGTH = 24       # longer "words" are noise, not typos


def max_edits(word: str) -> int:
    return 1 if len(word) <= 5 else 2


def transpositions(word: str) -> list[str]:
    """Every spelling of `word` with two neighbouring letters swapped."""
    return [word[:i] + word[i + 1] + word[i] + word[i + 2:]
            for i in range(len(word) - 1) if word[i] != word[i + 1]]


def distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insert, delete, substitute, swap neighbours."""
    if a == b:
        return 0
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def fuzzable(word: str) -> bool:
    return MIN_LENGTH <= len(word) <= MAX_LENGTH and word.isalpha()


def best(word: str, candidates: Iterable[tuple[str, int]]) -> str | None:
    """The closest candidate (fewest edits, then most documents), if close enough."""
    limit = max_edits(word)
    scored = []
    for cand, freq in candidates:
        if cand == word:
            continue
        d = distance(word, cand)
        if d <= limit:
            scored.append((d, -freq, cand))
    return min(scored)[2] if scored else None
