"""A short excerpt of a hit's text around the matched words, highlighted.

HTML-escaped throughout; the only markup is our `<mark>`. Tokens are compared
through the caller's `key` (the backend's stemmer), so "costs" marks "cost".
A cheap regex over the words' first letters finds candidates first, so long
texts (a rulebook page) cost little.
"""
from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from functools import lru_cache

WIDTH = 240          # characters of excerpt
LEAD = 60            # context kept before the first match
_TOKEN = re.compile(r"\w+(?:[.']\w+)*")


@lru_cache(maxsize=4096)
def flatten(body: str) -> str:
    """One line: snippets run across paragraph breaks."""
    return " ".join(body.split())


def candidate_pattern(keys: Iterable[str]) -> re.Pattern | None:
    stems = sorted({k[:4] for k in keys if k}, key=len, reverse=True)
    if not stems:
        return None
    return re.compile(r"\b(?:" + "|".join(re.escape(s) for s in stems) + r")\w*(?:\.\w+)*",
                      re.I)


def matches(body: str, pattern: re.Pattern | None, wanted: set[str],
            key: Callable[[str], str]) -> list[tuple[int, int]]:
    if pattern is None:
        return []
    return [m.span() for m in pattern.finditer(body) if key(m.group(0)) in wanted]


def snippet(body: str, spans: list[tuple[int, int]], width: int = WIDTH) -> tuple[str, str]:
    """(html, text) of an excerpt of `body` around `spans`, matches in <mark>."""
    if not body:
        return "", ""
    start = _window_start(body, spans[0][0] if spans else 0)
    end = min(len(body), start + width)
    if end < len(body):
        cut = body.rfind(" ", start, end)
        end = cut if cut > start + width // 2 else end
    inside = [(a, b) for a, b in spans if a >= start and b <= end]
    pre = "\u2026" if start > 0 else ""
    post = "\u2026" if end < len(body) else ""
    return pre + _marked(body, start, end, inside) + post, pre + body[start:end] + post


def _window_start(body: str, first: int) -> int:
    if first <= LEAD:
        return 0
    start = body.rfind(" ", 0, first - LEAD)
    return start + 1 if start >= 0 else 0


def _marked(body: str, start: int, end: int, spans: list[tuple[int, int]]) -> str:
    out, pos = [], start
    for a, b in spans:
        out.append(html.escape(body[pos:a]))
        out.append("<mark>" + html.escape(body[a:b]) + "</mark>")
        pos = b
    out.append(html.escape(body[pos:end]))
    return "".join(out)
