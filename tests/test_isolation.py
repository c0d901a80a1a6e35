"""Tests run with their own settings and index, whatever the user has set up (issue 23).

The README's `judgebook build --with …` writes a judgebook.local.toml naming NetrunnerDB's data; the CLI
then takes Corroder's statistics from it and rejected a test's own Corroder. Every test now gets its own
settings file and index folder (conftest's `private_settings`), so such a file changes no result.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from corpora import CARDS, CORPORA, problem

from judgebook import config
from judgebook.store.paths import index_root, project_root

PROJECT = Path(__file__).resolve().parents[1]


def test_each_test_has_its_own_settings_file_and_index(tmp_path):
    assert config.config_path() != project_root() / config.CONFIG_NAME
    assert not config.config_path().exists()
    assert config.load_config() == config.LocalConfig()
    assert index_root() != project_root() / "index"
    assert tmp_path.parent.parent in config.config_path().parents    # under this run's basetemp


def test_the_corpora_are_found_in_one_place():
    assert problem() is None and CARDS == CORPORA / "netrunner-cards-json"
    assert "JUDGEBOOK_CORPORA" in (problem(PROJECT / "no-such-folder") or "")


def test_a_users_settings_naming_netrunnerdb_change_no_result(tmp_path):
    """The user's settings (as `judgebook build --with` writes them) and index, set in the environment the
    suite starts in: the test that once failed under them passes."""
    users = tmp_path / "judgebook.local.toml"
    config.save_config(config.LocalConfig((str(CARDS),)), users)
    assert config.card_data(config.load_config(users)) == CARDS
    env = {**os.environ, "JUDGEBOOK_CONFIG": str(users), "JUDGEBOOK_INDEX": str(tmp_path / "users-index"),
           "PYTHONPATH": str(PROJECT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/test_replay_cli.py::test_illegal_decision_prints_the_partial_timeline_and_the_rule",
         "tests/test_isolation.py::test_each_test_has_its_own_settings_file_and_index"],
        cwd=PROJECT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout
