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
# Deckbuilding, limits and where a card may be installed: no ability, nothing the engine plays ("Your deck
# cannot include…", "Limit 1 per deck.", "Install only on a piece of ice.")
_DECKBUILDING = re.compile(r"\byour deck (?:cannot|can|may|must) include[^.\n]*\.?|\blimit 1 [^.\n]*\.?"
                           r"|\blimit \d+ per deck\.?|\binstall only on [^.\n]*\.?")
# What hosted credits may pay for is a statistic of the card (`credits_for`), however it is worded
_HOSTED = re.compile(r"\b(?:you can spend hosted credits|use these credits)[^.\n]*\.?")
_CREDIT = r"\[(?:credit|c)\]"
TYPES = ("program", "hardware", "resource", "event", "agenda", "asset", "upgrade", "operation", "ice", "identity")
_SELF = re.compile(r"\bthis (?:card|" + "|".join(TYPES) + r"|piece of ice|server)\b")

# "Take 3[credit] from this asset", "Take all credits from this asset": hosted credits removed and gained
_TAKE_FROM = r"\btakes? (?:\d+|x|all)\s*(?:\[c\]|credits) from\b"
INSTRUCTIONS: tuple[tuple[str, str], ...] = (
    ("gain_credits", r"\bgain(?:s)?\b[^.;\n]*?" + _CREDIT + r"|\bgains? credits\b|" + _TAKE_FROM),
    ("lose_credits", r"\blose(?:s)?\b[^.;\n]*?" + _CREDIT + r"|\blose(?:s)? (?:all |\d+ |x )?credits\b"),
    ("gain_clicks", r"\bgain(?:s)?\b[^.;\n]*?\[click\]"),
    ("lose_clicks", r"\blose(?:s)?\b[^.;\n]*?\[click\]"),
    ("draw", r"\bdraws?\b"),
    # "[trash]" in an effect is a nested cost ("you may pay [trash]"), trashing all the same; a line's own cost
    # is left out before instructions are read
    ("trash", r"\btrash(?:es|ing|ed)?\b(?! cost)"),
    ("install", r"\binstall(?:s)?\b(?! cost)"),
    ("rez", r"(?<!cost to )\brez(?:zes)?\b(?! cost)"),
    ("derez", r"\bderez(?:zes)?\b"),
    ("expose", r"\bexposes?\b"),
    ("end_the_run", r"\bend the run\b"),
    ("damage", r"\b(?:net|meat|core|brain) damage\b|\bdamage type (?:net|meat|core)\b"),
    ("tag", r"\b(?:give|gives|take|takes)\b[^.;\n]*?\btags?\b|\btags (?:are|would be) taken\b"),
    ("remove_tag", r"\bremove (?:up to )?(?:\d+|x|a|all|any number of) tags?\b"),
    ("bad_publicity", r"\bbad publicity\b"),
    ("search", r"\bsearch(?:es)?\b"),
    ("shuffle", r"\bshuffles?\b"),
    ("counters", r"\bcharges?\b|\b(?:place|places|load|loads|remove|removes)\b[^.;\n]*?"
                 r"(?:\bcounters?\b|\bcredits?\b|\[c\])|" + _TAKE_FROM),
    ("advance", r"\badvance(?:s|d)?\b(?! requirement)"),
    ("reveal", r"\breveals?\b"),
    ("look_at", r"\blooks? at\b"),
    ("bypass", r"\bbypass(?:es)?\b"),
    ("jack_out", r"\bjacks? out\b"),
    ("access", r"\baccess(?:es)? [^.;\n]*?\badditional\b|\baccess \d+\b"),
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
# A duration is a phrase of time ("for the remainder of this run", "until …", "for their next turn"); "this run"
# or "during that run" alone is a condition's scope ("if you did not break any subroutines during that run").
_SPAN = (r"\b(?:remainder of (?:this|the|that)|for (?:this|the|that)|for the duration of (?:this|the|that)"
         r"|(?<!if )during (?:this|the)|until (?:the )?end of (?:this|the|that)) ")
# "You cannot score or rez either of those cards this turn", "Skip your discard step this turn": a restriction's
# "this turn" is its duration (not in "if it was installed this turn", a condition)
_BARRED = r"|\b(?:cannot|skip)\b(?:(?!\bif\b)[^.;\n])*\b(?:this|the) "
DURATIONS = (("turn", _SPAN + r"turn\b|\(turn\)" + _BARRED + r"turn\b"),
             ("run", _SPAN + r"run\b|\(run\)" + _BARRED + r"run\b"),
             ("encounter", _SPAN + r"encounter\b|\(encounter\)"), ("until", r"\buntil\b|\bnext turn\b"))


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
        text = _DECKBUILDING.sub(" ", _REMINDER.sub(" ", text))
    text = _HOSTED.sub(" ", text)
    effects = "\n".join(_effect(line) for line in text.splitlines())    # what is done, costs left out
    return {"trigger": _triggers(text), "cost": _costs(text), "number": _numbers(text),
            "duration": frozenset(k for k, rx in DURATIONS if re.search(rx, text)),
            "target": _targets(effects),
            "instruction": _implied(frozenset(k for k, rx in INSTRUCTIONS if re.search(rx, effects)))}


# Card types that name no target: the card itself ("this ice"), its host ("host ice"), agenda points, a type
# excluded ("non-agenda", "not of type agenda"),
# the agenda of "stole an agenda" or "score agendas" (only agendas are stolen or scored), and the language's
# spelling of "a card" as a list of three or more types ("of type agenda or asset or upgrade").
_NOT_TARGETS = re.compile(r"\bagenda points\b|\btriggering event\b|\bhost ice\b|\bthe ice is the host card\b"
                          r"|\bnot of type \w+|\btype \((?:'\w+',? ?){3,}\)|\bnon-(?:" + "|".join(TYPES) + r")\b"
                          r"|\b(?:stole|steals?|stolen|scores?|scored) (?:an |any |that |the )?agendas?\b"
                          r"|\bagendas? (?:is|are) (?:stolen|scored)\b|\bagendas? you (?:scored|stole)\b"
                          r"|\bthe ice is an? \w+"
                          r"|\bof type (?:\w+ or ){2,}\w+")


def _targets(text: str) -> frozenset[str]:
    text = _NOT_TARGETS.sub(" ", _SELF.sub(" ", text))
    return frozenset(t for t in TYPES if re.search(rf"\b{t}s?\b", text))


def _implied(found: frozenset[str]) -> frozenset[str]:
    return found.union(*(IMPLIED.get(k, frozenset()) for k in found))


def _triggers(text: str) -> frozenset[str]:
    """Per line (an ability): "the first time …" (or its reading as a count, "… happened this turn is at most
    1"), else "when"/"whenever" — or "If successful, …" after a run, a trigger on the run's success."""
    out = set()
    for line in text.splitlines():
        if re.search(r"\bthe first time\b|\bhappened this (?:turn|run) is (?:at most|equal to) 1\b"
                     r"|\bthe next ice encountered\b", line):
            out.add("first time")
        elif re.search(r"(?:^|[\s,.;])(?:when|whenever)\b|\bif successful\b", line):
            out.add("when")
    return frozenset(out)


_TRASH_SELF = re.compile(r"\b(?:reveal and )?trash this (?:card|" + "|".join(TYPES) + r")(?: from hq)?")
# What a cost is written with; a colon after anything else is not a cost's ("if not: ...", "Hosted ...:").
_COST_WORDS = re.compile(r"\[click\]|\[trash\]|\[interrupt\]|→|(?:\d+|x)?\s*" + _CREDIT + r"|\b(?:\d+|x|remove|hosted|"
                         r"power|virus|credit|advancement|agenda|counters?|take|tags?|suffer|net|meat|core|damage|"
                         r"and|or|any|number|of|from|this|card|program|hardware|resource)\b")


def _cost_head(line: str) -> str | None:
    """The cost of a "cost: effect" line ("Interface → 1[c]: ...", "[click], reveal and trash this upgrade from
    HQ: ..."), with "trash this <card>" read as [trash]; None when the line has no cost."""
    head, colon, _ = line.partition(":")
    head = _TRASH_SELF.sub("[trash]", head.rpartition("→")[2])
    if not colon or not head.strip() or _COST_WORDS.sub(" ", head).strip(" ,"):
        return None
    return head


def _effect(line: str) -> str:
    """A line without its cost."""
    return line.partition(":")[2] if _cost_head(line) is not None else line


def _costs(text: str) -> frozenset[str]:
    """What stands before the colon of each "cost: effect" line."""
    out = set()
    for line in text.splitlines():
        head = _cost_head(line)
        if head is None:
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
    """2 up to 49: "1" is also "a", and a bound of 50 or more stands for "any number"."""
    found = {n for n in re.findall(r"(?<![\w.])(\d+)(?![\w.]*\d)", text) if 2 <= int(n) < 50}
    # "[click][click]" is a number too ("gain 2 [click]")
    found |= {str(len(run) // len("[click]")) for run in re.findall(r"(?:\[click\]){2,}", text)}
    return frozenset(found)


def compare(printed: str, rendered: str) -> list[Mismatch]:
    """The categories whose features differ between the printed text and the rendering."""
    a, b = features(printed, printed=True), features(rendered)
    return [Mismatch(c, tuple(sorted(a[c] - b[c])), tuple(sorted(b[c] - a[c]))) for c in CATEGORIES if a[c] != b[c]]
