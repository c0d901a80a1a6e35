"""search() and complete(): what the CLI and the web app call.

A query goes: our grammar (querygrammar) -> an exact lookup when it names a
rule number or section id (never fuzzed) -> question words dropped -> card
names spotted, spelling corrected (a word the index lacks is rewritten; a
word of the documents never is, its likely correction is searched alongside:
"brian damage"), synonyms applied but never inside a card name (planning) ->
the backend's cascade over per-word BM25 maps: words side by side, all words,
any word (for a question: any word that is not common, the common ones only
adding to the score) -> titles, definitions, eras (today's rules before
history, superseded texts after their current version), kinds (rules before
card texts, rulings and examples unless a card is named), for a question the
share of its words a text has, the share its headings have, the priors
counted twice, and examples standing for their rule, one hit
per rule across CR versions (ranking) -> snippets, for the hits returned
only. The ranking never depends on the limit (see FIRST). Never raises on
any query.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from judgebook.search import completion, planning, ranking
from judgebook.search import querygrammar as qg
from judgebook.search.querygrammar import Filters, ParsedQuery
from judgebook.search.schema import Completion, Member, Plan, StoredHit, fold

MAX_LIMIT = 100
# The ranking never depends on how many results are asked for: the backend
# always gathers the same FIRST candidates (trying looser queries until ENOUGH
# are found), the re-ranker orders them, and `limit` only cuts the list. Only
# a list longer than the first tier can give (after collapsing versions) also
# gathers the rest of the POOL, ranked after the first tier: so a shorter list
# is always the start of a longer one.
FIRST = 40
# A question's answer may share few of its words with it (a rare word brings
# it in, the common ones add little), so a question gathers more candidates
# for the re-ranker: measured on the relevance set's questions, MRR 0.700 ->
# 0.705 on the two thirds used to choose, 0.777 -> 0.793 on the held-out third,
# for about half as much again of a question's time.
QUESTION_FIRST = 100
POOL = MAX_LIMIT + 5       # a few spare, for hits that collapse into one rule
ENOUGH = 10
_NUMBERISH = re.compile(r"^(?:r|rule\s*)?\d[\d.]*(?:\s?[a-z])?$", re.I)

__all__ = ["Answer", "Citation", "SearchHit", "SearchResponse", "Completion", "Filters", "search", "complete"]


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
    # An older CR's text that the newest CR words differently: the id of the
    # current version ("" when this text is current or has no newer version).
    superseded_by: str = ""
    # Put first by the question bank: the id of the bank's question it answers ("" otherwise).
    answers: str = ""

    @property
    def superseded(self) -> bool:
        return bool(self.superseded_by)

    def to_json(self) -> dict:
        return {"id": self.id, "doc": self.doc, "number": self.number, "title": self.title,
                "kind": self.kind, "era": self.era, "score": round(self.score, 4),
                "snippet": self.snippet_text, "snippet_html": self.snippet_html,
                "breadcrumb": [list(b) for b in self.breadcrumb], "versions": self.versions,
                "superseded": self.superseded, "superseded_by": self.superseded_by,
                **({"answers": self.answers} if self.answers else {})}


@dataclass
class Citation:
    id: str
    number: str
    title: str


@dataclass
class Answer:
    """The question bank's answer to a question (question_bank.py), shown above the ranked rules."""
    id: str
    question: str               # the bank's phrasing that matched
    text: str                   # the answer, in our own words
    rules: list[Citation]       # the rules that decide it, in the bank's order
    source: str
    score: float

    def to_json(self) -> dict:
        return {"id": self.id, "question": self.question, "answer": self.text, "source": self.source,
                "score": round(self.score, 4),
                "rules": [{"id": c.id, "number": c.number, "title": c.title} for c in self.rules]}


@dataclass
class SearchResponse:
    results: list[SearchHit]
    message: str = ""
    did_you_mean: str = ""
    total: int = 0
    answer: Answer | None = None


# ---- entry points --------------------------------------------------------------
def search(query: str, limit: int = 10, filters: Filters | Mapping | None = None, *,
           index_dir: str | Path | None = None, bank: bool = True) -> SearchResponse:
    """Ranked sections for `query`; problems come back as `message`, never as exceptions.

    `bank=False` leaves the question bank out (question_bank.py): the ranking the static
    export computes, which has no bank."""
    limit = _clamp(limit)
    parsed = qg.parse(query)
    given, notes = coerce_filters(filters)
    messages = list(parsed.messages) + notes
    try:
        reader = _reader(index_dir)
    except (FileNotFoundError, OSError, ValueError) as exc:
        return SearchResponse([], str(exc))
    with reader.lock:       # one reader per process, shared by its threads
        wanted = parsed.filters.merged(given)
        bad = _unknown_filter_values(reader, wanted)
        if bad:
            return SearchResponse([], " ".join(messages + [bad]))
        if parsed.empty:
            hint = "Type a rule number (1.16.10b), a term (paid ability window) or a card name."
            return SearchResponse([], " ".join(messages + [hint]))
        try:
            # the bank is read when a question needs it: a lookup (or a cold CLI) never pays for it
            return _answer(reader, parsed, wanted, limit, messages, (lambda: _bank(index_dir)) if bank else None)
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
    with reader.lock:
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
            messages: list[str], bank: Callable[[], object] | None = None) -> SearchResponse:
    if parsed.ref is not None:
        found = _ref_hits(reader, parsed.ref, filters)
        if found:
            return _ref_response(reader, parsed.ref, found, filters, limit, messages)
        if parsed.ref.number:
            where = f" in {parsed.ref.doc}" if parsed.ref.doc else " in the loaded documents"
            messages.append(f"No rule numbered {parsed.ref.number}{where}; searched the text instead.")
    plan, corrected, suggested, variants = planning.make_plan(reader, parsed, filters)
    first = QUESTION_FIRST if plan.question else FIRST
    raw, total = reader.search(plan, first, enough=ENOUGH)
    shown = _ranked(reader, plan, variants, raw, filters)
    answer = None
    if plan.question and bank is not None and filters == Filters() and (questions := bank()) is not None:
        # on the first tier only, so that the order never depends on the limit
        answer, shown = _bank_first(reader, questions, parsed, shown)
    if limit > len(shown) and len(raw) >= first:
        more, total = reader.search(plan, POOL, enough=ENOUGH)
        taken = {h.id for h in raw} | {h.family or h.id for h in raw}
        rest = [h for h in more if h.id not in taken and (h.family or h.id) not in taken]
        have = {h.family or h.id for _, h, _, _ in shown} | {m.id for _, _, m, _ in shown}
        shown += [x for x in _ranked(reader, plan, variants, rest, filters)
                  if (x[1].family or x[1].id) not in have and x[2].id not in have]
    did_you_mean = ""
    typed = planning.query_text(parsed)
    if corrected != typed:
        did_you_mean = corrected
        messages.append(f"Showing results for \u201c{corrected}\u201d.")
    if suggested != corrected:
        # Words of the documents are never rewritten; their likely correction was searched too.
        did_you_mean = suggested
        messages.append(f"Also searched for \u201c{suggested}\u201d.")
    if not shown:
        messages.append(f"No matches for \u201c{planning.query_text(parsed)}\u201d.")
    keys = _highlight_keys(plan)
    pattern = _snippet_pattern(keys)
    out = [_hit(h, m, keys, pattern, score=sc, versions=v) for sc, h, m, v in shown[:limit]]
    if answer is not None:
        for hit in out:
            if hit.id in {c.id for c in answer.rules}:
                hit.answers = answer.id
    return SearchResponse(out, " ".join(messages), did_you_mean, total, answer)


def _bank_first(reader, bank, parsed: ParsedQuery, shown: list) -> tuple[Answer | None, list]:
    """A question close to one of the bank's: its answer, and the ranking fused with its rules."""
    from judgebook.search import question_bank as qb
    found = qb.best(bank, " ".join(w for c in parsed.positive for w in c.words))
    if found is None:
        return None, shown

    def where(rid: str) -> int | None:
        return next((i for i, (_, h, m, _) in enumerate(shown)
                     if m.id == rid or any(o.id == rid for o in h.members)), None)

    if not any((i := where(rid)) is not None and i < qb.GATE for rid in found.entry.rules):
        return None, shown
    scores = [1 / (qb.FUSION_K + i + 1) for i in range(len(shown))]
    rows = list(shown)
    cited = []
    for j, rid in enumerate(found.entry.rules):
        lift = qb.FUSION_WEIGHT / (qb.FUSION_K + j + 1)
        i = where(rid)
        if i is None:
            h = next(iter(reader.by_id(rid, Filters())), None)
            m = next((m for m in h.members if m.id == rid), None) if h is not None else None
            if h is None or m is None:
                continue
            rows.append((0.0, h, m, [o.id for o in h.members if o.id != rid]))
            scores.append(0.0)
            i = len(rows) - 1
        scores[i] += lift
        cited.append(Citation(rid, rows[i][2].number if rows[i][2].id == rid else "", rows[i][1].title))
    order = sorted(range(len(rows)), key=lambda i: -scores[i])
    top = rows[0][0] if rows else 0.0
    fused = [(top + scores[i], *rows[i][1:]) for i in order]
    e = found.entry
    return Answer(e.id, found.asked, e.answer, cited, e.source, found.score), fused


def _ranked(reader, plan: Plan, variants: set[str], raw: list[StoredHit], filters: Filters) -> list:
    """The re-ranker's order of `raw`, one hit per rule: (score, record, member shown, other versions)."""
    hits = ranking.examples_to_rules(reader, plan, ranking.rerank(raw, variants, plan))
    # (Not for a question: its words are today's, and "corp" also searching
    # "corporation" must not lift the 1996 rulebook into second place.)
    if not plan.question and any(len(u.alternatives) > 1 for u in plan.units):
        hits = ranking.with_todays_word(reader, plan, variants, hits)
    return ranking.collapse(hits, filters)


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
                     breadcrumb=list(m.breadcrumb), era=m.era, versions=list(versions or ()),
                     superseded_by=h.superseded_by)



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


def _bank(index_dir):
    """The question bank shipped with the index's generation (None without one)."""
    from judgebook.search import question_bank
    if index_dir is None:
        from judgebook.store import paths
        try:
            gen = paths.current_generation()
        except FileNotFoundError:
            return None
    else:
        path = Path(index_dir)
        gen = path.parent if any(path.glob("*.toc")) else path
    return question_bank.bank_for(gen)


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
