"""`judgebook search QUERY`: ranked sections, as text or JSON.

Kept light: the search package (and Whoosh) are imported in `run` only, and
nothing else of judgebook is but the scenario titles' reader (each shipped
scenario's `title:` line matched against the query), so a one-shot query starts fast.
"""
from __future__ import annotations

import argparse
import json
import sys

HELP = "search every loaded document (rule numbers, terms, card names)"


def register(subparsers) -> None:
    p = subparsers.add_parser("search", help=HELP, description=HELP)
    p.add_argument("query", nargs="+", help="words, \"a phrase\", -excluded, doc:/era:/kind: filters")
    p.add_argument("--limit", type=int, default=10, metavar="N", help="at most N results (default 10)")
    p.add_argument("--json", action="store_true", help="print a JSON list of results")
    p.add_argument("--doc", action="append", default=[], metavar="KEY", help="only this document")
    p.add_argument("--era", action="append", default=[], metavar="ERA", help="only this era")
    p.add_argument("--kind", action="append", default=[], metavar="KIND", help="only this kind")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judgebook.search.api import search

    index_dir = _index_dir(args)
    filters = {k: v for k, v in (("doc", args.doc), ("era", args.era), ("kind", args.kind)) if v}
    response = search(" ".join(args.query), limit=args.limit, filters=filters or None,
                      index_dir=index_dir)
    if args.json:
        # A list of results, as always; a rule the question bank put there carries the bank's answer.
        answer = response.answer.to_json() if response.answer is not None else None
        rows = [h.to_json() | ({"answer": answer} if answer and h.answers else {}) for h in response.results]
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        if response.message:
            print(response.message, file=sys.stderr)
        return 0
    print(render(response))
    found = scenarios(" ".join(args.query))
    if found:
        print("\nScenarios (judgebook replay FILE):")
        print("\n".join(f"  {ref.title}  rules_source/scenarios/{ref.path}" for ref in found))
    return 0


def scenarios(query: str) -> list:
    """The shipped scenarios whose titles match (read lazily: most queries are about rules)."""
    from judgebook.store.paths import project_root
    from judgebook.store.scenario_refs import search, titles

    return search(titles(project_root() / "rules_source" / "scenarios"), query)


def _index_dir(args: argparse.Namespace):
    if not getattr(args, "index", None):
        return None
    from judgebook.store import paths
    try:
        return paths.current_generation(args.index) / paths.WHOOSH
    except FileNotFoundError:
        return args.index


def _untitled(hit) -> str:
    """A ruling or example has no title of its own: name it by what it belongs to."""
    if hit.breadcrumb:
        return f"{hit.kind} on {hit.breadcrumb[-1][1]}"
    return hit.id


def render(response) -> str:
    lines = []
    if response.message:
        lines.append(response.message)
    if response.did_you_mean:
        lines.append(f"Did you mean: {response.did_you_mean}")
    if response.answer is not None:
        a = response.answer
        lines.append(f"Answer (close to \u201c{a.question}\u201d): {a.text}")
        lines.append("  decided by " + ", ".join(" ".join(p for p in (c.id.split(":")[0], c.number, c.title) if p)
                                                 for c in a.rules))
        lines.append("")
    for i, h in enumerate(response.results, 1):
        head = " ".join(p for p in (h.number, h.title) if p) or _untitled(h)
        lines.append(f"{i:2}. {head}  [{h.doc}]  {h.id}")
        crumbs = " › ".join(label for _, label in h.breadcrumb)
        if crumbs:
            lines.append(f"    {crumbs}")
        if h.snippet_text:
            lines.append(f"    {h.snippet_text}")
    if not response.results and not response.message:
        lines.append("No results.")
    return "\n".join(lines)
