"""NetrunnerDB card data and rulings (the `v2` format of netrunner-cards-json).

Each card becomes a section of document `cards` (id `cards:<card_id>`); each
ruling in `v2/rulings/<card_id>.json` a section of `nrdb-rulings` (id
`nrdb-rulings:<card_id>/<n>`, n from 1 in file order) whose parent is its
card. A card lists its rulings as children and links to each.

Card text uses `[credit]`-style symbols and a little HTML (`<strong>`,
`<em>`, lists); rulings use Markdown (`[Card](/en/card/30009)` links) and
HTML icon spans, and often open with a `####` header naming their source
("####[ANCUR](...) [UFAQ 24](...) [Michael Boggs]") or close with one
("[Official FAQ]"). The source goes to provenance; the text keeps the ruling.
"""
from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from judgebook import symbols
from judgebook.ingestion.errors import ParseError
from judgebook.model import LINK_CARD, LINK_REF, LINK_RULING, Link, Provenance, Section

PARSER = "nrdb"
CARDS_DOC = "cards"
RULINGS_DOC = "nrdb-rulings"
OLD_STEP_REASON = "old run-timing numbering"

# Card fields kept as meta, in display order. None means "X" for costs and
# strength (a variable value); an identity's null influence limit means none.
_META_FIELDS = ("cost", "strength", "agenda_points", "advancement_requirement",
                "trash_cost", "memory_cost", "influence_cost", "base_link",
                "minimum_deck_size", "influence_limit", "deck_limit")
_NULL_IS_X = {"cost", "strength", "advancement_requirement"}

_ICON_SPAN = re.compile(r'<span class="icon icon-([a-z-]+)"></span>')
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_MD_LINK = re.compile(r"\[([^\[\]]+)\]\(([^)\s]*)\)")
_HEADER = re.compile(r"\A\s*####([^\n]*)\n?")
_TRAILING_SOURCE = re.compile(r"\s*\[([A-Z][^\[\]\n]{1,40})\]\s*\Z")
# "step 2.3", "Step 4", "step 5a": the run/turn steps of the pre-CR timing
# charts. Three-part numbers ("step 6.9.5a") are current CR numbers and are
# left for the linking pass.
_OLD_STEP = re.compile(r"\b[Ss]teps? (\d+(?:\.\d+)?[a-z]?)(?![.\d]*\d)(?=[\s,.;:)\"]|$)")


@dataclass(frozen=True)
class Names:
    """Readable names for the ids cards use (from v2/card_types.json etc.)."""
    types: dict[str, str]
    factions: dict[str, str]
    subtypes: dict[str, str]


@dataclass(frozen=True)
class RulingSource:
    """Who or what a ruling cites, taken from its header or trailer."""
    source: str = ""
    attribution: str = ""


# ---- JSON with positions -----------------------------------------------------

def read_json(text: str, file: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(file, exc.lineno, "valid JSON", exc.msg) from None


def array_spans(text: str, file: str) -> list[tuple[Any, int, int]]:
    """The items of a top-level JSON array, each with its 1-based first and last line."""
    decoder = json.JSONDecoder()
    pos = _skip(text, 0)
    if pos >= len(text) or text[pos] != "[":
        raise ParseError(file, _line_at(text, pos), "a JSON list of rulings", text[pos:pos + 20])
    items, pos = [], _skip(text, pos + 1)
    while pos < len(text) and text[pos] != "]":
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise ParseError(file, exc.lineno, "valid JSON", exc.msg) from None
        items.append((value, _line_at(text, pos), _line_at(text, end - 1)))
        pos = _skip(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip(text, pos + 1)
        elif pos < len(text) and text[pos] != "]":
            raise ParseError(file, _line_at(text, pos), "',' or ']'", text[pos:pos + 20])
    if pos >= len(text):
        raise ParseError(file, _line_at(text, pos), "']' closing the list", "end of file")
    return items


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _field_line(text: str, key: str) -> int:
    at = text.find(f'"{key}"')
    return _line_at(text, at) if at >= 0 else 1


# ---- text cleaning -------------------------------------------------------------

def clean_html(text: str) -> str:
    """Card or ruling text without HTML, symbols canonical."""
    text = _ICON_SPAN.sub(lambda m: symbols.canonical(m.group(1)) or f"[{m.group(1)}]", text)
    text = re.sub(r"<li>", "\n• ", text)
    text = _TAG.sub("", text)
    text = html.unescape(text)
    text = symbols.normalise(text)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def strip_bold(text: str) -> str:
    """Markdown **bold** in rulings ("**Updated**") becomes plain text."""
    return re.sub(r"\*\*(.+?)\*\*", r"\1", text, flags=re.S)


def split_source(text: str) -> tuple[str, RulingSource]:
    """The ruling without its source header/trailer, and that source."""
    m = _HEADER.match(text)
    if m:
        return text[m.end():].strip(), _header_source(m.group(1))
    m = _TRAILING_SOURCE.search(text)
    if m:
        return text[:m.start()].rstrip(), RulingSource(source=m.group(1).strip())
    return text.strip(), RulingSource()


def _header_source(header: str) -> RulingSource:
    # "[ANCUR](url) [UFAQ 24](url) [Michael Boggs]": the last bracket that is
    # not a link and holds no digits names the person or team who ruled.
    plain_brackets = re.findall(r"\[([^\]]+)\](?!\()", header)
    who = next((b for b in reversed(plain_brackets) if not re.search(r"\d", b)), "")
    readable = _MD_LINK.sub(r"\1", header).replace("[", "").replace("]", "")
    return RulingSource(source=" ".join(readable.split()), attribution=who.strip())


# A line break inside a paragraph: not next to another break, not opening a list item.
_HARD_BREAK = re.compile(r"(?<=[^\n])\n(?=[^\n•*\-\d])")


def reflow(text: str) -> str:
    """The source's hard line breaks inside a paragraph become spaces; paragraphs and list
    items stay. One character for one, so link spans found before still fit."""
    return _HARD_BREAK.sub(" ", text)


def markdown_links(text: str, titles: dict[str, str]) -> tuple[str, tuple[Link, ...]]:
    """Markdown links become their text; links to cards become card links."""
    out, links, last = [], [], 0
    length = 0
    for m in _MD_LINK.finditer(text):
        out.append(text[last:m.start()])
        length += m.start() - last
        name, url = m.group(1), m.group(2)
        out.append(name)
        if "/card/" in url:
            target = titles.get(card_key(name), "")
            links.append(Link(kind=LINK_CARD, ref=name, text=name, target=target,
                              reason="" if target else "no card of that name in the card data",
                              start=length, end=length + len(name)))
        length += len(name)
        last = m.end()
    out.append(text[last:])
    return "".join(out), tuple(links)


def old_step_links(text: str) -> tuple[Link, ...]:
    """Pre-CR step numbers ("step 2.3"): kept, and marked so nothing links them to a rule."""
    return tuple(Link(kind=LINK_REF, ref=f"step {m.group(1)}", text=m.group(0),
                      reason=OLD_STEP_REASON, start=m.start(), end=m.end())
                 for m in _OLD_STEP.finditer(text))


# ---- cards ------------------------------------------------------------------------

def parse_card(text: str, file: str, names: Names) -> Section:
    data = read_json(text, file)
    if not isinstance(data, dict):
        raise ParseError(file, 1, "a JSON object for one card", type(data).__name__)
    for key in ("id", "title"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ParseError(file, _field_line(text, key), f"a '{key}' string", str(data.get(key)))
    return Section(
        id=f"{CARDS_DOC}:{data['id']}", doc=CARDS_DOC, number="", title=data["title"],
        kind="card", text=card_text(data),
        provenance=Provenance(file=file, line_start=1, line_end=text.count("\n") + 1),
        meta=card_meta(data, names))


def card_text(data: dict) -> str:
    parts = [clean_html(data.get("text") or "")]
    for face in data.get("faces") or ():
        parts.append(f"Other side: {face.get('title', '')}\n{clean_html(face.get('text') or '')}")
    return "\n\n".join(p for p in parts if p.strip())


def card_meta(data: dict, names: Names) -> tuple[tuple[str, str], ...]:
    meta = [("type", data.get("card_type_id", "")),
            ("type_name", names.types.get(data.get("card_type_id", ""), "")),
            ("side", data.get("side_id", "")),
            ("faction", data.get("faction_id", "")),
            ("faction_name", names.factions.get(data.get("faction_id", ""), "")),
            ("subtypes", "|".join(names.subtypes.get(s, s) for s in data.get("subtypes") or ())),
            ("unique", "true" if data.get("is_unique") else "false")]
    for key in _META_FIELDS:
        if key in data:
            value = data[key]
            meta.append((key, "X" if value is None and key in _NULL_IS_X
                         else "" if value is None else str(value)))
    if data.get("stripped_title") and data["stripped_title"] != data["title"]:
        meta.append(("stripped_title", data["stripped_title"]))
    return tuple((k, v) for k, v in meta if v != "")


# ---- rulings ---------------------------------------------------------------------

def parse_rulings(text: str, file: str, card_id: str, titles: dict[str, str]) -> list[Section]:
    """The rulings of one card, in file order."""
    out = []
    for n, (item, first, last) in enumerate(array_spans(text, file), start=1):
        out.append(parse_ruling(item, file, first, last, card_id, n, titles))
    return out


def parse_ruling(item: Any, file: str, first: int, last: int, card_id: str, n: int,
                 titles: dict[str, str]) -> Section:
    if not isinstance(item, dict):
        raise ParseError(file, first, "a ruling object", type(item).__name__)
    if item.get("card_id", card_id) != card_id:
        raise ParseError(file, first, f"card_id {card_id!r} (the file's name)",
                         str(item["card_id"]))
    raw, source = _ruling_body(item, file, first)
    plain, card_links = markdown_links(strip_bold(clean_html(raw)), titles)
    plain = reflow(plain)
    verified = item.get("nsg_rules_team_verified")
    if not isinstance(verified, bool):
        raise ParseError(file, first, "'nsg_rules_team_verified': true or false", str(verified))
    extra = (("verified", "true" if verified else "false"), ("source", source.source))
    return Section(
        id=f"{RULINGS_DOC}:{card_id}/{n}", doc=RULINGS_DOC, number="", title="",
        kind="ruling", text=plain, parent=f"{CARDS_DOC}:{card_id}", order=n - 1,
        provenance=Provenance(file=file, line_start=first, line_end=last,
                              attribution=source.attribution,
                              date=_iso_date(item.get("date_update"), file, first),
                              extra=extra),
        links=card_links + old_step_links(plain))


def _ruling_body(item: dict, file: str, line: int) -> tuple[str, RulingSource]:
    if isinstance(item.get("text_ruling"), str):
        return split_source(item["text_ruling"])
    q, a = item.get("question"), item.get("answer")
    if not (isinstance(q, str) and isinstance(a, str)):
        raise ParseError(file, line, "'text_ruling', or 'question' and 'answer'", ", ".join(item))
    question, source = split_source(q)
    answer, trailer = split_source(a)
    return f"Q: {question}\n\nA: {answer}", source if source.source else trailer


def _iso_date(value: Any, file: str, line: int) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ParseError(file, line, "'date_update' as YYYY-MM-DD", str(value))
    return value


def with_rulings(card: Section, rulings: list[Section]) -> Section:
    """The card, listing its rulings as children and linking to each."""
    ids = tuple(r.id for r in rulings)
    links = tuple(Link(kind=LINK_RULING, ref=i, target=i) for i in ids)
    return replace(card, children=ids, links=card.links + links)


# ---- format legality -------------------------------------------------------------

# The formats a judge is asked about, in the order shown. Each is judged by its
# newest snapshot in v2/formats/<id>.json (the last listed: NetrunnerDB appends
# them in order, and its "active" flag lags behind newly published ban lists).
LEGALITY_FORMATS = ("standard", "startup", "eternal")
LEGALITY_META = "format:"      # meta key prefix: "format:standard"
# restriction keys this reader understands; any other in a list we use is an error, not ignored
_RESTRICTION_KEYS = {"banned", "date_start", "format_id", "id", "name", "point_limit", "points", "restricted"}


@dataclass(frozen=True)
class FormatRules:
    """One format's newest snapshot: its card pool and its restriction list."""
    id: str
    name: str
    pool_name: str
    sets: frozenset[str]
    restriction_name: str
    restriction_date: str
    banned: frozenset[str]
    restricted: frozenset[str]
    points: dict[str, int]
    pool_id: str = ""          # the card pool's id ("rotation_2025"): what `judgebook cards coverage` reports

    def status(self, card_id: str, card_sets: set[str]) -> str:
        """"banned", "legal", "legal, restricted", "legal, N points" or "not in the card pool"."""
        if not card_sets & self.sets:
            return "not in the card pool"
        if card_id in self.banned:
            return "banned"
        if card_id in self.restricted:
            return "legal, restricted"
        if card_id in self.points:
            n = self.points[card_id]
            return f"legal, {n} point{'s' if n != 1 else ''}"
        return "legal"


def read_formats(v2: Path, root: Path) -> list[FormatRules]:
    """The newest snapshot of each of LEGALITY_FORMATS present in `v2/formats/`."""
    out = []
    for fmt in LEGALITY_FORMATS:
        path = v2 / "formats" / f"{fmt}.json"
        if not path.exists():
            continue
        text = path.read_text("utf-8")
        data = read_json(text, _rel(path, root))
        snaps = data.get("snapshots") if isinstance(data, dict) else None
        if not snaps or not isinstance(snaps[-1], dict) or not snaps[-1].get("card_pool_id"):
            raise ParseError(_rel(path, root), _field_line(text, "snapshots"),
                             "'snapshots' ending with one that names its card_pool_id", str(snaps)[:40])
        snap = snaps[-1]
        pool = _pool(v2, root, fmt, snap["card_pool_id"])
        restriction = _restriction(v2, root, snap.get("restriction_id", ""))
        points = {card: int(n) for n, cards in (restriction.get("points") or {}).items() for card in cards}
        out.append(FormatRules(
            id=fmt, name=str(data.get("name", fmt)), pool_name=str(pool.get("name", pool["id"])),
            sets=frozenset(pool.get("card_set_ids") or ()),
            restriction_name=str(restriction.get("name", "")),
            restriction_date=str(restriction.get("date_start", "")),
            banned=frozenset(restriction.get("banned") or ()),
            restricted=frozenset(restriction.get("restricted") or ()), points=points,
            pool_id=str(pool["id"])))
    return out


def _pool(v2: Path, root: Path, fmt: str, pool_id: str) -> dict:
    path = v2 / "card_pools" / f"{fmt}.json"
    text = path.read_text("utf-8") if path.exists() else "[]"
    pools = read_json(text, _rel(path, root))
    pool = next((p for p in pools if isinstance(p, dict) and p.get("id") == pool_id), None)
    if pool is None:
        raise ParseError(_rel(path, root), 1, f"a card pool with id {pool_id!r} (named by formats/{fmt}.json)",
                         "none")
    return pool


def _restriction(v2: Path, root: Path, restriction_id: str) -> dict:
    if not restriction_id:
        return {}
    found = sorted((v2 / "restrictions").glob(f"*/{restriction_id}.json"))
    if not found:
        raise ParseError(_rel(v2 / "restrictions", root), 0,
                         f"a restriction list {restriction_id}.json", "none")
    text = found[0].read_text("utf-8")
    data = read_json(text, _rel(found[0], root))
    unknown = sorted(set(data) - _RESTRICTION_KEYS)
    if unknown:
        raise ParseError(_rel(found[0], root), _field_line(text, unknown[0]),
                         "restriction fields judgebook understands (banned, restricted, points)", unknown[0])
    return data


def card_sets(v2: Path, root: Path) -> dict[str, set[str]]:
    """card id -> the sets it was printed in (v2/printings/*.json)."""
    out: dict[str, set[str]] = {}
    for path in sorted((v2 / "printings").glob("*.json")):
        for row in read_json(path.read_text("utf-8"), _rel(path, root)):
            if isinstance(row, dict) and "card_id" in row:
                out.setdefault(row["card_id"], set()).add(row.get("card_set_id", path.stem))
    return out


def legality_meta(card_id: str, formats: list[FormatRules],
                  printed: dict[str, set[str]]) -> tuple[tuple[str, str], ...]:
    """("format:standard", "banned|Standard|Standard Ban List 25.10|Seventh Rotation"), one per format."""
    sets = printed.get(card_id, set())
    return tuple((LEGALITY_META + f.id, "|".join((f.status(card_id, sets), f.name, f.restriction_name,
                                                    f.pool_name)))
                 for f in formats)


# ---- a whole checkout ----------------------------------------------------------------

def read_names(v2: Path) -> Names:
    def table(name: str) -> dict[str, str]:
        path = v2 / name
        if not path.exists():
            return {}
        rows = read_json(path.read_text("utf-8"), str(path))
        return {str(r["id"]): str(r.get("name", r["id"])) for r in rows if isinstance(r, dict) and "id" in r}
    return Names(types=table("card_types.json"), factions=table("factions.json"),
                 subtypes=table("card_subtypes.json"))


def load(v2: Path, root: Path | None = None) -> tuple[list[Section], list[Section]]:
    """(cards, rulings) from a `v2` folder; provenance paths relative to `root`."""
    root = root or v2.parent
    names = read_names(v2)
    formats = read_formats(v2, root)
    printed = card_sets(v2, root) if formats else {}
    cards = {}
    for path in sorted((v2 / "cards").glob("*.json")):
        card = parse_card(path.read_text("utf-8"), _rel(path, root), names)
        card_id = card.id.removeprefix(f"{CARDS_DOC}:")
        cards[card_id] = replace(card, meta=card.meta + legality_meta(card_id, formats, printed))
    titles = _titles(cards.values())
    rulings: list[Section] = []
    for path in sorted((v2 / "rulings").glob("*.json")):
        card_id = path.stem
        if card_id not in cards:
            raise ParseError(_rel(path, root), 1, f"a card {card_id!r} in v2/cards", "none")
        mine = parse_rulings(path.read_text("utf-8"), _rel(path, root), card_id, titles)
        cards[card_id] = with_rulings(cards[card_id], mine)
        rulings += mine
    return ([replace(c, order=i) for i, c in enumerate(cards.values())],
            [replace(r, order=i) for i, r in enumerate(rulings)])


def card_key(name: str) -> str:
    """How a ruling's card link is matched to a title: case, a possessive and
    stray zero-width spaces ("Awakening Center\u200b") do not matter."""
    name = name.replace("\u200b", "").strip().lower()
    return re.sub(r"['’]s$", "", name)


def _titles(cards) -> dict[str, str]:
    """Card lookup by title, stripped title and, for identities, the name
    before the colon ("Reina Roja" for "Reina Roja: Freedom Fighter") when
    only one identity has it."""
    out: dict[str, str] = {}
    short: dict[str, set[str]] = {}
    for c in cards:
        for title in (c.title, c.meta_get("stripped_title")):
            if title:
                out.setdefault(card_key(title), c.id)
                if ":" in title and c.meta_get("type", "").endswith("identity"):
                    short.setdefault(card_key(title.split(":")[0]), set()).add(c.id)
    for name, ids in short.items():
        if len(ids) == 1:
            out.setdefault(name, next(iter(ids)))
    return out


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)
