"""`judgebook export DIR`: a static copy of the site, usable from file:// or any static host."""
from __future__ import annotations

import argparse
import sys

HELP = "write the web pages as a static site into DIR"


def register(subparsers) -> None:
    p = subparsers.add_parser("export", help=HELP, description=HELP)
    p.add_argument("dir", metavar="DIR", help="folder to write (new, empty, or a previous export)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judgebook.store.corpus import Corpus
    from judgebook.web.export import ExportError, export_site
    try:
        corpus = Corpus.load(args.index)
        result = export_site(corpus, args.dir, lambda msg: print(msg, file=sys.stderr))
    except (FileNotFoundError, ExportError, OSError) as exc:
        print(f"judgebook export: {exc}", file=sys.stderr)
        return 1
    print(f"judgebook export: {result.pages} pages, search index {result.index_bytes // 1024} KiB "
          f"({result.index_items} sections) in {result.seconds:.1f} s -> {result.out_dir}/index.html",
          file=sys.stderr)
    return 0
