"""The renderings' English agreement (judgebook.engine.language.grammar): plurals by number, possessives,
a/an and verb agreement, each stated here by hand."""
from __future__ import annotations

from judgebook.engine.language.grammar import agreeing, article, counted, plural, possessive


def test_a_noun_agrees_with_its_rendered_amount():
    assert counted("1", "card") == "1 card"
    assert counted("2", "card") == "2 cards"
    assert counted("X", "tag") == "X tags"
    assert counted("up to 1", "card") == "up to 1 card"
    assert counted("11", "power counter") == "11 power counters"
    assert counted("3", "[c]") == "3 [c]"
    assert plural("bad publicity") == "bad publicity"
    assert plural("memory unit") == "memory units"


def test_player_words_as_possessives_and_subjects():
    assert [possessive(w) for w in ("you", "opponent", "corp", "runner")] == [
        "your", "your opponent's", "the Corp's", "the Runner's"]
    assert agreeing("you", "lose") == "you lose"
    assert agreeing("runner", "lose") == "the Runner loses"
    assert agreeing("corp", "have") == "the Corp has"
    assert agreeing("opponent", "pass") == "your opponent passes"


def test_the_indefinite_article():
    assert article("advancement counter") == "an advancement counter"
    assert article("sentry") == "a sentry"
    assert article("AP") == "an AP"
