"""The question bank: questions judges are asked, each with a short answer and the rules that decide it.

A player's question rarely shares words with the rule that answers it, but it
often shares them with another player's question. The bank
(rules_source/questions/bank.toml) holds such questions in a player's words,
an answer in our own words and the CR 26.03 anchors that decide it. A
question typed into search is matched against the bank's questions; a close
enough match puts its rules first and its answer above the ranked rules.

The file:
    [[question]]
    id = "empty-rnd"                          # unique, lower-case words joined by "-"
    ask = ["what if the corp must draw from an empty R&D"]   # one or more phrasings
    answer = "The Runner wins the game."      # our own words, never the rules' text
    rules = ["rule_empty_rnd"]                # CR 26.03 anchors (or a full id: "glossary:...")
    source = "situation"                      # where the question came from: see SOURCES

Every key is required and no other is accepted; a mistake is an error naming
the file, the line and the field. The build checks that every rule cited
exists and ships the bank with the index (questions.json in the generation).

Matching (`best`): a question's content words (stemmed as the index stems
them, question words left out), weighted by how rare they are among the
bank's questions, shared with a phrasing (Dice), blended with the semantic
table's cosine of the two word sums (semantic.py). Constants chosen on the
relevance set's tuned questions only (see tests/test_search_relevance.py).
"""
from __future__ import annotations

import json
import math
import operator
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judgebook.search import semantic

SOURCES = {
    "cr-example": "an example of CR 26.03 turned into the question it answers",
    "glossary": "a term of the glossary, asked about",
    "timing": "a step of the timing structures (CR 26.03 sections 5, 6, 7, 11)",
    "situation": "a common situation at the table, by chapter",
    "ruling": "a NetrunnerDB ruling's question made general (the card taken out)",
}
FIELDS = ("id", "ask", "answer", "rules", "source")
DEFAULT_DOC = "cr-26.03"
GENERATION_FILE = "questions.json"
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_ENTRY = re.compile(r"^\s*\[\[\s*question\s*\]\]\s*(?:#.*)?$")

# A match needs the blend (LEXICAL_SHARE of the word overlap, the rest the
# semantic cosine) at or above THRESHOLD, and one of its rules among the first
# GATE rules the search found without the bank (the bank re-orders what the
# search found plausible; it never brings in a rule the search thought beside
# the point). The search's order and the bank's rules are then fused by
# reciprocal rank: 1 / (FUSION_K + rank) for the search's, FUSION_WEIGHT times
# that for the bank's, in the order the entry cites them. Chosen on the
# relevance set's tuned questions (see tests/test_search_relevance.py, which
# also says why the gate was added).
LEXICAL_SHARE = 0.5
THRESHOLD = 0.55
ANSWER_WEIGHT = 0.6     # how much a word of the answer counts, against a word of the question
SYNONYM_WEIGHT = 0.0    # how much a word the synonym table adds counts (0: measured, no gain)
CENTRED = True          # the bank's mean direction taken out of every semantic vector (all point roughly alike)
LEXICAL = "dice"        # "dice": shared words against both texts' words; "cover": against the question's
GATE = 10
FUSION_K = 60
FUSION_WEIGHT = 2.0


class BankError(ValueError):
    """The bank file is malformed: the message names the file, the line and the field."""


@dataclass(frozen=True)
class Entry:
    id: str
    asks: tuple[str, ...]
    answer: str
    rules: tuple[str, ...]      # full section ids ("cr-26.03:rule_empty_rnd")
    source: str
    line: int = 0

    def to_json(self) -> dict:
        return {"id": self.id, "ask": list(self.asks), "answer": self.answer, "rules": list(self.rules),
                "source": self.source}


@dataclass(frozen=True)
class Match:
    entry: Entry
    score: float
    asked: str          # the phrasing that matched


# ---- reading the file -------------------------------------------------------------
def load(path: Path) -> list[Entry]:
    """The bank's entries, in file order; raises BankError naming file, line and field."""
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise BankError(f"{path}: cannot read the question bank ({exc.strerror or exc})") from None
    return parse(text, str(path))


def parse(text: str, name: str = "bank.toml") -> list[Entry]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BankError(f"{name}: not valid TOML: {exc}") from None
    lines = text.splitlines()
    starts = [i + 1 for i, line in enumerate(lines) if _ENTRY.match(line)]
    extra = sorted(set(data) - {"question"})
    if extra:
        line = next((i + 1 for i, ln in enumerate(lines) if re.match(rf"^\s*\[*\s*{re.escape(extra[0])}\b", ln)), 1)
        raise BankError(f"{name}:{line}: unknown table or key '{extra[0]}' (the bank holds [[question]] entries only)")
    raw = data.get("question", [])
    if not isinstance(raw, list) or len(raw) != len(starts):
        raise BankError(f"{name}:1: 'question' must be written as [[question]] tables, one per entry")
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for k, (item, start) in enumerate(zip(raw, starts, strict=True)):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines) + 1
        entry = _entry(item, name, lines, start, end)
        if entry.id in seen:
            raise BankError(f"{name}:{_line_of(lines, start, end, 'id')}: field 'id': '{entry.id}' "
                            f"is already the id of the entry at line {seen[entry.id]}")
        seen[entry.id] = start
        entries.append(entry)
    return entries


def _line_of(lines: list[str], start: int, end: int, key: str) -> int:
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    return next((i + 1 for i in range(start, end - 1) if pattern.match(lines[i])), start)


def _entry(item: dict, name: str, lines: list[str], start: int, end: int) -> Entry:
    def fail(key: str, why: str) -> BankError:
        return BankError(f"{name}:{_line_of(lines, start, end, key)}: field '{key}': {why}")

    for key in item:
        if key not in FIELDS:
            raise fail(key, f"unknown field (a question has {', '.join(FIELDS)})")
    for key in FIELDS:
        if key not in item:
            raise BankError(f"{name}:{start}: field '{key}': missing (a question has {', '.join(FIELDS)})")
    ident, asks, answer, rules, source = (item[k] for k in FIELDS)
    if not isinstance(ident, str) or not _ID.match(ident):
        raise fail("id", f"{ident!r} is not lower-case words joined by '-'")
    if not isinstance(asks, list) or not asks or not all(isinstance(a, str) and a.strip() for a in asks):
        raise fail("ask", "must be a list of one or more questions (non-empty strings)")
    if len({a.strip().lower() for a in asks}) != len(asks):
        raise fail("ask", "the same phrasing twice")
    if not isinstance(answer, str) or not answer.strip():
        raise fail("answer", "must be a non-empty string")
    if not isinstance(rules, list) or not rules or not all(isinstance(r, str) and r.strip() for r in rules):
        raise fail("rules", "must be a list of one or more CR 26.03 anchors")
    if not isinstance(source, str) or source not in SOURCES:
        raise fail("source", f"{source!r} is not one of {', '.join(SOURCES)}")
    ids = tuple(r.strip() if ":" in r else f"{DEFAULT_DOC}:{r.strip()}" for r in rules)
    if len(set(ids)) != len(ids):
        raise fail("rules", "the same rule twice")
    return Entry(ident, tuple(a.strip() for a in asks), answer.strip(), ids, source, start)


def unknown_rules(entries: list[Entry], known: set[str]) -> list[str]:
    """'line N: id' for each cited rule that is not a known section id."""
    return [f"line {e.line}: question '{e.id}' cites {r}, which no document of the build has"
            for e in entries for r in e.rules if r not in known]


def write_generation(entries: list[Entry], gen: Path) -> None:
    (gen / GENERATION_FILE).write_text(json.dumps([e.to_json() for e in entries], ensure_ascii=False),
                                       "utf-8")


def read_generation(gen: Path) -> list[Entry]:
    """The bank shipped with a generation ([] when the build had none)."""
    path = gen / GENERATION_FILE
    if not path.exists():
        return []
    return [Entry(d["id"], tuple(d["ask"]), d["answer"], tuple(d["rules"]), d["source"])
            for d in json.loads(path.read_text("utf-8"))]


# ---- matching -----------------------------------------------------------------------
@dataclass(frozen=True)
class Phrasing:
    entry: Entry
    text: str
    weights: dict[str, float]   # stem -> rarity among the bank's phrasings (answer words count less)
    total: float
    about: tuple[float, ...]    # the semantic vector, unit length, the bank's mean taken away


@dataclass(frozen=True)
class Bank:
    entries: tuple[Entry, ...]
    phrasings: tuple[Phrasing, ...]
    idf: dict[str, float]
    by_rule: dict[str, tuple[Entry, ...]]
    mean: tuple[float, ...]     # the mean of the phrasings' unit semantic vectors

    def rarity(self, stem: str) -> float:
        return self.idf.get(stem, self.unseen)

    @property
    def unseen(self) -> float:
        return math.log(1 + len(self.phrasings))


def content_stems(text: str) -> list[str]:
    """The words of a question that say what it is about: stemmed, stop and question words out."""
    from judgebook.search import backend
    from judgebook.search.querygrammar import QUESTION_WORDS
    out = []
    for w in semantic.tokens(text):
        if w in QUESTION_WORDS:
            continue
        s = backend.stem(w)
        if s:
            out.append(s)
    return out


def make_bank(entries: list[Entry]) -> Bank:
    table = semantic.default_table()
    stems = [(e, a, set(content_stems(a)), set(content_stems(e.answer))) for e in entries for a in e.asks]
    df = Counter(s for _, _, ss, aa in stems for s in ss | aa)
    n = len(stems)
    idf = {s: math.log(1 + n / c) for s, c in df.items()}
    units = [_unit(semantic.vector(table, semantic.tokens(a))) for _, a, _, _ in stems]
    mean = tuple(sum(col) / len(units) for col in zip(*units, strict=True)) if units and CENTRED else ()
    phrasings = []
    for (e, a, ss, aa), u in zip(stems, units, strict=True):
        weights = {s: idf[s] * ANSWER_WEIGHT for s in aa} | {s: idf[s] for s in ss}
        phrasings.append(Phrasing(e, a, weights, sum(weights.values()), _unit(_minus(u, mean))))
    by_rule: dict[str, list[Entry]] = {}
    for e in entries:
        for r in e.rules:
            by_rule.setdefault(r, []).append(e)
    return Bank(tuple(entries), tuple(phrasings), idf, {r: tuple(es) for r, es in by_rule.items()}, mean)


def _unit(v) -> tuple[float, ...]:
    n = math.sqrt(sum(x * x for x in v))
    return tuple(x / n for x in v) if n else tuple(0.0 for _ in v)


def _minus(v: tuple[float, ...], mean: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(a - b for a, b in zip(v, mean, strict=True)) if mean else v


@lru_cache(maxsize=4)
def _bank_of(path: str, mtime_ns: int) -> Bank:
    return make_bank(read_generation(Path(path)))


def bank_for(gen: Path) -> Bank | None:
    """The bank shipped with the generation `gen` (None if it has none), built once per file version."""
    path = gen / GENERATION_FILE
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    return _bank_of(str(gen), mtime)


def ranked(bank: Bank, question: str, *, exclude: frozenset[str] = frozenset()) -> list[Match]:
    """Every entry with its best phrasing's closeness to `question`, closest first.

    `exclude`: entry ids left out (for measuring a bank without some entries)."""
    stems = set(content_stems(question))
    if not stems:
        return []
    q_weights = {s: bank.rarity(s) for s in stems}
    q_total = sum(q_weights.values())
    also = _synonym_stems(question) - stems
    q_about = _unit(_minus(_unit(semantic.vector(semantic.default_table(), semantic.tokens(question))),
                           bank.mean))
    best: dict[str, Match] = {}
    for p in bank.phrasings:
        if p.entry.id in exclude:
            continue
        shared = sum(min(q_weights[s], p.weights[s]) for s in stems if s in p.weights)
        shared += sum(SYNONYM_WEIGHT * p.weights[s] for s in also if s in p.weights)
        if LEXICAL == "cover":
            lexical = min(1.0, shared / q_total)
        else:
            lexical = 2 * shared / (q_total + p.total) if q_total + p.total else 0.0
        cos = sum(map(operator.mul, q_about, p.about))
        score = LEXICAL_SHARE * lexical + (1 - LEXICAL_SHARE) * max(cos, 0.0)
        have = best.get(p.entry.id)
        if have is None or score > have.score:
            best[p.entry.id] = Match(p.entry, score, p.text)
    return sorted(best.values(), key=lambda m: (-m.score, m.entry.id))


def _synonym_stems(question: str) -> set[str]:
    """Stems of what the synonym table also searches for the question's words ("etr": end the run)."""
    from judgebook.search import backend, synonyms
    words = semantic.tokens(question)
    out: set[str] = set()
    for e in synonyms.expand(words, backend.stem):
        out |= {s for alt in e.also for w in alt if (s := backend.stem(w))}
    return out


def best(bank: Bank, question: str, *, threshold: float | None = None,
         exclude: frozenset[str] = frozenset()) -> Match | None:
    """The bank's answer to `question`, if one of its questions is close enough."""
    found = ranked(bank, question, exclude=exclude)
    limit = THRESHOLD if threshold is None else threshold
    return found[0] if found and found[0].score >= limit else None
