"""The static site's search index: the server's search records, shipped as a JS file.

The static search (static/search-static.js) ranks like the server's: it gets
the very records the server's Whoosh index holds (one per distinct text, the
same families, kinds, titles, defined terms, enclosing titles and superseded
flags), each text's indexed words and word pairs with their counts, the field
lengths as Whoosh scores them, the synonym table keyed as the server keys it,
the card names, the spelling corrector's vocabulary, and the ranking's
constants, read from the server's modules so that there is one source for
each number. What it cannot have is a stemmer for words the documents never
use: those find nothing on either side.

Chromium will not fetch JSON from `file://`, so the index is a script that
assigns `window.JB_INDEX`. Postings are base-36 document gaps and counts.
"""
from __future__ import annotations

import base64
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from whoosh.util.numeric import byte_to_length, length_to_byte

from judgebook.search import api, backend, fuzzy, indexer, planning, ranking, semantic, synonyms
from judgebook.search import querygrammar as qg
from judgebook.search.schema import IndexRecord, fold, index_text
from judgebook.text import deaccent

if TYPE_CHECKING:
    from judgebook.store.corpus import Corpus

SNIPPET_CHARS = 110
FORMAT = 2
_TOKEN = re.compile(backend.TOKEN)


@dataclass(frozen=True)
class IndexStats:
    items: int
    terms: int
    bytes: int


def build(corpus: Corpus, href: Callable[[str], str], doc_label: Callable[[str], str]
          ) -> tuple[str, IndexStats]:
    """(JavaScript source, stats) of the static search index over `corpus`.

    `href(section_id)` is a section's page relative to the site root;
    `doc_label(key)` a document's short name.
    """
    records = list(indexer.records_of(corpus))
    docs = sorted({m.doc for r in records for m in r.members})
    doc_pos = {k: i for i, k in enumerate(docs)}
    position = {r.id: i for i, r in enumerate(records)}
    section_record = {m.id: i for i, r in enumerate(records) for m in r.members}
    text_post: dict[str, list[tuple[int, int]]] = defaultdict(list)
    pair_post: dict[str, list[tuple[int, int]]] = defaultdict(list)
    text_len, pair_len, items = [], [], []
    words: dict[str, list[str]] = {}
    for i, rec in enumerate(records):
        doc = backend._document(rec)   # the very terms and pairs the server indexes
        terms = doc["text"].split()
        pairs = doc["pairs"].split("\n") if doc["pairs"] else []
        text_len.append(len(terms))
        pair_len.append(len(pairs))
        for postings, seq in ((text_post, terms), (pair_post, pairs)):
            counts: dict[str, int] = defaultdict(int)
            for t in seq:
                counts[t] += 1
            for t, c in counts.items():
                postings[t].append((i, c))
        _learn_words(words, rec)
        items.append(_item(rec, i, href, doc_pos, section_record, position)
                     + [base64.b64encode(doc["about"]).decode("ascii"), doc["about2"]])
    _learn_synonym_words(words)
    n = len(records)
    payload = {
        "v": FORMAT,
        "n": n,
        "docs": [[k, doc_label(k)] for k in docs],
        "text": _field(text_post, text_len),
        "pairs": _field(pair_post, pair_len),
        "items": items,
        "words": words,
        "cards": sorted({r.card_name for r in records if r.card_name}),
        "spell": _spelling(records),
        "synonyms": _synonyms(),
        "semantic": _semantic(),
        "consts": _constants(),
    }
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    # no "<" at all: the index can never close or open a tag, wherever it is pasted
    js = "window.JB_INDEX=" + text.replace("<", "\\u003c") + ";\n"
    return js, IndexStats(n, len(text_post), len(js.encode()))


def _item(rec: IndexRecord, i: int, href: Callable[[str], str], doc_pos: dict[str, int],
          section_record: dict[str, int], position: dict[str, int]) -> list:
    """[href, kind, title, snippet, family, superseded href, members, title key, defined keys, parent,
    heading words]; the caller adds what it is about (semantic vector, base 64, and squared length)."""
    members = [[href(m.id), doc_pos[m.doc], m.era, m.number, m.rank, m.id] for m in rec.members]
    crumbs = rec.members[0].breadcrumb
    parent = section_record.get(crumbs[-1][0], -1) if crumbs else -1
    superseded = href(rec.superseded_by) if rec.superseded_by else ""
    title = rec.title or ("Example" if rec.kind == "example" else "")
    return [href(rec.id), rec.kind, title, _snippet(rec.body), rec.family or rec.id, superseded, members,
            ranking._text_key(rec.title), [ranking._text_key(d) for d in rec.defines], parent,
            " ".join(backend.heading_stems(rec))]


def _learn_words(words: dict[str, list[str]], rec: IndexRecord) -> None:
    """Each word the documents use, as the query side needs it: [indexed form, title key].

    Keyed twice: by each token as the analyser splits it ("1.16.10b", "runner"
    of "runner's"), lower case without accents, which is how the static side
    looks words up to analyse text; and by each space-separated word folded
    as `backend.stem` folds it ("runners" of "runner's"), how it looks up one
    typed word.
    """
    text = index_text(f"{rec.title}\n{rec.context}\n{' '.join(rec.defines)}\n{rec.text}")
    for token in _TOKEN.findall(text):
        key = deaccent(token)
        if key not in words:
            stems = [t.text for t in backend.ANALYZER(token)]
            words[key] = [stems[0] if len(stems) == 1 else "", backend.word_key(token)]
    for raw in text.split():
        key = fold(raw).replace(" ", "")
        if key and key not in words:
            words[key] = [backend.stem(raw), backend.word_key(raw)]


def _learn_synonym_words(words: dict[str, list[str]]) -> None:
    """The words the synonym table is triggered by, also when no document uses them ("pumps"):
    the static side cannot stem a word it was not given, and the table is keyed by stems."""
    for entry in synonyms.default_table():
        for phrasing in entry.words:
            for word in phrasing:
                key = fold(word).replace(" ", "")
                if key and key not in words:
                    words[key] = [backend.stem(word), backend.word_key(word)]


def _spelling(records: list[IndexRecord]) -> dict[str, int]:
    """The spelling corrector's vocabulary: each word (as the `spell` field keeps it) and how
    many texts have it."""
    df: dict[str, int] = defaultdict(int)
    for rec in records:
        for word in {fold_spell(w) for w in backend._vocabulary(rec)}:
            df[word] += 1
    return dict(df)


def fold_spell(word: str) -> str:
    # The spell field's analyser: letters only, lower case, accents off (accent_map).
    return deaccent(word)


def _field(postings: dict[str, list[tuple[int, int]]], lengths: list[int]) -> dict:
    # Whoosh keeps a field length in one byte; BM25 sees that rounded length
    # (and 1 for a text with none), the average the exact one.
    shown = [byte_to_length(length_to_byte(x)) or 1 for x in lengths]
    return {"avg": (sum(lengths) / len(lengths)) if lengths else 1,
            "len": ",".join(_b36(x) for x in shown),
            "post": {t: _encode(p) for t, p in postings.items()}}


def _synonyms() -> list:
    """The synonym table as `synonyms.expand` matches it: each phrasing as indexed keys, longest first."""
    table = synonyms.default_table()
    patterns = synonyms._patterns(table, backend.stem)
    return [[list(pattern), [list(a) for a in syn.also]] for pattern, syn in patterns]


def _semantic() -> dict:
    """The semantic table, for a question's vector: its words, weights and rows (signed bytes, base 64)."""
    table = semantic.default_table()
    rows = table.vectors.tobytes()
    return {"dims": table.dims, "words": sorted(table.rows, key=table.rows.__getitem__),
            "weights": list(table.weights), "vectors": base64.b64encode(rows).decode("ascii")}


def _constants() -> dict:
    """The numbers and word lists both searches use, read from the server's modules."""
    r = ranking
    return {
        "B": backend.BM25_B, "K1": backend.BM25_K1, "COMMON_IDF": backend.COMMON_IDF,
        "TITLE_REPEAT": backend.TITLE_REPEAT,
        "TITLE_BONUS": r.TITLE_BONUS, "DEFINES_BONUS": r.DEFINES_BONUS,
        "TITLE_WORDS_BONUS": r.TITLE_WORDS_BONUS, "DEFINES_PART_BONUS": r.DEFINES_PART_BONUS,
        "NEWEST_PRIOR": r.NEWEST_PRIOR, "HISTORY_PRIOR": r.HISTORY_PRIOR,
        "SUPERSEDED_PRIOR": r.SUPERSEDED_PRIOR, "OLDER_PRIOR": r.OLDER_PRIOR,
        "CARD_PRIOR": r.CARD_PRIOR, "EXAMPLE_PRIOR": r.EXAMPLE_PRIOR, "EXAMPLE_AS_RULE": r.EXAMPLE_AS_RULE,
        "CARD_KINDS": sorted(r.CARD_KINDS), "COVERAGE_POWER": r.COVERAGE_POWER,
        "QUESTION_PRIOR_POWER": r.QUESTION_PRIOR_POWER, "HEADING_WEIGHT": r.HEADING_WEIGHT,
        "SEMANTIC_WEIGHT": r.SEMANTIC_WEIGHT,
        "COVERAGE_FOR_ALL": r.COVERAGE_FOR_ALL, "TODAYS_WORD_POOL": r.TODAYS_WORD_POOL,
        "SYNONYM_WEIGHT": planning.SYNONYM_WEIGHT, "MAX_CARD_WORDS": planning.MAX_CARD_WORDS,
        "RARE": planning.RARE, "COMMON_FACTOR": planning.COMMON_FACTOR,
        "MIN_LENGTH": fuzzy.MIN_LENGTH, "MAX_LENGTH": fuzzy.MAX_LENGTH,
        "ARTICLES": sorted(planning.ARTICLES),
        "FIRST": api.FIRST, "QUESTION_FIRST": api.QUESTION_FIRST, "POOL": api.POOL, "ENOUGH": api.ENOUGH,
        "QUESTION_WORDS": sorted(qg.QUESTION_WORDS), "STOP": sorted(backend.STOP),
        "KIND_ALIASES": qg.KIND_ALIASES, "ERA_ALIASES": qg.ERA_ALIASES,
        "MAX_QUERY_CHARS": qg.MAX_QUERY_CHARS, "MAX_ITEMS": qg.MAX_ITEMS,
    }


def _snippet(text: str) -> str:
    flat = " ".join(re.sub(r"<[^>]*>", " ", text).split())
    return flat if len(flat) <= SNIPPET_CHARS else flat[:SNIPPET_CHARS].rsplit(" ", 1)[0] + "…"


def _encode(postings: Iterable[tuple[int, int]]) -> str:
    out, prev = [], 0
    for i, count in postings:
        out.append(f"{_b36(i - prev)}.{_b36(count)}" if count != 1 else _b36(i - prev))
        prev = i
    return ",".join(out)


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = digits[r] + s
        if not n:
            return s
