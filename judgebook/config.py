"""The local, git-ignored configuration: `judgebook.local.toml` at the project root.

It remembers the extra sources given once with `judgebook build --with PATH`,
so that later builds (and `make run`) include them, and the card library that
`judgebook replay` / `judgebook play` use for a scenario with no `../cards`
folder beside it (set by `judgebook replay --library DIR --remember`):

    [build]
    with = ["/home/me/nsg-cr", "/home/me/netrunner-cards-json"]

    [scenarios]
    library = "/home/me/judge-cards"

$JUDGEBOOK_CONFIG points elsewhere (the tests use it to stay out of the checkout).
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from judgebook.store.paths import project_root

CONFIG_NAME = "judgebook.local.toml"


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class LocalConfig:
    with_paths: tuple[str, ...] = ()
    library: str | None = None           # card definitions for scenarios that sit anywhere


def config_path() -> Path:
    env = os.environ.get("JUDGEBOOK_CONFIG")
    return Path(env) if env else project_root() / CONFIG_NAME


def card_data(cfg: LocalConfig | None = None) -> Path | None:
    """The NetrunnerDB card data among the remembered sources (a folder with `v2/cards`), if any: the
    engine takes card statistics from it, so a definition need state only abilities."""
    for entry in (cfg or load_config()).with_paths:
        if (Path(entry) / "v2" / "cards").is_dir():
            return Path(entry)
    return None


# Under rules_source/, in lookup order (the first definition of a name wins); True: its definitions state
# only abilities and take their statistics from NetrunnerDB, so they are read only when its data is given.
LIBRARY_FOLDERS = (("cards/standard", True), ("cards/real", True), ("cards", False))


def card_library(statistics: bool = True, root: Path | None = None) -> list[Path]:
    """The project's whole card library, in the order a name is looked up: the Standard pool (keyed by
    NetrunnerDB id), then the real cards of the shipped rulings, then the worked-example cards. A table
    session and a scenario downloaded from it use this, wherever the file sits. Without NetrunnerDB's
    data (`statistics` false) only the folders whose definitions state their own statistics."""
    base = (root or project_root()) / "rules_source"
    return [base / folder for folder, needs in LIBRARY_FOLDERS
            if (base / folder).is_dir() and (statistics or not needs)]


def load_config(path: Path | None = None) -> LocalConfig:
    path = path or config_path()
    if not path.exists():
        return LocalConfig()
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        line = m.group(1) if (m := re.search(r"line (\d+)", str(exc))) else "0"
        raise ConfigError(f"{path}:{line}: expected valid TOML ({exc})") from None
    paths = data.get("build", {}).get("with", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ConfigError(f"{path}: expected [build] with = a list of path strings")
    scenarios = data.get("scenarios", {})
    if not isinstance(scenarios, dict) or set(scenarios) - {"library"}:
        raise ConfigError(f"{path}: [scenarios] holds only `library`")
    library = scenarios.get("library")
    if library is not None and not isinstance(library, str):
        raise ConfigError(f"{path}: expected [scenarios] library = a path string")
    return LocalConfig(tuple(paths), library)


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def save_config(cfg: LocalConfig, path: Path | None = None) -> None:
    path = path or config_path()
    body = ("# judgebook's local settings (not committed): extra sources for every build\n"
            "[build]\n"
            f"with = [{', '.join(_quote(p) for p in cfg.with_paths)}]\n")
    if cfg.library is not None:
        body += f"\n[scenarios]\nlibrary = {_quote(cfg.library)}\n"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(body, "utf-8")
    os.replace(tmp, path)


def remember(paths: list[str], path: Path | None = None) -> LocalConfig:
    """Add `paths` (made absolute) to the remembered ones; returns the new config."""
    cfg = load_config(path)
    merged = list(cfg.with_paths)
    for p in paths:
        p = str(Path(p).expanduser().resolve())
        if p not in merged:
            merged.append(p)
    new = replace(cfg, with_paths=tuple(merged))
    if new != cfg:
        save_config(new, path)
    return new


def forget(paths: list[str], path: Path | None = None) -> LocalConfig:
    cfg = load_config(path)
    drop = {str(Path(p).expanduser().resolve()) for p in paths} | set(paths)
    new = replace(cfg, with_paths=tuple(p for p in cfg.with_paths if p not in drop))
    if new != cfg:
        save_config(new, path)
    return new


def remember_library(library: str | None, path: Path | None = None) -> LocalConfig:
    """Set (a folder, made absolute) or clear (None) the remembered card library."""
    cfg = load_config(path)
    new = replace(cfg, library=str(Path(library).expanduser().resolve()) if library is not None else None)
    if new != cfg:
        save_config(new, path)
    return new
