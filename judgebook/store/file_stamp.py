"""A stamp of the files under some folders (names, sizes, times): what the web's caches of computed data
(the card catalog, the scenarios' citations) are kept under, checked again on every request that reads
them so that an edited file is picked up at once.

Walked with os.scandir rather than Path.rglob + stat: the check runs per request (a rule page, each
keystroke in the builder's card field), and pathlib's walk made it 6 to 18 ms for the ~1,000 files.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path


def _entries(root: str, suffix: str, recursive: bool, out: list[tuple[str, int, int]]) -> None:
    try:
        scan = os.scandir(root)
    except OSError:
        return                      # a folder that is not there stamps as empty
    with scan:
        for entry in scan:
            try:
                if entry.is_dir():
                    if recursive:
                        _entries(entry.path, suffix, recursive, out)
                elif entry.name.endswith(suffix) and entry.is_file():
                    st = entry.stat()
                    out.append((entry.path, st.st_size, st.st_mtime_ns))
            except OSError:
                continue            # a file removed while walking: the next check sees it gone


def stamp(folders: Iterable[Path], suffix: str, recursive: bool = True, extra: str = "") -> str:
    """A digest that changes when a file ending in `suffix` under `folders` (and their sub-folders when
    `recursive`) is added, removed, resized or touched, or when `extra` changes."""
    h = hashlib.sha256(extra.encode())
    for folder in folders:
        found: list[tuple[str, int, int]] = []
        _entries(str(folder), suffix, recursive, found)
        for path, size, mtime in sorted(found):
            h.update(f"{path}\0{size}\0{mtime}\n".encode())
        h.update(b"\1")             # a file moving between two folders changes the stamp
    return h.hexdigest()


__all__ = ["stamp"]
