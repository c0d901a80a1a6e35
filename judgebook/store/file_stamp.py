"""A stamp of the files under some folders (names, sizes, times): what the web's caches of computed data
(the card catalog, the scenarios' citations) are kept under, checked again on every request that reads
them so that an edited file is picked up at once.

Walked with os.scandir rather than Path.rglob + stat: the check runs per request (a rule page, each
keystroke in the builder's card field), and pathlib's walk made it 6 to 18 ms for the ~1,000 files.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
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


# Seconds a stamp is reused in this process before the files are walked again: 0 (every call walks) except
# in a server, which sets it with `hold` (issue 23: walking ~2,000 files took 12 ms of every rule and card
# page under load; an edit then shows within the hold).
_HOLD = 0.0
_HELD: dict[tuple[tuple[str, ...], str, bool, str], tuple[float, str]] = {}
_HELD_LOCK = threading.Lock()


def hold(seconds: float) -> None:
    global _HOLD
    _HOLD = seconds
    with _HELD_LOCK:
        _HELD.clear()


def stamp(folders: Iterable[Path], suffix: str, recursive: bool = True, extra: str = "") -> str:
    """A digest that changes when a file ending in `suffix` under `folders` (and their sub-folders when
    `recursive`) is added, removed, resized or touched, or when `extra` changes."""
    folders = list(folders)
    if _HOLD <= 0:
        return _walk(folders, suffix, recursive, extra)
    key = (tuple(str(f) for f in folders), suffix, recursive, extra)
    now = time.monotonic()
    with _HELD_LOCK:
        held = _HELD.get(key)
    if held is not None and now - held[0] < _HOLD:
        return held[1]
    value = _walk(folders, suffix, recursive, extra)
    with _HELD_LOCK:
        if len(_HELD) > 64:
            _HELD.clear()
        _HELD[key] = (now, value)
    return value


def _walk(folders: list[Path], suffix: str, recursive: bool, extra: str) -> str:
    h = hashlib.sha256(extra.encode())
    for folder in folders:
        found: list[tuple[str, int, int]] = []
        _entries(str(folder), suffix, recursive, found)
        for path, size, mtime in sorted(found):
            h.update(f"{path}\0{size}\0{mtime}\n".encode())
        h.update(b"\1")             # a file moving between two folders changes the stamp
    return h.hexdigest()


__all__ = ["hold", "stamp"]
