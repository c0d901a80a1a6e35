"""Encountering ice (rule_sec_run_encounter_ice_phase): the encounter's own frame, so a forced encounter
(rule_forced_encounter) is the same structure without a run moving."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.frames import (
    Frame,
    current_encounter,
    current_run,
    event,
    find,
    log,
    pop,
    push,
    react_first,
    set_top,
    swap,
)
from judgebook.engine.rules.resolve import Resolve
from judgebook.engine.rules.triggers import emit, record
from judgebook.engine.rules.values import subroutines
from judgebook.engine.rules.windows import PriorityWindow
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint
from judgebook.engine.state.model import Game
from judgebook.engine.timing.structures import RUN

ENCOUNTER = RUN.phase("encounter_ice")


@dataclass(frozen=True)
class Encounter(Frame):
    ice: str
    seq: int
    run_seq: int | None
    at: str = "begins"  # begins | window | subroutines | complete
    sub: int = 0  # the next subroutine to resolve
    broken: tuple[int, ...] = ()
    bypassed: bool = False
    over: bool = False
    strength: tuple[tuple[str, int], ...] = ()
    forced: bool = False
    was: str = ""  # where the ice was, rezzed or not, as the encounter began (an installed ice's encounter)
    label = "encounter"

    def labels(self) -> tuple[str, ...]:
        steps = {s.key: s.label for s in ENCOUNTER.steps}
        step = {
            "begins": "encounter_begins",
            "begun": "encounter_begins",
            "window": "encounter_paw",
            "subroutines": "resolve_subroutines",
        }.get(self.at, "encounter_complete")
        head = ("forced encounter", "encounter ice") if self.forced else ()
        return head + (steps[step],)

    def step(self, g: Game) -> Game | ChoicePoint:
        run = current_run(g)
        if g.over:
            return pop(g)
        reacted = react_first(g)
        if reacted is not None:
            return reacted
        server = run.server if run else None
        if self.at == "begins":
            card = g.cards[self.ice]
            g = set_top(g, replace(self, at="begun", was=f"{card.zone}:{card.rezzed}" if q.is_ice(g, self.ice) else ""))
            return emit(
                g,
                event("encounter_ice", ice=self.ice, server=server, encounter_seq=self.seq),
                f"the Runner encounters {self.ice}",
                "step_encounter_begins",
                "runner",
            )
        if self.over or (self.run_seq is not None and run is None):
            return self._complete(g, server)
        now = g.cards.get(self.ice)
        if self.was and (now is None or f"{now.zone}:{now.rezzed}" != self.was):
            # The encountered ice was uninstalled or derezzed: the encounter ends, no further subroutine
            # resolves, and the run goes on to the Movement Phase (rule_ice_change_encounter_uninstall_derez).
            g = log(g, "encounter_over", f"{self.ice} left its position: the encounter ends",
                    "rule_ice_change_encounter_uninstall_derez", "runner", card=self.ice)
            return self._complete(g, server)
        if self.at == "begun":
            g = set_top(g, replace(self, at="window"))
            if not subroutines(g, self.ice) and not self.bypassed:
                # An ice with no subroutines is fully broken as its break window opens
                # (rule_fully_break_no_subroutines).
                g = emit(
                    g,
                    event("fully_broken", ice=self.ice, server=server, encounter_seq=self.seq),
                    f"{self.ice} has no subroutines: it is fully broken",
                    "rule_fully_break_no_subroutines",
                )
            return push(g, PriorityWindow(frozenset({"paid", "encounter"}), "step_encounter_paw", run_seq=self.run_seq))
        if self.at == "window":
            return set_top(g, replace(self, at="subroutines"))
        if self.at == "subroutines":
            subs = subroutines(g, self.ice)
            i = self.sub
            while i < len(subs) and i in self.broken:
                i += 1
            if i >= len(subs):
                return self._complete(g, server)
            g = set_top(g, replace(self, sub=i + 1))
            g = log(
                g,
                "subroutine",
                f"{self.ice} subroutine {i + 1} resolves: {subs[i].text or 'subroutine'}",
                "step_resolve_subroutine",
                "corp",
                card=self.ice,
                ability=f"sub{i + 1}",
            )
            g = record(g, event("subroutine_resolved", ice=self.ice, subroutine=i + 1))
            from judgebook.engine.rules.gained_abilities import replaced_subroutine

            instead = replaced_subroutine(g, self.ice, self.seq)  # "instead they resolve ..." (Tsakhia)
            if instead is not None:
                g = log(g, "replaced", "instead, the Corp resolves another subroutine",
                        "rule_replace_subroutine_resolution", "corp", card=self.ice)
            effects = subs[i].effects if instead is None else instead
            return push(g, Resolve(effects, Ctx(self.ice, "corp", f"sub{i + 1}"), "step_resolve_subroutine"))
        return self._complete(g, server)

    def _complete(self, g: Game, server: str | None) -> Game:
        g = pop(g)
        fully = len(self.broken) == len(subroutines(g, self.ice)) and not self.bypassed
        return emit(
            g,
            event("encounter_ends", ice=self.ice, server=server, encounter_seq=self.seq, fully_broken=fully),
            f"the encounter with {self.ice} ends",
            "step_encounter_complete",
        )


def break_subroutines(g: Game, breaker: str, subs: list[int]) -> Game:
    enc = find(g, Encounter)
    g = swap(g, enc, replace(enc, broken=tuple(sorted(set(enc.broken) | set(subs)))))
    for s in subs:
        g = emit(
            g,
            event("subroutine_broken", ice=enc.ice, by=breaker, breaker=breaker, subroutine=s + 1,
                  encounter_seq=enc.seq),
            f"{breaker} breaks {enc.ice} subroutine {s + 1}",
            "rule_break_subroutine",
            "runner",
        )
    now = find(g, Encounter)
    if len(now.broken) == len(subroutines(g, enc.ice)):
        run = current_run(g)
        g = emit(
            g,
            event(
                "fully_broken",
                ice=enc.ice,
                server=run.server if run else None,
                by=breaker,
                breaker=breaker,  # the card filter `breaker: self` reads it ("this program fully breaks")
                encounter_seq=enc.seq,
            ),
            f"{enc.ice} is fully broken",
            "rule_fully_break",
        )
    return g


def break_allowance(g: Game, breaker: str, enc: Encounter) -> int | None:
    """How many more subroutines `breaker` may break on the encountered ice under the `cannot_break` statics
    ("cannot break more than 1 of its printed subroutines"); None: no limit. Breaks this encounter by a
    breaker a restriction excepts do not count against it."""
    from judgebook.engine.language.statics import CannotBreak
    from judgebook.engine.rules.values import statics

    allowed: int | None = None
    for st, ctx in statics(g):
        if not isinstance(st, CannotBreak) or not st.limits(g, ctx, enc.ice, breaker):
            continue
        done = sum(
            1 for f in g.history
            if f.event.name == "subroutine_broken" and f.event.get("encounter_seq") == enc.seq
            and st.limits(g, ctx, enc.ice, str(f.event.get("by")))
        )
        left = max(0, st.more_than - done)
        allowed = left if allowed is None else min(allowed, left)
    return allowed


def bypass(g: Game) -> Game:
    enc = current_encounter(g)
    if enc is None:
        return g
    g = swap(g, enc, replace(enc, bypassed=True, over=True))
    # An event: "whenever you bypass a piece of ice" (Capybara, Jeitinho).
    return emit(g, event("bypass", ice=enc.ice, player="runner"), f"the Runner bypasses {enc.ice}", "rule_bypass",
                "runner")


def pump(g: Game, cid: str, n: int) -> Game:
    """An icebreaker's strength change lasts for the encounter; an ice's for the run (and an increase of a
    breaker that an effect makes last for the run: GAMEDRAGON Pro)."""
    from judgebook.engine.rules.gained_abilities import strength_lasts_for_run

    if q.is_ice(g, cid) or (n > 0 and strength_lasts_for_run(g, cid)):
        run = current_run(g)
        if run is not None:
            g = swap(g, run, replace(run, strength=run.strength + ((cid, n),)))
    else:
        enc = current_encounter(g)
        if enc is not None:
            g = swap(g, enc, replace(enc, strength=enc.strength + ((cid, n),)))
    return log(
        g,
        "strength",
        f"{cid} gets {'+' if n >= 0 else ''}{n} strength",
        "rule_icebreaker_strength_increase_implicit",
        card=cid,
    )
