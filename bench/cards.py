"""Card-definition loading benchmark (not a test): every pool definition against the 86 of today, same run.

    .venv/bin/python bench/cards.py [--nrdb PATH] [--cards-dir DIR] [--rounds N] [--json]

Each measurement is a fresh process (nothing cached: the YAML, the NetrunnerDB join), the cases interleaved
round by round, the median reported. Timed inside the process, imports apart from loading:
  - pool:      every definition file under --cards-dir (default rules_source/cards/standard/), parsed with its
               statistics joined from NetrunnerDB (judgebook.cards.definitions.read_definitions);
  - full pool: the same for a generated folder of one definition per card of the Standard pool (547, in a
               temporary folder: abilities of a typical shape, so the cost does not wait for the real ones);
  - today:     the 86 definitions of rules_source/cards/*.yaml (engine.language.cards.load_library).
Goal (issue 9): loading every definition ≤ 0.3 s. CPU seconds are shown beside the wall-clock ones: on a busy
machine they say what the loading itself costs. Progress goes to stderr, the table (or --json) to stdout.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))
GOAL_S = 0.3

WORKER = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
case, folder, nrdb = sys.argv[1], sys.argv[2], sys.argv[3]
if case == "today":
    from judgebook.engine.language.cards import load_library
    t1, c1 = time.perf_counter(), time.process_time()
    n = len(load_library(folder))
else:
    from judgebook.cards.definitions import read_definitions
    from judgebook.engine.language.nrdb import CardSource
    t1, c1 = time.perf_counter(), time.process_time()
    n = len(read_definitions(folder, CardSource(nrdb)))
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"cards": n, "import_s": t1 - t0, "load_s": t2 - t1, "load_cpu_s": c2 - c1}))
"""

# One definition per pool card, of a shape most cards have: a paid ability, a conditional one, and for ice a
# subroutine. Only the shape matters here: the benchmark times parsing and the join, not the card's meaning.
SYNTHETIC = """id: {id}
name: {name}
abilities:
  - {{id: a1, cost: {{clicks: 1, credits: 2}}, effects: [{{gain_credits: 3}}, {{draw: 1}}]}}
  - {{id: a2, trigger: turn_begins, condition: {{player: you}}, optional: true, effects: [{{gain_credits: 1}}]}}
{subs}"""


def synthetic_pool(nrdb: Path, into: Path) -> int:
    from judgebook.cards.pool import read_pool

    pool = read_pool(nrdb, "standard")
    for card in pool.cards:
        subs = "subroutines:\n  - [end_the_run]\n" if card.type == "ice" else ""
        (into / f"{card.id}.yaml").write_text(SYNTHETIC.format(id=card.id, name=json.dumps(card.title), subs=subs),
                                              encoding="utf-8")
    return len(pool.cards)


def one(case: str, folder: Path, nrdb: Path) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", WORKER, case, str(folder), str(nrdb)], check=True,
                         capture_output=True, text=True, cwd=PROJECT)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def measure(nrdb: Path, cards_dir: Path, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="judgebook-pool-") as tmp:
        synthetic_pool(nrdb, Path(tmp))
        cases = {"pool": cards_dir, "full pool": Path(tmp), "today": PROJECT / "rules_source" / "cards"}
        runs: dict[str, list[dict[str, Any]]] = {c: [] for c in cases}
        for r in range(rounds + 1):                  # the first round warms the disk cache up
            print(f"round {r}/{rounds}", file=sys.stderr)
            for case, folder in cases.items():
                got = one(case, folder, nrdb)
                if r:
                    runs[case].append(got)
    return {case: {"cards": rs[0]["cards"], "load_s": statistics.median(x["load_s"] for x in rs),
                   "load_cpu_s": statistics.median(x["load_cpu_s"] for x in rs),
                   "import_s": statistics.median(x["import_s"] for x in rs),
                   "per_card_ms": 1000 * statistics.median(x["load_s"] for x in rs) / max(rs[0]["cards"], 1)}
            for case, rs in runs.items()}


def main() -> int:
    from judgebook.cards.definitions import default_dir
    from judgebook.config import card_data

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nrdb", type=Path, default=None, help="netrunner-cards-json (default: build --with's)")
    ap.add_argument("--cards-dir", type=Path, default=default_dir())
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    nrdb = args.nrdb or card_data() or PROJECT.parent / "shared" / "corpora" / "netrunner-cards-json"
    result = measure(nrdb, args.cards_dir, args.rounds)
    if args.json:
        print(json.dumps({"goal_s": GOAL_S, "cases": result}, indent=1))
        return 0
    print(f"{'case':<10}{'cards':>7}{'load s':>9}{'CPU s':>8}{'ms/card':>9}{'imports s':>11}")
    for case, r in result.items():
        print(f"{case:<10}{r['cards']:>7}{r['load_s']:>9.3f}{r['load_cpu_s']:>8.3f}{r['per_card_ms']:>9.2f}"
              f"{r['import_s']:>11.3f}")
    today = result["today"]
    for case in ("pool", "full pool"):
        r = result[case]
        verdict = "met" if r["load_s"] <= GOAL_S else "NOT met"
        print(f"{case}: {r['cards']} definitions in {r['load_s']:.3f} s ({r['load_cpu_s']:.3f} s CPU), "
              f"goal ≤ {GOAL_S} s: {verdict}; today's 86: {today['load_s']:.3f} s ({today['load_cpu_s']:.3f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
