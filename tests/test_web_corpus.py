"""A small hand-made corpus for the web tests (fast, independent of the parsers).

It holds what every page needs: two CR versions with a version link and a
changed text, a reference, a term, an unresolved reference with an
alternative, an example, a card with a NetrunnerDB ruling, a 1996 ruling,
glossary HTML, and a section whose text is an XSS attempt.
"""
from __future__ import annotations

from judgebook.model import (
    LINK_CARD,
    LINK_REF,
    LINK_RELATED,
    LINK_RULING,
    LINK_TERM,
    LINK_VERSION,
    Document,
    Link,
    Provenance,
    Section,
)
from judgebook.store.corpus import Corpus

HOSTILE = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'


def _span(text: str, needle: str, kind: str, target: str, **kw) -> Link:
    start = text.index(needle)
    return Link(kind=kind, ref=kw.pop("ref", needle), text=needle, target=target,
                start=start, end=start + len(needle), **kw)


def _sec(id, doc, number, title, kind, text, order, parent="", children=(), links=(), **kw):
    prov = kw.pop("provenance", Provenance(file=f"{doc}.txt", line_start=order + 1, line_end=order + 2))
    return Section(id=id, doc=doc, number=number, title=title, kind=kind, text=text,
                   provenance=prov, parent=parent, children=tuple(children), links=tuple(links),
                   order=order, **kw)


T_RULE = ("Recurring credits [recurring] are placed on a card when it is installed. "
          "See rule 1.16.10b. A player can Access a card. Hedge Fund gains 9[c].")
T_SUB_OLD = "Recurring credits do not accumulate on a card."
T_SUB_NEW = "Recurring credits never accumulate on a card between turns."
T_RUN = "The run proceeds as described in section 6.9."
T_CARD = "Gain 9[c]."


def documents() -> list[Document]:
    return [
        Document("cr-1.6", "NISEI Comprehensive Rules", "1.6", "2022-07-22", "nisei", is_cr=True, order=0),
        Document("cr-26.03", "Comprehensive Rules", "26.03", "2026-03-02", "nsg", is_cr=True, order=1),
        Document("glossary", "Glossary of core mechanics and terminology", era="ffg", order=2),
        Document("onr-rulings", "Netrunner Rulings v1.70 (TRC)", "1.70", "2000-03-11", "onr-1996", order=3),
        Document("cards", "NetrunnerDB cards", era="nsg", order=4),
        Document("nrdb-rulings", "NetrunnerDB rulings", era="nsg", order=5),
    ]


def sections() -> list[Section]:
    return [
        _sec("cr-1.6:1", "cr-1.6", "1", "Game Concepts", "chapter", "", 0,
             children=("cr-1.6:1.16", "cr-1.6:1.2")),
        _sec("cr-1.6:1.16", "cr-1.6", "1.16", "Costs", "section", "", 1, parent="cr-1.6:1",
             children=("cr-1.6:1.16.10", "cr-1.6:1.16.10b")),
        _sec("cr-1.6:1.16.10", "cr-1.6", "1.16.10", "", "rule", T_RULE, 2, parent="cr-1.6:1.16", links=(
            _span(T_RULE, "rule 1.16.10b", LINK_REF, "cr-1.6:1.16.10b", ref="1.16.10b"),
            _span(T_RULE, "Access", LINK_TERM, "glossary:access", ref="access"),
            _span(T_RULE, "Hedge Fund", LINK_CARD, "cards:01110"),
        )),
        _sec("cr-1.6:1.16.10b", "cr-1.6", "1.16.10b", "", "sub-rule", T_SUB_OLD, 3,
             parent="cr-1.6:1.16", children=("cr-1.6:1.16.10b/ex1",), examples=("cr-1.6:1.16.10b/ex1",),
             links=(Link(LINK_VERSION, "cr-26.03:1.16.10b", "cr-26.03", "cr-26.03:rule_recurring"),)),
        _sec("cr-1.6:1.16.10b/ex1", "cr-1.6", "", "Example", "example",
             "The Runner has 2 unspent recurring credits on a card; at the next turn it still has 2.", 4,
             parent="cr-1.6:1.16.10b"),
        _sec("cr-1.6:1.2", "cr-1.6", "1.2", "Runs", "rule", T_RUN, 5, parent="cr-1.6:1", links=(
            _span(T_RUN, "section 6.9", LINK_REF, "", ref="6.9", reason="not in this document",
                  alternatives=("cr-26.03:sec_run",)),
        )),
        _sec("cr-1.6:hostile", "cr-1.6", "", "Hostile " + HOSTILE, "rule", HOSTILE, 6),
        _sec("cr-26.03:ch_concepts", "cr-26.03", "1", "Game Concepts", "chapter", "", 0,
             children=("cr-26.03:rule_recurring",), anchor="ch_concepts"),
        _sec("cr-26.03:rule_recurring", "cr-26.03", "1.16.10b", "", "sub-rule", T_SUB_NEW, 1,
             parent="cr-26.03:ch_concepts", anchor="rule_recurring",
             links=(Link(LINK_VERSION, "cr-1.6:1.16.10b", "cr-1.6", "cr-1.6:1.16.10b"),)),
        _sec("cr-26.03:sec_run", "cr-26.03", "6.9", "Runs", "section",
             "A run proceeds through its phases.", 2, anchor="sec_run"),
        _sec("cr-26.03:rule_new", "cr-26.03", "6.9.9", "", "rule", "A brand new rule.", 3, anchor="rule_new"),
        _sec("glossary:access", "glossary", "", "Access", "glossary-entry",
             "To access a card is to look at it. <b>Bold</b> text.<table><tr><td>cell</td></tr></table>"
             "<script>alert(2)</script>", 0,
             links=(Link(LINK_RELATED, "Runs", "Runs", "cr-26.03:sec_run"),)),
        _sec("onr-rulings:general", "onr-rulings", "", "General Netrunner Rulings", "section", "", 0,
             children=("onr-rulings:trace",)),
        _sec("onr-rulings:trace", "onr-rulings", "", "Trace", "ruling",
             "A trace is resolved before the subroutine ends.", 1, parent="onr-rulings:general",
             provenance=Provenance("netrunner-1996.txt", 900, 901, attribution="Tom Wylie", date="1997-05-01")),
        _sec("onr-rulings:cards", "onr-rulings", "", "Corporation Cards", "section", "", 2,
             children=("onr-rulings:bbs-whispering-campaign",)),
        _sec("onr-rulings:bbs-whispering-campaign", "onr-rulings", "", "BBS Whispering Campaign", "section",
             "", 3, parent="onr-rulings:cards", children=("onr-rulings:bbs-whispering-campaign/r1",),
             meta=(("side", "corp"), ("category", "operation"))),
        _sec("onr-rulings:bbs-whispering-campaign/r1", "onr-rulings", "", "", "ruling",
             "Only one copy can be active.", 4, parent="onr-rulings:bbs-whispering-campaign",
             provenance=Provenance("netrunner-1996.txt", 1000, 1001, attribution="JD Wiker", date="1998-02-03")),
        _sec("cards:01110", "cards", "", "Hedge Fund", "card", T_CARD, 0,
             children=("nrdb-rulings:01110-1",), meta=(("type", "operation"), ("cost", "5")),
             links=(Link(LINK_RULING, "nrdb-rulings:01110-1", "", "nrdb-rulings:01110-1"),)),
        _sec("nrdb-rulings:01110-1", "nrdb-rulings", "", "", "ruling",
             "Hedge Fund can be played with 5[c].", 0, parent="cards:01110",
             provenance=Provenance("rulings/01110.json", date="2023-01-02",
                                   extra=(("verified", "true"),))),
    ]


def sample_corpus() -> Corpus:
    return Corpus(documents(), sections())


# ---- a stand-in for the Whoosh search, answering from the sample corpus ----
# It returns the search API's own records, so the pages are tested against the real shapes.
from judgebook.search.api import SearchHit, SearchResponse  # noqa: E402
from judgebook.search.schema import Completion  # noqa: E402


class FakeSearcher:
    """Substring search over the sample: enough to drive the pages and API."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self.calls: list[tuple] = []

    def search(self, query, limit, filters):
        self.calls.append((query, limit, dict(filters)))
        if query == "recurring credts":
            return SearchResponse([], "No matches.", did_you_mean="recurring credits")
        hits = [s for s in self.corpus.sections.values()
                if query.lower() in s.text.lower() and all(getattr(s, k, None) == v or
                                                            (k == "era") for k, v in filters.items())]
        results = [SearchHit(s.id, s.doc, s.number, s.title, s.kind, 1.0,
                           "<mark>" + query.replace("<", "&lt;") + "</mark> in context <b>bold</b>",
                           query, [(p.id, p.number or p.title) for p in self.corpus.breadcrumb(s.id)])
                   for s in hits[:limit]]
        return SearchResponse(results, "", "", len(hits))

    def complete(self, prefix, limit):
        return [Completion("1.16.10b", "number", "cr-26.03:rule_recurring", "cr-26.03",
                               "1.16.10b — cr-26.03")][:limit] if prefix.startswith("1.") else []


# ---- a real build (seeds + the corpora), once per test session ----
_REAL: dict = {}


def real_index(tmp_path_factory, corpora_root):
    """Build the seeds, the three NSG CR versions and the card data into a temporary index."""
    if "root" not in _REAL:
        from judgebook.store import build, paths
        root = tmp_path_factory.mktemp("real-index")
        extra = [str(corpora_root / "nsg-cr" / v) for v in ("v22.12", "v23.08", "v26.03")]
        extra.append(str(corpora_root / "netrunner-cards-json"))
        build.build(paths.project_root() / "rules_source", root, extra, lambda *_: None)
        _REAL["root"] = root
    return _REAL["root"]
