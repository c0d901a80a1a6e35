"""NetrunnerDB cards and rulings: snippets, a broken checkout, then the real data."""
from __future__ import annotations

import collections
import json
import re

import pytest

from judgebook.ingestion import nrdb
from judgebook.ingestion.errors import ParseError

NAMES = nrdb.Names(types={"ice": "ICE"}, factions={"nbn": "NBN"},
                   subtypes={"code_gate": "Code Gate", "ap": "AP"})

CARD = {
    "id": "tollbooth", "title": "Tollbooth", "stripped_title": "Tollbooth",
    "card_type_id": "ice", "side_id": "corp", "faction_id": "nbn",
    "subtypes": ["code_gate"], "cost": 8, "strength": 5, "is_unique": False,
    "text": "When the Runner encounters this ice, they must pay 3[credit], if able. "
            "If they cannot, end the run.\n[subroutine] End the run. <strong>Limit 1.</strong>",
}


def test_card_text_symbols_and_meta():
    card = nrdb.parse_card(json.dumps(CARD, indent=2), "v2/cards/tollbooth.json", NAMES)
    assert (card.id, card.doc, card.kind, card.title) == (
        "cards:tollbooth", "cards", "card", "Tollbooth")
    assert card.text == ("When the Runner encounters this ice, they must pay 3[c], if able. "
                         "If they cannot, end the run.\n[sub] End the run. Limit 1.")
    assert card.meta_get("type") == "ice" and card.meta_get("type_name") == "ICE"
    assert card.meta_get("subtypes") == "Code Gate"
    assert (card.meta_get("cost"), card.meta_get("strength")) == ("8", "5")
    assert card.meta_get("unique") == "false"
    # json.dumps(indent=2): "{", 11 keys, 2 more lines for the subtypes list, "}"
    assert (card.provenance.line_start, card.provenance.line_end) == (1, 15)


def test_variable_cost_and_html_lists():
    card = nrdb.parse_card(json.dumps({
        "id": "x", "title": "X", "cost": None, "text":
        "Choose 1:<ul><li>Gain 2[recurring-credit].</li>"
        "<li>Install <em>1</em> [trash] [mu].</li></ul>"}),
        "v2/cards/x.json", NAMES)
    assert card.meta_get("cost") == "X"
    assert card.text == "Choose 1:\n• Gain 2[recurring].\n• Install 1 [trash] [mu]."


RULINGS = ("""[
  {
    "card_id": "hippo",
    "date_update": "2018-08-01",
    "nsg_rules_team_verified": false,
    "question": "####[ANCUR](https://x) [UFAQ 24](http://y) [Michael Boggs]\\n"""  # one JSON line, split
    """Can the Runner trash [Tollbooth](/en/card/123) with Hippo?",
    "answer": "Yes. It checks when they would pass it (Step 4 of the run), after step 3.1 and at step 6.9.5a."
  },
  {
    "card_id": "hippo",
    "date_update": "2024-01-02",
    "nsg_rules_team_verified": true,
    "text_ruling": "Hippo costs 1<span class=\\"icon icon-credit\\"></span> **less**. [Official FAQ]"
  }
]
""")


@pytest.fixture()
def rulings():
    return nrdb.parse_rulings(RULINGS, "v2/rulings/hippo.json", "hippo",
                              {"tollbooth": "cards:tollbooth"})


def test_rulings_keep_date_source_verified_and_lines(rulings):
    first, second = rulings
    assert (first.id, first.doc, first.kind, first.parent) == (
        "nrdb-rulings:hippo/1", "nrdb-rulings", "ruling", "cards:hippo")
    p = first.provenance
    assert (p.date, p.attribution, p.line_start, p.line_end) == (
        "2018-08-01", "Michael Boggs", 2, 8)
    assert dict(p.extra) == {"verified": "false", "source": "ANCUR UFAQ 24 Michael Boggs"}
    assert first.text.startswith("Q: Can the Runner trash Tollbooth with Hippo?\n\nA: Yes.")
    q = second.provenance
    assert (q.date, q.line_start, q.line_end) == ("2024-01-02", 9, 14)
    assert dict(q.extra) == {"verified": "true", "source": "Official FAQ"}
    assert second.text == "Hippo costs 1[c] less."


def test_ruling_links(rulings):
    first = rulings[0]
    card = [l for l in first.links if l.kind == "card"]
    assert [(l.ref, l.target) for l in card] == [("Tollbooth", "cards:tollbooth")]
    old = [l for l in first.links if l.reason == nrdb.OLD_STEP_REASON]
    # the old chart's "Step 4" and "step 3.1" are marked; 6.9.5a is a CR number
    assert [(l.ref, l.text, l.target) for l in old] == [("step 4", "Step 4", ""),
                                                       ("step 3.1", "step 3.1", "")]
    for link in first.links:
        assert first.text[link.start:link.end] == link.text


def test_card_lists_its_rulings(rulings):
    card = nrdb.with_rulings(nrdb.parse_card(json.dumps({"id": "hippo", "title": "Hippo"}),
                                             "v2/cards/hippo.json", NAMES), rulings)
    assert card.children == ("nrdb-rulings:hippo/1", "nrdb-rulings:hippo/2")
    assert [(l.kind, l.target) for l in card.links] == [
        ("ruling", "nrdb-rulings:hippo/1"), ("ruling", "nrdb-rulings:hippo/2")]


@pytest.mark.parametrize("text, line, expected", [
    ('{\n  "id": "a",\n  "title": "A",\n  "cost": 3,,\n}', 4, "valid JSON"),
    ('{\n  "id": "a"\n}', 1, "a 'title' string"),
    ('{\n  "title": "A",\n  "id": 7\n}', 3, "a 'id' string"),
    ('[1, 2]', 1, "a JSON object for one card"),
])
def test_malformed_card(text, line, expected):
    with pytest.raises(ParseError) as err:
        nrdb.parse_card(text, "v2/cards/a.json", NAMES)
    assert (err.value.file, err.value.line) == ("v2/cards/a.json", line)
    assert expected in err.value.expected


@pytest.mark.parametrize("text, line, expected", [
    # the comma on line 5 promises another key; line 6 has none
    ('[\n  {\n    "card_id": "a",\n    "date_update": "2020-01-01"\n  ,\n]', 6, "valid JSON"),
    ('[\n  {"card_id": "a", "date_update": "2020-01-01", "nsg_rules_team_verified": true}\n]', 2,
     "'text_ruling', or 'question' and 'answer'"),
    ('[\n  {"card_id": "a", "date_update": "1/2/2020", "nsg_rules_team_verified": true,'
     ' "text_ruling": "x"}\n]', 2, "'date_update' as YYYY-MM-DD"),
    ('[\n  {"card_id": "b", "text_ruling": "x"}\n]', 2, "card_id 'a'"),
    ('{"card_id": "a"}', 1, "a JSON list of rulings"),
    ('[\n  {"card_id": "a", "date_update": "2020-01-01", "nsg_rules_team_verified": true,'
     ' "text_ruling": "x"}\n', 3, "']' closing the list"),
])
def test_malformed_rulings(text, line, expected):
    with pytest.raises(ParseError) as err:
        nrdb.parse_rulings(text, "v2/rulings/a.json", "a", {})
    assert (err.value.file, err.value.line) == ("v2/rulings/a.json", line)
    assert expected in err.value.expected


def test_broken_checkout_names_the_file(tmp_path):
    v2 = tmp_path / "v2"
    (v2 / "cards").mkdir(parents=True)
    (v2 / "rulings").mkdir()
    (v2 / "cards" / "a.json").write_text('{"id": "a", "title": "A"}')
    (v2 / "rulings" / "a.json").write_text('[\n  {"card_id": "a",\n  "date_update": }\n]')
    with pytest.raises(ParseError) as err:
        nrdb.load(v2)
    assert err.value.file == "v2/rulings/a.json" and err.value.line == 3
    (v2 / "rulings" / "a.json").unlink()
    (v2 / "rulings" / "zz.json").write_text("[]")
    with pytest.raises(ParseError, match="zz"):
        nrdb.load(v2)


# ---- the real checkout ---------------------------------------------------------------

@pytest.fixture(scope="module")
def real(cards_root):
    # (How long loading takes is measured by bench/ingest.py, not asserted here.)
    cards, rulings = nrdb.load(cards_root / "v2")
    return cards, rulings


@pytest.mark.corpora
def test_counts(real, cards_root):
    cards, rulings = real
    # ls v2/cards/*.json | wc -l -> 1988
    assert len(cards) == 1988
    # cat v2/rulings/*.json | grep -c '"card_id"' -> 886 (one per ruling object)
    assert len(rulings) == 886
    # ... | grep -c '"nsg_rules_team_verified": true' -> 275
    assert sum(dict(r.provenance.extra)["verified"] == "true" for r in rulings) == 275
    # ... | grep -c '"text_ruling"' -> 168; the other 718 are question and answer
    assert sum(r.text.startswith("Q: ") for r in rulings) == 886 - 168
    # ls v2/rulings | wc -l -> 653 cards have rulings
    assert sum(1 for c in cards if c.children) == 653
    # grep -oh '\[[^][]*\]([^) ]*/card/[^) ]*)' v2/rulings/*.json | wc -l -> 1112
    card_links = [l for r in rulings for l in r.links if l.kind == "card"]
    assert len(card_links) == 1112
    # grep -ohP '\b[Ss]teps? \d+(\.\d+)?[a-z]?(?![.\d]*\d)' v2/rulings/*.json | wc -l -> 29
    old = [l for r in rulings for l in r.links if l.reason == nrdb.OLD_STEP_REASON]
    assert len(old) == 29
    assert collections.Counter(l.ref for l in old)["step 2.3"] == 4


@pytest.mark.corpora
def test_real_records(real):
    cards, rulings = real
    by = {s.id: s for s in cards + rulings}
    assert len(by) == len(cards) + len(rulings)
    hippo = by["cards:hippo"]
    assert hippo.meta_get("type") == "hardware" and hippo.meta_get("faction") == "anarch"
    ruling = by["nrdb-rulings:hippo/1"]
    assert ruling.parent == "cards:hippo" and ruling.provenance.date == "2018-08-01"
    assert "Mirāju" in ruling.text
    assert [l.target for l in ruling.links if l.kind == "card"][0] == "cards:miraju"
    for s in cards + rulings:
        assert not re.search(r"</?[a-zA-Z][^>]*>", s.text), s.id       # no HTML left
        assert "[credit]" not in s.text and "[subroutine]" not in s.text, s.id
        assert "**" not in s.text and "####" not in s.text, s.id
        for link in s.links:
            if link.start >= 0:
                assert s.text[link.start:link.end] == link.text
    # identities are linked by the name before the colon
    assert by["cards:steve_cambridge_master_grifter"].id in {
        l.target for r in rulings for l in r.links if l.ref == "Steve Cambridge"}

