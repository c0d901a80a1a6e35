"""Breaching a server and accessing cards (sec_breaching_steps, sec_steps_accessing_card)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.costs import Cost
from judgebook.engine.language.quantities import Number
from judgebook.engine.rules import costs
from judgebook.engine.rules.effects import move, trash
from judgebook.engine.rules.frames import Frame, current_run, event, find, log, path, pop, push, react_first, set_top
from judgebook.engine.rules.gained_abilities import abilities
from judgebook.engine.rules.triggers import emit
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, Refused, decision
from judgebook.engine.state.model import Game, evolve


@dataclass(frozen=True)
class Breach(Frame):
    server: str
    run_seq: int
    started: bool = False
    accessed: tuple[str, ...] = ()
    from_zone: int = 0  # cards accessed from R&D or HQ so far
    bonus: int = 0  # additional accesses added to this breach itself: one not part of a run has no run to hold them
    label = "breach"

    def labels(self) -> tuple[str, ...]:
        return ("breach", "breach", "breach begins" if not self.started else "choose a candidate")

    def limit(self, g: Game) -> int:
        """rule_default_random_access_limit: one card of R&D or HQ, plus any additional accesses: the run's, when
        this breach is part of it, and this breach's own (rule_increasing_random_access_limit)."""
        run = current_run(g)
        ours = run is not None and self.run_seq > 0 and run.seq == self.run_seq
        return 1 + self.bonus + (run.access_bonus if ours and run is not None else 0)

    def candidates(self, g: Game) -> list[str]:
        """Cards the Runner may access next: "HQ" stands for a random card of HQ, R&D's next card by its id."""
        root = [c for c in g.zone(q.root_zone(self.server)) if c not in self.accessed]
        zone = q.CENTRAL_ZONES.get(self.server)
        cards: list[str] = []
        if self.server == "Archives":
            cards = [c for c in g.zone("corp.discard") if c not in self.accessed]
        elif zone is not None and self.from_zone < self.limit(g):
            left = [c for c in g.zone(zone) if c not in self.accessed]
            if left:
                cards = [left[0]] if self.server == "R&D" else ["HQ"]
        out = [c for c in cards + root if not _cannot_access(g, c)]
        only = _only_accessible(g)
        return [c for c in out if c == only] if only else out

    def step(self, g: Game) -> Game | ChoicePoint:
        if g.over:
            return pop(g)
        if _run_ended(g, self.run_seq):
            return log(pop(g), "breach_ends", f"the run has ended: so has the breach of {self.server}",
                       "rule_end_run_access_or_breach_during_run")
        reacted = react_first(g)
        if reacted is not None:
            return reacted
        if not self.started:
            g = set_top(g, replace(self, started=True))
            return emit(
                g,
                event("breach", server=self.server),
                f"the Runner breaches {self.server}",
                "step_breaching_begins",
                "runner",
            )
        cands = self.candidates(g)
        blanket = costs.cannot(g, "access", "runner", self.server)
        # A ban on one card ("cannot access this upgrade") or on all but one ("cannot access cards other than
        # this upgrade") is applied to the candidates above; only a ban on accessing at all empties them.
        if blanket is not None and blanket.card is None and blanket.except_ is None:
            cands = []
        if not cands:
            return log(pop(g), "breach_complete", f"the breach of {self.server} is complete", "step_breach_complete")
        return ChoicePoint(
            "runner",
            "access",
            "choose the next card to access",
            "step_choose_candidate",
            tuple(
                Option(
                    decision("access", c),
                    "access a random card of HQ" if c == "HQ" else f"access {c}",
                    "step_choose_candidate",
                )
                for c in cands
            ),
            default=0,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        return self._access(g, str(option.decision.value))

    def _access(self, g: Game, cid: str) -> Game:
        if cid == "HQ":
            # A random card: the engine takes the first not yet accessed, one of the possible outcomes.
            cid = next(c for c in g.zone("corp.hand") if c not in self.accessed)
            g = log(g, "random", f"a random card of HQ: {cid}", "rule_candidates_in_hq", "runner", how="assumed")
        from_zone = self.from_zone + (g.cards[cid].zone in ("corp.hand", "corp.deck"))
        g = set_top(g, replace(self, accessed=self.accessed + (cid,), from_zone=from_zone))
        return push(g, Access(cid, run_seq=self.run_seq))


def _run_ended(g: Game, run_seq: int) -> bool:
    """rule_end_run_access_or_breach_during_run: ending the run (jacking out too) ends its breach and access."""
    from judgebook.engine.rules.run import Run

    run = find(g, Run)
    return run_seq > 0 and run is not None and run.seq == run_seq and run.ended


@dataclass(frozen=True)
class Access(Frame):
    card: str
    at: str = "cost"  # cost | accessed | decide
    paid: frozenset[str] = frozenset()  # additional costs paid (access, steal)
    declined: frozenset[str] = frozenset()
    seen: int = -1  # the card's incarnation when its access began: a new object is no longer being accessed
    run_seq: int = 0  # the run whose breach this access is part of (0: an access outside a breach)
    label = "access"

    def labels(self) -> tuple[str, ...]:
        return ("access", "access", "the card is accessed" if self.at != "decide" else "steal an agenda")

    def step(self, g: Game) -> Game | ChoicePoint:
        if g.over:
            return pop(g)
        reacted = react_first(g)
        if reacted is not None:
            return reacted
        if _run_ended(g, self.run_seq):
            return log(pop(g), "access_ends", f"the run has ended: so has the access of {self.card}",
                       "rule_end_run_access_or_breach_during_run")
        d = q.definition(g, self.card)
        if "access" in self.declined:
            return pop(g)
        if self.at == "cost":
            g = set_top(g, replace(self, at="accessed", seen=g.cards[self.card].incarnation))
            extra = costs.additional_cost(g, "access", self.card, _server_of_candidate(g, self.card))
            parts = len(costs.additional_costs(g, "access", self.card, _server_of_candidate(g, self.card)))
            return push(g, costs.AdditionalCostChoice("access", self.card, extra, parts)) if extra else g
        if self.at == "accessed":
            g = set_top(g, replace(self, at="mid"))
            return emit(
                g,
                event("access", card=self.card, type=d.type, server=q.server_of(g, self.card),
                      in_server=_server_of_candidate(g, self.card)),  # an Archives card too (Charm Offensive)
                f"the Runner accesses {self.card}",
                "step_card_accessed",
                "runner",
            )
        if self.at == "mid":
            # The mid-access ability window (step_mid_access_ability): the Runner's mid-access abilities
            # ("Access →" on their cards); the basic trash ability is offered at the next step.
            uses = _mid_access_uses(g, self.card)
            if not uses:
                return set_top(g, replace(self, at="decide"))
            return ChoicePoint(
                "runner",
                "mid_access",
                f"use a mid-access ability on {self.card}?",
                "step_mid_access_ability",
                (Option(decision("trash", False), "use no mid-access ability", "rule_mid_access_window_options"),)
                + tuple(uses),
                default=0,
                path=path(g),
            )
        if self.at == "decide":
            if self.card in g.cards and self.seen >= 0 and g.cards[self.card].incarnation != self.seen:
                # The card moved while being accessed (drawn, trashed, ...): the access ends at once.
                return log(pop(g), "access_ends", f"{self.card} moved: its access ends", "rule_moved_while_accessing")
            if (
                self.card not in g.cards
                or g.cards[self.card].zone in ("runner.score", "corp.discard")
                and d.type != "agenda"
            ):
                return pop(g)
            if d.type == "agenda":
                if costs.cannot(g, "steal", "runner", card=self.card):
                    return log(
                        pop(g), "not_stolen", f"{self.card} cannot be stolen", "rule_cannot_precedence", "runner"
                    )
                if "steal" in self.declined:
                    return pop(g)
                extra = costs.additional_cost(g, "steal", self.card, _server_of_candidate(g, self.card))
                if extra is not None and "steal" not in self.paid:
                    parts = len(costs.additional_costs(g, "steal", self.card, _server_of_candidate(g, self.card)))
                    return push(g, costs.AdditionalCostChoice("steal", self.card, extra, parts))
                g = pop(g)
                # The server it was stolen from, for "whenever an agenda is stolen from this server".
                server = _server_of_candidate(g, self.card)
                g = move(g, self.card, "runner.score")
                g = emit(
                    g,
                    event("stolen", card=self.card, player="runner", server=server),
                    f"the Runner steals {self.card}",
                    "step_access_agenda",
                    "runner",
                )
                from judgebook.engine.rules.checkpoint import checkpoint

                return checkpoint(g)
            if d.trash_cost is None or g.cards[self.card].zone == "corp.discard":
                return pop(g)
            cost = _trash_cost(g, self.card)
            no = Option(decision("trash", False), "do not trash it", "step_access_complete")
            yes = decision("trash", self.card)
            why = costs.refusal(g, cost, Ctx(self.card, "runner"), "runner", "trash")
            if costs.cannot(g, "trash", "runner", q.server_of(g, self.card), self.card):
                why = ("rule_cannot_precedence", "a card forbids trashing it")
            if why:
                return ChoicePoint(
                    "runner",
                    "trash",
                    f"trash {self.card}?",
                    "rule_basic_trash_ability",
                    (no,),
                    (Refused(yes, f"pay {d.trash_cost}[c] to trash {self.card}", why[0], why[1]),),
                    default=0,
                    default_reason="only",
                    path=path(g),
                )
            return ChoicePoint(
                "runner",
                "trash",
                f"trash {self.card}?",
                "rule_basic_trash_ability",
                (no, Option(yes, f"pay {d.trash_cost}[c] to trash {self.card}", "rule_basic_trash_ability")),
                default=0,
                path=path(g),
            )
        return pop(g)

    def choose(self, g: Game, option: Option) -> Game:
        if self.at == "mid":
            # One mid-access ability or none (rule_mid_access_window_one_ability); a trashed card's access ends.
            if option.decision.kind != "use":
                return set_top(g, replace(self, at="decide"))
            g = set_top(g, replace(self, at="decide"))
            from judgebook.engine.rules.windows import use_ability

            return use_ability(g, "runner", str(option.decision.value), str(option.decision.get("ability")), None)
        if not option.decision.value:
            return pop(g)
        g = costs.pay(g, _trash_cost(g, self.card), Ctx(self.card, "runner"), "runner", "trash")
        # The card is trashed while it is being accessed ("the first time you trash a card you are accessing"):
        # this decision leaves the stack after the trash.
        g = trash(g, self.card, "runner")
        return evolve(g, stack=tuple(f for f in g.stack if f is not self))


def _trash_cost(g: Game, cid: str) -> Cost:
    """The trash cost as changed by static effects, with any additional cost to trash it (rule_additional_cost)."""
    cost = Cost(credits=Number(costs.changed(g, "trash", cid, q.definition(g, cid).trash_cost or 0)), has_credits=True)
    extra = costs.additional_cost(g, "trash", cid)
    return cost.plus(extra) if extra is not None else cost


def _server_of_candidate(g: Game, cid: str) -> str | None:
    server = q.server_of(g, cid)
    if server is not None:
        return server
    zone = g.cards[cid].zone
    return next((s for s, z in q.CENTRAL_ZONES.items() if z == zone), None)


def _cannot_access(g: Game, cid: str) -> bool:
    """rule_prohibiting_access: "the Runner cannot access this upgrade" bars that card only, not the breach."""
    from judgebook.engine.language.statics import Cannot
    from judgebook.engine.rules.values import statics

    return cid in g.cards and any(
        isinstance(effect, Cannot) and effect.what == "access" and effect.card is not None
        and cid in effect.card.candidates(g, ctx) for effect, ctx in statics(g))


def _only_accessible(g: Game) -> str | None:
    """rule_prohibiting_access: "cannot access cards other than this one" (Ash)."""
    from judgebook.engine.language.statics import Cannot
    from judgebook.engine.rules.values import statics

    for effect, ctx in statics(g):
        if isinstance(effect, Cannot) and effect.what == "access" and effect.except_ == "self":
            return ctx.source
    return None


def _mid_access_uses(g: Game, card: str) -> list[Option]:
    """The Runner's usable mid-access abilities (`access: true` on their installed cards) while accessing `card`."""
    from judgebook.engine.rules.windows import _ability_options

    opts: list[Option] = []
    refused: list[Refused] = []
    # An event in the play area has them too while it resolves its run ("Access →" on Eye for an Eye).
    playing = [c for c in g.zone("play") if g.cards[c].owner == "runner"]
    for cid in q.installed(g, "runner") + playing:
        for ab in abilities(g, cid):  # as effects change them
            if ab.kind == "paid" and ab.access and (q.is_active(g, cid) or cid in playing):
                _ability_options(g, "runner", cid, ab, frozenset({"paid"}), opts, refused)
    return opts
