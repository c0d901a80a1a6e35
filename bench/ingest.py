"""Ingestion benchmark (not a test): loading NetrunnerDB's cards and rulings.

    .venv/bin/python bench/ingest.py [--corpora DIR] [--repeat N]

Times `nrdb.load` on the `netrunner-cards-json/v2` checkout (every card and
ruling parsed, symbols normalised, legality from the card pools and ban lists,
rulings linked to their cards) against the floor any loader has on the same
files: reading and `json.loads` of each of them, nothing more. Both run in one
process, alternating, so a busy machine slows both alike; the ratio is the
figure to compare across machines. This replaces the timed test that lived in
tests/test_ingest_nrdb.py (a 3 s limit, measured 0.16-0.2 s on a quiet
machine): timing depends on the machine's load, so it is measured here, never
asserted in a test.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", default=str(PROJECT.parent / "shared" / "corpora"))
    ap.add_argument("--repeat", type=int, default=5, help="loads of each kind (default 5)")
    args = ap.parse_args()
    from judgebook.ingestion import nrdb

    v2 = Path(args.corpora) / "netrunner-cards-json" / "v2"
    if not v2.is_dir():
        print(f"no NetrunnerDB checkout at {v2} (give --corpora)", file=sys.stderr)
        return 2
    files = sorted(v2.rglob("*.json"))
    cards, rulings = nrdb.load(v2)           # warm-up: the OS file cache, imports
    ours, floor = [], []
    for _ in range(max(1, args.repeat)):
        ours.append(timed(lambda: nrdb.load(v2)))
        floor.append(timed(lambda: [json.loads(f.read_text("utf-8")) for f in files]))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"NetrunnerDB v2: {len(cards)} cards, {len(rulings)} rulings, {len(files)} JSON files; "
          f"load average {load:.2f}")
    med, base = statistics.median(ours), statistics.median(floor)
    print(f"  nrdb.load            median {med:.3f} s  (min {min(ours):.3f}, max {max(ours):.3f})"
          f"  ratio: json floor {med / base:.1f}x")
    print(f"  read + json.loads    median {base:.3f} s  (min {min(floor):.3f}, max {max(floor):.3f})")
    return 0


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    sys.exit(main())
