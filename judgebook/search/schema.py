"""What the search index holds, and what a search asks of it, backend-neutral.

`IndexRecord` is one section as the index sees it (everything a hit must show
is stored, so a fresh process answers from the index alone, without loading
the corpus). `Plan` is a query after our own parsing, synonyms and spelling
correction: the backend only translates it. Neither imports Whoosh.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from judgebook.search.querygrammar import Filters
from judgebook.text import fold as shared_fold

SNIPPET_SOURCE_CHARS = 6000     # stored body kept for snippets

# Symbol tokens are indexed as their words, so "credit" finds "3[c]".
_SYMBOL_WORDS = {
    "[c]": " credit ", "[click]": " click ", "[sub]": " subroutine ", "[trash]": " trash ",
    "[recurring]": " recurring credit ", "[link]": " link ", "[mu]": " memory unit ",
    "[interrupt]": " interrupt ", "[agenda]": " agenda ",
}
_SYMBOL = re.compile("|".join(re.escape(k) for k in _SYMBOL_WORDS), re.I)
# "R&D" would fall apart into two one-letter words; keep it one.
_RND = re.compile(r"\bR\s*&\s*D\b", re.I)


@dataclass(frozen=True)
class Member:
    """One section an index record stands for (the same text in several CR versions)."""
    id: str
    doc: str
    era: str
    number: str                 # canonical ("1.16.10b"), "" if none
    rank: int                   # CR versions newest first (0), other docs after
    breadcrumb: tuple[tuple[str, str], ...] = ()   # (id, label) outermost first


@dataclass(frozen=True)
class IndexRecord:
    """One searchable text; `members[0]` is the newest section carrying it."""
    members: tuple[Member, ...]
    kind: str
    title: str
    text: str                   # what is searched (symbols as words)
    body: str                   # what snippets are cut from (as written)
    defines: tuple[str, ...] = ()             # terms this section defines
    card_name: str = ""         # folded card name, for spotting names in queries
    keys: tuple[str, ...] = ()  # strings offered by prefix completion
    family: str = ""            # id of the newest version of this rule (changed texts differ)
    # The newest CR's version of this rule when it words it differently: this
    # text is an older CR's and has been superseded ("" when it is current or
    # has no newer version).
    superseded_by: str = ""
    context: str = ""           # titles of the enclosing sections, searched with the text

    @property
    def id(self) -> str:
        return self.members[0].id


@dataclass(frozen=True)
class StoredHit:
    members: tuple[Member, ...]
    kind: str
    title: str
    body: str
    defines: tuple[str, ...]
    score: float = 0.0
    completions: tuple[str, ...] = ()   # the title and terms, as written
    family: str = ""
    superseded_by: str = ""
    stems: frozenset[str] = frozenset()  # its indexed words, each once
    heads: frozenset[str] = frozenset()  # the indexed words of its title and enclosing headings
    about: bytes = b""                   # what it is about (semantic.record_vector) ...
    about2: int = 0                      # ... and that vector's squared length

    @property
    def id(self) -> str:
        return self.members[0].id

    @property
    def rank(self) -> int:
        return self.members[0].rank

    def member(self, filters: Filters | None = None, number: str = "") -> Member:
        """The member to show: the newest one the filters allow (and with `number`, if given)."""
        for m in self.members:
            if filters is not None and ((filters.doc and m.doc not in filters.doc)
                                        or (filters.era and m.era not in filters.era)):
                continue
            if number and m.number != number:
                continue
            return m
        return self.members[0]


@dataclass(frozen=True)
class Alternative:
    words: tuple[str, ...]      # one word (a term) or several (a phrase)
    weight: float = 1.0


@dataclass(frozen=True)
class Unit:
    """One thing asked for; its alternatives (original, synonyms, corrections) are ORed."""
    alternatives: tuple[Alternative, ...]
    weight: float = 1.0         # how telling it is (its rarity in the index): for coverage


@dataclass(frozen=True)
class Plan:
    units: tuple[Unit, ...] = ()
    exclude: tuple[tuple[str, ...], ...] = ()
    numbers: tuple[str, ...] = ()    # dotted numbers named inside a longer query
    filters: Filters = Filters()
    # Question words were dropped ("how many clicks does the Runner get"):
    # any-word hits fill a short list of all-word hits.
    question: bool = False
    # ... and some stood between the words left ("clicks does the Runner"):
    # those were not typed side by side, so no "side by side" step.
    apart: bool = False
    # The query names a card ("Hedge Fund", "tollbooth ghost runner"): card
    # texts and rulings are what it asks about, so they keep their full weight.
    names_card: bool = False
    # A question's vector in the semantic table (semantic.vector), for the
    # re-ranker; () for other queries.
    about: tuple[int, ...] = ()


@dataclass(frozen=True)
class Completion:
    text: str                  # what goes into the search box
    kind: str                  # "number" | "title" | "term" | "card"
    id: str = ""               # the section it leads to, if one
    doc: str = ""
    label: str = ""            # how to show it ("1.16.10b Recurring credits — cr-26.03")


def index_text(text: str) -> str:
    """Text as the analyser should see it: symbol tokens as words, R&D whole."""
    return _RND.sub(" rnd ", _SYMBOL.sub(lambda m: _SYMBOL_WORDS[m.group(0).lower()], text))


def fold(text: str) -> str:
    """judgebook's one `fold`, with R&D as the word the index holds: "R&D Interface" -> "rnd interface"."""
    return shared_fold(_RND.sub(" rnd ", text))
