"""`judgebook serve`: the web app on a production WSGI server (waitress)."""
from __future__ import annotations

import argparse
import sys

HELP = "serve the web app (waitress) on 127.0.0.1:8000"


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help=HELP, description=HELP)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--threads", type=int, default=4, help="worker threads (default 4)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import waitress

    from judgebook.web.app import create_app
    try:
        app = create_app(index_root=args.index)
    except FileNotFoundError as exc:
        print(f"judgebook serve: {exc}", file=sys.stderr)
        return 1
    print(f"judgebook: serving on http://{args.host}:{args.port}/ (Ctrl-C to stop)", file=sys.stderr)
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads, ident="judgebook")
    return 0
