"""Engine benchmark (not a test): the rebuilt engine (judgebook.engine) against the old one, measured in the
same run over the same worked examples.

    .venv/bin/python bench/engine.py [--baseline REV] [--budget SECONDS] [--rounds N] [--json]

The old engine was removed from the tree when the rebuilt one replaced it; the benchmark takes it (and the
scenarios and card library as they were written for it) from git at `--baseline` (default: the last commit
with the old engine), unpacks them into a temporary folder and imports them in a child process — the two
engines are both the package `judgebook`, so they cannot share one. Scenarios: the new engine reads
tests/game/*.yaml and rules_source/scenarios/**/*.yaml, the old one its own rules_source/scenarios/*.yaml;
the timings use the scenarios (by file name) both replay as expected.

Measured, after one warm-up round:
  - replaying all those scenarios once (parsing excluded; parsing all of them is timed apart), old and new,
    rounds interleaved, the median round reported;
  - the new engine per step: each `choices` + `advance` call a scripted replay makes, timed alone, over
    every step of every scenario in the rounds (median, p95, max).
Ratios are new / old. Goals (issue 8): replaying all scenarios under 1 s, p95 per step under 5 ms.
Progress goes to stderr, the table (or --json) to stdout.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

GOAL_ALL_S = 1.0
GOAL_P95_MS = 5.0


@dataclass
class Loaded:
    """One engine's view of the scenario set: what it parsed, what it replayed, and how."""
    engine: str
    scenarios: dict[str, Any] = field(default_factory=dict)       # name -> parsed scenario
    failed_load: dict[str, str] = field(default_factory=dict)
    replayed: set[str] = field(default_factory=set)               # ran to an outcome
    as_expected: set[str] = field(default_factory=set)            # and the outcome is the `expect`
    failed_replay: dict[str, str] = field(default_factory=dict)


BASELINE = "796c604"   # the last commit with the old engine (judgebook/engine/game.py and its mixins)


def scenario_files(old_root: Path) -> dict[str, tuple[Path, Path]]:
    """name -> (file for the old engine, file for the new one)."""
    files = sorted((PROJECT / "tests" / "game").glob("*.yaml"))
    # The worked examples only: the scenarios of real/ and standard/ take their statistics from NetrunnerDB
    # and have no counterpart in the old engine (bench/table.py and the pool tests time those).
    files += sorted((PROJECT / "rules_source" / "scenarios").glob("*.yaml"))
    out: dict[str, tuple[Path, Path]] = {}
    for f in files:
        rel = f.relative_to(PROJECT)
        out[str(rel)] = (old_root / rel, f)
    return out


def unpack_baseline(rev: str, into: Path) -> None:
    """The old engine, scenarios and cards as they were at `rev`, from git (nothing is fetched)."""
    import subprocess
    import tarfile
    from io import BytesIO

    blob = subprocess.run(["git", "-C", str(PROJECT), "archive", "--format=tar", rev, "judgebook", "rules_source"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")


OLD_WORKER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from judgebook.engine import IllegalDecision, check_expectations, load_scenario, replay
names, rounds = json.loads(sys.argv[2]), int(sys.argv[3])
def run(sc):
    try:
        return check_expectations(sc, replay(sc))
    except IllegalDecision as exc:
        return check_expectations(sc, None, exc)
t0 = time.perf_counter()
loaded = {}
for n in names:
    try:
        loaded[n] = load_scenario(Path(sys.argv[1]) / n)
    except Exception:
        pass
parse_s = time.perf_counter() - t0
ok = [n for n, sc in loaded.items() if not run(sc)]
walls, cpus = [], []
for _ in range(rounds + 1):                       # the first round warms up
    w, c = time.perf_counter(), time.process_time()
    for n in ok:
        run(loaded[n])
    walls.append(time.perf_counter() - w)
    cpus.append(time.process_time() - c)
print(json.dumps({"parse_s": parse_s, "loaded": list(loaded), "as_expected": ok,
                  "walls": walls[1:], "cpus": cpus[1:]}))
"""


def old_engine(root: Path, names: list[str], rounds: int) -> dict[str, Any]:
    import subprocess
    out = subprocess.run([sys.executable, "-c", OLD_WORKER, str(root), json.dumps(names), str(rounds)],
                         check=True, capture_output=True, text=True, cwd=root)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


# --- the two engines behind one shape -------------------------------------------

def new_load(path: Path) -> Any:
    from judgebook.engine.scenario.load import load
    return load(path)


def new_replay(sc: Any) -> list[str]:
    from judgebook.engine.driver.script import check, replay
    return check(sc, replay(sc))


ENGINES: dict[str, tuple[Callable[[Path], Any], Callable[[Any], list[str]]]] = {"new": (new_load, new_replay)}


def load_all(engine: str, files: dict[str, tuple[Path, Path]]) -> tuple[Loaded, float]:
    load, replay = ENGINES[engine]
    got = Loaded(engine)
    t0 = time.perf_counter()
    for name, pair in files.items():
        try:
            got.scenarios[name] = load(pair[1])
        except Exception as exc:  # a scenario this engine cannot read is counted, not fatal
            got.failed_load[name] = f"{type(exc).__name__}: {exc}"
    parse_s = time.perf_counter() - t0
    for name, sc in got.scenarios.items():
        try:
            diffs = replay(sc)
        except Exception as exc:
            got.failed_replay[name] = f"{type(exc).__name__}: {exc}"
            continue
        got.replayed.add(name)
        if not diffs:
            got.as_expected.add(name)
    return got, parse_s


def replay_round(engine: str, scenarios: list[Any]) -> tuple[float, float]:
    """Wall-clock and CPU seconds for replaying every scenario once (CPU time shows through a busy machine)."""
    replay = ENGINES[engine][1]
    t0, c0 = time.perf_counter(), time.process_time()
    for sc in scenarios:
        replay(sc)
    return time.perf_counter() - t0, time.process_time() - c0


@contextmanager
def timed_steps(samples: list[float], cpu: list[float]) -> Iterator[None]:
    """Time each `choices` + `advance` call the scripted replay makes (the session driver's module global: the
    replay, `play` and the table all step through driver/session.py)."""
    from judgebook.engine.driver import session as script
    from judgebook.engine.driver.step import choices
    from judgebook.engine.state.choice import Decision
    from judgebook.engine.state.model import Game, Step

    real = script.advance

    def advance(g: Game, choice: Decision | None = None, how: str = "chosen") -> tuple[Game, tuple[Step, ...]]:
        t0, c0 = time.perf_counter(), time.process_time()
        choices(g)
        result = real(g, choice, how)
        samples.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        return result

    script.advance = advance
    try:
        yield
    finally:
        script.advance = real


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: the smallest value with at least p% of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def measure(budget: float, max_rounds: int, baseline: str) -> dict[str, Any]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="judgebook-baseline-") as tmp:
        root = Path(tmp)
        print(f"unpacking the old engine at {baseline} from git", file=sys.stderr)
        unpack_baseline(baseline, root)
        files = scenario_files(root)
        print(f"{len(files)} scenario files; loading with the new engine", file=sys.stderr)
        new, new_parse = load_all("new", files)
        old_names = [n for n, (old_file, _) in files.items() if old_file.is_file()]
        rounds_wanted = max_rounds
        print(f"the old engine: {len(old_names)} scenarios, {rounds_wanted} rounds, in a child process",
              file=sys.stderr)
        old = old_engine(root, old_names, rounds_wanted)
    common = sorted(set(old["as_expected"]) & new.as_expected)
    if not common:
        return {"common": 0}
    new_sc = [new.scenarios[n] for n in common]
    print(f"{len(common)} scenarios both engines replay as expected; timing the new engine "
          f"(budget {budget:.0f} s)", file=sys.stderr)
    replay_round("new", new_sc)                                        # warm-up: imports, caches
    load_before = os.getloadavg()[0]
    rounds: dict[str, list[float]] = {"new": [], "new_cpu": []}
    steps: list[float] = []
    steps_cpu: list[float] = []
    started = time.perf_counter()
    while len(rounds["new"]) < max_rounds and (len(rounds["new"]) < 3 or time.perf_counter() - started < budget):
        wall, cpu = replay_round("new", new_sc)
        rounds["new"].append(wall)
        rounds["new_cpu"].append(cpu)
        with timed_steps(steps, steps_cpu):
            replay_round("new", new_sc)
        print(f"  round {len(rounds['new'])}: new {wall:.3f} s (CPU {cpu:.3f})", file=sys.stderr)
    # The old engine timed the scenarios it replays as expected; scale to the common set if they differ.
    share = len(common) / max(1, len(old["as_expected"]))
    med = {"old": statistics.median(old["walls"]) * share, "old_cpu": statistics.median(old["cpus"]) * share,
           "new": statistics.median(rounds["new"]), "new_cpu": statistics.median(rounds["new_cpu"])}
    old_counts = {"loaded": len(old["loaded"]), "replayed": len(old["loaded"]),
                  "as_expected": len(old["as_expected"]), "failed_load": {}, "failed_replay": {},
                  "not_as_expected": sorted(set(old["loaded"]) - set(old["as_expected"]))}
    return {
        "baseline": baseline,
        "scenario_files": len(files),
        "engines": {"old": old_counts,
                    "new": {"loaded": len(new.scenarios), "replayed": len(new.replayed),
                            "as_expected": len(new.as_expected), "failed_load": new.failed_load,
                            "failed_replay": new.failed_replay,
                            "not_as_expected": sorted(set(new.replayed) - new.as_expected)}},
        "common": len(common),
        "rounds": len(rounds["new"]),
        "parse_all_s": {"old": old["parse_s"], "new": new_parse, "ratio": new_parse / old["parse_s"]},
        "replay_all_s": {"old": med["old"], "new": med["new"], "ratio": med["new"] / med["old"]},
        "replay_all_cpu_s": {"old": med["old_cpu"], "new": med["new_cpu"], "ratio": med["new_cpu"] / med["old_cpu"]},
        "replay_all_fastest_s": {"old": min(old["walls"]) * share, "new": min(rounds["new"]),
                                 "ratio": min(rounds["new"]) / (min(old["walls"]) * share)},
        "step_ms": _spread(steps, len(rounds["new"])),
        "step_cpu_ms": _spread(steps_cpu, len(rounds["new"])),
        "goals": {"replay_all_under_1s": med["new"] < GOAL_ALL_S,
                  "p95_step_under_5ms": percentile(steps, 95) * 1e3 < GOAL_P95_MS,
                  "replay_all_under_1s_cpu": med["new_cpu"] < GOAL_ALL_S,
                  "p95_step_under_5ms_cpu": percentile(steps_cpu, 95) * 1e3 < GOAL_P95_MS},
        # wall-clock figures mean little on a busy machine: the load says how busy it was
        "load_average": {"before": load_before, "after": os.getloadavg()[0]},
    }


def _spread(samples: list[float], rounds: int) -> dict[str, float]:
    return {"per_round": len(samples) // rounds, "median": statistics.median(samples) * 1e3,
            "p95": percentile(samples, 95) * 1e3, "max": max(samples) * 1e3, "mean": statistics.fmean(samples) * 1e3}


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def table(r: dict[str, Any]) -> str:
    e, g = r["engines"], r["goals"]

    def row(label: str, key: str, digits: int = 3) -> str:
        v = r[key]
        return f"{label:<40}{v['old']:>10.{digits}f}{v['new']:>10.{digits}f}{v['ratio']:>10.2f}"

    rows = [
        f"scenario files: {r['scenario_files']}",
        *(f"  {name} engine: loaded {e[name]['loaded']}, replayed {e[name]['replayed']}, "
          f"as expected {e[name]['as_expected']}" for name in ("old", "new")),
        f"timed: the {r['common']} scenarios both replay as expected; medians of {r['rounds']} rounds "
        f"(old engine: git {r['baseline']}, in a child process)",
        "",
        f"{'measure':<40}{'old':>10}{'new':>10}{'new/old':>10}",
        row("parse all scenarios, first load (s)", "parse_all_s"),
        row("replay all scenarios, wall (s)", "replay_all_s"),
        row("replay all scenarios, CPU (s)", "replay_all_cpu_s"),
        row("replay all scenarios, fastest round (s)", "replay_all_fastest_s"),
        "",
        f"new engine, choices + advance per step ({r['step_ms']['per_round']} steps a round):",
        *(f"  {kind}: median {s['median']:.3f} ms, p95 {s['p95']:.3f} ms, max {s['max']:.3f} ms, "
          f"mean {s['mean']:.3f} ms" for kind, s in (("wall", r["step_ms"]), ("CPU ", r["step_cpu_ms"]))),
        "",
        f"goal: replay all under {GOAL_ALL_S:.0f} s: wall {_met(g['replay_all_under_1s'])} "
        f"({r['replay_all_s']['new']:.3f} s), CPU {_met(g['replay_all_under_1s_cpu'])} "
        f"({r['replay_all_cpu_s']['new']:.3f} s)",
        f"goal: p95 per step under {GOAL_P95_MS:.0f} ms: wall {_met(g['p95_step_under_5ms'])} "
        f"({r['step_ms']['p95']:.3f} ms), CPU {_met(g['p95_step_under_5ms_cpu'])} ({r['step_cpu_ms']['p95']:.3f} ms)",
        f"load average (1 min) before / after the rounds: {r['load_average']['before']:.1f} / "
        f"{r['load_average']['after']:.1f} ({os.cpu_count()} CPUs): wall figures are only as good as this",
    ]
    for name in ("old", "new"):
        for what in ("failed_load", "failed_replay"):
            for scen, why in sorted(e[name][what].items()):
                rows.append(f"  {name} {what.replace('_', ' ')}: {scen}: {why[:100]}")
        for scen in e[name]["not_as_expected"]:
            rows.append(f"  {name} replayed, not as expected: {scen}")
    return "\n".join(rows) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--budget", type=float, default=20.0, help="seconds of timed rounds at most (default 20)")
    ap.add_argument("--rounds", type=int, default=15, help="timed rounds at most (default 15; at least 3 run)")
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    ap.add_argument("--baseline", default=BASELINE, help=f"git revision of the old engine (default {BASELINE})")
    args = ap.parse_args()
    if args.rounds < 3 or args.budget <= 0:
        print("bench/engine.py: --rounds is 3 or more and --budget positive", file=sys.stderr)
        return 2
    result = measure(args.budget, args.rounds, args.baseline)
    if result["common"] == 0:
        print("bench/engine.py: no scenario replays as expected on both engines", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(result, indent=1) + "\n" if args.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
