"""The static export's search ranks like the server's: the same queries through both.

The static index (judgebook/web/search_index.py) is built from the real
corpus and searched by the export's own script (static/search-static.js) in
node; the server's `api.search` answers the same queries over the Whoosh
index of the same build. Every query of the relevance set, plus filters,
exclusions, phrases, rule numbers and odd input, must give the very same
list of sections, in the same order, as the server without its question bank
(question_bank.py, issue 22: the static export ranks questions without it, a
lighter method; lookups rank the same with or without it, asserted below). Without node this fails under CI (CI
set) and skips on a developer machine, like the corpora.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_search_relevance import load_cases
from test_web_corpus import real_index

from judgebook.search import api

STATIC_JS = Path(__file__).resolve().parents[1] / "judgebook" / "web" / "static" / "search-static.js"

# Reads the index script (it assigns window.JB_INDEX) and the engine, answers
# [query, limit] pairs from stdin with the ids each result list shows.
DRIVER = r"""
const fs = require("fs");
global.window = {};
eval(fs.readFileSync(process.argv[2], "utf8"));
const {Engine} = require(process.argv[3]);
const engine = new Engine(global.window.JB_INDEX);
const out = JSON.parse(fs.readFileSync(0, "utf8")).map(([q, limit]) => {
  const r = engine.query(q, limit);
  return {ids: r.results.map(x => x.id), superseded: r.results.map(x => x.superseded)};
});
process.stdout.write(JSON.stringify(out));
"""

# Queries with a word no document uses, which the static side cannot stem (search_index.py says
# so) while the server's stemmer finds its stem ("skipping": "skip"): known, listed, never more.
UNSTEMMED = {"what does skipping my discard step actually skip": "skipping"}

MORE = [
    "damage -net -meat", '"end the run"', '"paid ability" window', "kind:ruling trace",
    "era:onr-1996 data fort", "doc:cr-1.6 additional costs", "kind:card ice wall", "trace doc:nope",
    "1.16.10b", "cr-1.6:1.16.10b", "section 8.5", "6.9.2 doc:cr-22.12", "credit symbol doc:cr-23.08",
    "NOT trace tag", "- \"run\"", "x" * 300, "<script>alert(1)</script>", "\u201crecurring credits\u201d",
    "Mirāju", "r&d access", "2[c]", "how", "the",
]


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if not found:
        if os.environ.get("CI"):
            pytest.fail("node is missing: CI runs the static search in node")
        pytest.skip("node not installed")
    return found


@pytest.fixture(scope="module")
def both(tmp_path_factory, corpora_root):
    """(the server's Whoosh folder, the static index script) of one real build."""
    from judgebook.store import paths
    from judgebook.store.corpus import Corpus
    from judgebook.web import search_index
    root = real_index(tmp_path_factory, corpora_root)
    gen = paths.current_generation(root)
    js, stats = search_index.build(Corpus.load_generation(gen), lambda sid: f"s/{sid}.html", lambda k: k)
    script = tmp_path_factory.mktemp("static-search") / "search-index.js"
    script.write_text(js, "utf-8")
    return gen / paths.WHOOSH, script


def run_static(node: str, script: Path, queries: list[tuple[str, int]], tmp_path: Path) -> list[dict]:
    driver = tmp_path / "driver.js"
    driver.write_text(DRIVER, "utf-8")
    done = subprocess.run([node, str(driver), str(script), str(STATIC_JS)], input=json.dumps(queries),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_static_search_gives_the_servers_results(node, both, tmp_path):
    whoosh, script = both
    queries = [(c.query, 10) for c in load_cases()] + [(q, 10) for q in MORE]
    queries += [(c.query, 50) for c in load_cases() if c.kind == "question"][:20]
    static = run_static(node, script, queries, tmp_path)
    differ = []
    banked = []
    words = json.loads(script.read_text("utf-8").removeprefix("window.JB_INDEX=").rstrip().rstrip(";"))["words"]
    assert all(w in q.split() and w not in words for q, w in UNSTEMMED.items())
    for (q, limit), got in zip(queries, static, strict=True):
        server = [h.id for h in api.search(q, limit=limit, index_dir=whoosh, bank=False).results]
        if got["ids"] != server and q not in UNSTEMMED:
            differ.append(f"{q!r} (limit {limit}):\n   server {server}\n   static {got['ids']}")
        with_bank = api.search(q, limit=limit, index_dir=whoosh)
        if with_bank.answer is not None:
            banked.append(q)
        elif [h.id for h in with_bank.results] != server:
            differ.append(f"{q!r} (limit {limit}): the server's order changed with no answer from the bank")
    assert not differ, f"{len(differ)} of {len(queries)} differ:\n" + "\n".join(differ)
    # The bank answers questions only: every lookup, term, card and filter ranks the same on both sides.
    kinds = {c.query: c.kind for c in load_cases()}
    assert banked and all("question" in kinds.get(q, "") for q in banked), banked
    # The same queries found something on both sides (not two empty lists agreeing).
    assert sum(bool(g["ids"]) for g in static) >= len(load_cases())


def test_the_static_search_says_superseded_like_the_server(node, both, tmp_path):
    whoosh, script = both
    q = "credit symbol doc:cr-23.08"
    server = api.search(q, limit=5, index_dir=whoosh).results
    assert server[0].doc == "cr-23.08" and server[0].superseded_by.startswith("cr-26.03:")
    got = run_static(node, script, [(q, 5)], tmp_path)[0]
    assert got["ids"] == [h.id for h in server]
    assert got["superseded"][0] == f"s/{server[0].superseded_by}.html"
    assert [bool(s) for s in got["superseded"]] == [h.superseded for h in server]
