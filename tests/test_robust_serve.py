"""A running server across rebuilds, and pages revalidated by generation (issue 12 defect 2, issue 11).

The server used to resolve `index/current` once; the second rebuild deleted
that generation and every thread that had not opened its search reader yet
answered "no search index" with a 200. Here `judgebook serve` (its real
worker processes) answers searches in a loop from several threads while the
index is rebuilt three times: no request may fail or come back empty, and
afterwards the server answers from the newest generation.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from test_web_serve import free_port

from judgebook.store import build, generations, paths

MANIFEST_TITLE = 'title = "NISEI Comprehensive Rules"'


def _sources(rules_source: Path, dest: Path) -> Path:
    """The two NISEI CR documents only: a real search index, built in a few seconds."""
    import shutil
    dest.mkdir()
    text = (rules_source / "manifest.toml").read_text("utf-8")
    (dest / "manifest.toml").write_text("[[document]]".join(text.split("[[document]]")[:3]), "utf-8")
    for name in ("cr-1.6.txt", "cr-1.4.md"):
        shutil.copy(rules_source / name, dest / name)
    return dest


def _retitle(src: Path, n: int) -> str:
    """Give the rebuild something to show: the CR documents' title carries the build's number."""
    title = f"NISEI Comprehensive Rules (rebuild {n})"
    manifest = src / "manifest.toml"
    text = manifest.read_text("utf-8")
    lines = [line if not line.startswith("title = ") else f'title = "{title}"' for line in text.splitlines()]
    manifest.write_text("\n".join(lines) + "\n", "utf-8")
    return title


def _get(port: int, path: str, headers: dict | None = None) -> tuple[int, Any, bytes]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=20) as resp:
            return resp.status, resp.headers, resp.read()   # case-insensitive: waitress says "Etag"
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


@pytest.fixture
def server(tmp_path, rules_source, monkeypatch):
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "judgebook.local.toml"))
    src = _sources(rules_source, tmp_path / "src")
    index = tmp_path / "index"
    build.build(src, index)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "judgebook", "--index", str(index), "serve",
                             "--port", str(port), "--workers", "2", "--threads", "4"],
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(paths.project_root())})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(port, "/api/search?q=trace")[0] == 200:
                    break
            except OSError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        yield src, index, port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)      # the server and its workers, started here
        proc.wait(timeout=20)


def test_searches_survive_three_rebuilds_and_the_newest_generation_is_served(server):
    src, index, port = server
    errors: list[str] = []
    answered = [0]
    stop = threading.Event()
    queries = ["trace", "paid ability window", "1.16.10b", "recurring credits", "jack out"]

    def reader(k: int) -> None:
        i = k
        while not stop.is_set():
            q = queries[i % len(queries)]
            i += 1
            try:
                status, _, body = _get(port, f"/api/search?q={urllib.request.quote(q)}&limit=3")
                data = json.loads(body)
                if status != 200 or not data["results"]:
                    errors.append(f"{q}: {status} {data.get('message')!r}")
            except Exception as exc:   # a reset connection is an error like any other
                errors.append(f"{q}: {type(exc).__name__}: {exc}")
            answered[0] += 1

    threads = [threading.Thread(target=reader, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    try:
        seen = []
        for n in (1, 2, 3):
            title = _retitle(src, n)
            seen.append(build.build(src, index).generation.name)
            time.sleep(1.0)        # readers keep going on the new generation
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
    assert answered[0] > 30
    assert errors == [], errors[:5]
    newest = os.readlink(index / paths.CURRENT)
    assert newest == seen[-1]
    # every worker answers from the newest generation: its ETag and the new title
    for _ in range(8):
        status, headers, body = _get(port, "/")
        assert status == 200 and headers["ETag"] == f'"{newest}"'
        assert title in body.decode()


def test_a_generation_in_use_is_not_deleted_and_is_once_released(tmp_path, rules_source, monkeypatch):
    monkeypatch.setattr(build, "_search_index", lambda corpus, gen, say: False)
    src = _sources(rules_source, tmp_path / "src")
    index = tmp_path / "index"
    first = build.build(src, index).generation
    lease = generations.Lease(first)
    assert lease.held
    build.build(src, index)
    build.build(src, index)          # the old rule would delete `first` here
    assert first.is_dir()
    lease.release()
    third = build.build(src, index).generation
    assert not first.exists()
    # back to the usual rule: the current generation and the one before it
    assert len(list(index.glob("gen-*"))) == 2 and (index / paths.CURRENT).resolve() == third.resolve()


def test_pages_revalidate_by_generation_and_repeat_from_the_cache(tmp_path, rules_source, monkeypatch):
    from judgebook.web.app import create_app
    monkeypatch.setattr(build, "_search_index", lambda corpus, gen, say: False)
    src = _sources(rules_source, tmp_path / "src")
    index = tmp_path / "index"
    gen = build.build(src, index).generation
    client = create_app(index_root=index).test_client()
    first = client.get("/d/cr-1.4")
    assert first.status_code == 200 and first.headers["ETag"] == f'"{gen.name}"'
    assert first.headers["Last-Modified"] and first.headers["Cache-Control"] == "no-cache"
    assert "X-Cache" not in first.headers
    again = client.get("/d/cr-1.4")
    assert again.headers["X-Cache"] == "hit" and again.data == first.data
    assert "Content-Security-Policy" in again.headers
    assert client.get("/d/cr-1.4", headers={"If-None-Match": f'"{gen.name}"'}).status_code == 304
    # a rebuild changes the validator, and the page is rendered anew from the new generation
    title = _retitle(src, 7)
    newer = build.build(src, index).generation
    fresh = client.get("/d/cr-1.4", headers={"If-None-Match": f'"{gen.name}"'})
    assert fresh.status_code == 200 and fresh.headers["ETag"] == f'"{newer.name}"'
    assert "X-Cache" not in fresh.headers and title in fresh.get_data(as_text=True)
    # what must not be cached is not: uploads and replay pages
    assert "ETag" not in client.get("/replay").headers


def test_serve_on_waitress_follows_a_rebuild_too(tmp_path, rules_source, monkeypatch):
    """The one-process server (platforms without fork) follows `current` by the same mechanism."""
    monkeypatch.setattr(build, "_search_index", lambda corpus, gen, say: False)
    src = _sources(rules_source, tmp_path / "src")
    index = tmp_path / "index"
    build.build(src, index)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "judgebook", "--index", str(index), "serve",
                             "--port", str(port), "--server", "waitress"], stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(paths.project_root())})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, headers, _ = _get(port, "/")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
                time.sleep(0.2)
        assert status == 200 and headers["Server"] == "judgebook"
        title = _retitle(src, 5)
        newer = build.build(src, index).generation
        status, headers, body = _get(port, "/")
        assert headers["ETag"] == f'"{newer.name}"' and title in body.decode()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.mark.parametrize("extra, message", [
    (["--server", "waitress", "--workers", "2"], "--workers is for --server gunicorn"),
    (["--threads", "0"], "take a number from 1"),
])
def test_serve_refuses_options_that_would_do_nothing(tmp_path, extra, message):
    out = subprocess.run([sys.executable, "-m", "judgebook", "--index", str(tmp_path), "serve", *extra],
                         capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(paths.project_root())})
    assert out.returncode == 2 and message in out.stderr


def test_a_thread_that_first_searches_after_two_rebuilds_still_finds(tmp_path, rules_source, monkeypatch):
    """The issue's failure itself: an app opened on generation 1, two rebuilds (the second used
    to delete generation 1), then a thread that never searched before: it got "no search index"."""
    from judgebook.web.app import create_app
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "judgebook.local.toml"))
    src = _sources(rules_source, tmp_path / "src")
    index = tmp_path / "index"
    build.build(src, index)
    app = create_app(index_root=index)
    build.build(src, index)
    build.build(src, index)
    got: list = []

    def fresh_thread() -> None:
        resp = app.test_client().get("/api/search?q=trace&limit=3")
        got.append((resp.status_code, resp.get_json()))

    thread = threading.Thread(target=fresh_thread)
    thread.start()
    thread.join(timeout=60)
    status, data = got[0]
    assert status == 200 and data["results"], data["message"]
    assert not data["message"].startswith("no search index")
