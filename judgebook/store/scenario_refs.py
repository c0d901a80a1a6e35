"""The shipped scenarios on a rule's page and in search (issue 10, Keep and share).

A rule's page lists the scenarios whose timelines cite its anchor; search finds scenarios by their titles.
Replaying every scenario takes seconds, so it is never done per request: the citations are kept per process
and on disk in the index folder (`scenario-citations.json`), under a stamp of the scenario and card files,
the NetrunnerDB folder and the engine's code — a change to any of them computes them again. `judgebook
build` computes them into that cache, so the first rule page after a build replays nothing. Titles alone
are read without replaying (each file's `title:` line alone), for `judgebook search` to stay quick.

It lives in store/ (beside the index it caches into) so that the CLI's build and search and the web all reach
it without one front end importing the other; the engine is imported only where a scenario is replayed or a
quoted title needs a YAML reading (issue 23: a search paid 0.1 s to import the engine for the titles).
"""
from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from judgebook.store.file_stamp import stamp
from judgebook.text import fold

CACHE_FILE = "scenario-citations.json"
ENGINE = Path(__file__).resolve().parents[1] / "engine"


@dataclass(frozen=True)
class ScenarioRef:
    path: str                       # under the scenarios folder: "glossary-x.yaml", "real/x.yaml"
    title: str
    anchors: tuple[str, ...] = ()   # the rules its timeline cites, in the order first cited
    broken: str = ""                # why it could not be replayed (then it cites nothing)

    @property
    def name(self) -> str | None:
        """Its name on the replay page (/replay/NAME): only the top folder's scenarios have one."""
        return self.path.removesuffix(".yaml") if "/" not in self.path else None


class ScenarioIndex:
    def __init__(self, refs: list[ScenarioRef]) -> None:
        self.refs = refs
        self.by_anchor: dict[str, list[ScenarioRef]] = {}
        for ref in refs:
            for anchor in ref.anchors:
                self.by_anchor.setdefault(anchor, []).append(ref)

    def citing(self, anchor: str | None) -> list[ScenarioRef]:
        return self.by_anchor.get(anchor or "", [])


def search(refs: list[ScenarioRef], query: str, limit: int = 10) -> list[ScenarioRef]:
    """Scenarios whose title holds every word of `query` (as a word's start: "femme" finds "Femme Fatale")."""
    words = fold(query).split()
    if not words:
        return []
    found = []
    for ref in refs:
        title = f" {fold(ref.title)}"
        if all(f" {w}" in title for w in words):
            found.append(ref)
    return found[:limit]


# ---- reading -----------------------------------------------------------------------------------
def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml") if p.is_file()) if folder.is_dir() else []


_TITLE = re.compile(r"^title:[ \t]*(\S.*)$", re.M)
# A plain YAML scalar that reads as itself: no quotes, flow or block indicators, comments or `: `
# (566 titles through the YAML reader took 0.25 s; nearly all are plain).
_PLAIN = re.compile(r"""[^-?:,\[\]{}#&*!|>'"%@`\s][^#]*""")


def _title(path: Path) -> str:
    """A scenario's `title:` line, read alone (reading whole files took half a second for 130 of them)."""
    try:
        found = _TITLE.search(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return path.stem
    if found is None:
        return path.stem
    raw = found.group(1).rstrip()
    if _PLAIN.fullmatch(raw) and ": " not in raw and not raw.endswith(":"):
        return raw
    if raw.startswith('"') and raw.endswith('"') and "\\" not in raw.replace('\\"', ""):
        try:
            value = json.loads(raw)     # a double-quoted scalar escaping only `"` reads the same in JSON
        except ValueError:
            value = None
        if isinstance(value, str) and value.strip():
            return value
    return _yaml_title(raw, path)


def _yaml_title(raw: str, path: Path) -> str:
    from judgebook.engine.errors import ScenarioError
    from judgebook.engine.yamlnodes import load_text

    try:
        value = load_text(f"title: {raw}", path.name).get("title")
    except (ScenarioError, AttributeError):
        value = None
    return value if isinstance(value, str) and value.strip() else path.stem


_TITLES: dict[str, list[ScenarioRef]] = {}


def titles(folder: Path) -> list[ScenarioRef]:
    """Every scenario file under `folder`, with its title and source (no replay), kept per process."""
    key = stamp([folder], ".yaml", extra=str(folder))     # os.scandir: each search page asks (issue 23)
    if key not in _TITLES:
        _TITLES.clear()
        _TITLES[key] = [ScenarioRef(p.relative_to(folder).as_posix(), _title(p)) for p in _files(folder)]
    return _TITLES[key]


def _library(path: Path, folder: Path) -> Path | None:
    """The library `judgebook replay` gives a shipped scenario: cards/NAME/ for one in scenarios/NAME/,
    else cards/ (the web does not import the command, so the rule is restated here for shipped files)."""
    cards = folder.parent / "cards"
    sub = path.relative_to(folder).parts
    if len(sub) > 1 and (cards / sub[0]).is_dir():
        return cards / sub[0]
    return cards if cards.is_dir() else None


def replay_all(folder: Path, cards_root: Path | None) -> list[ScenarioRef]:
    """Replay every scenario under `folder` (each with the library `judgebook replay` gives it)."""
    # Imported lazily: the engine's drivers are needed only when citations are computed.
    from judgebook.engine.driver.script import replay
    from judgebook.engine.errors import ScenarioError
    from judgebook.engine.scenario.load import load_scenario

    out = []
    for ref, path in zip(titles(folder), _files(folder), strict=True):
        try:
            sc = load_scenario(path, _library(path, folder), cards_root)
            outcome = replay(sc)
        except (ScenarioError, OSError, UnicodeDecodeError) as exc:
            out.append(ScenarioRef(ref.path, ref.title, broken=str(exc)))
            continue
        except Exception as exc:    # an engine bug in one scenario must not hide the others' citations
            out.append(ScenarioRef(ref.path, ref.title, broken=f"{type(exc).__name__}: {exc}"))
            continue
        cited = [s.anchor for s in outcome.steps if s.anchor]
        if outcome.error is not None:
            cited.append(outcome.error.rule)
        out.append(ScenarioRef(ref.path, sc.title, tuple(dict.fromkeys(cited))))
    return out


_INDEX: dict[str, ScenarioIndex] = {}
_LOCK = threading.Lock()


def citations(folder: Path, cards_root: Path | None, cache_dir: Path | None) -> ScenarioIndex:
    """The scenarios' citations: from this process's memory, else the disk cache, else replayed (and kept)."""
    cards = folder.parent / "cards"
    key = stamp([folder, cards], ".yaml", extra=f"{cards_root}\0{stamp([ENGINE], '.py')}")
    with _LOCK:
        if key in _INDEX:
            return _INDEX[key]
        refs = _read_cache(cache_dir, key)
        if refs is None:
            refs = replay_all(folder, cards_root)
            _write_cache(cache_dir, key, refs)
        _INDEX.clear()
        _INDEX[key] = ScenarioIndex(refs)
        return _INDEX[key]


def _read_cache(cache_dir: Path | None, key: str) -> list[ScenarioRef] | None:
    if cache_dir is None:
        return None
    try:
        data = json.loads((cache_dir / CACHE_FILE).read_text("utf-8"))
        if data.get("stamp") != key:
            return None
        return [ScenarioRef(r["path"], r["title"], tuple(r["anchors"]), r["broken"])
                for r in data["scenarios"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None      # no cache, or one from another version: computed again


def _write_cache(cache_dir: Path | None, key: str, refs: list[ScenarioRef]) -> None:
    if cache_dir is None or not cache_dir.is_dir():
        return
    tmp = cache_dir / f"{CACHE_FILE}.tmp-{os.getpid()}"
    try:
        tmp.write_text(json.dumps({"stamp": key, "scenarios": [asdict(r) for r in refs]}), "utf-8")
        os.replace(tmp, cache_dir / CACHE_FILE)
    except OSError:
        tmp.unlink(missing_ok=True)      # a read-only index: the citations stay in memory only


__all__ = ["ScenarioIndex", "ScenarioRef", "citations", "replay_all", "search", "titles"]
