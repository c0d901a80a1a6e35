"""The build pipeline: manifest, registry, generations, atomic swap, staleness, config."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from judgebook import config
from judgebook.cli import main
from judgebook.ingestion import registry
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.manifest import load_manifest
from judgebook.model import Provenance, Section
from judgebook.store import build, paths
from judgebook.store.corpus import Corpus

SEED_KEYS = ["cr-1.6", "cr-1.4", "ffg-core-rulebook", "glossary",
             "onr-rulebook", "onr-rulings", "onr-floor-rules"]


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    """Never touch the checkout's judgebook.local.toml."""
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(tmp_path / "judgebook.local.toml"))
    monkeypatch.delenv("JUDGEBOOK_INDEX", raising=False)


@pytest.fixture(autouse=True)
def no_search(request, monkeypatch):
    """The pipeline tests do not need the search index (tested on its own, below)."""
    if request.node.name != "test_the_build_writes_the_search_index":
        monkeypatch.setattr(build, "_search_index", lambda corpus, gen, say: False)


def _two_cr_sources(rules_source: Path, dest: Path) -> Path:
    """A rules_source holding only the two NISEI CR documents (fast, and their parsers only)."""
    dest.mkdir()
    text = (rules_source / "manifest.toml").read_text("utf-8")
    tables = text.split("[[document]]")
    (dest / "manifest.toml").write_text("[[document]]".join(tables[:3]), "utf-8")
    for name in ("cr-1.6.txt", "cr-1.4.md"):
        shutil.copy(rules_source / name, dest / name)
    return dest


@pytest.fixture
def src(tmp_path, rules_source) -> Path:
    return _two_cr_sources(rules_source, tmp_path / "src")


# ---- manifest ------------------------------------------------------------------------

def test_manifest_lists_the_seven_documents(rules_source):
    entries = load_manifest(rules_source)
    assert [e.document.key for e in entries] == SEED_KEYS
    assert [e.document.is_cr for e in entries] == [True, True, False, False, False, False, False]
    onr = [e for e in entries if e.document.era == "onr-1996"]
    assert {e.file.name for e in onr} == {"netrunner-1996.txt"}
    # `grep -n '\[\[document\]\]' rules_source/manifest.toml` puts the first table on line 7
    assert entries[0].document.effective == "2022-07-22" and entries[0].line == 7


@pytest.mark.parametrize("body, line, expected", [
    ('[[document]]\nkey = "a"\ntitle = "A"\nparser = "p"\n', 1, "field `file`"),
    ('[[document]]\nkey = "a"\ntitle = "A"\nparser = "p"\nfile = "f.txt"\neffective = "2019"\n',
     6, "ISO date"),
    ('[[document]]\nkey = "a"\ntitle = "A"\nparser = "p"\nfile = "nope.txt"\n', 5, "name a file"),
    ('[[document]]\nkey = "a\n', 2, "valid TOML"),
    ('[[document]]\nkey = "a"\ntitle = "A"\nparser = "p"\nfile = "f.txt"\n'
     '[[document]]\nkey = "a"\ntitle = "B"\nparser = "p"\nfile = "f.txt"\n', 6, "unique key"),
])
def test_manifest_errors_name_the_line(tmp_path, body, line, expected):
    (tmp_path / "f.txt").write_text("x")
    (tmp_path / "manifest.toml").write_text(body)
    with pytest.raises(ParseError) as err:
        load_manifest(tmp_path)
    assert err.value.line == line and expected in str(err.value)
    assert str(err.value).startswith(f"{tmp_path / 'manifest.toml'}:{line}: expected")


def test_a_shared_file_is_parsed_once(rules_source, monkeypatch):
    entries = [e for e in load_manifest(rules_source) if e.document.era == "onr-1996"]
    calls = []

    def fake(text, file, doc):
        calls.append(file)
        return [Section(id=f"{k}:x", doc=k, number="", title="x", kind="page", text="",
                        provenance=Provenance(file=file)) for k in ("onr-rulebook", "onr-rulings", "other")]
    jobs = registry.group_by_file(entries)
    assert len(jobs) == 1
    out = registry.parse_job(jobs[0], fake)
    assert calls == ["netrunner-1996.txt"]
    assert [s.doc for s in out] == ["onr-rulebook", "onr-rulings"]   # only the manifest's keys


def test_a_parser_crash_names_the_file(rules_source):
    job = registry.group_by_file(load_manifest(rules_source))[0]

    def broken(text, file, doc):
        raise KeyError("boom")
    with pytest.raises(ParseError, match=r"^cr-1.6.txt: expected a document parser cr_pdf_text"):
        registry.parse_job(job, broken)


# ---- building ------------------------------------------------------------------------

def test_build_writes_a_generation_and_points_current_at_it(src, tmp_path, capsys):
    index = tmp_path / "index"
    assert main(["--index", str(index), "build", "--source", str(src)]) == 0
    err = capsys.readouterr().err
    assert "build: parsed cr-1.6.txt: 505 sections" in err
    assert "build: links (references, related, index, main article, subtype): 222, 66 resolved" in err
    current = index / paths.CURRENT
    assert current.is_symlink() and os.readlink(current).startswith("gen-")
    gen = current.resolve()
    for name in (paths.DOCUMENTS, paths.SECTIONS, paths.BUILD_INFO):
        assert (gen / name).is_file()
    assert not (gen / build.BUILDING).exists()
    corpus = Corpus.load(index)
    # 505 = the CR 1.6 parser's count; 138 the CR 1.4 parser's (their tests pin the parts)
    assert {k: len(corpus.in_doc(k)) for k in corpus.documents} == {"cr-1.6": 505, "cr-1.4": 138}
    info = json.loads((gen / paths.BUILD_INFO).read_text())
    assert info["documents"] == {"cr-1.6": 505, "cr-1.4": 138}
    assert set(info["sources"]["files"]) == {"manifest.toml", "cr-1.6.txt", "cr-1.4.md"}


def _broken_copy(src: Path) -> None:
    path = src / "cr-1.6.txt"
    lines = path.read_text("utf-8").split("\n")
    lines.insert(300, "1.3.99. Bogus rule out of order")   # becomes line 301
    path.write_text("\n".join(lines), "utf-8")


def test_malformed_document_fails_with_file_and_line_and_keeps_the_old_index(src, tmp_path, capsys):
    index = tmp_path / "index"
    assert main(["--index", str(index), "build", "--source", str(src)]) == 0
    before = os.readlink(index / paths.CURRENT)
    gens_before = sorted(p.name for p in index.glob("gen-*"))
    _broken_copy(src)
    capsys.readouterr()
    assert main(["--index", str(index), "build", "--source", str(src)]) == 1
    err = capsys.readouterr().err
    assert "cr-1.6.txt:301: expected a rule of section 1.4" in err
    assert "Traceback" not in err
    assert os.readlink(index / paths.CURRENT) == before
    assert sorted(p.name for p in index.glob("gen-*")) == gens_before
    assert len(Corpus.load(index).in_doc("cr-1.6")) == 505


def test_malformed_document_via_a_real_process(src, tmp_path):
    import subprocess
    import sys
    _broken_copy(src)
    proc = subprocess.run([sys.executable, "-m", "judgebook", "--index", str(tmp_path / "i"),
                           "build", "--source", str(src)], capture_output=True, text=True,
                          env={**os.environ, "JUDGEBOOK_CONFIG": str(tmp_path / "c.toml")})
    assert proc.returncode == 1
    assert "cr-1.6.txt:301: expected" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "i" / paths.CURRENT).exists()


def test_a_failure_after_writing_leaves_current_untouched(src, tmp_path, monkeypatch):
    index = tmp_path / "index"
    first = build.build(src, index)

    def explode(*a, **k):
        raise RuntimeError("disk full")
    monkeypatch.setattr(build, "_write_info", explode)
    with pytest.raises(RuntimeError):
        build.build(src, index)
    assert (index / paths.CURRENT).resolve() == first.generation
    assert [p for p in index.glob("gen-*")] == [first.generation]


def test_a_reader_keeps_its_generation_through_one_rebuild(src, tmp_path):
    index = tmp_path / "index"
    a = build.build(src, index).generation
    reader = Corpus.load(index)               # resolves `current` once
    b = build.build(src, index).generation
    assert (index / paths.CURRENT).resolve() == b != a
    assert a.exists()                         # the previous generation is kept...
    again = Corpus.load_generation(reader.generation)
    assert len(again.in_doc("cr-1.6")) == 505
    c = build.build(src, index).generation
    assert not a.exists() and b.exists() and c.exists()   # ...until the next build
    assert sorted(index.glob("gen-*")) == sorted([b, c])


def test_leftover_generations_of_dead_builds_are_removed(src, tmp_path):
    index = tmp_path / "index"
    stale = index / "gen-19990101T000000000000-999999"
    stale.mkdir(parents=True)
    (stale / build.BUILDING).write_text("999999")
    build.build(src, index)
    assert not stale.exists()


# ---- --if-stale ------------------------------------------------------------------------

def test_if_stale_skips_an_up_to_date_index_and_rebuilds_a_changed_one(src, tmp_path, capsys):
    index = tmp_path / "index"
    args = ["--index", str(index), "build", "--source", str(src), "--if-stale", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["built"] is True and first["documents"]["cr-1.6"] == 505
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["built"] is False
    assert build.staleness(src, index, []) == ""
    with open(src / "cr-1.4.md", "a", encoding="utf-8") as fh:
        fh.write("\n")
    assert build.staleness(src, index, []) == "rules_source changed"
    assert main(args) == 1          # a shipped file that changed is refused (issue 12) ...
    assert main(args + ["--new-edition", "cr-1.4.md"]) == 0    # ... unless it is a new edition
    assert json.loads(capsys.readouterr().out)["built"] is True
    assert build.staleness(src, tmp_path / "elsewhere", []) == "no index yet"


# ---- --with and the local config --------------------------------------------------------

def test_config_round_trip(tmp_path):
    path = tmp_path / "judgebook.local.toml"
    assert config.load_config(path) == config.LocalConfig()
    config.remember(["/a/b", 'odd "name"'], path)
    config.remember(["/a/b"], path)
    cfg = config.load_config(path)
    assert cfg.with_paths[0] == "/a/b" and len(cfg.with_paths) == 2
    assert config.forget(["/a/b"], path).with_paths == cfg.with_paths[1:]
    path.write_text("[build\n")
    with pytest.raises(config.ConfigError, match=r":1: expected valid TOML"):
        config.load_config(path)


def test_missing_with_path_fails_and_is_not_remembered(src, tmp_path, capsys):
    code = main(["--index", str(tmp_path / "i"), "build", "--source", str(src),
                 "--with", str(tmp_path / "nowhere")])
    assert code == 1
    assert "nowhere: no such file or folder" in capsys.readouterr().err
    assert config.load_config().with_paths == ()


@pytest.mark.corpora
def test_with_is_remembered_for_later_builds(src, tmp_path, nsg_cr_root, capsys):
    index = tmp_path / "index"
    v26 = nsg_cr_root / "v26.03"
    assert main(["--index", str(index), "build", "--source", str(src), "--with", str(v26)]) == 0
    assert config.load_config().with_paths == (str(v26.resolve()),)
    assert main(["--index", str(index), "build", "--source", str(src), "--if-stale"]) == 0
    assert "up to date" in capsys.readouterr().err
    shutil.rmtree(index)
    assert main(["--index", str(index), "build", "--source", str(src)]) == 0
    corpus = Corpus.load(index)
    assert set(corpus.documents) == {"cr-1.6", "cr-1.4", "cr-26.03"}
    assert corpus.lookup("6.9.2").doc == "cr-26.03"   # a bare number: the newest CR that has it
    assert main(["--index", str(index), "build", "--source", str(src), "--forget", str(v26)]) == 0
    assert config.load_config().with_paths == ()
    assert set(Corpus.load(index).documents) == {"cr-1.6", "cr-1.4"}


@pytest.mark.corpora
def test_one_path_given_twice_is_loaded_once(src, tmp_path, nsg_cr_root):
    v26 = str(nsg_cr_root / "v26.03")
    assert main(["--index", str(tmp_path / "i"), "build", "--source", str(src),
                 "--with", v26, "--with", v26 + "/."]) == 0
    # remembered as the resolved path, so the same folder reached through a link counts once too
    assert config.load_config().with_paths == (str(Path(v26).resolve()),)


@pytest.mark.corpora
def test_two_paths_holding_the_same_document_are_refused(src, tmp_path, nsg_cr_root, capsys):
    code = main(["--index", str(tmp_path / "i"), "build", "--source", str(src),
                 "--with", str(nsg_cr_root / "v26.03"), "--with", str(nsg_cr_root)])
    assert code == 1
    assert "document 'cr-26.03' is loaded twice" in capsys.readouterr().err
    assert not (tmp_path / "i" / paths.CURRENT).exists()
    assert config.load_config().with_paths == ()


def test_the_build_writes_the_search_index(src, tmp_path):
    result = build.build(src, tmp_path / "index")
    assert result.search_index is True
    assert any((result.generation / paths.WHOOSH).iterdir())


def test_a_file_that_is_not_utf8_names_its_line(src, tmp_path, capsys):
    path = src / "cr-1.4.md"
    path.write_bytes(b"line one\nline two \xff\xfe\n")
    assert main(["--index", str(tmp_path / "i"), "build", "--source", str(src)]) == 1
    err = capsys.readouterr().err
    assert "cr-1.4.md:2: expected UTF-8 text" in err and "Traceback" not in err


def test_an_unknown_parser_is_named(src, tmp_path, capsys):
    manifest = src / "manifest.toml"
    manifest.write_text(manifest.read_text().replace('parser = "cr_markdown"', 'parser = "nope"'))
    assert main(["--index", str(tmp_path / "i"), "build", "--source", str(src)]) == 1
    # issue 12: the manifest's line of the `parser` field (`grep -n cr_markdown rules_source/manifest.toml`)
    assert f"{manifest}:24: unknown parser 'nope'" in capsys.readouterr().err


def _check_links(corpus: Corpus) -> list:
    bad = []
    for s in corpus.sections.values():
        for l in s.links:
            if l.target and l.target not in corpus.sections:
                bad.append((s.id, l, "target missing"))
            elif bool(l.target) == bool(l.reason):
                bad.append((s.id, l, "needs exactly one of target and reason"))
    return bad


def test_build_of_the_shipped_sources(rules_source, tmp_path):
    result = build.build(rules_source, tmp_path / "index")
    corpus = Corpus.load(tmp_path / "index")
    assert list(result.counts) == SEED_KEYS
    assert all(n > 0 for n in result.counts.values())
    assert _check_links(corpus) == []
    # the glossary's FFG step numbers are never CR rules
    steps = [l for s in corpus.in_doc("glossary") for l in s.links if l.kind == "ref"]
    assert steps and all(not l.target and l.reason == "FFG timing-structure step" for l in steps)


@pytest.mark.corpora
def test_build_with_every_corpus(rules_source, corpora_root, tmp_path):
    result = build.build(rules_source, tmp_path / "index", [str(corpora_root)])
    assert list(result.counts) == SEED_KEYS + ["cr-22.12", "cr-23.08", "cr-26.03", "cards", "nrdb-rulings"]
    corpus = Corpus.load(tmp_path / "index")
    assert _check_links(corpus) == []
    assert corpus.lookup("1.16.10b").doc == "cr-26.03"
    assert [h.doc for h in corpus.history(corpus.lookup("cr-1.6:1.11.4").id)] == [
        "cr-1.4", "cr-1.6", "cr-22.12", "cr-23.08", "cr-26.03"]


def test_duplicate_section_ids_are_refused_with_their_place(src, tmp_path, monkeypatch):
    def twice(text, file, doc):
        one = Section(id=f"{doc}:x", doc=doc, number="", title="x", kind="rule", text="",
                      provenance=Provenance(file=file, line_start=3))
        return [one, one]
    monkeypatch.setattr(registry, "parser_for", lambda name: twice)
    with pytest.raises(build.BuildError, match=r"^cr-1.6.txt:3: expected a unique section id"):
        build.build(src, tmp_path / "index")


@pytest.mark.corpora
def test_a_malformed_user_source_names_file_and_line(src, tmp_path, nsg_cr_root, capsys):
    index = tmp_path / "index"
    assert main(["--index", str(index), "build", "--source", str(src)]) == 0
    before = os.readlink(index / paths.CURRENT)
    copy = tmp_path / "v26.03"
    shutil.copytree(nsg_cr_root / "v26.03", copy)
    runs = copy / "data" / "input" / "06_runs.yaml"
    lines = runs.read_text("utf-8").split("\n")
    lines[9] = "  - rule: [unclosed"                       # line 10 of the file
    runs.write_text("\n".join(lines), "utf-8")
    capsys.readouterr()
    assert main(["--index", str(index), "build", "--source", str(src), "--with", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "06_runs.yaml:" in err and ": expected" in err and "Traceback" not in err
    assert os.readlink(index / paths.CURRENT) == before
    assert config.load_config().with_paths == ()


def test_timings_print_each_stage_of_the_build(src, tmp_path, capsys):
    """`judgebook build --timings` (issue 23): one line per stage the build ran, then the rest and the total."""
    from judgebook.cli import main
    assert main(["--index", str(tmp_path / "i"), "build", "--source", str(src), "--timings"]) == 0
    err = capsys.readouterr().err
    table = err[err.index("build stages (s):"):].splitlines()
    table = table[:next(i for i, line in enumerate(table) if line.split()[:1] == ["total"]) + 1]
    names = [line.split()[0] for line in table[1:]]
    assert names[:4] == ["parse", "link", "write", "search"] and names[-2:] == ["other", "total"]
    total = float(table[-1].split()[-1])
    assert 0 < sum(float(line.split()[-2]) for line in table[1:-1]) <= total + 0.01
    assert main(["--index", str(tmp_path / "j"), "build", "--source", str(src)]) == 0
    assert "build stages" not in capsys.readouterr().err
