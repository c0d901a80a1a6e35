"""Reading a session's text: the table's card library and card data, and a parse that reads a session's
board once and its decisions alone (a click changes only the decisions).

The card library is the project's whole library (`config.card_library()`), card statistics from the
NetrunnerDB data `judgebook build --with` was given (`config.card_data()`); the app config can name both
(`JUDGEBOOK_LIBRARY`: a list of folders; `JUDGEBOOK_CARD_DATA`: a netrunner-cards-json folder).
"""
from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

import yaml
from flask import current_app

from judgebook.config import ConfigError, card_library
from judgebook.config import card_data as configured_card_data
from judgebook.engine.errors import ScenarioError
from judgebook.engine.scenario import board as scenario_board
from judgebook.engine.scenario.load import parse_scenario
from judgebook.engine.yamlnodes import load_text

MAX_STEPS = 2000          # a session cannot raise options.max_steps above the default (as an upload)
SESSION_FILE = "session"  # how errors name the session's text


# ---- the library -------------------------------------------------------------------
def library() -> list[Path]:
    named = current_app.config.get("JUDGEBOOK_LIBRARY")
    if named is not None:
        return [Path(p) for p in named]
    return card_library(card_data() is not None)


def card_data() -> Path | None:
    if "JUDGEBOOK_CARD_DATA" in current_app.config:
        named = current_app.config["JUDGEBOOK_CARD_DATA"]
        return Path(named) if named else None
    try:
        return configured_card_data()
    except ConfigError:
        current_app.logger.warning("judgebook.local.toml cannot be read: no card statistics")
        return None


class Recent:
    """The last values computed from a text (least recently used out first). Only a cache: the text, and the
    library and card data it was read with, are the key."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self.items: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Any:
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)


BOARDS = Recent(16)


def parse_text(text: str, file: str = SESSION_FILE) -> Any:
    """A scenario from a text a visitor sent, read as an upload is: the bounded YAML loader, the table's
    library, max_steps capped. ScenarioError on anything wrong with it.

    A session's clicks change only its `decisions:`; the rest (board, cards) is parsed once and kept
    (BOARDS), the decisions parsed alone, each part through the same bounded loader with its lines where
    they stand. Whatever that split cannot read exactly as a whole (no top-level block `decisions:`, an
    alias across the parts, any error) is parsed whole, which gives the authoritative answer."""
    sc = _parse_in_parts(text, file)
    if sc is None:
        sc = parse_scenario(text, file, library(), card_data())
    if sc.max_steps > MAX_STEPS:
        sc = dataclasses.replace(sc, max_steps=MAX_STEPS)
    return sc


def _parse_in_parts(text: str, file: str) -> Any:
    parts = split_decisions(text)
    if parts is None:
        return None
    rest, decisions = parts
    key = (rest, file, tuple(map(str, library())), str(card_data()), library_stamp())
    try:
        sc = BOARDS.get(key)
        if sc is None:
            if not _ends_at_top_level(text[: text.index("\ndecisions:") + 1] if not text.startswith("decisions:")
                                      else ""):
                return None
            sc = parse_scenario(rest, file, library(), card_data())
            BOARDS.put(key, sc)
        node = load_text(decisions, file)
        if not isinstance(node, dict) or list(node) != ["decisions"]:
            return None
        return dataclasses.replace(sc, decisions=scenario_board.read_decisions(node["decisions"]))
    except ScenarioError:
        return None


def _ends_at_top_level(prefix: str) -> bool:
    """Whether YAML text `prefix` ends outside any quoted scalar or flow collection, so that a line
    `decisions:` after it is a top-level key (a plain or block scalar ends at a line in column 0). Only
    scanned, never loaded: scanning builds nothing an alias or nesting could blow up."""
    scanner = yaml.SafeLoader(prefix)
    try:
        while scanner.check_token():
            scanner.get_token()
        return scanner.flow_level == 0
    except yaml.YAMLError:
        return False
    finally:
        scanner.dispose()


def split_decisions(text: str) -> tuple[str, str] | None:
    """(the text with its top-level `decisions:` block blanked, that block alone), each keeping every line
    where it stands (blank lines in place of the other part); None when there is not exactly one such
    block at the start of a line."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("decisions:")]
    if len(starts) != 1:
        return None
    first = starts[0]
    end = first + 1
    while end < len(lines) and (not lines[end] or lines[end][0] in " \t#"):
        end += 1
    rest = lines[:first] + [""] * (end - first) + lines[end:]
    block = [""] * first + lines[first:end]
    return "\n".join(rest), "\n".join(block)


def library_stamp() -> tuple[int, ...]:
    """The library folders' modification times: a card file edited under a running server is read again."""
    return tuple(p.stat().st_mtime_ns for p in library() if p.is_dir())


__all__ = ["BOARDS", "MAX_STEPS", "SESSION_FILE", "Recent", "card_data", "library", "library_stamp", "parse_text",
           "split_decisions"]
