"""Breaching a server and accessing cards: candidates, the basic trash ability, stealing."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from judgebook.engine.cards import Cost
from judgebook.engine.citations import cite
from judgebook.engine.scenario import Decision
from judgebook.engine.state import move, with_card, with_run
from judgebook.engine.timing import ACCESS, BREACH, TimingStep


class AccessMixin:
    # --- breach and access -----------------------------------------------------------------
    def breach(self, server: str) -> None:
        self.state = with_run(self.state, breached=True)
        self.breach_server, self.accessed, self.zone_chosen, self.limit = server, [], 0, 1
        self.in_run_breach = True
        with self.within("breach", keys=("breach",)):
            self.walk(BREACH, "breach", None, ("run", self.state.run.seq))
        self.in_run_breach = False

    def _breach_breach_begins(self, step: TimingStep) -> None:
        self.log("breach", f"the Runner breaches {self.breach_server}", step.anchor)

    def _breach_flip_archives(self, step: TimingStep) -> None:
        if self.breach_server == "Archives":
            for cid in self.state.zones.get("corp.discard", ()):
                self.state = with_card(self.state, replace(self.card(cid), faceup=True))
            self.log("flip", "all cards in Archives are turned faceup", step.anchor)

    def _breach_access_limit(self, step: TimingStep) -> None:
        if self.breach_server in ("HQ", "R&D"):
            self.limit = 1 + (self.state.run.access_bonus if self.state.run else 0)
            self.log("limit", f"random access limit: {self.limit}", step.anchor)

    def candidates(self) -> list[str]:
        """The cards the Runner may choose now; a prohibited access removes a candidate."""
        return [c for c in self._raw_candidates() if not self.cannot("access", card=c)]

    def _raw_candidates(self) -> list[str]:
        server = self.breach_server
        out = [c for c in self.state.zones.get(f"corp.server.{server}.root", ()) if c not in self.accessed]
        zone = {"HQ": "corp.hand", "R&D": "corp.deck", "Archives": "corp.discard"}.get(server)
        if zone:
            cards = [c for c in self.state.zones.get(zone, ()) if c not in self.accessed]
            if server == "Archives":
                out += cards
            elif self.zone_chosen < self.limit and cards:
                out += cards if server == "HQ" else cards[:1]
        return out

    def _breach_choose_candidate(self, step: TimingStep) -> Any:
        cands = self.candidates()
        barred = [c for c in self._raw_candidates() if c not in cands and (self.breach_server, c) not in self.barred]
        if barred:
            self.barred |= {(self.breach_server, c) for c in barred}
            self.log("prohibited", f"{', '.join(barred)}: the Runner cannot access "
                     f"{'it' if len(barred) == 1 else 'them'} ({self.cannot('access', card=barred[0])}), "
                     "so not a candidate", cite("prohibiting_access"))
        if not cands:
            self.log("no_candidates", "no candidates remain", step.anchor)
            return ("breach", "breach_complete")
        zone_of_server = {"HQ": "corp.hand", "R&D": "corp.deck"}

        def pick(d: Decision) -> str | None:
            if str(d.value) in zone_of_server:
                return next((c for c in cands if self.zone(c) == zone_of_server[str(d.value)]), None)
            return str(d.value) if str(d.value) in cands else None
        d = self.take("runner", ("access",), lambda d: True if pick(d) else
                      (f"{d.value} is not a candidate now (candidates: {', '.join(cands)})", "candidates"))
        self.chosen = pick(d) if d else cands[0]
        if self.zone(self.chosen) in ("corp.hand", "corp.deck"):
            self.zone_chosen += 1
        self.accessed.append(self.chosen)
        random = self.zone(self.chosen) == "corp.hand"
        assumed = (d is None and (len(cands) > 1 or random)) or (d is not None and str(d.value) == "HQ")
        why = " (a random card from HQ: the first in hand order, assumed)" if random else \
            " (first candidate in board order, assumed)"
        self.log("choose", f"the Runner chooses {self.chosen}" + (why if assumed else ""), step.anchor,
                 assumed=assumed, decision=d, player="runner")
        return None

    def _breach_access_candidate(self, step: TimingStep) -> None:
        extra = Cost()
        for cost, _ in self.additional_costs("access", card=self.chosen, server=self.breach_server):
            extra = extra.plus(cost)
        if extra != Cost() and not self._pay_additional(self.chosen, extra, "access", "access_additional_cost"):
            return
        self.access(self.chosen)

    def _breach_repeat(self, step: TimingStep) -> Any:
        return ("breach", "choose_candidate")

    def _breach_breach_complete(self, step: TimingStep) -> None:
        self.log("breach_complete", f"the breach of {self.breach_server} is complete", step.anchor)

    def access(self, cid: str) -> None:
        self.accessing, self.access_zone = cid, self.zone(cid)
        with self.within("access", keys=("access",)):
            self.walk(ACCESS, "access", None, ("access", cid))
        self.accessing = None

    def _access_accessed(self, step: TimingStep) -> None:
        self.log("access", f"the Runner accesses {self.accessing}", step.anchor)

    def _access_mid_access(self, step: TimingStep) -> None:
        cid = self.accessing
        cdef = self.cdef(cid)
        def fit(d: Decision) -> Any:
            if str(d.value) != cid:
                return (f"{d.value} is not the card being accessed", "basic_trash")
            if cdef.trash_cost is None:
                raise self.illegal(d, f"{cid} has no trash cost", "no_trash_cost")
            problem = self.cost_problem("runner", self.trash_cost(cid), cid)
            if problem:
                raise self.illegal(d, f"cannot pay the trash cost: {problem[0]}", problem[1])
            if self.cannot("trash", card=cid):
                raise self.illegal(d, f"{self.cannot('trash', card=cid)}: {cid} cannot be trashed", "cannot")
            return True
        d = self.take("runner", ("trash",), fit)
        if d:
            self.log("basic_trash", f"the Runner uses the basic trash ability on {cid}", cite("basic_trash"),
                     decision=d, player="runner")
            self.pay("runner", self.trash_cost(cid), cid, what=f"to trash {cid}")
            self.trash(cid, "runner", "basic trash ability")
        elif cdef.trash_cost is not None and self.zone(cid) != "corp.discard":
            self.log("no_trash", f"the Runner does not trash {cid} (assumed)", cite("mid_access_window"),
                     assumed=True, player="runner")

    def trash_cost(self, cid: str) -> Cost:
        cost = Cost(credits=self.cdef(cid).trash_cost or 0)
        for extra, _ in self.additional_costs("trash", card=cid, server=self.breach_server):
            cost = cost.plus(extra)
        return cost

    def _access_steal(self, step: TimingStep) -> None:
        cid = self.accessing
        if self.cdef(cid).type != "agenda" or self.zone(cid) != self.access_zone:
            return
        blocker = self.cannot("steal", card=cid)
        if blocker:
            self.log("cannot_steal", f"{blocker}: the Runner cannot steal {cid}", cite("cannot"))
            return
        extra = Cost()
        for cost, _ in self.additional_costs("steal", card=cid, server=self.breach_server):
            extra = extra.plus(cost)
        if extra != Cost() and not self._pay_additional(cid, extra, "steal", "steal_additional_cost"):
            return
        card = self.card(cid)
        self.state = with_card(self.state, replace(card, counters=(), rezzed=False, faceup=True))
        self.state = move(self.state, cid, "runner.score")
        self.log("steal", f"the Runner steals {cid} ({self.cdef(cid).agenda_points} agenda points)",
                 cite("must_steal"))
        self.emit("stolen", card=cid, type="agenda")

    def _pay_additional(self, cid: str, extra: Cost, what: str, rule_name: str) -> bool:
        """An additional cost the Runner may decline (rule_decline_additional_cost); default: pay if able."""
        problem = self.cost_problem("runner", extra, cid)

        def fit(d: Decision) -> Any:
            if d.value and problem:
                raise self.illegal(d, f"cannot pay the additional cost to {what}: {problem[0]}", problem[1])
            return True
        d = self.take("runner", ("pay",), fit)
        wants = d.value if d else problem is None
        if not wants:
            self.log(f"decline_{what}", f"the Runner does not pay the additional cost ({extra.describe()}) "
                     f"and does not {what} {cid}" + ("" if d else f" (cannot pay: {problem[0]})"),
                     cite(rule_name), decision=d, player="runner")
            return False
        self.pay("runner", extra, cid, what=f"as an additional cost to {what} {cid}"
                 + ("" if d else " (assumed)"))
        self.settle()
        return True
