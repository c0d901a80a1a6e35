"""Never silently wrong (issue 19 §4): what a step touches that the engine is known not to get right.

A step *touches* a rule when it cites the rule's anchor, and a card when the card is the step's source (its
ability resolves, it is installed, rezzed, accessed...). Three things the engine knows it may get wrong:

- a rule the rule map marks "not yet" (`judgebook/engine/rule_map.toml`, read by `judgebook.linking.rule_map`
  outside the engine, which imports nothing of the rest of judgebook: the caller hands the map's "not yet"
  rows in as `Known.not_yet`, so the warnings follow the map as other changes move its rows);
- a card whose definition is `partial:` (its reason says what of the printed card the language cannot say);
- a scenario marked `mismatch: {wrong: engine}` whose outcome still misses its `expect`: the ruling's answer
  is known to differ from the replay. The mismatch's `why` names where (a rule's anchor, a card): the steps
  that cite that anchor or have that card say so; when no step does, the last step, where the outcome is.

One view model, computed once here and rendered by the CLI (text and `--json`), the replay page and the judge's
table (HTML).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from judgebook.engine.scenario.board import Mismatch
from judgebook.engine.state.model import Game, Step

KINDS = ("not-yet-rule", "partial-card", "mismatch")
_LABELS = {"not-yet-rule": "rule not enforced yet", "partial-card": "card only partly defined",
           "mismatch": "known mismatch"}
_ANCHOR = re.compile(r"\b(?:rule|step|sec|subsec|chpt)_[A-Za-z0-9_+]+")


@dataclass(frozen=True)
class StepWarning:
    kind: str                  # one of KINDS
    reason: str                # why the step may be wrong, in the map's, the card's or the scenario's words
    anchor: str | None = None  # the rule touched (not-yet-rule; a mismatch that names it)
    card: str | None = None    # the card touched (partial-card; a mismatch that names it)

    @property
    def label(self) -> str:
        return _LABELS[self.kind]

    def as_json(self) -> dict[str, str | None]:
        return {"kind": self.kind, "anchor": self.anchor, "card": self.card, "reason": self.reason}

    def text(self) -> str:
        what = " ".join(x for x in (self.card, self.anchor) if x)
        return f"{self.label}{': ' + what if what else ''}: {self.reason}"


@dataclass(frozen=True)
class Known:
    """What the engine is known not to get right, from outside a game: the rule map's "not yet" rows
    (anchor -> reason) and, for a scenario the engine is known to get wrong, the mismatch's `why`."""

    not_yet: Mapping[str, str] = field(default_factory=dict)
    mismatch: str | None = None


def live_mismatch(mismatch: Mismatch | None, differences: Sequence[str] | None) -> str | None:
    """The `why` of a scenario whose ruling the engine is known not to reach, while its outcome still misses
    `expect` (`differences`; None: not compared, as at the judge's table, where the session stops at the open
    choice point). A stale mismatch, or one where the ruling is what is wrong, warns of nothing."""
    if mismatch is None or mismatch.wrong != "engine" or differences == []:
        return None
    return mismatch.why if differences is None or differences else None


def _card_name(step: Step, game: Game) -> str | None:
    if step.card is None:
        return None
    card = game.cards.get(step.card)
    return card.name if card is not None else step.card


def step_warnings(step: Step, game: Game, known: Known) -> tuple[StepWarning, ...]:
    """The rule and card warnings of one step; `game` is any state of its game (card names, definitions)."""
    out: list[StepWarning] = []
    reason = known.not_yet.get(step.anchor)
    if reason is not None:
        out.append(StepWarning("not-yet-rule", reason, anchor=step.anchor))
    name = _card_name(step, game)
    if name is not None and game.library is not None and name in game.library:
        partial = game.library.card(name).partial
        if partial:
            out.append(StepWarning("partial-card", partial, card=step.card))
    return tuple(out)


def _names_it(why: str, step: Step, game: Game) -> bool:
    if step.anchor in set(_ANCHOR.findall(why)):
        return True
    name = _card_name(step, game)
    return name is not None and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", why) is not None


def replay_warnings(steps: Sequence[Step], game: Game, known: Known) -> tuple[tuple[StepWarning, ...], ...]:
    """Each step's warnings, in order: its own, and a known mismatch on the steps it names (else the last)."""
    out = [list(step_warnings(s, game, known)) for s in steps]
    why = known.mismatch
    if why and steps:
        named = [i for i, s in enumerate(steps) if _names_it(why, s, game)]
        for i in named or [len(steps) - 1]:
            s = steps[i]
            cites = s.anchor in set(_ANCHOR.findall(why))
            out[i].append(StepWarning("mismatch", why, anchor=s.anchor if cites else None,
                                      card=None if cites else s.card if named else None))
    return tuple(tuple(w) for w in out)


__all__ = ["KINDS", "Known", "StepWarning", "live_mismatch", "replay_warnings", "step_warnings"]
