"""What the game remembers: servers attacked, cards accessed, actions taken, restrictions on timing.

Constructs of the card language added for the Standard pool (round 3, family `history`); each registers
itself in its kind's registry when `instructions.py` imports this module."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgebook.engine.language.conditions import CONDITIONS, Condition
from judgebook.engine.language.context import PLAYER_WORDS, Ctx, player_phrase
from judgebook.engine.language.grammar import possessive
from judgebook.engine.language.instructions import Instruction, Mods, instruction
from judgebook.engine.language.nodes import At
from judgebook.engine.language.selectors import FILTERS, SERVER_WORDS, Filter, Selector, parse_selector, server_matches
from judgebook.engine.language.statics import STATICS, Static
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


THAT_SERVER = "that_server"


def _plain(node: Any) -> Any:
    if isinstance(node, dict):
        return {str(k): _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def _naming(node: Any, server: str) -> Any:
    """The instructions' node with the server remembered in place of `that_server`."""
    if isinstance(node, dict):
        return {k: _naming(v, server) for k, v in node.items()}
    if isinstance(node, list):
        return [_naming(v, server) for v in node]
    return server if node == THAT_SERVER else node


@instruction("remember_server", "do")
@dataclass(frozen=True, eq=False)
class RememberServer(Instruction):
    """ "... protecting that server" after the run: the attacked server is remembered when this resolves (the
    current run's, or the triggering event's, as a run begins), and the instructions of `do` name it
    `that_server` wherever a server goes ({derez: {zone: ice, protecting: that_server}}), also inside a
    delayed ability they create ("when this turn ends, derez 2 pieces of ice protecting that server")."""

    which: str  # attacked
    instrs: tuple[Instruction, ...]
    raw: str  # the instructions' node (JSON), named again with the remembered server when this resolves
    line: int | None = None
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> RememberServer:
        import json

        from judgebook.engine.language.instructions import parse_instructions

        if arg != "attacked":
            at.fail("remember_server: attacked (the server a run attacks) is the only server remembered")
        if not mods.get("do"):
            whole.fail("remember_server needs `do`: the instructions that name `that_server`")
        instrs = parse_instructions(mods["do"], whole.key(mods, "do"))
        return cls(str(arg), instrs, json.dumps(_plain(mods["do"])), whole.line)

    def run(self, g: Game, ctx: Ctx) -> Game:
        import json

        from judgebook.engine.language.instructions import parse_instructions
        from judgebook.engine.rules.memory import attacked_server
        from judgebook.engine.rules.resolve import resolve_now

        server = attacked_server(g, ctx)
        if server is None:
            return g
        instrs = parse_instructions(_naming(json.loads(self.raw), server), At("remember_server.do", self.line))
        return resolve_now(g, ctx, instrs, "rule_checkpoint_after_instruction_resolution")

    def render(self) -> str:
        from judgebook.engine.language.instructions import render_all

        return render_all(self.instrs).replace(THAT_SERVER, "that server")


@instruction("install_outside_this_root")
@dataclass(frozen=True, eq=False)
class InstallOutsideThisRoot(Instruction):
    """ "Install 1 card from HQ, ignoring all costs. You cannot install that card in the root of this server":
    the Corp chooses the server (as `install` with `server: any`), but not the root of the server this card is
    in, or was in when the triggering event happened (a trashed card's event names its server); ice may still
    be installed protecting that server."""

    selector: Selector
    mods: Mods = field(default_factory=Mods)

    @classmethod
    def parse(cls, arg: Any, at: At, mods: dict[str, Any], whole: At) -> InstallOutsideThisRoot:
        return cls(parse_selector(arg, at))

    def possible(self, g: Game, ctx: Ctx) -> bool:
        return bool(self.selector.candidates(g, ctx))

    def run(self, g: Game, ctx: Ctx) -> Game:
        from judgebook.engine.rules.memory import install_outside_root

        targets = ctx.targets if self.selector.chooses else tuple(self.selector.candidates(g, ctx))
        return install_outside_root(g, ctx, targets)

    def render(self) -> str:
        return (f"install {self.selector.render()}, ignoring all costs; you cannot install that card in the root "
                "of this server")


@CONDITIONS.register("first_this_turn_is_self")
@dataclass(frozen=True, eq=False)
class FirstThisTurnIsSelf(Condition):
    """ "If this operation is the first mandate you played this turn": of this turn's events passing the
    filters, the earliest has this card as its card (a second copy played by this one's own instruction is
    played after it, and is not the first)."""

    trigger: Any  # events.Trigger: the event and its filters

    @classmethod
    def parse(cls, arg: Any, at: At) -> FirstThisTurnIsSelf:
        from judgebook.engine.language.quantities import _event_with_filters

        return cls(_event_with_filters(arg, at))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.history import facts_this

        first = next((f for f in facts_this(g, "turn") if self.trigger.matches(g, ctx, f.event)), None)
        return first is not None and first.event.get("card") == ctx.source

    def render(self) -> str:
        return f"this card is the first {self.trigger.render().removeprefix('when ')} this turn"


@CONDITIONS.register("run_made_by")
@dataclass(frozen=True, eq=False)
class RunMadeBy(Condition):
    """The run in progress is the one this card's ability (by id) made ("[click]: Run any server. You can spend
    hosted credits during that run"): the first run to begin after that ability was last used this turn."""

    ability: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> RunMadeBy:
        if not isinstance(arg, str):
            at.fail("run_made_by names an ability of this card (its id)")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.memory import run_made_by

        return run_made_by(g, ctx, self.ability)

    def render(self) -> str:
        return "during the run this ability made"


@FILTERS.register("copy_of_accessed")
@dataclass(frozen=True, eq=False)
class CopyOfAccessed(Filter):
    """A copy of (a card with the same title as) a card accessed in a server during this run, or the run that
    just ended ("1 rezzed copy of a card you accessed in Archives during that run"): the access facts of the
    run, with the server the card was accessed in (its central zone's server too)."""

    server: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> CopyOfAccessed:
        if not isinstance(arg, str):
            at.fail(f"copy_of_accessed is a server name or one of: {', '.join(SERVER_WORDS)}")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        from judgebook.engine.rules.memory import accessed_this_run

        return g.cards[cid].name in {g.cards[c].name for c in accessed_this_run(g, ctx, self.server)}

    def render(self) -> str:
        return f"a copy of a card accessed in {self.server} during that run"


@CONDITIONS.register("added_to_archives_this_turn")
@dataclass(frozen=True, eq=False)
class AddedToArchivesThisTurn(Condition):
    """Corp cards have (`true`) or have not (`false`) been added to Archives this turn: trashed, discarded,
    an operation moved there after it resolved, from anywhere else (a move within Archives is not one)."""

    value: bool

    @classmethod
    def parse(cls, arg: Any, at: At) -> AddedToArchivesThisTurn:
        if not isinstance(arg, bool):
            at.fail("added_to_archives_this_turn is true or false")
        return cls(arg)

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.memory import corp_cards_added_to_archives

        return (corp_cards_added_to_archives(g) > 0) == self.value

    def render(self) -> str:
        return f"Corp cards have {'' if self.value else 'not '}been added to Archives this turn"


@CONDITIONS.register("gained_clicks_during_a_run_before")
@dataclass(frozen=True, eq=False)
class GainedClicksDuringARunBefore(Condition):
    """ "If this is not the first time you gained [click] during a run this turn": the player has gained [click]
    during a run at least twice this turn, this time included."""

    who: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> GainedClicksDuringARunBefore:
        if arg not in PLAYER_WORDS:
            at.fail(f"gained_clicks_during_a_run_before is one of: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def holds(self, g: Game, ctx: Ctx) -> bool:
        from judgebook.engine.rules.memory import clicks_gained_during_runs

        return clicks_gained_during_runs(g, ctx.side(self.who)) >= 2

    def render(self) -> str:
        who = player_phrase(self.who)
        return f"this is not the first time {who} gained [click] during a run this turn"


@STATICS.register("rez_as_non_ice")
@dataclass(frozen=True, eq=False)
class RezAsNonIce(Static):
    """ "You can rez this ice any time you could rez non-ice cards" (with `while:`, "during runs against this
    server"): a permission on its own rez timing, read while the ice is unrezzed (rules/memory.rez_any_time)."""

    @classmethod
    def parse(cls, arg: Any, at: At) -> RezAsNonIce:
        if arg not in (None, True):
            at.fail("rez_as_non_ice takes no value")
        return cls()

    def render(self) -> str:
        return "you can rez this ice any time you could rez non-ice cards"
