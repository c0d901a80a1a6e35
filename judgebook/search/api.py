"""search() and complete(): what the CLI and the web app call.

A query goes: our grammar (querygrammar) -> an exact lookup when it names a
rule number or section id (never fuzzed) -> question words dropped -> card
names spotted -> spelling correction (words the index lacks, and rare words
a neighbour disowns: "brian damage") -> synonyms, never inside a card name ->
the backend's cascade (words side by side, all words, any word) -> re-ranking
(exact titles, a term's own definition, today's rules before history) -> one
hit per rule across CR versions -> snippets. Never raises on any query.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from judgebook.search import querygrammar as qg
from judgebook.search.querygrammar import Filters, ParsedQuery
from judgebook.search.schema import (
    Alternative, Completion, Member, Plan, StoredHit, Unit, fold,
)

SYNONYM_WEIGHT = 0.8      # a synonym counts a little less than the word typed
TITLE_BONUS = 3.0         # the whole query is the section's title
DEFINES_BONUS = 3.5       # the section defines the whole query (over a bare heading)
MAX_LIMIT = 100
MAX_CARD_WORDS = 8        # longest card name looked for in a query
RARE = 3                  # a word in this few sections may be a typo of a common one
COMMON_FACTOR = 5         # ... if its correction is this many times more common
TITLE_WORDS_BONUS = 1.5   # every word of the query is in the title
DEFINES_PART_BONUS = 1.5  # the section defines some of the query's words ("steal" an agenda)
NEWEST_PRIOR = 1.1        # a section of the newest loaded CR
HISTORY_PRIOR = 0.6       # a rulebook page or a 1996 text: still found, but after today's rules
_NUMBERISH = re.compile(r"^(?:r|rule\s*)?\d[\d.]*(?:\s?[a-z])?$", re.I)

__all__ = ["SearchHit", "SearchResponse", "Completion", "Filters", "search", "complete"]


@dataclass
class SearchHit:
    id: str
    doc: str
    number: str
    title: str
    kind: str
    score: float
    snippet_html: str
    snippet_text: str
    breadcrumb: list[tuple[str, str]] = field(default_factory=list)
    era: str = ""
    versions: list[str] = field(default_factory=list)   # the same text in other documents

    def to_json(self) -> dict:
        return {"id": self.id, "doc": self.doc, "number": self.number, "title": self.title,
                "kind": self.kind, "era": self.era, "score": round(self.score, 4),
                "snippet": self.snippet_text, "snippet_html": self.snippet_html,
                "breadcrumb": [list(b) for b in self.breadcrumb], "versions": self.versions}


@dataclass
class SearchResponse:
    results: list[SearchHit]
    message: str = ""
    did_you_mean: str = ""
    total: int = 0


# ---- entry points --------------------------------------------------------------
def search(query: str, limit: int = 10, filters: Filters | Mapping | None = None, *,
           index_dir: str | Path | None = None) -> SearchResponse:
    """Ranked sections for `query`; problems come back as `message`, never as exceptions."""
    limit = _clamp(limit)
    parsed = qg.parse(query)
    given, notes = coerce_filters(filters)
    messages = list(parsed.messages) + notes
    try:
        reader = _reader(index_dir)
    except (FileNotFoundError, OSError, ValueError) as exc:
        return SearchResponse([], str(exc))
    wanted = parsed.filters.merged(given)
    bad = _unknown_filter_values(reader, wanted)
    if bad:
        return SearchResponse([], " ".join(messages + [bad]))
    if parsed.empty:
        hint = "Type a rule number (1.16.10b), a term (paid ability window) or a card name."
        return SearchResponse([], " ".join(messages + [hint]))
    try:
        return _answer(reader, parsed, wanted, limit, messages)
    except Exception as exc:   # a damaged index, an engine limit: a message, never a traceback
        return SearchResponse([], " ".join(messages + [f"Search failed ({type(exc).__name__}: {exc})."]))


def complete(prefix: str, limit: int = 10, *, index_dir: str | Path | None = None,
             ) -> list[Completion]:
    """Suggestions for a search box: rule numbers, titles, defined terms, card names."""
    limit = _clamp(limit)
    text, _ = qg.clean(prefix)
    if not text:
        return []
    try:
        reader = _reader(index_dir)
    except (FileNotFoundError, OSError, ValueError):
        return []
    if _NUMBERISH.match(text):
        return _complete_numbers(reader, text, limit)
    key = fold(text)
    return _complete_keys(reader, key, limit) if key else []


def coerce_filters(filters) -> tuple[Filters, list[str]]:
    """A `Filters` from None, a Filters, or a mapping like {"doc": "cr-1.6", "kind": ["rule"]}."""
    if filters is None:
        return Filters(), []
    if isinstance(filters, Filters):
        return filters, []
    if not isinstance(filters, Mapping):
        return Filters(), [f"Filters must be a mapping like {{'doc': 'cr-26.03'}}; got {type(filters).__name__}."]
    out, notes = {}, []
    for key, value in filters.items():
        if key not in qg.FILTER_KEYS:
            notes.append(f"Unknown filter '{key}' ignored (use doc, era or kind).")
            continue
        values = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple, set)) else []
        parsed = qg.parse(" ".join(f"{key}:{v}" for v in values if isinstance(v, str) and v))
        out[key] = getattr(parsed.filters, key)
    return Filters(**out), notes


# ---- the answer ------------------------------------------------------------------
def _answer(reader, parsed: ParsedQuery, filters: Filters, limit: int,
            messages: list[str]) -> SearchResponse:
    if parsed.ref is not None:
        found = _ref_hits(reader, parsed.ref, filters)
        if found:
            return _ref_response(reader, parsed.ref, found, filters, limit, messages)
        if parsed.ref.number:
            where = f" in {parsed.ref.doc}" if parsed.ref.doc else " in the loaded documents"
            messages.append(f"No rule numbered {parsed.ref.number}{where}; searched the text instead.")
    plan, corrected, variants = _plan(reader, parsed, filters)
    raw, total = reader.search(plan, limit + 5, enough=limit)   # a few spare for collapsing
    hits = _rerank(raw, variants, plan)
    if any(len(u.alternatives) > 1 for u in plan.units):
        hits = _with_todays_word(reader, plan, variants, hits)
    did_you_mean = ""
    if corrected != _query_text(parsed):
        did_you_mean = corrected
        messages.append(f"Showing results for \u201c{corrected}\u201d.")
    if not hits:
        messages.append(f"No matches for \u201c{_query_text(parsed)}\u201d.")
    keys = _highlight_keys(plan)
    pattern = _snippet_pattern(keys)
    out = [_hit(h, m, keys, pattern, score=sc, versions=v)
           for sc, h, m, v in _collapse(hits, filters)[:limit]]
    return SearchResponse(out, " ".join(messages), did_you_mean, total)


def _with_todays_word(reader, plan: Plan, variants: set[str],
                      hits: list[tuple[float, StoredHit]]) -> list[tuple[float, StoredHit]]:
    """Make sure the best hit for the synonyms alone ("credit" for "bits") is among the first two.

    An old or slang word is rare, so its own texts (the 1996 glossary's "Bit")
    outscore the common word of today; the judge wants both side by side.
    """
    units = tuple(Unit(u.alternatives[1:]) if len(u.alternatives) > 1 else u for u in plan.units)
    alt_plan = Plan(units=units, exclude=plan.exclude, numbers=plan.numbers, filters=plan.filters)
    raw, _ = reader.search(alt_plan, 5, enough=1)
    best = _rerank(raw, variants, alt_plan)[:1]
    if not best or any(h.id == best[0][1].id for _, h in hits[:2]):
        return hits
    rest = [p for p in hits if p[1].id != best[0][1].id]
    return rest[:1] + best + rest[1:]


def _collapse(scored: list[tuple[float, StoredHit]], filters: Filters
              ) -> list[tuple[float, StoredHit, Member, list[str]]]:
    """One hit per rule: the newest version the filters allow, at its family's best place."""
    families: dict[str, list[tuple[float, StoredHit]]] = {}
    for score, h in scored:
        families.setdefault(h.family or h.id, []).append((score, h))
    out = []
    for group in families.values():
        shown = min((h for _, h in group), key=lambda h: (h.member(filters).rank, -h.score))
        m = shown.member(filters)
        others = [o.id for _, h in group for o in h.members if o.id != m.id]
        out.append((group[0][0], shown, m, others))
    return out


Shown = tuple  # (StoredHit, Member): a record and which of its sections to show


def _ref_hits(reader, ref: qg.Ref, filters: Filters) -> list[Shown]:
    shown: list[Shown] = []
    if ref.id:
        for h in reader.by_id(ref.id, filters):
            shown += [(h, m) for m in h.members if m.id == ref.id]
    if ref.number:
        numbered = []
        for h in reader.by_number(ref.number, filters):
            numbered += [(h, m) for m in h.members if m.number == ref.number and _allowed(m, filters)]
        numbered.sort(key=lambda p: (p[1].doc != ref.doc, p[1].rank, p[1].id))
        shown += [p for p in numbered if p[1].id not in {m.id for _, m in shown}]
    return shown


def _allowed(m: Member, filters: Filters) -> bool:
    return not ((filters.doc and m.doc not in filters.doc) or (filters.era and m.era not in filters.era))


def _ref_response(reader, ref: qg.Ref, found: list[Shown], filters: Filters, limit: int,
                  messages: list[str]) -> SearchResponse:
    shown = found[:limit]
    if ref.number and len(shown) < limit:
        # Then the sections that cite the rule ("see 1.16.10b").
        seen = {m.id for _, m in shown}
        cites, _ = reader.search(Plan(numbers=(ref.number,), filters=filters), limit)
        shown += [(h, h.member(filters)) for h in cites
                  if h.member(filters).id not in seen][:limit - len(shown)]
    keys = {ref.number} if ref.number else set()
    out = [_hit(h, m, keys, _snippet_pattern(keys), score=float(len(shown) - i))
           for i, (h, m) in enumerate(shown)]
    return SearchResponse(out, " ".join(messages), "", len(found))


# ---- from parsed query to plan -------------------------------------------------------
def _plan(reader, parsed: ParsedQuery, filters: Filters) -> tuple[Plan, str, set[str]]:
    """The backend plan, the query as corrected, and the keys of the query's whole-phrase variants."""
    from judgebook.search import backend, fuzzy, synonyms

    words, numbers, units = [], [], []
    for clause in parsed.keywords:
        if clause.phrase:
            units.append(Unit((Alternative(clause.words),)))
        elif qg.looks_like_number(clause.words[0]):
            numbers.append(qg.canonical_number(clause.words[0]) or clause.words[0].lower())
        else:
            words.append(clause.words[0])
    cards = _card_positions(reader, words)
    expansions = synonyms.expand(words, backend.stem, protected=cards)
    fixed = list(words)
    for i, word in enumerate(words):
        if i in cards or any(e.start <= i < e.end for e in expansions) or not fuzzy.fuzzable(word):
            continue
        fixed[i] = _correct(reader, words, i) or word
    if fixed != words:
        # A corrected word may start a synonym: "brian damage" -> "brain damage" -> core damage.
        expansions = synonyms.expand(fixed, backend.stem, protected=cards)
    units = _word_units(fixed, expansions) + units
    variants = _variants(fixed, expansions, parsed)
    plan = Plan(units=tuple(units), exclude=tuple(c.words for c in parsed.negative),
                numbers=tuple(numbers), filters=filters)
    corrected = _query_text(parsed, dict(zip(words, fixed)))
    return plan, corrected, variants


def _correct(reader, words: list[str], i: int) -> str | None:
    """A better spelling of words[i]: for a word the index lacks, or a rare one a neighbour disowns.

    "brian" occurs (a name in a ruling), but "brian damage" does not, while
    "brain damage" does: a rare word is corrected only when the correction
    makes a phrase with a neighbouring word that the index holds.
    """
    from judgebook.search import fuzzy
    word = words[i]
    freq = reader.frequency(word)
    if freq < 0 or freq > RARE:
        return None
    candidates = reader.spelling_candidates(word, fuzzy.max_edits(word) if freq == 0 else 1)
    if freq == 0:
        return fuzzy.best(fold(word), candidates)
    neighbours = [n for n in (words[i - 1] if i else "", words[i + 1] if i + 1 < len(words) else "") if n]
    if not neighbours:
        return None
    common = [(c, f) for c, f in candidates if f >= COMMON_FACTOR * freq]
    while common:
        best = fuzzy.best(fold(word), common)
        if best is None:
            return None
        if any(reader.phrase_exists(pair) for pair in _pairs(words, i, best)):
            return best
        common = [(c, f) for c, f in common if c != best]
    return None


def _pairs(words: list[str], i: int, replacement: str) -> list[tuple[str, str]]:
    out = []
    if i:
        out.append((words[i - 1], replacement))
    if i + 1 < len(words):
        out.append((replacement, words[i + 1]))
    return out


def _word_units(words: list[str], expansions) -> list[Unit]:
    from judgebook.search import backend
    units, i = [], 0
    starts = {e.start: e for e in expansions}
    while i < len(words):
        exp = starts.get(i)
        if exp is None:
            units.append(Unit((Alternative((words[i],)),)))
            i += 1
            continue
        original = tuple(words[exp.start:exp.end])
        own = _key(original)
        alts = [Alternative(original)] + [Alternative(a, SYNONYM_WEIGHT) for a in exp.also
                                          if _key(a) != own]
        units.append(Unit(tuple(alts)))
        i = exp.end
    return units


def _variants(words: list[str], expansions, parsed: ParsedQuery) -> set[str]:
    """Stem keys of the whole query and of it with each synonym in place: for exact-title bonuses."""
    from judgebook.search import backend
    phrases = [w for c in parsed.positive if c.phrase for w in c.words]
    base = list(words) + phrases
    keys = {_key(base)}
    for e in expansions:
        for alt in e.also:
            keys.add(_key(list(words[:e.start]) + list(alt) + list(words[e.end:]) + phrases))
    keys.discard("")
    return keys


def _card_positions(reader, words: list[str]) -> set[int]:
    """Word positions inside a card name the query contains (longest names first)."""
    folded = [fold(w) for w in words]
    taken: set[int] = set()
    # One-word names are left out: a card called like a common word would
    # otherwise switch synonyms off for that word everywhere.
    for n in range(min(MAX_CARD_WORDS, len(words)), 1, -1):
        for start in range(len(words) - n + 1):
            span = set(range(start, start + n))
            if span & taken:
                continue
            if reader.is_card_name(" ".join(folded[start:start + n])):
                taken |= span
    return taken


ARTICLES = frozenset({"a", "an", "the"})


def _key(words) -> str:
    """A whole title or query, compared: folded, stemmed, without articles ("In a server" != "server")."""
    from judgebook.search import backend
    return " ".join(backend.word_key(w) for w in fold(" ".join(words)).split() if w not in ARTICLES)


# ---- ranking and presentation ---------------------------------------------------------
def _rerank(hits: list[StoredHit], variants: set[str], plan: Plan) -> list[tuple[float, StoredHit]]:
    """(score, hit) pairs, best first, after the bonuses for titles and definitions."""
    wanted = {k for u in plan.units for k in _key(u.alternatives[0].words).split()}

    def bonus(h: StoredHit) -> float:
        # The best reason counts, once: a glossary entry's title is also its defined term.
        title = _text_key(h.title)
        defined = [_text_key(d) for d in h.defines]
        reasons = [1.0]
        if title and title in variants:
            reasons.append(TITLE_BONUS)
        elif title and wanted and wanted <= set(title.split()):
            reasons.append(TITLE_WORDS_BONUS)
        if any(d in variants for d in defined):
            reasons.append(DEFINES_BONUS)
        elif any(d and set(d.split()) <= wanted for d in defined):
            reasons.append(DEFINES_PART_BONUS)
        return max(reasons)

    def boosted(h: StoredHit) -> float:
        return h.score * _prior(h) * bonus(h)
    return sorted(((boosted(h), h) for h in hits), key=lambda p: (-p[0], p[1].rank, p[1].id))


@lru_cache(maxsize=50_000)
def _text_key(text: str) -> str:
    from judgebook.search import backend
    return _key([text]) if text else ""


def _prior(h: StoredHit) -> float:
    """Today's rules before history: the newest CR a little up, rulebook pages and 1996 a little down."""
    m = h.members[0]
    if m.rank == 0:
        return NEWEST_PRIOR
    if h.kind == "page" or m.era == "onr-1996":
        return HISTORY_PRIOR
    return 1.0


def _highlight_keys(plan: Plan) -> set[str]:
    from judgebook.search import backend
    keys = {backend.stem(w) for u in plan.units for a in u.alternatives for w in a.words}
    keys |= {n.lower() for n in plan.numbers}
    keys.discard("")
    return keys


def _snippet_pattern(keys: set[str]):
    from judgebook.search import snippets
    return snippets.candidate_pattern(keys)


def _hit(h: StoredHit, m: Member, keys: set[str], pattern, score: float,
         versions: list[str] | None = None) -> SearchHit:
    from judgebook.search import backend, snippets
    body = snippets.flatten(h.body)
    spans = snippets.matches(body, pattern, keys, backend.stem_token)
    html, text = snippets.snippet(body, spans)
    return SearchHit(id=m.id, doc=m.doc, number=m.number, title=h.title, kind=h.kind,
                     score=score, snippet_html=html, snippet_text=text,
                     breadcrumb=list(m.breadcrumb), era=m.era, versions=list(versions or ()))


def _query_text(parsed: ParsedQuery, replace: dict[str, str] | None = None) -> str:
    replace = replace or {}
    parts = []
    for c in parsed.clauses:
        words = " ".join(replace.get(w, w) for w in c.words)
        parts.append(("-" if c.negated else "") + (f'"{words}"' if c.phrase else words))
    for name in qg.FILTER_KEYS:
        values = getattr(parsed.filters, name)
        if values:
            parts.append(f"{name}:{','.join(values)}")
    return " ".join(parts)


# ---- completion ---------------------------------------------------------------------
def _complete_numbers(reader, text: str, limit: int) -> list[Completion]:
    prefix = re.sub(r"^(?:r|rule)\s*", "", text.lower()).replace(" ", "")
    numbers = sorted(reader.numbers_with_prefix(prefix), key=_number_order)[:limit]
    out = []
    for number in numbers:
        hits = reader.by_number(number, Filters())
        if not hits:
            continue
        h = min(hits, key=lambda x: x.member(number=number).rank)
        m = h.member(number=number)
        out.append(Completion(text=number, kind="number", id=m.id, doc=m.doc,
                              label=" ".join(p for p in (number, h.title) if p) + f" \u2014 {m.doc}"))
    return out


def _number_order(number: str) -> tuple:
    return tuple((int(p), "") if p.isdigit() else (int(p[:-1] or 0), p[-1])
                 for p in re.findall(r"\d+[a-z]?", number))


def _complete_keys(reader, prefix: str, limit: int) -> list[Completion]:
    out: list[Completion] = []
    seen: set[str] = set()
    for key, hits in reader.keys_with_prefix(prefix, limit):
        best = min(hits, key=lambda h: (h.kind not in ("card", "glossary-entry"), h.rank, h.id))
        text = next((c for c in best.completions if fold(c) == key), key)
        if fold(text) in seen:
            continue
        seen.add(fold(text))
        kind = ("card" if best.kind == "card" else
                "term" if any(fold(d) == key for d in best.defines) else "title")
        m = best.members[0]
        out.append(Completion(text=text, kind=kind, id=m.id, doc=m.doc,
                              label=f"{text} \u2014 {m.doc}"))
    # Terms and rule titles before card names: the box is for rules first.
    out.sort(key=lambda c: (("term", "title", "card").index(c.kind), len(c.text), c.text.lower()))
    return out[:limit]


# ---- plumbing ---------------------------------------------------------------------
def _reader(index_dir):
    from judgebook.search import backend
    if index_dir is None:
        from judgebook.store import paths
        path = paths.current_generation() / paths.WHOOSH
    else:
        path = Path(index_dir)
        if not any(path.glob("*.toc")) and (path / "whoosh").is_dir():
            path = path / "whoosh"
    return backend.open_reader(path.resolve())


def _unknown_filter_values(reader, filters: Filters) -> str:
    problems = []
    for name in qg.FILTER_KEYS:
        values = getattr(filters, name)
        if not values:
            continue
        known = reader.values(name)
        missing = [v for v in values if v not in known]
        if missing:
            problems.append(f"No {name} '{', '.join(missing)}' in the index "
                            f"(known: {', '.join(k for k in known if k != 'none')}).")
    return " ".join(problems)


def _clamp(limit) -> int:
    try:
        return max(1, min(MAX_LIMIT, int(limit)))
    except (TypeError, ValueError):
        return 10
