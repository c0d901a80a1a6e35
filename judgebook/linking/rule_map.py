"""The rule map (issue 19 §2): for every anchor of CR 26.03, whether the replay engine enforces it.

The data is `judgebook/engine/rule_map.toml`, written by reading the rules; this module reads it into one
view model that the CLI (`judgebook engine rules`), the web's map page and each rule's page render as text,
JSON and HTML. `tests/test_rule_map.py` keeps the data true against the CR and the scenarios' citations.
"""
from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType

from judgebook.engine import Known

MAP_FILE = Path(__file__).resolve().parents[1] / "engine" / "rule_map.toml"
STATUSES = ("enforced", "no-behaviour", "not-yet")
CR_VERSION = "26.03"


class RuleMapError(ValueError):
    """The map file is malformed: the message names the file and the row."""


@dataclass(frozen=True)
class RuleRow:
    anchor: str
    number: str                       # "6.9.2b"
    status: str                       # one of STATUSES
    modules: tuple[str, ...] = ()     # engine modules (dotted) that enforce it
    scenarios: tuple[str, ...] = ()   # shipped scenarios (under rules_source/scenarios/) whose timelines cite it
    reason: str = ""                  # for no-behaviour and not-yet: why

    @property
    def chapter(self) -> str:
        return self.number.split(".")[0]

    def as_json(self) -> dict[str, object]:
        return {"anchor": self.anchor, "number": self.number, "status": self.status,
                "modules": list(self.modules), "scenarios": list(self.scenarios), "reason": self.reason}


@dataclass(frozen=True)
class ChapterCount:
    chapter: str
    counts: dict[str, int] = field(default_factory=dict)   # by status, every status present


@dataclass(frozen=True)
class RuleMap:
    rows: tuple[RuleRow, ...]

    def row(self, anchor: str | None) -> RuleRow | None:
        return _by_anchor(self).get(anchor or "")

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for r in self.rows:
            out[r.status] += 1
        return out

    def by_chapter(self) -> list[ChapterCount]:
        chapters: dict[str, dict[str, int]] = {}
        for r in self.rows:
            chapters.setdefault(r.chapter, dict.fromkeys(STATUSES, 0))[r.status] += 1
        return [ChapterCount(c, n) for c, n in chapters.items()]

    def not_yet(self) -> dict[str, str]:
        """anchor -> reason of every "not yet" row: what a replay step citing it warns of (issue 19 §4)."""
        return {r.anchor: r.reason for r in self.rows if r.status == "not-yet"}

    def only(self, status: str | None) -> RuleMap:
        return self if status is None else RuleMap(tuple(r for r in self.rows if r.status == status))

    def as_json(self) -> dict[str, object]:
        return {"cr": CR_VERSION, "rules": [r.as_json() for r in self.rows], "counts": self.counts(),
                "chapters": {c.chapter: c.counts for c in self.by_chapter()}}

    def as_text(self) -> str:
        lines = [f"{'rule':<9} {'status':<13} detail"]
        for r in self.rows:
            if r.status == "enforced":
                detail = f"{', '.join(r.modules)}; {len(r.scenarios)} scenario(s): {', '.join(r.scenarios)}"
            else:
                detail = r.reason
            lines.append(f"{r.number:<9} {r.status:<13} {r.anchor}: {detail}")
        counts = self.counts()
        lines.append("")
        lines.append(", ".join(f"{counts[s]} {s}" for s in STATUSES) + f" (CR {CR_VERSION}, {len(self.rows)} rules)")
        return "\n".join(lines) + "\n"


_INDEXES: dict[int, dict[str, RuleRow]] = {}


def _by_anchor(m: RuleMap) -> dict[str, RuleRow]:
    key = id(m)
    if key not in _INDEXES:
        _INDEXES[key] = {r.anchor: r for r in m.rows}
    return _INDEXES[key]


def _strings(value: object, where: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleMapError(f"{where}: `{key}` must be a list of strings")
    return tuple(value)


def parse(text: str, file: str) -> RuleMap:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleMapError(f"{file}: {exc}") from exc
    rules = data.pop("rules", None)
    if data:
        raise RuleMapError(f"{file}: unknown table(s) {', '.join(sorted(data))}")
    if not isinstance(rules, dict):
        raise RuleMapError(f"{file}: no [rules] table")
    rows = []
    for anchor, fields in rules.items():
        where = f"{file}: rules.{anchor}"
        if not isinstance(fields, dict):
            raise RuleMapError(f"{where}: must be a table")
        unknown = set(fields) - {"number", "status", "modules", "scenarios", "reason"}
        if unknown:
            raise RuleMapError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        status, number, reason = fields.get("status"), fields.get("number"), fields.get("reason", "")
        if status not in STATUSES:
            raise RuleMapError(f"{where}: `status` must be one of {', '.join(STATUSES)}, not {status!r}")
        if not isinstance(number, str) or not number:
            raise RuleMapError(f"{where}: `number` must be the rule's number")
        if not isinstance(reason, str):
            raise RuleMapError(f"{where}: `reason` must be a string")
        modules = _strings(fields.get("modules", []), where, "modules")
        scenarios = _strings(fields.get("scenarios", []), where, "scenarios")
        if status == "enforced" and (not modules or not scenarios or reason):
            raise RuleMapError(f"{where}: an enforced rule names its modules and scenarios, and no reason")
        if status != "enforced" and (modules or scenarios or not reason):
            raise RuleMapError(f"{where}: a {status} rule gives a reason, and no modules or scenarios")
        rows.append(RuleRow(anchor, number, status, modules, scenarios, reason))
    return RuleMap(tuple(rows))


@cache
def rule_map() -> RuleMap:
    return parse(MAP_FILE.read_text(encoding="utf-8"), str(MAP_FILE))


@cache
def _not_yet() -> Mapping[str, str]:
    return MappingProxyType(rule_map().not_yet())


def known(mismatch: str | None = None) -> Known:
    """What a replay warns of (issue 19 §4): the map's "not yet" rows, and a live mismatch's `why`."""
    return Known(_not_yet(), mismatch)


__all__ = ["MAP_FILE", "STATUSES", "RuleMap", "RuleMapError", "RuleRow", "known", "parse", "rule_map"]
