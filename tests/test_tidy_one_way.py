"""One rule-number reader (judgebook.numbers), one fold and one slug (judgebook.text), used everywhere."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from judgebook.numbers import normalise_number, number_key, outer_numbers
from judgebook.text import deaccent, fold, slug

PACKAGE = Path(__file__).resolve().parent.parent / "judgebook"


@pytest.mark.parametrize("text, number", [
    ("1.16.10b", "1.16.10b"), ("1.16.10.b", "1.16.10b"), ("1.16.10 b", "1.16.10b"), ("1.16.10B", "1.16.10b"),
    ("r1.16.10b", "1.16.10b"), ("rule 6.9.2", "6.9.2"), ("Rules 6.9.2.", "6.9.2"), ("section 8.5", "8.5"),
    ("§10.3", "10.3"), ("step 6.9.4b", "6.9.4b"), ("  5.3.3 ", "5.3.3"), ("10", "10"),
    # not rule numbers: a year, a word, two letters, an empty string
    ("1996", None), ("trace", None), ("1.16.10bc", None), ("", None), ("1..2", None),
])
def test_normalise_number_reads_every_spelling_the_parsers_and_queries_use(text, number):
    assert normalise_number(text) == number


def test_number_key_orders_by_number_not_by_text():
    numbers = ["1.10", "1.9", "1.10.5d", "1.10.5", "2", "1.10.5a"]
    assert sorted(numbers, key=number_key) == ["1.9", "1.10", "1.10.5", "1.10.5a", "1.10.5d", "2"]
    assert number_key("rule_run") == ()


def test_outer_numbers():
    assert outer_numbers("10.4.2c") == ["10", "10.4", "10.4.2", "10.4.2c"]
    assert outer_numbers("6.9") == ["6", "6.9"]
    assert outer_numbers("glossary") == []


@pytest.mark.parametrize("text, folded", [
    ("Mirāju", "miraju"), ("Tori Hanzō", "tori hanzo"), ("Runner's", "runners"), ("Runner’s  Turn", "runners turn"),
    ("Liberated Savings Account!", "liberated savings account"), ("Corp / Corporation", "corp corporation"),
    ("Doppelgänger", "doppelganger"), ("Şifr", "sifr"), ("  ", ""),
])
def test_fold(text, folded):
    assert fold(text) == folded


def test_deaccent_keeps_punctuation_as_the_static_search_does():
    assert deaccent("Mirāju's 1.16.10b") == "miraju's 1.16.10b"


@pytest.mark.parametrize("title, expected", [
    ("Run: Access", "run-access"), ("Runner's Turn", "runner-s-turn"), ("  ", "untitled"),
    ("Mirāju", "mir-ju"),     # ids made by earlier builds keep their spelling
])
def test_slug(title, expected):
    assert slug(title) == expected


# ---- used everywhere: no second copy --------------------------------------------------
OWNERS = {"normalise_number": "numbers.py", "canonical_number": None, "number_key": "numbers.py",
          "outer_numbers": "numbers.py", "fold": "text.py", "deaccent": "text.py", "slug": "text.py",
          "slugify": None}
# The search index folds "R&D" to the word it indexes, then hands over to text.fold.
WRAPPERS = {("search/schema.py", "fold")}


def _definitions() -> list[tuple[str, str, ast.FunctionDef]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("engine/"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.lstrip("_") in OWNERS:
                out.append((rel, node.name.lstrip("_"), node))
    return out


def test_each_normaliser_is_defined_once():
    strays = []
    for rel, name, node in _definitions():
        if rel == OWNERS[name]:
            continue
        if (rel, name) in WRAPPERS:
            called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            assert "shared_fold" in called, f"{rel}: {name} must hand over to judgebook.text.fold"
            continue
        strays.append(f"{rel}:{node.lineno} def {node.name}")
    assert strays == []


def test_accents_are_stripped_in_one_place():
    """`unicodedata.combining` is how accents come off: only judgebook/text.py does it."""
    users = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
                   if "engine" not in p.parts and "combining" in p.read_text("utf-8"))
    assert users == ["text.py"]
