"""Detecting and loading the sources a user points `judgebook build --with` at."""
from __future__ import annotations

from pathlib import Path

import pytest

from judgebook.ingestion import user_sources as us
from judgebook.ingestion.errors import ParseError

CHAPTER = "chapter: chpt_a\ntext: A\nsections:\n- section: sec_a\n  text: S\n  rules:\n" \
          "  - rule: rule_a\n    text: See {ref:sec_a}.\n"


def cr_checkout(root: Path, chapter: str = CHAPTER, config: str | None = None) -> Path:
    (root / "data" / "input").mkdir(parents=True)
    (root / "data" / "input" / "01_a.yaml").write_text(chapter, "utf-8")
    (root / "data" / "input" / "00_changelog.yaml").write_text(
        "changelog:\n- text: Added {ref:rule_a}.\n", "utf-8")
    if config is not None:
        (root / "config.yaml").write_text(config, "utf-8")
    return root


def cards_checkout(root: Path) -> Path:
    (root / "v2" / "cards").mkdir(parents=True)
    (root / "v2" / "rulings").mkdir()
    (root / "v2" / "cards" / "a.json").write_text('{"id": "a", "title": "A", "text": "[click]"}')
    (root / "v2" / "rulings" / "a.json").write_text(
        '[{"card_id": "a", "date_update": "2020-01-01", "nsg_rules_team_verified": true,'
        ' "text_ruling": "Fine."}]')
    return root


# ---- detection -------------------------------------------------------------------------

def test_one_version_named_by_its_folder(tmp_path):
    [s] = us.detect(cr_checkout(tmp_path / "v23.08"))
    assert (s.kind, s.key, s.version, s.effective) == (
        us.KIND_CR, "cr-23.08", "23.08", "2023-08-07")
    assert s.origin == str(tmp_path / "v23.08")


def test_version_and_date_from_config(tmp_path):
    # a checkout under its repository name: config.yaml says which release it is
    root = cr_checkout(tmp_path / "netrunner-comprehensive-rules",
                       config='date:\n  year: "2025"\n  month: "04"\n  day: "14"\n')
    [s] = us.detect(root)
    assert (s.key, s.version, s.effective) == ("cr-25.04", "25.04", "2025-04-14")


def test_config_date_wins_over_the_table(tmp_path):
    root = cr_checkout(tmp_path / "v26.03",
                       config='date:\n  year: "2026"\n  month: "03"\n  day: "09"\n')
    assert us.detect(root)[0].effective == "2026-03-09"


def test_unknown_release_without_config_has_no_date(tmp_path):
    assert us.detect(cr_checkout(tmp_path / "v24.01"))[0].effective == ""


def test_version_unknowable(tmp_path):
    with pytest.raises(us.UserSourceError, match="cannot tell which CR version"):
        us.detect(cr_checkout(tmp_path / "rules"))


def test_parent_folder_with_everything(tmp_path):
    cr_checkout(tmp_path / "nsg" / "v26.03")
    cr_checkout(tmp_path / "nsg" / "v22.12")
    cards_checkout(tmp_path / "netrunner-cards-json")
    found = us.detect(tmp_path)
    assert [s.key for s in found] == ["cr-22.12", "cr-26.03", "cards"]
    assert found[-1].keys == ("cards", "nrdb-rulings")
    assert found[-1].path == tmp_path / "netrunner-cards-json"


def test_cards_checkout_or_its_v2_folder(tmp_path):
    root = cards_checkout(tmp_path / "cj")
    assert [s.path for s in us.detect(root)] == [root]
    assert [s.path for s in us.detect(root / "v2")] == [root]


@pytest.mark.parametrize("make, message", [
    (lambda p: p, "found neither NSG Comprehensive Rules YAML"),
    (lambda p: p / "missing", "no such file or folder"),
    (lambda p: (p / "f.txt").write_text("x") and p / "f.txt", "expected a folder"),
])
def test_unknown_paths(tmp_path, make, message):
    (tmp_path / "stuff").mkdir()
    with pytest.raises(us.UserSourceError, match=message):
        us.detect(make(tmp_path))


def test_two_copies_of_one_version(tmp_path):
    cr_checkout(tmp_path / "a" / "v26.03")
    cr_checkout(tmp_path / "b" / "v26.03")
    with pytest.raises(us.UserSourceError, match="two sources for cr-26.03"):
        us.detect(tmp_path)


# ---- loading ----------------------------------------------------------------------------

def test_load_cr(tmp_path):
    [source] = us.detect(cr_checkout(tmp_path / "v22.12"))
    [doc], secs = us.load(source)
    assert (doc.key, doc.era, doc.is_cr, doc.parser, doc.effective, doc.edition) == (
        "cr-22.12", "nsg", True, "nsg_yaml", "2022-12-12", "22.12")
    assert doc.source == str(tmp_path / "v22.12")
    by = {s.id: s for s in secs}
    assert by["cr-22.12:rule_a"].text == "See section 1.1."
    assert by["cr-22.12:rule_a"].provenance.file == "data/input/01_a.yaml"
    log = by["cr-22.12:changelog-22.12"]
    assert (log.text, log.meta_get("changelog")) == ("Added rule 1.1.1.", "true")


def test_load_cards(tmp_path):
    [source] = us.detect(cards_checkout(tmp_path / "cj"))
    docs, secs = us.load(source)
    assert [(d.key, d.parser, d.era) for d in docs] == [("cards", "nrdb", "nsg"),
                                                        ("nrdb-rulings", "nrdb", "nsg")]
    assert [s.id for s in secs] == ["cards:a", "nrdb-rulings:a/1"]
    assert secs[0].text == "[click]" and secs[0].provenance.file == "v2/cards/a.json"


def test_malformed_yaml_names_the_full_path_and_line(tmp_path):
    bad = CHAPTER.replace("  - rule: rule_a\n", "  - rule: rule_a\n  bad: [\n")
    [source] = us.detect(cr_checkout(tmp_path / "v26.03", chapter=bad))
    with pytest.raises(ParseError) as err:
        us.load(source)
    assert err.value.file == str(tmp_path / "v26.03" / "data" / "input" / "01_a.yaml")
    # YAML notices the unclosed `[` of line 8 at the `{` of line 9, and says both
    assert err.value.line == 9 and "from line 8" in err.value.found


def test_malformed_config(tmp_path):
    with pytest.raises(ParseError) as err:
        us.detect(cr_checkout(tmp_path / "v26.03", config="date: [2026\n"))
    assert err.value.file.endswith("config.yaml") and err.value.line == 1


def test_malformed_card_names_the_full_path(tmp_path):
    root = cards_checkout(tmp_path / "cj")
    (root / "v2" / "cards" / "a.json").write_text('{"id": "a",\n "title": }')
    with pytest.raises(ParseError) as err:
        us.load(us.detect(root)[0])
    assert (err.value.file, err.value.line) == (str(root / "v2" / "cards" / "a.json"), 2)


# ---- the real corpora ------------------------------------------------------------------------

@pytest.mark.corpora
def test_real_corpora(corpora_root, nsg_cr_root, cards_root):
    found = us.detect(corpora_root)
    assert [(s.key, s.effective) for s in found] == [
        ("cr-22.12", "2022-12-12"), ("cr-23.08", "2023-08-07"), ("cr-26.03", "2026-03-02"),
        ("cards", "")]
    assert [s.key for s in us.detect(nsg_cr_root)] == ["cr-22.12", "cr-23.08", "cr-26.03"]
    assert [s.key for s in us.detect(cards_root)] == ["cards"]
    docs, secs = us.load(found[2])
    assert docs[0].effective == "2026-03-02"     # read from v26.03/config.yaml
    assert sum(1 for s in secs if s.meta_get("changelog")) == 3
