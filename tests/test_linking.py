"""The linking pass: references, resolution, terms, cards, versions, diffs."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from judgebook.ingestion.manifest import load_manifest
from judgebook.ingestion.registry import group_by_file, parse_job
from judgebook.linking import link
from judgebook.linking.alternatives import toc_titles
from judgebook.linking.references import FFG_STEP, find_ffg_steps, find_references
from judgebook.linking.versions import DiffOp, word_diff
from judgebook.model import Document, Link, Provenance, Section
from judgebook.store.corpus import Corpus


def sec(doc, number, text, *, title="", kind="rule", parent="", order=0, sid=None, anchor="",
        links=(), meta=()):
    return Section(id=sid or f"{doc}:{number or title.lower()}", doc=doc, number=number,
                   title=title, kind=kind, text=text, provenance=Provenance(file="x"),
                   parent=parent, order=order, anchor=anchor, links=tuple(links), meta=tuple(meta))


def links_of(s: Section, kind: str) -> list[Link]:
    return [l for l in s.links if l.kind == kind]


# ---- finding references in prose ----------------------------------------------------

@pytest.mark.parametrize("text, refs", [
    ("See section 8.5.", ["8.5"]),
    ("rule 1.16.10b applies", ["1.16.10b"]),
    ("rules 1.16.10b and 1.16.11", ["1.16.10b", "1.16.11"]),
    ("sections 1.13 and 1.14", ["1.13", "1.14"]),
    ("steps 8.5.14e and 8.6.6c", ["8.5.14e", "8.6.6c"]),
    ("sections 3.6.5, 3.8.5, and 3.9.5 respectively", ["3.6.5", "3.8.5", "3.9.5"]),
    ("section 9.11", ["9.11"]),
    ("rules 10.1.3–10.1.4 and section 8", ["10.1.3", "10.1.4", "8"]),
    ("(see 1.2.5)", ["1.2.5"]),
    ("See section 5 for details", ["5"]),
    ("Rule 1.10.3c", ["1.10.3c"]),
    ("This is version 1.6 of this document", []),
    ("see 2 cards", []),
    ("gain 1.5 credits", []),
])
def test_find_references(text, refs):
    found = find_references(text)
    assert [l.ref for l in found] == refs
    assert all(text[l.start:l.end].lower() == l.ref for l in found)


def test_glossary_ffg_steps_are_not_rule_references():
    found = find_ffg_steps("cause steps (3.1) and (3.2) to be skipped, at step (1.3) (4)")
    assert [(l.ref, l.reason) for l in found] == [("3.1", FFG_STEP), ("3.2", FFG_STEP), ("1.3", FFG_STEP)]
    assert not any(l.target for l in found)


# ---- resolution on hand-made documents ----------------------------------------------

CR_OLD = Document(key="cr-old", title="old", effective="2020-01-01", is_cr=True)
CR_NEW = Document(key="cr-new", title="new", effective="2026-01-01", is_cr=True)
GLOSSARY = Document(key="glossary", title="g", era="ffg")


def _old_doc():
    return [
        sec("cr-old", "1", "", title="Game Concepts", kind="chapter", order=0),
        sec("cr-old", "1.1", "See section 1.2 and rule 9.9.9 and rule 1.1.7.", order=1, parent="cr-old:1"),
        sec("cr-old", "1.2", "A ZONE is a place. Zones are everywhere; a rezone is not a zone.",
            order=2, parent="cr-old:1"),
        sec("cr-old", "1.3", "See section 6.1.", order=3, parent="cr-old:1"),
    ]


def _new_doc():
    return [
        sec("cr-new", "6", "", title="Runs", kind="chapter", sid="cr-new:chpt_runs", anchor="chpt_runs"),
        sec("cr-new", "6.1", "", title="General", kind="section", sid="cr-new:sec_run_general",
            anchor="sec_run_general", parent="cr-new:chpt_runs"),
        sec("cr-new", "6.2", "", title="Initiation", kind="section", sid="cr-new:sec_init",
            anchor="sec_init", parent="cr-new:chpt_runs"),
    ]


def test_refs_resolve_within_their_own_document_or_say_why():
    out = {s.id: s for s in link([CR_OLD], _old_doc())}
    refs = {l.ref: l for l in links_of(out["cr-old:1.1"], "ref")}
    assert refs["1.2"].target == "cr-old:1.2"
    assert refs["9.9.9"].reason == "section 9.9.9 is not in this document (it stops at 1.3)"
    assert refs["1.1.7"].reason == "no such rule"            # inside the range, but missing
    assert not refs["9.9.9"].target and not refs["1.1.7"].target


def test_missing_rule_offers_the_newest_version_matched_by_title():
    outline = {"cr-old": {"1": "Game Concepts", "6": "Runs", "6.1": "Initiation"}}
    out = {s.id: s for s in link([CR_OLD, CR_NEW], _old_doc() + _new_doc(), outline)}
    (l,) = links_of(out["cr-old:1.3"], "ref")
    assert not l.target and "not in this document" in l.reason
    # 6.1 in the old numbering is "Initiation": the new 6.2, not the new 6.1
    assert l.alternatives == ("cr-new:sec_init",)


def test_no_alternative_without_a_title_to_match():
    out = {s.id: s for s in link([CR_OLD, CR_NEW], _old_doc() + _new_doc(), {"cr-old": {}})}
    (l,) = links_of(out["cr-old:1.3"], "ref")
    assert l.alternatives == ()


def test_cr_terms_link_whole_words_first_use_only_never_in_the_definition():
    out = {s.id: s for s in link([CR_OLD], _old_doc() + [
        sec("cr-old", "1.4", "Put it in a zone, then another zone.", order=4, parent="cr-old:1"),
    ] + [sec("cr-old", f"1.{i}", "filler", order=i) for i in range(5, 40)])}
    assert links_of(out["cr-old:1.2"], "term") == []          # its own definition
    (t,) = links_of(out["cr-old:1.4"], "term")                 # first use only
    assert (t.target, t.text) == ("cr-old:1.2", "zone")
    assert out["cr-old:1.4"].text[t.start:t.end] == "zone" and t.start == 12


def test_glossary_related_resolves_by_title_case_and_punctuation_insensitive():
    g = [sec("glossary", "", "x", title="Bad Publicity", kind="glossary-entry", order=0,
             links=[Link(kind="related", ref="bad-publicity!"), Link(kind="related", ref="Nope")]),
         sec("glossary", "", "y", title="Trace", kind="glossary-entry", order=1)]
    out = link([GLOSSARY], g)
    rel = links_of(out[0], "related")
    assert rel[0].target == "glossary:bad publicity"
    assert rel[1].target == "" and "Nope" in rel[1].reason


def test_card_links_unresolved_without_card_data():
    s = sec("cr-new", "1.1", "x", sid="cr-new:r", anchor="r", links=[Link(kind="card", ref="Diesel")])
    (l,) = links_of(link([CR_NEW], [s])[0], "card")
    assert l.reason == "card data not loaded" and not l.target


CARDS = Document(key="cards", title="cards")


def _card(title, order):
    return sec("cards", "", "", title=title, kind="card", order=order,
               sid="cards:" + re.sub(r"\W+", "_", title.lower()))


def test_card_names_in_text():
    cards = [_card(t, i) for i, t in enumerate(
        ["Data Fort", "Data Fort Reclamation", "Diesel", "Hedge Fund", "Golden",
         "Jinteki Biotech: Life Imagined", "Access"])]
    text = ("The Corp plays Data Fort Reclamation and Hedge Fund; the Runner plays DIESEL. "
            "A hedge fund is not a card. The Golden Rules hold. Jinteki Biotech flips. Access it.")
    rule = sec("cr-old", "1.1", text, order=0)
    ruling_text = sec("cr-old", "1.2", "A player may access a card; a fund to hedge.", order=1)
    out = link([CR_OLD, CARDS], [rule, ruling_text] + cards)
    hits = [(l.text, l.target) for l in links_of(out[0], "card")]
    assert hits == [
        ("Data Fort Reclamation", "cards:data_fort_reclamation"),   # not "Data Fort" inside it
        ("Hedge Fund", "cards:hedge_fund"),                          # common words: own capitals
        ("DIESEL", "cards:diesel"),                                  # uncommon word: case folded
        ("Jinteki Biotech", "cards:jinteki_biotech_life_imagined"),  # identity short name
    ]                     # "hedge fund", "Golden Rules" and one-word common "Access" are not hits


def test_a_card_the_source_already_marks_is_not_linked_twice():
    # YAML examples have no anchor of their own but carry the source's {card:} marks
    text = "Sneakdoor Beta's ability changes the attacked server."
    example = sec("cr-new", "", text, sid="cr-new:r/ex1", kind="example", order=0,
                  links=[Link(kind="card", ref="Sneakdoor Beta", text="Sneakdoor Beta", start=0, end=14)])
    out = link([CR_NEW, CARDS], [example, _card("Sneakdoor Beta", 1)])
    assert [(l.start, l.target) for l in links_of(out[0], "card")] == [(0, "cards:sneakdoor_beta")]


# ---- versions and diffs ---------------------------------------------------------------

def test_word_diff_round_trips():
    a, b = "Runner cards are played and installed active.", "Runner cards become active when installed."
    ops = word_diff(a, b)
    assert "".join(o.text for o in ops if o.op != "insert") == a
    assert "".join(o.text for o in ops if o.op != "delete") == b
    assert ops[0] == DiffOp("equal", "Runner cards ")
    assert word_diff("same text", "same text") == [DiffOp("equal", "same text")]


def test_alignment_is_one_to_one_and_survives_renumbering():
    old = [sec("cr-old", "1", "", title="Concepts", kind="chapter"),
           sec("cr-old", "1.1", "The Corp gains three clicks each turn.", order=1, parent="cr-old:1"),
           sec("cr-old", "1.2", "Priority cards are played as the first click.", order=2, parent="cr-old:1")]
    new = [sec("cr-new", "1", "", title="Concepts", kind="chapter", order=0),
           sec("cr-new", "1.1", "Objects are things in the game.", order=1, parent="cr-new:1"),
           sec("cr-new", "1.2", "The Corp gains three clicks each turn.", order=2, parent="cr-new:1"),
           sec("cr-new", "1.3", "Priority cards are played as the first click.", order=3, parent="cr-new:1")]
    c = Corpus([CR_OLD, CR_NEW], link([CR_OLD, CR_NEW], old + new))
    assert [s.id for s in c.history("cr-old:1.1")] == ["cr-old:1.1", "cr-new:1.2"]
    assert [s.id for s in c.history("cr-new:1.3")] == ["cr-old:1.2", "cr-new:1.3"]
    assert [s.id for s in c.history("cr-new:1.1")] == ["cr-new:1.1"]


# ---- the real documents -----------------------------------------------------------------

def _parse(source: Path, keys: set[str]) -> tuple[list[Document], list[Section], dict]:
    entries = [e for e in load_manifest(source) if e.document.key in keys]
    sections = [s for job in group_by_file(entries) for s in parse_job(job)]
    outlines = {e.document.key: toc_titles(e.file.read_text("utf-8")) for e in entries if e.document.is_cr}
    return [e.document for e in entries], sections, outlines


@pytest.fixture(scope="module")
def seeds_cr(rules_source) -> Corpus:
    docs, secs, outlines = _parse(rules_source, {"cr-1.6", "cr-1.4"})
    return Corpus(docs, link(docs, secs, outlines))


def _refs(corpus: Corpus, doc: str) -> list[tuple[Section, Link]]:
    return [(s, l) for s in corpus.in_doc(doc) for l in s.links if l.kind == "ref"]


def test_every_cr16_reference_resolves_or_says_why(seeds_cr):
    refs = _refs(seeds_cr, "cr-1.6")
    # Counted independently of the linker:
    #   awk 'NR>=5' rules_source/cr-1.6.txt | grep -v '^- [0-9]* -$' | tr '\n' ' ' \
    #     | grep -oiE '\b(rules?|sections?|steps?|chapters?|see) [0-9]+(\.[0-9]+)*[a-z]?'
    # gives 148 phrases; 3 of them are the heading "The Golden Rules" running into the
    # next heading's number (1.2.1, 1.3, 10.1), leaving 145; the lists "Rules 10.1.3 and
    # 10.1.4", "rules 1.2.3 and 1.2.4" and "sections 3.6.5, 3.8.5, and 3.9.5" add 4 numbers.
    assert len(refs) == 149
    resolved = [(s, l) for s, l in refs if l.target]
    missing = [l for _, l in refs if "is not in this document (it stops at 4.1.2)" in l.reason]
    slips = [l for _, l in refs if l.reason == "no such rule"]
    assert (len(resolved), len(missing), len(slips)) == (53, 94, 2)
    for s, l in resolved:      # never the wrong rule: the target carries the number written
        assert seeds_cr.get(l.target).number == l.text.lower(), (s.id, l)
        assert seeds_cr.get(l.target).doc == "cr-1.6"
        assert s.text[l.start:l.end] == l.text
    # the two slips: 1.16.11d cites 1.16.13a/b, but CR 1.6 has no rule 1.16.13 at all
    assert sorted(l.ref for l in slips) == ["1.16.13a", "1.16.13b"]
    raw = (Path(__file__).parents[1] / "rules_source" / "cr-1.6.txt").read_text("utf-8")
    assert not re.search(r"^1\.16\.13\.", raw, re.M)


@pytest.mark.parametrize("source, written, target", [
    ("cr-1.6:1.1.2", "1.9", "cr-1.6:1.9"),
    ("cr-1.6:1.1.2", "1.4", "cr-1.6:1.4"),
    ("cr-1.6:1.3.5", "1.10.5", "cr-1.6:1.10.5"),
    ("cr-1.6:1.3.9", "1.16", "cr-1.6:1.16"),
    ("cr-1.6:1.15.3", "1.2.4", "cr-1.6:1.2.4"),
    ("cr-1.6:2.16.1a", "3.9.5", "cr-1.6:3.9.5"),
])
def test_pinned_cr16_references(seeds_cr, source, written, target):
    assert (written, target) in [(l.text, l.target) for l in links_of(seeds_cr.get(source), "ref")]
    assert source in [b.source for b in seeds_cr.backlinks(target)]


def test_cr16_terms_come_from_its_capitalised_definitions(seeds_cr):
    terms = [l for s in seeds_cr.in_doc("cr-1.6") for l in links_of(s, "term")]
    assert terms and all(l.target.startswith("cr-1.6:") for l in terms)
    pool = [l for l in terms if l.ref.lower() == "credit pool"]
    assert pool and {l.target for l in pool} == {"cr-1.6:1.10.2"}     # 1.10.2: "CREDIT POOL"
    for s in seeds_cr.in_doc("cr-1.6"):     # whole words, first use per section
        spans = links_of(s, "term")
        assert len({l.ref for l in spans}) == len(spans)
        for l in spans:
            assert not s.text[l.start - 1:l.start].isalnum() and not s.text[l.end:l.end + 1].isalpha()


def test_cr14_to_cr16_alignment(seeds_cr):
    def counterpart(ref):
        return [h.number for h in seeds_cr.history(seeds_cr.lookup(ref).id) if h.doc == "cr-1.6"]
    assert counterpart("cr-1.4:1.11.3") == ["1.11.4"]      # priority cards
    assert counterpart("cr-1.4:1.10.5b") == ["1.10.5d"]    # recurring credits do not accumulate
    assert counterpart("cr-1.4:1.1.2") == ["1.1.2"]
    assert "priority" in seeds_cr.lookup("cr-1.6:1.11.4").text
    assert "accumulate" in seeds_cr.lookup("cr-1.6:1.10.5d").text


# ---- with the NSG YAML versions and the card data -------------------------------------------

@pytest.fixture(scope="module")
def full(rules_source, corpora_root) -> Corpus:
    from judgebook.ingestion import user_sources
    docs, secs, outlines = _parse(rules_source, {"cr-1.6", "cr-1.4"})
    for src in user_sources.detect(corpora_root):
        d, s = user_sources.load(src)
        docs, secs = docs + d, secs + s
    return Corpus(docs, link(docs, secs, outlines))


# Checked by hand against the texts: each pair states the same rule.
PINNED_1_6_TO_26_03 = [
    ("1.1.2", "1.1.2", "rule_requirements"),
    ("1.8.3", "1.8.3", "rule_active_cards"),
    ("1.10.5", "1.10.5", "rule_sec_recurring"),
    ("1.10.5d", "1.10.5d", "rule_recurring_credits_do_not_accumulate"),
    ("1.11.4", "1.11.4", "rule_priority_subtype"),
    ("1.12.1", "1.12.1", "rule_object"),
    ("1.13.6", "1.13.7a", "rule_hosted_when_installed"),   # 22.12 made it 1.13.6a; 26.03 1.13.7a
    ("1.3.8", "1.3.7", "rule_symbol_sub"),                 # 26.03 dropped a symbol rule before it
    ("1.13.5a", "1.13.6a", "rule_host_via_install"),
    ("1.13.8", "1.13.9", "rule_host_transitivity"),
    ("1.16.10b", "1.16.10b", "rule_additonal_cost_simultaenous"),
    ("3.9.5", "3.9.5", "subsec_icebreakers"),
    ("4.1.1", "4.1.1", "rule_zone"),
]


@pytest.mark.corpora
@pytest.mark.parametrize("old, new_number, anchor", PINNED_1_6_TO_26_03)
def test_cr16_to_cr2603_alignment(full, old, new_number, anchor):
    hist = full.history(full.lookup(f"cr-1.6:{old}").id)
    new = [h for h in hist if h.doc == "cr-26.03"]
    assert [(h.number, h.anchor) for h in new] == [(new_number, anchor)]
    assert [h.doc for h in hist if h.doc != "cr-1.4"] == ["cr-1.6", "cr-22.12", "cr-23.08", "cr-26.03"]


@pytest.mark.corpora
def test_removed_rule_has_no_2603_counterpart(full):
    # 1.2.5 ("only if it could change the game state") is gone from 26.03's Golden Rules
    hist = full.history("cr-1.6:1.2.5")
    assert [h.doc for h in hist] == ["cr-1.4", "cr-1.6", "cr-22.12", "cr-23.08"]


@pytest.mark.corpora
def test_missing_cr16_rules_offer_their_2603_counterpart(full):
    by_text = {}
    for s, l in _refs(full, "cr-1.6"):
        by_text.setdefault((s.id, l.text), l)
    link_ref = by_text[("cr-1.6:1.3.6", "10.7")]          # "See section 10.7 for rules about link"
    assert not link_ref.target
    (alt,) = link_ref.alternatives
    assert full.get(alt).title == "Link" and full.get(alt).doc == "cr-26.03"
    install = by_text[("cr-1.6:3.10.2", "8.5")]           # "See section 8.5" (installing)
    assert [full.get(a).title for a in install.alternatives] == ["Installing and Uninstalling Cards"]
    # deeper than 1.6's contents: the 26.03 section that holds it, matched by its title
    brain = by_text[("cr-1.6:summary-of-changes", "10.4.2c")]
    assert [(full.get(a).number, full.get(a).title) for a in brain.alternatives] == [("10.4", "Damage")]
    # "10.14 Self-Referential Language" has no section of that name in 26.03: nothing offered
    assert by_text[("cr-1.6:2.1.3", "10.14")].alternatives == ()
    offered = [l for _, l in _refs(full, "cr-1.6") if l.alternatives]
    assert len(offered) == 93          # of the 94 "not in this document"; not 10.14
    assert all(len(l.alternatives) == 1 and full.get(l.alternatives[0]).doc == "cr-26.03"
               for l in offered)


@pytest.mark.corpora
def test_yaml_links_resolve_and_cards_link(full):
    refs = [l for s in full.in_doc("cr-26.03") for l in links_of(s, "ref")]
    assert refs and all(l.target for l in refs)
    terms = [l for s in full.in_doc("cr-26.03") for l in links_of(s, "term")]
    assert all(full.get(l.target).doc == "cr-26.03" for l in terms)
    diesel = full.get("cr-1.6:1.2.2b/ex1")
    assert diesel is not None
    assert ("Diesel", "cards:diesel") in [(l.text, l.target) for l in links_of(diesel, "card")]


# ---- rulings cite the CR in force when they were written ---------------------------------

def _ruling(text, date):
    return Section(id=f"nrdb-rulings:x/{date}", doc="nrdb-rulings", number="", title="", kind="ruling",
                   text=text, provenance=Provenance(file="r.json", date=date))


def test_ruling_numbers_use_the_cr_in_force_on_their_date():
    rulings_doc = Document(key="nrdb-rulings", title="r")
    old = [sec("cr-old", "1", "", title="Concepts", kind="chapter"),
           sec("cr-old", "1.5", "Priority cards are played first.", order=1)]
    new = [sec("cr-new", "1", "", title="Concepts", kind="chapter", sid="cr-new:c", anchor="c"),
           sec("cr-new", "1.5", "Hosting is different now.", order=1, sid="cr-new:h", anchor="h")]
    docs = [CR_OLD, CR_NEW, rulings_doc]
    r2020 = _ruling("Priority cards: see rule 1.5 about priority.", "2020-05-01")
    r2026 = _ruling("Hosted cards: see rule 1.5 about hosting rules.", "2026-05-01")
    r2026_wrong = _ruling("Priority cards are fine: see rule 1.5 about priority.", "2026-06-01")
    r2019 = _ruling("see rule 1.5", "2019-01-01")
    out = {s.id: s for s in link(docs, old + new + [r2020, r2026, r2026_wrong, r2019])}

    def ref(r):
        (l,) = links_of(out[r.id], "ref")
        return l
    assert ref(r2020).target == "cr-old:1.5"
    assert ref(r2026).target == "cr-new:h"
    assert not ref(r2026_wrong).target and "another version's numbering" in ref(r2026_wrong).reason
    assert ref(r2019).reason == "the ruling (2019-01-01) predates every loaded CR version"


def test_glossary_headings_are_terms_for_the_ffg_documents():
    wiki = Document(key="ffg-core-rulebook", title="w", era="ffg")
    entries = [sec("glossary", "", f"Entry {i} text.", title=f"Word{i}", kind="glossary-entry", order=i)
               for i in range(40)]
    entries.append(sec("glossary", "", "The Corp gains it.", title="Bad Publicity", kind="glossary-entry",
                       order=40))
    page = sec("ffg-core-rulebook", "", "Take one bad publicity; bad publicity again. Badpublicity no.",
               title="Setup", kind="page", order=0,
               links=[Link(kind="main-article", ref="Bad publicity"), Link(kind="main-article", ref="Nowhere")])
    out = {s.id: s for s in link([GLOSSARY, wiki], entries + [page])}
    p = out["ffg-core-rulebook:setup"]
    (term,) = links_of(p, "term")
    assert (term.text, term.target, term.start) == ("bad publicity", "glossary:bad publicity", 9)
    main_links = links_of(p, "main-article")
    assert main_links[0].target == "glossary:bad publicity"     # no such wiki page: the glossary's
    assert not main_links[1].target and "Nowhere" in main_links[1].reason


@pytest.mark.corpora
def test_every_link_is_resolved_to_an_existing_section_or_says_why(full):
    bad = []
    for s in full.sections.values():
        for l in s.links:
            if l.target and l.target not in full.sections:
                bad.append((s.id, l, "target missing"))
            elif bool(l.target) == bool(l.reason):
                bad.append((s.id, l, "needs exactly one of target and reason"))
            elif l.start >= 0 and l.kind in ("term", "card") and s.text[l.start:l.end] != l.text:
                bad.append((s.id, l, "span"))
    assert bad == []


def test_backlinks_come_from_links_but_not_from_a_section_to_itself():
    definition = sec("cr-new", "1.1", "A zone is a place.", sid="cr-new:zone", anchor="zone",
                     links=[Link(kind="term", ref="zone", text="zone", start=2, end=6)])
    user = sec("cr-new", "1.2", "See it.", sid="cr-new:user", anchor="user", order=1,
               links=[Link(kind="ref", ref="zone", text="it", start=4, end=6)])
    c = Corpus([CR_NEW], link([CR_NEW], [definition, user]))
    assert c.get("cr-new:zone").links[0].target == "cr-new:zone"
    assert [(b.source, b.kind) for b in c.backlinks("cr-new:zone")] == [("cr-new:user", "ref")]


def test_changes_between_two_versions(seeds_cr):
    from judgebook.linking.versions import changes
    found = {(c.kind, c.old, c.new) for c in changes(seeds_cr, "cr-1.4", "cr-1.6")}
    assert ("renumbered", "cr-1.4:1.11.3", "cr-1.6:1.11.4") in found
    assert ("added", "", "cr-1.6:1.12") in found                     # 1.6 inserted "Objects"
    assert ("changed", "cr-1.4:1.8.3b", "cr-1.6:1.8.3b") in found    # reworded, same number
    assert ("removed", "cr-1.4:1.8.5a", "") in found
    assert not any(c.old == "cr-1.4:1.1.1" for c in changes(seeds_cr, "cr-1.4", "cr-1.6"))  # unchanged


def test_related_links_find_parenthesised_names_and_subheadings():
    g = [sec("glossary", "", "x", title="Headquarters (HQ)", kind="glossary-entry", order=0),
         sec("glossary", "", "y", title="Cost", kind="glossary-entry", order=1,
             meta=[("subheadings", "Install Cost | Rez Cost")]),
         sec("glossary", "", "z", title="Rez Cost", kind="glossary-entry", order=2),
         sec("glossary", "", "w", title="Access", kind="glossary-entry", order=3,
             links=[Link(kind="related", ref=r) for r in ("HQ", "Headquarters", "Install Cost", "Rez Cost")])]
    out = link([GLOSSARY], g)
    assert [l.target for l in links_of(out[3], "related")] == [
        "glossary:headquarters (hq)", "glossary:headquarters (hq)", "glossary:cost", "glossary:rez cost"]


# ---- the FFG glossary and wiki ---------------------------------------------------------------

@pytest.fixture(scope="module")
def ffg(rules_source) -> Corpus:
    docs, secs, outlines = _parse(rules_source, {"glossary", "ffg-core-rulebook"})
    return Corpus(docs, link(docs, secs, outlines))


UNRESOLVED_RELATED = {"Timing Structures": 17, "Approach": 5, "Timing Structure": 1, "Protecting": 1,
                      "Advance": 1, "Research": 1, "Agena": 1, "Trash Strength": 1}


def test_glossary_related_links(ffg, rules_source):
    related = [(s, l) for s in ffg.in_doc("glossary") for l in links_of(s, "related")]
    missing: dict[str, int] = {}
    for _, l in related:
        if not l.target:
            missing[l.ref] = missing.get(l.ref, 0) + 1
    assert missing == UNRESOLVED_RELATED
    # independently of the linker: none of these names is a heading of the glossary
    headings = {line.lstrip("#").strip().lower()
                for line in (rules_source / "glossary.md").read_text("utf-8").splitlines()
                if line.startswith("#")}
    assert not {name.lower() for name in UNRESOLVED_RELATED} & headings
    pinned = {(s.id, l.ref): l.target for s, l in related}
    assert pinned[("glossary:cost", "Install Cost")] == "glossary:cost"            # a subheading
    assert pinned[("glossary:in-a-server", "HQ")] == "glossary:headquarters-hq"     # "Headquarters (HQ)"
    assert pinned[("glossary:action-phase", "Credits - Recurring")] == "glossary:credit-recurring"
    assert pinned[("glossary:damage", "Winning the Game")] == "ffg-core-rulebook:winning-the-game"


def test_wiki_main_articles_and_glossary_terms(ffg):
    mains = {l.ref: l.target for s in ffg.in_doc("ffg-core-rulebook") for l in links_of(s, "main-article")}
    # `grep -c "Main article:" rules_source/ffg-core-rulebook-wiki.txt` = 12, 11 distinct names
    assert len(mains) == 11 and all(mains.values())
    assert mains["Turn - Corporation's Turn"] == "ffg-core-rulebook:corporation-s-turn"
    assert mains["Unique"] == "glossary:unique"            # no wiki page of that name
    terms = [l for s in ffg.in_doc("ffg-core-rulebook") for l in links_of(s, "term")]
    assert terms and all(l.target.startswith("glossary:") for l in terms)
    assert "glossary:score-area" in {l.target for l in terms}


def test_1996_documents_do_not_link_to_the_later_games_cards():
    onr = Document(key="onr-rulings", title="r", era="onr-1996")
    cards = [_card("Fire Wall", 0)]
    out = link([onr, CR_OLD, CARDS], [sec("onr-rulings", "", "Fire Wall has 3 strength.", title="x",
                                          kind="ruling"),
                                      sec("cr-old", "1.1", "Fire Wall has 3 strength.")] + cards)
    assert links_of(out[0], "card") == []
    assert [l.target for l in links_of(out[1], "card")] == ["cards:fire_wall"]
