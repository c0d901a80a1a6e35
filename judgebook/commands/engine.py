"""`judgebook engine rules`: the rule map (issue 19 §2), which rules of CR 26.03 the replay engine enforces.

Each anchor of chapters 1-10 and the timing appendix is `enforced` (the engine modules that enforce it, and
shipped scenarios whose timelines cite it), `no-behaviour` (a heading or reading aid) or `not-yet` (with what
is missing). The data is `judgebook/engine/rule_map.toml`; `--json` gives `{rules, counts, chapters}`.
"""
from __future__ import annotations

import json
import sys
from typing import Any

HELP = "the replay engine's knowledge of the rules"
RULES_HELP = "which rules of CR 26.03 the replay engine enforces, which have no behaviour, which not yet"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("engine", help=HELP, description=HELP)
    sub = p.add_subparsers(dest="engine_command", metavar="WHAT")
    rules = sub.add_parser("rules", help=RULES_HELP, description=RULES_HELP)
    rules.add_argument("--json", action="store_true", help="structured output")
    rules.add_argument("--status", choices=("enforced", "no-behaviour", "not-yet"),
                       help="only the rules with this status (counts stay those of the whole map)")
    rules.set_defaults(func=run_rules)
    p.set_defaults(func=lambda _args: _usage(p))


def _usage(parser: Any) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_rules(args: Any) -> int:
    from judgebook.linking.rule_map import RuleMapError, rule_map

    try:
        whole = rule_map()
    except (RuleMapError, OSError) as exc:
        print(f"judgebook engine rules: {exc}", file=sys.stderr)
        return 1
    shown = whole.only(args.status)
    if args.json:
        out = shown.as_json()
        out["counts"] = whole.counts()
        out["chapters"] = whole.as_json()["chapters"]
        json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        text = shown.as_text()
        if args.status is not None:
            counts = whole.counts()
            text += "whole map: " + ", ".join(f"{n} {s}" for s, n in counts.items()) + "\n"
        sys.stdout.write(text)
    return 0
