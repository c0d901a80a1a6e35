"""What a text is about, as a vector: a static word table learned from a sentence model.

A question's words are rarely the rule's words ("how much money do I start
with" / "Each player takes five credits from the bank"). A sentence
model (all-MiniLM-L6-v2) knows such texts are close, but running it costs
tens of milliseconds a query and cannot run in the static export. So it is
distilled offline (tools/train_semantic_table.py) into one vector per word,
trained so that the weighted sum of a text's word vectors points where the
model's vector of the whole text points, then fine-tuned on pairs the
documents themselves make (a rule's anchor and its text, a title and its
text, an example and its rule). At query time a text's vector is a sum of
table rows; the re-ranker compares a question's with each candidate's.

Everything is integers (int8 rows, integer weights), so the server and the
static export's JavaScript compute the very same sums and the same cosines.

The table's file (semantic_table.bin):
    line 1: the magic line below
    line 2: JSON {"dims": D, "words": [...], "weights": [...], "provenance": "..."}
    then:   len(words) * D signed bytes, row-major
"""
from __future__ import annotations

import json
import math
import operator
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judgebook.search.querygrammar import ParsedQuery
from judgebook.search.schema import fold, index_text

TABLE = Path(__file__).with_name("semantic_table.bin")
MAGIC = b"judgebook semantic table 1\n"


class SemanticTableError(ValueError):
    """The table file is malformed: names the file and what is wrong."""


@dataclass(frozen=True)
class Table:
    dims: int
    rows: dict[str, int]        # word -> row
    weights: tuple[int, ...]    # by row: how much a word says about its text (rare words more)
    vectors: array              # signed bytes, row-major (rows are cut when used: loading stays fast)
    provenance: str = ""


def tokens(text: str) -> list[str]:
    """A text's words as the table keys them: symbols as words, folded ("Runner's" -> "runners")."""
    return fold(index_text(text)).split()


def vector(table: Table, words: Iterable[str]) -> tuple[int, ...]:
    """The weighted sum of the words' rows (words the table lacks add nothing)."""
    rows = table.rows
    acc = [0] * table.dims
    for w, n in Counter(w for w in words if w in rows).items():
        r = rows[w]
        k = table.weights[r] * n
        row = table.vectors[r * table.dims:(r + 1) * table.dims]
        acc = [a + k * x for a, x in zip(acc, row, strict=True)]
    return tuple(acc)


def packed(v: tuple[int, ...]) -> bytes:
    """A text's vector as the index stores it: scaled to signed bytes (b"" for no words known).

    Only the direction matters (cosines), and a byte a dimension keeps the
    index and the static export small; both compare a question with these
    very bytes."""
    top = max(map(abs, v), default=0)
    if not top:
        return b""
    return array("b", [round(x * 127 / top) for x in v]).tobytes()


def record_vector(table: Table, title: str, text: str) -> bytes:
    """What a section is about: its title and text, packed."""
    return packed(vector(table, tokens(f"{title}\n{text}" if title else text)))


def question_vector(table: Table, parsed: ParsedQuery) -> tuple[int, ...]:
    """A question's vector: all its words as typed, question words too ("who", "when" say
    what kind of answer is wanted), not the excluded words or filters."""
    return vector(table, tokens(" ".join(w for c in parsed.positive for w in c.words)))


def norm2(v: tuple[int, ...] | bytes) -> int:
    """The squared length of a vector or of a packed one (integers: exact on both sides)."""
    values = array("b", v) if isinstance(v, bytes) else v
    return sum(map(operator.mul, values, values))


def cosine(q: tuple[int, ...], q2: int, about: bytes, about2: int) -> float:
    """Cosine of a question's vector (squared length q2) and a packed text vector (about2);
    0 when either has no words the table knows. Plain loops: this runs for every candidate."""
    if not q2 or not about2:
        return 0.0
    return sum(map(operator.mul, q, array("b", about))) / math.sqrt(q2 * about2)


def read(path: Path) -> Table:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SemanticTableError(f"{path}: {exc}") from None
    if not raw.startswith(MAGIC):
        raise SemanticTableError(f"{path}: not a semantic table (line 1 must be {MAGIC!r})")
    end = raw.find(b"\n", len(MAGIC))
    try:
        head = json.loads(raw[len(MAGIC):end])
        dims, words, weights = int(head["dims"]), list(head["words"]), list(head["weights"])
    except (ValueError, KeyError, TypeError) as exc:
        raise SemanticTableError(f"{path}: line 2 is not the table's JSON header ({exc})") from None
    body = raw[end + 1:]
    if end < 0 or dims <= 0 or len(weights) != len(words) or len(body) != len(words) * dims:
        raise SemanticTableError(f"{path}: {len(words)} words, {len(weights)} weights and {len(body)} bytes "
                                 f"do not make a table of {dims} dimensions")
    vectors = array("b")
    vectors.frombytes(body)
    return Table(dims, {w: i for i, w in enumerate(words)}, tuple(int(k) for k in weights), vectors,
                 str(head.get("provenance", "")))


def write(path: Path, dims: int, words: list[str], weights: list[int], vectors: bytes, provenance: str) -> None:
    head = json.dumps({"dims": dims, "words": words, "weights": weights, "provenance": provenance},
                      ensure_ascii=False, separators=(",", ":"))
    path.write_bytes(MAGIC + head.encode("utf-8") + b"\n" + bytes(vectors))


@lru_cache(maxsize=1)
def default_table() -> Table:
    return read(TABLE)
