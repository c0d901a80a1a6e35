"""The one module that knows Whoosh (whoosh-reloaded 2.7.5, classic API only).

Everything else in judgebook.search speaks `IndexRecord`, `Plan`,
`StoredHit` and `Completion`; replacing the engine means rewriting this file
alone. Readers are opened once per process, per index folder.
"""
from __future__ import annotations

import copy
import heapq
import json
import math
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import cast

from whoosh import analysis, fields, index, scoring
from whoosh import query as Q
from whoosh.lang.porter import stem as _porter
from whoosh.support.charset import accent_map

from judgebook.search import semantic
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
# A word in more than this share of the texts ("runner", "card", "turn") is
# common: in a question it adds to a text's score but brings no text in.
COMMON_SHARE = 0.15
COMMON_IDF = math.log(1 + 1 / COMMON_SHARE)   # the same, as `Reader.rarity` measures it
BM25_B = 0.75             # Whoosh's defaults
BM25_K1 = 1.2
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
        superseded=fields.STORED(),
        stems=fields.STORED(),
        heads=fields.STORED(),
        about=fields.STORED(),
        about2=fields.STORED(),
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
    terms = [t.text for t in ANALYZER(index_text(f"{heading}\n{rec.context}\n{rec.text}"))]
    return dict(
        id=rec.id, ids=_many(m.id for m in ms), doc=_many(m.doc for m in ms),
        era=_many(m.era or "none" for m in ms), number=_many(m.number for m in ms if m.number),
        kind=rec.kind, text=" ".join(terms),
        # The heading repeated weighs pairs in titles and defined terms, as in `text`.
        pairs="\n".join(f"{a} {b}" for a, b in zip(terms, terms[1:], strict=False)),
        spell=" ".join(_vocabulary(rec)),
        card=rec.card_name, keys=",".join(keys), title=rec.title, body=rec.body,
        members=json.dumps([[m.id, m.doc, m.era, m.number, m.rank, m.breadcrumb] for m in ms],
                           ensure_ascii=False),
        defs=list(rec.defines), completions=list(rec.keys), family=rec.family,
        superseded=rec.superseded_by,
        # Each distinct indexed word once (titles and enclosing titles included):
        # the re-ranker asks which of a question's words a text has, and which
        # its headings have (what the text is about).
        stems=" ".join(sorted(set(terms))),
        heads=" ".join(heading_stems(rec)),
        # What the text is about, for a question's semantic re-ranking.
        about=(about := semantic.record_vector(semantic.default_table(), rec.title, rec.text)),
        about2=semantic.norm2(about),
    )


def heading_stems(rec: IndexRecord) -> list[str]:
    """The indexed words of a record's title and enclosing headings, each once: what it is about."""
    return sorted({t.text for t in ANALYZER(index_text(f"{rec.title}\n{rec.context}"))})


_LETTERS = re.compile(r"[^\W\d_]+")


def _vocabulary(rec: IndexRecord) -> list[str]:
    """Each distinct word once: spelling correction needs the vocabulary, not the counts."""
    text = "\n".join((rec.title, rec.text, *rec.defines))
    return sorted({w.lower() for w in _LETTERS.findall(text)})


def _many(values: Iterable[str]) -> str:
    return ",".join(dict.fromkeys(v for v in values if v))


# ---- reading -------------------------------------------------------------------
_readers: dict[str, Reader] = {}
_readers_lock = threading.Lock()
MAX_OPEN = 3
MEMO_SIZE = 50_000   # remembered vocabulary look-ups per reader
SCORES_KEPT = 4_000  # words whose scores a reader keeps (the oldest go first)


def open_reader(path: Path) -> Reader:
    """The reader of the index in `path`, one per process (opening one costs most of a second).

    Whoosh searchers are not safe to share between threads, so callers hold
    `reader.lock` while they use it; a server's worker processes each have
    their own reader and never contend for it.
    """
    key = str(path)
    reader = _readers.get(key)
    if reader is not None:
        return reader
    with _readers_lock:
        reader = _readers.get(key)
        if reader is None:
            # After a rebuild `current` names a new folder: keep only the last few open.
            # A reader dropped here may still be in use; it closes when collected.
            while len(_readers) >= MAX_OPEN:
                _readers.pop(next(iter(_readers)))
            reader = _readers[key] = Reader(path)
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
        super().__init__(B=BM25_B, K1=BM25_K1)
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
        self.lock = threading.RLock()
        self.searcher = self.index.searcher(weighting=_Weighting())
        self.reader = self.searcher.reader()
        self._analyzer = ANALYZER
        self._values: dict[str, list[str]] = {}
        self._filters: dict[Filters, set[int]] = {}
        # Look-ups that depend on the index alone (this reader's vocabulary),
        # remembered per reader: a judge retypes the same words all day.
        self._memo: dict[tuple, object] = {}
        self._scores: dict[tuple[str, str], dict[int, float]] = {}

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

    def rarity(self, words: Sequence[str]) -> float:
        """How telling `words` are: the inverse document frequency of their rarest indexed word."""
        return self._remember(("rarity", tuple(words)), lambda: self._rarity(words))

    def _rarity(self, words: Sequence[str]) -> float:
        terms = self.analyze(" ".join(words))
        if not terms:
            return 0.0
        n = self.reader.doc_count_all()
        df = min(self.reader.doc_frequency("text", t) for t in terms)
        return math.log(1 + n / (1 + df))

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
        return all(self.reader.doc_frequency("pairs", f"{a} {b}") > 0 for a, b in zip(terms, terms[1:], strict=False))

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
        return list(self._remember(("id", section_id, filters),
                                   lambda: tuple(self._all(Q.Term("ids", section_id), filters))))

    def _all(self, q, filters: Filters) -> list[StoredHit]:
        allowed = self._allowed(filters)
        return [self._by_docnum(d) for d in self.searcher.docs_for_query(q)
                if allowed is None or d in allowed]

    # -- ranked search ----------------------------------------------------------
    # Whoosh stores the index; the scoring is done here, from each word's BM25
    # scores (computed as Whoosh computes them, once per reader and word) as
    # maps of document -> score: a query is a few dictionary walks instead of
    # a matcher per posting. The static export's search (search-static.js)
    # combines the same maps the same way, in the same order.
    def search(self, plan: Plan, limit: int, enough: int | None = None) -> tuple[list[StoredHit], int]:
        """Up to `limit` documents, best first; `enough` is when to stop trying looser queries."""
        units, weights = self._unit_maps(plan)
        if not units:
            return [], 0
        enough = limit if enough is None else enough
        allowed = self._allowed(plan.filters)
        excluded = [x for x in (self._words_map(w, 1.0) for w in plan.exclude) if x is not None]
        # Cheapest and most precise first: the words side by side, then all
        # of them anywhere, then (when almost nothing had them all) any of them.
        steps: list[tuple[Callable[[], dict[int, float]], int]] = (
            [(lambda: units[0], enough)] if len(units) == 1
            else [(lambda: _intersection(units), enough), (lambda: _union(units), min(3, enough))])
        if plan.question and len(units) > 1:
            # A question's words are not all in the rule that answers it (the
            # rule says "identities are not installed", the player asks about
            # "the identity card"): any of them bring candidates in, always,
            # scored by how many they have and how rare those are (BM25's sum).
            steps = [(lambda: _any_word(units, weights), limit)]
        if not (plan.apart or plan.question):
            steps.insert(0, (lambda: self._adjacent_map(plan) or {}, enough))
        hits: list[StoredHit] = []
        seen: set[int] = set()
        total = 0
        for scores_of, needed in steps:
            if len(hits) >= needed:
                break
            scores = scores_of()
            if allowed is None and not excluded:   # the usual case, without a test per text
                items = [(v, -d) for d, v in scores.items()]
            else:
                items = [(v, -d) for d, v in scores.items()
                         if (allowed is None or d in allowed) and not any(d in x for x in excluded)]
            total = max(total, len(items))
            for v, neg in heapq.nlargest(limit, items):
                if -neg not in seen:
                    seen.add(-neg)
                    hits.append(self._document(-neg, v))
        return hits[:limit], total

    def _unit_maps(self, plan: Plan) -> tuple[list[dict[int, float]], list[float]]:
        """Each unit's scores (its alternatives summed), and how rare each unit is."""
        maps, weights = [], []
        for u in plan.units:
            alts = [m for m in (self._words_map(a.words, a.weight) for a in u.alternatives) if m is not None]
            if alts:
                maps.append(alts[0] if len(alts) == 1 else _union(alts))
                weights.append(u.weight)
        for n in plan.numbers:
            maps.append(self._number_map(n))
            weights.append(COMMON_IDF)
        return maps, weights

    def _number_map(self, number: str) -> dict[int, float]:
        """A rule number inside a query: the sections numbered so (8, as a boosted keyword
        scores in Whoosh), and the texts citing it."""
        numbered = {d: 8.0 for d in self.searcher.docs_for_query(Q.Term("number", number))}
        return _union([numbered, self._term_map("text", number, 1.0)])

    def _words_map(self, words: Sequence[str], weight: float) -> dict[int, float] | None:
        """One word's scores, or a phrase's: its word pairs, in the texts having them all."""
        terms = self.analyze(" ".join(words))
        if not terms:
            return None
        if len(terms) == 1:
            return self._term_map("text", terms[0], weight)
        pairs = [self._term_map("pairs", f"{a} {b}", weight) for a, b in zip(terms, terms[1:], strict=False)]
        return pairs[0] if len(pairs) == 1 else _intersection(pairs)

    def _adjacent_map(self, plan: Plan) -> dict[int, float] | None:
        """The plain words of the query side by side, as typed, with the other units."""
        simple = [u for u in plan.units if len(u.alternatives) == 1 and len(u.alternatives[0].words) == 1]
        if len(simple) < 2:
            return None
        words = tuple(u.alternatives[0].words[0] for u in simple)
        together = self._words_map(words, 1.0)
        if together is None:
            return None
        required = [m for m in (self._unit_map(u) for u in plan.units if u not in simple) if m is not None]
        required += [self._number_map(n) for n in plan.numbers]
        base = _intersection([together, *required]) if required else together
        # The words themselves score too: their weight in titles and definitions counts.
        terms = self.analyze(" ".join(words))
        if not terms:
            return base
        return _and_maybe(base, _union([self._term_map("text", t, 1.0) for t in terms]))

    def _unit_map(self, unit: Unit) -> dict[int, float] | None:
        alts = [m for m in (self._words_map(a.words, a.weight) for a in unit.alternatives) if m is not None]
        if not alts:
            return None
        return alts[0] if len(alts) == 1 else _union(alts)

    def _term_map(self, fieldname: str, term: str, boost: float) -> dict[int, float]:
        scores = self._term_scores(fieldname, term)
        return scores if boost == 1.0 else {d: v * boost for d, v in scores.items()}

    def _term_scores(self, fieldname: str, term: str) -> dict[int, float]:
        """Each document's BM25 score for one indexed term of a field (as Whoosh computes it)."""
        cache = self._scores
        got = cache.get((fieldname, term))
        if got is None:
            if len(cache) >= SCORES_KEPT:
                cache.pop(next(iter(cache)))
            got = cache[(fieldname, term)] = self._score_term(fieldname, term)
        return got

    def _score_term(self, fieldname: str, term: str) -> dict[int, float]:
        if (fieldname, term) not in self.reader:
            return {}
        idf = self.searcher.idf(fieldname, term)
        avgfl = self.searcher.avg_field_length(fieldname) or 1
        length = self.searcher.weighting._lengths_of(self.reader, fieldname)
        b, k1 = self.searcher.weighting.B, self.searcher.weighting.K1
        return {docnum: scoring.bm25(idf, weight, length(docnum), avgfl, b, k1)
                for docnum, weight in self.reader.postings(fieldname, term).items_as("weight")}

    def _allowed(self, filters: Filters):
        """The documents a filter lets through, computed once per reader and filter."""
        if not filters:
            return None
        if filters not in self._filters:
            if len(self._filters) > 64:
                self._filters.clear()
            self._filters[filters] = set(self.searcher.docs_for_query(_filter(filters)))
        return self._filters[filters]

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
        hit = cast(StoredHit | None, self._memo.get(key))
        if hit is None:
            hit = cast(StoredHit, self._remember(key, lambda: _stored(self.searcher.stored_fields(docnum), 0.0)))
        if not score:
            return hit
        # dataclasses.replace re-runs __init__: a shallow copy with the score set is a tenth of it.
        scored = copy.copy(hit)
        object.__setattr__(scored, "score", float(score))
        return scored


def _union(maps: Sequence[dict[int, float]]) -> dict[int, float]:
    """Any of them, each document's scores summed (in order)."""
    out: dict[int, float] = {}
    for m in maps:
        for d, v in m.items():
            out[d] = out.get(d, 0) + v
    return out


def _intersection(maps: Sequence[dict[int, float]]) -> dict[int, float]:
    """All of them, each document's scores summed (in order)."""
    if not maps:
        return {}
    smallest = min(maps, key=len)
    out: dict[int, float] = {}
    for d in smallest:
        total = 0.0
        for m in maps:
            v = m.get(d)
            if v is None:
                break
            total += v
        else:
            out[d] = total
    return out


def _and_maybe(base: dict[int, float], optional: dict[int, float]) -> dict[int, float]:
    """The documents of `base`, with `optional`'s score added where it has one."""
    return {d: (v if (o := optional.get(d)) is None else v + o) for d, v in base.items()}


def _any_word(units: list[dict[int, float]], weights: list[float]) -> dict[int, float]:
    """Documents with any of the units, scored by the sum of those they have.

    Walking every posting of "runner", "card" or "turn" is most of a
    question's cost, and a text with none of the question's rarer words does
    not answer it: the common words only add to the score of texts that have
    a rarer one. All words common: any of them.
    """
    rare = [m for m, w in zip(units, weights, strict=True) if w >= COMMON_IDF]
    common = [m for m, w in zip(units, weights, strict=True) if w < COMMON_IDF]
    if not rare or not common:
        return _union(units)
    # As _and_maybe(_union(rare), _union(common)), to the same sums, without
    # walking the common words' long maps: only the rare words' texts are looked up.
    out = _union(rare)
    for d, v in out.items():
        extra = None
        for m in common:
            o = m.get(d)
            if o is not None:
                extra = o if extra is None else extra + o
        if extra is not None:
            out[d] = v + extra
    return out


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
                     family=f.get("family") or (members[0].id if members else ""),
                     superseded_by=f.get("superseded") or "",
                     stems=frozenset((f.get("stems") or "").split()),
                     heads=frozenset((f.get("heads") or "").split()),
                     about=f.get("about") or b"", about2=f.get("about2") or 0)


@lru_cache(maxsize=20_000)
def _members(raw: str) -> tuple[Member, ...]:
    return tuple(Member(id=m[0], doc=m[1], era=m[2], number=m[3], rank=int(m[4]),
                        breadcrumb=tuple(tuple(c) for c in m[5]))
                 for m in json.loads(raw))
