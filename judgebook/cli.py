"""The `judgebook` command: a thin dispatcher over judgebook.commands.*."""
from __future__ import annotations

import argparse
import sys

# Each command module is light at import (its heavy dependencies are imported in
# its `run`), so all are imported plainly: a renamed command fails loudly here.
from judgebook.commands import build, cards, dump, engine, export, play, replay, search, serve, show

COMMANDS = (build, dump, show, search, replay, play, serve, export, cards, engine)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="judgebook",
        description="Offline Netrunner rules reference: build, search, browse, replay.")
    parser.add_argument("--index", metavar="DIR", default=None,
                        help="index folder (default: ./index, or $JUDGEBOOK_INDEX)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
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
