"""`judgebook replay FILE`: replay a judge scenario through the timing engine, step by step.

Each step cites a CR 26.03 anchor; the citation is shown with the number and
text of the newest loaded CR version that has it, or marked "not in the
loaded documents" when none does (never a dead link).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from judgebook.store.citations import NOT_LOADED, rule_ref, timeline_data

HELP = "replay a judge scenario (YAML) through the game's timing structures"


def register(subparsers) -> None:
    p = subparsers.add_parser("replay", help=HELP, description=HELP)
    p.add_argument("file", metavar="FILE", help="a scenario file (see judgebook/engine/LANGUAGE.md)")
    p.add_argument("--json", action="store_true", help="structured output")
    p.add_argument("--until", metavar="STEP", type=int, help="stop the listing after step STEP")
    # SUPPRESS: without the option here, the top-level --index stays in effect
    p.add_argument("--index", metavar="DIR", default=argparse.SUPPRESS, help="index folder")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judgebook.engine import IllegalDecision, ScenarioError, load_scenario, replay

    if args.until is not None and args.until < 1:
        print("judgebook replay: --until takes a step number from 1", file=sys.stderr)
        return 2
    try:
        scenario = load_scenario(args.file)
    except ScenarioError as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
        return 2
    corpus = _corpus(getattr(args, "index", None))
    try:
        timeline = replay(scenario)
    except IllegalDecision as exc:
        partial = getattr(exc, "timeline", None)     # the steps before the illegal one, when the engine has them
        data = timeline_data(partial, corpus, args.until) if partial else None
        error = {"message": str(exc), "field": exc.field, "line": exc.line,
                 "rule": rule_ref(corpus, exc.rule)}
        _emit(args, data, error)
        return 1
    except ScenarioError as exc:
        print(f"judgebook replay: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # an engine bug: say so plainly instead of a bare traceback
        print(f"judgebook replay: internal engine error while replaying {args.file}: "
              f"{type(exc).__name__}: {exc} (please report this scenario)", file=sys.stderr)
        return 3
    _emit(args, timeline_data(timeline, corpus, args.until), None)
    return 0


def _corpus(index: str | None) -> Any:
    from judgebook.store.corpus import Corpus
    try:
        return Corpus.load(index)
    except (FileNotFoundError, OSError, ValueError):
        return None


def _emit(args: argparse.Namespace, data: dict | None, error: dict | None) -> None:
    if args.json:
        out = dict(data or {"steps": [], "outcome": None})
        if error:
            out["error"] = error
        print(json.dumps(out, ensure_ascii=False, indent=1, default=str))
        return
    if data:
        sys.stdout.write(render(data))
    if error:
        print(f"\nILLEGAL DECISION: {error['message']}", file=sys.stdout)
        print(f"  breaks: {_cite(error['rule'])}", file=sys.stdout)


def _cite(rule: dict | None) -> str:
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
    lines = [f"Replay: {data['title']}"]
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
