"""CLI subcommands, one module each.

Each module defines `register(subparsers)`, which adds its parser and sets
`func=run`. Modules import their heavy dependencies (Whoosh, Flask, YAML)
inside `run`, so that `judgebook --help` and a one-shot query stay fast.
"""
COMMANDS = ("build", "dump", "show", "search", "replay", "play", "serve", "export")
