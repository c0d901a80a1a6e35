"""The `judgebook` command: a thin dispatcher over judgebook.commands.*."""
from __future__ import annotations

import argparse
import importlib
import sys

from judgebook.commands import COMMANDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="judgebook",
        description="Offline Netrunner rules reference: build, search, browse, replay.")
    parser.add_argument("--index", metavar="DIR", default=None,
                        help="index folder (default: ./index, or $JUDGEBOOK_INDEX)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"judgebook.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"judgebook.commands.{name}":
                raise
            continue  # command not built yet
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
