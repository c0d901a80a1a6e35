"""Shared fixtures.

Tests that read the real corpora use `corpora_root`: it skips on a developer
machine without ../shared/corpora, but fails under CI (CI set), where a
missing folder is a broken set-up, not a reason to run fewer tests.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
RULES_SOURCE = PROJECT / "rules_source"
CORPORA = Path(os.environ.get("JUDGEBOOK_CORPORA", PROJECT.parent / "shared" / "corpora"))


def _require(path: Path) -> Path:
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: CI needs ../shared/corpora beside the checkout")
        pytest.skip(f"{path} not present on this machine")
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
