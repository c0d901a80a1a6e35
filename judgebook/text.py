"""Text folding and slugs: the one way judgebook compares words and makes ids.

`deaccent` is the base: lower case, accents off, punctuation kept (the static
export's JavaScript does the same to queries, so its index is built with it).
`fold` is what every comparison of names and words uses: `deaccent`, then
apostrophes dropped ("Runner's" -> "runners") and every other run of
punctuation or spaces made one space.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_APOSTROPHES = re.compile(r"['\u2019]")
_NON_WORD = re.compile(r"[^\w]+")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def deaccent(text: str) -> str:
    """Lower case without accents, punctuation kept: "Mirāju's" -> "miraju's"."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=1 << 17)   # linking folds every word of every section: words repeat
def fold(text: str) -> str:
    """Case, accents, apostrophes and punctuation folded: "Tori Hanzō's [Net]" -> "tori hanzos net"."""
    return " ".join(_NON_WORD.sub(" ", _APOSTROPHES.sub("", deaccent(text))).split())


def slug(title: str) -> str:
    """An id fragment: ASCII letters and digits joined by hyphens ("Run: Access" -> "run-access").

    Deliberately not `fold`: section ids must stay what earlier builds made
    (bookmarks and links point at them), and those dropped accented letters.
    """
    return _NOT_SLUG.sub("-", title.lower()).strip("-") or "untitled"
