"""What a judge typed, read into a small query description.

Pure and tolerant: any string at all yields a `ParsedQuery` (possibly empty,
with messages saying what was ignored and why). No Whoosh here: the backend
turns the description into its own query objects.

Grammar, informally:
    query   := item*
    item    := filter | ["-" | "NOT"] (word | "phrase")
    filter  := ("doc" | "era" | "kind") ":" value ["," value]*
A query that is, as a whole, a rule number in any spelling (`1.16.10b`,
`1.16.10.b`, `1.16.10 b`, `r1.16.10b`, `rule 6.9.2`, `cr-1.6:1.16.10b`) or a
section id (`glossary:access`) is a reference, answered by exact lookup.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from judgebook.numbers import normalise_number

MAX_QUERY_CHARS = 256      # a judge's query is a few words; the rest is noise
MAX_ITEMS = 24             # more words than this only slows the search down

FILTER_KEYS = ("doc", "era", "kind")

# The words of a question ("how many clicks does the Runner get?"): they say
# nothing about which rule is meant, so a query drops them while it has other
# words. The index keeps them; only the query side ignores them.
QUESTION_WORDS = frozenset("""
    how many much what whats happens happen happened does do did doing done when where why
    which who whom whose get gets got should would could can is are was were
    there their they them it its i me my we you your be been being please if then than too
    so any anything something about ok okay
    mean means meaning work works go goes vs versus still im ive dont doesnt cant isnt
""".split())

# Friendlier spellings of kinds (the model's kinds are the canonical values).
KIND_ALIASES = {
    "rules": "rule", "subrule": "sub-rule", "sub-rules": "sub-rule", "subrules": "sub-rule",
    "glossary": "glossary-entry", "term": "glossary-entry", "terms": "glossary-entry",
    "rulings": "ruling", "cards": "card", "examples": "example", "steps": "step",
    "pages": "page", "floor": "floor-rule", "floor-rules": "floor-rule",
    "chapters": "chapter", "sections": "section",
}
ERA_ALIASES = {"1996": "onr-1996", "onr": "onr-1996", "original": "onr-1996",
               "fantasy-flight": "ffg", "nisei-era": "nisei", "null-signal": "nsg"}

# A document key prefix: "cr-1.6:", "cr-26.03:", "glossary:".
_DOC_PREFIX = re.compile(r"^([a-z][a-z0-9]*(?:[-.][a-z0-9]+)*):(.+)$", re.I)
_ANCHOR = re.compile(r"^[\w./-]+$")
_DOTTED = re.compile(r"^\d{1,2}(?:\.\d{1,3})+[a-z]?$", re.I)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"',
                         "\u00bb": '"', "\u2018": "'", "\u2019": "'", "\u2212": "-",
                         "\u2013": "-", "\u2014": "-"})
_WORD_EDGE = re.compile(r"^[^\w\[]+|[^\w\]]+$")


@dataclass(frozen=True)
class Ref:
    """A query that names one thing: a rule number (maybe in one doc) or an id."""
    number: str = ""          # canonical, lowercase: "1.16.10b"
    doc: str = ""             # document key the user named, "" for any
    id: str = ""              # a full section id ("glossary:access")


@dataclass(frozen=True)
class Clause:
    words: tuple[str, ...]    # one word, or the words of a phrase
    phrase: bool = False
    negated: bool = False


@dataclass(frozen=True)
class Filters:
    doc: tuple[str, ...] = ()
    era: tuple[str, ...] = ()
    kind: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.doc or self.era or self.kind)

    def merged(self, other: Filters) -> Filters:
        return Filters(doc=_union(self.doc, other.doc), era=_union(self.era, other.era),
                       kind=_union(self.kind, other.kind))


@dataclass(frozen=True)
class ParsedQuery:
    raw: str
    clauses: tuple[Clause, ...] = ()
    filters: Filters = field(default_factory=Filters)
    ref: Ref | None = None
    messages: tuple[str, ...] = ()

    @property
    def positive(self) -> tuple[Clause, ...]:
        return tuple(c for c in self.clauses if not c.negated)

    @property
    def negative(self) -> tuple[Clause, ...]:
        return tuple(c for c in self.clauses if c.negated)

    @property
    def keywords(self) -> tuple[Clause, ...]:
        """The positive clauses without question words (all of them if nothing else is left)."""
        kept = tuple(c for c in self.positive
                     if c.phrase or c.words[0].lower() not in QUESTION_WORDS)
        return kept or self.positive

    @property
    def empty(self) -> bool:
        return not self.positive and self.ref is None


def _union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(a + b))


def clean(text: str) -> tuple[str, list[str]]:
    """The query with control characters removed, normalised and cut to size."""
    messages: list[str] = []
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    stripped = _CONTROL.sub(" ", text)
    if stripped != text:
        messages.append("Control characters in the query were ignored.")
    stripped = " ".join(stripped.split())
    if len(stripped) > MAX_QUERY_CHARS:
        cut = stripped[:MAX_QUERY_CHARS].rsplit(" ", 1)[0] or stripped[:MAX_QUERY_CHARS]
        messages.append(f"The query was cut to its first {len(cut)} characters.")
        stripped = cut
    return stripped, messages


def looks_like_number(word: str) -> bool:
    """A dotted number inside a longer query ("1.16 trace"): matched exactly, never fuzzed."""
    return bool(_DOTTED.match(word))


def parse_ref(text: str) -> Ref | None:
    """The whole query as a reference, if it is one."""
    text = text.strip()
    if not text:
        return None
    number = normalise_number(text)
    if number:
        return Ref(number=number)
    m = _DOC_PREFIX.match(text)
    if not m or m.group(1).lower() in FILTER_KEYS:
        return None
    doc, rest = m.group(1).lower(), m.group(2).strip()
    number = normalise_number(rest)
    if number:
        return Ref(number=number, doc=doc, id=f"{doc}:{rest}")
    if _ANCHOR.match(rest):
        return Ref(doc=doc, id=f"{doc}:{rest}")
    return None


def parse(text: str) -> ParsedQuery:
    """Read a query; never raises."""
    raw = text if isinstance(text, str) else ("" if text is None else str(text))
    cleaned, messages = clean(raw)
    items, filters, more = _tokenise(cleaned)
    messages += more
    if len(items) > MAX_ITEMS:
        messages.append(f"Only the first {MAX_ITEMS} words were searched.")
        items = items[:MAX_ITEMS]
    ref = _whole_ref(items)
    return ParsedQuery(raw=raw, clauses=tuple(items), filters=filters, ref=ref,
                       messages=tuple(dict.fromkeys(messages)))


def _whole_ref(items: list[Clause]) -> Ref | None:
    if not items or any(c.negated or c.phrase for c in items):
        return None
    return parse_ref(" ".join(w for c in items for w in c.words))


def _tokenise(text: str) -> tuple[list[Clause], Filters, list[str]]:
    items: list[Clause] = []
    filters = Filters()
    messages: list[str] = []
    negate_next = False
    for token, quoted, closed in _scan(text):
        if quoted:
            if not closed:
                messages.append("The closing quote was missing: searched for those words as a phrase.")
            words = tuple(w for w in (_word(x) for x in token.split()) if w)
            if words:
                items.append(Clause(words, phrase=len(words) > 1, negated=negate_next))
            negate_next = False
            continue
        if token in ("AND", "OR", "+"):
            continue
        if token == "NOT":
            negate_next = True
            continue
        negated, body = negate_next, token
        negate_next = False
        while body.startswith(("-", "+")):
            negated = negated or body.startswith("-")
            body = body[1:]
        if not body:
            if token.startswith("-"):
                # "-" on its own may prefix the next quoted phrase ("- foo" is not).
                messages.append("A lone '-' was ignored: put it right before the word to exclude.")
            continue
        filt, msg = _filter(body)
        if msg:
            messages.append(msg)
        if filt is not None:
            filters = filters.merged(filt)
            continue
        if msg:
            continue
        word = _word(body)
        if word:
            items.append(Clause((word,), negated=negated))
    if negate_next:
        messages.append("NOT at the end of the query was ignored.")
    return items, filters, messages


def _scan(text: str):
    """(token, quoted, closed) triples; a '-' glued to a quote negates the phrase."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch == '"' or (ch == "-" and i + 1 < n and text[i + 1] == '"'):
            neg = ch == "-"
            start = i + (2 if neg else 1)
            end = text.find('"', start)
            closed = end != -1
            body = text[start:end] if closed else text[start:]
            if neg:
                yield "NOT", False, True
            yield body, True, closed
            i = end + 1 if closed else n
            continue
        j = i
        while j < n and not text[j].isspace() and text[j] != '"':
            j += 1
        yield text[i:j], False, True
        i = j


def _filter(token: str) -> tuple[Filters | None, str]:
    """A `key:value` filter, or (None, message) for a broken one, or (None, "")."""
    key, sep, value = token.partition(":")
    key = key.lower()
    if not sep or key not in FILTER_KEYS:
        return None, ""
    values = tuple(v for v in (_filter_value(key, x) for x in value.split(",")) if v)
    if not values:
        return None, (f"'{key}:' needs a value, e.g. "
                      + {"doc": "doc:cr-26.03", "era": "era:onr-1996", "kind": "kind:ruling"}[key]
                      + "; it was ignored.")
    return Filters(**{key: values}), ""


def _filter_value(key: str, value: str) -> str:
    value = value.strip().strip("'\"").lower()
    if key == "kind":
        return KIND_ALIASES.get(value, value)
    if key == "era":
        return ERA_ALIASES.get(value, value)
    return value


def _word(token: str) -> str:
    """The token without surrounding punctuation ("damage?" -> "damage"); keeps [c]."""
    token = _WORD_EDGE.sub("", token)
    return token if any(ch.isalnum() for ch in token) else ""
