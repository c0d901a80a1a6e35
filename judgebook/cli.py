"""The `judgebook` command: a thin dispatcher over judgebook.commands.*."""
from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

# The command modules under judgebook.commands, in the order `judgebook --help` lists them. Only the one
# named on the command line is imported (issue 23: a fresh `judgebook search` paid for importing every
# command, replay's linking and cited-rules table among them); a bare `judgebook` or an unknown command
# imports them all, for the full list. tests/test_tidy_arrows.py checks each imports and registers.
COMMANDS = ("build", "dump", "show", "search", "replay", "play", "serve", "export", "cards", "engine")


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"judgebook.commands.{name}")


def _named(argv: list[str]) -> str | None:
    """The command named in argv (the first word that is not the global --index option or its value)."""
    rest = iter(argv)
    for word in rest:
        if word == "--index":
            next(rest, None)
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="judgebook",
        description="Offline Netrunner rules reference: build, search, browse, replay.")
    parser.add_argument("--index", metavar="DIR", default=None,
                        help="index folder (default: ./index, or $JUDGEBOOK_INDEX)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = _named(argv) if argv is not None else None
    for name in COMMANDS if named is None else (named,):
        command_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
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
