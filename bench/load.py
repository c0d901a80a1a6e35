"""Load benchmark (not a test): a busy tournament table against `judgebook serve`, open loop.

    .venv/bin/python bench/load.py --index ROOT [--before CHECKOUT] [--rates 50,100,200]
                                   [--seconds 10] [--timeout 5]

Requests are sent on a fixed schedule (open loop: a slow answer does not
slow the sender), each on its own connection, and their latency is counted
from when they were due, so queueing shows. The mix is the issue's: searches,
section pages (spread over every section, so most are not cached), API
look-ups and completions, the CR 26.03 document page and "What changed"
between CR 1.6 and 26.03. Every rate runs against, in one run:

  static   python's http.server answering one fixed small file (the floor a
           Python server on this machine reaches);
  before   the same index served by an older checkout (`--before`, e.g. made
           with `git archive <commit> | tar -x -C DIR`), as it served itself;
  waitress this checkout on one waitress process (`--server waitress`): the
           cache and shared readers without the worker processes;
  now      this checkout's `judgebook serve` (gunicorn, a worker per core).
The `cached` column counts answers that came from the page cache.

Bounded: at most `--seconds` per rate and target, rate x seconds requests,
loopback only (the servers are started here, on 127.0.0.1).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

PROJECT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
QUERIES = ["brain damage", "paid ability window", "1.16.10b", "trace", "jack out", "install cost",
           "bad publicity", "recurring credits", "net damage", "obokata protocl", "successful run",
           "derez", "expose", "maximum hand size", "psi game", '"end the run"', "tolbooth", "priority"]
PREFIXES = ["pa", "tra", "1.1", "bre", "sur", "acc", "ice", "run", "6.9", "cor"]


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    timeouts: int = 0
    cached: int = 0
    started: float = 0.0
    finished: float = 0.0

    def row(self, name: str, rate: int) -> str:
        ok = sorted(self.latencies)
        took = max(self.finished - self.started, 1e-9)

        def pct(p: float) -> str:
            return f"{ok[min(len(ok) - 1, int(p * len(ok)))] * 1000:8.1f}" if ok else "       -"
        return (f"{name:<8} {rate:>5} {len(ok) / took:>9.1f} {pct(0.50)} {pct(0.95)} {pct(0.99)} "
                f"{self.errors:>6} {self.timeouts:>8} {self.cached:>6}")


def mix(index: Path, n: int, seed: int = 12) -> list[str]:
    gen = (index / "current").resolve()
    ids = [json.loads(line)["id"] for line in open(gen / "sections.jsonl", encoding="utf-8")]
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        r = rnd.random()
        if r < 0.30:
            out.append("/search?q=" + quote(rnd.choice(QUERIES)))
        elif r < 0.60:
            out.append("/s/" + quote(rnd.choice(ids)))
        elif r < 0.75:
            out.append("/api/search?q=" + quote(rnd.choice(QUERIES)))
        elif r < 0.90:
            out.append("/api/complete?q=" + rnd.choice(PREFIXES))
        elif r < 0.95:
            out.append("/d/cr-26.03")
        else:
            out.append("/changes?from=cr-1.6&to=cr-26.03")
    return out


async def fetch(port: int, path: str, timeout: float) -> tuple[int, bool]:
    async def go() -> tuple[int, bool]:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), None)
            if length is None:
                await reader.read()
            else:
                await reader.readexactly(length)
            return status, b"\r\nx-cache: hit" in head.lower()
        finally:
            writer.close()
    return await asyncio.wait_for(go(), timeout)


async def run_rate(port: int, paths: list[str], rate: int, seconds: float, timeout: float) -> Result:
    res = Result()
    count = int(rate * seconds)
    loop = asyncio.get_running_loop()
    res.started = loop.time()

    async def one(i: int) -> None:
        due = res.started + i / rate
        await asyncio.sleep(max(0.0, due - loop.time()))
        try:
            status, cached = await fetch(port, paths[i % len(paths)], timeout)
        except TimeoutError:
            res.timeouts += 1
            return
        except OSError:
            res.errors += 1
            return
        if status >= 500 or status == 0:
            res.errors += 1
            return
        res.latencies.append(loop.time() - due)
        res.cached += cached

    await asyncio.gather(*(one(i) for i in range(count)))
    res.finished = loop.time()
    return res


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_up(port: int, proc: subprocess.Popen, path: str = "/") -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server on {port} exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=5):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"server on {port} did not start")


def start(target: str, index: Path, before: Path | None, static_dir: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ}
    if target == "static":
        cmd = [sys.executable, "-m", "http.server", str(port), "--bind", HOST, "--directory", str(static_dir)]
    elif target == "before":
        assert before is not None
        env["PYTHONPATH"] = str(before)
        cmd = [sys.executable, "-m", "judgebook", "--index", str(index), "serve", "--port", str(port)]
    else:
        env["PYTHONPATH"] = str(PROJECT)
        cmd = [sys.executable, "-m", "judgebook", "--index", str(index), "serve", "--port", str(port)]
        if target == "waitress":
            cmd += ["--server", "waitress"]
    # cwd matters: `python -m` puts it first on sys.path, ahead of PYTHONPATH
    cwd = before if target == "before" else PROJECT
    proc = subprocess.Popen(cmd, env=env, cwd=str(cwd), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    wait_up(port, proc, "/x.html" if target == "static" else "/")
    return proc, port


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)   # the server and its worker processes, started here
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", required=True, type=Path, help="a built index root (with current/)")
    ap.add_argument("--before", type=Path, help="an older checkout to serve the same index")
    ap.add_argument("--rates", default="50,100,200")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--targets", default="static,before,waitress,now")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run the targets this many times in turn (before, now, before, now: the other "
                         "processes of a shared machine weigh on both alike)")
    args = ap.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    if max(rates) * args.seconds > 20_000:
        print("load: at most 20,000 requests per rate", file=sys.stderr)
        return 2
    targets = [t for t in args.targets.split(",") if t != "before" or args.before]
    paths = mix(args.index, max(rates) * int(args.seconds) + 1)
    print(f"mix: {len(paths)} requests, {len(set(paths))} distinct; {args.seconds:g} s per rate; "
          f"cores: {os.cpu_count()}; load average {os.getloadavg()[0]:.2f} at the start")
    print(f"{'target':<8} {'rate':>5} {'achieved':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
          f"{'errors':>6} {'timeouts':>8} {'cached':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        static_dir = Path(tmp)
        (static_dir / "x.html").write_bytes(b"<!doctype html><title>x</title>" + b"x" * 5000)
        for target in targets * max(1, args.rounds):
            proc, port = start(target, args.index, args.before, static_dir)
            try:
                # warm-up outside the figures: one request of each kind
                asyncio.run(run_rate(port, ["/x.html"] if target == "static" else paths[:40], 20, 2.0,
                                     args.timeout))
                for rate in rates:
                    url_paths = ["/x.html"] if target == "static" else paths
                    res = asyncio.run(run_rate(port, url_paths, rate, args.seconds, args.timeout))
                    print(res.row(target, rate), flush=True)
                    time.sleep(1.0)
            finally:
                stop(proc)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
