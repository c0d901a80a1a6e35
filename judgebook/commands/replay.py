"""`judgebook replay FILE`: replay a judge scenario through the timing engine, step by step.

Each step cites a CR 26.03 anchor; the citation is shown with the number and
text of the newest loaded CR version that has it, or marked "not in the
loaded documents" when none does (never a dead link).

The output says whether the outcome is the one the scenario's `expect` block
states; `--check` prints only that verdict (for each of several files) and
exits 1 when one is not. Card definitions come from `--library DIR`, else the
`cards` folder beside the scenario's folder, else the library remembered with
`--library DIR --remember`.
`--engine new` replays with the rebuilt engine (judgebook.game); `old` is the
default until the new one replays every shipped scenario.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HELP = "replay a judge scenario (YAML) through the game's timing structures"
NOT_LOADED = "not in the loaded documents"
ENGINES = ("old", "new")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("replay", help=HELP, description=HELP)
    p.add_argument("file", metavar="FILE", nargs="*",
                   help="a scenario file (see judgebook/engine/LANGUAGE.md); several with --check")
    p.add_argument("--json", action="store_true", help="structured output")
    p.add_argument("--until", metavar="STEP", type=int, help="stop the listing after step STEP")
    p.add_argument("--check", action="store_true",
                   help="print only whether the outcome is the scenario's `expect`; exit 1 when it is not")
    p.add_argument("--library", metavar="DIR",
                   help="folder of card definitions (default: ../cards beside the scenario, else the remembered one)")
    p.add_argument("--remember", action="store_true",
                   help="remember --library DIR as the default library (judgebook.local.toml)")
    p.add_argument("--forget-library", action="store_true", help="forget the remembered library")
    p.add_argument("--engine", choices=ENGINES, default="old",
                   help="old: judgebook.engine (default); new: the rebuilt judgebook.game")
    # SUPPRESS: without the option here, the top-level --index stays in effect
    p.add_argument("--index", metavar="DIR", default=argparse.SUPPRESS, help="index folder")
    p.set_defaults(func=run)


# --- the card library --------------------------------------------------------

class LibraryError(Exception):
    pass


def library_for(file: str | Path, explicit: str | None) -> Path | None:
    """The card library for a scenario: `explicit`, else `../cards` beside the scenario's folder, else the
    remembered one, else None (the scenario must define its cards inline)."""
    from judgebook.config import load_config

    if explicit is not None:
        if not Path(explicit).is_dir():
            raise LibraryError(f"--library {explicit}: not a folder")
        return Path(explicit)
    beside = Path(file).resolve().parent.parent / "cards"
    if beside.is_dir():
        return beside
    remembered = load_config().library
    if remembered is None:
        return None
    if not Path(remembered).is_dir():
        raise LibraryError(f"the remembered card library {remembered} is not a folder "
                           "(judgebook replay --forget-library, or --library DIR --remember)")
    return Path(remembered)


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
    """Whether the outcome is the one the scenario's `expect` block states."""
    stated: bool
    differences: tuple[str, ...] = ()

    @property
    def met(self) -> bool | None:
        return not self.differences if self.stated else None

    def as_dict(self) -> dict[str, Any]:
        return {"stated": self.stated, "met": self.met, "differences": list(self.differences)}

    def lines(self) -> list[str]:
        if not self.stated:
            return ["Expectation: none stated (the scenario has no `expect` block)"]
        if not self.differences:
            return ["Expectation: met"]
        return [f"Expectation: NOT met ({len(self.differences)} difference(s))"] + [
            f"  - {d}" for d in self.differences]


def expectation(stated: bool, differences: list[str]) -> Expectation:
    return Expectation(stated, tuple(differences) if stated else ())


def exit_code(exp: Expectation, check: bool, replay_code: int) -> int:
    """With --check the verdict decides (an expected illegal decision is a pass); without, the replay's."""
    if not check:
        return replay_code
    return 0 if exp.met else 1


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
        print(f"judgebook replay: {codes.count(0)} of {len(codes)} scenario(s) as expected", file=sys.stderr)
    return max(codes)


def _one(args: argparse.Namespace, file: str, corpus: Any) -> tuple[int, dict[str, Any] | None]:
    """Replay one scenario; the exit code and, with --json, its document (printed by the caller)."""
    try:
        library = library_for(file, args.library)
    except LibraryError as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
        return 2, None
    runner = _replay_new if args.engine == "new" else _replay_old
    result = runner(args, file, library, corpus)
    if isinstance(result, int):
        return result, None
    data, error, exp, code = result
    if args.check and not exp.stated:
        print(f"judgebook replay: --check: {file} has no `expect` block to check against", file=sys.stderr)
        return 2, None
    data = dict(data or {"steps": [], "outcome": None})
    data["file"] = file
    data["engine"] = args.engine
    data["expectation"] = exp.as_dict()
    if error:
        data["error"] = error
    if not args.json:
        _emit(args, data, error, exp)
    if args.check and not exp.met:
        print(f"judgebook replay: {file}: the outcome is not the scenario's `expect`", file=sys.stderr)
    return exit_code(exp, args.check, code), data


Result = tuple[dict[str, Any] | None, dict[str, Any] | None, Expectation, int] | int


def _replay_old(args: argparse.Namespace, file: str, library: Path | None, corpus: Any) -> Result:
    from judgebook.engine import IllegalDecision, ScenarioError, check_expectations, load_scenario, replay

    try:
        scenario = load_scenario(file, library)
    except ScenarioError as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"judgebook replay: {file}: cannot read scenario: not UTF-8 text", file=sys.stderr)
        return 2
    stated = scenario.expect is not None
    try:
        timeline = replay(scenario)
    except IllegalDecision as exc:
        partial = getattr(exc, "timeline", None)   # the old engine attaches the steps taken so far
        data = timeline_data(partial, corpus, args.until) if partial else None
        error = {"message": str(exc), "field": exc.field, "line": exc.line,
                 "rule": rule_ref(corpus, exc.rule)}
        return data, error, expectation(stated, check_expectations(scenario, None, exc)), 1
    except ScenarioError as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # an engine bug: say so plainly instead of a bare traceback
        return _internal(file, exc)
    return (timeline_data(timeline, corpus, args.until), None,
            expectation(stated, check_expectations(scenario, timeline)), 0)


def _replay_new(args: argparse.Namespace, file: str, library: Path | None, corpus: Any) -> Result:
    from judgebook.game.driver.script import check, replay
    from judgebook.game.driver.timeline import timeline
    from judgebook.game.errors import IllegalDecision, ScenarioError
    from judgebook.game.scenario.load import load

    try:
        scenario = load(file, library)
    except OSError as exc:
        print(f"judgebook replay: {file}: cannot read scenario: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"judgebook replay: {file}: cannot read scenario: not UTF-8 text", file=sys.stderr)
        return 2
    except ScenarioError as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
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
    data = timeline_data(timeline(scenario, outcome, differences), corpus, args.until)
    error = None
    if outcome.error is not None:
        err = outcome.error
        error = {"message": str(err), "field": err.field, "line": err.line, "rule": rule_ref(corpus, err.rule)}
    return data, error, expectation(scenario.expect is not None, differences), 1 if error else 0


def _internal(file: str, exc: Exception) -> int:
    print(f"judgebook replay: internal engine error while replaying {file}: "
          f"{type(exc).__name__}: {exc} (please report this scenario)", file=sys.stderr)
    return 3


def _corpus(index: str | None) -> Any:
    from judgebook.store.corpus import Corpus
    try:
        return Corpus.load(index)
    except (FileNotFoundError, OSError, ValueError):
        return None


def rule_ref(corpus: Any, anchor: str | None) -> dict[str, Any] | None:
    """An anchor resolved against the newest loaded CR version that has it."""
    if anchor is None:
        return None
    if corpus is not None:
        for doc in reversed(corpus.cr_versions()):
            sec = corpus.by_anchor(doc.key, anchor)
            if sec is not None:
                return {"anchor": anchor, "id": sec.id, "number": sec.number, "doc": doc.key,
                        "title": sec.title, "text": sec.text}
    return {"anchor": anchor, "id": None, "number": None, "doc": None, "note": NOT_LOADED}


def timeline_data(timeline: Any, corpus: Any, until: int | None = None) -> dict:
    """The timeline as plain data with citations resolved (also for the web page)."""
    data = timeline.to_dict()
    cache: dict[str, dict | None] = {}
    steps = data["steps"] if until is None else data["steps"][:until]
    for step in steps:
        anchor = step["rule"]
        if anchor not in cache:
            cache[anchor] = rule_ref(corpus, anchor)
        step["rule"] = cache[anchor]
    data["steps"] = steps
    if until is not None:
        data["until"] = until
    return data


def _emit(args: argparse.Namespace, data: dict[str, Any], error: dict[str, Any] | None,
          exp: Expectation) -> None:
    if args.check:
        verdict = "expectation met" if exp.met else "expectation NOT met"
        print(f"{data['file']}: {verdict}")
        for d in exp.differences:
            print(f"  - {d}")
        return
    if data.get("steps") or data.get("outcome"):
        sys.stdout.write(render(data))
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
    return f"{rule['anchor']} — {NOT_LOADED}"


def _changes(state: dict) -> str:
    def short(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(map(str, v)) + "]" if len(v) <= 6 else f"{len(v)} cards"
        return "-" if v is None else str(v)
    return "; ".join(f"{k} {short(a)} → {short(b)}" for k, (a, b) in state.items())


def render(data: dict) -> str:
    lines = [f"Replay: {data['title']}" + (" (engine: new)" if data.get("engine") == "new" else "")]
    if data.get("source"):
        lines.append(f"Source: {' '.join(str(data['source']).split())}")
    lines.append("")
    width = len(str(len(data["steps"])))
    for step in data["steps"]:
        flag = " (assumed)" if step["assumed"] and "assumed" not in step["text"] else ""
        lines.append(f"{step['n']:>{width}}. [{step['phase']}] {step['text']}{flag}")
        pad = " " * (width + 2)
        lines.append(f"{pad}rule: {_cite(step['rule'])}")
        if step["state"]:
            lines.append(f"{pad}changed: {_changes(step['state'])}")
    outcome = data.get("outcome")
    if outcome:
        lines.append("")
        if data.get("until"):
            lines.append(f"(listing stopped at step {data['until']} by --until)")
        winner = outcome["winner"] or "none"
        lines.append(f"Outcome: {outcome['stopped']}; winner: {winner}"
                     + (f" ({outcome['reason']})" if outcome["reason"] else ""))
        for run in outcome["runs"]:
            lines.append(f"  run on {run['server']}: {'successful' if run['successful'] else 'unsuccessful'}"
                         f", ended by {run['ended_by']}")
        if outcome["resolved"]:
            lines.append(f"  resolved, in order: {', '.join(outcome['resolved'])}")
        if outcome.get("loop"):
            lines.append(f"  loop: {outcome['loop']}")
    return "\n".join(lines) + "\n"

