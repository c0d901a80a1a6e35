"""A section's text and links as safe HTML.

Every character of the source is escaped; the only markup is what this
module writes: links for references, terms and cards (each span the linking
pass located), an honest "unresolved" mark with its reason and any
alternative, symbol icons with their text alternative, paragraphs and line
breaks. The glossary's inline HTML (tables, bold) is the one exception: it
goes through an allow-list sanitiser (nh3) instead of being escaped.
"""
from __future__ import annotations

import html as htmlmod
import re
from collections.abc import Callable
from dataclasses import dataclass

import nh3
from markupsafe import Markup, escape

from judgebook.model import (
    LINK_CARD,
    LINK_RULING,
    LINK_SUBTYPE,
    LINK_TERM,
    LINK_VERSION,
    Link,
    Section,
)
from judgebook.symbols import SYMBOLS, label
from judgebook.web.urls import Urls

_SYMBOL = re.compile(r"\[(" + "|".join(re.escape(t[1:-1]) for t in SYMBOLS) + r")\]")
# a number (or X) and the symbol after it: kept on one line ("2[c]" never wraps between 2 and the credit)
_COUNTED = re.compile(r"(\b\d+|\bX)(\[(?:" + "|".join(re.escape(t[1:-1]) for t in SYMBOLS) + r")\])")
_HTML_TAG = re.compile(r"</?(?:b|i|em|strong|table|tr|td|th|tbody|thead|ul|ol|li|br|p|span|code|sup|sub)\b",
                       re.I)
_DEF_CHARS = 320

ALLOWED_TAGS = {"a", "b", "i", "em", "strong", "table", "thead", "tbody", "tr", "td", "th",
                "ul", "ol", "li", "br", "p", "span", "img", "code", "sup", "sub"}
ALLOWED_ATTRS = {"a": {"href", "class", "title", "data-def", "data-def-title", "data-kind"},
                 "span": {"class", "title", "role", "aria-label"},
                 "img": {"src", "alt", "class", "title", "width", "height"},
                 "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan"}}


@dataclass(frozen=True)
class Lookup:
    """What the renderer needs from the corpus: a title and a definition per id."""
    title: Callable[[str], str]        # "1.16.10b" / "Access" for a section id, "" if unknown
    definition: Callable[[str], str]   # plain text of a term's definition, "" if unknown


def symbol_html(token: str, urls: Urls) -> str:
    name = token.strip("[]")
    text = label(token)
    return (f'<img class="sym" src="{escape(urls.static("icons/" + name + ".svg"))}" '
            f'alt="{escape(text)}" title="{escape(text)}" width="16" height="16">')


# The timing-structure appendix marks what a paid ability window allows: explained on hover and on tap
WINDOW_MARKS = {"P": "paid abilities can be used", "R": "non-ice cards can be rezzed", "S": "agendas can be scored"}
_WINDOW = re.compile(r"(window:)((?: \([PRS]\))+)")


def _marks(escaped: str) -> str:
    def one(m: re.Match[str]) -> str:
        marks = re.sub(r"\(([PRS])\)", lambda k: f'<abbr class="pw" tabindex="0" title="{WINDOW_MARKS[k.group(1)]}">'
                       f'({k.group(1)})</abbr>', m.group(2))
        return m.group(1) + marks
    return _WINDOW.sub(one, escaped)


def _symbols(escaped: str, urls: Urls) -> str:
    escaped = _marks(escaped)
    escaped = _COUNTED.sub(lambda m: f'<span class="nw">{m.group(1)}{symbol_html(m.group(2).lower(), urls)}</span>',
                           escaped)
    return _SYMBOL.sub(lambda m: symbol_html(m.group(0).lower(), urls), escaped)


def inline(text: str, urls: Urls) -> Markup:
    """Plain text (a title, a snippet) escaped, with symbol icons."""
    return Markup(_symbols(str(escape(text)), urls))


def span_links(section: Section) -> list[Link]:
    """The links tied to a span of the text, in order, overlaps dropped (first, then longest wins)."""
    n = len(section.text)
    spans = sorted((l for l in section.links
                    if l.kind != LINK_VERSION and 0 <= l.start < l.end <= n),
                   key=lambda l: (l.start, -(l.end - l.start)))
    out, last_end = [], 0
    for link in spans:
        if link.start >= last_end:
            out.append(link)
            last_end = link.end
    return out


def link_html(link: Link, inner: str, urls: Urls, lookup: Lookup) -> str:
    """One link's markup around already-escaped `inner`."""
    kind = escape(link.kind)
    # a target that is not loaded (a build without that document) is no link at all
    if link.target and lookup.title(link.target):
        attrs = f'class="ln ln-{kind}" href="{escape(urls.section(link.target))}"'
        if link.kind in (LINK_TERM, LINK_SUBTYPE, LINK_CARD):
            definition = lookup.definition(link.target)
            if definition:
                attrs += (f' data-def="{escape(_clip(definition))}"'
                          f' data-def-title="{escape(lookup.title(link.target))}"')
        return f"<a {attrs}>{inner}</a>"
    reason = link.reason or ("not in the loaded documents" if link.target else "unresolved reference")
    alt = ""
    for other in link.alternatives[:2]:
        alt += (f' <a class="ln ln-alt" href="{escape(urls.section(other))}">'
                f'see {escape(lookup.title(other) or other)}</a>')
    return (f'<span class="unresolved" title="{escape(reason)}">{inner}'
            f'<span class="why"> ({escape(reason)}{")" if not alt else ";"}</span>'
            f'{alt}{")" if alt else ""}</span>')


def _clip(text: str) -> str:
    return text if len(text) <= _DEF_CHARS else text[:_DEF_CHARS].rsplit(" ", 1)[0] + "…"


def _paragraphs(html: str) -> str:
    paras = [p.strip() for p in re.split(r"\n\s*\n", html) if p.strip()]
    return "".join("<p>" + p.replace("\n", "<br>\n") + "</p>" for p in paras)


def has_html(section: Section) -> bool:
    return section.doc == "glossary" and bool(_HTML_TAG.search(section.text))


def render_text(section: Section, urls: Urls, lookup: Lookup) -> Markup:
    """The section's text as HTML with its span links, icons and paragraphs."""
    raw_html = has_html(section)
    # In glossary HTML the text is markup already: don't escape it, sanitise the result.
    esc = (lambda s: s) if raw_html else (lambda s: str(escape(s)))
    text, pos, parts = section.text, 0, []
    for link in span_links(section):
        parts.append(_symbols(esc(text[pos:link.start]), urls))
        inner = _symbols(esc(text[link.start:link.end].replace("\n", " ")), urls)
        parts.append(link_html(link, inner, urls, lookup))
        pos = link.end
    parts.append(_symbols(esc(text[pos:]), urls))
    html = _paragraphs("".join(parts))
    if raw_html:
        html = sanitise(html)
    return Markup(html)


def sanitise(html: str) -> str:
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRS,
                     url_schemes={"http", "https"}, link_rel=None)


def plain(html: str) -> str:
    """Only the words of an HTML fragment (scripts and their content dropped)."""
    return htmlmod.unescape(nh3.clean(html, tags=set(), attributes={}))


def unspanned_links(section: Section) -> list[Link]:
    """Links not tied to a span (Related lists, index entries): shown as a list below the text."""
    # a card's rulings are its children, shown in full below it: no need to list them again
    return [l for l in section.links
            if l.kind not in (LINK_VERSION, LINK_RULING)
            and not (0 <= l.start < l.end <= len(section.text))]
