"""Engine benchmark (not a test): the rebuilt engine (judgebook.game) against the old one (judgebook.engine),
measured in the same run over the same scenarios.

    .venv/bin/python bench/engine.py [--budget SECONDS] [--rounds N] [--json]

Scenarios: tests/game/*.yaml and rules_source/scenarios/**/*.yaml. The old engine reads each file as it is;
the new engine reads its migrated twin under rules_source/next/scenarios/ when there is one (the card
language changed), else the file itself. Each engine's counts are reported (loaded, replayed to an outcome,
replayed as the scenario's `expect` says); the timings use the scenarios both engines replay as expected.

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


def scenario_files() -> dict[str, tuple[Path, Path]]:
    """name -> (file for the old engine, file for the new one)."""
    files = sorted((PROJECT / "tests" / "game").glob("*.yaml"))
    files += sorted((PROJECT / "rules_source" / "scenarios").glob("**/*.yaml"))
    nxt = PROJECT / "rules_source" / "next" / "scenarios"
    out: dict[str, tuple[Path, Path]] = {}
    for f in files:
        twin = nxt / f.relative_to(PROJECT / "rules_source" / "scenarios") if "rules_source" in f.parts else f
        out[str(f.relative_to(PROJECT))] = (f, twin if twin.is_file() else f)
    return out


# --- the two engines behind one shape -------------------------------------------

def old_load(path: Path) -> Any:
    from judgebook.engine import load_scenario
    return load_scenario(path)


def old_replay(sc: Any) -> list[str]:
    """Replay; the differences from `expect` (an illegal decision is an outcome: the check judges it)."""
    from judgebook.engine import IllegalDecision, check_expectations, replay
    try:
        return check_expectations(sc, replay(sc))
    except IllegalDecision as exc:
        return check_expectations(sc, None, exc)


def new_load(path: Path) -> Any:
    from judgebook.game.scenario.load import load
    return load(path)


def new_replay(sc: Any) -> list[str]:
    from judgebook.game.driver.script import check, replay
    return check(sc, replay(sc))


ENGINES: dict[str, tuple[Callable[[Path], Any], Callable[[Any], list[str]]]] = {
    "old": (old_load, old_replay), "new": (new_load, new_replay)}


def load_all(engine: str, files: dict[str, tuple[Path, Path]]) -> tuple[Loaded, float]:
    load, replay = ENGINES[engine]
    got = Loaded(engine)
    t0 = time.perf_counter()
    for name, pair in files.items():
        try:
            got.scenarios[name] = load(pair[0] if engine == "old" else pair[1])
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
    """Time each `choices` + `advance` call the scripted replay makes (the driver's own module global)."""
    from judgebook.game.driver import script
    from judgebook.game.driver.choice import Decision
    from judgebook.game.driver.step import choices
    from judgebook.game.state.model import Game, Step

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


def measure(budget: float, max_rounds: int) -> dict[str, Any]:
    files = scenario_files()
    print(f"{len(files)} scenario files; loading with both engines", file=sys.stderr)
    old, old_parse = load_all("old", files)
    new, new_parse = load_all("new", files)
    common = sorted(old.as_expected & new.as_expected)
    old_sc = [old.scenarios[n] for n in common]
    new_sc = [new.scenarios[n] for n in common]
    if not common:
        return {"common": 0}
    print(f"{len(common)} scenarios both engines replay as expected; timing rounds (budget {budget:.0f} s)",
          file=sys.stderr)
    replay_round("old", old_sc), replay_round("new", new_sc)          # warm-up: imports, caches
    load_before = os.getloadavg()[0]
    rounds: dict[str, list[float]] = {"old": [], "new": [], "old_cpu": [], "new_cpu": []}
    steps: list[float] = []
    steps_cpu: list[float] = []
    started = time.perf_counter()
    while len(rounds["new"]) < max_rounds and (len(rounds["new"]) < 3 or time.perf_counter() - started < budget):
        for engine, scenarios in (("old", old_sc), ("new", new_sc)):
            wall, cpu = replay_round(engine, scenarios)
            rounds[engine].append(wall)
            rounds[f"{engine}_cpu"].append(cpu)
        with timed_steps(steps, steps_cpu):
            replay_round("new", new_sc)
        print(f"  round {len(rounds['new'])}: old {rounds['old'][-1]:.3f} s, new {rounds['new'][-1]:.3f} s "
              f"(CPU {rounds['old_cpu'][-1]:.3f} / {rounds['new_cpu'][-1]:.3f})", file=sys.stderr)
    med = {k: statistics.median(v) for k, v in rounds.items()}
    return {
        "scenario_files": len(files),
        "engines": {e.engine: {"loaded": len(e.scenarios), "replayed": len(e.replayed),
                               "as_expected": len(e.as_expected), "failed_load": e.failed_load,
                               "failed_replay": e.failed_replay,
                               "not_as_expected": sorted(set(e.replayed) - e.as_expected)}
                    for e in (old, new)},
        "common": len(common),
        "rounds": len(rounds["new"]),
        "parse_all_s": {"old": old_parse, "new": new_parse, "ratio": new_parse / old_parse},
        "replay_all_s": {"old": med["old"], "new": med["new"], "ratio": med["new"] / med["old"]},
        "replay_all_cpu_s": {"old": med["old_cpu"], "new": med["new_cpu"], "ratio": med["new_cpu"] / med["old_cpu"]},
        "replay_all_fastest_s": {"old": min(rounds["old"]), "new": min(rounds["new"]),
                                 "ratio": min(rounds["new"]) / min(rounds["old"])},
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
        f"timed: the {r['common']} scenarios both replay as expected; medians of {r['rounds']} rounds",
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
    args = ap.parse_args()
    if args.rounds < 3 or args.budget <= 0:
        print("bench/engine.py: --rounds is 3 or more and --budget positive", file=sys.stderr)
        return 2
    result = measure(args.budget, args.rounds)
    if result["common"] == 0:
        print("bench/engine.py: no scenario replays as expected on both engines", file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(result, indent=1) + "\n" if args.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
