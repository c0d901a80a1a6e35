"""The one module that knows Whoosh (whoosh-reloaded 2.7.5, classic API only).

Everything else in judgebook.search speaks `IndexRecord`, `Plan`,
`StoredHit` and `Completion`; replacing the engine means rewriting this file
alone. Readers are opened once per process and thread, per index folder.
"""
from __future__ import annotations

import dataclasses
import heapq
import itertools
import json
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from whoosh import analysis, fields, index, scoring
from whoosh import query as Q
from whoosh.lang.porter import stem as _porter
from whoosh.support.charset import accent_map

from judgebook.search.fuzzy import transpositions
from judgebook.search.querygrammar import Filters
from judgebook.search.schema import (
    IndexRecord,
    Member,
    Plan,
    StoredHit,
    Unit,
    fold,
    index_text,
)

TOKEN = r"\w+(?:\.\w+)*"          # keeps "1.16.10b" and "cr-1.6" parts whole
TITLE_REPEAT = 3
DEFINES_REPEAT = 3
STOP = analysis.STOP_WORDS


def text_analyzer():
    return (analysis.RegexTokenizer(TOKEN) | analysis.LowercaseFilter()
            | analysis.CharsetFilter(accent_map) | analysis.StopFilter()
            | analysis.StemFilter(cachesize=-1))


# Documents are analysed once, here, and handed to Whoosh as ready terms: the
# `text` field gets the terms, the `pairs` field each pair of neighbours
# ("end run" from "end the run"), so a phrase is a few term look-ups instead
# of position matching, and indexing does not stem every text twice.
ANALYZER = text_analyzer()


def _ready_terms():
    return analysis.RegexTokenizer(r"\S+")


def _ready_lines():
    return analysis.RegexTokenizer(r"[^\n]+")


def spell_analyzer():
    # Unstemmed letters-only words: the vocabulary spelling correction draws on.
    return (analysis.RegexTokenizer(r"[^\W\d_]+") | analysis.LowercaseFilter()
            | analysis.CharsetFilter(accent_map))


def schema() -> fields.Schema:
    many = dict(commas=True, scorable=False)
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        ids=fields.KEYWORD(**many),
        doc=fields.KEYWORD(**many),
        era=fields.KEYWORD(**many),
        number=fields.KEYWORD(**many),
        kind=fields.ID(stored=True),
        # One scored field keeps each word one posting list (Whoosh's cost is
        # per posting); title and defined terms weigh more by repetition, and
        # the ranker's bonuses do the rest.
        text=fields.TEXT(analyzer=_ready_terms(), phrase=False),
        pairs=fields.TEXT(analyzer=_ready_lines(), phrase=False),
        spell=fields.TEXT(analyzer=spell_analyzer(), phrase=False),
        card=fields.ID(),
        keys=fields.KEYWORD(**many),
        title=fields.STORED(),
        body=fields.STORED(),
        members=fields.STORED(),
        defs=fields.STORED(),
        completions=fields.STORED(),
        family=fields.STORED(),
    )


# ---- writing -------------------------------------------------------------------
def write(path: Path, records: Sequence[IndexRecord],
          progress: Callable[[int, int], None] | None = None) -> None:
    path.mkdir(parents=True, exist_ok=True)
    ix = index.create_in(str(path), schema())
    writer = ix.writer(limitmb=512)
    total = len(records)
    try:
        for i, rec in enumerate(records, 1):
            writer.add_document(**_document(rec))
            if progress and (i % 500 == 0 or i == total):
                progress(i, total)
        writer.commit()
    except BaseException:
        writer.cancel()
        raise


def _document(rec: IndexRecord) -> dict:
    keys = [fold(k) for k in rec.keys if fold(k)]
    ms = rec.members
    heading = "\n".join([rec.title] * TITLE_REPEAT + list(rec.defines) * DEFINES_REPEAT)
    terms = [t.text for t in ANALYZER(index_text(f"{heading}\n{rec.text}"))]
    return dict(
        id=rec.id, ids=_many(m.id for m in ms), doc=_many(m.doc for m in ms),
        era=_many(m.era or "none" for m in ms), number=_many(m.number for m in ms if m.number),
        kind=rec.kind, text=" ".join(terms),
        # The heading repeated weighs pairs in titles and defined terms, as in `text`.
        pairs="\n".join(f"{a} {b}" for a, b in itertools.pairwise(terms)),
        spell=" ".join(_vocabulary(rec)),
        card=rec.card_name, keys=",".join(keys), title=rec.title, body=rec.body,
        members=json.dumps([[m.id, m.doc, m.era, m.number, m.rank, m.breadcrumb] for m in ms],
                           ensure_ascii=False),
        defs=list(rec.defines), completions=list(rec.keys), family=rec.family,
    )


_LETTERS = re.compile(r"[^\W\d_]+")


def _vocabulary(rec: IndexRecord) -> list[str]:
    """Each distinct word once: spelling correction needs the vocabulary, not the counts."""
    text = "\n".join((rec.title, rec.text, *rec.defines))
    return sorted({w.lower() for w in _LETTERS.findall(text)})


def _many(values: Iterable[str]) -> str:
    return ",".join(dict.fromkeys(v for v in values if v))


# ---- reading -------------------------------------------------------------------
_local = threading.local()
MAX_OPEN = 3
MEMO_SIZE = 50_000   # remembered vocabulary look-ups per reader


def open_reader(path: Path) -> Reader:
    """A reader of the index in `path`, cached per thread (Whoosh searchers are not shared)."""
    cache = getattr(_local, "readers", None)
    if cache is None:
        cache = _local.readers = {}
    key = str(path)
    reader = cache.get(key)
    if reader is None:
        # After a rebuild `current` names a new folder: keep only the last few open.
        while len(cache) >= MAX_OPEN:
            cache.pop(next(iter(cache))).close()
        reader = cache[key] = Reader(path)
    return reader


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The indexed form of one word ("" for a stop word): the snippet and synonym key."""
    w = fold(word).replace(" ", "")
    if not w or w in STOP or len(w) < 2:
        return ""
    return _porter(w)


@lru_cache(maxsize=200_000)
def word_key(word: str) -> str:
    """The stem of one word, stop words included: for comparing whole titles."""
    return _porter(fold(word).replace(" ", ""))


def stem_token(token: str) -> str:
    """`stem`, but a rule number ("1.16.10b") stays as it is indexed."""
    if "." in token and any(ch.isdigit() for ch in token):
        return token.lower()
    return stem(token)


class _Weighting(scoring.BM25F):
    """Whoosh's BM25F, reading each document's field length from a list made once
    per reader, not from disk at every scored posting (its largest single cost)."""

    def __init__(self):
        super().__init__()
        self._lengths: dict[tuple[int, str], Callable[[int], int]] = {}

    def scorer(self, searcher, fieldname, text, qf=1):
        s = super().scorer(searcher, fieldname, text, qf=qf)
        if isinstance(s, scoring.BM25FScorer):
            s.dfl = self._lengths_of(searcher.reader(), fieldname)
        return s

    def _lengths_of(self, reader, fieldname: str) -> Callable[[int], int]:
        key = (id(reader), fieldname)
        if key not in self._lengths:
            lengths = [reader.doc_field_length(d, fieldname, 1) for d in range(reader.doc_count_all())]
            self._lengths[key] = lengths.__getitem__
        return self._lengths[key]


class Reader:
    def __init__(self, path: Path):
        if not index.exists_in(str(path)):
            raise FileNotFoundError(f"no search index in {path}: run `judgebook build`")
        self.index = index.open_dir(str(path))
        self.searcher = self.index.searcher(weighting=_Weighting())
        self.reader = self.searcher.reader()
        self._analyzer = ANALYZER
        self._values: dict[str, list[str]] = {}
        self._filters: dict[Filters, set[int]] = {}
        # Look-ups that depend on the index alone (this reader's vocabulary),
        # remembered per reader: a judge retypes the same words all day.
        self._memo: dict[tuple, Any] = {}     # heterogeneous: hits, frequencies, candidate lists

    def close(self) -> None:
        self.searcher.close()

    # -- vocabulary ---------------------------------------------------------
    def _remember(self, key: tuple, compute: Callable[[], object]):
        memo = self._memo
        if key in memo:
            return memo[key]
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        value = memo[key] = compute()
        return value

    def analyze(self, text: str) -> list[str]:
        return list(self._remember(("analyze", text), lambda: tuple(
            t.text for t in self._analyzer(index_text(text)))))

    def frequency(self, word: str) -> int:
        return self._remember(("frequency", word), lambda: self._frequency(word))

    def _frequency(self, word: str) -> int:
        """Documents containing `word` (after analysis); -1 for a word analysis drops."""
        terms = self.analyze(word)
        if not terms:
            return -1
        return min(self.reader.doc_frequency("text", t) for t in terms)

    def spelling_candidates(self, word: str, maxdist: int) -> list[tuple[str, int]]:
        return list(self._remember(("spelling", word, maxdist),
                                   lambda: tuple(self._spelling_candidates(word, maxdist))))

    def _spelling_candidates(self, word: str, maxdist: int) -> list[tuple[str, int]]:
        w = fold(word).replace(" ", "")
        # Scanning the lexicon is the cost, so the cheapest scans come first:
        # swapped letters by look-up, one edit keeping the first two letters
        # (long words) or the first, and two edits only when all that fails.
        found = {t for t in transpositions(w) if ("spell", t) in self.reader}
        found.update(self.reader.terms_within("spell", w, 1, prefix=2 if len(w) >= 6 else 1))
        if not found and len(w) >= 6:
            found.update(self.reader.terms_within("spell", w, 1, prefix=1))
        if not found and maxdist > 1:
            found = set(self.reader.terms_within("spell", w, maxdist, prefix=2))
        return [(t, self.reader.doc_frequency("spell", t)) for t in found]

    def phrase_exists(self, words: Sequence[str]) -> bool:
        return self._remember(("phrase", tuple(words)), lambda: self._phrase_exists(words))

    def _phrase_exists(self, words: Sequence[str]) -> bool:
        terms = self.analyze(" ".join(words))
        if len(terms) < 2:
            return bool(terms) and self.reader.doc_frequency("text", terms[0]) > 0
        return all(self.reader.doc_frequency("pairs", f"{a} {b}") > 0 for a, b in itertools.pairwise(terms))

    def is_card_name(self, folded: str) -> bool:
        return bool(folded) and self._remember(
            ("card", folded), lambda: self.reader.doc_frequency("card", folded) > 0)

    def values(self, fieldname: str) -> list[str]:
        if fieldname not in self._values:
            self._values[fieldname] = sorted(_text(t) for t in self.reader.field_terms(fieldname))
        return self._values[fieldname]

    # -- lookups --------------------------------------------------------------
    def by_number(self, number: str, filters: Filters) -> list[StoredHit]:
        return self._all(Q.Term("number", number), filters)

    def by_id(self, section_id: str, filters: Filters) -> list[StoredHit]:
        return self._all(Q.Term("ids", section_id), filters)

    def _all(self, q, filters: Filters) -> list[StoredHit]:
        allowed = self._allowed(filters)
        return [self._by_docnum(d) for d in self.searcher.docs_for_query(q)
                if allowed is None or d in allowed]

    # -- ranked search ----------------------------------------------------------
    def search(self, plan: Plan, limit: int, enough: int | None = None) -> tuple[list[StoredHit], int]:
        """Up to `limit` documents, best first; `enough` is when to stop trying looser queries."""
        units = self._units(plan)
        if not units:
            return [], 0
        enough = limit if enough is None else enough
        allowed = self._allowed(plan.filters)
        excluded = self._excluded(plan)
        # Cheapest and most precise first: the words side by side, then all
        # of them anywhere, then (when almost nothing had them all) any of them.
        steps = [(units[0], enough)] if len(units) == 1 else [(Q.And(units), enough),
                                                              (Q.Or(units), min(3, enough))]
        if plan.question and len(units) > 1:
            # A question's words are not all in the rule that answers it: when
            # fewer than wanted have them all, any of them fill the list, scored
            # by how many they have and how rare those are (BM25's sum).
            steps[1] = (Q.Or(units), enough)
        adjacent = None if plan.apart else self._adjacent(plan)
        if adjacent is not None:
            steps.insert(0, (adjacent, enough))
        hits: list[StoredHit] = []
        seen: set[int] = set()
        total = 0
        for q, needed in steps:
            if len(hits) >= needed:
                break
            if excluded is not None:
                q = Q.AndNot(q, excluded)
            top, found = self._top(q, limit, allowed)
            total = max(total, found)
            for score, docnum in top:
                if docnum not in seen:
                    seen.add(docnum)
                    hits.append(self._document(docnum, score))
        return hits[:limit], total

    def _top(self, q, limit: int, allowed: set[int] | None) -> tuple[list[tuple[float, int]], int]:
        """The `limit` best (score, docnum) for `q`, best first (ties: lower docnum), and the count.

        The same matchers and scores as `Searcher.search`, without its
        collector: Whoosh's block-quality skipping seldom skips on texts this
        short, while its bookkeeping (replacing matchers at each new minimum
        score) costs about a third of a query.
        """
        heap: list[tuple[float, int]] = []
        push, replace = heapq.heappush, heapq.heapreplace
        count = 0
        context = self.searcher.context()
        for sub, offset in self.searcher.leaf_searchers():
            m = q.matcher(sub, context)
            is_active, next_, score, doc_id = m.is_active, m.next, m.score, m.id
            while is_active():
                docnum = offset + doc_id()
                if allowed is None or docnum in allowed:
                    count += 1
                    item = (score(), -docnum)
                    if len(heap) < limit:
                        push(heap, item)
                    elif item > heap[0]:
                        replace(heap, item)
                next_()
        return [(sc, -neg) for sc, neg in sorted(heap, reverse=True)], count

    def _adjacent(self, plan: Plan):
        """The plain words of the query side by side, as typed, with the other units."""
        simple = [u for u in plan.units if len(u.alternatives) == 1 and len(u.alternatives[0].words) == 1]
        if len(simple) < 2:
            return None
        words = tuple(u.alternatives[0].words[0] for u in simple)
        together = self._words(words)
        if together is None:
            return None
        required = [q for q in (self._unit(u) for u in plan.units if u not in simple) if q is not None]
        required += [Q.Or([Q.Term("number", n, boost=8.0), Q.Term("text", n)]) for n in plan.numbers]
        base = Q.And([together, *required]) if required else together
        # The words themselves score too: their weight in titles and definitions counts.
        # A document with the words side by side has each word, so they only add
        # to the score: AndMaybe walks the few pair postings instead of
        # intersecting every word's long list (same hits, same scores).
        terms = [Q.Term("text", t) for t in self.analyze(" ".join(words))]
        if not terms:
            return base
        return Q.AndMaybe(base, terms[0] if len(terms) == 1 else Q.Or(terms))

    def _allowed(self, filters: Filters):
        """The documents a filter lets through, computed once per reader and filter."""
        if not filters:
            return None
        if filters not in self._filters:
            if len(self._filters) > 64:
                self._filters.clear()
            self._filters[filters] = set(self.searcher.docs_for_query(_filter(filters)))
        return self._filters[filters]

    def _units(self, plan: Plan) -> list:
        units = [u for u in (self._unit(u) for u in plan.units) if u is not None]
        units += [Q.Or([Q.Term("number", n, boost=8.0), Q.Term("text", n)]) for n in plan.numbers]
        return units

    def _excluded(self, plan: Plan):
        excluded = [x for x in (self._words(w) for w in plan.exclude) if x is not None]
        if not excluded:
            return None
        return excluded[0] if len(excluded) == 1 else Q.Or(excluded)

    def _unit(self, unit: Unit):
        alts = [q for q in (self._words(a.words, a.weight) for a in unit.alternatives) if q]
        if not alts:
            return None
        return alts[0] if len(alts) == 1 else Q.Or(alts)

    def _words(self, words: Iterable[str], weight: float = 1.0):
        terms = self.analyze(" ".join(words))
        if not terms:
            return None
        if len(terms) == 1:
            return Q.Term("text", terms[0], boost=weight)
        pairs = [Q.Term("pairs", f"{a} {b}") for a, b in itertools.pairwise(terms)]
        return pairs[0].with_boost(weight) if len(pairs) == 1 else Q.And(pairs, boost=weight)

    # -- completion ---------------------------------------------------------------
    def numbers_with_prefix(self, prefix: str, cap: int = 5000) -> list[str]:
        """Rule numbers starting with `prefix` (strings only: cheap; look up the few shown)."""
        out = []
        for term in self.reader.expand_prefix("number", prefix):
            out.append(_text(term))
            if len(out) >= cap:
                break
        return out

    def keys_with_prefix(self, prefix: str, limit: int) -> list[tuple[str, list[StoredHit]]]:
        out = []
        for term in self.reader.expand_prefix("keys", prefix):
            key = _text(term)
            docnums = list(self.searcher.docs_for_query(Q.Term("keys", key)))[:5]
            out.append((key, [self._by_docnum(d) for d in docnums]))
            if len(out) >= limit * 2:
                break
        return out

    def _by_docnum(self, docnum: int) -> StoredHit:
        return self._document(docnum, 0.0)

    def _document(self, docnum: int, score: float) -> StoredHit:
        """A document's stored fields, unpickled once per reader (they never change)."""
        key = ("stored", docnum)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._remember(key, lambda: _stored(self.searcher.stored_fields(docnum), 0.0))
        return dataclasses.replace(hit, score=float(score)) if score else hit


def _text(term) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term


def _filter(filters: Filters):
    parts = []
    for name in ("doc", "era", "kind"):
        values = getattr(filters, name)
        if values:
            parts.append(Q.Or([Q.Term(name, v) for v in values]))
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else Q.And(parts)


def _stored(f: dict, score: float) -> StoredHit:
    members = _members(f.get("members") or "[]")
    return StoredHit(members=members, kind=f.get("kind", ""), title=f.get("title", ""),
                     body=f.get("body", ""), defines=tuple(f.get("defs") or ()),
                     score=float(score), completions=tuple(f.get("completions") or ()),
                     family=f.get("family") or (members[0].id if members else ""))


@lru_cache(maxsize=20_000)
def _members(raw: str) -> tuple[Member, ...]:
    return tuple(Member(id=m[0], doc=m[1], era=m[2], number=m[3], rank=int(m[4]),
                        breadcrumb=tuple(tuple(c) for c in m[5]))
                 for m in json.loads(raw))
