"""Where each page lives, for the server and for the static export.

Templates and the renderer never build a URL themselves: they ask a `Urls`
object. The server's answers absolute paths (`/s/cr-1.6:1.16.10b`); the
export's answers paths relative to the page being written, so that the site
works opened from `file://` as well as from any static host.
"""
from __future__ import annotations

import posixpath
import re
from urllib.parse import quote, urlencode

# Characters kept as they are in an exported file name; everything else is
# written as ~xx (hex), so distinct ids never share a file and no id can climb
# out of its folder.
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def file_slug(section_id: str) -> str:
    """A file-system-safe, collision-free name for a section id."""
    slug = _UNSAFE.sub(lambda m: "".join(f"~{b:02x}" for b in m.group(0).encode()), section_id)
    # "." and ".." alone would be folder names, not files
    return slug if slug.strip(".") else slug.replace(".", "~2e")


class Urls:
    """URLs of the live app (absolute paths under `prefix`)."""
    static_site = False

    def __init__(self, prefix: str = ""):
        self.prefix = prefix.rstrip("/")

    def _p(self, path: str) -> str:
        return self.prefix + path

    def home(self) -> str:
        return self._p("/")

    def section(self, section_id: str, fragment: str = "") -> str:
        url = self._p("/s/" + quote(section_id, safe=":/"))
        return url + ("#" + fragment if fragment else "")

    def diff(self, section_id: str, a: str = "", b: str = "") -> str:
        query = urlencode({k: v for k, v in (("from", a), ("to", b)) if v})
        return self._p("/diff/" + quote(section_id, safe=":/")) + ("?" + query if query else "")

    def doc(self, key: str) -> str:
        return self._p("/d/" + quote(key, safe=""))

    def search(self, q: str = "", **filters: str) -> str:
        params = {"q": q, **{k: v for k, v in filters.items() if v}}
        return self._p("/search") + ("?" + urlencode(params) if q or filters else "")

    def changes(self, a: str = "", b: str = "") -> str:
        query = urlencode({k: v for k, v in (("from", a), ("to", b)) if v})
        return self._p("/changes") + ("?" + query if query else "")

    def page(self, name: str) -> str:
        """Fixed pages: rulings, cards, api, replay."""
        return self._p("/" + name)

    def static(self, path: str) -> str:
        return self._p("/static/" + path)

    def root_file(self, name: str) -> str:
        """Files that must sit at the site root (service worker, manifest)."""
        return self._p("/" + name)


class ExportUrls(Urls):
    """Relative URLs between the files of the static export.

    `here` is the path of the page being written, relative to the export
    root (e.g. "s/cr-1.6~3a1.16.10b.html").
    """
    static_site = True

    def __init__(self, here: str = "index.html", changes_pairs: frozenset = frozenset()):
        super().__init__("")
        self.here = here
        self._base = posixpath.dirname(here)
        self._up = "../" * (self._base.count("/") + 1) if self._base else ""
        self.changes_pairs = changes_pairs

    def at(self, here: str) -> ExportUrls:
        return ExportUrls(here, self.changes_pairs)

    def _rel(self, target: str) -> str:
        # Export paths are made of file_slug()s (nothing to quote), so a relative
        # path is just "../" per folder level of this page; computed, not relpath'd,
        # because the export asks this some 300,000 times.
        if not self._base:
            return target
        if target.startswith(self._base + "/"):
            return target[len(self._base) + 1:]
        return self._up + target

    def home(self) -> str:
        return self._rel("index.html")

    def section(self, section_id: str, fragment: str = "") -> str:
        url = self._rel(section_path(section_id))
        return url + ("#" + fragment if fragment else "")

    def diff(self, section_id: str, a: str = "", b: str = "") -> str:
        # a static site has one page per section; its History shows each diff
        return self.section(section_id, "history")

    def doc(self, key: str) -> str:
        return self._rel(f"d/{file_slug(key)}.html")

    def search(self, q: str = "", **filters: str) -> str:
        query = urlencode({"q": q}) if q else ""  # the static search has no filters
        return self._rel("search.html") + ("?" + query if query else "")

    def changes(self, a: str = "", b: str = "") -> str:
        if a and b:
            return self._rel(f"changes/{file_slug(a)}--{file_slug(b)}.html")
        return self._rel("changes/index.html")

    def page(self, name: str) -> str:
        return self._rel(f"{name}.html")

    def static(self, path: str) -> str:
        return self._rel("static/" + quote(path))

    def root_file(self, name: str) -> str:
        return self._rel(name)


def section_path(section_id: str) -> str:
    """Where the export writes a section's page, relative to the export root."""
    return f"s/{file_slug(section_id)}.html"
