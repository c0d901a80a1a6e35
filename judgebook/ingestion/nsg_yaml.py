"""NSG Comprehensive Rules, from the YAML its rules website and PDF are generated from.

One version is parsed at once (its eleven chapter files, in order), because
printed numbers follow from the order of the whole tree and a `{ref:}` in
chapter 1 prints the number of an anchor in chapter 9.

Numbering follows NSG's generator (rules_doc_generator, `references.py`):
chapter `c`; section `c.s`; every element of a section (rule, subsection or
timing structure) `c.s.i`, counting from 1; a subsection's rules are lettered
`c.s.ia`, `c.s.ib`, ... A section or subsection with `steps:` holds steps,
and a reference to one prints "step 6.9.2b"; a reference to a chapter,
section or subsection prints "section ..."; to anything else "rule ...".

The appendix's timing structures have no anchors. The PDF numbers their
top-level items 1), 2), ... (the phases), lettered items a), b), ... within
each, and roman-numbered branches i), ii) below those; the structure's own
"go to (2)" and "return to (c)" use those labels. We give a top-level item
the number `<section>.<n>` and id `<doc>:<section anchor>/<n>`, a lettered
item `<section>.<n><letter>` and id `.../<n><letter>` (so in v26.03 the
run's approach ice phase is 11.4.2 and its paid ability window 11.4.2b), and
fold the roman-numbered branches into the text of the item they belong to
("i) If yes, go to (2). ii) If no, go to (4)."). Every timing structure is
the only element of its section, so these numbers cannot meet a rule's.
"""
from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from judgebook.ingestion.errors import ParseError
from judgebook.ingestion.nsg_markup import RefInfo, Rendered, render
from judgebook.model import Provenance, Section

PARSER = "nsg_yaml"
LETTERS = string.ascii_lowercase
# libyaml composes the same nodes, with the same marks, about ten times faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


@dataclass(frozen=True)
class SourceFile:
    """One YAML file of a version: its name (as provenance shows it) and text."""
    name: str
    text: str


@dataclass(frozen=True)
class Draft:
    """A section before its markup is rendered (which needs every anchor's number)."""
    id: str
    number: str
    kind: str
    word: str                  # how a reference names it: section / rule / step
    title_raw: str
    text_raw: str
    file: str
    line_start: int
    line_end: int
    parent: str = ""
    children: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    anchor: str = ""
    new: bool = False
    meta: tuple[tuple[str, str], ...] = ()
    title_is_text: bool = False   # title is rendered markup (sections), not plain


# ---- YAML nodes with their line numbers ------------------------------------

def compose(text: str, file: str) -> yaml.Node:
    """The YAML node tree (which keeps line numbers), or a ParseError."""
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        raise yaml_error(exc, file, text) from None
    except yaml.YAMLError as exc:
        raise ParseError(file, 0, "well-formed YAML", str(exc)) from None
    if node is None:
        raise ParseError(file, 1, "a YAML mapping", "an empty file")
    return node


def yaml_error(exc: yaml.MarkedYAMLError, file: str, text: str) -> ParseError:
    """A YAML syntax error as a ParseError at the most useful line.

    An unclosed bracket or quote is only noticed at the end of the file; the
    line where it was opened (the context mark) is the one to fix.
    """
    mark = exc.problem_mark
    at_end = mark is not None and mark.index >= len(text.rstrip())
    if exc.context_mark is not None and (mark is None or at_end):
        mark = exc.context_mark
    context = exc.context or ""
    if context and exc.context_mark is not None and exc.context_mark is not mark:
        context += f" (from line {exc.context_mark.line + 1})"
    found = " ".join(x for x in (context, exc.problem or "") if x)
    return ParseError(file, mark.line + 1 if mark else 0, "well-formed YAML", found)


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _last_line(node: yaml.Node) -> int:
    # A block scalar ends at column 0 of the line after its last line.
    m = node.end_mark
    return m.line if m.column == 0 and m.line > node.start_mark.line else m.line + 1


def _mapping(node: yaml.Node, file: str, what: str) -> dict[str, yaml.Node]:
    if not isinstance(node, yaml.MappingNode):
        raise ParseError(file, _line(node), what, _found(node))
    return {k.value: v for k, v in node.value}


def _found(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return node.value
    return "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"


def _scalar(fields: dict[str, yaml.Node], key: str, file: str, owner: yaml.Node,
            required: bool = True) -> str:
    node = fields.get(key)
    if node is None:
        if required:
            raise ParseError(file, _line(owner), f"a '{key}:' field", ", ".join(fields))
        return ""
    if not isinstance(node, yaml.ScalarNode):
        raise ParseError(file, _line(node), f"text for '{key}:'", _found(node))
    return node.value


def _sequence(fields: dict[str, yaml.Node], key: str, file: str) -> list[yaml.Node]:
    node = fields.get(key)
    if node is None:
        return []
    if not isinstance(node, yaml.SequenceNode):
        raise ParseError(file, _line(node), f"a list under '{key}:'", _found(node))
    return list(node.value)


def _flag(fields: dict[str, yaml.Node], key: str) -> bool:
    # The generator treats a bare `new:` (null) as set, like any present key.
    node = fields.get(key)
    return node is not None and not (isinstance(node, yaml.ScalarNode)
                                     and node.value.lower() in ("false", "no"))


def _at_most(items: list[yaml.Node], labels: tuple[str, ...] | str, file: str,
             what: str) -> list[yaml.Node]:
    """`items`, if there is a printed label for each of them."""
    if len(items) > len(labels):
        raise ParseError(file, _line(items[len(labels)]), f"at most {len(labels)} {what}",
                         f"{len(items)}")
    return items


def _text_end(fields: dict[str, yaml.Node], owner: yaml.Node) -> int:
    node = fields.get("text")
    return _last_line(node) if node is not None else _line(owner)


def _scalars_end(fields: dict[str, yaml.Node], owner: yaml.Node) -> int:
    ends = [_last_line(v) for v in fields.values() if isinstance(v, yaml.ScalarNode)]
    return max(ends, default=_line(owner))


# ---- pass 1: the tree and its numbers ---------------------------------------

@dataclass
class _Walk:
    """Drafts in document order for one version."""
    doc: str
    drafts: list[Draft]
    anchors: dict[str, Draft] = field(default_factory=dict)

    def add(self, draft: Draft) -> Draft:
        # References ignore case, so anchors must differ in more than case.
        key = draft.anchor.lower()
        if key and key in self.anchors:
            first = self.anchors[key]
            raise ParseError(draft.file, draft.line_start,
                             f"a new anchor (first defined at {first.file}:{first.line_start})",
                             draft.anchor)
        if key:
            self.anchors[key] = draft
        self.drafts.append(draft)
        return draft


def chapter_number(name: str, position: int) -> int:
    """Chapter files are named `NN_title.yaml`; the prefix is the chapter number."""
    m = re.match(r"(\d+)_", Path(name).name)
    return int(m.group(1)) if m else position


def walk_chapter(w: _Walk, src: SourceFile, number: int) -> None:
    root = compose(src.text, src.name)
    fields = _mapping(root, src.name, "a chapter mapping with 'chapter:'")
    anchor = _scalar(fields, "chapter", src.name, root)
    cid = f"{w.doc}:{anchor}"
    sections = _sequence(fields, "sections", src.name)
    child_ids = []
    chapter_at = len(w.drafts)
    w.add(Draft(id=cid, number=str(number), kind="chapter", word="section",
                title_raw=_scalar(fields, "text", src.name, root), text_raw="",
                file=src.name, line_start=_line(root), line_end=_text_end(fields, root),
                anchor=anchor, title_is_text=True))
    for s, node in enumerate(sections, start=1):
        child_ids.append(walk_section(w, src.name, node, f"{number}.{s}", cid))
    w.drafts[chapter_at] = replace(w.drafts[chapter_at], children=tuple(child_ids))


def walk_section(w: _Walk, file: str, node: yaml.Node, number: str, parent: str) -> str:
    fields = _mapping(node, file, "a section mapping with 'section:'")
    anchor = _scalar(fields, "section", file, node)
    sid = f"{w.doc}:{anchor}"
    steps = _flag(fields, "steps")
    meta = [("toc_entry", _scalar(fields, "toc_entry", file, node, required=False))]
    at = len(w.drafts)
    w.add(Draft(id=sid, number=number, kind="section", word="section",
                title_raw=_scalar(fields, "text", file, node),
                text_raw=_scalar(fields, "snippet", file, node, required=False),
                file=file, line_start=_line(node), line_end=_text_end(fields, node),
                parent=parent, anchor=anchor, new=_flag(fields, "new"),
                meta=tuple(m for m in meta if m[1]), title_is_text=True))
    children: list[str] = []
    for i, elem in enumerate(_sequence(fields, "rules", file), start=1):
        children += walk_element(w, file, elem, f"{number}.{i}", sid, anchor, steps)
    w.drafts[at] = replace(w.drafts[at], children=tuple(children))
    return sid


def walk_element(w: _Walk, file: str, node: yaml.Node, number: str, parent: str,
                 section_anchor: str, steps: bool) -> list[str]:
    fields = _mapping(node, file, "a 'rule:', 'subsection:' or 'timing_structure:' element")
    if "rule" in fields and "rules" in fields:
        # v26.03's rule_memory_limit holds `rules:` under `rule:`; NSG's
        # generator drops them, we keep them as the subsection it must mean.
        return [walk_subsection(w, file, node, fields, number, parent, steps, key="rule",
                                slip="rule with nested rules, read as a subsection")]
    if "rule" in fields:
        return [walk_rule(w, file, node, fields, number, parent,
                          "step" if steps else "rule", "step" if steps else "rule")]
    if "subsection" in fields:
        return [walk_subsection(w, file, node, fields, number, parent, steps)]
    if "timing_structure" in fields:
        return walk_timing(w, file, fields, number.rsplit(".", 1)[0], parent, section_anchor)
    raise ParseError(file, _line(node), "a 'rule:', 'subsection:' or 'timing_structure:' element",
                     ", ".join(fields))


def walk_rule(w: _Walk, file: str, node: yaml.Node, fields: dict[str, yaml.Node], number: str,
              parent: str, kind: str, word: str) -> str:
    anchor = _scalar(fields, "rule", file, node)
    rid = f"{w.doc}:{anchor}"
    at = len(w.drafts)
    w.add(Draft(id=rid, number=number, kind=kind, word=word, title_raw="",
                text_raw=_scalar(fields, "text", file, node), file=file,
                line_start=_line(node), line_end=_text_end(fields, node), parent=parent,
                anchor=anchor, new=_flag(fields, "new")))
    examples = walk_examples(w, file, fields, rid)
    w.drafts[at] = replace(w.drafts[at], children=examples, examples=examples)
    return rid


def walk_subsection(w: _Walk, file: str, node: yaml.Node, fields: dict[str, yaml.Node],
                    number: str, parent: str, in_steps_section: bool,
                    key: str = "subsection", slip: str = "") -> str:
    anchor = _scalar(fields, key, file, node)
    sid = f"{w.doc}:{anchor}"
    steps = _flag(fields, "steps")
    toc = _flag(fields, "toc")
    text = _scalar(fields, "text", file, node)
    snippet = _scalar(fields, "snippet", file, node, required=False)
    at = len(w.drafts)
    # A subsection listed in the table of contents is a heading ("Steps of
    # Drawing N Cards"): its text is its title.
    w.add(Draft(id=sid, number=number, kind="step" if in_steps_section else "rule",
                word="step" if steps else "section",
                title_raw=text if toc else "",
                text_raw="\n\n".join(t for t in ("" if toc else text, snippet) if t),
                file=file, line_start=_line(node), line_end=_text_end(fields, node),
                parent=parent, anchor=anchor, new=_flag(fields, "new"),
                meta=(("steps", "true"),) * steps + (("source_slip", slip),) * bool(slip),
                title_is_text=toc))
    examples = walk_examples(w, file, fields, sid)
    rules = _at_most(_sequence(fields, "rules", file), LETTERS, file, "lettered rules")
    subs = []
    for j, sub in enumerate(rules):
        sub_fields = _mapping(sub, file, "a 'rule:' element")
        if "rule" not in sub_fields:
            raise ParseError(file, _line(sub), "a 'rule:' element", ", ".join(sub_fields))
        subs.append(walk_rule(w, file, sub, sub_fields, number + LETTERS[j], sid,
                              "step" if steps else "sub-rule", "step" if steps else "rule"))
    w.drafts[at] = replace(w.drafts[at], children=examples + tuple(subs), examples=examples)
    return sid


def walk_examples(w: _Walk, file: str, fields: dict[str, yaml.Node],
                  parent: str) -> tuple[str, ...]:
    ids = []
    for n, node in enumerate(_sequence(fields, "examples", file), start=1):
        ex = _mapping(node, file, "an example mapping with 'text:'")
        eid = f"{parent}/ex{n}"
        text, slip = _example_text(ex, file, node)
        w.add(Draft(id=eid, number="", kind="example", word="example", title_raw="",
                    text_raw=text, file=file, line_start=_line(node),
                    line_end=_scalars_end(ex, node), parent=parent,
                    new=_flag(ex, "new"), meta=(("source_slip", slip),) if slip else ()))
        ids.append(eid)
    return tuple(ids)


def _example_text(fields: dict[str, yaml.Node], file: str, owner: yaml.Node) -> tuple[str, str]:
    """The example's text, and a note when it had to be recovered from a source slip.

    v22.12 and v23.08 have an example whose `text: |-` block is not indented
    deeper than its key, so YAML reads an empty text followed by a stray key
    ("The Corp is playing {card:Gagarin Deep Space") holding the rest after
    its colon. We put the sentence back together rather than lose it.
    """
    text = _scalar(fields, "text", file, owner)
    stray = [(k, v) for k, v in fields.items() if k not in ("text", "new")]
    if text.strip() or len(stray) != 1 or not isinstance(stray[0][1], yaml.ScalarNode):
        return text, ""
    key, value = stray[0]
    return f"{key}: {value.value}", "text block not indented under 'text: |-'"


def walk_timing(w: _Walk, file: str, fields: dict[str, yaml.Node], section_number: str,
                parent: str, section_anchor: str) -> list[str]:
    ids = []
    phases = _flag(fields, "bold")   # the turn and run structures: bold phases
    for n, node in enumerate(_sequence(fields, "elements", file), start=1):
        item = _mapping(node, file, "a timing structure element with 'text:'")
        label = str(n)
        tid = f"{w.doc}:{section_anchor}/{label}"
        at = len(w.drafts)
        subs = _at_most(_sequence(item, "elements", file), LETTERS, file, "lettered steps")
        # A phase ("Approach Ice Phase") is a heading; other items are steps.
        name = _scalar(item, "text", file, node)
        w.add(Draft(id=tid, number=f"{section_number}.{label}", kind="step", word="step",
                    title_raw=name if phases else "", text_raw="" if phases else name,
                    file=file, line_start=_line(node), line_end=_text_end(item, node),
                    parent=parent, meta=(("timing_structure", section_anchor),),
                    title_is_text=phases))
        children = [walk_timing_step(w, file, sub, f"{section_number}.{n}{LETTERS[j]}",
                                     f"{tid}{LETTERS[j]}", tid, section_anchor)
                    for j, sub in enumerate(subs)]
        w.drafts[at] = replace(w.drafts[at], children=tuple(children))
        ids.append(tid)
    return ids


def walk_timing_step(w: _Walk, file: str, node: yaml.Node, number: str, tid: str,
                     parent: str, section_anchor: str) -> str:
    item = _mapping(node, file, "a timing structure element with 'text:'")
    text = _scalar(item, "text", file, node)
    branches = _at_most(_sequence(item, "elements", file), ROMAN, file, "branches")
    end = _text_end(item, node)
    for k, sub in enumerate(branches):
        fields = _mapping(sub, file, "a timing structure element with 'text:'")
        text += f" {ROMAN[k]}) " + _scalar(fields, "text", file, sub)
        end = max(end, _text_end(fields, sub))
    w.add(Draft(id=tid, number=number, kind="step", word="step", title_raw="", text_raw=text,
                file=file, line_start=_line(node), line_end=end, parent=parent,
                meta=(("timing_structure", section_anchor),)))
    return tid


def walk_changelog(w: _Walk, src: SourceFile, version: str) -> None:
    root = compose(src.text, src.name)
    fields = _mapping(root, src.name, "a mapping with 'changelog:'")
    if "changelog" not in fields:
        raise ParseError(src.name, _line(root), "a 'changelog:' list", ", ".join(fields))
    entries = _sequence(fields, "changelog", src.name)
    texts = [_scalar(_mapping(e, src.name, "a changelog entry with 'text:'"), "text",
                     src.name, e) for e in entries]
    w.add(Draft(id=f"{w.doc}:changelog-{version}", number="", kind="section", word="section",
                title_raw=f"Changes in {version}", text_raw="\n\n".join(t.strip() for t in texts),
                file=src.name, line_start=_line(root), line_end=_last_line(root),
                meta=(("changelog", "true"),)))


# ---- pass 2: render markup ---------------------------------------------------

def ref_table(drafts: Iterable[Draft]) -> dict[str, RefInfo]:
    """Every anchor of the version, by lower-case anchor (refs ignore case)."""
    return {d.anchor.lower(): RefInfo(d.anchor, d.number, d.word) for d in drafts if d.anchor}


def finish(drafts: list[Draft], doc: str) -> list[Section]:
    refs = ref_table(drafts)
    sections = []
    defined: set[str] = set()
    for order, d in enumerate(drafts):
        body = render(d.text_raw, doc, refs)
        title = render(d.title_raw, doc, refs) if d.title_is_text else Rendered(d.title_raw)
        # Title references are not tied to a span of the text.
        title_links = tuple(replace(l, start=-1, end=-1) for l in title.links)
        meta = list(d.meta)
        if d.new or body.new:
            meta.append(("new", "true"))
        defines = _first_definitions(d, body, title, defined)
        if defines:
            meta.append(("defines", "|".join(defines)))
        sections.append(Section(
            id=d.id, doc=doc, number=d.number, title=title.text, kind=d.kind, text=body.text,
            provenance=Provenance(file=d.file, line_start=d.line_start, line_end=d.line_end),
            parent=d.parent, children=d.children, examples=d.examples,
            links=title_links + body.links, anchor=d.anchor, order=order, meta=tuple(meta)))
    return sections


def _first_definitions(d: Draft, body: Rendered, title: Rendered, seen: set[str]) -> list[str]:
    """{term:} marks a defined term; the first rule to mark it introduces it."""
    if d.kind == "example" or ("changelog", "true") in d.meta:
        return []
    out = []
    for term in title.terms + body.terms:
        key = term.lower()
        if key not in seen:
            seen.add(key)
            out.append(term)
    return out


# ---- entry points --------------------------------------------------------------

def parse_version(chapters: list[SourceFile], doc: str,
                  changelogs: Sequence[tuple[str, SourceFile]] = ()) -> list[Section]:
    """All sections of one version: chapters in order, then changelogs (version, file)."""
    w = _Walk(doc=doc, drafts=[])
    for position, src in enumerate(chapters, start=1):
        walk_chapter(w, src, chapter_number(src.name, position))
    for version, src in changelogs:
        walk_changelog(w, src, version)
    return finish(w.drafts, doc)


def parse(text: str, file: str, doc: str) -> list[Section]:
    """One chapter file on its own (references to other chapters stay unresolved)."""
    return parse_version([SourceFile(file, text)], doc)

