"""Hostile scenario texts (issue 12, defects 1 and 3): bounded in time and memory.

Each hostile text goes to the web upload (Flask test client, memory measured
with tracemalloc in this process) and to `judgebook replay` (a child process,
its peak RSS read from the kernel). Every one must be answered in under 2 s
with a 4xx (the CLI: exit 2 and a message naming the limit), and grow memory
by under 50 MB. On the old code the alias texts took 22 s to minutes and
hundreds of MB, the deep nesting 50 s of CPU, and the CLI had no cap at all.
"""
from __future__ import annotations

import io
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from test_web_corpus import FakeSearcher, documents, sections

from judgebook.engine.errors import ScenarioError
from judgebook.engine.safe_yaml import Limits, check_bounds
from judgebook.engine.yamlnodes import load_text
from judgebook.store.corpus import Corpus
from judgebook.web.app import create_app

MB = 1024 * 1024


def laughs(n: int, where: str = "notes") -> str:
    """The issue's reproduction: each anchor a list of two aliases to the one before."""
    chain = "\n".join(["  - &a0 [lol, lol]"] + [f"  - &a{i} [*a{i - 1}, *a{i - 1}]" for i in range(1, n + 1)])
    if where == "title":
        return f"defs:\n{chain}\ntitle: *a{n}\n"
    return f"title: x\nnotes:\n{chain}\n"


HOSTILE = {
    "aliases-40-in-notes": laughs(40),
    "aliases-40-in-title": laughs(40, "title"),
    "aliases-44-in-notes": laughs(44),
    "billion-laughs": laughs(30),
    "unclosed-brackets-32k": "[" * 32_000,
    "unclosed-braces-32k": "{" * 32_000,
    "block-nesting": "- " * 10_000 + "x\n",
    "recursive-alias": "title: x\nnotes: &n [a, *n]\n",
}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    d = tmp_path_factory.mktemp("scenarios")
    corpus = Corpus(documents(), sections())
    app = create_app(corpus=corpus, searcher=FakeSearcher(corpus))
    app.config["JUDGEBOOK_SCENARIOS"] = str(d)
    client = app.test_client()
    # warm: the first request compiles templates and imports lazily; that is not the upload's cost
    client.post("/replay", data={"text": "title: x\nnotes: [a, [b]]\n"})
    return client


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_web_upload_of_hostile_yaml_is_refused_fast_and_small(client, name):
    text = HOSTILE[name]
    assert len(text.encode()) <= 32 * 1024          # under the upload cap: the loader must stop it
    tracemalloc.start()
    try:
        started = time.perf_counter()
        # as a file: a form field's URL-encoding would triple the brackets past the body cap
        resp = client.post("/replay", data={"scenario": (io.BytesIO(text.encode()), f"{name}.yaml")},
                           content_type="multipart/form-data")
        seconds = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert resp.status_code == 400, resp.status_code
    assert seconds < 2.0, f"{name}: {seconds:.2f} s"
    assert peak < 50 * MB, f"{name}: {peak / MB:.1f} MB"
    body = resp.get_data(as_text=True)
    assert "nested" in body or "expands to" in body or "recursive" in body, body[:2000]


@pytest.mark.parametrize("name", ["aliases-44-in-notes", "billion-laughs", "unclosed-brackets-32k"])
def test_cli_replay_of_hostile_yaml_is_refused_fast_and_small(tmp_path, name):
    cli = [sys.executable, "-m", "judgebook", "--index", str(tmp_path / "no-index"), "replay"]
    ok = tmp_path / "ok.yaml"
    ok.write_text("title: x\n", encoding="utf-8")
    hostile = tmp_path / f"{name}.yaml"
    hostile.write_text(HOSTILE[name], encoding="utf-8")
    # A fresh interpreter per measurement: the baseline is the same CLI on a tiny file.
    measure = [sys.executable, "-c",
               "import resource,subprocess,sys;"
               "p=subprocess.run(sys.argv[1:],capture_output=True,text=True);"
               "sys.stderr.write(p.stderr);"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.returncode)"]
    started = time.perf_counter()
    base = subprocess.run(measure + cli + [str(ok)], capture_output=True, text=True, timeout=60)
    startup = time.perf_counter() - started
    started = time.perf_counter()
    hit = subprocess.run(measure + cli + [str(hostile)], capture_output=True, text=True, timeout=60)
    seconds = time.perf_counter() - started
    base_rss = int(base.stdout.split()[0]) * 1024
    rss, code = int(hit.stdout.split()[0]) * 1024, int(hit.stdout.split()[1])
    assert code == 2, hit.stderr
    assert "judgebook replay:" in hit.stderr and "Traceback" not in hit.stderr
    # the same two interpreter start-ups as the baseline, plus under 2 s for the scenario
    assert seconds < startup + 2.0, f"{seconds:.2f} s against {startup:.2f} s for a tiny scenario"
    assert rss - base_rss < 50 * MB, f"{(rss - base_rss) / MB:.1f} MB more than a tiny scenario"


def test_limits_name_the_line_and_allow_an_honest_scenario():
    with pytest.raises(ScenarioError) as exc:
        load_text(laughs(20), file="s.yaml")
    # By hand: anchor a<i> (on line i + 3) holds 2**(i+2) - 1 nodes, and everything up to
    # a13 adds up to about 2**16; a14's two aliases add 32,767 each, so its second one
    # passes 100,000: a14, line 17.
    assert exc.value.line == 17 and exc.value.file == "s.yaml"
    shipped = Path(__file__).parents[1] / "rules_source" / "scenarios"
    for f in sorted(shipped.glob("*.yaml")):
        check_bounds(f.read_text(encoding="utf-8"), str(f))   # none of the shipped ones is near a limit


def test_each_limit_is_enforced_separately():
    with pytest.raises(ScenarioError, match="too large"):
        check_bounds("a: " + "x" * 100, limits=Limits(max_bytes=50))
    with pytest.raises(ScenarioError, match="nested too deeply"):
        check_bounds("a: " + "[" * 5 + "]" * 5, limits=Limits(max_depth=4))
    with pytest.raises(ScenarioError, match="levels deep"):
        check_bounds("a:\n b:\n  c:\n   d:\n    e: 1\n", limits=Limits(max_depth=4))
    with pytest.raises(ScenarioError, match="bytes of text"):
        check_bounds("a: &x " + "y" * 40 + "\nb: [*x, *x, *x]\n", limits=Limits(max_scalar_bytes=150))
    check_bounds("a: &x " + "y" * 40 + "\nb: [*x, *x]\n", limits=Limits(max_scalar_bytes=150))
    with pytest.raises(ScenarioError, match="levels deep"):
        # the alias is shallow where it stands but deep once expanded
        check_bounds("a: &x [[[1]]]\nb: [[*x]]\n", limits=Limits(max_depth=4))
    check_bounds("a: &x [[[1]]]\nb: *x\n", limits=Limits(max_depth=4))
