"""For a reference to a rule the (older) document does not hold, the same rule in the newest CR.

Numbers changed between NISEI 1.6 and the NSG versions, so a number alone
never picks the alternative. We know what the missing rule is called from the
old document's own table of contents (CR 1.6 lists every section of chapters
5-11 although its text stops at 4.1.2), and follow those titles down the
newest CR's tree: the chapter with the same title, then within it the section
with the same title, and so on (singular/plural folded), so "10.1 General"
is matched inside "Additional Rules", never to another chapter's "General".
A reference deeper than the contents go ("rule 10.4.2c") is offered the
newest CR's section that holds it ("10.4 Damage"): the rule's own wording is
not in the old file, so guessing the rule inside would be a guess.
"""
from __future__ import annotations

import re

from judgebook.model import Section
from judgebook.numbers import normalise_number, outer_numbers
from judgebook.text import fold


def _same_title(a: str, b: str) -> bool:
    fa, fb = fold(a), fold(b)
    return fa == fb or fa.rstrip("s") == fb.rstrip("s")


def _match(candidates: list[Section], title: str, number: str) -> Section | None:
    hits = [s for s in candidates if s.title and s.kind != "example" and _same_title(s.title, title)]
    hits.sort(key=lambda s: (normalise_number(s.number or "") != number, s.order))
    return hits[0] if hits else None


def _descendants(newest: list[Section], root: Section) -> list[Section]:
    """Everything under `root`, by the sections' parent ids."""
    below: dict[str, list[Section]] = {}
    for s in newest:
        below.setdefault(s.parent, []).append(s)
    out, stack = [], list(below.get(root.id, ()))
    while stack:
        s = stack.pop()
        out.append(s)
        stack.extend(below.get(s.id, ()))
    return out


def offer(newest: list[Section], outline: dict[str, str], number: str) -> tuple[str, ...]:
    """Ids of the newest CR's counterpart to `number` (or its enclosing section), else ()."""
    scope = [s for s in newest if not s.parent]          # the chapters
    found = None
    for level in outer_numbers(number):
        title = outline.get(level)
        if not title:
            break
        match = _match(scope, title, level)
        if match is None:
            return ()       # the newest CR has no section of that name: nothing to offer
        found, scope = match, _descendants(newest, match)
    return (found.id,) if found is not None else ()


def context_sentence(text: str, start: int, end: int) -> str:
    """The sentence around a span, minus the span itself."""
    left = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start)) + 1
    right = min((i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0), default=len(text))
    return text[left:start] + text[end:right]


# ---- tables of contents ----------------------------------------------------
_TOC_LINE = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?[ \t]+(\S.*?)(?:[ \t]+\d+)?\s*$")


def toc_titles(text: str) -> dict[str, str]:
    """Number -> title from a document's table of contents.

    The contents run from a "Table of Contents" line until a number comes
    round again (the body starts with the first chapter once more). Titles
    wrapped onto a second line are joined.
    """
    lines = text.splitlines()
    starts = [i for i, l in enumerate(lines) if l.strip().lower() == "table of contents"]
    if not starts:
        return {}
    out: dict[str, str] = {}
    last = None
    for line in lines[starts[-1] + 1:]:
        stripped = line.strip()
        m = _TOC_LINE.match(line)
        if m:
            if m.group(1) in out:
                break
            last = m.group(1)
            out[last] = m.group(2).strip()
        elif last and stripped and not stripped.startswith("-") and not stripped.lower().startswith(
                ("acknowledg", "summary of", "table of")):
            out[last] += " " + stripped
    return out
