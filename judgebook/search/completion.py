"""Prefix completion for a search box: rule numbers, titles, defined terms, card names."""
from __future__ import annotations

import re

from judgebook.search.querygrammar import Filters
from judgebook.search.schema import Completion, fold


def complete_numbers(reader, text: str, limit: int) -> list[Completion]:
    prefix = re.sub(r"^(?:r|rule)\s*", "", text.lower()).replace(" ", "")
    numbers = sorted(reader.numbers_with_prefix(prefix), key=_number_order)[:limit]
    out = []
    for number in numbers:
        hits = reader.by_number(number, Filters())
        if not hits:
            continue
        h = min(hits, key=lambda x: x.member(number=number).rank)
        m = h.member(number=number)
        out.append(Completion(text=number, kind="number", id=m.id, doc=m.doc,
                              label=" ".join(p for p in (number, h.title) if p) + f" \u2014 {m.doc}"))
    return out


def _number_order(number: str) -> tuple:
    return tuple((int(p), "") if p.isdigit() else (int(p[:-1] or 0), p[-1])
                 for p in re.findall(r"\d+[a-z]?", number))


def complete_keys(reader, prefix: str, limit: int) -> list[Completion]:
    out: list[Completion] = []
    seen: set[str] = set()
    for key, hits in reader.keys_with_prefix(prefix, limit):
        best = min(hits, key=lambda h: (h.kind not in ("card", "glossary-entry"), h.rank, h.id))
        text = next((c for c in best.completions if fold(c) == key), key)
        if fold(text) in seen:
            continue
        seen.add(fold(text))
        kind = ("card" if best.kind == "card" else
                "term" if any(fold(d) == key for d in best.defines) else "title")
        m = best.members[0]
        out.append(Completion(text=text, kind=kind, id=m.id, doc=m.doc,
                              label=f"{text} \u2014 {m.doc}"))
    # Terms and rule titles before card names: the box is for rules first.
    out.sort(key=lambda c: (("term", "title", "card").index(c.kind), len(c.text), c.text.lower()))
    return out[:limit]
