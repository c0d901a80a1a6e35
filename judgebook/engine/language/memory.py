"""What the game remembers: servers attacked, cards accessed, actions taken, restrictions on timing.

Constructs of the card language added for the Standard pool (round 3, family `history`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgebook.engine.language.conditions import CONDITIONS, Condition
from judgebook.engine.language.context import PLAYER_WORDS, Ctx
from judgebook.engine.language.grammar import possessive
from judgebook.engine.language.instructions import Instruction, Mods, instruction
from judgebook.engine.language.nodes import At
from judgebook.engine.language.selectors import FILTERS, SERVER_WORDS, Filter, server_matches
from judgebook.engine.state.model import Game


@CONDITIONS.register("action_phase")
@dataclass(frozen=True, eq=False)
class ActionPhase(Condition):
    """It is this player's action phase ("rez only during your action phase"): their turn's structure is
    at a step of its action phase (step_corp_turn_action_phase, step_runner_turn_action_phase)."""

    who: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> ActionPhase:
        if arg not in PLAYER_WORDS:
            at.fail(f"action_phase is one of: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.memory import in_action_phase

        return in_action_phase(g, ctx.side(self.who))

    def render(self) -> str:
        return f"during {possessive(self.who)} action phase"


@FILTERS.register("not_protecting")
@dataclass(frozen=True, eq=False)
class NotProtecting(Filter):
    """Ice not protecting a server ("1 piece of ice not protecting the attacked server")."""

    server: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> NotProtecting:
        if not isinstance(arg, str):
            at.fail(f"not_protecting is a server name or one of: {', '.join(SERVER_WORDS)}")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        from judgebook.engine.state import queries as q

        return g.cards[cid].zone.endswith(".ice") and not server_matches(g, ctx, self.server, q.server_of(g, cid))

    def render(self) -> str:
        return f"not protecting {'this server' if self.server == 'this' else 'the ' + self.server + ' server'}"


@instruction("run_not_run_this_turn")
@dataclass(frozen=True, eq=False)
class RunNotRunThisTurn(Instruction):
    """ "Run a central server you have not run this turn": the Runner chooses among the servers of that kind
    on which no run began this turn (run_begins facts of this turn); with none, there is no run."""

    kind: str  # central | remote | any
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> RunNotRunThisTurn:
        if arg not in ("central", "remote", "any"):
            at.fail("run_not_run_this_turn is one of: central, remote, any")
        return cls(str(arg))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.memory import servers_not_run

        return bool(servers_not_run(g, ctx, self.kind))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.memory import run_not_run

        return run_not_run(g, ctx, self.kind)

    def render(self) -> str:
        what = {"central": "a central server", "remote": "a remote server", "any": "a server"}[self.kind]
        return f"run {what} you have not run this turn"


@CONDITIONS.register("unrun_server")
@dataclass(frozen=True, eq=False)
class UnrunServer(Condition):
    """Some server of a kind (central, remote, any) has had no run begin on it this turn."""

    kind: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> UnrunServer:
        if arg not in ("central", "remote", "any"):
            at.fail("unrun_server is one of: central, remote, any")
        return cls(str(arg))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.memory import servers_not_run

        return bool(servers_not_run(g, ctx, self.kind))

    def render(self) -> str:
        what = {"central": "a central server", "remote": "a remote server", "any": "a server"}[self.kind]
        return f"there is {what} you have not run this turn"
