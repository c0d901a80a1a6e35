"""Where the built index lives.

Layout under the index root (default ./index, or $JUDGEBOOK_INDEX):
    gen-<stamp>/            one build generation, never modified after the swap
        documents.json      list of Document records
        sections.jsonl      one Section record per line, document order
        build.json          what was built from (sources, hashes, times)
        whoosh/             the search index
    current -> gen-<stamp>  symlink, swapped atomically by os.replace
Readers resolve `current` once when they open the corpus, so a rebuild never
shows them half an index.
"""
from __future__ import annotations

import os
from pathlib import Path

CURRENT = "current"
DOCUMENTS = "documents.json"
SECTIONS = "sections.jsonl"
BUILD_INFO = "build.json"
WHOOSH = "whoosh"


def project_root() -> Path:
    return Path(__file__).resolve().parents[2]


def index_root(explicit: str | os.PathLike | None = None) -> Path:
    if explicit:
        return Path(explicit)
    env = os.environ.get("JUDGEBOOK_INDEX")
    return Path(env) if env else project_root() / "index"


def current_generation(root: str | os.PathLike | None = None) -> Path:
    """The folder of the current build; raises FileNotFoundError if none was built."""
    link = index_root(root) / CURRENT
    target = link.resolve()
    if not (target / SECTIONS).exists():
        raise FileNotFoundError(
            f"no index at {link}: run `judgebook build` (or `make run`) first")
    return target
