"""The static site's search index: a compact inverted index shipped as a JS file.

Chromium will not fetch JSON from `file://`, so the index is a script that
assigns `window.JB_INDEX`. Postings are gap-encoded base-36 numbers; words in
more than a quarter of all sections are left out (they rank nothing).
"""
from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from judgebook.model import Section
from judgebook.text import deaccent  # as the JS side folds queries

SNIPPET_CHARS = 110
COMMON_SHARE = 0.25
_WORD = re.compile(r"\d+(?:\.\d+)*[a-z]?|[a-z][a-z0-9']*")
STOP = frozenset("a an and are as at be by for from has have if in is it its of on or that the their "
                 "then this to was were when which with".split())


def tokens(text: str) -> list[str]:
    return [t.strip("'") for t in _WORD.findall(deaccent(text)) if t.strip("'") not in STOP]


@dataclass(frozen=True)
class IndexStats:
    items: int
    terms: int
    bytes: int


def build(sections: Iterable[Section], href: Callable[[Section], str],
          doc_label: Callable[[str], str], doc_rank: dict[str, int],
          family: Callable[[Section], str] = lambda s: s.id) -> tuple[str, IndexStats]:
    """(JavaScript source, stats) of the index over `sections`.

    `family` names the rule a section is a version of (its newest version's id),
    so the page can show one hit per rule, not one per CR version.
    """
    families: dict[str, int] = {}
    docs: list[str] = []
    doc_pos: dict[str, int] = {}
    items, postings = [], defaultdict(list)
    for i, sec in enumerate(sections):
        if sec.doc not in doc_pos:
            doc_pos[sec.doc] = len(docs)
            docs.append(doc_label(sec.doc))
        fam = families.setdefault(family(sec), len(families))
        title = sec.title or ("Example" if sec.kind == "example" else "")
        items.append([href(sec), doc_pos[sec.doc], sec.number, title,
                      _snippet(sec.text), doc_rank.get(sec.doc, 99), fam])
        for tok in set(tokens(f"{sec.number} {sec.title} {sec.text}")):
            postings[tok].append(i)
    limit = max(50, int(len(items) * COMMON_SHARE))
    terms = {t: _encode(p) for t, p in postings.items() if len(p) <= limit}
    payload = {"v": 1, "docs": docs, "items": items, "terms": terms}
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    # no "<" at all: the index can never close or open a tag, wherever it is pasted
    js = "window.JB_INDEX=" + text.replace("<", "\\u003c") + ";\n"
    return js, IndexStats(len(items), len(terms), len(js.encode()))


def _snippet(text: str) -> str:
    flat = " ".join(re.sub(r"<[^>]*>", " ", text).split())
    return flat if len(flat) <= SNIPPET_CHARS else flat[:SNIPPET_CHARS].rsplit(" ", 1)[0] + "…"


def _encode(ids: list[int]) -> str:
    out, prev = [], 0
    for i in ids:
        out.append(_b36(i - prev))
        prev = i
    return ",".join(out)


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = digits[r] + s
        if not n:
            return s
