"""From a parsed query to the backend's plan: card names, spelling, synonyms.

Card names are spotted first (from the index's card-name field) so that no
synonym rewrites inside one; spelling is corrected for words the index lacks
and for rare words a neighbour disowns ("brian damage"); then the synonym
table applies. Also here: the keys that compare a whole title with the query.
The backend (Whoosh), fuzzy and synonyms are imported lazily, for start-up
speed; never guarded, so a missing one fails loudly.
"""
from __future__ import annotations

import dataclasses

from judgebook.numbers import normalise_number
from judgebook.search import querygrammar as qg
from judgebook.search.querygrammar import Filters, ParsedQuery
from judgebook.search.schema import Alternative, Plan, Unit, fold

SYNONYM_WEIGHT = 0.8      # a synonym counts a little less than the word typed
MAX_CARD_WORDS = 8        # longest card name looked for in a query
RARE = 3                  # a word in this few sections may be a typo of a common one
COMMON_FACTOR = 5         # ... if its correction is this many times more common


def make_plan(reader, parsed: ParsedQuery, filters: Filters) -> tuple[Plan, str, str, set[str]]:
    """The backend plan, the query as rewritten, the query as also searched, and the keys
    of the query's whole-phrase variants.

    Spelling correction rewrites only words the index lacks ("protocl"). A word
    the documents use ("tie", "brian") is never rewritten: when a neighbour
    disowns it ("brian damage"), its correction is searched alongside it.
    """
    from judgebook.search import backend, fuzzy, semantic, synonyms

    words, numbers, units = [], [], []
    for clause in parsed.keywords:
        if clause.phrase:
            units.append(Unit((Alternative(clause.words),)))
        elif qg.looks_like_number(clause.words[0]):
            numbers.append(normalise_number(clause.words[0]) or clause.words[0].lower())
        else:
            words.append(clause.words[0])
    cards = _card_positions(reader, words)
    expansions = synonyms.expand(words, backend.stem, protected=cards)
    fixed = list(words)
    also: dict[int, str] = {}
    for i, word in enumerate(words):
        if i in cards or any(e.start <= i < e.end for e in expansions) or not fuzzy.fuzzable(word):
            continue
        better = _correct(reader, words, i)
        if better and reader.frequency(word) > 0:
            also[i] = better
        elif better:
            fixed[i] = better
    searched = [also.get(i, w) for i, w in enumerate(fixed)]
    if searched != words:
        # A corrected word may start a synonym: "brian damage" -> "brain damage" -> core damage.
        expansions = synonyms.expand(searched, backend.stem, protected=cards)
    units = [dataclasses.replace(u, weight=reader.rarity(u.alternatives[0].words))
             for u in _word_units(searched, expansions, {i: fixed[i] for i in also}) + units]
    variants = _variants(searched, expansions, parsed)
    question = len(parsed.keywords) < len(parsed.positive)
    # Words with a question word between them were not typed side by side.
    kept = [i for i, c in enumerate(parsed.positive) if c in parsed.keywords]
    apart = question and bool(kept) and kept[-1] - kept[0] + 1 > len(kept)
    about = semantic.question_vector(semantic.default_table(), parsed) if question else ()
    plan = Plan(units=tuple(units), exclude=tuple(c.words for c in parsed.negative),
                numbers=tuple(numbers), filters=filters, question=question,
                apart=apart, names_card=bool(cards) or _single_card_name(reader, fixed), about=about)
    rewritten = query_text(parsed, dict(zip(words, fixed, strict=True)))
    suggested = query_text(parsed, dict(zip(words, searched, strict=True)))
    return plan, rewritten, suggested, variants


def _correct(reader, words: list[str], i: int) -> str | None:
    """A better spelling of words[i]: for a word the index lacks, or a rare one a neighbour disowns.

    "brian" occurs (a name in a ruling), but "brian damage" does not, while
    "brain damage" does: a rare word is corrected only when the correction
    makes a phrase with a neighbouring word that the index holds.
    """
    from judgebook.search import backend, fuzzy
    word = words[i]
    freq = reader.frequency(word)
    if freq < 0 or freq > RARE:
        return None
    # A stop word is never what was meant: it searches nothing ("tie" is not "the").
    candidates = [(c, f) for c, f in reader.spelling_candidates(word, fuzzy.max_edits(word) if freq == 0 else 1)
                  if backend.stem(c)]
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


def _word_units(words: list[str], expansions, kept: dict[int, str] | None = None) -> list[Unit]:
    """One unit per word or synonym span; `kept` maps positions whose word was corrected
    but is a word of the documents to that word, searched as well."""
    kept = kept or {}
    units, i = [], 0
    starts = {e.start: e for e in expansions}
    while i < len(words):
        exp = starts.get(i)
        end = exp.end if exp is not None else i + 1
        original = tuple(words[i:end])
        own = phrase_key(original)
        alts = [Alternative(original)]
        if exp is not None:
            alts += [Alternative(a, SYNONYM_WEIGHT) for a in exp.also if phrase_key(a) != own]
        if any(j in kept for j in range(i, end)):
            alts.append(Alternative(tuple(kept.get(j, words[j]) for j in range(i, end))))
        units.append(Unit(tuple(alts)))
        i = end
    return units


def _variants(words: list[str], expansions, parsed: ParsedQuery) -> set[str]:
    """Stem keys of the whole query and of it with each synonym in place: for exact-title bonuses."""
    phrases = [w for c in parsed.positive if c.phrase for w in c.words]
    base = list(words) + phrases
    keys = {phrase_key(base)}
    for e in expansions:
        for alt in e.also:
            keys.add(phrase_key(list(words[:e.start]) + list(alt) + list(words[e.end:]) + phrases))
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


def _single_card_name(reader, words: list[str]) -> bool:
    """A one-word card name typed alone ("Tollbooth", "Sifr"): the query asks about that card."""
    return len(words) == 1 and reader.is_card_name(fold(words[0]))


ARTICLES = frozenset({"a", "an", "the"})


def phrase_key(words) -> str:
    """A whole title or query, compared: folded, stemmed, without articles ("In a server" != "server")."""
    from judgebook.search import backend
    return " ".join(backend.word_key(w) for w in fold(" ".join(words)).split() if w not in ARTICLES)


def query_text(parsed: ParsedQuery, replace: dict[str, str] | None = None) -> str:
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
