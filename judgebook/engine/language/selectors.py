"""Selectors: which cards an instruction or quantity is about.

    self | target | chosen | event_card | event_ice | host | encountered | <card id>
    {zone: installed, side: you, type: program, subtype: icebreaker, other: true, ...filters, count: 1}
    {top: 3, deck: corp}

A selector with `count` is chosen by a decision when the instruction resolves
(targets are checked then, as the rules require); `count: all` takes every match.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from judgebook.engine.language.context import PLAYER_WORDS, Ctx
from judgebook.engine.language.grammar import agreeing, article, possessive
from judgebook.engine.language.nodes import At, want_bool
from judgebook.engine.language.registry import Registry
from judgebook.engine.language.value import Value
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Game


class Selector(Value):
    count: int | None = 1  # None: all matches
    up_to: bool = False

    def candidates(self, g: Game, ctx: Ctx) -> list[str]:
        raise NotImplementedError

    def render(self) -> str:
        raise NotImplementedError

    def render_kind(self) -> str:
        """The cards as a kind, not a choice ("the number of cards installed", "there is a card installed")."""
        return self.render()

    @property
    def chooses(self) -> bool:
        return False

    def needed(self, g: Game, ctx: Ctx) -> int:
        """How many cards the instruction acts on when carried out in full (rule_if_able): its count; 1 for
        "all" or "up to" (some card to act on)."""
        count_of = getattr(self, "count_of", None)
        if count_of is not None:
            return int(count_of.value(g, ctx))
        return 1 if self.count is None or self.up_to else self.count

    def picks(self, g: Game, ctx: Ctx, invalid: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
        """Every legal choice of cards (for a selector with a count), none of the `invalid` targets among them
        (rule_targets_must_be_valid)."""
        cands = [c for c in self.candidates(g, ctx) if c not in invalid]
        if self.count is None:
            return [tuple(cands)]
        n = min(self.count, len(cands))
        sizes = range(0, n + 1) if self.up_to else [n]
        out: list[tuple[str, ...]] = []
        for size in sizes:
            out += list(combinations(cands, size))
            if len(out) > 200:  # enough options for any table; the rest are reachable by undo and re-pick
                break
        return out


REFS = ("self", "target", "chosen", "event_card", "event_ice", "host", "encountered", "approached", "accessed")


@dataclass(frozen=True, eq=False)
class Ref(Selector):
    """One card named by its role (or a card id written in a scenario's card definition)."""

    ref: str
    count: int | None = 1

    def candidates(self, g: Game, ctx: Ctx) -> list[str]:
        found = resolve_ref(g, ctx, self.ref)
        return [c for c in found if c in g.cards]

    def render(self) -> str:
        return {
            "self": "this card",
            "target": "the chosen card",
            "chosen": "the chosen card",
            "event_card": "that card",
            "event_ice": "that ice",
            "host": "the host card",
            "encountered": "the encountered ice",
            "approached": "the approached ice",
            "accessed": "the card being accessed",
        }.get(self.ref, self.ref)


def resolve_ref(g: Game, ctx: Ctx, ref: str) -> list[str]:
    if ref == "self":
        card = g.cards.get(ctx.source)
        if card is not None and ctx.incarnation is not None and card.incarnation != ctx.incarnation:
            return []  # a new object: not the card whose ability this is (rule_abilities_resolution_independent)
        return [ctx.source]
    if ref == "target":
        return list(ctx.targets or ctx.chosen)
    if ref == "chosen":
        chosen = g.cards[ctx.source].chosen if ctx.source in g.cards else None
        return list(ctx.chosen) if ctx.chosen else ([chosen] if chosen else [])
    if ref == "event_card":
        card = ctx.event.get("card") if ctx.event else None
        return [card] if card else []
    if ref == "event_ice":
        card = ctx.event.get("ice") if ctx.event else None
        return [card] if card else []
    if ref == "host":
        host = g.cards[ctx.source].host
        return [host] if host else []
    if ref in ("encountered", "approached"):
        from judgebook.engine.rules.frames import current_encounter, current_run

        if ref == "encountered":
            enc = current_encounter(g)
            return [enc.ice] if enc else []
        run = current_run(g)
        return [run.ice_at(g)] if run and run.ice_at(g) else []
    if ref == "accessed":
        from judgebook.engine.rules.access import Access
        from judgebook.engine.rules.frames import find

        acc = find(g, Access)
        return [acc.card] if acc is not None else []
    return [ref]


class Filter(Value):
    name = ""

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        raise NotImplementedError

    def render(self) -> str:
        raise NotImplementedError


FILTERS: Registry[Filter] = Registry("filter")

ZONES = ("installed", "hand", "deck", "discard", "score", "rig", "ice", "root", "play", "any", "set_aside")


@FILTERS.register("zone")
@dataclass(frozen=True, eq=False)
class InZone(Filter):
    zone: str
    also: tuple[str, ...] = ()  # `zone: [hand, discard]`: "in HQ and/or Archives", the cards of every zone listed

    @classmethod
    def parse(cls, arg: Any, at: At) -> InZone:
        if isinstance(arg, list) and len(arg) > 1 and all(a in SEARCH_ZONES and a != "installed" for a in arg):
            return cls(str(arg[0]), tuple(str(a) for a in arg[1:]))
        if arg not in ZONES:
            at.fail(f"expected one of: {', '.join(ZONES)}, or a list of: hand, deck, discard, score, play")
        return cls(str(arg))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        if self.also:
            return any(InZone(z).matches(g, ctx, cid) for z in (self.zone,) + self.also)
        z = g.cards[cid].zone
        if self.zone == "installed":
            return q.is_installed(g, cid)
        if self.zone == "rig":
            return z == "runner.rig"
        if self.zone == "any":
            return True
        return z.endswith("." + self.zone) or z == self.zone

    def render(self) -> str:
        if self.also:
            return " or ".join(InZone(z).render() for z in (self.zone,) + self.also)
        return {
            "installed": "installed",
            "hand": "in hand",
            "deck": "in the deck",
            "discard": "in the discard pile",
            "score": "in a score area",
            "rig": "in the rig",
            "ice": "installed as ice",
            "root": "in a server's root",
            "play": "in the play area",
            "any": "anywhere",
            "set_aside": "set aside",
        }[self.zone]


@FILTERS.register("among_top")
@dataclass(frozen=True, eq=False)
class AmongTop(Filter):
    """Among the top N cards of its deck ("look at the top 5 cards of R&D. You may install 1 of those")."""

    n: int

    @classmethod
    def parse(cls, arg: Any, at: At) -> AmongTop:
        if isinstance(arg, bool) or not isinstance(arg, int) or arg < 1:
            at.fail("among_top is a number of cards (1 or more)")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        zone = g.cards[cid].zone
        return zone.endswith(".deck") and g.zone(zone).index(cid) < self.n

    def render(self) -> str:
        return f"among {top_cards(self.n)} of its deck"


@FILTERS.register("score_area")
@dataclass(frozen=True, eq=False)
class InScoreArea(Filter):
    """In a given player's score area (an agenda the Runner stole is the Corp's card in the Runner's area)."""

    who: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> InScoreArea:
        if arg not in PLAYER_WORDS:
            at.fail(f"score_area is one of: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return g.cards[cid].zone == f"{ctx.side(self.who)}.score"

    def render(self) -> str:
        return f"in {possessive(self.who)} score area"


@FILTERS.register("rez_cost")
@dataclass(frozen=True, eq=False)
class PrintedRezCost(Filter):
    """A card with a printed rez cost (ice, asset, upgrade) equal to a quantity; agendas have none."""

    amount: Any  # a Quantity (quantities import selectors, so the type is not named here)

    @classmethod
    def parse(cls, arg: Any, at: At) -> PrintedRezCost:
        from judgebook.engine.language.quantities import parse_quantity

        return cls(parse_quantity(arg, at))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        d = q.definition(g, cid)
        return d.type in ("ice", "asset", "upgrade") and (d.cost or 0) == self.amount.value(g, ctx)

    def render(self) -> str:
        return f"with a printed rez cost of {self.amount.render()}"


@FILTERS.register("cost_at_most")
@dataclass(frozen=True, eq=False)
class PrintedCostAtMost(Filter):
    """A printed play, install or rez cost at most a quantity (a card without one counts 0)."""

    amount: Any  # a Quantity (quantities import selectors, so the type is not named here)

    @classmethod
    def parse(cls, arg: Any, at: At) -> PrintedCostAtMost:
        from judgebook.engine.language.quantities import parse_quantity

        return cls(parse_quantity(arg, at))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return bool((q.definition(g, cid).cost or 0) <= self.amount.value(g, ctx))

    def render(self) -> str:
        return f"with a printed cost of {self.amount.render()} or less"


@FILTERS.register("agenda_points_at_most")
@dataclass(frozen=True, eq=False)
class AgendaPointsAtMost(Filter):
    """An agenda worth at most a number of agenda points ("1 agenda worth 1 or less agenda points")."""

    n: int

    @classmethod
    def parse(cls, arg: Any, at: At) -> AgendaPointsAtMost:
        if isinstance(arg, bool) or not isinstance(arg, int):
            at.fail("agenda_points_at_most is a number")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        d = q.definition(g, cid)
        return d.type == "agenda" and d.agenda_points <= self.n

    def render(self) -> str:
        return f"worth {self.n} or fewer agenda points"


@FILTERS.register("side")
@dataclass(frozen=True, eq=False)
class OfSide(Filter):
    who: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> OfSide:
        if arg not in PLAYER_WORDS:
            at.fail(f"expected one of: {', '.join(PLAYER_WORDS)}")
        return cls(str(arg))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return g.cards[cid].owner == ctx.side(self.who)

    def render(self) -> str:
        return agreeing(self.who, "control")


def _field_filter(key: str, words: str) -> None:
    @dataclass(frozen=True, eq=False)
    class FieldFilter(Filter):
        values: tuple[str, ...]

        @classmethod
        def parse(cls, arg: Any, at: At) -> FieldFilter:
            vals = arg if isinstance(arg, list) else [arg]
            if not vals or not all(isinstance(v, str) for v in vals):
                at.fail(f"{key} is a word or a list of words")
            return cls(tuple(vals))

        def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
            d = q.definition(g, cid)
            if key == "type":
                return d.type in self.values
            if key in ("subtype", "not_subtype"):
                from judgebook.engine.rules.gained_abilities import subtypes  # as effects change them

                have = subtypes(g, cid)
                return any(s in have for s in self.values) == (key == "subtype")
            return d.name in self.values

        def render(self) -> str:
            return f"{words} " + " or ".join(self.values)

    FieldFilter.__name__ = FieldFilter.__qualname__ = f"Filter_{key}"
    FILTERS.register(key)(FieldFilter)


for _key, _words in (("type", "of type"), ("subtype", "with subtype"), ("not_subtype", "with no subtype"),
                     ("name", "named")):
    _field_filter(_key, _words)


def _advanceable(g: Game, cid: str) -> bool:
    from judgebook.engine.rules.values import can_be_advanced

    return q.is_installed(g, cid) and can_be_advanced(g, cid)


def _excluding_filter(key: str, field_name: str, words: str) -> None:
    """"A non-agenda card", "a non-AI icebreaker": the card's type or subtypes exclude these."""

    @dataclass(frozen=True, eq=False)
    class Excluding(Filter):
        values: tuple[str, ...]

        @classmethod
        def parse(cls, arg: Any, at: At) -> Excluding:
            vals = arg if isinstance(arg, list) else [arg]
            if not vals or not all(isinstance(v, str) for v in vals):
                at.fail(f"{key} is a word or a list of words")
            return cls(tuple(vals))

        def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
            d = q.definition(g, cid)
            from judgebook.engine.rules.gained_abilities import subtypes  # as effects change them

            have = (d.type,) if field_name == "type" else subtypes(g, cid)
            return not any(v in have for v in self.values)

        def render(self) -> str:
            return f"{words} " + " or ".join(self.values)

    Excluding.__name__ = Excluding.__qualname__ = f"Filter_{key}"
    FILTERS.register(key)(Excluding)


_excluding_filter("not_type", "type", "not of type")


def _flag_filter(key: str, test: Any, words: str) -> None:
    @dataclass(frozen=True, eq=False)
    class FlagFilter(Filter):
        want: bool

        @classmethod
        def parse(cls, arg: Any, at: At) -> FlagFilter:
            if not isinstance(arg, bool):
                at.fail("expected true or false")
            return cls(arg)

        def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
            return bool(test(g, ctx, cid)) == self.want

        def render(self) -> str:
            return words if self.want else f"not {words}"

    FlagFilter.__name__ = FlagFilter.__qualname__ = f"Filter_{key}"
    FILTERS.register(key)(FlagFilter)


_flag_filter("rezzed", lambda g, ctx, cid: g.cards[cid].rezzed, "rezzed")
_flag_filter("faceup", lambda g, ctx, cid: g.cards[cid].faceup, "faceup")
_flag_filter("other", lambda g, ctx, cid: cid != ctx.source, "other than this card")
_flag_filter("active", lambda g, ctx, cid: q.is_active(g, cid), "active")
_flag_filter("can_be_advanced", lambda g, ctx, cid: _advanceable(g, cid), "that can be advanced")


def _installed_this_turn(g: Game, ctx: Ctx, cid: str) -> bool:
    return any(f.event.name == "installed" and f.event.get("card") == cid for f in g.history if f.turn == g.turn)


_flag_filter("installed_this_turn", _installed_this_turn, "installed this turn")


def _top_of_deck(g: Game, ctx: Ctx, cid: str) -> bool:
    zone = g.cards[cid].zone
    return zone.endswith(".deck") and g.zone(zone)[:1] == (cid,)


_flag_filter("top_of_deck", _top_of_deck, "on top of its deck")


def _being_accessed(g: Game, ctx: Ctx, cid: str) -> bool:
    from judgebook.engine.rules.access import Access
    from judgebook.engine.rules.frames import find

    frame = find(g, Access)
    return frame is not None and frame.card == cid


_flag_filter("accessed", _being_accessed, "being accessed")  # "the card you are accessing"


@FILTERS.register("counter")
@dataclass(frozen=True, eq=False)
class HasCounter(Filter):
    kind: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> HasCounter:
        if not isinstance(arg, str):
            at.fail("counter is a counter kind (virus, power, advancement, ...)")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return g.cards[cid].count(self.kind) > 0

    def render(self) -> str:
        return f"with {article(self.kind)} counter"


@FILTERS.register("no_counter")
@dataclass(frozen=True, eq=False)
class HasNoCounter(Filter):
    kind: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> HasNoCounter:
        if not isinstance(arg, str):
            at.fail("no_counter is a counter kind (virus, power, advancement, ...)")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return g.cards[cid].count(self.kind) == 0

    def render(self) -> str:
        return f"with no {self.kind} counter"


SERVER_WORDS = ("this", "attacked", "central", "remote", "mark")


def server_matches(g: Game, ctx: Ctx, want: str, server: str | None) -> bool:
    if server is None:
        return False
    if want == "this":
        return server == q.server_of(g, ctx.source)
    if want == "attacked":
        from judgebook.engine.rules.frames import current_run

        run = current_run(g)
        return run is not None and run.server == server
    if want == "central":
        return server in q.CENTRAL
    if want == "remote":
        return server not in q.CENTRAL
    if want == "mark":
        from judgebook.engine.rules.values import mark

        return server == mark(g)
    if want == "chosen":  # the server this card chose (choose_server)
        return ctx.source in g.cards and server == g.cards[ctx.source].chosen
    return server == want


@FILTERS.register("protecting")
@dataclass(frozen=True, eq=False)
class Protecting(Filter):
    server: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> Protecting:
        if not isinstance(arg, str):
            at.fail(f"protecting is a server name or one of: {', '.join(SERVER_WORDS)}")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return g.cards[cid].zone.endswith(".ice") and server_matches(g, ctx, self.server, q.server_of(g, cid))

    def render(self) -> str:
        return f"protecting {'this server' if self.server == 'this' else self.server}"


@FILTERS.register("in_server")
@dataclass(frozen=True, eq=False)
class InServer(Filter):
    server: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> InServer:
        if not isinstance(arg, str):
            at.fail(f"in_server is a server name or one of: {', '.join(SERVER_WORDS)}")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return server_matches(g, ctx, self.server, q.server_of(g, cid))

    def render(self) -> str:
        return f"in {'this server' if self.server == 'this' else self.server}"


@FILTERS.register("hosted_on")
@dataclass(frozen=True, eq=False)
class HostedOn(Filter):
    host: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> HostedOn:
        if arg not in REFS and not isinstance(arg, str):
            at.fail("hosted_on is a card reference")
        return cls(str(arg))

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return g.cards[cid].host in resolve_ref(g, ctx, self.host)

    def render(self) -> str:
        return f"hosted on {Ref(self.host).render()}"


SEARCH_ZONES = {
    "installed": None,
    "hand": ("corp.hand", "runner.hand"),
    "deck": ("corp.deck", "runner.deck"),
    "discard": ("corp.discard", "runner.discard"),
    "score": ("corp.score", "runner.score"),
    "play": ("play",),
    "set_aside": ("set_aside",),  # the set-aside zone, shared by both players (rule_set_aside_zone)
}


@dataclass(frozen=True, eq=False)
class Matching(Selector):
    filters: tuple[Filter, ...]
    count: int | None = 1
    up_to: bool = False
    at_random: bool = False  # `count: {at_random: N}`: N of the matching cards, chosen by no one
    distinct_names: bool = False  # only cards with different names may be chosen together
    count_of: Any = None  # `count: {exactly: QUANTITY}`: how many, known as the instruction resolves

    def picks(self, g: Game, ctx: Ctx, invalid: frozenset[str] = frozenset()) -> list[tuple[str, ...]]:
        if self.count_of is not None:
            cands = [c for c in self.candidates(g, ctx) if c not in invalid]
            out = list(combinations(cands, min(self.count_of.value(g, ctx), len(cands))))[:200]
        else:
            out = super().picks(g, ctx, invalid)
        if not self.distinct_names:
            return out
        return [p for p in out if len({g.cards[c].name for c in p}) == len(p)]

    def candidates(self, g: Game, ctx: Ctx) -> list[str]:
        where = next((f for f in self.filters if isinstance(f, InZone)), InZone("installed"))
        zone = where.zone
        if where.also:
            pool = [c for z in (zone,) + where.also for zz in SEARCH_ZONES[z] or () for c in g.zone(zz)]
        elif zone in ("installed", "rig", "ice", "root"):
            pool = q.installed(g)
        elif zone == "any":
            pool = list(g.cards)
        else:
            pool = [c for z in SEARCH_ZONES[zone] or () for c in g.zone(z)]
        found = [c for c in pool if all(f.matches(g, ctx, c) for f in self.filters)]
        return found[: self.count] if self.at_random and self.count is not None else found

    @property
    def chooses(self) -> bool:
        return self.count is not None and not self.at_random

    def render(self) -> str:
        how = (
            "each"
            if self.count is None
            else f"{self.count_of.render()}"
            if self.count_of is not None
            else "any number of"
            if self.up_to and self.count == ANY_NUMBER
            else f"up to {self.count}"
            if self.up_to
            else "a"
            if self.count == 1
            else str(self.count)
        )
        card = "card" if self.count in (1, None) and self.count_of is None else "cards"
        return f"{how} {card} {self.words()}".strip()

    def words(self) -> str:
        words = " ".join(f.render() for f in self.filters)
        if self.at_random:
            words = f"at random {words}"
        if self.distinct_names:
            words = f"{words} with different names"
        return words

    def render_kind(self) -> str:
        return f"cards {self.words()}".strip()


@dataclass(frozen=True, eq=False)
class TopOfDeck(Selector):
    n: int
    deck: str
    count: int | None = None

    def candidates(self, g: Game, ctx: Ctx) -> list[str]:
        return list(g.zone(f"{ctx.side(self.deck)}.deck")[: self.n])

    @property
    def chooses(self) -> bool:
        return self.count is not None  # "trash 1 of the revealed cards": chosen among the top N

    def render(self) -> str:
        some = f"{self.count} of " if self.count is not None else ""
        return f"{some}{top_cards(self.n)} of {possessive(self.deck)} deck"


def top_cards(n: int) -> str:
    """The top N cards of a deck, in number: "the top card", "the top 3 cards"."""
    return "the top card" if n == 1 else f"the top {n} cards"


def parse_selector(node: Any, at: At, default_count: int | None = 1) -> Selector:
    from judgebook.engine.language.nodes import check_keys, want_int

    if isinstance(node, str):
        return Ref(node)
    if not isinstance(node, dict):
        at.fail("a selector is a card reference (self, target, event_card, ...) or a mapping of filters")
    if "top" in node:
        check_keys(node, ("top", "deck", "count"), at)
        n = want_int(node, "top", at)
        deck = node.get("deck", "you")
        if n is None or n < 1 or deck not in PLAYER_WORDS:
            at.fail("write {top: N, deck: you|opponent|corp|runner}")
        picked = want_int(node, "count", at)
        if picked is not None and not 1 <= picked <= n:
            at.key(node, "count").fail(f"count chooses 1 to {n} of the top {n} cards")
        return TopOfDeck(n, str(deck), picked)
    filters: list[Filter] = []
    count: int | None = default_count
    up_to = False
    at_random = False
    distinct = False
    count_of = None
    for key, value in node.items():
        if key == "count" and isinstance(value, dict) and set(value) == {"at_random"}:
            # "N cards at random": nobody chooses them (the engine takes the first ones in the zone's order,
            # one of the possible outcomes, as it does for damage).
            count, at_random = want_int(value, "at_random", at.key(node, "count")), True
            if count is None or count < 1:
                at.key(node, "count").fail("write `count: {at_random: N}`")
            continue
        if key == "count" and isinstance(value, dict) and set(value) == {"exactly"}:
            # "that many cards", "all but 1 card": a number known when the instruction resolves.
            from judgebook.engine.language.quantities import parse_quantity

            count_of = parse_quantity(value["exactly"], at.key(node, "count").key(value, "exactly"))
            count = ANY_NUMBER
            continue
        if key == "count":
            count, up_to = _count(value, at.key(node, "count"))
            continue
        if key == "distinct_names":
            # "cards with different names": only sets of cards with no title twice can be chosen.
            distinct = want_bool(node, "distinct_names", at)
            continue
        if key == "up_to":
            want_bool(node, "up_to", at)
            at.key(node, key).fail("write `count: {up_to: N}`")
        if key not in FILTERS.by_name:
            at.key(node, str(key)).fail(f"unknown filter {key!r} (known: count, {', '.join(FILTERS.names())})")
        filters.append(FILTERS.by_name[key].parse(value, at.key(node, str(key))))  # type: ignore[attr-defined]
    if distinct and count is None:
        at.key(node, "distinct_names").fail("distinct_names limits a choice: give a `count`")
    return Matching(tuple(filters), count, up_to, at_random, distinct, count_of)


ANY_NUMBER = 1_000_000  # `{up_to: any}`: "any number of" cards, the chooser's pick of every subset


def _count(value: Any, at: At) -> tuple[int | None, bool]:
    if value == "all":
        return None, False
    if value == {"up_to": "any"}:
        return ANY_NUMBER, True
    if isinstance(value, dict) and set(value) == {"up_to"} and isinstance(value["up_to"], int):
        return int(value["up_to"]), True
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value, False
    at.fail("count is a number, `all`, {up_to: N} or {up_to: any}")


@FILTERS.register("is")
@dataclass(frozen=True, eq=False)
class IsRef(Filter):
    """The card a reference names, with further filters ("if that card is not a trojan")."""

    ref: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> IsRef:
        if not isinstance(arg, str):
            at.fail("is is a card reference")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        return cid in resolve_ref(g, ctx, self.ref)

    def render(self) -> str:
        return f"that is {Ref(self.ref).render()}"


@FILTERS.register("same_name_as")
@dataclass(frozen=True, eq=False)
class SameName(Filter):
    """A copy of another card: the same title (Twins: "a copy of the encountered ice")."""

    ref: str

    @classmethod
    def parse(cls, arg: Any, at: At) -> SameName:
        if not isinstance(arg, str):
            at.fail("same_name_as is a card reference")
        return cls(arg)

    def matches(self, g: Game, ctx: Ctx, cid: str) -> bool:
        names = {g.cards[c].name for c in resolve_ref(g, ctx, self.ref) if c in g.cards}
        return g.cards[cid].name in names and cid not in resolve_ref(g, ctx, self.ref)

    def render(self) -> str:
        return f"with the same name as {Ref(self.ref).render()}"
