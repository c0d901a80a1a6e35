"""`judgebook serve` runs the app on waitress; `judgebook export` writes a site from an index."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from flask import Blueprint
from test_web_corpus import FakeSearcher, sample_corpus

from judgebook.model import to_dict
from judgebook.store import paths
from judgebook.web.app import create_app


def write_index(root: Path) -> Path:
    """The sample corpus as a built index generation (no Whoosh: search answers with a message)."""
    corpus = sample_corpus()
    gen = root / "gen-test"
    gen.mkdir(parents=True)
    (gen / paths.DOCUMENTS).write_text(json.dumps([to_dict(d) for d in corpus.documents.values()]))
    with open(gen / paths.SECTIONS, "w", encoding="utf-8") as fh:
        for sec in corpus.sections.values():
            fh.write(json.dumps(to_dict(sec)) + "\n")
    (root / paths.CURRENT).symlink_to(gen.name)
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_uses_waitress_on_localhost(tmp_path):
    root = write_index(tmp_path / "index")
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "judgebook", "--index", str(root), "serve",
                             "--port", str(port)], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(paths.project_root())})
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/s/cr-1.6:1.16.10b") as resp:
                    body = resp.read().decode()
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
                time.sleep(0.2)
        assert resp.headers["Server"] == "judgebook"          # waitress, with our ident
        assert "Content-Security-Policy" in resp.headers
        assert "Recurring credits do not accumulate" in body
        # the index has no search part: the page says so instead of failing
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/search?q=trace") as resp:
            assert resp.status == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_without_an_index_says_what_to_do(tmp_path):
    out = subprocess.run([sys.executable, "-m", "judgebook", "--index", str(tmp_path), "serve",
                          "--port", str(free_port())], capture_output=True, text=True, timeout=30,
                         env={**os.environ, "PYTHONPATH": str(paths.project_root())})
    assert out.returncode == 1
    assert "no index at" in out.stderr and "judgebook build" in out.stderr
    assert "Traceback" not in out.stderr


def test_export_command_writes_a_site(tmp_path, capsys):
    from judgebook.cli import main
    root = write_index(tmp_path / "index")
    assert main(["--index", str(root), "export", str(tmp_path / "site")]) == 0
    assert (tmp_path / "site" / "index.html").is_file()
    err = capsys.readouterr().err
    assert "judgebook export: 32 pages" in err   # 19 sections + 6 documents + 7 fixed pages
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.txt").write_text("x")
    assert main(["--index", str(root), "export", str(tmp_path / "other")]) == 1
    assert "not empty" in capsys.readouterr().err


def test_an_unexpected_error_is_a_page_not_a_traceback():
    app = create_app(sample_corpus(), searcher=FakeSearcher(sample_corpus()))
    boom = Blueprint("boom", __name__)

    @boom.get("/boom")
    def _boom():
        raise RuntimeError("secret detail")
    app.register_blueprint(boom)
    resp = app.test_client().get("/boom")
    assert resp.status_code == 500
    body = resp.get_data(as_text=True)
    assert 'role="search"' in body and "secret detail" not in body and "Traceback" not in body
