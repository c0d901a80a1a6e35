"""`judgebook play FILE`: play a scenario in the terminal over the rebuilt engine's `choices`/`advance`.

At each choice point it shows where the game is, who decides and the numbered
legal options with the rule allowing each; the refused options (with the rule
refusing each) on request. It reads one command a line (stdin may be a pipe):
see COMMANDS_HELP. The game goes to stdout, errors to stderr; an error leaves the game where it was.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from judgebook.scenario_text import flow, plain, with_decisions

if TYPE_CHECKING:
    from judgebook.engine.scenario.load import Scenario
    from judgebook.engine.state.choice import ChoicePoint, Decision
    from judgebook.engine.state.model import Game, Step

HELP = "play a judge scenario interactively: choose at each choice point, undo, save the decisions taken"

Cite = Callable[[str], str]
COMMANDS_HELP = """\
  N [key=value ...]   take option N; x=3 names X for an X cost, using=[Card] the credits that pay;
                      N 4: the number an option asks for (a loop's repetitions)
  (empty line)        take the default option, when the point has one
  {kind: value, ...}  a decision written as in a scenario's decisions: list
  r | refused         list the refused options;  rN: try refused option N (shows the rule refusing it)
  board               the players' pools and the cards in each zone
  undo                back one decision (the previous state)
  save PATH           write the scenario with the decisions taken as its decisions:
  quit                stop (so does the end of the input)
"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("play", help=HELP, description=HELP, epilog="commands, one a line:\n" + COMMANDS_HELP,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="a scenario file (board, card definitions, decisions)")
    p.add_argument("--library", metavar="DIR",
                   help="folder of card definitions (default: ../cards beside the scenario, else the remembered one)")
    p.add_argument("--script", action="store_true",
                   help="play the scenario's own `decisions:` first, then go on interactively")
    p.add_argument("--index", metavar="DIR", default=argparse.SUPPRESS, help="index folder (rule numbers)")
    p.set_defaults(func=run)


# --- commands --------------------------------------------------------------------

@dataclass(frozen=True)
class Command:
    verb: str                               # option | default | decision | refused | try_refused | undo | ...
    number: int = 0
    extra: tuple[tuple[str, Any], ...] = ()  # key=value parameters given after an option's number
    value: Any = None                       # `N VALUE`: the value of an option that asks for one
    decision: Any = None                    # a written decision: {kind: value, ...}
    path: str = ""


class CommandError(Exception):
    pass


def parse_command(line: str) -> Command:
    import yaml

    text = line.strip()
    if not text:
        return Command("default")
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    if word in ("undo", "quit", "help", "?", "board") and not rest:
        return Command({"?": "help"}.get(word, word))
    if word in ("r", "refused") and not rest:
        return Command("refused")
    if word == "save":
        if not rest:
            raise CommandError("save needs a file: save PATH")
        return Command("save", path=rest)
    if word[0] == "r" and word[1:].isdigit() and not rest:
        return Command("try_refused", int(word[1:]))
    if word.isdigit():
        extra: list[tuple[str, Any]] = []
        value = None
        for token in rest.split():
            key, eq, raw = token.partition("=")
            if not eq:
                if value is not None or not token.lstrip("-").isdigit():
                    raise CommandError(f"{token!r}: after the option's number, give key=value or one number")
                value = int(token)
                continue
            try:
                extra.append((key, yaml.safe_load(raw)))
            except yaml.YAMLError:
                raise CommandError(f"{token!r}: the value is not readable YAML") from None
        return Command("option", int(word), tuple(extra), value)
    if text.startswith("{"):
        try:
            node = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise CommandError(f"not a decision: {exc}") from None
        return Command("decision", decision=node)
    raise CommandError(f"{text!r}: type an option's number, r, rN, a {{decision}}, undo, save PATH or quit")


def written_decision(node: Any) -> Decision:
    """A decision written as in a scenario file, through the scenario parser (its checks and its errors)."""
    from judgebook.scenario_text import read_decision

    if not isinstance(node, dict):
        raise CommandError("a decision is a mapping such as {action: run, server: HQ}")
    return read_decision(node)


# --- the session ------------------------------------------------------------------

@dataclass
class Session:
    """The game now, and every decision taken with the state it was taken in (undo pops one)."""
    scenario: Scenario
    game: Game
    source: str = ""                                          # the scenario file's text, as read at the start
    taken: list[tuple[Game, Decision]] = field(default_factory=list)   # (state before, decision)

    def take(self, decision: Decision, how: str = "chosen") -> tuple[Step, ...]:
        from judgebook.engine import advance

        before = self.game
        self.game, steps = advance(before, decision, how)    # raises before anything changes
        self.taken.append((before, decision))
        return tuple(steps)

    def undo(self) -> bool:
        if not self.taken:
            return False
        self.game, _ = self.taken.pop()
        return True

    @property
    def decisions(self) -> list[Decision]:
        return [d for _, d in self.taken]


def option_decision(point: ChoicePoint, cmd: Command) -> Decision:
    from judgebook.engine.state.choice import ANY_NUMBER

    if not 1 <= cmd.number <= len(point.options):
        raise CommandError(f"no option {cmd.number}: choose 1 to {len(point.options)}")
    d = point.options[cmd.number - 1].decision
    value = d.value
    if d.value == ANY_NUMBER:
        if cmd.value is None:
            raise CommandError(f"option {cmd.number} needs a number: type `{cmd.number} N`")
        value = cmd.value
    elif cmd.value is not None:
        raise CommandError(f"option {cmd.number} takes no number")
    if value == d.value and not cmd.extra:
        return d
    # through the scenario parser, so that a key this kind of decision does not take is an error
    return written_decision({**plain(d.as_yaml()), d.kind: value, **dict(cmd.extra)})


# --- rendering --------------------------------------------------------------------

def render_point(point: Any, cite: Cite) -> str:
    where = " › ".join(point.path) or "-"
    lines = [f"— at: {where}",
             f"{point.player} decides ({point.kind}): {point.prompt}   rule: {cite(point.rule)}"]
    width = len(str(len(point.options)))
    for i, o in enumerate(point.options, 1):
        mark = "   (default: Enter)" if point.default is not None and i - 1 == point.default else ""
        lines.append(f"  {i:>{width}}. {o.label}   rule: {cite(o.rule)}{mark}")
    if point.refused:
        lines.append(f"  ({len(point.refused)} refused: type r to list them)")
    return "\n".join(lines) + "\n"


def render_refused(point: Any, cite: Cite) -> str:
    if not point.refused:
        return "no option is refused here\n"
    lines = ["refused here:"]
    for i, r in enumerate(point.refused, 1):
        later = " (may be legal later)" if r.later else ""
        lines.append(f"  r{i}. {r.label}: {r.reason}{later}   rule: {cite(r.rule)}")
    return "\n".join(lines) + "\n"


def render_steps(steps: Iterable[Any], cite: Cite, game: Game) -> str:
    """Each step with its rule, and below it what the engine may get wrong there (a "not yet" rule of the rule
    map, a partial card: issue 19 §4); `game` is a state of the game the steps belong to."""
    from judgebook.engine import step_warnings
    from judgebook.linking.rule_map import known

    gaps = known()
    lines = []
    for s in steps:
        changes = f"   changed: {'; '.join(s.changes)}" if s.changes else ""
        lines.append(f"  · {s.kind} [{s.how}]: {s.text}   rule: {cite(s.anchor)}{changes}")
        lines += [f"    WARNING: {w.text()}" for w in step_warnings(s, game, gaps)]
    return "".join(line + "\n" for line in lines)


def render_board(game: Any) -> str:
    lines = [f"turn {game.turn}, the {game.active}'s turn"]
    for p in (game.corp, game.runner):
        extra = f", bad publicity {p.bad_publicity}" if p.side == "corp" else f", tags {p.tags}, core damage " \
            f"{p.core_damage}"
        lines.append(f"  {p.side}: {p.credits}[c], {p.clicks}[click]{extra}")
    for zone in sorted(game.zones):
        ids = game.zones[zone]
        if not ids:
            continue
        cards = []
        for cid in ids:
            card = game.cards[cid]
            marks = [w for w, on in (("rezzed", card.rezzed), ("facedown", not card.faceup)) if on]
            marks += [f"{n} {kind}" for kind, n in sorted(card.counters.items())]
            cards.append(cid + (f" ({', '.join(marks)})" if marks else ""))
        lines.append(f"  {zone}: {', '.join(cards)}")
    return "\n".join(lines) + "\n"


def render_end(game: Any) -> str:
    if game.winner:
        reason = f" ({game.win_reason})" if game.win_reason else ""
        return f"the game is over: {game.winner} wins{reason}\n"
    if game.ended:
        return f"the game stopped: {game.ended}\n"
    return "no choice is open: nothing more can happen\n"


def make_cite(corpus: Any) -> Cite:
    from judgebook.store.citations import rule_ref

    cache: dict[str, str] = {}

    def cite(anchor: str) -> str:
        if anchor not in cache:
            ref = rule_ref(corpus, anchor) or {}
            loaded = ref.get("doc") and ref.get("number")   # an unloaded rule has a number but no document
            cache[anchor] = f"{ref['doc']} {ref['number']} ({anchor})" if loaded else anchor
        return cache[anchor]
    return cite


# --- saving -----------------------------------------------------------------------

# (writing a scenario back: judgebook.scenario_text, shared with the web's judge's table)

def save(session: Session, target: str, library: Path | list[Path] | None) -> list[str]:
    """Write the session; returns notes for stderr: the file does not find its library by itself, or its
    scripted replay does not end at this point (a point with a default lets a replay go on)."""
    body = with_decisions(session.source, session.decisions)
    path = Path(target)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(body, encoding="utf-8")
    tmp.replace(path)
    from judgebook.commands.replay import LibraryError, library_for
    from judgebook.config import card_data
    from judgebook.engine.driver.script import replay
    from judgebook.engine.scenario.load import load_scenario

    notes = []
    try:
        found = library_for(path, None)
    except LibraryError:
        found = None
    if library is not None and _resolved(found) != _resolved(library):
        notes.append(f"note: {path} uses the card library {library}: replay it with --library {library}")
    try:
        # over the session's own parsed cards: states hold card definitions, which compare by identity
        outcome = replay(replace(session.scenario, decisions=load_scenario(path, library, card_data()).decisions))
    except Exception as exc:  # the file is written; say that its replay could not be checked, and why
        return [*notes, f"note: {path} was written, but replaying it failed: {type(exc).__name__}: {exc}"]
    if not outcome.states or outcome.final != session.game:
        notes.append(f"note: a replay of {path} does not stop here ({outcome.ended}): a scripted replay takes "
                     "the defaults after the last decision")
    return notes


def _resolved(library: Path | list[Path] | None) -> list[Path]:
    """A library (one folder or several searched in order) as absolute folders, to compare two."""
    folders = library if isinstance(library, list) else [library] if library is not None else []
    return [f.resolve() for f in folders]


# --- the loop ---------------------------------------------------------------------

def run(args: argparse.Namespace, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    from judgebook.commands.replay import LibraryError, _corpus, library_for, read_scenario
    from judgebook.engine.driver.step import start
    from judgebook.engine.errors import EngineLimit, ScenarioError
    from judgebook.engine.scenario.load import setup

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    try:
        library = library_for(args.file, args.library)
        scenario = read_scenario("play", args.file, library)
        if scenario is None:
            return 2
        source = Path(args.file).read_text(encoding="utf-8")
        game, steps = start(setup(scenario))
    except LibraryError as exc:
        print(f"judgebook play: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"judgebook play: {args.file}: cannot read scenario: {exc.strerror}", file=sys.stderr)
        return 2
    except ScenarioError as exc:
        print(f"judgebook play: {exc}", file=sys.stderr)
        return 2
    except EngineLimit as exc:
        print(f"judgebook play: the game cannot start: {exc} (rule {exc.rule})", file=sys.stderr)
        return 1
    cite = make_cite(_corpus(getattr(args, "index", None)))
    session = Session(scenario, game, source)
    out.write(f"Playing: {scenario.title}\n")
    out.write(render_steps(steps, cite, game))
    if args.script:
        play_script(session, out, cite)
    return loop(session, stdin, out, cite, library)


def play_script(session: Session, out: IO[str], cite: Cite) -> None:
    """The scenario's own decisions, taken as a scripted replay takes them (the engine session's `follow`, which
    holds the policy), up to the last one; then the player goes on. Unlike a replay, it takes no default after
    the last decision. Each step taken is the player's session's own (undoable)."""
    from judgebook.engine.driver.session import Session as Driver

    script = tuple(session.scenario.decisions)
    followed = Driver(session.scenario, (session.game,), (), (0,), (0,)).follow(script, stop_when_used=True)
    for k, chosen in enumerate(followed.taken):
        steps = followed.steps[followed.marks[k]:followed.marks[k + 1]]
        for s in steps:
            if s.kind == "not_able":      # if_able: the reason, then the default
                out.write(f"script: {s.text} (rule {cite(s.anchor)})\n")
        moved = tuple(s for s in steps if s.kind != "not_able")
        before = followed.states[k]
        how = "chosen"
        if followed.used[k + 1] == followed.used[k] or len(moved) < len(steps):    # no scripted decision taken
            how = "only" if before.point is not None and len(before.point.options) == 1 else "assumed"
        session.taken.append((before, chosen))
        session.game = followed.states[k + 1]
        out.write(f"script: {flow(chosen)}\n" if how == "chosen" else f"script, {how}: {flow(chosen)}\n")
        out.write(render_steps(moved, cite, session.game))
    failed = followed.error or followed.limit
    if failed is not None:
        print(f"script: {failed} (rule {cite(failed.rule)}); go on by hand", file=sys.stderr)
        return
    out.write(f"script: {followed.used[-1]} of {len(script)} decision(s) played\n")


def loop(session: Session, stdin: IO[str], out: IO[str], cite: Cite, library: Path | list[Path] | None) -> int:
    from judgebook.engine.errors import EngineLimit, IllegalDecision, ScenarioError

    shown = None
    while True:
        point = session.game.point
        if shown is not session.game:
            out.write(render_point(point, cite) if point is not None else render_end(session.game))
            shown = session.game
        if stdin.isatty():
            out.write("> ")
        out.flush()
        line = stdin.readline()
        if not line:             # the end of the input (a pipe drained, or Ctrl-D at a terminal)
            if stdin.isatty():
                out.write("\n")
            return 0
        try:
            cmd = parse_command(line)
            if cmd.verb == "quit":
                return 0
            if cmd.verb == "help":
                out.write(COMMANDS_HELP)
            elif cmd.verb == "board":
                out.write(render_board(session.game))
            elif cmd.verb == "undo":
                if not session.undo():
                    raise CommandError("nothing to undo: this is where the scenario starts")
                out.write(f"undone: {len(session.taken)} decision(s) taken now\n")
                shown = None
            elif cmd.verb == "save":
                notes = save(session, cmd.path, library)
                out.write(f"saved {len(session.taken)} decision(s) to {cmd.path}\n")
                for note in notes:
                    print(note, file=sys.stderr)
            elif point is None:
                raise CommandError("no choice is open: undo, save PATH or quit")
            elif cmd.verb == "refused":
                out.write(render_refused(point, cite))
            else:
                decision = _decision_for(point, cmd)
                steps = session.take(decision)
                out.write(f"chosen: {flow(decision)}\n")
                out.write(render_steps(steps, cite, session.game))
        except CommandError as exc:
            print(f"error: {exc}", file=sys.stderr)
        except IllegalDecision as exc:
            print(f"refused: {exc.message}   rule: {cite(exc.rule)}", file=sys.stderr)
        except ScenarioError as exc:
            print(f"error: {exc.message}", file=sys.stderr)
        except EngineLimit as exc:
            print(f"the engine stopped: {exc}   rule: {cite(exc.rule)} (the game stays where it was)",
                  file=sys.stderr)
        except OSError as exc:
            print(f"error: cannot write {cmd.path}: {exc.strerror}", file=sys.stderr)


def _decision_for(point: Any, cmd: Command) -> Any:
    if cmd.verb == "default":
        if point.default is None or not point.options:
            raise CommandError("this point has no default: choose an option")
        return option_decision(point, Command("option", point.default + 1))
    if cmd.verb == "option":
        return option_decision(point, cmd)
    if cmd.verb == "try_refused":
        if not 1 <= cmd.number <= len(point.refused):
            raise CommandError(f"no refused option r{cmd.number}" + (
                f": r1 to r{len(point.refused)}" if point.refused else ": none is refused here"))
        return point.refused[cmd.number - 1].decision
    return written_decision(cmd.decision)
