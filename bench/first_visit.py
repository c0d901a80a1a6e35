"""First-visit benchmark (not a test, issue 10): what a judge's first page costs the server in a fresh process.

    .venv/bin/python bench/first_visit.py --index DIR [--json]

Each figure is measured in a new Python process (nothing kept in memory from another), once, wall and CPU:
- the builder's card catalog (`/replay/new/cards`: every definition of the library, statistics joined);
- a rule page citing scenarios (`/s/ID`) with no citation cache: every shipped scenario replayed (the
  first view after a change, before `judgebook build` computed them);
- the same page with the cache `judgebook build` writes into the index (the first view after a build);
- the same page again in that process (memory: the stamp of the files alone).
DIR is an index built with `judgebook build` (it holds the rule sections and the build's citation cache;
run `judgebook --index DIR build --if-stale` first: a cache from older files or code is computed again).

Figures (2026-11-25, 2 CPUs, load ~1.5; 344 shipped scenarios, 581 cards in the catalog), ms wall / CPU:
    before (commit 947536c: citations replayed on the first rule page after a server start unless a page
    had written the cache; stamps walked with pathlib)
        rule page, no citation cache              3188 / 2212   (the only case after a change)
        citation stamp per rule page view           18           catalog stamp per keystroke   6
    after (citations computed by `judgebook build`; stamps with os.scandir)
        builder card catalog, first request        207 / 204    (3 s in the brief: already gone)
        rule page, the cache the build wrote       102 / 102
        rule page, second view                     0.6 / 0.6
        citation stamp per rule page view            5           catalog stamp per keystroke   3
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]

# Run in the child: one app over the index, one timed request (then a second one when asked).
CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from judgebook.store.corpus import Corpus
from judgebook.web.app import create_app
from judgebook.web.searching import IndexSearcher
corpus = Corpus.load(sys.argv[2])
app = create_app(corpus, searcher=IndexSearcher(None))
client = app.test_client()
out = []
for _ in range(int(sys.argv[4])):
    t, c = time.perf_counter(), time.process_time()
    r = client.get(sys.argv[3])
    assert r.status_code == 200, r.status_code
    out.append({"wall_ms": (time.perf_counter() - t) * 1000, "cpu_ms": (time.process_time() - c) * 1000,
                "scenarios_listed": r.get_data(as_text=True).count("/replay/")})
print(json.dumps(out))
"""


def run(index: Path, url: str, times: int = 1) -> list[dict[str, float]]:
    proc = subprocess.run([sys.executable, "-c", CHILD, str(PROJECT), str(index), url, str(times)],
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def cited_rule(index: Path) -> str:
    """The rule the most shipped scenarios cite (from the build's cache)."""
    from judgebook.store.scenario_refs import CACHE_FILE

    counts: dict[str, int] = {}
    for ref in json.loads((index / CACHE_FILE).read_text("utf-8"))["scenarios"]:
        for anchor in ref["anchors"]:
            counts[anchor] = counts.get(anchor, 0) + 1
    return max(counts, key=lambda a: (counts[a], a))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", type=Path, required=True)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(PROJECT))
    from judgebook.store.corpus import Corpus
    from judgebook.store.scenario_refs import CACHE_FILE

    index = args.index.resolve()
    if not (index / CACHE_FILE).is_file():
        print(f"no {CACHE_FILE} in {index}: run `judgebook --index {index} build` first", file=sys.stderr)
        return 2
    anchor = cited_rule(index)
    corpus = Corpus.load(index)
    section = max((s for s in corpus.sections.values() if s.anchor == anchor), key=lambda s: s.id)
    url = f"/s/{section.id}"
    result: dict[str, object] = {"rule_page": url}
    result["catalog_first"] = run(index, "/replay/new/cards.json?q=a")[0]
    with tempfile.TemporaryDirectory() as tmp:
        # the same generation, without the build's cache: the page replays every scenario
        bare = Path(tmp) / "index"
        bare.mkdir()
        gen = (index / "current").resolve()
        shutil.copytree(gen, bare / gen.name)          # a link would lead back to the cache beside it
        (bare / "current").symlink_to(gen.name)
        result["rule_page_no_cache"] = run(bare, url)[0]
    first, again = run(index, url, 2)
    result["rule_page_build_cache"] = first
    result["rule_page_in_memory"] = again
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"rule page {url} (the rule most scenarios cite); each a fresh process, one request")
    print(f"{'':44}{'wall':>9}{'CPU':>9}  (ms)")
    for key, label in (("catalog_first", "builder card catalog, first request"),
                       ("rule_page_no_cache", "rule page, no citation cache (replays all)"),
                       ("rule_page_build_cache", "rule page, the cache `judgebook build` wrote"),
                       ("rule_page_in_memory", "rule page, second view (in memory)")):
        f = result[key]
        assert isinstance(f, dict)
        print(f"{label:44}{f['wall_ms']:9.1f}{f['cpu_ms']:9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
