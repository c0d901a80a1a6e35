"""`judgebook dump`: every section as JSON Lines, the data export for tools and bots."""
from __future__ import annotations

import argparse
import json
import sys

HELP = "write every section as JSON Lines on stdout"


def register(subparsers) -> None:
    p = subparsers.add_parser("dump", help=HELP, description=HELP)
    p.add_argument("--doc", metavar="KEY", action="append", default=[],
                   help="only this document (repeatable), e.g. cr-1.6")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judgebook.model import to_dict
    from judgebook.store.corpus import Corpus

    try:
        corpus = Corpus.load(args.index)
    except FileNotFoundError as exc:
        print(f"judgebook dump: {exc}", file=sys.stderr)
        return 1
    unknown = [d for d in args.doc if d not in corpus.documents]
    if unknown:
        print(f"judgebook dump: unknown document {', '.join(unknown)} "
              f"(loaded: {', '.join(corpus.documents)})", file=sys.stderr)
        return 1
    docs = args.doc or list(corpus.documents)
    out = sys.stdout
    for key in docs:
        for s in corpus.in_doc(key):
            out.write(json.dumps(to_dict(s), ensure_ascii=False) + "\n")
    out.flush()
    return 0
