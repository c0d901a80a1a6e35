"""Small pieces of the reading work, on inline inputs: the term and card linkers
never cross punctuation, labels end where a phrase ends, typography folding,
ruling reflow, format legality, the first-run build line."""
from __future__ import annotations

import pytest

from judgebook.engine.citations import cited_anchors
from judgebook.ingestion import nrdb
from judgebook.linking import cards, terms, versions
from judgebook.linking.cited_rules import RULES, cited_rule
from judgebook.linking.context import LinkContext
from judgebook.model import LINK_CARD, LINK_TERM, Document, Provenance, Section
from judgebook.store.corpus import Corpus
from judgebook.web import pages

CR = Document(key="cr-x", title="CR", edition="x", effective="2020-01-01", is_cr=True)


def _sec(sid: str, text: str, doc: str = "cr-x", **kw) -> Section:
    return Section(id=f"{doc}:{sid}", doc=doc, number=kw.pop("number", ""), title=kw.pop("title", ""),
                   kind=kw.pop("kind", "rule"), text=text, provenance=Provenance("f"), **kw)


def _term_links(texts: list[str], defines: str) -> list[list[str]]:
    """The term links found in each text, with enough filler that the spread caps never bite."""
    definition = _sec("def", "Defined here.", meta=(("defines", defines),))
    filler = [_sec(f"f{i}", "Nothing to see.") for i in range(40)]
    body = [_sec(f"t{i}", t) for i, t in enumerate(texts)]
    sections = [definition, *filler, *body]
    out = terms.link_terms(LinkContext.build([CR], sections), sections)
    by_id = {s.id: s for s in out}
    return [[l.text for l in by_id[s.id].links if l.kind == LINK_TERM] for s in body]


def test_terms_are_never_linked_across_sentence_or_clause_punctuation():
    found = _term_links(["After all costs have been paid, abilities that trigger resolve.",
                         "The Runner uses a paid ability.",
                         "It was paid.\n\nAbilities follow.",
                         "Use paid-ability windows."], "paid ability")
    assert found == [[], ["paid ability"], [], ["paid-ability"]]


def test_corp_dot_cards_and_damage_dot_net_are_two_sentences():
    assert _term_links(["Within reach of the Corp. Cards in R&D are safe.", "Every corp card counts."],
                       "corp card") == [[], ["corp card"]]
    assert _term_links(["There are three types of damage. Net damage is one.", "Deal damage net."],
                       "damage net") == [[], ["damage net"]]
    assert _term_links(["See also DEREZ\nREZ, Cost, 11", "Pay the rez cost."], "rez cost") == [[], ["rez cost"]]


def _card_index(*titles: str) -> dict:
    card_secs = [_sec(t.lower().replace(" ", "_"), "", doc="cards", title=t, kind="card") for t in titles]
    ctx = LinkContext.build([Document(key="cards", title="Cards")], card_secs)
    return cards.card_names(ctx, card_secs, frozenset())


@pytest.mark.parametrize("text, found", [
    ("The Corp plays Mr. Stone now.", ["Mr. Stone"]),
    ("Reach the HQ.\nInterface ends.", []),                       # a sentence ends between the words
    ("The Runner is playing Armand “Geist” Walker here.", ["Armand “Geist” Walker"]),   # curly = straight
    ("The Corp plays Mushin-no-Shin, choosing it.", ["Mushin-no-Shin"]),  # hyphens read as spaces
])
def test_card_names_keep_their_own_punctuation_only(text, found):
    index = _card_index("Mr. Stone", "HQ Interface", 'Armand "Geist" Walker', "Mushin No Shin")
    assert [text[a:b] for _, a, b in cards.find_cards(text, index)] == found


@pytest.mark.parametrize("text, label", [
    ("Hostile Infrastructure does not resolve when the Corp trashes his or her cards.",
     "Hostile Infrastructure does not resolve when the Corp trashes his or her cards."),
    # a long first sentence is cut after its last whole clause that fits, never mid-phrase
    ("If Hostile Infrastructure and any other Corp cards are trashed simultaneously, Hostile "
     "Infrastructure will trigger for each card trashed.",
     "If Hostile Infrastructure and any other Corp cards are trashed simultaneously…"),
])
def test_a_ruling_label_ends_where_a_phrase_ends(text, label):
    assert pages.phrase(text) == label


def test_labels_of_examples_and_rulings_name_their_rule_and_card():
    rule = _sec("r", "A rule.", number="6.9.2", examples=("cr-x:r/ex1", "cr-x:r/ex2"))
    ex1 = _sec("r/ex1", "Long example text that used to be the label of the example.", kind="example",
               parent="cr-x:r")
    ex2 = _sec("r/ex2", "Another.", kind="example", parent="cr-x:r")
    card = _sec("c", "", doc="cards", title="Hostile Infrastructure", kind="card")
    ruling = _sec("c/1", "Q: Does it trigger on its own trash? It does, in fact.\n\nA: Yes.", doc="nrdb-rulings",
                  kind="ruling", parent="cards:c")
    corpus = Corpus([CR], [rule, ex1, ex2, card, ruling])
    assert pages.label(corpus, ex1) == "6.9.2 Example 1"
    assert pages.label(corpus, ex2) == "6.9.2 Example 2"
    assert pages.label(corpus, ruling) == "Hostile Infrastructure ruling: Does it trigger on its own trash?"


def test_a_rule_whose_text_is_a_heading_is_named_by_it():
    assert pages.section_label(_sec("p", "Initiation Phase", number="6.9.1")) == "6.9.1 Initiation Phase"
    assert pages.section_label(_sec("s", "The run formally begins.", number="6.9.1c")) == "6.9.1c"


@pytest.mark.parametrize("old, new, only", [
    ("the “cannot” rule", 'the "cannot" rule', True),                 # quote style
    ("A CREDIT POOL  is\n\nhere", "A credit pool is here", True),      # capitals, whitespace
    ("represented by [c])", "represented by {c})", True),              # symbol notation
    ("Pay 1[trash] (–)", "Pay 1[trashcost] ([dash])", True),
    ("the Runners cards", "the Runner's cards", False),                # a spelling fix is substance
    ("gain 1[c]", "gain 2[c]", False),
])
def test_typography_only(old, new, only):
    assert versions.typography_only(old, new) is only


def test_reflow_undoes_hard_breaks_but_keeps_paragraphs_and_lists():
    text = "does not resolve when his or\nher cards.\n\nA: Yes:\n• one\n• two\n1. x"
    out = nrdb.reflow(text)
    assert out == "does not resolve when his or her cards.\n\nA: Yes:\n• one\n• two\n1. x"
    assert len(out) == len(text)       # link spans found before reflowing still fit


def test_format_status():
    rules = nrdb.FormatRules("eternal", "Eternal", "Eternal", frozenset({"core"}), "Points 25.07", "2025-07-31",
                             banned=frozenset({"b"}), restricted=frozenset({"r"}), points={"p": 2})
    assert rules.status("x", {"core"}) == "legal"
    assert rules.status("b", {"core"}) == "banned"
    assert rules.status("r", {"core"}) == "legal, restricted"
    assert rules.status("p", {"core"}) == "legal, 2 points"
    assert rules.status("x", {"other"}) == "not in the card pool"


def test_card_facts_in_words():
    card = _sec("h", "", doc="cards", title="Hostile Infrastructure", kind="card",
                meta=(("type", "asset"), ("type_name", "Asset"), ("side", "corp"), ("faction_name", "Jinteki"),
                      ("unique", "false"), ("cost", "5"), ("trash_cost", "5"), ("influence_cost", "2"),
                      ("deck_limit", "3"),
                      ("format:standard", "banned|Standard|Standard Ban List 25.10|Seventh Rotation")))
    assert pages.card_facts(card) == [("Type", "Asset"), ("Side", "Corp"), ("Faction", "Jinteki"), ("Unique", "No"),
                                      ("Rez cost", "5"), ("Trash cost", "5"), ("Influence", "2"),
                                      ("Deck limit", "3 copies per deck")]
    assert pages.legality(card) == [pages.Legality("Standard", "banned", "Standard Ban List 25.10",
                                                   "Seventh Rotation")]
    assert not pages.legality(card)[0].legal


def test_first_run_names_what_is_missing_and_the_build_line():
    corpus = Corpus([Document(key="cr-1.6", title="NISEI CR", is_cr=True, era="nisei")], [])
    missing = pages.missing_sources(corpus)
    assert pages.build_line(missing) == \
        "judgebook build --with /path/to/nsg-cr --with /path/to/netrunner-cards-json"
    full = Corpus([Document(key="cr-26.03", title="CR", is_cr=True, era="nsg"),
                   Document(key="cards", title="Cards", era="nsg")], [])
    assert pages.missing_sources(full) == []


def test_cited_rule_table():
    assert cited_rule("step_approach_paw").describe() == "CR 26.03 6.9.2b (Steps of a Run › Approach Ice Phase)"
    assert cited_rule("no_such_anchor") is None
    # One row per anchor the engine cites (their numbers are checked against CR 26.03 in test_reading_pages.py).
    assert set(RULES) == cited_anchors()
    assert LINK_CARD  # (imported for the card tests' kinds)


def test_home_page_of_a_seeds_only_build_gives_the_exact_build_line():
    from test_web_corpus import FakeSearcher, documents

    from judgebook.web.app import create_app
    corpus = Corpus([d for d in documents() if d.key not in ("cards", "cr-26.03")], [])
    html = create_app(corpus, searcher=FakeSearcher(corpus)).test_client().get("/").get_data(as_text=True)
    assert "Not loaded yet" in html
    assert "<code>judgebook build --with /path/to/nsg-cr --with /path/to/netrunner-cards-json</code>" in html
