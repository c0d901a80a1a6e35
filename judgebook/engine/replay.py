"""`replay(scenario) -> Timeline`: pure and deterministic."""
from __future__ import annotations

from judgebook.engine.access import AccessMixin
from judgebook.engine.citations import cite
from judgebook.engine.effects import EffectsMixin
from judgebook.engine.errors import IllegalDecision
from judgebook.engine.flows import FlowsMixin
from judgebook.engine.game import GameBase, GameOver, LoopDetected, ScriptComplete
from judgebook.engine.runs import RunMixin
from judgebook.engine.scenario import Scenario
from judgebook.engine.state import summary
from judgebook.engine.timeline import Outcome, Step, Timeline
from judgebook.engine.turns import TurnsMixin
from judgebook.engine.windows import WindowsMixin


class Game(FlowsMixin, TurnsMixin, RunMixin, AccessMixin, EffectsMixin, WindowsMixin, GameBase):
    """The cursor of one replay (see game.py)."""


def replay(scenario: Scenario) -> Timeline:
    game = Game(scenario)
    loop = None
    try:
        game.start()
        stopped = "script complete"  # pragma: no cover - start() only leaves by an exception
    except GameOver:
        stopped = "game over"
    except ScriptComplete:
        stopped = "script complete"
    except LoopDetected as exc:
        stopped, loop = "loop", str(exc)
        game.steps.append(Step(len(game.steps) + 1, "loop", tuple(game.path), "loop",
                               f"infinite loop detected and stopped: {loop}", cite("mandatory_loop"), {}))
    except IllegalDecision as exc:
        exc.timeline = _timeline(game, "illegal decision", None)
        raise
    timeline = _timeline(game, stopped, loop)
    if stopped == "script complete" and game.cursor < len(scenario.decisions):
        raise _unused(game, timeline)
    return timeline


def _unused(game: Game, timeline: Timeline) -> IllegalDecision:
    d = game.sc.decisions[game.cursor]
    message, rule = game.misfit.get(d.index, ("it never matched a point where that player chooses",
                                              "priority"))
    exc = IllegalDecision(f"decision {d.index} {d.describe()} was never used: {message}", cite(rule),
                          field=d.field, line=d.line, file=game.sc.file)
    exc.timeline = timeline
    return exc


def _timeline(game: Game, stopped: str, loop: str | None) -> Timeline:
    st = game.state
    final = summary(st)
    final["cards"] = {cid: _card_view(game, cid) for cid in st.cards}
    outcome = Outcome(winner=st.winner, reason=st.win_reason, stopped=stopped, runs=tuple(game.runs),
                      resolved=tuple(game.resolved), final=final,
                      unused_decisions=tuple(d.index for d in game.sc.decisions[game.cursor:]), loop=loop)
    return Timeline(game.sc.title, game.sc.source, tuple(game.steps), outcome)


def _card_view(game: Game, cid: str) -> dict:
    zone = game.zone(cid) or "removed"
    short = "installed" if zone == "runner.installed" or zone.startswith("corp.server.") else zone.split(".")[-1]
    card = game.card(cid)
    view = {"zone": short, "counters": dict(card.counters), "rezzed": card.rezzed}
    if game.cdef(cid).strength is not None:
        view["strength"] = game.strength(cid)
    return view
