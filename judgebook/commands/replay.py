"""`judgebook replay FILE`: replay a judge scenario through the timing engine, step by step.

Each step cites a CR 26.03 anchor; the citation is shown with the number and
text of the newest loaded CR version that has it, or marked "not in the
loaded documents" when none does (never a dead link).

The output says whether the outcome is the one the scenario's `expect` block
states; `--check` prints only that verdict (for each of several files) and
exits 1 when one is not. Card
definitions come from `--library DIR`, else the `cards` folder beside the
scenario's folder, else the library remembered with `--library DIR --remember`.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgebook.store.citations import NOT_LOADED, rule_ref

HELP = "replay a judge scenario (YAML) through the game's timing structures"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("replay", help=HELP, description=HELP)
    p.add_argument("file", metavar="FILE", nargs="*",
                   help="a scenario file (see judgebook/engine/SCENARIOS.md); several with --check")
    p.add_argument("--json", action="store_true", help="structured output")
    p.add_argument("--until", metavar="STEP", type=int, help="stop the listing after step STEP")
    p.add_argument("--check", action="store_true",
                   help="print only whether the outcome is the scenario's `expect`; exit 1 when it is not")
    p.add_argument("--library", metavar="DIR",
                   help="folder of card definitions (default: ../cards beside the scenario, else the remembered one)")
    p.add_argument("--remember", action="store_true",
                   help="remember --library DIR as the default library (judgebook.local.toml)")
    p.add_argument("--forget-library", action="store_true", help="forget the remembered library")
    # SUPPRESS: without the option here, the top-level --index stays in effect
    p.add_argument("--index", metavar="DIR", default=argparse.SUPPRESS, help="index folder")
    p.set_defaults(func=run)


# --- the card library --------------------------------------------------------

class LibraryError(Exception):
    pass


def library_for(file: str | Path, explicit: str | None) -> Path | list[Path] | None:
    """The card library for a scenario: `explicit`, else `cards/NAME` for a scenario in `scenarios/NAME/`,
    else `../cards` beside the scenario's folder, else the remembered one followed by the project's whole
    library (`config.card_library()`: a scenario downloaded from the judge's table replays from anywhere),
    else None (the scenario must define its cards inline)."""
    from judgebook.config import card_data, card_library, load_config

    if explicit is not None:
        if not Path(explicit).is_dir():
            raise LibraryError(f"--library {explicit}: not a folder")
        return Path(explicit)
    here = Path(file).resolve().parent
    # A scenario in a folder of scenarios/ takes the cards folder of the same name: scenarios/real/ → cards/real/.
    mirrored = here.parent.parent / "cards" / here.name
    if here.parent.name == "scenarios" and mirrored.is_dir():
        return mirrored
    beside = here.parent / "cards"
    if beside.is_dir():
        return beside
    remembered = load_config().library
    if remembered is not None and not Path(remembered).is_dir():
        raise LibraryError(f"the remembered card library {remembered} is not a folder "
                           "(judgebook replay --forget-library, or --library DIR --remember)")
    folders = ([Path(remembered)] if remembered is not None else []) + card_library(card_data() is not None)
    return folders or None


def _library_settings(args: argparse.Namespace) -> int | None:
    """--remember / --forget-library; an exit code when the command ends there."""
    from judgebook.config import ConfigError, remember_library

    if args.remember and args.forget_library:
        print("judgebook replay: --remember and --forget-library exclude each other", file=sys.stderr)
        return 2
    if args.remember and not args.library:
        print("judgebook replay: --remember needs --library DIR", file=sys.stderr)
        return 2
    if not (args.remember or args.forget_library):
        return None
    if args.remember and not Path(args.library).is_dir():
        print(f"judgebook replay: --library {args.library}: not a folder", file=sys.stderr)
        return 2
    try:
        cfg = remember_library(args.library if args.remember else None)
    except (ConfigError, OSError) as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
        return 2
    print(f"judgebook replay: card library {'remembered: ' + str(cfg.library) if cfg.library else 'forgotten'}",
          file=sys.stderr)
    return 0 if not args.file else None


# --- the expectation, whichever engine replayed ------------------------------

@dataclass(frozen=True)
class Expectation:
    """Whether the outcome is the one the scenario's `expect` block states; with a `mismatch` (a ruling the
    engine is known not to reach) the scenario passes when the outcome misses it."""
    stated: bool
    differences: tuple[str, ...] = ()
    mismatch: Any = None     # engine.scenario.board.Mismatch

    @property
    def met(self) -> bool | None:
        return not self.differences if self.stated else None

    @property
    def verdict(self) -> Any:
        from judgebook.engine.scenario.verdict import verdict
        return verdict(self.stated, self.differences, self.mismatch)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"stated": self.stated, "met": self.met, "differences": list(self.differences)}
        if self.mismatch is not None:
            out["mismatch"] = {"wrong": self.mismatch.wrong, "why": self.mismatch.why,
                               "stale": self.verdict.stale}
        return out

    def lines(self) -> list[str]:
        if not self.stated:
            return ["Expectation: none stated (the scenario has no `expect` block)"]
        head = [f"Expectation: {self.verdict.label()}"] if self.mismatch is not None else []
        if not self.differences:
            return head + ["Expectation: met"]
        return head + [f"Expectation: NOT met ({len(self.differences)} difference(s))"] + [
            f"  - {d}" for d in self.differences]


def expectation(stated: bool, differences: list[str], mismatch: Any = None) -> Expectation:
    return Expectation(stated, tuple(differences) if stated else (), mismatch)


def exit_code(exp: Expectation, check: bool, replay_code: int) -> int:
    """With --check the verdict decides (an expected illegal decision is a pass, and so is a known
    mismatch that is still missed); without, the replay's."""
    if not check:
        return replay_code
    return 0 if exp.verdict.passed else 1


# --- the command ---------------------------------------------------------------

def run(args: argparse.Namespace) -> int:
    done = _library_settings(args)
    if done is not None:
        return done
    if not args.file:
        print("judgebook replay: a scenario FILE is needed", file=sys.stderr)
        return 2
    if len(args.file) > 1 and not args.check:
        print("judgebook replay: several scenario files only with --check", file=sys.stderr)
        return 2
    if args.until is not None and args.until < 1:
        print("judgebook replay: --until takes a step number from 1", file=sys.stderr)
        return 2
    if args.check and args.until is not None:
        print("judgebook replay: --check prints no steps, so --until has nothing to stop", file=sys.stderr)
        return 2
    corpus = _corpus(getattr(args, "index", None))
    codes, documents = [], []
    for file in args.file:
        code, document = _one(args, file, corpus)
        codes.append(code)
        if document is not None:
            documents.append(document)
    if args.json and documents:
        out = documents[0] if len(args.file) == 1 else documents
        print(json.dumps(out, ensure_ascii=False, indent=1, default=str))
    if len(args.file) > 1:
        print(f"judgebook replay: {codes.count(0)} of {len(codes)} scenario(s) as expected"
              f"{warned_summary(documents)}", file=sys.stderr)
    return max(codes)


def warned_summary(documents: list[dict[str, Any]]) -> str:
    """"; N warning(s) in M scenario(s)" for several files (nothing when none warns): never silent, never a
    failure (a warning says where the engine may be wrong; the scenario's `expect` decides the check)."""
    counts = [sum(len(step.get("warnings", ())) for step in d.get("steps", ())) for d in documents]
    n = sum(counts)
    return f"; {n} warning(s) in {sum(1 for c in counts if c)} scenario(s)" if n else ""


def _one(args: argparse.Namespace, file: str, corpus: Any) -> tuple[int, dict[str, Any] | None]:
    """Replay one scenario; the exit code and, with --json, its document (printed by the caller)."""
    try:
        library = library_for(file, args.library)
    except LibraryError as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
        return 2, None
    result = _replay(args, file, library, corpus)
    if isinstance(result, int):
        return result, None
    data, error, exp, code = result
    if args.check and not exp.stated:
        print(f"judgebook replay: --check: {file} has no `expect` block to check against", file=sys.stderr)
        return 2, None
    data = dict(data or {"steps": [], "outcome": None})
    data["file"] = file
    data["expectation"] = exp.as_dict()
    if error:
        data["error"] = error
    if not args.json:
        _emit(args, data, error, exp)
    if args.check and not exp.verdict.passed:
        what = exp.verdict.label() if exp.mismatch is not None else "the outcome is not the scenario's `expect`"
        print(f"judgebook replay: {file}: {what}", file=sys.stderr)
    return exit_code(exp, args.check, code), data


Result = tuple[dict[str, Any] | None, dict[str, Any] | None, Expectation, int] | int


def read_scenario(command: str, file: str, library: Path | list[Path] | None) -> Any:
    """A scenario for `replay` and `play`, with card statistics from the NetrunnerDB data given to
    `judgebook build --with` when there is any; None (the reason on stderr) when it cannot be read."""
    from judgebook.config import card_data
    from judgebook.engine.errors import ScenarioError
    from judgebook.engine.scenario.load import load_scenario

    try:
        return load_scenario(file, library, card_data())
    except OSError as exc:
        print(f"judgebook {command}: {file}: cannot read scenario: {exc.strerror}", file=sys.stderr)
    except UnicodeDecodeError:
        print(f"judgebook {command}: {file}: cannot read scenario: not UTF-8 text", file=sys.stderr)
    except ScenarioError as exc:
        print(f"judgebook {command}: {exc}", file=sys.stderr)
    return None


def _replay(args: argparse.Namespace, file: str, library: Path | list[Path] | None, corpus: Any) -> Result:
    from judgebook.engine import live_mismatch
    from judgebook.engine.driver.script import replay
    from judgebook.engine.errors import IllegalDecision, ScenarioError
    from judgebook.engine.scenario.verdict import check
    from judgebook.linking.rule_map import known

    scenario = read_scenario("replay", file, library)
    if scenario is None:
        return 2
    try:
        outcome = replay(scenario)
        differences = check(scenario, outcome)
    except IllegalDecision as exc:  # raised outside the script's own checks: an engine bug as well
        return _internal(file, exc)
    except ScenarioError as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        return _internal(file, exc)
    warn = known(live_mismatch(scenario.mismatch, differences))
    data = game_timeline_data(scenario, outcome, corpus, args.until, warn)
    error = None
    if outcome.error is not None:
        err = outcome.error
        error = {"message": str(err), "field": err.field, "line": err.line, "rule": rule_ref(corpus, err.rule)}
    return data, error, expectation(scenario.expect is not None, differences, scenario.mismatch), 1 if error else 0


def _internal(file: str, exc: Exception) -> int:
    print(f"judgebook replay: internal engine error while replaying {file}: "
          f"{type(exc).__name__}: {exc} (please report this scenario)", file=sys.stderr)
    return 3


def game_timeline_data(scenario: Any, outcome: Any, corpus: Any, until: int | None = None,
                       known: Any = None) -> dict[str, Any]:
    """A replay of the rebuilt engine as plain data, citations resolved.

    `changes` are the engine's own words for a step; `state` is what changed on the board (key -> [before,
    after], the web page's `timeline`), so the command and the page show the same changes and runs;
    `warnings` what the engine may get wrong at the step (with `known`: engine.Known, issue 19 §4)."""
    from judgebook.engine.driver.timeline import timeline

    summary = timeline(scenario, outcome, known=known)
    cache: dict[str, dict[str, Any] | None] = {}
    steps = []
    for n, (step, line) in enumerate(zip(outcome.steps, summary.steps, strict=True), 1):
        if until is not None and n > until:
            break
        if step.anchor not in cache:
            cache[step.anchor] = rule_ref(corpus, step.anchor)
        steps.append({"n": n, "kind": step.kind, "text": step.text, "rule": cache[step.anchor],
                      "player": step.player, "how": step.how, "path": list(step.path), "phase": line.phase,
                      "card": step.card, "ability": step.ability, "changes": list(step.changes),
                      "state": line.state, "warnings": [w.as_json() for w in line.warnings]})
    final = outcome.final if outcome.states else None
    data: dict[str, Any] = {
        "title": scenario.title, "source": scenario.source, "steps": steps,
        "outcome": {"ended": outcome.ended,
                    "winner": final.winner if final else None,
                    "win_reason": final.win_reason if final else None,
                    "runs": [{"server": r.server, "successful": r.successful, "ended_by": r.ended_by}
                             for r in summary.outcome.runs],
                    "resolved": list(summary.outcome.resolved),
                    "stopped": str(outcome.limit) if outcome.limit else None,
                    "stopped_rule": rule_ref(corpus, outcome.limit.rule) if outcome.limit else None}}
    if until is not None:
        data["until"] = until
    return data


def _corpus(index: str | None) -> Any:
    from judgebook.store.corpus import Corpus
    try:
        return Corpus.load(index)
    except (FileNotFoundError, OSError, ValueError):
        return None


def _emit(args: argparse.Namespace, data: dict[str, Any], error: dict[str, Any] | None,
          exp: Expectation) -> None:
    if args.check:
        print(f"{data['file']}: {exp.verdict.label()}")
        for d in exp.differences:
            print(f"  - {d}")
        for line in check_warnings(data):
            print(line)
        return
    if data.get("steps") or data.get("outcome"):
        sys.stdout.write(render_game(data))
    if error:
        print(f"\nILLEGAL DECISION: {error['message']}", file=sys.stdout)
        print(f"  breaks: {_cite(error['rule'])}", file=sys.stdout)
    print("\n" + "\n".join(exp.lines()))


def _cite(rule: dict[str, Any] | None) -> str:
    if rule is None:
        return "-"
    if rule.get("doc"):
        number = f" {rule['number']}" if rule.get("number") else ""
        return f"{rule['doc']}{number} ({rule['anchor']})"
    return f"{rule['anchor']} — {rule.get('note', NOT_LOADED)}"


def render_game(data: dict[str, Any]) -> str:
    """The rebuilt engine's timeline as text: each step with where it happened, its rule and how it was decided."""
    lines = [f"Replay: {data['title']}"]
    if data.get("source"):
        lines.append(f"Source: {' '.join(str(data['source']).split())}")
    lines.append("")
    width = len(str(len(data["steps"])))
    for step in data["steps"]:
        where = " › ".join(step["path"])
        how = "" if step["how"] == "engine" else f" ({step['how']})"
        lines.append(f"{step['n']:>{width}}. [{where}] {step['kind']}: {step['text']}{how}")
        pad = " " * (width + 2)
        lines.append(f"{pad}rule: {_cite(step['rule'])}")
        lines += [f"{pad}WARNING: {text}" for text in warning_texts(step)]
        if step["state"]:
            changed = "; ".join(f"{key} {_short(a)} → {_short(b)}" for key, (a, b) in step["state"].items())
            lines.append(f"{pad}changed: {changed}")
    outcome = data["outcome"]
    lines.append("")
    if data.get("until"):
        lines.append(f"(listing stopped at step {data['until']} by --until)")
    winner = outcome["winner"] or "none"
    reason = f" ({outcome['win_reason']})" if outcome["win_reason"] else ""
    lines.append(f"Outcome: {outcome['ended'] or 'not started'}; winner: {winner}{reason}")
    for run in outcome["runs"]:
        lines.append(f"  run on {run['server']}: {'successful' if run['successful'] else 'unsuccessful'}, "
                     f"ended by {run['ended_by']}")
    if outcome["resolved"]:
        lines.append(f"  resolved, in order: {', '.join(outcome['resolved'])}")
    if outcome["stopped"]:
        lines.append(f"  stopped: {outcome['stopped']} — rule: {_cite(outcome['stopped_rule'])}")
    return "\n".join(lines) + "\n"


def warning_texts(step: dict[str, Any]) -> list[str]:
    """A step's warnings in words (engine.StepWarning's own text, read back from the step's plain data)."""
    from judgebook.engine import StepWarning

    return [StepWarning(**w).text() for w in step.get("warnings", ())]


def check_warnings(data: dict[str, Any]) -> list[str]:
    """`--check`'s report of the steps that warn: a count, then each warning with its step. They do not fail
    the check (the scenario's `expect` decides), but they are never silent."""
    found = [f"  - step {step['n']}: {text}" for step in data.get("steps", ()) for text in warning_texts(step)]
    return [f"  {len(found)} warning(s): the engine may be wrong at these steps", *found] if found else []


def _short(value: Any) -> str:
    """A board value in a line of text: a short list of cards by name, a long one counted, nothing as "-"."""
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]" if len(value) <= 6 else f"{len(value)} cards"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    return "-" if value is None else str(value)
