"""Parser for the glossary (Jekyll markdown) -> `glossary` sections.

Each `# Heading` is an entry (kind `glossary-entry`). `##`/`###` headings are
sub-headings inside an entry, not entries of their own: the document's
alphabetical list is the `#` level ("Batch Effects" under "Choosing Cards",
"Step 1".."Step 7" under "Run"), so they stay paragraphs of the entry's text
and are listed in meta ("subheadings"). `{: .note-title }` blockquotes become
example children; `**Related**:` lines become `related` links.

One heading is fused into the previous entry's Related line
("**Related**: Abilities, Action Phase, Costs Action Phase" followed by the
text of an "Action Phase" entry): a Related line followed by more text before
the next heading has lost its heading; we recover it when the tail of the last
Related item is named by the first sentence that follows.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from judgebook import symbols
from judgebook.ingestion.blocks import IdAllocator, join_wrapped
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.glossary_html import html_to_text
from judgebook.model import LINK_RELATED, Link, Provenance, Section
from judgebook.text import fold, slug

_RELATED = re.compile(r"^\*\*Related\*\*:\s*(.*)$")
_ORDERED = re.compile(r"^(\d+)\.\s+(.*)$", re.S)
_BULLET = re.compile(r"^[-*]\s+(.*)$", re.S)
_HTML_BLOCK = re.compile(r"^<(table|ol|ul|div)\b", re.I)


@dataclass
class Chunk:
    kind: str                 # para | list | html | heading | example | related
    start: int                # 1-based source lines
    end: int
    lines: list[str] = field(default_factory=list)


@dataclass
class Entry:
    title: str
    line: int                 # line of the heading (or of the recovered text)
    chunks: list[Chunk]
    end: int
    recovered: bool = False


# ---------------------------------------------------------------- public

def parse(text: str, file: str, doc: str = "glossary") -> list[Section]:
    lines = text.split("\n")
    start = _body_start(lines, file)
    entries = _split_entries(lines, start, file)
    entries = _recover_fused(entries)
    return _sections(entries, file, doc)


# ---------------------------------------------------------------- document frame

def _body_start(lines: list[str], file: str) -> int:
    """Index of the first `# ` heading after the front matter and the slug/TOC HTML."""
    i = 0
    if lines and lines[0].strip() == "---":
        close = next((j for j in range(1, len(lines)) if lines[j].strip() == "---"), None)
        if close is None:
            raise ParseError(file, 1, "a closing '---' for the front matter", "end of file")
        i = close + 1
    first = next((j for j in range(i, len(lines)) if lines[j].startswith("# ")), None)
    if first is None:
        raise ParseError(file, i + 1, "a '# Heading' glossary entry", "no entries")
    return first


def _split_entries(lines: list[str], start: int, file: str) -> list[Entry]:
    entries: list[Entry] = []
    body: list[tuple[int, str]] = []
    title, title_line = "", 0

    def flush(end: int) -> None:
        if title:
            entries.append(Entry(title, title_line, _chunks(body, file), end))

    for idx in range(start, len(lines)):
        line = lines[idx]
        if line.startswith('<div class="nav-buttons"') or line.startswith("{: .no_toc"):
            break                       # the page's navigation footer
        if line.startswith("# "):
            flush(idx)
            title, title_line, body = line[2:].strip(), idx + 1, []
        else:
            body.append((idx + 1, line))
    else:
        idx = len(lines)
    flush(idx)
    return entries


# ---------------------------------------------------------------- chunks

def _chunks(body: list[tuple[int, str]], file: str) -> list[Chunk]:
    out: list[Chunk] = []
    i = 0
    while i < len(body):
        n, line = body[i]
        s = line.strip()
        if not s:
            i += 1
        elif s.startswith("#"):
            out.append(Chunk("heading", n, n, [s.lstrip("#").strip()]))
            i += 1
        elif s.startswith("{: .note-title"):
            i = _take_example(body, i + 1, out, file, n)
        elif _RELATED.match(s):
            out.append(Chunk("related", n, n, [s]))
            i += 1
        elif _HTML_BLOCK.match(s):
            i = _take_html(body, i, out, file)
        elif _ORDERED.match(s) or _BULLET.match(s):
            i = _take_list(body, i, out)
        else:
            i = _take_para(body, i, out)
    return out


def _take_example(body, i, out, file, marker_line) -> int:
    quoted: list[tuple[int, str]] = []
    while i < len(body) and body[i][1].startswith(">"):
        quoted.append((body[i][0], body[i][1][1:].strip()))
        i += 1
    if not quoted:
        raise ParseError(file, marker_line, "a '> Example' blockquote after {: .note-title }",
                         body[i][1] if i < len(body) else "end of file")
    # first quoted line is the box title ("Example"), the rest the text
    text_lines = [t for _, t in quoted[1:]]
    out.append(Chunk("example", quoted[0][0], quoted[-1][0], [quoted[0][1]] + text_lines))
    return i


def _take_html(body, i, out, file) -> int:
    first_n, first = body[i]
    opening = _HTML_BLOCK.match(first.strip())
    assert opening is not None, "called only on a line that opens an HTML block"
    tag = opening.group(1).lower()
    j = i
    while j < len(body) and f"</{tag}>" not in body[j][1].lower():
        j += 1
    if j == len(body):
        raise ParseError(file, first_n, f"a closing </{tag}>", first.strip())
    out.append(Chunk("html", first_n, body[j][0], [ln for _, ln in body[i:j + 1]]))
    return j + 1


def _take_list(body, i, out) -> int:
    start = body[i][0]
    items: list[str] = []
    while i < len(body) and body[i][1].strip():
        s = body[i][1].strip()
        if _ORDERED.match(s) or _BULLET.match(s):
            items.append(s)
        elif s.startswith("<") and _HTML_BLOCK.match(s):
            break
        else:
            items[-1] += "\n" + s          # a wrapped item line
        i += 1
    out.append(Chunk("list", start, body[i - 1][0], items))
    return i


def _take_para(body, i, out) -> int:
    start = body[i][0]
    lines: list[str] = []
    while i < len(body):
        s = body[i][1].strip()
        if not s or _HTML_BLOCK.match(s) or _ORDERED.match(s) or _BULLET.match(s) \
                or s.startswith("#") or s.startswith("{:") or _RELATED.match(s):
            break
        lines.append(s)
        i += 1
    out.append(Chunk("para", start, body[i - 1][0], lines))
    return i


# ---------------------------------------------------------------- fused heading

def _recover_fused(entries: list[Entry]) -> list[Entry]:
    out: list[Entry] = []
    for e in entries:
        out.extend(_split_fused(e))
    return out


def _split_fused(e: Entry) -> list[Entry]:
    rel = next((k for k, c in enumerate(e.chunks) if c.kind == "related"), None)
    if rel is None or rel == len(e.chunks) - 1:
        return [e]
    after = e.chunks[rel + 1:]
    # a sub-heading after Related ("## Runner Cards" under Runner) is the entry going on
    first_para = after[0] if after[0].kind == "para" else None
    related = e.chunks[rel]
    names = _related_names(related.lines[0])
    if not names or first_para is None:
        return [e]
    title = _fused_title(names[-1], _clean_inline(join_wrapped(first_para.lines)))
    if title is None:
        return [e]
    kept_last = names[-1][: -len(title)].strip()
    fixed = "**Related**: " + ", ".join(names[:-1] + ([kept_last] if kept_last else []))
    head = Entry(e.title, e.line, e.chunks[:rel] + [Chunk("related", related.start, related.end, [fixed])],
                 related.end)
    tail = Entry(title, after[0].start, after, e.end, recovered=True)
    return [head, tail]


def _fused_title(last_item: str, following: str) -> str | None:
    """The longest proper word-suffix of `last_item` that the following first sentence names."""
    words = last_item.split()
    sentence = following.split(".")[0].lower()
    for k in range(1, len(words)):
        candidate = " ".join(words[k:])
        if re.search(r"\b" + re.escape(candidate.lower()) + r"\b", sentence):
            return candidate
    return None


# ---------------------------------------------------------------- text

def _clean_inline(s: str) -> str:
    s = html_to_text(s)
    s = s.replace("**", "")
    s = re.sub(r"\bnon- (\w)", r"non-\1", s)     # "non- ice" split by the source
    s = re.sub(r"(\d)<(?=\s)", r"\1[c]", s)       # a credit icon cut down to "<" ("gain 1<")
    s = re.sub(r" +([.,;:])", r"\1", s)            # the space left by a dropped window icon
    return symbols.normalise(re.sub(r"[ \t]+", " ", s)).strip()


def _render(chunk: Chunk) -> str:
    if chunk.kind == "heading":
        return _clean_inline(chunk.lines[0])
    if chunk.kind == "para":
        return _clean_inline(join_wrapped(chunk.lines))
    if chunk.kind == "html":
        return _clean_inline("\n".join(chunk.lines))
    if chunk.kind == "list":
        return _render_list(chunk.lines)
    return ""


def _render_list(items: list[str]) -> str:
    """Markdown numbers every item "1."; a run of ordered items counts on from its first number."""
    out: list[str] = []
    number = None
    for item in items:
        m = _ORDERED.match(item)
        if m:
            number = int(m.group(1)) if number is None else number + 1
            body = item[m.end(1) + 1:]
            out.append(f"{number}. {_clean_inline(join_wrapped(body.split(chr(10))))}")
        else:
            number = None
            bullet = _BULLET.match(item)    # a list chunk's other items are bullets
            body = bullet.group(1) if bullet else item
            out.append(f"- {_clean_inline(join_wrapped(body.split(chr(10))))}")
    return "\n".join(out)


def _related_names(line: str) -> list[str]:
    m = _RELATED.match(line)
    raw = m.group(1).strip().rstrip(".") if m else ""
    return [n.strip() for n in raw.split(",") if n.strip()]


# ---------------------------------------------------------------- sections

def _names(title: str) -> list[str]:
    """Keys an entry answers to: "Corp / Corporation" is named by either side."""
    parts = [p for p in title.split(" / ") if p.strip()] if " / " in title else []
    return [fold(title)] + [fold(p) for p in parts]


def _sections(entries: list[Entry], file: str, doc: str) -> list[Section]:
    ids = IdAllocator()
    entry_ids = [f"{doc}:{ids.unique(slug(fold(e.title)))}" for e in entries]
    by_name = {k: sid for e, sid in zip(entries, entry_ids, strict=True) for k in _names(e.title)}
    out: list[Section] = []
    for e, sid in zip(entries, entry_ids, strict=True):
        entry, examples = _entry_sections(e, sid, by_name, file, doc)
        out.append(entry)
        out.extend(examples)
    return [replace(s, order=k) for k, s in enumerate(out)]


def _entry_sections(e: Entry, sid: str, by_name: dict[str, str], file: str, doc: str):
    examples: list[Section] = []
    texts, links, subheadings = [], [], []
    for c in e.chunks:
        if c.kind == "example":
            n = len(examples) + 1
            text = _clean_inline(join_wrapped(c.lines[1:])) if len(c.lines) > 1 else ""
            examples.append(Section(
                id=f"{sid}/ex{n}", doc=doc, number="", title=c.lines[0] or "Example",
                kind="example", text=text, parent=sid,
                provenance=Provenance(file, c.start, c.end)))
        elif c.kind == "related":
            links.extend(_related_links(c.lines[0], by_name))
        else:
            if c.kind == "heading":
                subheadings.append(_clean_inline(c.lines[0]))
            rendered = _render(c)
            if rendered:
                texts.append(rendered)
    meta = [("subheadings", " | ".join(subheadings))] if subheadings else []
    if e.recovered:
        meta.append(("recovered_heading", "fused into the previous entry's Related line"))
    kids = tuple(x.id for x in examples)
    entry = Section(
        id=sid, doc=doc, number="", title=e.title, kind="glossary-entry",
        text="\n\n".join(texts), provenance=Provenance(file, e.line, _last_line(e)),
        children=kids, examples=kids, links=tuple(links), meta=tuple(meta))
    return entry, examples


def _last_line(e: Entry) -> int:
    return max([e.line] + [c.end for c in e.chunks])


def _related_links(line: str, by_name: dict[str, str]) -> list[Link]:
    links = []
    for name in _related_names(line):
        target = _lookup(name, by_name)
        links.append(Link(kind=LINK_RELATED, ref=name, text=name, target=target or "",
                          reason="" if target else f"no glossary entry named {name!r}"))
    return links


def _lookup(name: str, by_name: dict[str, str]) -> str | None:
    """Exact title first, then the singular/plural twin ("Agendas" -> "Agenda")."""
    k = fold(name)
    for candidate in (k, k[:-1] if k.endswith("s") else k + "s"):
        if candidate in by_name:
            return by_name[candidate]
    return None
