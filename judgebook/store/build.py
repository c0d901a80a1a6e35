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
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from judgebook.ingestion import user_sources
from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.manifest import MANIFEST, ManifestEntry, load_manifest
from judgebook.ingestion.registry import ParserMissing, group_by_file, parse_job
from judgebook.linking import link
from judgebook.linking.alternatives import toc_titles
from judgebook.model import Document, Section, to_dict
from judgebook.search import indexer, question_bank
from judgebook.store import generations, paths
from judgebook.store.corpus import Corpus

Progress = Callable[[str], None]
BUILDING = ".building"          # marker inside a generation still being written
FORMAT = 1                      # bump when the generation layout changes
_CODE_DIRS = ("ingestion", "linking", "store", "search")
# The semantic table's vectors are stored with each text: a new table needs a new index.
_CODE_FILES = ("model.py", "symbols.py", "search/semantic_table.bin")


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

def load_sources(source_dir: Path, with_paths: list[str], say: Progress,
                 new_editions: Collection[str] = ()) -> Loaded:
    out = Loaded()
    entries = load_manifest(source_dir)
    out.documents = [e.document for e in entries]
    for job in group_by_file(entries):
        t0 = time.perf_counter()
        try:
            secs = parse_job(job)
        except ParserMissing as exc:
            first = job.entries[0]
            raise BuildError(f"{first.manifest}:{first.parser_line}: {exc}, for {first.document.key} "
                             f"({first.document.source})") from None
        out.sections += secs
        say(f"parsed {job.file}: {len(secs)} sections ({time.perf_counter() - t0:.2f} s)")
        if job.entries[0].document.is_cr:
            out.outlines[job.entries[0].document.key] = toc_titles(job.entries[0].file.read_text("utf-8"))
    # after parsing, so that damage a parser can place is reported at its line
    check_digests(entries, new_editions)
    for path in with_paths:
        _load_user(Path(path), out, say)
    _check_unique(out)
    return out


def check_digests(entries: list[ManifestEntry], new_editions: Collection[str] = ()) -> None:
    """Refuse a shipped file whose bytes differ from the digest the manifest records.

    The shipped documents are known exactly, so any change is damage (a
    truncated copy, stray bytes, an edit) unless the user says the file is a
    new edition; parsers cannot tell a truncated rules text from a short one.
    """
    seen: dict[Path, str] = {}
    for e in entries:
        if not e.sha256 or e.document.source in new_editions:
            continue
        if e.file not in seen:
            seen[e.file] = _hash_file(e.file)
        if seen[e.file] != e.sha256:
            raise BuildError(
                f"{e.file}: changed since it was shipped (sha256 {seen[e.file][:12]}…, the manifest "
                f"records {e.sha256[:12]}… on line {e.line} for {e.document.key}); a damaged or "
                f"edited copy is refused. If it is a new edition, update its entry and run "
                f"`judgebook build --new-edition {e.document.source}`")


def record_new_editions(source_dir: Path, new_editions: Collection[str]) -> list[str]:
    """Write the current digests of the `new_editions` files into the manifest; returns those changed."""
    path = source_dir / MANIFEST
    text = path.read_text("utf-8")
    changed = []
    for e in load_manifest(source_dir):
        if e.document.source in new_editions and e.sha256:
            digest = _hash_file(e.file)
            if digest != e.sha256:
                text = text.replace(f'"{e.sha256}"', f'"{digest}"')
                changed.append(e.document.source)
    if changed:
        tmp = path.with_name(f".{MANIFEST}.tmp-{os.getpid()}")
        tmp.write_text(text, "utf-8")
        os.replace(tmp, path)
    return sorted(set(changed))


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
    if (source_dir / BANK).exists():
        files[str(BANK)] = _hash_file(source_dir / BANK)
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
    generations.create_lease_file(gen)
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
    """Delete generations other than `keep`, except ones another live build is writing
    and ones a reader (a running server) holds a lease on."""
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
        if generations.delete_unless_in_use(gen):
            removed.append(gen)
    return removed


BANK = Path("questions") / "bank.toml"


def _question_bank(source_dir: Path, sections: list[Section], say: Progress) -> list:
    """The question bank to ship (rules_source/questions/bank.toml), checked against the rules cited.

    A malformed bank, or one citing a rule no document has, fails the build. Without
    CR 26.03 in the build (a test's small sources) there is nothing to cite: not shipped."""
    path = source_dir / BANK
    if not path.exists():
        return []
    try:
        entries = question_bank.load(path)
    except question_bank.BankError as exc:
        raise BuildError(str(exc)) from None
    if not any(s.doc == question_bank.DEFAULT_DOC for s in sections):
        say(f"question bank not shipped: {question_bank.DEFAULT_DOC} is not in this build")
        return []
    missing = question_bank.unknown_rules(entries, {s.id for s in sections})
    if missing:
        raise BuildError(f"{path}: " + "; ".join(missing[:5]) + (f" (and {len(missing) - 5} more)"
                                                                  if len(missing) > 5 else ""))
    say(f"question bank: {len(entries)} questions")
    return entries


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
          with_paths: list[str] | None = None, progress: Progress | None = None, *,
          force: bool = False, new_editions: Collection[str] = ()) -> BuildResult:
    """Build a new generation and swap it in; raises ParseError/BuildError, index untouched.

    One build at a time per index: a second one waits for the lock (saying
    who holds it), so the last to start is the one that ends up current.
    `force` accepts a build that loses many sections against the current one;
    `new_editions` (manifest `file` names) accepts changed shipped files.
    """
    say = progress or (lambda m: None)
    root = paths.index_root(index_root)
    root.mkdir(parents=True, exist_ok=True)
    with BuildLock(root, say):
        return _build(Path(source_dir), root, list(with_paths or []), say, force, new_editions)


def _build(source_dir: Path, root: Path, with_paths: list[str], say: Progress, force: bool,
           new_editions: Collection[str]) -> BuildResult:
    seconds: dict[str, float] = {}
    t = time.perf_counter()
    loaded = load_sources(source_dir, with_paths, say, new_editions)
    file_counts = _file_counts(loaded.sections)
    if not force:
        check_losses(root, file_counts)
    seconds["parse"] = time.perf_counter() - t
    t = time.perf_counter()
    sections = link(loaded.documents, loaded.sections, loaded.outlines, say)
    seconds["link"] = time.perf_counter() - t
    bank = _question_bank(source_dir, sections, say)
    gen = _new_generation(root)
    try:
        t = time.perf_counter()
        write_generation(gen, loaded.documents, sections)
        if bank:
            question_bank.write_generation(bank, gen)
        seconds["write"] = time.perf_counter() - t
        say(f"wrote {len(sections)} sections of {len(loaded.documents)} documents to {gen.name}")
        t = time.perf_counter()
        has_index = _search_index(Corpus(loaded.documents, sections), gen, say)
        seconds["search"] = time.perf_counter() - t
        counts = _counts(loaded.documents, sections)
        links = sum(len(s.links) for s in sections)
        _write_info(gen, source_dir, with_paths, counts, seconds, has_index, file_counts)
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
                seconds: dict[str, float], has_index: bool,
                file_counts: dict[str, dict[str, int]]) -> None:
    info = {
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "source_dir": str(source_dir.resolve()),
        "with": with_paths,
        "sources": fingerprint(source_dir, with_paths),
        "documents": counts,
        "files": file_counts,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "search_index": has_index,
    }
    (gen / paths.BUILD_INFO).write_text(json.dumps(info, indent=1), "utf-8")


# ---- refusing a build that lost much of a document ------------------------------------
# A truncated source file still parses: what gives it away is how many sections
# it yields against the build being replaced. Counted per source file, as one
# truncated chapter of a 1,900-section CR is only a few percent of the document.
MAX_LOSS = 0.20         # share of a file's (or document's) sections a build may lose unforced
MIN_SECTIONS = 10       # files smaller than this are not compared


def _file_counts(sections: list[Section]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for s in sections:
        per_doc = out.setdefault(s.doc, {})
        per_doc[s.provenance.file] = per_doc.get(s.provenance.file, 0) + 1
    return out


def check_losses(root: Path, now: dict[str, dict[str, int]]) -> None:
    """BuildError naming every document or file that lost more than MAX_LOSS of its sections."""
    try:
        info = json.loads((paths.current_generation(root) / paths.BUILD_INFO).read_text("utf-8"))
    except (OSError, ValueError):
        return          # nothing to compare with
    was_files = info.get("files") or {}
    was_docs = info.get("documents") or {}
    losses = []
    for doc, before in was_docs.items():
        if doc not in now or not isinstance(before, int):
            continue     # a document dropped from the manifest or --forget is a decision, not damage
        after = sum(now[doc].values())
        if before >= MIN_SECTIONS and after < before * (1 - MAX_LOSS):
            losses.append(f"{doc}: {before} -> {after} sections")
            continue
        for file, n in (was_files.get(doc) or {}).items():
            got = now[doc].get(file, 0)
            if n >= MIN_SECTIONS and got < n * (1 - MAX_LOSS):
                losses.append(f"{doc} ({file}): {n} -> {got} sections")
    if losses:
        raise BuildError("this build has far fewer sections than the current index, as a truncated or "
                         "damaged source would: " + "; ".join(losses) + ". The current index is kept; "
                         "if the sources really changed, run `judgebook build --force`")


# ---- one build at a time --------------------------------------------------------------
LOCK = "build.lock"


class BuildLock:
    """An exclusive lock on the index folder for the length of a build.

    The lock file holds the holder's pid and start time, so a waiting build
    can say who it waits for; the kernel releases the lock if the holder dies.
    """

    def __init__(self, root: Path, say: Progress):
        self.path = root / LOCK
        self.say = say
        self.fd: int | None = None

    def __enter__(self) -> BuildLock:
        try:
            import fcntl
        except ImportError:     # pragma: no cover - not POSIX: no lock, as before
            return self
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "another build"
            self.say(f"waiting for the build already running on this index ({holder})")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}, started {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC".encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            os.close(self.fd)
            self.fd = None
