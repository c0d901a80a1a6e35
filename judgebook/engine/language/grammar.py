"""English agreement for renderings: a noun counted by a rendered amount, a player's possessive, a/an, a
verb agreeing with its subject. Every construct's `render()` uses these, so "1 card", "2 cards", "your deck",
"the Corp's deck" and "an advancement counter" come out right without special cases."""

from __future__ import annotations

from judgebook.engine.language.context import player_phrase

# Nouns with no plural form as printed cards use them ("2 bad publicity", "3 net damage", "2[c]").
UNCOUNTABLE = ("publicity", "damage", "trash", "end run", "[c]", "[click]", "[recurring-credit]")


def plural(noun: str) -> str:
    """The plural of a noun phrase: its last word takes the -s ("memory unit" -> "memory units")."""
    if noun.endswith(UNCOUNTABLE) or noun.endswith("s"):
        return noun
    return noun + "s"


def counted(amount: str, noun: str) -> str:
    """A rendered amount and its noun, agreeing: "1 card", "2 cards", "X cards", "up to 1 card"."""
    return f"{amount} {noun if amount.split()[-1:] == ['1'] else plural(noun)}"


def possessive(who: str) -> str:
    """A player word's possessive: "your", "your opponent's", "the Corp's", "the Runner's"."""
    return "your" if who == "you" else f"{player_phrase(who)}'s"


def article(phrase: str) -> str:
    """The indefinite article for a phrase ("an advancement counter", "a sentry")."""
    return f"{'an' if phrase[:1].lower() in 'aeiou' else 'a'} {phrase}"


def agreeing(who: str, verb: str) -> str:
    """A player word as subject with its verb in agreement: "you lose", "the Runner loses"."""
    if who == "you":
        return f"you {verb}"
    first, _, rest = verb.partition(" ")
    third = "has" if first == "have" else first + ("es" if first.endswith(("s", "sh", "ch", "x")) else "s")
    return f"{player_phrase(who)} {third}{' ' + rest if rest else ''}"
