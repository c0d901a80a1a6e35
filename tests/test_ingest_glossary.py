"""The glossary parser: snippets for each construct, then the whole document with exact counts."""
from __future__ import annotations

import pytest

from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.glossary_html import html_to_text
from judgebook.ingestion.glossary_jekyll import parse
from judgebook.model import LINK_RELATED

FM = "---\ntitle: Glossary\n---\n<div class=\"slug\">x</div>\n\n"


def _by_id(sections):
    return {s.id: s for s in sections}


# ---------------------------------------------------------------- snippets

def test_icons_become_tokens_and_labels_vanish():
    html = ('has <span class="grey-font-b">2</span> <span class="nric-grey link"></span>'
            '<span class="grey-font-b">LINK</span> and <span class="nric-grey click"></span>'
            ' <b>1</b><span class="nric-grey credit"></span>')
    assert html_to_text(html) == "has 2 [link] and [click] 1[c]"


def test_table_rows_are_cells_joined_and_no_tag_survives():
    html = ('<table class="sml-table">\n<tr>\n<td><span class="nric-grey click"></span></td>\n'
            '<td>Draw 1 card <script>x</script></td>\n</tr>\n</table>')
    text = html_to_text(html)
    assert text == "[click] | Draw 1 card x"
    assert "<" not in text


def test_continued_ordered_list_keeps_its_numbers():
    html = '<ol class="custom-ol" style="--start: 5;">\n<li>\nPlayers may\n</li>\n<li>Take</li>\n</ol>'
    assert html_to_text(html) == "5. Players may\n6. Take"


def test_entry_example_related_and_subheading():
    text = FM + (
        "# Alpha\n\nFirst para\nwrapped.\n\n## Sub Part\n\nMore **bold** text.\n\n"
        "{: .note-title }\n> Example\n>\n> An example.\n\n"
        "**Related**: Beta, Gamma.\n\n# Beta\n\nB text.\n")
    secs = _by_id(parse(text, "g.md", "glossary"))
    alpha = secs["glossary:alpha"]
    assert alpha.kind == "glossary-entry" and alpha.title == "Alpha"
    assert alpha.text == "First para wrapped.\n\nSub Part\n\nMore bold text."
    assert alpha.meta_get("subheadings") == "Sub Part"
    assert alpha.examples == ("glossary:alpha/ex1",)
    ex = secs["glossary:alpha/ex1"]
    assert (ex.kind, ex.text, ex.parent) == ("example", "An example.", "glossary:alpha")
    assert (ex.provenance.line_start, ex.provenance.line_end) == (16, 18)
    links = {l.ref: l for l in alpha.links}
    assert links["Beta"].target == "glossary:beta" and links["Beta"].kind == LINK_RELATED
    assert links["Gamma"].target == "" and "Gamma" in links["Gamma"].reason
    assert alpha.provenance.line_start == 6


def test_fused_heading_is_recovered_only_when_named_by_the_text():
    text = FM + ("# Action\n\nA.\n\n**Related**: Abilities, Costs Action Phase\n\n"
                 "The action phase is a structure.\n\n# Zed\n\nZ.\n")
    secs = parse(text, "g.md", "glossary")
    assert [s.title for s in secs] == ["Action", "Action Phase", "Zed"]
    assert [l.ref for l in secs[0].links] == ["Abilities", "Costs"]
    assert secs[1].text == "The action phase is a structure."
    # a sub-heading after Related is the entry going on, not a lost heading
    text2 = FM + "# Runner\n\nR.\n\n**Related**: Corp, Runner Cards\n\n## Runner Cards\n\nCards.\n"
    assert [s.title for s in parse(text2, "g.md", "glossary")] == ["Runner"]


def test_unterminated_front_matter_names_file_and_line():
    with pytest.raises(ParseError) as err:
        parse("---\ntitle: x\n# Alpha\n", "glossary.md", "glossary")
    assert (err.value.file, err.value.line) == ("glossary.md", 1)
    assert "glossary.md:1" in str(err.value)


def test_unclosed_table_names_its_line():
    with pytest.raises(ParseError) as err:
        parse(FM + "# A\n\n<table>\n<tr><td>x</td></tr>\n", "glossary.md", "glossary")
    assert err.value.line == 8


# ---------------------------------------------------------------- the whole document

@pytest.fixture(scope="module")
def glossary(rules_source):
    return parse((rules_source / "glossary.md").read_text(encoding="utf-8"), "glossary.md", "glossary")


def test_entry_and_example_counts(glossary):
    entries = [s for s in glossary if s.kind == "glossary-entry"]
    examples = [s for s in glossary if s.kind == "example"]
    # grep -c '^# ' glossary.md -> 118 headings, + "Action Phase" fused into
    # the Related line of "Action" (line 173: "... Costs Action Phase") = 119.
    assert len(entries) == 119
    # grep -c '^{: .note-title }' glossary.md -> 57
    assert len(examples) == 57
    assert len({s.id for s in glossary}) == len(glossary)
    assert [s.order for s in glossary] == list(range(len(glossary)))


def test_related_link_count(glossary):
    # grep '^\*\*Related\*\*' | strip label and final '.' | awk -F', *' '{n+=NF}' -> 866
    links = [l for s in glossary for l in s.links if l.kind == LINK_RELATED]
    assert len(links) == 866
    assert all(l.target or l.reason for l in links)


def test_recovered_action_phase(glossary):
    secs = _by_id(glossary)
    action = secs["glossary:action"]
    assert [l.ref for l in action.links] == ["Abilities", "Action Phase", "Costs"]
    phase = secs["glossary:action-phase"]
    assert phase.title == "Action Phase"
    assert phase.provenance.line_start == 175
    assert phase.text.startswith("The action phase is the timing structure")
    assert "[click] 2[c] | Trash 1 resource if the Runner is tagged." in phase.text
    assert "5. Players may use paid abilities. The Corp may rez non-ice cards" in phase.text


def test_exact_texts_and_no_markup(glossary):
    secs = _by_id(glossary)
    assert secs["glossary:virus-counter"].text == (
        "A token that is typically hosted on virus-related cards. When virus counters are "
        "purged, all virus counters are returned to the token bank.")
    assert "such as +2[mu], which means" in secs["glossary:memory-unit-mu"].text
    ex = secs["glossary:abilities/ex4"]
    assert ex.text.startswith("The Runner encounters a Tollbooth that they can bypass with Femme Fatale.")
    for s in glossary:
        assert "<span" not in s.text and "<td" not in s.text and "**" not in s.text and "{:" not in s.text
    assert secs["glossary:corp-corporation"].title == "Corp / Corporation"


def test_tree_is_consistent(glossary):
    ids = {s.id: s for s in glossary}
    for s in glossary:
        assert not s.parent or s.id in ids[s.parent].children
        assert all(ids[c].parent == s.id for c in s.children)
    assert "they still gain 1[c] even though" in ids["glossary:composite-effect/ex2"].text
