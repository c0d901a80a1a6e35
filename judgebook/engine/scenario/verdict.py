"""Whether a replay came out as its scenario says, a known mismatch included.

A scenario carrying `mismatch: {wrong, why}` encodes a ruling the engine is known not to reach: it passes
when the outcome misses its `expect`; one that meets it is a stale mismatch (the engine or the ruling was
fixed and the marker is wrong now), and fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judgebook.engine.scenario.board import Mismatch
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game

if TYPE_CHECKING:  # the outcome is the driver's; the verdict only reads it
    from judgebook.engine.driver.script import Outcome
    from judgebook.engine.scenario.load import Scenario


@dataclass(frozen=True)
class Verdict:
    stated: bool                         # the scenario has an `expect`
    differences: tuple[str, ...] = ()    # between the outcome and `expect`
    mismatch: Mismatch | None = None

    @property
    def met(self) -> bool:
        return self.stated and not self.differences

    @property
    def stale(self) -> bool:
        return self.mismatch is not None and self.met

    @property
    def passed(self) -> bool:
        """The scenario came out as its file says: `expect` met, or missed where a mismatch is known."""
        return self.stated and (self.met != (self.mismatch is not None))

    def label(self) -> str:
        if not self.stated:
            return "no expectation stated"
        if self.mismatch is not None:
            if self.stale:
                return (f"stale mismatch: the outcome now meets `expect`, so the {self.mismatch.wrong} "
                        f"is not wrong any more (remove `mismatch`)")
            return f"known mismatch: {self.mismatch.wrong}: {self.mismatch.why}"
        return "expectation met" if self.met else "expectation NOT met"


def verdict(stated: bool, differences: list[str] | tuple[str, ...], mismatch: Mismatch | None) -> Verdict:
    return Verdict(stated, tuple(differences) if stated else (), mismatch)


# --- comparing an outcome with `expect` ---------------------------------------------------------------

def check(sc: Scenario, out: Outcome) -> list[str]:
    """The differences between the outcome and the scenario's `expect` (empty: as expected). Each names the
    `expect` key it comes from. `error` does not end the comparison: a refusal and the board it left are
    both assertable (the board is the last state before the refused decision)."""
    exp = sc.expect
    if exp is None:
        return []
    diffs: list[str] = []
    if exp.error_rule:
        got = out.error.rule if out.error else None
        if got != exp.error_rule:
            diffs.append(f"error: expected rule {exp.error_rule}, got {got} ({out.error})")
    elif out.error is not None:
        diffs.append(f"the replay stopped: {out.error}")
    if out.limit is not None:
        diffs.append(f"the replay stopped: {out.limit}")
    if not out.states:
        return diffs
    g = out.final
    if exp.winner is not None:
        got_w = g.winner or "none"
        if got_w != exp.winner:
            diffs.append(f"winner: expected {exp.winner}, got {got_w}")
    if exp.win_reason and g.win_reason != exp.win_reason:
        diffs.append(f"win_reason: expected {exp.win_reason}, got {g.win_reason}")
    if exp.run:
        ends = _run_events(out)
        if not ends:
            diffs.append("run: no run ended")
        else:
            for key, want in exp.run:
                if ends[-1].get(key) != want:
                    diffs.append(f"run.{key}: expected {want}, got {ends[-1].get(key)}")
    diffs += _resolution_diffs(exp.resolved, exp.not_resolved, exp.resolved_in, out)
    for side, fields in exp.state:
        diffs += _state_diffs(g, side, dict(fields))
    return diffs


RESOLVING = ("resolve", "subroutine")  # step kinds where an ability or a subroutine (`Ice:sub1`) resolves


def _names(label: str, step_label: str) -> bool:
    return step_label == label or step_label.startswith(label + ":")


def _resolution_diffs(resolved: tuple[str, ...], not_resolved: tuple[str, ...],
                      resolved_in: tuple[tuple[str, str], ...], out: Outcome) -> list[str]:
    steps = [s for s in out.steps if s.kind in RESOLVING]
    labels = [f"{s.card}:{s.ability}" for s in steps]
    diffs = [f"resolved: {lab} never resolved" for lab in resolved if not any(_names(lab, r) for r in labels)]
    order = [next((k for k, r in enumerate(labels) if _names(lab, r)), -1) for lab in resolved]
    if all(o >= 0 for o in order) and order != sorted(order):
        diffs.append(f"resolved: expected the order {list(resolved)}")
    diffs += [f"not_resolved: {lab} resolved" for lab in not_resolved if any(_names(lab, r) for r in labels)]
    for label, where in resolved_in:
        places = [s for s, r in zip(steps, labels, strict=True) if r == label]
        places = places or [s for s, r in zip(steps, labels, strict=True) if r.startswith(label)]
        if not places:
            diffs.append(f"resolved_in: {label} never resolved")
        elif not any(where in s.path or where == s.anchor for s in places):
            diffs.append(f"resolved_in: {label} resolved in {' > '.join(places[0].path)}, not in {where!r}")
    return diffs


def _run_events(out: Outcome) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    for g in out.states:
        for fact in g.history:
            if fact.event.name == "run_ends" and dict(fact.event.fields) not in seen:
                seen.append(dict(fact.event.fields))
    return seen


def _card_diffs(g: Game, cid: str, body: dict[str, Any]) -> list[str]:
    card = g.cards.get(cid)
    if card is None:
        return [f"cards.{cid}: no such card"]
    diffs = []
    for key, want in body.items():
        if key == "rezzed" and card.rezzed != want:
            diffs.append(f"cards.{cid}.rezzed: expected {want}, got {card.rezzed}")
        elif key == "counters":
            for kind, n in want.items():
                if card.count(kind) != n:
                    diffs.append(f"cards.{cid}.counters.{kind}: expected {n}, got {card.count(kind)}")
        elif key == "zone" and _zone_word(g, cid) != want:
            diffs.append(f"cards.{cid}.zone: expected {want}, got {_zone_word(g, cid)}")
        elif key == "strength":
            from judgebook.engine.rules.values import strength

            if strength(g, cid) != want:
                diffs.append(f"cards.{cid}.strength: expected {want}, got {strength(g, cid)}")
        elif key == "server" and q.server_of(g, cid) != want:
            diffs.append(f"cards.{cid}.server: expected {want}, got {q.server_of(g, cid)}")
        elif key == "position" and _position(g, cid) != want:
            diffs.append(f"cards.{cid}.position: expected {want}, got {_position(g, cid)}")
    return diffs


def _position(g: Game, cid: str) -> int | None:
    """A piece of ice's position, counted from the outermost (1) inward, as `start.run.ice` counts it; None
    for a card that is not installed ice."""
    card = g.cards[cid]
    if not card.zone.endswith(".ice"):
        return None
    return list(g.zone(card.zone)).index(cid) + 1


def _state_diffs(g: Game, side: str, fields: dict[str, Any]) -> list[str]:
    if side == "cards":
        return [d for cid, body in fields.items() for d in _card_diffs(g, cid, body)]
    p = g.player(side)  # type: ignore[arg-type]
    diffs = []
    got: Any
    for key, want in fields.items():
        if key in ("credits", "clicks", "tags", "bad_publicity", "core_damage"):
            got = getattr(p, key)
        elif key in ("hand", "deck", "discard"):
            ids = list(g.zone(f"{side}.{key}"))
            got = len(ids) if isinstance(want, int) else ids
            if isinstance(want, list):
                got = [c for c in want if c in ids] if set(want) <= set(ids) else ids
        elif key == "installed":
            inst = q.installed(g, side)  # type: ignore[arg-type]
            missing = [c for c in want if c not in inst]
            if missing:
                diffs.append(f"{side}.installed: {missing} not installed")
            elif not want and inst:  # `installed: []` says none is (a list of cards that must be would assert nothing)
                diffs.append(f"{side}.installed: expected none, got {sorted(inst)}")
            continue
        elif key == "trashed":
            missing = [c for c in want if c not in g.cards or not g.cards[c].zone.endswith("discard")]
            if missing:
                diffs.append(f"{side}.trashed: {missing} not in a discard pile")
            elif not want and g.zone(f"{side}.discard"):
                diffs.append(f"{side}.trashed: expected none, got {list(g.zone(f'{side}.discard'))}")
            continue
        elif key == "score":
            from judgebook.engine.rules.values import agenda_points

            got = agenda_points(g, side)  # type: ignore[arg-type]
        elif key == "scored":
            missing = [c for c in want if c not in g.zone(f"{side}.score")]
            if missing:
                diffs.append(f"{side}.scored: {missing} not in the score area")
            elif not want and g.zone(f"{side}.score"):
                diffs.append(f"{side}.scored: expected none, got {list(g.zone(f'{side}.score'))}")
            continue
        elif key == "rezzed":
            missing = [c for c in want if c not in g.cards or not g.cards[c].rezzed]
            if missing:
                diffs.append(f"{side}.rezzed: {missing} not rezzed")
            continue
        else:
            diffs.append(f"{side}.{key}: not checked by this engine yet")
            continue
        if got != want:
            diffs.append(f"{side}.{key}: expected {want}, got {got}")
    return diffs


def _zone_word(g: Game, cid: str) -> str:
    z = g.cards[cid].zone
    if q.is_installed(g, cid):
        return "installed"
    if z.startswith("hosted."):
        return "hosted"  # hosted without being installed (rule_host_without_install)
    for word in ("hand", "deck", "discard", "score", "identity", "play", "removed"):
        if z.endswith(word):
            return word
    return z
