"""The question bank on a rule's page: "Questions this rule answers" (judgebook/search/question_bank.py).

A template global, so the rule page's route stays as it is; the bank is the one the page's
generation shipped (read once per file version)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, has_app_context

from judgebook.search import question_bank
from judgebook.web.app import state

bp = Blueprint("bank_links", __name__)


@dataclass(frozen=True)
class Asked:
    question: str
    answer: str
    also: list[tuple[str, str]]     # the other rules it cites: (section id, its number or title)


@bp.app_template_global()
def questions_answered(section_id: str | None) -> list[Asked]:
    """The bank's questions that cite `section_id`, in the bank's order (none without a bank)."""
    if not section_id or not has_app_context():
        return []
    corpus = state().corpus
    bank = question_bank.bank_for(Path(corpus.generation)) if corpus.generation is not None else None
    if bank is None:
        return []
    out = []
    for e in bank.by_rule.get(section_id, ()):
        also = [(r, (s.number or s.title) if (s := corpus.get(r)) is not None else r)
                for r in e.rules if r != section_id]
        out.append(Asked(e.asks[0], e.answer, also))
    return out
