"""The build: parse every source, link, write a new generation, swap it in.

    parse (manifest files, then user sources) -> link -> write gen-<stamp>-<pid>/
    -> search index -> symlink current.tmp -> os.replace onto current
    -> delete generations older than the previous one

A failure anywhere before the swap removes the half-written generation and
leaves `current` as it was, so readers never see half an index. The previous
generation is kept until the next build, so a reader that resolved it just
before the swap keeps working.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from judgebook.ingestion import user_sources
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.manifest import MANIFEST, load_manifest
from judgebook.ingestion.registry import ParserMissing, group_by_file, parse_job
from judgebook.linking import link
from judgebook.linking.alternatives import toc_titles
from judgebook.model import Document, Section, to_dict
from judgebook.search import indexer
from judgebook.store import paths
from judgebook.store.corpus import Corpus

Progress = Callable[[str], None]
BUILDING = ".building"          # marker inside a generation still being written
FORMAT = 1                      # bump when the generation layout changes
_CODE_DIRS = ("ingestion", "linking", "store", "search")
_CODE_FILES = ("model.py", "symbols.py")


class BuildError(Exception):
    """A build that cannot go on; the message is meant for the user as it is."""


@dataclass(frozen=True)
class BuildResult:
    generation: Path
    counts: dict[str, int]             # document key -> sections
    seconds: dict[str, float]          # stage -> seconds
    search_index: bool
    links: int = 0

    @property
    def sections(self) -> int:
        return sum(self.counts.values())


@dataclass
class Loaded:
    documents: list[Document] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    outlines: dict[str, dict[str, str]] = field(default_factory=dict)


def stderr_progress(msg: str) -> None:
    print(f"build: {msg}", file=sys.stderr, flush=True)


# ---- sources -----------------------------------------------------------------

def load_sources(source_dir: Path, with_paths: list[str], say: Progress) -> Loaded:
    out = Loaded()
    entries = load_manifest(source_dir)
    out.documents = [e.document for e in entries]
    for job in group_by_file(entries):
        t0 = time.perf_counter()
        try:
            secs = parse_job(job)
        except ParserMissing as exc:
            raise BuildError(f"{job.file}: {exc}") from None
        out.sections += secs
        say(f"parsed {job.file}: {len(secs)} sections ({time.perf_counter() - t0:.2f} s)")
        if job.entries[0].document.is_cr:
            out.outlines[job.entries[0].document.key] = toc_titles(job.entries[0].file.read_text("utf-8"))
    for path in with_paths:
        _load_user(Path(path), out, say)
    _check_unique(out)
    return out


def _load_user(path: Path, out: Loaded, say: Progress) -> None:
    if not path.exists():
        raise BuildError(f"{path}: no such file or folder (given with --with or remembered in "
                         f"judgebook.local.toml; `judgebook build --forget {path}` drops it)")
    try:
        found = user_sources.detect(path)
    except ValueError as exc:       # user_sources.UserSourceError
        raise BuildError(str(exc)) from None
    if not found:
        raise BuildError(f"{path}: expected NSG Comprehensive Rules YAML (folders v22.12, ...) "
                         "or NetrunnerDB card data (v2/cards), found neither")
    for source in found:
        t0 = time.perf_counter()
        try:
            docs, secs = user_sources.load(source)
        except (OSError, ValueError) as exc:   # ParseError passes through as it is
            raise BuildError(f"{path}: {exc}") from None
        out.documents += docs
        out.sections += secs
        keys = ", ".join(d.key for d in docs)
        say(f"loaded {keys} from {path}: {len(secs)} sections ({time.perf_counter() - t0:.2f} s)")


def _check_unique(out: Loaded) -> None:
    seen: set[str] = set()
    for d in out.documents:
        if d.key in seen:
            raise BuildError(f"document {d.key!r} is loaded twice: give each source once")
        seen.add(d.key)
    ids: set[str] = set()
    for s in out.sections:
        if s.id in ids:
            raise BuildError(f"{s.provenance.file}:{s.provenance.line_start}: expected a unique "
                             f"section id, found {s.id!r} twice")
        ids.add(s.id)


# ---- fingerprints (for --if-stale) -------------------------------------------

def _hash_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tree_fingerprint(path: Path) -> str:
    """Names, sizes and mtimes of every file under `path` (hashing gigabytes would be slow)."""
    h = hashlib.sha256()
    if path.is_file():
        st = path.stat()
        h.update(f"{path.name}\0{st.st_size}\0{st.st_mtime_ns}".encode())
        return h.hexdigest()
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            p = Path(root, name)
            st = p.stat()
            h.update(f"{p.relative_to(path)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _code_fingerprint() -> str:
    pkg = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    files = [pkg / f for f in _CODE_FILES]
    for d in _CODE_DIRS:
        files += sorted((pkg / d).glob("*.py"))
    for f in files:
        if f.exists():
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def fingerprint(source_dir: Path, with_paths: list[str]) -> dict:
    files = {MANIFEST: _hash_file(source_dir / MANIFEST)}
    try:
        for e in load_manifest(source_dir):
            files[e.document.source] = _hash_file(e.file)
    except ParseError:
        pass   # a broken manifest is stale by definition: the hash above changed
    return {"format": FORMAT, "code": _code_fingerprint(), "files": files,
            "with": {p: _tree_fingerprint(Path(p)) if Path(p).exists() else "missing"
                     for p in with_paths}}


def staleness(source_dir: Path, index_root: Path, with_paths: list[str]) -> str:
    """Why the index must be rebuilt, or "" when it is up to date."""
    try:
        gen = paths.current_generation(index_root)
        info = json.loads((gen / paths.BUILD_INFO).read_text("utf-8"))
    except (FileNotFoundError, OSError, ValueError):
        return "no index yet"
    try:
        now = fingerprint(source_dir, with_paths)
    except OSError as exc:
        return f"sources unreadable ({exc})"     # the build will say precisely what is wrong
    was = info.get("sources", {})
    for key, why in (("format", "index format changed"), ("code", "judgebook's code changed"),
                     ("files", "rules_source changed"), ("with", "extra sources changed")):
        if was.get(key) != now[key]:
            return why
    return ""


# ---- writing and swapping -------------------------------------------------------

def _new_generation(root: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    gen = root / f"gen-{stamp}-{os.getpid()}"
    gen.mkdir(parents=True)
    (gen / BUILDING).write_text(str(os.getpid()))
    return gen


def write_generation(gen: Path, documents: list[Document], sections: list[Section]) -> None:
    order = {d.key: d.order for d in documents}
    docs = sorted(documents, key=lambda d: d.order)
    (gen / paths.DOCUMENTS).write_text(
        json.dumps([to_dict(d) for d in docs], ensure_ascii=False, indent=1), "utf-8")
    with open(gen / paths.SECTIONS, "w", encoding="utf-8") as fh:
        for s in sorted(sections, key=lambda s: (order.get(s.doc, 1 << 30), s.order)):
            fh.write(json.dumps(to_dict(s), ensure_ascii=False) + "\n")


def swap(root: Path, gen: Path) -> Path | None:
    """Point `current` at `gen` atomically; returns the generation it pointed at before."""
    link = root / paths.CURRENT
    previous = link.resolve() if link.is_symlink() else None
    tmp = root / f"{paths.CURRENT}.tmp-{os.getpid()}"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(gen.name, tmp)          # relative, so the index folder can move
    os.replace(tmp, link)
    return previous


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (OSError, ValueError):
        return False
    return True


def prune(root: Path, keep: set[Path]) -> list[Path]:
    """Delete generations other than `keep`, except ones another live build is writing."""
    removed = []
    keep = {k.resolve() for k in keep if k}
    for gen in root.glob("gen-*"):
        if gen.resolve() in keep or not gen.is_dir():
            continue
        marker = gen / BUILDING
        if marker.exists():
            try:
                if _alive(int(marker.read_text() or 0)) and int(marker.read_text()) != os.getpid():
                    continue
            except ValueError:
                pass
        shutil.rmtree(gen, ignore_errors=True)
        removed.append(gen)
    return removed


def _search_index(corpus, gen: Path, say: Progress) -> bool:
    indexer.write_index(corpus, gen / paths.WHOOSH, progress=_lenient(say))
    return True


def _lenient(say: Progress) -> Callable[..., None]:
    """The indexer's progress callback: `(done, total)` reported at each quarter, or a message."""
    shown: set[int] = set()

    def cb(*args, **kwargs) -> None:
        if len(args) == 2 and all(isinstance(a, int) for a in args):
            done, total = args
            quarter = 4 * done // total if total else 4
            if quarter not in shown:
                shown.add(quarter)
                say(f"search index: {done}/{total} sections")
        else:
            say("search index: " + " ".join(str(a) for a in args))
    return cb


def build(source_dir: str | Path, index_root: str | Path | None = None,
          with_paths: list[str] | None = None, progress: Progress | None = None) -> BuildResult:
    """Build a new generation and swap it in; raises ParseError/BuildError, index untouched."""
    say = progress or (lambda m: None)
    source_dir, root = Path(source_dir), paths.index_root(index_root)
    with_paths = list(with_paths or [])
    seconds: dict[str, float] = {}
    t = time.perf_counter()
    loaded = load_sources(source_dir, with_paths, say)
    seconds["parse"] = time.perf_counter() - t
    t = time.perf_counter()
    sections = link(loaded.documents, loaded.sections, loaded.outlines, say)
    seconds["link"] = time.perf_counter() - t
    root.mkdir(parents=True, exist_ok=True)
    gen = _new_generation(root)
    try:
        t = time.perf_counter()
        write_generation(gen, loaded.documents, sections)
        seconds["write"] = time.perf_counter() - t
        say(f"wrote {len(sections)} sections of {len(loaded.documents)} documents to {gen.name}")
        t = time.perf_counter()
        has_index = _search_index(Corpus(loaded.documents, sections), gen, say)
        seconds["search"] = time.perf_counter() - t
        counts = _counts(loaded.documents, sections)
        links = sum(len(s.links) for s in sections)
        _write_info(gen, source_dir, with_paths, counts, seconds, has_index)
        (gen / BUILDING).unlink()
        previous = swap(root, gen)
    except BaseException:
        shutil.rmtree(gen, ignore_errors=True)
        raise
    removed = prune(root, {gen, previous} if previous else {gen})
    if removed:
        say(f"removed {len(removed)} old generation(s)")
    return BuildResult(gen, counts, seconds, has_index, links)


def _counts(documents: list[Document], sections: list[Section]) -> dict[str, int]:
    counts = {d.key: 0 for d in sorted(documents, key=lambda d: d.order)}
    for s in sections:
        counts[s.doc] = counts.get(s.doc, 0) + 1
    return counts


def _write_info(gen: Path, source_dir: Path, with_paths: list[str], counts: dict[str, int],
                seconds: dict[str, float], has_index: bool) -> None:
    info = {
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "source_dir": str(source_dir.resolve()),
        "with": with_paths,
        "sources": fingerprint(source_dir, with_paths),
        "documents": counts,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "search_index": has_index,
    }
    (gen / paths.BUILD_INFO).write_text(json.dumps(info, indent=1), "utf-8")
