"""`judgebook serve`: the web app on a production WSGI server.

One Python process runs one core at a time, so where the platform can fork
the app runs on gunicorn with one worker process per core (each with a few
threads for keep-alive and slow clients); elsewhere, or with
`--server waitress`, on waitress's threads in one process. Each worker opens
the index itself (no preloading: a Whoosh reader shared across a fork would
share file offsets) and follows `index/current`, so a rebuild is picked up
without a restart.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

HELP = "serve the web app on 127.0.0.1:8000 (gunicorn workers, or waitress)"
IDENT = "judgebook"


def _can_fork() -> bool:
    if not hasattr(os, "fork"):
        return False
    try:
        import gunicorn  # noqa: F401
    except ImportError:
        return False
    return True


def register(subparsers) -> None:
    p = subparsers.add_parser("serve", help=HELP, description=HELP)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--server", choices=("gunicorn", "waitress"), default=None,
                   help="gunicorn worker processes (default where the platform can fork) or "
                        "waitress threads in one process")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes for gunicorn (default: one per core)")
    p.add_argument("--threads", type=int, default=4, help="threads per worker (default 4)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judgebook.web.app import create_app

    server = args.server or ("gunicorn" if _can_fork() else "waitress")
    if server == "gunicorn" and not _can_fork():
        print("judgebook serve: gunicorn needs a platform that can fork and the gunicorn package; "
              "use --server waitress", file=sys.stderr)
        return 2
    if args.workers is not None and server != "gunicorn":
        print("judgebook serve: --workers is for --server gunicorn (waitress runs one process)",
              file=sys.stderr)
        return 2
    if (args.workers is not None and args.workers < 1) or args.threads < 1:
        print("judgebook serve: --workers and --threads take a number from 1", file=sys.stderr)
        return 2
    try:
        app = create_app(index_root=args.index)   # fails early, in the parent, with a clear message
    except FileNotFoundError as exc:
        print(f"judgebook serve: {exc}", file=sys.stderr)
        return 1
    where = f"http://{args.host}:{args.port}/"
    if server == "waitress":
        import waitress
        _warm(app)
        print(f"judgebook: serving on {where} (waitress, {args.threads} threads; Ctrl-C to stop)",
              file=sys.stderr)
        waitress.serve(app, host=args.host, port=args.port, threads=args.threads, ident=IDENT)
        return 0
    workers = args.workers or os.cpu_count() or 1
    print(f"judgebook: serving on {where} (gunicorn, {workers} workers x {args.threads} threads; "
          "Ctrl-C to stop)", file=sys.stderr)
    del app     # each worker opens its own
    _gunicorn(args.index, args.host, args.port, workers, args.threads)
    return 0


def _gunicorn(index: str | None, host: str, port: int, workers: int, threads: int) -> None:
    from gunicorn.app.base import BaseApplication
    from gunicorn.http import wsgi

    wsgi.SERVER = IDENT     # the Server header, as waitress's `ident` gives it

    class Judgebook(BaseApplication):
        def load_config(self) -> None:
            for key, value in {"bind": f"{host}:{port}", "workers": workers, "threads": threads,
                               "worker_class": "gthread", "preload_app": False, "accesslog": None,
                               "errorlog": "-", "loglevel": "warning", "timeout": 60,
                               "graceful_timeout": 5, "keepalive": 5}.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            from judgebook.web.app import create_app
            app = create_app(index_root=index)
            _warm(app)          # before this worker accepts a connection
            return app

    Judgebook().run()


def _warm(app: Any) -> None:
    """Load what the first pages need before serving (issue 23: the first card page took 2.2 s)."""
    import time

    from judgebook.store.file_stamp import hold
    from judgebook.web.app import warm_up

    hold(1.0)           # the scenario and card files are walked at most once a second, not per page
    started = time.perf_counter()
    done = warm_up(app)
    bad = [f"{path} {status}" for path, status, _ in done if status >= 500]
    print(f"judgebook: warmed {len(done)} pages in {time.perf_counter() - started:.1f} s (pid {os.getpid()})"
          + (f"; failed: {', '.join(bad)}" if bad else ""), file=sys.stderr)
