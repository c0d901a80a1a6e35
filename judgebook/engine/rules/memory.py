"""Engine side of the `history` family's constructs (language/memory.py): the phase of a turn, the
servers run this turn."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.procedures import ChooseServer, InstallWhere
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Refused, decision
from judgebook.engine.state.model import Game, Side


def in_action_phase(g: Game, side: Side) -> bool:
    """The player's turn structure is at a step of its action phase (step_corp_turn_action_phase_paw ...
    step_corp_turn_action_phase_complete, and the Runner's): the step being carried out is the one before
    the turn frame's next step."""
    from judgebook.engine.rules.frames import find
    from judgebook.engine.rules.turn import Turn, structure

    turn = find(g, Turn)
    if turn is None or turn.side != side:
        return False
    steps = structure(side)
    phase, _ = steps[min(max(turn.at - 1, 0), len(steps) - 1)]
    return getattr(phase, "key", "") == "action_phase"


def servers_not_run(g: Game, ctx: Ctx, kind: str) -> tuple[str, ...]:
    """The servers of a kind (central, remote, any) on which no run began this turn."""
    from judgebook.engine.rules.history import facts_this

    run_on = {f.event.get("server") for f in facts_this(g, "turn") if f.event.name == "run_begins"}
    return tuple(
        s
        for s in g.servers
        if s not in run_on and (kind == "any" or (kind == "central") == (s in q.CENTRAL))
    )


def run_not_run(g: Game, ctx: Ctx, kind: str) -> Game:
    from judgebook.engine.rules.frames import log, push

    servers = servers_not_run(g, ctx, kind)
    if not servers:
        return log(
            g,
            "no_effect",
            f"every {kind} server was run this turn: no run",
            "rule_do_as_much_as_you_can",
            ctx.controller,
            card=ctx.source,
        )
    return push(g, ChooseUnrunServer(ctx, "among", servers, kind=kind))


@dataclass(frozen=True)
class ChooseUnrunServer(ChooseServer):
    """The choice of the server to run among those not run this turn; the servers of the kind already run
    are refused, citing the instruction's own limit on its target (rule_instruction_target)."""

    kind: str = "any"

    def step(self, g: Game) -> ChoicePoint:
        point = super().step(g)
        run = [
            Refused(decision("target", [s]), f"run on {s}", "rule_instruction_target", "a run began on it this turn")
            for s in g.servers
            if s not in self.among and (self.kind == "any" or (self.kind == "central") == (s in q.CENTRAL))
        ]
        return replace(point, refused=point.refused + tuple(run))


def attacked_server(g: Game, ctx: Ctx) -> str | None:
    """The server the current run attacks, or (a run's events being over) the one the triggering event names."""
    from judgebook.engine.rules.frames import current_run

    run = current_run(g)
    if run is not None:
        return str(run.server)
    server = ctx.event.get("server") if ctx.event is not None else None
    return str(server) if server is not None else None


@dataclass(frozen=True)
class InstallOutsideRoot(InstallWhere):
    """The Corp's choice of server for `install_outside_this_root`: the root of `exclude` is refused
    (rule_instruction_target); ice may still go protecting it."""

    exclude: str | None = None

    def step(self, g: Game) -> Game | ChoicePoint:
        point = super().step(g)
        if not isinstance(point, ChoicePoint) or self.exclude is None or q.definition(g, self.card).type == "ice":
            return point
        banned = [o for o in point.options if list(o.decision.value) == [self.exclude]]
        kept = tuple(o for o in point.options if o not in banned)
        refused = tuple(
            Refused(o.decision, o.label, "rule_instruction_target", "not in the root of this server") for o in banned
        )
        return replace(point, options=kept, refused=point.refused + refused)


def install_outside_root(g: Game, ctx: Ctx, targets: tuple[str, ...]) -> Game:
    from judgebook.engine.language.instructions import Install
    from judgebook.engine.language.selectors import Ref
    from judgebook.engine.rules.frames import push

    exclude = q.server_of(g, ctx.source)
    if exclude is None and ctx.event is not None:
        exclude = ctx.event.get("server")
    ins = Install(Ref("target"), server="any")
    for cid in reversed(targets):
        g = push(g, InstallOutsideRoot(ctx, cid, ins, exclude))
    return g


def run_made_by(g: Game, ctx: Ctx, ability: str) -> bool:
    """The current run is the first to begin after this card's `ability` was last used this turn."""
    from judgebook.engine.rules.frames import current_run
    from judgebook.engine.rules.history import facts_this

    run = current_run(g)
    if run is None:
        return False
    facts = facts_this(g, "turn")
    used = [
        i
        for i, f in enumerate(facts)
        if f.event.name == "ability_used" and f.event.get("card") == ctx.source and f.event.get("ability") == ability
    ]
    if not used:
        return False
    began = next((f for f in facts[used[-1] :] if f.event.name == "run_begins"), None)
    return began is not None and began.run == int(run.seq)


def accessed_this_run(g: Game, ctx: Ctx, server: str) -> list[str]:
    """The cards accessed in a server during this run (or the run that just ended)."""
    from judgebook.engine.language.selectors import server_matches
    from judgebook.engine.rules.history import facts_this

    return [
        str(f.event.get("card"))
        for f in facts_this(g, "run")
        if f.event.name == "access"
        and f.event.get("card") in g.cards
        and server_matches(g, ctx, server, f.event.get("in_server"))
    ]


ADDED_TO_ARCHIVES = "added_to_archives"


def added_to_archives(g: Game, cid: str) -> Game:
    """A Corp card entered Archives (trashed, discarded, an operation after it resolves, milled): a fact of
    this turn, silent (no step of its own, no trigger: the move's own event, if any, says it)."""
    from judgebook.engine.rules.frames import current_run, event
    from judgebook.engine.state.model import Fact, evolve

    run = current_run(g)
    fact = Fact(event(ADDED_TO_ARCHIVES, card=cid, player="corp"), g.turn, int(run.seq) if run else -1)
    return evolve(g, history=g.history + (fact,))


def corp_cards_added_to_archives(g: Game) -> int:
    from judgebook.engine.rules.history import facts_this

    return sum(1 for f in facts_this(g, "turn") if f.event.name == ADDED_TO_ARCHIVES)


CLICKS_GAINED = "clicks_gained"


def clicks_gained(g: Game, side: Side, n: int) -> Game:
    """A player gained [click] through an instruction: a silent fact of this turn, with the run it happened
    in ("if this is not the first time you gained [click] during a run this turn")."""
    from judgebook.engine.rules.frames import current_run, event
    from judgebook.engine.state.model import Fact, evolve

    if n <= 0:
        return g
    run = current_run(g)
    fact = Fact(event(CLICKS_GAINED, player=side, amount=n), g.turn, int(run.seq) if run else -1)
    return evolve(g, history=g.history + (fact,))


def clicks_gained_during_runs(g: Game, side: Side) -> int:
    """How many times this turn the player gained [click] during a run."""
    from judgebook.engine.rules.history import facts_this

    return sum(
        1
        for f in facts_this(g, "turn")
        if f.event.name == CLICKS_GAINED and f.event.get("player") == side and f.run != -1
    )


def credits_taken(g: Game, ctx: Ctx, side: Side, n: int) -> Game:
    """A card's ability made a player lose credits, or spend them on a nested cost it set ("whenever a Corp
    card ability causes the Runner to spend or lose at least 1[credit]"): remembered and seen by triggers, with
    the card and whose card it is; nothing for 0 credits."""
    from judgebook.engine.rules.frames import event
    from judgebook.engine.rules.triggers import record

    if n <= 0 or ctx.source not in g.cards:
        return g
    owner = g.cards[ctx.source].owner
    return record(g, event("credits_lost_or_spent", player=side, amount=n, card=ctx.source, source_side=owner))


def rez_any_time(g: Game, cid: str) -> bool:
    """This installed ice has a `rez_as_non_ice` static whose `while:` holds now: it may be rezzed in any paid
    ability window where non-ice cards can be (a permission read though the ice is unrezzed)."""
    from judgebook.engine.language.memory import RezAsNonIce

    for ab in q.definition(g, cid).abilities:
        if isinstance(ab.static, RezAsNonIce):
            ctx = Ctx(cid, g.cards[cid].owner, ab.id)
            if ab.condition is None or ab.condition.holds(g, ctx):
                return True
    return False


def finished_resolving(g: Game, cid: str) -> Game:
    """A played operation or event has finished resolving (before it is trashed): recorded and seen by
    triggers, without a step of its own."""
    from judgebook.engine.rules.frames import event
    from judgebook.engine.rules.triggers import record

    card = g.cards[cid]
    if card.zone != "play":
        return g
    return record(g, event("finished_resolving", card=cid, type=q.definition(g, cid).type, player=card.owner,
                           action=False))


def finished_action(g: Game, cid: str) -> Game:
    """An action (a paid ability with [click] in its cost) of this card has finished resolving."""
    from judgebook.engine.rules.frames import event
    from judgebook.engine.rules.triggers import record

    if g.over or cid not in g.cards:
        return g
    card = g.cards[cid]
    return record(g, event("finished_resolving", card=cid, type=q.definition(g, cid).type, player=card.owner,
                           action=True))
