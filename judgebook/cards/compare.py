"""A card's printed text and the engine's rendering of its definition, compared by structure, not wording.

Both texts are reduced to the same features, by category: triggers ("when"/"whenever", "the first time"),
costs ([click], N[credit], [trash], counters, before a colon), numbers (2 and more: "1" is also "a"),
durations (encounter, run, turn, until…), card types named as targets (not "this <type>", which is the card
itself), and instructions (gain, lose, draw, trash, install, rez, derez, expose, end the run, damage, tags…).
A category whose features differ is a mismatch. Reminder text (in parentheses) is left out: it restates
rules, it adds nothing to the card.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

CATEGORIES = ("trigger", "cost", "number", "duration", "target", "instruction")

_REMINDER = re.compile(r"\([^()]*\)")
_CREDIT = r"\[(?:credit|c)\]"
TYPES = ("program", "hardware", "resource", "event", "agenda", "asset", "upgrade", "operation", "ice", "identity")
_SELF = re.compile(r"\bthis (?:card|" + "|".join(TYPES) + r"|piece of ice|server)\b")

INSTRUCTIONS: tuple[tuple[str, str], ...] = (
    ("gain_credits", r"\bgain(?:s)?\b[^.;]*?" + _CREDIT),
    ("lose_credits", r"\blose(?:s)?\b[^.;]*?" + _CREDIT + r"|\blose(?:s)? (?:all |\d+ |x )?credits\b"),
    ("gain_clicks", r"\bgain(?:s)?\b[^.;]*?\[click\]"),
    ("lose_clicks", r"\blose(?:s)?\b[^.;]*?\[click\]"),
    ("draw", r"\bdraws?\b"),
    ("trash", r"\btrash(?:es|ing)?\b(?! cost)(?!\])"),
    ("install", r"\binstall(?:s)?\b(?! cost)"),
    ("rez", r"\brez(?:zes)?\b(?! cost)"),
    ("derez", r"\bderez(?:zes)?\b"),
    ("expose", r"\bexposes?\b"),
    ("end_the_run", r"\bend the run\b"),
    ("damage", r"\b(?:net|meat|core|brain) damage\b"),
    ("tag", r"\b(?:give|gives|take|takes) (?:the runner |you |them )?(?:\d+|x|a) tags?\b"),
    ("remove_tag", r"\bremove (?:\d+|x|a|all) tags?\b"),
    ("bad_publicity", r"\bbad publicity\b"),
    ("search", r"\bsearch(?:es)?\b"),
    ("shuffle", r"\bshuffles?\b"),
    ("counters", r"\b(?:place|places|remove|removes)\b[^.;]*?\bcounters?\b"),
    ("advance", r"\badvance(?:s)?\b(?! requirement)"),
    ("reveal", r"\breveals?\b"),
    ("look_at", r"\blooks? at\b"),
    ("bypass", r"\bbypass(?:es)?\b"),
    ("jack_out", r"\bjacks? out\b"),
    ("access", r"\baccess(?:es)? (?:\d+|x|an?|1) additional\b|\baccess \d+\b"),
    ("prevent", r"\bprevent(?:s)?\b"),
    ("swap", r"\bswaps?\b"),
    ("host", r"\bhost(?:s)?\b"),
    ("arrange", r"\barrange\b"),
    ("trace", r"\btrace\b"),
    ("run", r"\bmake a run\b|\brun (?:any|a|that|hq|r&d|archives)\b"),
)
# An instruction that entails another: searching a deck shuffles it (rule_search), so a printed "Shuffle your
# stack" after a search is the search's own.
IMPLIED = {"search": frozenset({"shuffle"})}
DURATIONS = (("turn", r"\b(?:this|the) turn\b|\(turn\)"), ("run", r"\b(?:this|the) run\b|\(run\)"),
             ("encounter", r"\bthis encounter\b|\(encounter\)"), ("until", r"\buntil\b"))


@dataclass(frozen=True)
class Mismatch:
    category: str
    printed_only: tuple[str, ...]
    rendered_only: tuple[str, ...]

    def describe(self) -> str:
        return (f"{self.category}: printed has {list(self.printed_only) or 'nothing more'}, "
                f"the rendering has {list(self.rendered_only) or 'nothing more'}")


def features(text: str, printed: bool = False) -> dict[str, frozenset[str]]:
    """The structural features of a card text (printed, its reminder text left out, or rendered)."""
    text = text.replace("\u2212", "-").lower().replace("[credit]", "[c]")
    if printed:
        text = _REMINDER.sub(" ", text)
    return {"trigger": _triggers(text), "cost": _costs(text), "number": _numbers(text),
            "duration": frozenset(k for k, rx in DURATIONS if re.search(rx, text)),
            "target": frozenset(t for t in TYPES if re.search(rf"\b{t}s?\b", _SELF.sub(" ", text))),
            "instruction": _implied(frozenset(k for k, rx in INSTRUCTIONS if re.search(rx, text)))}


def _implied(found: frozenset[str]) -> frozenset[str]:
    return found.union(*(IMPLIED.get(k, frozenset()) for k in found))


def _triggers(text: str) -> frozenset[str]:
    out = set()
    if re.search(r"\bthe first time\b", text):
        out.add("first time")
    if re.search(r"(?:^|[\s,.;])(?:when|whenever)\b", text):
        out.add("when")
    return frozenset(out)


# What a cost is written with; a colon after anything else is not a cost's ("if not: ...", "Hosted ...:").
_COST_WORDS = re.compile(r"\[click\]|\[trash\]|\[interrupt\]|→|(?:\d+|x)?\s*" + _CREDIT + r"|\b(?:\d+|x|remove|hosted|"
                         r"power|virus|credit|advancement|agenda|counters?|take|tags?|suffer|net|meat|core|damage|"
                         r"and|any|number|of|from|this|card|program|hardware|resource)\b")


def _costs(text: str) -> frozenset[str]:
    """What stands before the colon of each "cost: effect" line."""
    out = set()
    for line in text.splitlines():
        head, colon, _ = line.partition(":")
        head = head.rpartition("→")[2]     # "Interface → 1[c]: ...", "Once per turn → [click]: ..."
        if not colon or _COST_WORDS.sub(" ", head).strip(" ,") or not head.strip():
            continue
        if n := head.count("[click]"):
            out.add(f"{n}[click]")
        out.update(f"{m}[c]" for m in re.findall(r"(\d+|x)\s*" + _CREDIT, head))
        if "[trash]" in head:
            out.add("[trash]")
        if re.search(r"\bcounters?\b", head):
            out.add("counter")
    return frozenset(out)


def _numbers(text: str) -> frozenset[str]:
    return frozenset(n for n in re.findall(r"(?<![\w.])(\d+)(?![\w.]*\d)", text) if int(n) >= 2)


def compare(printed: str, rendered: str) -> list[Mismatch]:
    """The categories whose features differ between the printed text and the rendering."""
    a, b = features(printed, printed=True), features(rendered)
    return [Mismatch(c, tuple(sorted(a[c] - b[c])), tuple(sorted(b[c] - a[c]))) for c in CATEGORIES if a[c] != b[c]]
