"""`judgebook cards coverage|rulings`: how much of a format's pool the card language defines, and how the
ruling scenarios replay.

Card statistics and pools come from the NetrunnerDB data given to `judgebook build --with` (as for
`judgebook replay`), or `--nrdb PATH`; definitions from `rules_source/cards/standard/` or `--cards-dir`.
Data goes to stdout, errors to stderr (exit 2).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HELP = "card pool coverage of the card language, and the ruling scenarios' results"
FORMATS = ("standard", "startup", "eternal")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("cards", help=HELP, description=HELP)
    sub = p.add_subparsers(dest="cards_command", metavar="WHAT", required=True)
    cov = sub.add_parser("coverage", help="defined, partial and undefined cards of a format's current pool")
    cov.add_argument("--format", choices=FORMATS, default="standard", help="the format (default: standard)")
    rul = sub.add_parser("rulings", help="how many ruling scenarios replay to the ruling's answer")
    rul.add_argument("--scenarios-dir", metavar="DIR",
                     help="ruling scenarios (default: rules_source/scenarios/standard)")
    for q in (cov, rul):
        q.add_argument("--json", action="store_true", help="one JSON object")
        q.add_argument("--cards-dir", metavar="DIR", help="card definitions (default: rules_source/cards/standard)")
        q.add_argument("--nrdb", metavar="PATH",
                       help="netrunner-cards-json folder (default: the one given to judgebook build --with)")
    cov.set_defaults(func=run_coverage)
    rul.set_defaults(func=run_rulings)


class _Stop(Exception):
    pass


def _fail(message: str) -> _Stop:
    print(f"judgebook cards: {message}", file=sys.stderr)
    return _Stop()


def _nrdb(args: argparse.Namespace) -> Path:
    from judgebook.config import ConfigError, card_data

    if args.nrdb:
        return Path(args.nrdb)
    try:
        found = card_data()
    except ConfigError as exc:
        raise _fail(str(exc)) from None
    if found is None:
        raise _fail("no NetrunnerDB data: give --nrdb PATH/TO/netrunner-cards-json, "
                    "or judgebook build --with PATH once")
    return found


def _cards_dir(args: argparse.Namespace) -> Path:
    from judgebook.cards.definitions import default_dir

    d = Path(args.cards_dir) if args.cards_dir else default_dir()
    if args.cards_dir and not d.is_dir():
        raise _fail(f"--cards-dir {d}: not a folder")
    return d


def _emit(args: argparse.Namespace, data: dict[str, Any], lines: list[str]) -> None:
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        print("\n".join(lines))


def run_coverage(args: argparse.Namespace) -> int:
    from judgebook.cards.coverage import format_coverage
    from judgebook.cards.definitions import DefinitionError
    from judgebook.cards.pool import PoolError

    try:
        cov = format_coverage(_nrdb(args), args.format, _cards_dir(args))
    except _Stop:
        return 2
    except (PoolError, DefinitionError) as exc:
        print(f"judgebook cards: {exc}", file=sys.stderr)
        return 2
    _emit(args, cov.as_json(), cov.lines())
    return 0


def run_rulings(args: argparse.Namespace) -> int:
    from judgebook.cards.pool import PoolError, v2_folder
    from judgebook.cards.rulings import default_dir, ruling_report
    from judgebook.engine.errors import ScenarioError
    from judgebook.engine.language.nrdb import card_source

    try:
        root = _nrdb(args)
        scenarios = Path(args.scenarios_dir) if args.scenarios_dir else default_dir()
        if args.scenarios_dir and not scenarios.is_dir():
            raise _fail(f"--scenarios-dir {scenarios}: not a folder")
        cards = _cards_dir(args)
        v2_folder(root)
        report = ruling_report(scenarios, cards, card_source(root), root)
    except _Stop:
        return 2
    except (PoolError, ScenarioError) as exc:
        print(f"judgebook cards: {exc}", file=sys.stderr)
        return 2
    _emit(args, report.as_json(), report.lines())
    return 0
