"""Engine side of the `history` family's constructs (language/memory.py): the phase of a turn, the
servers run this turn."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.driver.choice import ChoicePoint, Refused, decision
from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.procedures import ChooseServer, InstallWhere
from judgebook.engine.state import queries as q
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

    def step(self, g: Game) -> ChoicePoint:
        point = super().step(g)
        if self.exclude is None or q.definition(g, self.card).type == "ice":
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
