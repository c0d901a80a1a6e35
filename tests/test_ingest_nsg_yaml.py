"""The NSG Comprehensive Rules YAML parser: snippets, then the three real versions."""
from __future__ import annotations

import collections
import re
from pathlib import Path

import pytest

from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.nsg_markup import NO_SUCH_ANCHOR
from judgebook.ingestion.nsg_yaml import SourceFile, parse, parse_version

# ---- snippets ----------------------------------------------------------------------

CH1 = """\
chapter: chpt_basics
text: Basics
sections:
- section: sec_general
  text: General
  rules:
  - rule: rule_first
    text: A {term:run} costs [Click] and 1[c]; see {ref:Sec_other} and {ref:rule_second}.
    examples:
    - text: |-
        {card:Sure Gamble} gains [c]. Pay [cost] as {curly:c}.
  - subsection: rule_second
    text: Heading text with {ref:rule_first,RULE_Second}.
    rules:
    - rule: rule_second_a
      new:
      text: See {ref/through:sec_general,sec_other} and {ref:rule_gone}.
    - rule: rule_second_b
      text: The {subtype:Code Gate} rule about [MU] and {n}new words{/n}.
- section: sec_other
  steps:
  text: Steps of Other
  rules:
  - rule: step_one
    text: First, the {term:run} begins.
  - subsection: subsec_phase
    steps:
    toc:
    text: Steps of a Phase
    rules:
    - rule: step_phase_a
      text: Do a thing.
"""

CH11 = """\
chapter: chpt_appendix
text: Appendix
sections:
- section: sec_appendix_run
  text: Timing of a Run ({ref:Sec_other})
  rules:
  - timing_structure:
    bold:
    elements:
    - text: Approach Phase
      elements:
      - text: The Runner approaches.
      - text: Is the ice rezzed?
        elements:
        - text: If yes, go to (2).
        - text: If no, go to (3).
- section: sec_appendix_breach
  text: Breach
  rules:
  - timing_structure:
    elements:
    - text: The breach begins.
    - text: Any candidates?
      elements:
      - text: If yes, choose one.
"""


@pytest.fixture(scope="module")
def tiny():
    secs = parse_version([SourceFile("data/input/01_basics.yaml", CH1),
                          SourceFile("data/input/11_appendix.yaml", CH11)], "cr-t")
    return {s.id: s for s in secs}


def test_numbers_follow_the_tree(tiny):
    got = {s.anchor or s.id: (s.number, s.kind) for s in tiny.values()}
    assert got["chpt_basics"] == ("1", "chapter")
    assert got["sec_general"] == ("1.1", "section")
    assert got["rule_first"] == ("1.1.1", "rule")
    assert got["rule_second"] == ("1.1.2", "rule")
    assert got["rule_second_a"] == ("1.1.2a", "sub-rule")
    assert got["rule_second_b"] == ("1.1.2b", "sub-rule")
    # a section with `steps:` holds steps; so does a subsection with `steps:`
    assert got["step_one"] == ("1.2.1", "step")
    assert got["subsec_phase"] == ("1.2.2", "step")
    assert got["step_phase_a"] == ("1.2.2a", "step")
    # the chapter number comes from the file name, 11_...
    assert got["chpt_appendix"] == ("11", "chapter")


def test_examples_are_child_sections(tiny):
    rule = tiny["cr-t:rule_first"]
    assert rule.examples == ("cr-t:rule_first/ex1",)
    ex = tiny["cr-t:rule_first/ex1"]
    assert (ex.kind, ex.parent, ex.number) == ("example", "cr-t:rule_first", "")
    assert ex.text == "Sure Gamble gains [c]. Pay [cost] as {c}."


def test_refs_render_as_published_and_link(tiny):
    rule = tiny["cr-t:rule_first"]
    assert rule.text == "A run costs [click] and 1[c]; see Section 1.2 and section 1.1.2."
    refs = [l for l in rule.links if l.kind == "ref"]
    assert [(l.text, l.target) for l in refs] == [
        ("Section 1.2", "cr-t:sec_other"), ("section 1.1.2", "cr-t:rule_second")]
    for link in rule.links:
        assert rule.text[link.start:link.end] == link.text


def test_multi_and_through_refs(tiny):
    sub = tiny["cr-t:rule_second"]
    assert sub.text == "Heading text with rules 1.1.1 and 1.1.2."
    assert [l.target for l in sub.links] == ["cr-t:rule_first", "cr-t:rule_second"]
    a = tiny["cr-t:rule_second_a"]
    assert a.text == "See sections 1.1 through 1.2 and rule_gone."
    missing = [l for l in a.links if not l.target]
    assert [(l.ref, l.reason) for l in missing] == [("rule_gone", NO_SUCH_ANCHOR)]
    for s in (sub, a):
        for link in s.links:
            assert s.text[link.start:link.end] == link.text


def test_terms_cards_subtypes_and_new(tiny):
    b = tiny["cr-t:rule_second_b"]
    assert b.text == "The Code Gate rule about [mu] and new words."
    assert [(l.kind, l.ref) for l in b.links] == [("subtype", "Code Gate")]
    assert b.meta_get("new") == "true"                       # from {n}...{/n}
    assert tiny["cr-t:rule_second_a"].meta_get("new") == "true"   # from `new:`
    assert tiny["cr-t:rule_first"].meta_get("new") == ""
    # {term:run} first appears in rule_first: that rule introduces it
    assert tiny["cr-t:rule_first"].meta_get("defines") == "run"
    assert tiny["cr-t:step_one"].meta_get("defines") == ""
    card = [l for l in tiny["cr-t:rule_first/ex1"].links if l.kind == "card"]
    assert [(l.ref, l.target) for l in card] == [("Sure Gamble", "")]


def test_toc_subsection_is_a_titled_heading(tiny):
    phase = tiny["cr-t:subsec_phase"]
    assert (phase.title, phase.text) == ("Steps of a Phase", "")


def test_timing_structure_numbering(tiny):
    sec = tiny["cr-t:sec_appendix_run"]
    assert sec.title == "Timing of a Run (Section 1.2)"
    assert sec.links[0].target == "cr-t:sec_other" and sec.links[0].start == -1
    phase = tiny["cr-t:sec_appendix_run/1"]
    assert (phase.number, phase.title, phase.kind) == ("11.1.1", "Approach Phase", "step")
    assert phase.children == ("cr-t:sec_appendix_run/1a", "cr-t:sec_appendix_run/1b")
    step = tiny["cr-t:sec_appendix_run/1b"]
    assert step.number == "11.1.1b"
    assert step.text == "Is the ice rezzed? i) If yes, go to (2). ii) If no, go to (3)."
    # not bold: top-level items are steps with text, not phase headings
    q = tiny["cr-t:sec_appendix_breach/2"]
    assert (q.number, q.title, q.text) == ("11.2.2", "", "Any candidates?")
    assert tiny["cr-t:sec_appendix_breach/2a"].number == "11.2.2a"


def test_provenance_lines(tiny):
    # 1-based lines of CH1: `- rule: rule_first` is line 7, its text line 8;
    # the example's block text runs from line 10 to 11; rule_second_a's item
    # starts at line 15 (`new:` on 16, its text on 17).
    assert (tiny["cr-t:rule_first"].provenance.line_start,
            tiny["cr-t:rule_first"].provenance.line_end) == (7, 8)
    ex = tiny["cr-t:rule_first/ex1"].provenance
    assert (ex.file, ex.line_start, ex.line_end) == ("data/input/01_basics.yaml", 10, 11)
    a = tiny["cr-t:rule_second_a"].provenance
    assert (a.line_start, a.line_end) == (15, 17)


def test_order_and_children(tiny):
    ordered = sorted(tiny.values(), key=lambda s: s.order)
    assert [s.order for s in ordered] == list(range(len(ordered)))
    assert tiny["cr-t:rule_second"].children == ("cr-t:rule_second_a", "cr-t:rule_second_b")
    assert tiny["cr-t:chpt_basics"].children == ("cr-t:sec_general", "cr-t:sec_other")


def test_single_file_parse_leaves_other_chapters_unresolved():
    secs = parse("chapter: c\ntext: C\nsections:\n- section: s\n  text: S\n  rules:\n"
                 "  - rule: r\n    text: See {ref:elsewhere}.\n", "data/input/03_c.yaml", "cr-x")
    r = [s for s in secs if s.anchor == "r"][0]
    assert (r.number, r.text) == ("3.1.1", "See elsewhere.")
    assert r.links[0].reason == NO_SUCH_ANCHOR


@pytest.mark.parametrize("text, line, expected", [
    ("chapter: c\ntext: C\nsections:\n- section: s\n  text: [unclosed\n", 5, "well-formed YAML"),
    ("chapter: c\ntext: C\nsections:\n- section: s\n  text: S\n  rules:\n  - rule: r\n", 7,
     "a 'text:' field"),
    ("chapter: c\ntext: C\nsections:\n- section: s\n  text: S\n  rules:\n  - ruel: r\n"
     "    text: T\n", 7, "a 'rule:', 'subsection:' or 'timing_structure:' element"),
    ("- just\n- a list\n", 1, "a chapter mapping"),
    ("", 1, "a YAML mapping"),
    ("chapter: c\ntext: C\nsections:\n- section: s\n  text: S\n  rules:\n  - rule: R\n"
     "    text: T\n  - rule: r\n    text: U\n", 9, "a new anchor (first defined at "
     "data/input/05_bad.yaml:7)"),
])
def test_malformed_input_names_file_and_line(text, line, expected):
    with pytest.raises(ParseError) as err:
        parse(text, "data/input/05_bad.yaml", "cr-x")
    assert (err.value.file, err.value.line) == ("data/input/05_bad.yaml", line)
    assert expected in err.value.expected
    assert "05_bad.yaml:" in str(err.value)


def test_source_slips_are_recovered():
    # v22.12/v23.08: an example's `text: |-` block not indented under its key.
    slip = ("chapter: c\ntext: C\nsections:\n- section: s\n  text: S\n  rules:\n"
            "  - rule: r\n    text: T\n    examples:\n    - text: |-\n"
            "      The Corp is playing {card:Gagarin Deep Space: Expanding the Horizon}, then.\n"
            # v26.03: `rules:` under a `rule:` (NSG's generator drops them)
            "  - rule: r2\n    text: U\n    rules:\n    - rule: r2a\n      text: V\n")
    by = {s.id: s for s in parse(slip, "data/input/01_c.yaml", "cr-x")}
    ex = by["cr-x:r/ex1"]
    assert ex.text == "The Corp is playing Gagarin Deep Space: Expanding the Horizon, then."
    assert ex.meta_get("source_slip")
    assert by["cr-x:r2a"].number == "1.1.2a"
    assert by["cr-x:r2"].children == ("cr-x:r2a",)


# ---- the real versions -------------------------------------------------------------

def load(root: Path, version: str) -> list:
    from judgebook.ingestion import user_sources
    [source] = user_sources.detect(root / version)
    return user_sources.load(source)[1]


@pytest.fixture(scope="module")
def versions(nsg_cr_root):
    return {v: load(nsg_cr_root, v) for v in ("v22.12", "v23.08", "v26.03")}


# Counted from the YAML with grep/awk, not with this parser (files 01..11 of
# data/input, 00_changelog and data/changelogs excluded unless said):
#   chapters   grep -c '^chapter:'                                   -> 11 each
#   sections   grep -cE '^\s*- section:'
#   rules      subsections (grep -cE '^\s*-?\s*subsection:') plus `rule:` items
#              directly under a section without `steps:`; sub-rules: `rule:` items
#              under a subsection without `steps:`; anchored steps: `rule:` items
#              under a section/subsection with `steps:` (awk over the files tracking
#              the last `- section:`/`subsection:` header, its indentation and
#              whether a `steps:` line follows it: 363/215/629/119, 363/222/650/119,
#              361/237/688/135). v26.03's rule_memory_limit has `rules:` under a
#              `rule:` (see test_source_slips_are_recovered): we read it as a
#              subsection, so one of awk's 361 section-level rules becomes a sub-rule.
#   steps      anchored steps plus timing-structure items of 11_appendix at the
#              first two levels: `- text:` lines indented 4 or 6 (22+54, 22+54, 22+58;
#              the 12 at indent 8 are branches folded into their step's text)
#   examples   grep -cE '^\s*- (text|new):' in files 01..10 (every list item there
#              that is not a rule, subsection or section is an example)
#   anchors    chapters + sections + `rule:` keys (1111/1132/1184) + `subsection:` keys
#   refs       ids in {ref...} markup: grep -oE '\{ref[^}]*\}' | tr -cd ',\n' | wc -c
#   terms/cards/subtypes  grep -o '{term:' etc.; one `{card:{card:Ashigaru}}` in
#              v22.12 and v23.08 names one card, not two (675->674, 706->705)
EXPECTED = {
    "v22.12": dict(chapter=11, section=117, rule=578, sub_rule=629, step=195, example=202,
                   anchors=1454, refs=476, terms=231, cards=674, subtypes=92),
    "v23.08": dict(chapter=11, section=117, rule=585, sub_rule=650, step=195, example=210,
                   anchors=1482, refs=491, terms=237, cards=705, subtypes=92),
    "v26.03": dict(chapter=11, section=119, rule=597, sub_rule=689, step=215, example=243,
                   anchors=1551, refs=537, terms=243, cards=812, subtypes=94),
}


@pytest.mark.corpora
@pytest.mark.parametrize("version", sorted(EXPECTED))
def test_counts(versions, version):
    secs = [s for s in versions[version] if not s.meta_get("changelog")]
    kinds = collections.Counter(s.kind for s in secs)
    links = collections.Counter(l.kind for s in secs for l in s.links)
    want = EXPECTED[version]
    assert {k: kinds[k.replace("_", "-")] for k in
            ("chapter", "section", "rule", "sub_rule", "step", "example")} == \
        {k: want[k] for k in ("chapter", "section", "rule", "sub_rule", "step", "example")}
    assert sum(1 for s in secs if s.anchor) == want["anchors"]
    assert (links["ref"], links["term"], links["card"], links["subtype"]) == \
        (want["refs"], want["terms"], want["cards"], want["subtypes"])


@pytest.mark.corpora
@pytest.mark.parametrize("version", sorted(EXPECTED))
def test_whole_version_is_consistent(versions, version):
    secs = versions[version]
    ids = [s.id for s in secs]
    assert len(ids) == len(set(ids))
    by = {s.id: s for s in secs}
    for s in secs:
        for child in s.children:
            assert by[child].parent == s.id
        for link in s.links:
            if link.start >= 0:
                assert s.text[link.start:link.end] == link.text
            if link.kind == "ref":
                # every ref in the real documents names an anchor of its version
                assert link.target in by, (s.id, link)
        # no markup left: the only braces are the symbols' plaintext, {curly:c} -> "{c}"
        plain = re.sub(r"\{(c|click|recurring|link|MU|sub|trash|interrupt)\}", "", s.text)
        assert "{" not in plain and "}" not in plain, s.id
        assert s.provenance.line_start >= 1 and s.provenance.line_end >= s.provenance.line_start


@pytest.mark.corpora
def test_provenance_points_at_the_anchor(versions, nsg_cr_root):
    root = nsg_cr_root / "v26.03"
    lines = {}
    for s in versions["v26.03"]:
        if not s.anchor:
            continue
        f = s.provenance.file
        lines.setdefault(f, (root / f).read_text("utf-8").splitlines())
        assert s.anchor in lines[f][s.provenance.line_start - 1], s.id


@pytest.mark.corpora
def test_run_steps_numbered_as_published(versions):
    # sec_steps_of_a_run is the 9th `- section:` of 06_runs.yaml (grep -n '^- section:'
    # lists 9), so it is 6.9; its subsections are the six phases in order, each with
    # lettered steps. The published CR 26.03 prints the same: 6.9.2 Approach Ice
    # Phase, whose paid ability window (the Corp's chance to rez) is 6.9.2b.
    by = {s.anchor: s for s in versions["v26.03"] if s.anchor}
    assert by["sec_steps_of_a_run"].number == "6.9"
    phases = ["rule_sec_run_initiation_phase", "rule_sec_run_approach_ice_phase",
              "rule_sec_run_encounter_ice_phase", "rule_sec_run_movement_phase",
              "rule_sec_run_success_phase", "rule_sec_run_run_ends_phase"]
    assert [by[p].number for p in phases] == [f"6.9.{i}" for i in range(1, 7)]
    assert {a: by[a].number for a in (
        "step_initiation_announce", "step_initiation_paw", "step_approach_begins",
        "step_approach_paw", "step_approach_complete", "step_encounter_paw",
        "step_resolve_subroutine", "step_pass_ice", "step_jack_out_choice",
        "step_move_position", "step_approach_server", "step_run_declared_successful",
        "step_breach", "step_run_complete")} == {
        "step_initiation_announce": "6.9.1a", "step_initiation_paw": "6.9.1e",
        "step_approach_begins": "6.9.2a", "step_approach_paw": "6.9.2b",
        "step_approach_complete": "6.9.2c", "step_encounter_paw": "6.9.3b",
        "step_resolve_subroutine": "6.9.3c", "step_pass_ice": "6.9.4a",
        "step_jack_out_choice": "6.9.4c", "step_move_position": "6.9.4d",
        "step_approach_server": "6.9.4g", "step_run_declared_successful": "6.9.5a",
        "step_breach": "6.9.5b", "step_run_complete": "6.9.6d"}
    assert by["step_approach_paw"].kind == "step"
    # {ref:} to a steps subsection prints "step", as the published text does
    assert "proceed to step 6.9.2, Approach Ice Phase" in by["step_initiation_complete"].text
    # v22.12 had no initiation-phase paid ability window: the approach was 6.9.2 too,
    # but the initiation phase had fewer steps
    old = {s.anchor: s for s in versions["v22.12"] if s.anchor}
    assert "step_initiation_paw" not in old and old["step_approach_paw"].number == "6.9.2b"


@pytest.mark.corpora
def test_checkpoint_steps(versions):
    # sec_checkpoints is the 3rd section of 10_additional_rules.yaml; its first
    # element is the subsection rule_checkpoints with `steps:` and 12 `rule:` items
    # (sed -n 70,131p | grep -c 'rule: step_checkpoint'): 10.3.1a..10.3.1l.
    secs = [s for s in versions["v26.03"] if s.parent == "cr-26.03:rule_checkpoints"]
    assert [s.number for s in secs] == [f"10.3.1{c}" for c in "abcdefghijkl"]
    by = {s.anchor: s.number for s in secs}
    assert by["step_checkpoint_agenda_points"] == "10.3.1c"
    assert by["step_checkpoint_vacant_position"] == "10.3.1i"
    assert all(s.kind == "step" for s in secs)


@pytest.mark.corpora
def test_appendix_numbering(versions):
    # 11_appendix_timing_structures.yaml, v26.03: sections 11.1 overview, 11.2 Corp's
    # turn, 11.3 Runner's turn, 11.4 run, 11.5 breach, 11.6 access. The PDF labels
    # the run's phases 1)..6) and their steps a), b), ...: "Approach Ice Phase" is
    # phase 2 and "Paid ability window: (P) (R) and ice can be rezzed." its step b.
    by = {s.id: s for s in versions["v26.03"]}
    run = "cr-26.03:sec_appendix_timing_structure_of_a_run"
    assert by[run].number == "11.4"
    assert [by[f"{run}/{i}"].title for i in range(1, 7)] == [
        "Initiation Phase", "Approach Ice Phase", "Encounter Ice Phase",
        "Movement Phase", "Success Phase", "Run Ends Phase"]
    assert by[f"{run}/2"].number == "11.4.2"
    assert (by[f"{run}/2b"].number, by[f"{run}/2b"].text) == (
        "11.4.2b", "Paid ability window: (P) (R) and ice can be rezzed.")
    assert by[f"{run}/2c"].text == "Is the approached ice rezzed? i) If yes, go to (3). " \
                                   "ii) If no, go to (4)."
    assert len(by[f"{run}/4"].children) == 8            # a) .. h) of the Movement Phase
    breach = "cr-26.03:sec_appendix_timing_structure_of_breaching_a_server"
    assert [by[f"{breach}/{i}"].number for i in range(1, 8)] == [f"11.5.{i}" for i in range(1, 8)]
    assert by[f"{breach}/4b"].text == "If no, go to (7)."
    assert by[run].title == "Timing Structure of a Run (Section 6.9)"


@pytest.mark.corpora
def test_changelogs(versions):
    logs = {s.id: s for s in versions["v26.03"] if s.meta_get("changelog")}
    # data/changelogs holds 25.04, 25.08, 26.03 and the XX.XX template (skipped)
    assert sorted(logs) == ["cr-26.03:changelog-25.04", "cr-26.03:changelog-25.08",
                            "cr-26.03:changelog-26.03"]
    log = logs["cr-26.03:changelog-26.03"]
    assert log.title == "Changes in 26.03" and log.kind == "section"
    # grep -oE '\{ref[^}]*\}' data/changelogs/[0-9]*.yaml | tr -cd ',\n' | wc -c -> 80
    assert sum(1 for s in logs.values() for l in s.links if l.kind == "ref") == 80
    # rule_melies_u_detail: 01_game_concepts.yaml's 5th section (sec_extra_cards,
    # grep -n '^- section:'), 2nd element (subsection rule_identity_copy), 2nd
    # lettered rule -> 1.5.2b
    assert log.text.startswith("Added rule 1.5.2b to support Méliès U's ability.")
    old = [s for s in versions["v23.08"] if s.meta_get("changelog")]
    assert [s.id for s in old] == ["cr-23.08:changelog-23.08"]
    # 13 entries in v23.08's 00_changelog.yaml (grep -c '^- text:'), a paragraph each
    assert len(old[0].text.split("\n\n")) == 13


@pytest.mark.corpora
@pytest.mark.parametrize("version, distinct", [("v22.12", 212), ("v23.08", 218),
                                               ("v26.03", 224)])
def test_each_term_defined_once(versions, version, distinct):
    # distinct terms, case folded: grep -o '{term:[^}]*}' in files 01..11
    #   | tr A-Z a-z | sort -u | wc -l
    defined = [t.lower() for s in versions[version] for t in s.meta_get("defines").split("|") if t]
    assert len(defined) == len(set(defined)) == distinct


@pytest.mark.corpora
def test_defined_terms(versions):
    by = {s.anchor: s for s in versions["v26.03"] if s.anchor}
    assert "run" in by["rule_run"].meta_get("defines").split("|")
    assert by["rule_checkpoints"].meta_get("defines") == "checkpoint"


def test_more_sub_rules_than_letters():
    rules = "".join(f"    - rule: r{i}\n      text: T\n" for i in range(27))
    text = ("chapter: c\ntext: C\nsections:\n- section: s\n  text: S\n  rules:\n"
            "  - subsection: sub\n    text: T\n    rules:\n" + rules)
    with pytest.raises(ParseError) as err:
        parse(text, "data/input/01_c.yaml", "cr-x")
    # the 27th rule (no letter left for it) starts at line 10 + 2 * 26
    assert err.value.line == 62 and "at most 26 lettered rules" in err.value.expected
