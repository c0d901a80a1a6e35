"""Shared fixtures.

The real corpora are found in one place (tests/corpora.py: ../shared/corpora or $JUDGEBOOK_CORPORA).
When they are missing the run stops before collecting anything, with one line saying what to fetch:
no test is skipped silently for want of data.

Every test runs with its own settings file and index folder ($JUDGEBOOK_CONFIG, $JUDGEBOOK_INDEX point
into the test's tmp_path), so a user's judgebook.local.toml or built index changes no result.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from corpora import CORPORA, problem

PROJECT = Path(__file__).resolve().parents[1]
RULES_SOURCE = PROJECT / "rules_source"

__all__ = ["CORPORA", "PROJECT", "RULES_SOURCE"]


def pytest_configure(config: pytest.Config) -> None:
    line = problem()
    if line:
        raise pytest.UsageError(line)
    # Session-wide defaults for what runs before a test's own fixture (collection, session fixtures).
    private = Path(tempfile.mkdtemp(prefix="judgebook-tests-"))
    os.environ["JUDGEBOOK_CONFIG"] = str(private / "judgebook.local.toml")
    os.environ["JUDGEBOOK_INDEX"] = str(private / "index")


@pytest.fixture(autouse=True)
def private_settings(tmp_path_factory, monkeypatch):
    """The test's own settings file (absent until written) and index folder, never the checkout's."""
    own = tmp_path_factory.mktemp("settings")
    monkeypatch.setenv("JUDGEBOOK_CONFIG", str(own / "judgebook.local.toml"))
    monkeypatch.setenv("JUDGEBOOK_INDEX", str(own / "index"))


def _require(path: Path) -> Path:
    if not path.exists():
        pytest.fail(f"{path} is missing: {problem(CORPORA) or 'the corpora folder is incomplete'}")
    return path


@pytest.fixture(scope="session")
def corpora_root() -> Path:
    return _require(CORPORA)


@pytest.fixture(scope="session")
def nsg_cr_root(corpora_root) -> Path:
    return _require(corpora_root / "nsg-cr")


@pytest.fixture(scope="session")
def cards_root(corpora_root) -> Path:
    return _require(corpora_root / "netrunner-cards-json")


@pytest.fixture(scope="session")
def rules_source() -> Path:
    return RULES_SOURCE


@pytest.fixture
def shared_replays():
    """The front ends (`judgebook replay`, the rule pages' citations) replay shipped scenarios once per run,
    sharing tests/replays.py's kept replays with the engine's own tests."""
    import replays
    with replays.through_front_ends():
        yield
