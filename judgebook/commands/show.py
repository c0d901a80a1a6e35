"""`judgebook show REF`: one section with its links out, backlinks, terms, cards and history.

REF is a section id (cr-26.03:rule_run), DOC:NUMBER (cr-1.6:1.16.10b), a
bare rule number (the newest loaded CR that has it), or the name of a card or
glossary entry ("Hostile Infrastructure"; a typo finds the closest name).
"""
from __future__ import annotations

import argparse
import json
import sys
import textwrap

from judgebook.text import fold

HELP = "print one section with its references, backlinks and history"


def register(subparsers) -> None:
    p = subparsers.add_parser("show", help=HELP, description=HELP)
    p.add_argument("ref", metavar="REF",
                   help="an id, DOC:NUMBER (cr-1.6:1.16.10b), a rule number, or a card or glossary entry's name")
    p.add_argument("--json", action="store_true", help="structured output")
    p.add_argument("--diff", metavar="DOC",
                   help="also show a word diff against the same rule in CR version DOC")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from judgebook.store.corpus import Corpus

    try:
        corpus = Corpus.load(args.index)
    except FileNotFoundError as exc:
        print(f"judgebook show: {exc}", file=sys.stderr)
        return 1
    sec = corpus.lookup(args.ref)
    if sec is None:
        sec = _by_name(corpus, args.ref)
    if sec is None:
        print(f"judgebook show: no section {args.ref!r} (try an id, DOC:NUMBER such as "
              f"cr-1.6:1.16.10b, a rule number, or a card or glossary entry's name)", file=sys.stderr)
        return 1
    report = describe(corpus, sec)
    if args.diff:
        other = next((h for h in report["history"] if h["doc"] == args.diff), None)
        if other is None:
            print(f"judgebook show: {sec.id} has no counterpart in {args.diff!r}", file=sys.stderr)
            return 1
        report["diff"] = _diff(corpus, corpus.get(other["id"]), sec)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(render(report))
    return 0


def _by_name(corpus, name: str):
    """A card or glossary entry by name; what else answers to it, or the correction made, goes to stderr."""
    found = corpus.named(name)
    if not found:
        return None
    first = found[0]
    if fold(first.title) != fold(name) and not fold(first.title).startswith(fold(name) + " "):
        print(f"judgebook show: no name {name!r}; showing the closest, {first.title!r}", file=sys.stderr)
    if len(found) > 1:
        print("judgebook show: also named so: " + ", ".join(f"{s.id}" for s in found[1:]), file=sys.stderr)
    return first


def _brief(sec) -> dict:
    return {"id": sec.id, "doc": sec.doc, "number": sec.number, "title": sec.title}


def describe(corpus, sec) -> dict:
    """Everything `show` prints, as plain data."""
    from judgebook.model import LINK_CARD, LINK_TERM, LINK_VERSION, to_dict

    def out_link(l) -> dict:
        d = {"kind": l.kind, "ref": l.ref, "text": l.text, "target": l.target,
             "start": l.start, "end": l.end}
        tgt = corpus.get(l.target) if l.target else None
        if tgt is not None:
            d["target_number"], d["target_title"] = tgt.number, tgt.title
            if not tgt.number and not tgt.title:     # a ruling: say what it is about
                d["target_title"] = " ".join(tgt.text.split())[:70]
        if not l.target:
            d["reason"] = l.reason
        if l.alternatives:
            d["alternatives"] = [_brief(a) for a in map(corpus.get, l.alternatives) if a]
        return d

    links = [l for l in sec.links if l.kind != LINK_VERSION]
    doc = corpus.documents.get(sec.doc)
    return {
        "section": to_dict(sec),
        "document": {"key": sec.doc, "title": doc.title if doc else "",
                     "edition": doc.edition if doc else ""},
        "breadcrumb": [_brief(s) for s in corpus.breadcrumb(sec.id)],
        "examples": [to_dict(e) for e in map(corpus.get, sec.examples) if e],
        "references": [out_link(l) for l in links if l.kind not in (LINK_TERM, LINK_CARD)],
        "terms": [out_link(l) for l in links if l.kind == LINK_TERM],
        "cards": [out_link(l) for l in links if l.kind == LINK_CARD],
        "backlinks": _backlinks(corpus, sec.id),
        "history": [_brief(h) for h in corpus.history(sec.id)],
    }


def _backlinks(corpus, section_id: str) -> list[dict]:
    """One entry per (source, kind): a rule naming a card three times refers to it once."""
    out: dict[tuple[str, str], dict] = {}
    for b in corpus.backlinks(section_id):
        key = (b.source, b.kind)
        if key in out:
            out[key]["count"] += 1
            continue
        src = corpus.get(b.source)
        out[key] = {"source": b.source, "kind": b.kind, "text": b.text,
                    "doc": src.doc if src else "", "number": src.number if src else "", "count": 1}
    return list(out.values())


def _diff(corpus, old, new) -> list[dict]:
    from judgebook.linking.versions import word_diff
    return [{"op": o.op, "text": o.text} for o in word_diff(old.text, new.text)]


def _wrap(text: str, indent: str = "  ") -> str:
    paras = [textwrap.fill(p, 88, initial_indent=indent, subsequent_indent=indent)
             for p in text.splitlines() if p.strip()]
    return "\n".join(paras)


def _link_line(d: dict) -> str:
    head = f"  [{d['kind']}] {d['text'] or d['ref']}"
    if d.get("target"):
        num = d.get("target_number") or d.get("target_title") or ""
        if d["kind"] == "ruling":
            return f"  [ruling] {d['target']}: {num}"
        return f"{head} -> {d['target']}" + (f" ({num})" if num and num not in d["target"] else "")
    line = f"{head} — unresolved: {d.get('reason', '')}"
    for a in d.get("alternatives", ()):
        line += f"\n      see {a['doc']} {a['number']} {a['title']}".rstrip() + f" ({a['id']})"
    return line


def render(r: dict) -> str:
    s = r["section"]
    out = [f"{s['id']}  —  {r['document']['title']} {r['document']['edition']}".rstrip()]
    head = " ".join(x for x in (s["number"], s["title"]) if x)
    out.append(f"{head}  [{s['kind']}]" if head else f"[{s['kind']}]")
    if r["breadcrumb"]:
        out.append("in: " + " › ".join(" ".join(x for x in (b["number"], b["title"]) if x)
                                       for b in r["breadcrumb"]))
    prov = s["provenance"]
    where = f"{prov['file']}:{prov['line_start']}" if prov["line_start"] else prov["file"]
    extra = ", ".join(x for x in (prov["citation"], prov["attribution"], prov["date"]) if x)
    out.append(f"source: {where}" + (f" ({extra})" if extra else ""))
    out += ["", _wrap(s["text"])] if s["text"] else []
    for e in r["examples"]:
        out += ["", "  Example:", _wrap(e["text"], "    ")]
    for title, key in (("References", "references"), ("Terms", "terms"), ("Cards", "cards")):
        if r[key]:
            out += ["", f"{title}:"] + [_link_line(d) for d in r[key]]
    if r["backlinks"]:
        out += ["", "Referenced by:"] + [
            f"  {b['source']}" + (f" ({b['kind']} \"{b['text']}\")" if b["text"] else f" ({b['kind']})")
            for b in r["backlinks"]]
    if len(r["history"]) > 1:
        out += ["", "History:"] + [
            f"  {h['doc']:<10} {h['number'] or '-':<10} {h['id']}" + ("   <- this" if h["id"] == s["id"] else "")
            for h in r["history"]]
    if r.get("diff"):
        marks = {"equal": "{}", "insert": "{{+{}+}}", "delete": "[-{}-]"}
        out += ["", "Diff:", _wrap("".join(marks[o["op"]].format(o["text"]) for o in r["diff"]))]
    return "\n".join(out) + "\n"
