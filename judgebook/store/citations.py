"""Replay citations resolved against the loaded corpus, for the CLI and the web alike.

The engine cites CR anchors (strings); what a reader sees is the number and
text of the newest loaded CR version that has the anchor, or a plain "not in
the loaded documents" (never a dead link). Both `judgebook replay` and the
web's replay pages call this; it lives below both so neither imports the other.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from judgebook.linking.cited_rules import cited_rule

if TYPE_CHECKING:     # annotations only: `judgebook replay --help` need not load the corpus code
    from judgebook.store.corpus import Corpus

NOT_LOADED = "not in the loaded documents"


class Timeline(Protocol):
    """What the engine's replay returns, as far as citations need it."""

    def to_dict(self) -> dict[str, Any]: ...


def rule_ref(corpus: Corpus | None, anchor: str | None) -> dict[str, Any] | None:
    """An anchor resolved against the newest loaded CR version that has it."""
    if anchor is None:
        return None
    if corpus is not None:
        for doc in reversed(corpus.cr_versions()):
            sec = corpus.by_anchor(doc.key, anchor)
            if sec is not None:
                return {"anchor": anchor, "id": sec.id, "number": sec.number, "doc": doc.key,
                        "title": sec.title, "text": sec.text}
    cited = cited_rule(anchor)   # CR 26.03 not loaded: its number and heading are still known
    if cited is not None:
        return {"anchor": anchor, "id": None, "number": cited.number, "doc": None, "title": cited.heading,
                "note": f"{cited.describe()}, {NOT_LOADED}"}
    return {"anchor": anchor, "id": None, "number": None, "doc": None, "note": NOT_LOADED}


def timeline_data(timeline: Timeline, corpus: Corpus | None, until: int | None = None) -> dict[str, Any]:
    """The timeline as plain data with citations resolved (`until`: the last step listed)."""
    data = timeline.to_dict()
    cache: dict[str, dict[str, Any] | None] = {}
    steps = data["steps"] if until is None else data["steps"][:until]
    for step in steps:
        anchor = step["rule"]
        if anchor not in cache:
            cache[anchor] = rule_ref(corpus, anchor)
        step["rule"] = cache[anchor]
    data["steps"] = steps
    if until is not None:
        data["until"] = until
    return data
