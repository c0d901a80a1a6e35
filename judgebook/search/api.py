"""search() and complete(): what the CLI and the web app call.

A query goes: our grammar (querygrammar) -> an exact lookup when it names a
rule number or section id (never fuzzed) -> question words dropped -> card
names spotted, spelling corrected (words the index lacks, and rare words a
neighbour disowns: "brian damage"), synonyms applied but never inside a card
name (planning) -> the backend's cascade: words side by side, all words, any
word (backend; for a question, no "side by side" across its dropped words, and
any-word hits fill a short list) -> titles, definitions, today's rules before
history, one hit per rule across CR versions (ranking) -> snippets, for the
hits returned only. Never raises on any query.

The backend (Whoosh) and snippets are imported lazily, inside the functions
that use them, for start-up speed; never guarded, so a missing one fails loudly.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from judgebook.search import completion, planning, ranking
from judgebook.search import querygrammar as qg
from judgebook.search.querygrammar import Filters, ParsedQuery
from judgebook.search.schema import Completion, Member, Plan, StoredHit, fold

MAX_LIMIT = 100
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
        return completion.complete_numbers(reader, text, limit)
    key = fold(text)
    return completion.complete_keys(reader, key, limit) if key else []


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


def _answer(reader, parsed: ParsedQuery, filters: Filters, limit: int,
            messages: list[str]) -> SearchResponse:
    if parsed.ref is not None:
        found = _ref_hits(reader, parsed.ref, filters)
        if found:
            return _ref_response(reader, parsed.ref, found, filters, limit, messages)
        if parsed.ref.number:
            where = f" in {parsed.ref.doc}" if parsed.ref.doc else " in the loaded documents"
            messages.append(f"No rule numbered {parsed.ref.number}{where}; searched the text instead.")
    plan, corrected, variants = planning.make_plan(reader, parsed, filters)
    raw, total = reader.search(plan, limit + 5, enough=limit)   # a few spare for collapsing
    hits = ranking.rerank(raw, variants, plan)
    if any(len(u.alternatives) > 1 for u in plan.units):
        hits = ranking.with_todays_word(reader, plan, variants, hits)
    did_you_mean = ""
    if corrected != planning.query_text(parsed):
        did_you_mean = corrected
        messages.append(f"Showing results for \u201c{corrected}\u201d.")
    if not hits:
        messages.append(f"No matches for \u201c{planning.query_text(parsed)}\u201d.")
    keys = _highlight_keys(plan)
    pattern = _snippet_pattern(keys)
    out = [_hit(h, m, keys, pattern, score=sc, versions=v)
           for sc, h, m, v in ranking.collapse(hits, filters)[:limit]]
    return SearchResponse(out, " ".join(messages), did_you_mean, total)


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
