"""Damaged documents, escaping paths, concurrent builds and strict manifests (issue 12, defects 5-8).

Every damage here built with exit 0 and replaced the good index before: the
shipped documents now carry their digests in the manifest, user sources are
compared section by section with the current build, manifest paths stay in
their folder, builds take a lock, and the manifest refuses what it does not know.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from judgebook.cli import main
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.manifest import load_manifest
from judgebook.store import build, paths


@pytest.fixture(autouse=True)
def no_search(monkeypatch):
    """The search index plays no part in these checks; leaving it out keeps them quick."""
    monkeypatch.setattr(build, "_search_index", lambda corpus, gen, say: False)


@pytest.fixture
def shipped(tmp_path, rules_source) -> Path:
    """A copy of every shipped document and the manifest."""
    dest = tmp_path / "src"
    shutil.copytree(rules_source, dest, ignore=shutil.ignore_patterns("scenarios", "cards"))
    return dest


def _build(src: Path, index: Path, *extra: str) -> int:
    return main(["--index", str(index), "build", "--source", str(src), *extra])


def _truncate(path: Path, share: float, mid_line: bool = True) -> None:
    data = path.read_bytes()
    cut = int(len(data) * share)
    if not mid_line:
        cut = data.rindex(b"\n", 0, cut) + 1
    path.write_bytes(data[:cut])


def _garbage(path: Path) -> None:
    lines = path.read_text("utf-8").splitlines(keepends=True)
    lines[len(lines) // 2:len(lines) // 2] = ["@@@@ %%% garbage line ~~~~\n"] * 3
    path.write_text("".join(lines), "utf-8")


def _nul(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 3] + b"\0\0\0\0" + data[len(data) // 3:])


# The list of damage that built with exit 0 and swapped the index.
DAMAGE = {
    "cr-1.6 truncated mid-line": ("cr-1.6.txt", lambda p: _truncate(p, 0.45)),
    "cr-1.4 truncated": ("cr-1.4.md", lambda p: _truncate(p, 0.4, mid_line=False)),
    "cr-1.4 emptied": ("cr-1.4.md", lambda p: p.write_text("", "utf-8")),
    "glossary truncated": ("glossary.md", lambda p: _truncate(p, 0.5, mid_line=False)),
    "garbage lines in cr-1.6": ("cr-1.6.txt", _garbage),
    "garbage lines in cr-1.4": ("cr-1.4.md", _garbage),
    "NUL bytes in the 1996 file": ("netrunner-1996.txt", _nul),
}


@pytest.fixture(scope="module")
def good_index(tmp_path_factory, rules_source) -> Path:
    index = tmp_path_factory.mktemp("good") / "index"
    mp = pytest.MonkeyPatch()
    mp.setattr(build, "_search_index", lambda corpus, gen, say: False)
    try:
        build.build(rules_source, index)
    finally:
        mp.undo()
    return index


@pytest.mark.parametrize("name", sorted(DAMAGE))
def test_a_damaged_shipped_document_is_refused_and_the_index_kept(name, shipped, good_index, tmp_path,
                                                                  capsys):
    index = tmp_path / "index"
    shutil.copytree(good_index, index, symlinks=True)
    before = os.readlink(index / paths.CURRENT)
    file, damage = DAMAGE[name]
    damage(shipped / file)
    assert _build(shipped, index) == 1
    err = capsys.readouterr().err
    # either the parser places the damage (file:line) or the digest names the file
    assert f"{shipped / file}:" in err, err
    assert "previous index is unchanged" in err and "Traceback" not in err
    assert os.readlink(index / paths.CURRENT) == before


def test_a_new_edition_is_accepted_when_said_so_and_remembered(shipped, tmp_path, capsys):
    index = tmp_path / "index"
    with open(shipped / "cr-1.4.md", "a", encoding="utf-8") as fh:
        fh.write("\n")
    assert _build(shipped, index) == 1
    assert "changed since it was shipped" in capsys.readouterr().err
    assert _build(shipped, index, "--new-edition", "cr-1.4.md") == 0
    assert "recorded the new digest of cr-1.4.md" in capsys.readouterr().err
    assert _build(shipped, index) == 0          # the manifest now records the new digest
    assert _build(shipped, index, "--new-edition", "nope.md") == 2
    assert "--new-edition nope.md: no document" in capsys.readouterr().err


def test_every_shipped_document_has_its_digest(rules_source):
    import hashlib
    for e in load_manifest(rules_source):
        assert e.sha256 == hashlib.sha256(e.file.read_bytes()).hexdigest(), e.document.key


# ---- user sources: a build that loses many sections -----------------------------------------

@pytest.fixture
def cr_copy(tmp_path, nsg_cr_root) -> Path:
    dest = tmp_path / "v26.03"
    shutil.copytree(nsg_cr_root / "v26.03", dest)
    return dest


def _only_manifest(tmp_path: Path, rules_source: Path) -> Path:
    """A rules_source with the FFG wiki only (small), so the user source dominates the build."""
    src = tmp_path / "small"
    src.mkdir()
    text = (rules_source / "manifest.toml").read_text("utf-8")
    tables = text.split("[[document]]")
    ffg = next(t for t in tables if 'key = "ffg-core-rulebook"' in t)
    (src / "manifest.toml").write_text("[[document]]" + ffg, "utf-8")
    shutil.copy(rules_source / "ffg-core-rulebook-wiki.txt", src)
    return src


@pytest.mark.corpora
def test_a_truncated_user_chapter_is_refused_with_the_counts_unless_forced(
        cr_copy, tmp_path, rules_source, capsys, monkeypatch):
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "judgebook.local.toml"))
    src = _only_manifest(tmp_path, rules_source)
    index = tmp_path / "index"
    assert _build(src, index, "--with", str(cr_copy)) == 0
    before = os.readlink(index / paths.CURRENT)
    runs = cr_copy / "data" / "input" / "06_runs.yaml"
    total = sum(1 for s in _sections(index) if s["provenance"]["file"] == "data/input/06_runs.yaml")
    # cut before a top-level `- section:` past the middle: what is left is valid YAML that
    # the parser accepts, as the truncated 06_runs.yaml was
    data = runs.read_bytes()
    runs.write_bytes(data[:data.rindex(b"\n- section:", 0, len(data) // 2) + 1])
    capsys.readouterr()
    assert _build(src, index, "--with", str(cr_copy)) == 1
    err = capsys.readouterr().err
    assert f"cr-26.03 (data/input/06_runs.yaml): {total} -> " in err, err
    assert "--force" in err and os.readlink(index / paths.CURRENT) == before
    assert _build(src, index, "--with", str(cr_copy), "--force") == 0
    assert os.readlink(index / paths.CURRENT) != before


def _sections(index: Path) -> list[dict]:
    import json
    gen = paths.current_generation(index)
    return [json.loads(line) for line in (gen / paths.SECTIONS).read_text("utf-8").splitlines()]


def test_check_losses_compares_files_and_documents(tmp_path):
    index = tmp_path / "index"
    gen = index / "gen-a"
    gen.mkdir(parents=True)
    (gen / paths.SECTIONS).write_text("")
    (gen / paths.BUILD_INFO).write_text(
        '{"documents": {"d": 200, "e": 5}, "files": {"d": {"a.yaml": 100, "b.yaml": 100}, "e": {"x": 5}}}')
    (index / paths.CURRENT).symlink_to("gen-a")
    build.check_losses(index, {"d": {"a.yaml": 100, "b.yaml": 81}, "e": {"x": 1}})   # within 20%; e too small
    with pytest.raises(build.BuildError, match=r"d \(b.yaml\): 100 -> 79 sections"):
        build.check_losses(index, {"d": {"a.yaml": 121, "b.yaml": 79}})   # the document total is fine
    with pytest.raises(build.BuildError, match=r"d: 200 -> 150 sections"):
        build.check_losses(index, {"d": {"a.yaml": 75, "b.yaml": 75}})
    build.check_losses(index, {"other": {"z": 1}})         # documents no longer built are not damage


# ---- paths stay inside rules_source ------------------------------------------------------------

@pytest.mark.parametrize("file", ["../../../etc/passwd", "/etc/passwd", "sub/../../outside.txt"])
def test_a_manifest_path_outside_its_folder_is_refused(tmp_path, file):
    src = tmp_path / "src"
    src.mkdir()
    (tmp_path / "outside.txt").write_text("secret")
    (src / "manifest.toml").write_text(
        f'[[document]]\nkey = "x"\ntitle = "X"\nparser = "cr_markdown"\nfile = "{file}"\n')
    with pytest.raises(ParseError) as err:
        load_manifest(src)
    assert err.value.line == 5 and "inside" in str(err.value)


def test_a_symlink_out_of_rules_source_is_refused(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (tmp_path / "outside.txt").write_text("secret")
    (src / "inside.txt").symlink_to(tmp_path / "outside.txt")
    (src / "manifest.toml").write_text(
        '[[document]]\nkey = "x"\ntitle = "X"\nparser = "cr_markdown"\nfile = "inside.txt"\n')
    with pytest.raises(ParseError, match="inside"):
        load_manifest(src)


@pytest.mark.corpora
def test_a_user_cr_file_linking_outside_is_refused(cr_copy, tmp_path):
    from judgebook.ingestion import user_sources
    (tmp_path / "outside.yaml").write_text("x: 1\n")
    (cr_copy / "data" / "input" / "12_extra.yaml").symlink_to(tmp_path / "outside.yaml")
    [source] = user_sources.detect(cr_copy)
    with pytest.raises(user_sources.UserSourceError, match="12_extra.yaml: expected a file inside"):
        user_sources.load(source)


# ---- strict manifests -------------------------------------------------------------------------

def test_an_unknown_manifest_key_is_an_error_with_its_line(tmp_path):
    (tmp_path / "f.txt").write_text("x")
    (tmp_path / "manifest.toml").write_text(
        '[[document]]\nkey = "a"\ntitle = "A"\nparser = "p"\nfile = "f.txt"\nedtion = "1.6"\n')
    with pytest.raises(ParseError) as err:
        load_manifest(tmp_path)
    assert err.value.line == 6 and "edtion" in str(err.value) and "a known field" in str(err.value)


# ---- one build at a time ------------------------------------------------------------------------

def test_a_second_build_waits_for_the_first_and_says_who_holds_it(tmp_path, rules_source, monkeypatch):
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "judgebook.local.toml"))
    src = _only_manifest(tmp_path, rules_source)
    index = tmp_path / "index"
    index.mkdir()
    said: list[str] = []
    with build.BuildLock(index, said.append):
        proc = subprocess.Popen([sys.executable, "-m", "judgebook", "--index", str(index), "build",
                                 "--source", str(src)], stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(paths.project_root())})
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert f"waiting for the build already running on this index (pid {os.getpid()}, started" in first
        time.sleep(0.5)
        assert proc.poll() is None              # still waiting, nothing swapped
        assert not (index / paths.CURRENT).exists()
    _, rest = proc.communicate(timeout=120)
    assert proc.returncode == 0, rest
    assert (index / paths.CURRENT).is_symlink()
    assert said == []                            # the test's own lock was free
