"""Rule references written in prose: "See section 8.5", "rules 1.16.10b and 1.16.11".

Only numbers introduced by a referring word count (see, rule, section, step,
chapter), plus the numbers chained to them by commas, "and", "or",
"through", "to" or an en dash; a bare number elsewhere ("version 1.6", "2 credits") is not a
reference. The glossary's parenthesised FFG step numbers ("step (3.1)") are
found separately and never read as CR rule numbers.
"""
from __future__ import annotations

import re

from judgebook.model import LINK_REF, Link

FFG_STEP = "FFG timing-structure step"

_NUM = r"\d+(?:\.\d+)*[a-z]?(?![\w])"
_NUM_DOTTED = r"\d+(?:\.\d+)+[a-z]?(?![\w])"
# "section 5" alone is a chapter reference, so bare integers are allowed after
# section/chapter words; after "see" a number must be dotted to avoid "see 2 cards".
_HEAD = re.compile(
    rf"\b(?:(?:rules?|sections?|steps?|chapters?)\s+(?P<a>{_NUM})"
    rf"|see\s+(?:also\s+)?(?P<b>{_NUM_DOTTED}))", re.I)
_CHAIN = re.compile(rf"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through|to)\s+|\s*–\s*)(?P<n>{_NUM})")
_FFG_STEP = re.compile(r"\((\d+(?:\.\d+)+)\)")


def find_references(text: str) -> list[Link]:
    """Every rule reference in `text`, unresolved, with its span."""
    links: list[Link] = []
    for m in _HEAD.finditer(text):
        group = "a" if m.group("a") else "b"
        links.append(_link(text, m.start(group), m.end(group)))
        pos = m.end()
        while (c := _CHAIN.match(text, pos)):
            links.append(_link(text, c.start("n"), c.end("n")))
            pos = c.end()
    return links


def find_ffg_steps(text: str) -> list[Link]:
    """The glossary's "(3.1)" step numbers: FFG's run timing, not CR rules."""
    return [Link(kind=LINK_REF, ref=m.group(1), text=m.group(0), start=m.start(), end=m.end(),
                 reason=FFG_STEP) for m in _FFG_STEP.finditer(text)]


def _link(text: str, start: int, end: int) -> Link:
    number = text[start:end]
    return Link(kind=LINK_REF, ref=number.lower(), text=number, start=start, end=end)
