"""The semantic table (judgebook/search/semantic.py): its file, its arithmetic, and what it knows.

The table ships with the package (semantic_table.bin, made offline by
tools/train_semantic_table.py); the re-ranker's use of it is measured by
test_search_relevance.py and checked against the static export by
test_search_static.py.
"""
from __future__ import annotations

import json
import math
from array import array

import pytest

from judgebook.search import querygrammar as qg
from judgebook.search import semantic


def small_table(tmp_path):
    path = tmp_path / "t.bin"
    rows = array("b", [10, 0, 0,    # cost
                       0, 10, 0,    # run
                       9, 1, 0,     # pay
                       0, 0, 0])    # zero: a word that says nothing
    semantic.write(path, 3, ["cost", "run", "pay", "zero"], [50, 20, 100, 7], rows.tobytes(), "test")
    return path


def test_a_table_is_read_back_as_written(tmp_path):
    t = semantic.read(small_table(tmp_path))
    assert t.dims == 3 and t.rows == {"cost": 0, "run": 1, "pay": 2, "zero": 3}
    assert t.weights == (50, 20, 100, 7) and t.vectors[6:9].tolist() == [9, 1, 0] and t.provenance == "test"


def test_a_vector_is_the_weighted_sum_of_known_words(tmp_path):
    t = semantic.read(small_table(tmp_path))
    assert semantic.vector(t, ["pay", "the", "cost", "cost"]) == (900 + 2 * 500, 100, 0)
    assert semantic.vector(t, ["nothing", "known"]) == (0, 0, 0)
    # Symbols are words and apostrophes fold away, as the index reads text.
    assert semantic.tokens("Pay 2[c]: the Runner's run") == ["pay", "2", "credit", "the", "runners", "run"]


def test_cosines_are_exact_and_empty_vectors_score_zero(tmp_path):
    t = semantic.read(small_table(tmp_path))
    q = semantic.vector(t, ["pay"])
    same = semantic.packed(q)
    assert semantic.cosine(q, semantic.norm2(q), same, semantic.norm2(same)) == pytest.approx(1.0)
    run = semantic.record_vector(t, "", "run")
    # (900, 100, 0) against (0, 127, 0)
    assert semantic.cosine(q, semantic.norm2(q), run, semantic.norm2(run)) == pytest.approx(100 / math.hypot(900, 100))
    assert semantic.record_vector(t, "", "zero nothing") == b""
    assert semantic.cosine(q, semantic.norm2(q), b"", 0) == 0.0
    assert semantic.cosine((0, 0, 0), 0, same, semantic.norm2(same)) == 0.0


def test_a_packed_vector_keeps_its_direction_in_signed_bytes():
    assert array("b", semantic.packed((1000, -500, 0))).tolist() == [127, -64, 0]
    assert semantic.packed((0, 0)) == b""


def test_a_question_vector_reads_every_word_typed_but_not_exclusions_or_filters(tmp_path):
    t = semantic.read(small_table(tmp_path))
    parsed = qg.parse("how much do i pay to run -cost kind:rule")
    assert semantic.question_vector(t, parsed) == semantic.vector(t, ["pay", "run"])


@pytest.mark.parametrize("damage, message", [
    (lambda raw: b"not a table\n" + raw, "not a semantic table"),
    (lambda raw: semantic.MAGIC + b"{broken\n" + raw.split(b"\n", 2)[2], "JSON header"),
    (lambda raw: raw[:-1], "do not make a table"),
])
def test_a_damaged_table_is_refused_naming_the_file(tmp_path, damage, message):
    path = small_table(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(semantic.SemanticTableError, match=message) as err:
        semantic.read(path)
    assert str(path) in str(err.value)


def test_the_shipped_table_is_well_formed_and_says_where_it_comes_from():
    t = semantic.default_table()
    assert t.dims == 128 and len(t.rows) > 5000 and len(t.weights) == len(t.rows)
    assert all(1 <= k <= 100 for k in t.weights)
    assert "all-MiniLM-L6-v2" in t.provenance
    head = json.loads(semantic.TABLE.read_bytes().split(b"\n", 2)[1])
    assert set(head) == {"dims", "words", "weights", "provenance"}


@pytest.mark.parametrize("question, answer, other", [
    # "pay anything" is "no cost", vs a rule sharing no meaning
    ("does the corp pay anything to install an asset", "There is no cost to install an asset, upgrade, or agenda.",
     "The Runner's turn does not have a draw phase."),
    # "money" is credits, "start" is begin (the setup rule), vs the Runner's turn
    ("how much money do i start with", "Each player begins the game with 5 credits.",
     "The Runner's turn does not have a draw phase."),
    # "at the same time" is simultaneously, vs recurring credits
    ("what if both players win at the same time",
     "If both players would simultaneously satisfy their win conditions, the game ends in a draw.",
     "Recurring credits do not accumulate."),
])
def test_the_shipped_table_puts_a_question_near_its_answer_in_other_words(question, answer, other):
    t = semantic.default_table()
    q = semantic.question_vector(t, qg.parse(question))
    q2 = semantic.norm2(q)

    def cos(text):
        v = semantic.record_vector(t, "", text)
        return semantic.cosine(q, q2, v, semantic.norm2(v))
    assert cos(answer) > cos(other) + 0.2
