"""The same rule across Comprehensive Rules versions, and word-level diffs.

Consecutive versions (by effective date) are aligned one-to-one: first by
anchor where both have one (the YAML versions), then by text similarity
within the same chapter, with a bonus for an unchanged number. Numbers alone
are not trusted: CR 1.6 inserted 1.12 "Objects", so everything after it
shifted. A last pass pairs what is left under already-aligned parents at the
same number when they still share a quarter of their words (a reworded rule).
The pairwise matches chain into histories, and every section in a
history gets `version` links to all its counterparts.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from judgebook.model import LINK_VERSION, Document, Link, Section
from judgebook.numbers import normalise_number

THRESHOLD = 0.5          # below this a pair is not the same rule
SAME_NUMBER_BONUS = 0.15
# a rule left over under parents already aligned, at the same number, needs less
# shared text to be the same rule reworded (1.4's 1.8.3b -> 1.6's 1.8.3b)
SIBLING_THRESHOLD = 0.25
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class DiffOp:
    op: str      # "equal" | "insert" | "delete"
    text: str


def word_diff(a: str, b: str) -> list[DiffOp]:
    """Word-level diff of `a` -> `b`; joining the equal+delete texts gives `a`, equal+insert gives `b`."""
    ta, tb = re.findall(r"\s+|[^\s]+", a), re.findall(r"\s+|[^\s]+", b)
    ops: list[DiffOp] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag == "equal":
            _push(ops, "equal", "".join(ta[i1:i2]))
            continue
        if tag in ("delete", "replace"):
            _push(ops, "delete", "".join(ta[i1:i2]))
        if tag in ("insert", "replace"):
            _push(ops, "insert", "".join(tb[j1:j2]))
    return ops


def _push(ops: list[DiffOp], op: str, text: str) -> None:
    if not text:
        return
    if ops and ops[-1].op == op:
        ops[-1] = DiffOp(op, ops[-1].text + text)
    else:
        ops.append(DiffOp(op, text))


# ---- alignment ------------------------------------------------------------

def _tokens(s: Section) -> frozenset[str]:
    return frozenset(_WORD.findall(f"{s.title} {s.text}".lower()))


def _chapter(section: Section, by_id: dict[str, Section]) -> str:
    """The chapter a section sits in: its own number's head, else its nearest numbered ancestor's."""
    seen, here = 0, section    # type: int, Section | None
    while here is not None and seen < 20:
        if here.number:
            return (normalise_number(here.number) or here.number).split(".")[0]
        here = by_id.get(here.parent)
        seen += 1
    return ""


def _similarity(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def align_pair(old: list[Section], new: list[Section], by_id: dict[str, Section]) -> list[tuple[str, str]]:
    """One-to-one (old id, new id) pairs for two versions."""
    pairs: list[tuple[str, str]] = []
    new_by_anchor = {s.anchor: s for s in new if s.anchor}
    used_old, used_new = set(), set()
    for s in old:
        t = new_by_anchor.get(s.anchor) if s.anchor else None
        if t is not None and t.id not in used_new:
            pairs.append((s.id, t.id))
            used_old.add(s.id)
            used_new.add(t.id)
    rest_old = [s for s in old if s.id not in used_old]
    rest_new = [s for s in new if s.id not in used_new]
    pairs += _align_by_text(rest_old, rest_new, by_id)
    return pairs + _align_siblings(old, new, pairs)


def _align_siblings(old: list[Section], new: list[Section], pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    matched = dict(pairs)
    used_new = set(matched.values())
    new_slot = {(s.parent, normalise_number(s.number)): s for s in new
                if s.number and s.id not in used_new}
    extra = []
    for s in old:
        if s.id in matched or not s.number or s.parent not in matched:
            continue
        t = new_slot.get((matched[s.parent], normalise_number(s.number)))
        if t is not None and t.id not in used_new and \
                _similarity(_tokens(s), _tokens(t)) >= SIBLING_THRESHOLD:
            extra.append((s.id, t.id))
            used_new.add(t.id)
    return extra


def _align_by_text(old: list[Section], new: list[Section], by_id) -> list[tuple[str, str]]:
    buckets: dict[tuple[str, bool], list[Section]] = {}
    for s in new:
        buckets.setdefault((_chapter(s, by_id), s.kind == "example"), []).append(s)
    new_tokens = {s.id: _tokens(s) for s in new}
    scored = []
    for s in old:
        key = (_chapter(s, by_id), s.kind == "example")
        if not key[0]:
            continue
        ts = _tokens(s)
        num = normalise_number(s.number) if s.number else None
        for t in buckets.get(key, ()):
            score = _similarity(ts, new_tokens[t.id])
            if num and num == normalise_number(t.number or ""):
                score += SAME_NUMBER_BONUS
            if score >= THRESHOLD:
                scored.append((score, s.order, t.order, s.id, t.id))
    scored.sort(key=lambda x: (-x[0], x[1], x[2]))
    pairs, used_old, used_new = [], set(), set()
    for _, _, _, a, b in scored:
        if a not in used_old and b not in used_new:
            pairs.append((a, b))
            used_old.add(a)
            used_new.add(b)
    return pairs


def align_versions(documents: list[Document], sections: list[Section]) -> list[list[str]]:
    """Histories: lists of section ids, one per CR version that has the rule, oldest first."""
    versions = sorted((d for d in documents if d.is_cr), key=lambda d: (d.effective, d.key))
    by_doc: dict[str, list[Section]] = {d.key: [] for d in versions}
    for s in sections:
        if s.doc in by_doc:
            by_doc[s.doc].append(s)
    by_id = {s.id: s for s in sections}
    nxt: dict[str, str] = {}
    for a, b in zip(versions, versions[1:], strict=False):
        for old_id, new_id in align_pair(by_doc[a.key], by_doc[b.key], by_id):
            nxt[old_id] = new_id
    has_prev = set(nxt.values())
    chains = []
    for start in nxt:
        if start in has_prev:
            continue
        chain = [start]
        while chain[-1] in nxt:
            chain.append(nxt[chain[-1]])
        chains.append(chain)
    return chains


def add_version_links(sections: list[Section], chains: list[list[str]]) -> list[Section]:
    by_id = {s.id: s for s in sections}
    extra: dict[str, list[Link]] = {}
    for chain in chains:
        for sid in chain:
            extra[sid] = [_version_link(by_id[o]) for o in chain if o != sid]
    return [replace(s, links=s.links + tuple(extra[s.id])) if s.id in extra else s
            for s in sections]


def _version_link(other: Section) -> Link:
    return Link(kind=LINK_VERSION, ref=f"{other.doc}:{other.number}" if other.number else other.id,
                text=other.doc, target=other.id)


# ---- what changed between two versions (for the web's "What changed" and `show`) ----

@dataclass(frozen=True)
class Change:
    kind: str            # "added" | "removed" | "changed" | "renumbered" (and maybe changed too)
    old: str = ""        # section id in the older version ("" when added)
    new: str = ""        # section id in the newer version ("" when removed)
    text_changed: bool = False


def changes(corpus, old_doc: str, new_doc: str) -> list[Change]:
    """Rule-by-rule differences between two loaded CR versions, in the newer one's order
    (removed rules last, in the older one's order). Unchanged rules are left out."""
    def counterpart(s: Section, doc: str) -> Section | None:
        return next((corpus.get(l.target) for l in s.links
                     if l.kind == LINK_VERSION and l.target.startswith(doc + ":")), None)

    out: list[Change] = []
    for s in corpus.in_doc(new_doc):
        o = counterpart(s, old_doc)
        if o is None:
            out.append(Change("added", new=s.id))
            continue
        text_changed = " ".join(o.text.split()) != " ".join(s.text.split()) or o.title != s.title
        renumbered = (normalise_number(o.number) or o.number) != (normalise_number(s.number) or s.number)
        if renumbered or text_changed:
            out.append(Change("renumbered" if renumbered else "changed", o.id, s.id, text_changed))
    out += [Change("removed", old=s.id) for s in corpus.in_doc(old_doc) if counterpart(s, new_doc) is None]
    return out


# ---- typography: differences that change how a rule looks, not what it says ----

# Curly and straight quotes, dashes, and the symbol notations: "[c]" in the
# NISEI texts, "{c}" where the NSG source describes its own notation; the NSG
# "[trashcost]" and "[dash]" tokens for the NISEI "[trash]" and "–"; and the
# unique mark "◆", which the CR 1.6 PDF text lost.
_TYPOGRAPHY = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "–": "-", "—": "-",
                             "{": "[", "}": "]", "◆": ""})
_NOTATION = (("[trashcost]", "[trash]"), ("[dash]", "-"))


def typography_key(text: str) -> str:
    """The text with quote style, capitals, whitespace and symbol notation folded away."""
    folded = text.translate(_TYPOGRAPHY).casefold()
    for token, same in _NOTATION:
        folded = folded.replace(token, same)
    return " ".join(folded.split())


def typography_only(old: str, new: str) -> bool:
    """Do two texts say the same once typography is folded away? (True for identical texts too:
    the caller has already found them different in some other respect, such as a label.)"""
    return typography_key(old) == typography_key(new)
