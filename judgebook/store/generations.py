"""Which generation is current, and which ones readers still hold.

A reader (a server process, a CLI search) takes a *lease* on the generation it
opened: a shared `flock` on the generation's `lease` file, held while the
generation is in use. A build deletes an old generation only when it can take
that lock exclusively, so no generation is deleted from under a reader; the
kernel drops a lease when its process dies, so a crashed server never pins a
generation for good. Where `fcntl` is missing (Windows), leases are no-ops and
the build keeps its old rule (the current and previous generations survive).
"""
from __future__ import annotations

import os
from pathlib import Path

from judgebook.store import paths

try:
    import fcntl
except ImportError:     # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

LEASE = "lease"


def current_target(root: Path) -> str | None:
    """The name `current` points at (one readlink, cheap enough for every request), or None."""
    try:
        return os.readlink(root / paths.CURRENT)
    except OSError:
        return None


class Lease:
    """A shared lock on one generation, released by `release()` or when the process ends."""

    def __init__(self, generation: Path):
        self.generation = generation
        self._fd: int | None = None
        if fcntl is None:
            return
        try:
            fd = os.open(generation / LEASE, os.O_RDONLY)
        except OSError:
            return          # a generation written before leases existed: nothing to hold
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
        except OSError:
            os.close(fd)
            return
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)       # closing drops the flock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def create_lease_file(generation: Path) -> None:
    (generation / LEASE).write_bytes(b"")


def delete_unless_in_use(generation: Path) -> bool:
    """Delete `generation` unless a reader holds a lease on it; True if it was deleted.

    The exclusive lock is held while deleting, so a reader that resolves the
    generation meanwhile waits and then finds it gone, never half gone.
    """
    import shutil
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(generation / LEASE, os.O_RDONLY)
        except OSError:
            fd = None
    try:
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False
        shutil.rmtree(generation, ignore_errors=True)
        return True
    finally:
        if fd is not None:
            os.close(fd)
