"""The stamp the web's caches are kept under: it changes with every change to a file it covers, and only then."""
from __future__ import annotations

import os

from judgebook.store.file_stamp import stamp


def test_the_stamp_changes_with_the_files_it_covers_and_only_them(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    (a / "sub").mkdir(parents=True)
    b.mkdir()
    (a / "one.yaml").write_text("x: 1\n", encoding="utf-8")
    first = stamp([a, b], ".yaml")
    seen = {first}

    def changed() -> bool:
        now = stamp([a, b], ".yaml")
        new = now not in seen
        seen.add(now)
        return new

    (a / "notes.txt").write_text("not a yaml file", encoding="utf-8")
    assert not changed()
    (a / "sub" / "two.yaml").write_text("y: 2\n", encoding="utf-8")
    assert changed()
    assert stamp([a, b], ".yaml", recursive=False) == first              # the sub-folder's file not covered
    (a / "sub" / "two.yaml").write_text("y: 3\n", encoding="utf-8")      # same size, edited
    os.utime(a / "sub" / "two.yaml", ns=(1, 1))
    assert changed()
    (a / "one.yaml").rename(b / "one.yaml")                               # moved to the next folder
    assert changed()
    (b / "one.yaml").unlink()
    assert changed()
    assert stamp([a], ".yaml", extra="other data") != stamp([a], ".yaml")
    assert stamp([tmp_path / "missing"], ".yaml") == stamp([tmp_path / "missing"], ".yaml")
