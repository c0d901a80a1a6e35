"""Small text helpers shared by the glossary, wiki and 1996 parsers.

A `Block` is a run of non-blank source lines with its 1-based line range, so
every parser can hand provenance through without counting lines itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Block:
    lines: tuple[str, ...]
    start: int          # 1-based line of the first line
    end: int            # 1-based line of the last line

    @property
    def text(self) -> str:
        return join_wrapped(self.lines)


def join_wrapped(lines) -> str:
    """Join wrapped lines with a space; a line ending in "non-" joins the next word directly."""
    out = ""
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if not out:
            out = line
        elif re.search(r"[A-Za-z]-$", out) and line[:1].islower():
            out += line
        else:
            out += " " + line
    return out


def paragraphs(lines: list[str], first_line: int = 1) -> list[Block]:
    """Split lines into blank-line separated blocks; `first_line` is the number of lines[0]."""
    blocks: list[Block] = []
    current: list[str] = []
    start = 0
    for i, line in enumerate(lines, first_line):
        if line.strip():
            if not current:
                start = i
            current.append(line)
        elif current:
            blocks.append(Block(tuple(current), start, i - 1))
            current = []
    if current:
        blocks.append(Block(tuple(current), start, start + len(current) - 1))
    return blocks


class IdAllocator:
    """Hands out unique ids: the second "stack" becomes "stack-2"."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def unique(self, base: str) -> str:
        n = self._seen.get(base, 0) + 1
        self._seen[base] = n
        return base if n == 1 else f"{base}-{n}"


def squeeze(text: str) -> str:
    """Collapse runs of spaces and tabs (not newlines) and trim each line."""
    lines = [re.sub(r"[ \t]+", " ", ln).strip() for ln in text.split("\n")]
    return "\n".join(lines).strip()
