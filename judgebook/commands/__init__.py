"""CLI subcommands, one module each.

Each module defines `register(subparsers)`, which adds its parser and sets
`func=run`. Modules import their heavy dependencies (Whoosh, Flask, YAML,
the index and the engine) inside `run`, lazily for start-up speed, so that
`judgebook --help` and a one-shot query stay fast; such imports are plain
(never guarded), so a renamed module still fails loudly. `judgebook.cli`
lists the commands.
"""
