"""The card language's coverage on the web: the figures on /cards, and a defined card's page (status, printed
text beside the rendering, the scenarios that use it)."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from test_web_corpus import real_index

from judgebook.web.app import create_app

TESTS = Path(__file__).resolve().parent
FIXTURE_CARDS = TESTS / "fixtures" / "pool_cards"
SCENARIO = """title: {title}
corp:
  servers:
    HQ: {{ice: [{{card: {card}, rezzed: true}}]}}
"""

pytestmark = pytest.mark.corpora


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory) -> Path:
    """Three scenarios: one at the top naming Funhouse, one in a sub-folder naming a second copy, one not."""
    root = tmp_path_factory.mktemp("scenarios")
    (root / "sub").mkdir()
    (root / "fun-one.yaml").write_text(SCENARIO.format(title="Funhouse at the top", card="Funhouse"))
    (root / "sub" / "fun-two.yaml").write_text(SCENARIO.format(title="A second Funhouse <b>", card="Funhouse#2"))
    (root / "other.yaml").write_text(SCENARIO.format(title="Only Hagen", card="Hagen"))
    return root


@pytest.fixture(scope="module")
def client(tmp_path_factory, corpora_root, cards_root, scenarios):
    app = create_app(index_root=real_index(tmp_path_factory, corpora_root))
    app.config.update(JUDGEBOOK_NRDB=str(cards_root), JUDGEBOOK_POOL_CARDS=str(FIXTURE_CARDS),
                      JUDGEBOOK_SCENARIOS=str(scenarios))
    return app.test_client()


def text_of(body: bytes) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", body.decode())).split())


def test_the_cards_page_shows_each_formats_coverage(client):
    resp = client.get("/cards")
    assert resp.status_code == 200
    page = resp.data.decode()
    figures = re.findall(r'<span class="pool-figures" data-total="(\d+)" data-defined="(\d+)" '
                         r'data-partial="(\d+)" data-undefined="(\d+)"', page)
    assert figures[0] == ("547", "13", "1", "533")            # standard: the fixture folder's 13 + 1 + stub
    assert len(figures) == 3
    text = text_of(resp.data)
    assert "Standard (Seventh Rotation, rotation_2025): 13 of 547 defined (2.4 %), 1 partial, 533 undefined" in text
    assert "In the Groove: fixture: \"play only as your first [click]\" is not said" in text


def test_a_defined_cards_page_shows_both_texts_and_its_scenarios(client):
    resp = client.get("/s/cards:funhouse")
    assert resp.status_code == 200
    page = resp.data.decode()
    section = page[page.index('class="card-definition"'):]
    section = section[:section.index("</section>")]
    text = text_of(section.encode())
    assert "Defined" in text and "tests/fixtures/pool_cards/funhouse.yaml" in text
    assert "When the Runner encounters this ice, end the run unless the Runner takes 1 tag." in text
    assert "when the Runner encounters this card, the Runner may pay take 1 tag; if not: end the run" in text
    assert "Scenarios that use it (2)" in text
    assert '<a href="/replay/fun-one">Funhouse at the top</a>' in section
    assert "A second Funhouse &lt;b&gt;" in section and "sub/fun-two.yaml" in section
    # A scenario of a sub-folder has no replay page of its own: it opens at the judge's table.
    table = re.search(r'<a href="/replay/play\?s=([A-Za-z0-9_=-]+)">A second Funhouse &lt;b&gt;</a>', section)
    assert table is not None
    opened = client.get(f"/replay/play?s={table.group(1)}")
    assert opened.status_code < 500 and "A second Funhouse &lt;b&gt;" in opened.data.decode()
    assert "Only Hagen" not in section and "def-mismatches" not in section


def test_a_partial_card_says_what_it_leaves_out(client):
    text = text_of(client.get("/s/cards:in_the_groove").data)
    assert 'Partly defined: fixture: "play only as your first [click]" is not said' in text


def test_a_card_the_engine_does_not_define_says_so(client):
    assert "card-definition" in client.get("/s/cards:hedge_fund").data.decode()
    text = text_of(client.get("/s/cards:bravado").data)      # Standard, no fixture definition
    assert "In the replay engine Not defined: not yet written Scenarios that use it (0)" in text
    # outside the Standard pool and in no folder of the engine's library (Wyldside: grep rules_source/cards)
    text = text_of(client.get("/s/cards:wyldside").data)
    assert "In the replay engine Not defined: not in the engine's card library" in text


def test_a_card_of_the_worked_example_library_shows_the_engines_reading_and_its_scenarios(client):
    """Tollbooth and Ice Wall are outside the Standard pool: their definitions are the worked-example cards
    (rules_source/cards/), found by name as a scenario names them."""
    page = client.get("/s/cards:tollbooth").data.decode()
    section = page[page.index('class="card-definition"'):]
    section = section[:section.index("</section>")]
    text = text_of(section.encode())
    assert "Defined (rules_source/cards/tollbooth.yaml)" in text
    read = text_of(section[section.index('class="def-rendered"'):section.index("</ul>")].encode())
    # the definition's tax: "When encountered: the Runner must pay 3[c] if able; if they do not, end the run."
    assert "when the Runner encounters this card" in read and "end the run" in read
    assert "[subroutine] end the run" in read                   # Tollbooth's printed subroutine
    text = text_of(client.get("/s/cards:ice_wall").data)
    assert "In the replay engine Defined (rules_source/cards/ice-wall.yaml)" in text


def test_only_files_under_the_scenarios_folder_open_at_the_table(client):
    from judgebook.web.scenario_links import scenario_at_table

    with client.application.test_request_context("/"):
        assert scenario_at_table("sub/fun-two.yaml") is not None
        assert scenario_at_table("../../etc/passwd") is None
        assert scenario_at_table("missing.yaml") is None


def test_a_double_faced_identitys_page_shows_its_other_face_printed_and_read(tmp_path, tmp_path_factory, corpora_root,
                                                                               cards_root):
    import shutil

    cards = tmp_path / "cards"
    cards.mkdir()
    shutil.copy(TESTS.parent / "rules_source" / "cards" / "standard" / "hoshiko_shiro_untold_protagonist.yaml", cards)
    app = create_app(index_root=real_index(tmp_path_factory, corpora_root))
    app.config.update(JUDGEBOOK_NRDB=str(cards_root), JUDGEBOOK_POOL_CARDS=str(cards),
                      JUDGEBOOK_SCENARIOS=str(tmp_path))
    page = app.test_client().get("/s/cards:hoshiko_shiro_untold_protagonist").data.decode()
    section = page[page.index('class="card-definition"'):]
    printed = text_of(section[section.index('class="def-printed"'):section.index('class="def-rendered"')].encode())
    read = text_of(section[section.index('class="def-rendered"'):section.index("</ul>")].encode())
    # NetrunnerDB's `faces` text of the back (Mahou Shoujo) beside the engine's reading of the definition's `flip:`
    assert "Other side: Hoshiko Shiro: Mahou Shoujo" in printed and "Other side: Hoshiko Shiro: Mahou Shoujo" in read
    assert "When your turn begins, draw 1 card and lose 1" in printed
    assert "when your turn begins, draw 1 card; lose 1" in read
    assert printed.index("flip this identity") < printed.index("Other side")   # the front face first
