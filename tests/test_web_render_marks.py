"""The timing-structure appendix's window marks explain themselves (issue 21), and a number keeps its
symbol on the same line."""
from __future__ import annotations

from judgebook.web.render import inline
from judgebook.web.urls import Urls


def test_window_marks_are_explained_on_hover_and_tap():
    html = str(inline("Paid ability window: (P) (R) (S).", Urls()))
    assert html == ('Paid ability window: <abbr class="pw" tabindex="0" title="paid abilities can be used">(P)</abbr> '
                    '<abbr class="pw" tabindex="0" title="non-ice cards can be rezzed">(R)</abbr> '
                    '<abbr class="pw" tabindex="0" title="agendas can be scored">(S)</abbr>.')


def test_a_mark_outside_a_window_line_is_left_alone():
    assert str(inline("Rule (P) of the example", Urls())) == "Rule (P) of the example"


def test_a_number_and_its_credit_symbol_do_not_wrap_apart():
    html = str(inline("pay 2[c] now", Urls()))
    assert html.startswith('pay <span class="nw">2<img class="sym" ') and html.endswith("</span> now")
