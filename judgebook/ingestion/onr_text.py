"""Text clean-up shared by the three parts of the 1996 Netrunner file.

The file is a PDF/HTML conversion: markdown bold (`**ice**`), strike marks
(`~~...~~`), dead links (`[Caryatid](#)`) and paragraphs broken across a blank
line mid-sentence ("Now we" / "are ready"). Era vocabulary (bits, data forts)
is left alone: that is the document's language, bridged by search synonyms.
"""
from __future__ import annotations

import re

from judgebook import symbols
from judgebook.ingestion.blocks import Block

LINK = re.compile(r"\[([^\]]+)\]\(#\)")
TERMINAL = re.compile(r"[.!?:)\"'’”»*]$")


def link_targets(text: str) -> list[str]:
    """Names of the dead `[Name](#)` links in a raw paragraph."""
    return [m.group(1).strip() for m in LINK.finditer(text)]


def clean(text: str) -> str:
    text = LINK.sub(r"\1", text)
    text = text.replace("**", "").replace("~~", "")
    text = re.sub(r"[ \t]+", " ", text)
    return symbols.normalise(text).strip()


def block_text(block: Block) -> str:
    """A block's lines: list items stay one per line, wrapped prose is joined."""
    lines = [ln.strip() for ln in block.lines]
    if len(lines) > 1 and any("\t" in ln for ln in lines):      # a table: rows stay rows
        return "\n".join(" | ".join(c.strip() for c in ln.split("\t")) for ln in lines)
    if len(lines) > 1 and any(re.match(r"^(-|\d+[.)])\s*", ln) for ln in lines[1:]):
        return "\n".join(lines)
    return " ".join(lines)


def mends(prev: str, nxt: str) -> bool:
    """True when `nxt` continues a sentence that a page break cut after `prev`."""
    return (bool(prev) and not TERMINAL.search(prev.rstrip()) and nxt[:1].islower()
            and not is_caps_heading(prev))


def join_broken(blocks: list[Block]) -> list[Block]:
    """Merge blocks split mid-sentence by a page break ("three types of" / "damage: ...")."""
    out: list[Block] = []
    for b in blocks:
        if out and mends(block_text(out[-1]), b.lines[0].strip()):
            prev = out[-1]
            out[-1] = Block(prev.lines + b.lines, prev.start, b.end)
        else:
            out.append(b)
    return out


def is_caps_heading(line: str) -> bool:
    """A CAPITALISED heading line ("GAME ESSENTIALS", "TRACE ATTEMPT PROTOCOL - OVERVIEW")."""
    s = line.strip()
    letters = re.sub(r"[^A-Za-z]", "", s)
    return len(letters) >= 3 and letters.isupper() and not s.startswith(("-", "@"))
