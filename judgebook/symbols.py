"""One notation for the game's symbols.

Every parser normalises its source's spelling of a symbol to the canonical
token below, so search, web and engine deal with one form. The web renders
each canonical token as an icon with its `label` as the text alternative.
"""
from __future__ import annotations

import re

# canonical token -> human label
SYMBOLS: dict[str, str] = {
    "[c]": "credit",
    "[click]": "click",
    "[sub]": "subroutine",
    "[trash]": "trash",
    "[recurring]": "recurring credit",
    "[link]": "link",
    "[mu]": "memory unit",
    "[interrupt]": "interrupt",
    "[agenda]": "agenda",
}

# other spellings seen in the sources (NetrunnerDB, CR text, rulebooks)
_ALIASES = {
    "credit": "[c]", "credits": "[c]", "c": "[c]",
    "click": "[click]",
    "sub": "[sub]", "subroutine": "[sub]",
    "trash": "[trash]",
    "recurring": "[recurring]", "recurring-credit": "[recurring]", "recurring_credit": "[recurring]",
    "link": "[link]",
    "mu": "[mu]", "memory": "[mu]",
    "interrupt": "[interrupt]",
    "agenda": "[agenda]",
}

_BRACKETED = re.compile(r"\[([A-Za-z_-]+)\]")


def canonical(name: str) -> str | None:
    """The canonical token for a symbol name in any known spelling, else None."""
    return _ALIASES.get(name.strip().lower().strip("[]"))


def normalise(text: str) -> str:
    """Rewrite bracketed symbols (`[Click]`, `[credit]`, `[MU]`, `[subroutine]`) canonically.

    Unknown bracketed words (`[cost]`, `[player]` placeholders in the CR) are left alone.
    """
    def repl(m: re.Match) -> str:
        return canonical(m.group(1)) or m.group(0)
    return _BRACKETED.sub(repl, text)


def label(token: str) -> str:
    return SYMBOLS.get(token, token.strip("[]"))
