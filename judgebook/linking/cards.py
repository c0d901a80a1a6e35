"""Card names in plain text, where a card source is loaded.

Rules, chosen to keep false hits out:
  - whole names only, matched word by word, longest name first, so a name
    inside a longer card name ("Data Fort" inside "Data Fort Reclamation")
    is never a hit of its own;
  - accents and case are folded ("Mirāju" = "Miraju"), except
  - a name made only of common words (words the rules texts use in lower
    case: "Hedge Fund", "Sure Gamble", "Access") must be written with its
    own capitals, and a one-word common name ("Access", "Run") is never
    linked from plain text: it is far more often the word than the card;
  - a one-word name right next to another capitalised word is part of a
    longer proper name ("the Golden Rules", "Hoshiko Shiro"), not the card;
  - an identity is also found by its short name, before the colon;
  - names shorter than 3 letters are skipped;
  - the YAML's `{card:}` marks are resolved elsewhere; its sections are not scanned;
  - the 1996 documents are not scanned: NetrunnerDB holds the later game's
    cards, and a 1996 "Fire Wall" or "City Surveillance" is another card.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace

from judgebook.linking.context import CARDS_DOC, LinkContext
from judgebook.linking.scan import gap, longest_matches
from judgebook.model import LINK_CARD, Link, Section
from judgebook.text import fold

_WORDS = re.compile(r"\w+")
OTHER_GAME_ERAS = ("onr-1996",)


@dataclass(frozen=True)
class CardName:
    words: tuple[str, ...]   # folded words
    exact: tuple[str, ...]   # the words as printed, for names that need their capitals
    title: str
    id: str
    needs_case: bool
    gaps: tuple[str, ...] = ()   # the name's own punctuation between its words ("." in "Mr. Stone")


def common_words(ctx: LinkContext, sections: list[Section]) -> frozenset[str]:
    """Words the rules documents use in lower case (cards and rulings excluded)."""
    words: set[str] = set()
    for s in sections:
        if s.doc not in (CARDS_DOC, "nrdb-rulings"):
            words.update(w for w in _WORDS.findall(s.text) if w.islower())
    return frozenset(words)


def card_names(ctx: LinkContext, sections: list[Section], common: frozenset[str]) -> dict[str, list[CardName]]:
    """first folded word -> names starting with it, longest first."""
    index: dict[str, list[CardName]] = defaultdict(list)
    for key, card_id in ctx.cards.items():
        title = ctx.by_id[card_id].title
        printed = title if fold(title) == key else title.split(":", 1)[0]
        exact = tuple(_WORDS.findall(printed))
        # word by word, as `find_cards` folds the text: "Maker's" is "maker", "s" there
        words = tuple(fold(w) for w in exact)
        if len("".join(words)) < 3:
            continue
        all_common = all(w in common for w in words)
        if all_common and len(words) == 1:
            continue
        found = list(_WORDS.finditer(printed))
        exact = tuple(m.group(0) for m in found)
        gaps = tuple(gap(printed, a.end(), b.start()) for a, b in zip(found, found[1:], strict=False))
        index[words[0]].append(CardName(words, exact, title, card_id, all_common, gaps))
    for names in index.values():
        names.sort(key=lambda n: -len(n.words))
    return index


def find_cards(text: str, index: dict[str, list[CardName]]) -> list[tuple[CardName, int, int]]:
    toks = [(m.group(0), fold(m.group(0)).replace(" ", ""), m.start(), m.end())
            for m in _WORDS.finditer(text)]
    folded = tuple(t[1] for t in toks)

    def fits(i: int, name: CardName) -> bool:
        n = len(name.words)
        if folded[i:i + n] != name.words:
            return False
        if name.needs_case and tuple(t[0] for t in toks[i:i + n]) != name.exact:
            return False
        # the text's punctuation between the words must be the name's own: "damage. Net" is two sentences
        if len(name.gaps) == n - 1 and any(gap(text, toks[i + k][3], toks[i + k + 1][2]) != name.gaps[k]
                                            for k in range(n - 1)):
            return False
        return not (n == 1 and _inside_longer_name(text, toks, i))
    hits = longest_matches(len(toks), lambda i: index.get(folded[i], ()),
                           lambda name: len(name.words), fits)
    return [(name, toks[a][2], toks[b][3]) for name, a, b in hits]


def _adjacent(text: str, a: tuple, b: tuple) -> bool:
    """Are words `a` and `b` separated by spaces only (no punctuation, no line break)?"""
    gap = text[a[3]:b[2]]
    return gap.strip() == "" and "\n" not in gap


def _inside_longer_name(text: str, toks: list, i: int) -> bool:
    prev = toks[i - 1] if i > 0 else None
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    before = prev is not None and prev[0][:1].isupper() and _adjacent(text, prev, toks[i]) \
        and not _sentence_start(text, prev[2])
    after = nxt is not None and nxt[0][:1].isupper() and _adjacent(text, toks[i], nxt)
    return before or after


def _sentence_start(text: str, pos: int) -> bool:
    head = text[:pos].rstrip()
    return not head or head[-1] in ".!?:;\"“(\n"


def link_cards(ctx: LinkContext, sections: list[Section]) -> list[Section]:
    if not ctx.cards:
        return sections
    index = card_names(ctx, sections, common_words(ctx, sections))
    out = []
    skip = {d.key for d in ctx.documents.values() if d.era in OTHER_GAME_ERAS}
    for s in sections:
        if not s.anchor and s.doc not in skip:   # YAML sections mark their cards with {card:}
            # examples, appendix steps and rulings carry the source's own card marks but no anchor
            marked = [(l.start, l.end) for l in s.links if l.kind == LINK_CARD and l.start >= 0]
            hits = [(n, a, b) for n, a, b in find_cards(s.text, index)
                    if n.id != s.id and not any(x < b and a < y for x, y in marked)]
            if hits:
                s = replace(s, links=s.links + tuple(
                    Link(kind=LINK_CARD, ref=n.title, text=s.text[a:b], target=n.id, start=a, end=b)
                    for n, a, b in hits))
        out.append(s)
    return out
