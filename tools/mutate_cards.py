"""Mutation testing of the card pool: does any shipped scenario notice a wrong definition?

Each Standard definition (`rules_source/cards/standard/*.yaml`) gets single meaning-changing edits (a mutant):
drop or add "may" (`optional`), drop `if_able` / `up_to`; drop or change a once-per limit or a "first time"
condition; flip a player, side or controller; drop a filter (subtype, card type, zone, server, rezzed,
installed, ...); change a number by one; change a trigger, a duration, a server or install destination, a
zone moved to. Every shipped scenario that names the card is replayed with the mutant substituted in-process
(the loader's raw-node cache holds the mutant; nothing is written to disk). A mutant is *killed* when some
scenario's verdict (its `expect` differences, or the error that stopped it) differs from the verdict with the
shipped definition; a mutant no scenario notices *survives*: a hole in what pins the card down. A mutant that
no longer loads is *invalid* and reported apart (neither killed nor survived). A card no scenario names is
*unverified*.

A benchmark-style report, not a test: `make bench-mutation`, or
    python tools/mutate_cards.py [--cards NAME ...] [--sample N] [--limit N] [--json]
Progress goes to stderr, the report to stdout.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judgebook.engine.driver.script import check, replay  # noqa: E402
from judgebook.engine.errors import EngineLimit, ScenarioError  # noqa: E402
from judgebook.engine.language import cards as card_language  # noqa: E402
from judgebook.engine.language.nodes import At  # noqa: E402
from judgebook.engine.language.nrdb import card_source, parse_with_stats  # noqa: E402
from judgebook.engine.scenario.load import load_scenario  # noqa: E402

LIBRARY = ROOT / "rules_source" / "cards" / "standard"
SCENARIOS = ROOT / "rules_source" / "scenarios" / "standard"
CARDS_ROOT = ROOT.parent / "shared" / "corpora" / "netrunner-cards-json"

# The kinds of mutation, in report order.
KINDS = ("may", "if_able", "up_to", "once", "side", "filter", "number", "trigger", "duration", "server", "zone_to")

FLIP = {"you": "opponent", "opponent": "you", "corp": "runner", "runner": "corp"}
SIDE_KEYS = ("side", "player", "by", "deck", "shuffle", "turn_of", "cards_in_hand", "score_area", "used_by",
             "tags", "credits", "clicks", "bad_publicity", "agenda_points")
FILTER_KEYS = ("subtype", "not_subtype", "type", "zone", "server", "rezzed", "installed", "protecting",
               "in_server", "faceup", "tagged", "other", "hosted_on", "ice_subtype", "from_zone")
NUMBER_SKIP = ("id", "line", "influence")
TRIGGERS = ("turn_begins", "turn_ends", "scored", "stolen", "installed", "rezzed", "successful_run", "run_begins",
            "run_ends", "encounter_ice", "pass_ice", "access", "trashed", "played")
DURATIONS = {"run": "turn", "turn": "run", "encounter": "run", "until_your_next_turn_begins": "turn",
             "until_end_of_opponent_next_turn": "turn", "until_end_of_your_next_turn": "turn"}
SERVERS = ("HQ", "R&D", "Archives", "remote", "this", "any", "another", "attacked", "new_remote")
ZONES_TO = ("hand", "deck", "discard", "removed", "score", "top", "bottom")
SERVER_KEYS = ("server", "run", "run_on", "protecting", "install_on", "in_server", "into", "where")


def set_cards_root(path: Path) -> None:
    global CARDS_ROOT
    CARDS_ROOT = path.resolve()


@dataclass
class Mutant:
    card: str
    kind: str
    path: str
    change: str
    status: str = ""          # killed / survived / invalid / unverified
    killed_by: str = ""


@dataclass
class CardReport:
    name: str
    type: str
    file: str
    scenarios: list[str] = field(default_factory=list)
    mutants: list[Mutant] = field(default_factory=list)


def _rotate(values: tuple[str, ...], current: str) -> str:
    return values[(values.index(current) + 1) % len(values)]


def _edits(node: Any, path: str = "") -> Iterator[tuple[str, str, str, Any]]:
    """(kind, path, change, replacement-maker) for every single edit within `node`; the maker takes the parent
    mapping and the key and changes it in place."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            yield from _edits(item, f"{path}[{i}]")
        return
    if not isinstance(node, dict):
        return
    for key, value in list(node.items()):
        here = f"{path}.{key}" if path else str(key)
        if key in ("name", "text", "id", "undefined", "partial", "note", "source"):
            continue
        if key == "optional" and value is True:
            yield "may", here, "drop optional (may → must)", ("drop", key)
        elif key == "if_able":
            yield "if_able", here, "drop if_able", ("drop", key)
        elif isinstance(value, dict) and list(value) == ["up_to"] and isinstance(value["up_to"], int):
            yield "up_to", here, f"{key}: up to {value['up_to']} → exactly {value['up_to']}", \
                ("set", key, value["up_to"])
        elif key == "once_per":
            yield "once", here, "drop the once-per limit", ("drop", key)
            if isinstance(value, str):
                other = "run" if value != "run" else "turn"
                yield "once", here, f"once per {value} → once per {other}", ("set", key, other)
        elif key.startswith("first_this") or key == "first_time":
            yield "once", here, f"drop {key} (the first time)", ("drop", key)
        elif key in SIDE_KEYS and isinstance(value, str) and value in FLIP:
            yield "side", here, f"{key}: {value} → {FLIP[value]}", ("set", key, FLIP[value])
        elif key == "trigger" and isinstance(value, str):
            new = _rotate(TRIGGERS, value) if value in TRIGGERS else "turn_begins"
            yield "trigger", here, f"trigger {value} → {new}", ("set", key, new)
        elif key == "duration" and isinstance(value, str) and value in DURATIONS:
            yield "duration", here, f"duration {value} → {DURATIONS[value]}", ("set", key, DURATIONS[value])
        elif key == "to" and isinstance(value, str) and value in ZONES_TO:
            new = _rotate(ZONES_TO, value)
            yield "zone_to", here, f"to {value} → {new}", ("set", key, new)
        if key in SERVER_KEYS and isinstance(value, str) and value in SERVERS:
            new = _rotate(SERVERS, value)
            yield "server", here, f"{key} {value} → {new}", ("set", key, new)
        if key in FILTER_KEYS and not isinstance(value, dict | list) and key not in ("side",):
            yield "filter", here, f"drop the filter {key}: {value}", ("drop", key)
        if isinstance(value, int) and not isinstance(value, bool) and key not in NUMBER_SKIP:
            yield "number", here, f"{key}: {value} → {value + 1}", ("set", key, value + 1)
            if value > 0:
                yield "number", here, f"{key}: {value} → {value - 1}", ("set", key, value - 1)
        if isinstance(value, dict | list):
            yield from _edits(value, here)
    if "trigger" in node and "optional" not in node:
        yield "may", path + ".optional", "add optional (must → may)", ("set", "optional", True)


def _locate(root: Any, path: str) -> tuple[Any, str]:
    """The mapping holding the last key of `path`, and that key."""
    parts: list[str | int] = []
    for piece in path.replace("[", ".[").split("."):
        if not piece:
            continue
        parts.append(int(piece[1:-1]) if piece.startswith("[") else piece)
    node = root
    for part in parts[:-1]:
        node = node[part]
    return node, str(parts[-1])


def mutants_of(node: Any) -> Iterator[tuple[str, str, str, Any]]:
    """(kind, path, change, mutated node) for each single edit of a definition node; the node is not changed."""
    for kind, path, change, op in _edits(node):
        mutant = copy.deepcopy(node)
        holder, _ = _locate(mutant, path)
        if op[0] == "drop":
            del holder[op[1]]
        else:
            holder[op[1]] = op[2]
        yield kind, path, change, mutant


def scenarios_naming(name: str, texts: dict[Path, str]) -> list[Path]:
    """The scenarios that name the card: its whole title, not a word of a longer one ("Extract" is not named by
    "Ob Superheavy Logistics: Extract. Export. Excel.")."""
    title = re.compile(r"(?<![\w.:-])" + re.escape(name) + r"(?![\w.:-])")
    return [p for p, text in texts.items() if title.search(text)]


def verdict(path: Path) -> str:
    """What a scenario's replay comes to: its `expect` differences, or what stopped it."""
    try:
        sc = load_scenario(path, LIBRARY, CARDS_ROOT)
        out = replay(sc)
        diffs = check(sc, out)
    except (ScenarioError, EngineLimit) as exc:
        return f"{type(exc).__name__}: {exc}"
    except Exception as exc:    # an engine crash on a mutant is a noticed mutant, not a tool failure
        return f"crash {type(exc).__name__}: {exc}"
    return "\n".join(diffs) or "met"


class Substitute:
    """The loader's raw nodes for one definition file replaced by a mutant while in the `with` block."""

    def __init__(self, file: Path, node: Any) -> None:
        self.key = (str(file), file.stat().st_mtime)
        self.node = node
        self.saved: Any = None

    def __enter__(self) -> None:
        raw = card_language._RAW
        self.saved = raw.get(self.key)
        raw[self.key] = [self.node]

    def __exit__(self, *exc: object) -> None:
        if self.saved is None:
            card_language._RAW.pop(self.key, None)
        else:
            card_language._RAW[self.key] = self.saved


def run_card(file: Path, texts: dict[Path, str], limit: int | None, rng: random.Random) -> CardReport | None:
    items = card_language.library_items(file)
    if len(items) != 1 or not isinstance(items[0], dict) or card_language.undefined_reason(items[0]) is not None:
        return None
    node = items[0]
    source = card_source(CARDS_ROOT)
    card = parse_with_stats(node, source, At("card", 1), str(file))
    report = CardReport(card.name, card.type, file.name)
    found = scenarios_naming(card.name, texts)
    report.scenarios = [p.name for p in found]
    baseline = {p: verdict(p) for p in found}
    edits = list(mutants_of(node))
    if limit is not None and len(edits) > limit:
        edits = sorted(rng.sample(edits, limit), key=lambda e: edits.index(e))
    for kind, path, change, mutant in edits:
        m = Mutant(card.name, kind, path, change)
        report.mutants.append(m)
        try:
            parse_with_stats(mutant, source, At("card", 1), str(file))
        except ScenarioError:
            m.status = "invalid"
            continue
        if not found:
            m.status = "unverified"
            continue
        m.status = "survived"
        with Substitute(file, mutant):
            for p in found:
                if verdict(p) != baseline[p]:
                    m.status, m.killed_by = "killed", p.name
                    break
    return report


def stratified(files: list[Path], n: int, seed: int) -> list[Path]:
    """`n` definition files, drawn in proportion to card type (seeded)."""
    source = card_source(CARDS_ROOT)
    by_type: dict[str, list[Path]] = defaultdict(list)
    for f in files:
        items = card_language.library_items(f)
        stats = source.by_id.get(str(items[0].get("id"))) if items and isinstance(items[0], dict) else None
        by_type[stats.type if stats else "other"].append(f)
    rng = random.Random(seed)
    picked: list[Path] = []
    total = len(files)
    for kind in sorted(by_type):
        group = by_type[kind]
        take = max(1, round(n * len(group) / total))
        picked += rng.sample(group, min(take, len(group)))
    return sorted(picked)[:n] if len(picked) > n else sorted(picked)


def share(counter: Counter[str]) -> str:
    k, s = counter["killed"], counter["survived"]
    return f"{k}/{k + s} killed ({100 * k / (k + s):.0f} %)" if k + s else "no mutant replayed"


def summary(reports: list[CardReport], seconds: float, pool: int) -> dict[str, Any]:
    mutants = [m for r in reports for m in r.mutants]
    overall: Counter[str] = Counter(m.status for m in mutants)
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    by_type: dict[str, Counter[str]] = defaultdict(Counter)
    types = {r.name: r.type for r in reports}
    for m in mutants:
        by_kind[m.kind][m.status] += 1
        by_type[types[m.card]][m.status] += 1
    return {
        "cards": len(reports), "pool": pool, "seconds": round(seconds, 1),
        "projected_pool_seconds": round(seconds * pool / max(1, len(reports))),
        "overall": dict(overall),
        "by_kind": {k: dict(by_kind[k]) for k in KINDS if k in by_kind},
        "by_type": {t: dict(c) for t, c in sorted(by_type.items())},
        "unverified_cards": sorted(r.name for r in reports if not r.scenarios),
        "survivors": [asdict(m) for m in mutants if m.status == "survived"],
    }


def render(s: dict[str, Any]) -> str:
    lines = [f"Mutation testing: {s['cards']} of {s['pool']} Standard definitions, {s['seconds']} s "
             f"(whole pool projected {s['projected_pool_seconds']} s)",
             f"overall: {share(Counter(s['overall']))}; invalid {s['overall'].get('invalid', 0)}, "
             f"unverified {s['overall'].get('unverified', 0)} (cards no scenario names: {len(s['unverified_cards'])})",
             "", "by kind of mutation:"]
    lines += [f"  {k:10} {share(Counter(c))}" for k, c in s["by_kind"].items()]
    lines += ["", "by card type:"]
    lines += [f"  {t:10} {share(Counter(c))}" for t, c in s["by_type"].items()]
    lines += ["", f"survivors ({len(s['survivors'])}):"]
    lines += [f"  {m['card']}: {m['kind']}: {m['change']} (at {m['path']})" for m in s["survivors"]]
    if s["unverified_cards"]:
        lines += ["", "unverified (no scenario names them): " + ", ".join(s["unverified_cards"])]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", nargs="+", metavar="NAME", help="only these cards (by printed title)")
    ap.add_argument("--sample", type=int, help="a sample of N definitions stratified by card type")
    ap.add_argument("--seed", type=int, default=20, help="the sample's and --limit's seed")
    ap.add_argument("--limit", type=int, help="at most N mutants per card (drawn with the seed)")
    ap.add_argument("--json", action="store_true", help="the report as JSON")
    ap.add_argument("--cards-root", type=Path, help=f"the netrunner-cards-json checkout (default {CARDS_ROOT})")
    args = ap.parse_args(argv)
    if args.cards_root is not None:
        set_cards_root(args.cards_root)
    if not CARDS_ROOT.is_dir():
        print(f"mutate_cards: no NetrunnerDB checkout at {CARDS_ROOT}", file=sys.stderr)
        return 2
    files = sorted(LIBRARY.glob("*.yaml"))
    pool = len(files)
    if args.cards:
        wanted = set(args.cards)
        files = [f for f in files if any(isinstance(i, dict) and str(i.get("name")) in wanted
                                         for i in card_language.library_items(f))]
        missing = wanted - {str(card_language.library_items(f)[0].get("name")) for f in files}
        if missing:
            print(f"mutate_cards: no Standard definition named {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
    elif args.sample:
        files = stratified(files, args.sample, args.seed)
    texts = {p: p.read_text(encoding="utf-8") for p in sorted(SCENARIOS.glob("*.yaml"))}
    rng = random.Random(args.seed)
    reports: list[CardReport] = []
    t0 = time.monotonic()
    for i, f in enumerate(files, 1):
        report = run_card(f, texts, args.limit, rng)
        if report is not None:
            reports.append(report)
            c = Counter(m.status for m in report.mutants)
            print(f"[{i}/{len(files)}] {report.name}: {len(report.scenarios)} scenarios, {share(c)}, "
                  f"invalid {c['invalid']} ({time.monotonic() - t0:.0f} s)", file=sys.stderr)
    s = summary(reports, time.monotonic() - t0, pool)
    print(json.dumps(s, indent=1) if args.json else render(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
