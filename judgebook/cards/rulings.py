"""The ruling scenarios (`scenarios/standard/ruling-*.yaml`): each encodes one NetrunnerDB ruling, its
`expect` the ruling's answer. The report says how many replay to that answer and, for each that does not,
whether the engine or the ruling is wrong (its `mismatch`), or that nothing explains it (a failure)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judgebook.engine.driver.script import replay
from judgebook.engine.errors import ScenarioError
from judgebook.engine.language.nrdb import CardSource
from judgebook.engine.scenario.load import load_scenario
from judgebook.engine.scenario.verdict import Verdict, check, verdict
from judgebook.store.paths import project_root

SOURCE = re.compile(r"NetrunnerDB ruling: ([a-z0-9_]+), (\d{4}-\d\d-\d\d), (NSG-verified|not NSG-verified)")


def default_dir() -> Path:
    return project_root() / "rules_source" / "scenarios" / "standard"


@dataclass(frozen=True)
class RulingResult:
    file: str
    title: str
    card_id: str
    date: str
    verified: bool
    verdict: Verdict | None      # None: the scenario could not be read or replayed (`error` says why)
    error: str = ""

    @property
    def status(self) -> str:
        """met | known_mismatch | stale_mismatch | failed | error"""
        if self.verdict is None:
            return "error"
        if self.verdict.passed:
            return "known_mismatch" if self.verdict.mismatch is not None else "met"
        return "stale_mismatch" if self.verdict.stale else "failed"

    def reason(self) -> str:
        if self.verdict is None:
            return self.error
        if self.verdict.mismatch is not None:
            return self.verdict.label()
        return "; ".join(self.verdict.differences) or self.verdict.label()

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "title": self.title, "card_id": self.card_id, "date": self.date,
                "nsg_verified": self.verified, "status": self.status, "reason": self.reason()}


@dataclass(frozen=True)
class RulingReport:
    results: tuple[RulingResult, ...]

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    def as_json(self) -> dict[str, Any]:
        return {"scenarios": len(self.results), "met": self.count("met"),
                "known_mismatch": self.count("known_mismatch"), "failed": self.count("failed"),
                "stale_mismatch": self.count("stale_mismatch"), "error": self.count("error"),
                "nsg_verified": sum(1 for r in self.results if r.verified),
                "not_met": [r.as_dict() for r in self.results if r.status != "met"]}

    def lines(self) -> list[str]:
        n = len(self.results)
        out = [f"{n} ruling scenarios ({sum(1 for r in self.results if r.verified)} NSG-verified): "
               f"{self.count('met')} replay to the ruling's answer, {self.count('known_mismatch')} known mismatches, "
               f"{self.count('failed')} failed, {self.count('stale_mismatch')} stale mismatches, "
               f"{self.count('error')} errors"]
        for r in self.results:
            if r.status != "met":
                out.append(f"  {r.status}: {r.file}: {r.reason()}")
        return out


def ruling_files(directory: str | Path) -> list[Path]:
    return sorted(Path(directory).glob("ruling-*.yaml"))


def check_source(source: str, nrdb_root: Path) -> tuple[str, str, bool]:
    """The ruling a scenario names, checked against the user's NetrunnerDB rulings: (card id, date, verified)."""
    m = SOURCE.fullmatch(source.strip())
    if m is None:
        raise ScenarioError('source is "NetrunnerDB ruling: <card_id>, <date_update>, NSG-verified" '
                            '(or "..., not NSG-verified")', field="source")
    card, date, verified = m.group(1), m.group(2), m.group(3) == "NSG-verified"
    path = nrdb_root / "v2" / "rulings" / f"{card}.json"
    rulings = json.loads(path.read_text("utf-8")) if path.is_file() else []
    if not any(r.get("date_update") == date and bool(r.get("nsg_rules_team_verified")) == verified
               for r in rulings if isinstance(r, dict)):
        raise ScenarioError(f"NetrunnerDB has no ruling on {card} dated {date} "
                            f"{'NSG-verified' if verified else 'not NSG-verified'}", field="source")
    return card, date, verified


def replay_ruling(path: Path, library: Path, source: CardSource, nrdb_root: Path) -> RulingResult:
    card = date = ""
    verified = False
    title = path.stem
    try:
        sc = load_scenario(path, library, source)
        title = sc.title
        card, date, verified = check_source(sc.source, nrdb_root)
        outcome = replay(sc)
        return RulingResult(str(path), title, card, date, verified,
                            verdict(sc.expect is not None, check(sc, outcome), sc.mismatch))
    except ScenarioError as exc:
        exc.file = exc.file or str(path)
        return RulingResult(str(path), title, card, date, verified, None, str(exc))
    except Exception as exc:  # an engine error is reported with the scenario that met it, never hidden
        return RulingResult(str(path), title, card, date, verified, None,
                            f"internal engine error: {type(exc).__name__}: {exc}")


def ruling_report(directory: Path, library: Path, source: CardSource, nrdb_root: Path) -> RulingReport:
    return RulingReport(tuple(replay_ruling(p, library, source, nrdb_root) for p in ruling_files(directory)))
