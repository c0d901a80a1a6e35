"""Procedures instructions start: installing, running, extra accesses, forced encounters, traces."""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING, Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.costs import Cost
from judgebook.engine.language.quantities import Number
from judgebook.engine.rules import costs
from judgebook.engine.rules.effects import move, rez, trash
from judgebook.engine.rules.frames import Call, Frame, current_run, event, find, log, path, pop, push, swap
from judgebook.engine.rules.resolve import resolve_now
from judgebook.engine.rules.restrictions import like_cards
from judgebook.engine.rules.triggers import emit
from judgebook.engine.rules.values import link
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, Refused, decision
from judgebook.engine.state.model import Game, Side, evolve

if TYPE_CHECKING:
    from judgebook.engine.language.instructions import Install, Trace


SERVER_CHOICES = ("remote", "central", "any", "another", "another_remote")  # `server:` words: the Corp chooses
TRASH_PICKS = 256  # the choices of ice to trash while installing ice: every subset of 8 pieces


def install_by_instruction(g: Game, ctx: Ctx, cid: str, ins: Install, where: str | None = None) -> Game:
    """Install `cid` as `ins` says, in `where` once the Corp has chosen the server (InstallWhere)."""
    d = q.definition(g, cid)
    side = g.cards[cid].owner
    if side == "corp" and where is None and ins.server in SERVER_CHOICES:
        return push(g, InstallWhere(ctx, cid, ins))
    if side == "corp" and d.type == "ice":
        server = where or ins.server
        if server == "this" or (server is None and ins.position == "inward_of_self"):
            server = q.server_of(g, ctx.source)
        if server is not None and server != "new" and g.zone(q.ice_zone(server)):
            # The destination is declared: the Corp may first trash ice protecting it (rule_install_trash_ice);
            # the install goes on, and does what it says of the card installed, once they have chosen.
            adjust = (ins.surcharge.value(g, ctx) if ins.surcharge else 0) - (
                ins.discount.value(g, ctx) if ins.discount else 0)
            g = push(g, Call(_install_after_trashing, (ctx, cid, ins, server)))
            return push(g, TrashLikeIce(cid, server, ins.pay_cost, adjust))
    return _install_now(g, ctx, cid, ins, where)


def _install_after_trashing(g: Game, ctx: Ctx, cid: str, ins: Install, server: str) -> Game:
    seq0 = g.seq
    g = _install_now(g, ctx, cid, ins, server)
    return after_install(g, ctx, ins, [cid] if q.is_installed(g, cid) else [], seq0)


def _install_now(g: Game, ctx: Ctx, cid: str, ins: Install, where: str | None = None) -> Game:
    """The install itself, in `where` (the server already declared) or the instruction's `server`."""
    d = q.definition(g, cid)
    side = g.cards[cid].owner
    from_hand = g.cards[cid].zone.endswith(".hand")  # "when you install this from anywhere except HQ"
    origin = q.from_zone(g, cid)  # "whenever you install a program from your heap"
    if ins.pay_cost:
        # A Corp card's printed cost is its rez or play cost: its install cost is the ice tax of the server
        # (rule_install_cost_ice), nothing in a new server.
        printed = (d.cost or 0) if side == "runner" else 0
        if side == "corp" and d.type == "ice" and (where or ins.server) not in (None, "new", "this"):
            printed = len(g.zone(q.ice_zone(str(where or ins.server))))
        if side == "runner":
            printed = costs.changed(g, "install", cid, printed)
        surcharge = ins.surcharge.value(g, ctx) if ins.surcharge else 0
        price = max(0, printed - (ins.discount.value(g, ctx) if ins.discount else 0) + surcharge)
        why = costs.refusal(g, Cost(credits=Number(price), has_credits=True), Ctx(cid, side), side, "install")
        if why:
            return log(g, "cannot_pay", f"{cid} cannot be installed: {why[1]}", why[0], side, card=cid)
        g = costs.pay(g, Cost(credits=Number(price), has_credits=True), Ctx(cid, side), side, "install")
    host = g.cards[cid].host if g.cards[cid].zone.startswith("hosted.") else None
    if side == "runner":
        g = move(g, cid, "runner.rig")
        if host is not None:  # installed from a hosted state: the hosting ends as it is placed
            g = log(g, "unhosted", f"{cid} is no longer hosted on {host}", "rule_install_from_hosted", side, card=cid)
    else:
        server = where or ins.server
        if server == "this" or (server is None and ins.position == "inward_of_self"):
            server = q.server_of(g, ctx.source)
        from judgebook.engine.language.identities import remote_limit_refuses
        from judgebook.engine.language.statics import server_only_refuses

        if server_only_refuses(d, server or "new"):
            return log(g, "cannot_install", f"{cid} cannot be installed in {server}", "rule_x_server_only", side,
                       card=cid)
        if remote_limit_refuses(g, server):
            return log(g, "cannot_install", f"{cid} cannot be installed in a new remote server",
                       "rule_limit_remote_servers", side, card=cid)
        if server in (None, "new"):
            n = 1 + sum(1 for s in g.servers if s.startswith("Server "))
            server = f"Server {n}"
            g = evolve(g, servers=g.servers + (server,))
        assert server is not None
        if d.type == "ice":
            from judgebook.engine.rules.positions import place_ice

            g = place_ice(g, cid, server, ins.position, ctx.source)
        else:
            g = move(g, cid, q.root_zone(server))
        g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], faceup=False)))
        from judgebook.engine.language.identities import may_install_faceup

        if may_install_faceup(g, cid):  # "You may install agendas faceup": the Corp chooses as it is installed
            from judgebook.engine.rules.identities import FaceupChoice

            g = push(g, FaceupChoice(cid))
    g = like_cards(g, cid)
    installed = event("installed", card=cid, type=d.type, player=side, server=q.server_of(g, cid),
                      from_hand=from_hand, from_zone=origin)
    g = emit(g, installed, f"{cid} is installed", "rule_installing", side)
    if ins.rez and d.type != "agenda":  # "install and rez": an agenda is installed, never rezzed
        g = rez(g, cid, paid=False)
    return g


@dataclass(frozen=True)
class TrashLikeIce(Frame):
    """Installing ice protecting a server that ice already protects, the Corp may first trash any number of
    that ice, which is then not counted in the install cost (rule_install_trash_ice; the step after the
    destination is declared, CR 8.5.16c): `{trash_like: [C, ...]}`, `[]` for none,
    the default. Choices that leave a cost the Corp cannot pay are refused with the rule on costs."""

    card: str
    server: str
    pays: bool = True  # the install cost (1[c] per piece of ice left protecting the server) is paid
    adjust: int = 0  # what the install instruction adds to that cost (a surcharge) or takes off (a discount)

    def step(self, g: Game) -> ChoicePoint:
        ice = g.zone(q.ice_zone(self.server))
        picks = [p for k in range(len(ice) + 1) for p in combinations(ice, k)][:TRASH_PICKS]
        opts: list[Option] = []
        refused: list[Refused] = []
        for p in picks:
            d = decision("trash_like", list(p))
            label = f"trash {', '.join(p)}, then install {self.card}" if p else f"trash no ice; install {self.card}"
            price = max(0, len(ice) - len(p) + self.adjust)
            why = costs.refusal(g, Cost(credits=Number(price), has_credits=True), Ctx(self.card, "corp"), "corp",
                                "install") if self.pays else None
            if why:
                refused.append(Refused(d, label, why[0], why[1]))
            else:
                opts.append(Option(d, label, "rule_install_trash_ice"))
        if not opts:  # no choice makes the cost payable: the install goes on and says it cannot be paid
            opts.append(Option(decision("trash_like", []), f"trash no ice; install {self.card}",
                               "rule_install_trash_ice"))
            refused = [r for r in refused if r.decision.value]
        return ChoicePoint("corp", "trash_like", f"before installing {self.card}, trash any ice protecting "
                           f"{self.server}", "rule_install_trash_ice", tuple(opts), tuple(refused),
                           default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        g = pop(g)
        chosen = [str(c) for c in option.decision.value or ()]
        if not chosen:
            return g
        g = log(g, "trash_like", f"before installing {self.card}, the Corp trashes {', '.join(chosen)}: "
                "not counted in its install cost", "rule_install_trash_ice", "corp", how="chosen", card=self.card)
        for cid in chosen:
            g = trash(g, cid, "corp", during_install=True)
        return g


def after_install(g: Game, ctx: Ctx, ins: Install, installed: list[str], seq0: int) -> Game:
    """An install's `then`, on each installed card as `chosen`, after what the install made pending."""
    if not ins.then or not installed:
        return g
    anchor = "rule_checkpoint_after_instruction_resolution"
    for cid in reversed(installed):  # the first installed card's `then` first
        g = resolve_now(g, replace(ctx, targets=(), chosen=(cid,)), ins.then, anchor)
    if any(p.serial > seq0 for p in g.pending):
        # `then` is the next instruction: what the install made pending resolves first (rule_chain_reaction).
        from judgebook.engine.rules.windows import ReactionWindow

        g = push(g, ReactionWindow(after=seq0))
    return g


@dataclass(frozen=True)
class InstallWhere(Frame):
    """The Corp chooses the server a card is installed in (`server: remote | central | any`): `{target: S}`,
    `new` for a new remote server; an agenda or asset goes only in a remote server (rule_corp_basic_action_install)."""

    ctx: Ctx
    card: str
    ins: Install

    def step(self, g: Game) -> Game | ChoicePoint:
        d = q.definition(g, self.card)
        want = self.ins.server
        servers = [s for s in g.servers if want == "any" or (want == "central") == (s in q.CENTRAL)]
        if want == "another":  # "in the root of or protecting another server": any but this card's
            servers = [s for s in g.servers if s != q.server_of(g, self.ctx.source)]
        if d.type in ("agenda", "asset"):
            servers = [s for s in servers if s not in q.CENTRAL]
        from judgebook.engine.language.identities import remote_limit_refuses
        from judgebook.engine.rules.identities import other_remotes

        if want == "another_remote":  # a remote server other than the triggering install's (language/identities.py)
            servers = other_remotes(g, self.ctx)
        if want != "central" and not remote_limit_refuses(g, "new"):
            servers.append("new")
        if not servers:
            return log(pop(g), "cannot_install", f"no server to install {self.card} in", "rule_limit_remote_servers",
                       "corp", card=self.card)
        opts = tuple(Option(decision("target", [s]), f"install {self.card} in {s}", "rule_installing") for s in servers)
        return ChoicePoint("corp", "target", f"the server to install {self.card} in", "rule_installing", opts,
                           default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        g = pop(g)
        seq0 = g.seq
        g = install_by_instruction(g, self.ctx, self.card, self.ins, str(option.decision.value[0]))
        installed = [self.card] if q.is_installed(g, self.card) else []
        return after_install(g, self.ctx, self.ins, installed, seq0)


def run_instruction(g: Game, ctx: Ctx, server: str, among: tuple[str, ...] = (), instead: Any = None) -> Game:
    """`instead`: (instructions, ctx) that replace the breach of this run if it is successful."""
    from judgebook.engine.rules.run import start_run

    if server == "mark":
        from judgebook.engine.rules.values import mark

        found = mark(g)
        if found is None:
            return log(g, "no_mark", "the Runner has no mark: no run", "rule_mark_identification", ctx.controller)
        return start_run(g, found, instead)
    if server == "any":
        if ctx.server is not None:
            return start_run(g, ctx.server, instead)
        return push(g, ChooseServer(ctx, instead=instead))
    if server in ("central", "remote", "among", "protected"):
        return push(g, ChooseServer(ctx, server, among, instead))
    return start_run(g, server, instead)


@dataclass(frozen=True)
class ChooseServer(Frame):
    ctx: Ctx
    want: str = "any"  # any | central | remote | protected (by ice) | among (the servers listed)
    among: tuple[str, ...] = ()
    instead: Any = None  # what replaces the breach of that run, if it is successful

    def step(self, g: Game) -> ChoicePoint:
        opts = []
        refused = []
        for s in g.servers:
            if (self.want == "central") != (s in q.CENTRAL) and self.want in ("central", "remote"):
                continue
            if self.want == "among" and s not in self.among:
                continue
            if self.want == "protected" and not g.zone(q.ice_zone(s)):
                continue
            d = decision("target", [s])
            if costs.cannot(g, "run", "runner", s):
                refused.append(Refused(d, f"run on {s}", "rule_cannot_run_abilities", "a card forbids it"))
            else:
                opts.append(Option(d, f"run on {s}", "rule_cannot_run_abilities"))
        return ChoicePoint(
            "runner",
            "target",
            "choose the server to run",
            "runner_basic_action_run",
            tuple(opts),
            tuple(refused),
            default=0,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.rules.run import start_run

        return start_run(pop(g), str(option.decision.value[0]), self.instead)


def access_bonus(g: Game, n: int) -> Game:
    """Additional accesses raise the random access limit of the breach they apply to: the run's when there is
    one; a breach that is not part of a run (rule_increasing_random_access_limit) holds its own."""
    from judgebook.engine.rules.access import Breach

    run = current_run(g)
    breach = find(g, Breach)
    if breach is not None and (run is None or breach.run_seq != run.seq):
        g = swap(g, breach, replace(breach, bonus=breach.bonus + n))
        return log(g, "access_bonus", f"the Runner will access {n} additional card(s) in this breach of "
                   f"{breach.server}", "rule_increasing_random_access_limit", "runner")
    if run is None:
        # Never silently dropped: no run and no breach to add accesses to.
        return log(g, "access_bonus", f"no run or breach: the {n} additional access(es) apply to nothing",
                   "rule_increasing_random_access_limit", "runner")
    g = swap(g, run, replace(run, access_bonus=run.access_bonus + n))
    return log(
        g,
        "access_bonus",
        f"the Runner will access {n} additional card(s)",
        "rule_default_random_access_limit",
        "runner",
    )


def forced_encounter(g: Game, ice: str) -> Game:
    from judgebook.engine.rules.encounter import Encounter

    run = current_run(g)
    g = log(
        g,
        "forced_encounter",
        f"the Runner encounters {ice} (a forced encounter)",
        "rule_forced_encounter",
        "runner",
        card=ice,
    )
    return push(evolve(g, seq=g.seq + 1), Encounter(ice, g.seq + 1, run.seq if run else None, forced=True))


@dataclass(frozen=True)
class TraceFrame(Frame):
    """A trace (sec_trace): the Corp spends credits to raise the trace strength, then the Runner to raise
    their link strength; the trace succeeds if its strength is greater."""

    ctx: Ctx
    base: int
    success: tuple[object, ...]
    failure: tuple[object, ...]
    corp: int | None = None
    is_trace = True
    label = "trace"

    def step(self, g: Game) -> Game | ChoicePoint:
        side: Side = "corp" if self.corp is None else "runner"
        limit = costs.available_credits(g, side, "trace")
        refused = []
        top = limit
        if costs.cannot(g, "spend_credits", side):
            top = 0
            refused = [
                Refused(
                    decision("trace", n, player=side),
                    f"spend {n}[c]",
                    "rule_bid_possible",
                    "spending credits is forbidden",
                )
                for n in range(1, max(limit, 1) + 1)
            ]
        opts = tuple(
            Option(
                decision("trace", n, player=side),
                f"spend {n}[c]",
                "step_trace_corp_spend_credits" if side == "corp" else "step_trace_runner_spend_credits",
            )
            for n in range(0, top + 1)
        )
        # Each bid once per way of choosing which credits pay it (rule_spend_credits).
        opts = tuple(o for n, opt in enumerate(opts)
                     for o in (costs.with_sources(opt, g, side, "trace", self.ctx.source) if n else (opt,)))
        return ChoicePoint(
            side,
            "trace",
            f"trace[{self.base}]: the {side} spends credits",
            opts[0].rule,
            opts,
            tuple(refused),
            default=0,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        n = int(option.decision.value)
        side: Side = "corp" if self.corp is None else "runner"
        if n or option.decision.get("using"):  # `using` with 0[c]: refused by costs.pay, never ignored
            g = costs.pay(g, Cost(credits=Number(n), has_credits=True), Ctx(self.ctx.source, side), side, "trace",
                          tuple(option.decision.get("using") or ()))
        if self.corp is None:
            return swap(g, self, replace(self, corp=n))
        g = pop(g)
        strength = self.base + self.corp
        runner_link = link(g) + n
        ok = strength > runner_link
        g = log(
            g,
            "trace",
            f"trace strength {strength} against link strength {runner_link}: {'successful' if ok else 'unsuccessful'}",
            "step_trace_determine_success",
            card=self.ctx.source,
        )
        branch = self.success if ok else self.failure
        return resolve_now(g, self.ctx, branch, "step_trace_determine_success") if branch else g  # type: ignore[arg-type]


@dataclass(frozen=True)
class PsiFrame(Frame):
    """A Psi Game (sec_psi_games): the Corp, then the Runner, secretly bid 0, 1 or 2[c] (rule_psi_bid_options),
    never more than they can spend (rule_bid_possible); both bids are then revealed and spent with no checkpoint
    between (rule_psi_bid_reveal), and the outcome picks the instructions (rule_psi_outcome). A script answers
    each bid with `{trace: N}`, the decision that spends credits secretly."""

    ctx: Ctx
    match: tuple[object, ...]
    differ: tuple[object, ...]
    corp: int | None = None
    corp_using: tuple[str, ...] = ()  # the credits the Corp chose to pay its bid with (rule_spend_credits)
    label = "psi game"

    @staticmethod
    def start(g: Game, ctx: Ctx, match: tuple[object, ...], differ: tuple[object, ...]) -> Game:
        g = log(g, "psi_game", "a Psi Game is played", "rule_psi_game", "corp", card=ctx.source)
        return push(g, PsiFrame(ctx, match, differ))

    def step(self, g: Game) -> Game | ChoicePoint:
        side: Side = "corp" if self.corp is None else "runner"
        limit = 0 if costs.cannot(g, "spend_credits", side) else min(2, costs.available_credits(g, side, "any"))
        opts = tuple(o for n in range(0, limit + 1)
                     for o in costs.with_sources(Option(decision("trace", n, player=side), f"bid {n}[c]",
                                                        "rule_psi_bid_options"), g, side, "any", self.ctx.source)
                     if n or not o.decision.get("using"))
        refused = tuple(Refused(decision("trace", n, player=side), f"bid {n}[c]", "rule_bid_possible",
                                f"the {side} cannot spend {n}[c]") for n in range(limit + 1, 3))
        return ChoicePoint(side, "trace", f"Psi Game: the {side} bids secretly", "rule_psi_bid_options", opts,
                           refused, default=0, path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        n = int(option.decision.value)
        using = tuple(option.decision.get("using") or ())
        if self.corp is None:
            return swap(g, self, replace(self, corp=n, corp_using=using))
        g = pop(g)
        for side, bid, use in (("corp", self.corp, self.corp_using), ("runner", n, using)):
            if bid or use:  # `using` with a bid of 0: refused by costs.pay, never ignored
                g = costs.pay(g, Cost(credits=Number(bid), has_credits=True), Ctx(self.ctx.source, side), side,  # type: ignore[arg-type]
                              using=use)
        same = self.corp == n
        g = log(g, "psi_outcome", f"the bids ({self.corp}[c], {n}[c]) {'match' if same else 'differ'}",
                "rule_psi_outcome", card=self.ctx.source)
        branch = self.match if same else self.differ
        return resolve_now(g, self.ctx, branch, "rule_psi_outcome") if branch else g  # type: ignore[arg-type]


def start_trace(g: Game, ctx: Ctx, ins: Trace) -> Game:
    g = emit(
        g, event("trace", card=ctx.source), f"trace[{ins.base.render()}] is initiated", "step_trace_initiated", "corp"
    )
    g = push(g, TraceFrame(ctx, ins.base.value(g, ctx), ins.success, ins.failure))
    from judgebook.engine.rules.windows import PriorityWindow, interrupt_options

    # An interrupt to the trace's initiation ("reduce the base trace strength of a trace to 0": Flip Switch), in
    # a window opened only when one can be used, before the Corp spends credits (step_trace_initiated).
    return push(g, PriorityWindow(frozenset({"paid", "interrupt"}), "step_trace_initiated")) \
        if interrupt_options(g) else g


def identify_mark(g: Game, ctx: Ctx) -> Game:
    from judgebook.engine.rules.values import mark

    found = mark(g)
    if found is not None:
        return log(g, "mark", f"{found} is already the mark: nothing happens", "rule_mark_already_identified", "runner")
    return push(g, IdentifyMarkFrame(ctx))


@dataclass(frozen=True)
class IdentifyMarkFrame(Frame):
    """The random central server that becomes the mark: a decision `{target: SERVER}` states the outcome
    (default HQ, one of the possible outcomes: rule_mark_identification_method)."""

    ctx: Ctx

    def step(self, g: Game) -> ChoicePoint:
        opts = tuple(
            Option(decision("target", [s]), f"{s} becomes the mark", "rule_mark_identification_method")
            for s in ("HQ", "R&D", "Archives")
        )
        return ChoicePoint(
            "runner", "target", "a random central server becomes the mark", "rule_mark_identification", opts,
            default=0, path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        from judgebook.engine.language.statics import Mark
        from judgebook.engine.rules.effects import create_lasting

        server = str(option.decision.value[0])
        g = create_lasting(pop(g), replace(self.ctx, chosen=()), Mark(server), "turn")
        return log(g, "mark", f"{server} becomes the Runner's mark for this turn",
                   "rule_mark_designation_lingering_effect", "runner")


def score_refusal(g: Game, cid: str) -> tuple[str, str] | None:
    d = q.definition(g, cid)
    if d.type != "agenda" or not q.is_installed(g, cid):
        return "rule_advancement_requirement", f"{cid} is not an installed agenda"
    if g.cards[cid].count("advancement") < (d.advancement_requirement or 0):
        return "rule_advancement_requirement", f"{cid} has fewer advancement counters than its requirement"
    if costs.cannot(g, "score", "corp", q.server_of(g, cid), cid):
        return "rule_cannot_precedence", f"{cid} cannot be scored"
    return None


def score_by_instruction(g: Game, ctx: Ctx, cid: str) -> Game:
    why = score_refusal(g, cid)
    if why is not None:
        return log(g, "cannot_score", why[1], why[0], "corp", card=cid)
    g = move(g, cid, "corp.score")
    return emit(g, event("scored", card=cid, player="corp"), f"the Corp scores {cid}", "rule_agenda_scored", "corp")
