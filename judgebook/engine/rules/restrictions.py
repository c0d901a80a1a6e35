"""Restrictions on what may be installed and active, and how a broken one is put right.

One mechanism for the checkpoint's uniqueness and card-restriction steps (step_checkpoint_uniqueness,
step_checkpoint_card_restrictions) and for the like cards an install trashes (rule_install_trash_like_cards):
a check reads the state and names a `Breach` — the rule broken and the ways of putting it right, each a set
of objects to trash. A single way is carried out by the engine; among several, the player who controls
the objects chooses (the active player when both do), and every trash cites the rule that decides it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from judgebook.engine.rules.frames import Frame, log, path, pop, push
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, Refused, decision
from judgebook.engine.state.model import SIDES, Game, Side


@dataclass(frozen=True)
class Way:
    """One way of putting a breach right: the decision that names it, its label, the objects it trashes."""

    value: tuple[str, ...]
    label: str
    trash: tuple[str, ...]


@dataclass(frozen=True)
class Breach:
    rule: str  # the rule that decides which objects go: every option and every trash cites it
    step: str  # the rule that gives the choice: the checkpoint step that finds it, or the rule itself
    prompt: str
    chooser: Side
    ways: tuple[Way, ...]
    by: Side | None = None  # the player who trashes (None: the game does, as a checkpoint)
    during_install: bool = False
    refused: tuple[tuple[str, str], ...] = ()  # single objects no way trashes alone, and why
    assumed: bool = False  # the engine cannot tell the way the rule picks (the step says so): it takes one


# A check: the state and the cards it must leave alone (the card being installed) -> the breach, if any.
Check = Callable[[Game, tuple[str, ...]], Breach | None]


@dataclass(frozen=True)
class Correct(Frame):
    """Put a restriction right now: the check is read again when this frame steps, so a state changed in
    between (an instruction's `then`) is judged as it is."""

    check: Check
    keep: tuple[str, ...] = ()

    def step(self, g: Game) -> Game | ChoicePoint:
        breach = self.check(g, self.keep)
        if breach is None:
            return pop(g)
        if len(breach.ways) == 1:
            return _carry_out(pop(g), breach, breach.ways[0], "assumed" if breach.assumed else "engine")
        opts = tuple(Option(decision("target", list(w.value)), w.label, breach.rule) for w in breach.ways)
        refused = tuple(Refused(decision("target", [c]), f"trash {c}", breach.rule, why) for c, why in breach.refused)
        return ChoicePoint(breach.chooser, "target", breach.prompt, breach.step, opts, refused, default=0,
                           path=path(g))

    def choose(self, g: Game, option: Option) -> Game:
        breach = self.check(g, self.keep)
        assert breach is not None  # the state has not changed since the choice point was made
        way = next(w for w in breach.ways if option.decision.fits(decision("target", list(w.value))))
        return _carry_out(pop(g), breach, way, "chosen")


def _carry_out(g: Game, breach: Breach, way: Way, how: str) -> Game:
    from judgebook.engine.rules.effects import trash

    # The step that found it (and gave the choice to its player); each trash then cites the deciding rule.
    g = log(g, "restriction", f"{breach.prompt}: {way.label}", breach.step, breach.chooser if how == "chosen"
            else None, how=how)
    for cid in way.trash:
        if not g.cards[cid].zone.endswith((".discard", ".removed")):  # not already gone with an earlier one
            g = trash(g, cid, breach.by, "" if breach.during_install else "checkpoint",
                      during_install=breach.during_install, anchor=breach.rule)
    return g if breach.during_install else enforce(g)


def enforce(g: Game) -> Game:
    """The checkpoint's restriction steps, in their order: the first restriction broken is put right (its
    correction enforces the rest after it)."""
    for check in CHECKPOINT:
        if check(g, ()) is not None:
            return push(g, Correct(check))
    return g


# -- the checkpoint's restrictions ------------------------------------------------------------------------------


def _activated(g: Game, cid: str) -> int:
    """When a card last became active, as its place in this turn's facts (installed faceup, rezzed, scored,
    stolen); -1 for a card active since before this turn."""
    for i in range(len(g.history) - 1, -1, -1):
        ev = g.history[i].event
        if ev.get("card") == cid and ev.name in ("installed", "rezzed", "scored", "stolen"):
            return i
    return -1


def _all_but_newest(g: Game, group: list[str]) -> tuple[Way, bool]:
    """The way that keeps the card that became active most recently; True when that cannot be told (two were
    active since before this turn: a board set up so) and the one listed last is kept."""
    when = [_activated(g, c) for c in group]
    newest = group[max(range(len(group)), key=lambda i: (when[i], i))]
    unknown = when.count(max(when)) > 1
    gone = tuple(c for c in group if c != newest)
    label = f"all but the most recently active ({newest}) are trashed: {', '.join(gone)}"
    if unknown:
        label += f"; which became active last is not known: {newest}, listed last, is kept"
    return Way(gone, label, gone), unknown


def uniqueness(g: Game, keep: tuple[str, ...]) -> Breach | None:
    """Two or more active unique cards of one name: all but the one that became active most recently are
    trashed, which cannot be prevented (step_checkpoint_uniqueness, rule_uniqueness)."""
    by_name: dict[str, list[str]] = {}
    # Where an active card can be (rule_default_active_card_locations), bar the identities: one per player.
    places = ("corp.score", "runner.score", "corp.current", "runner.current", "play")
    for cid in q.installed(g) + [c for z in places for c in g.zone(z)]:
        card = g.cards[cid]
        # A card added to a score area "as an agenda" has lost its printed properties, the unique symbol with
        # them (rule_add_card_to_score_area): three Jeitinho may sit there.
        if q.definition(g, cid).unique and card.as_agenda is None and q.is_active(g, cid):
            by_name.setdefault(card.name, []).append(cid)
    twice = [group for group in by_name.values() if len(group) > 1]
    if not twice:
        return None
    way, unknown = _all_but_newest(g, twice[0])  # one name at a time: the correction enforces the next
    name = g.cards[twice[0][0]].name
    return Breach("rule_uniqueness", "step_checkpoint_uniqueness", f"only one active unique {name}", g.active,
                  (way,), assumed=unknown)


def consoles(g: Game, keep: tuple[str, ...]) -> Breach | None:
    """A player with more than one installed console: all but the most recently active are trashed, which
    cannot be prevented (rule_install_console, step_checkpoint_uniqueness)."""
    from judgebook.engine.rules.gained_abilities import subtypes

    for side in SIDES:
        group = [c for c in q.installed(g, side) if "console" in subtypes(g, c) and q.is_active(g, c)]
        if len(group) > 1:
            way, unknown = _all_but_newest(g, group)
            return Breach("rule_install_console", "step_checkpoint_uniqueness", "limit 1 console per player", side,
                          (way,), assumed=unknown)
    return None


def _programs(g: Game) -> list[str]:
    return [c for c in q.installed(g, "runner") if q.definition(g, c).type == "program"]


def _fits(g: Game, keep: tuple[str, ...]) -> tuple[list[tuple[str, ...]], list[tuple[str, str]]]:
    """The appropriate sets of installed programs to trash so the rest fit the memory limit: trashing the set
    fits them, and no program of the set could stay (step_checkpoint_card_restrictions: so no 0[mu] program is
    in one). `keep` is never in a set. A limit below 0 is taken as 0, which trashing every program meets."""
    from judgebook.engine.rules.values import memory_limit

    programs = _programs(g)
    cost = {c: q.definition(g, c).memory for c in programs}
    excess = sum(cost.values()) - max(0, memory_limit(g))
    if excess <= 0:
        return [], []
    movable = [c for c in programs if cost[c] > 0 and c not in keep]
    out = []
    for n in range(1, len(movable) + 1):
        for group in combinations(movable, n):
            total = sum(cost[c] for c in group)
            if total >= excess and all(total - cost[c] < excess for c in group):
                out.append(group)
    alone = {group[0] for group in out if len(group) == 1}
    refused = [(c, "it is the program being installed" if c in keep else
                "it costs 0[mu]: the set stays appropriate without it" if cost[c] <= 0 else
                f"alone it frees {cost[c]}[mu] of the {excess}[mu] over the limit")
               for c in programs if c not in alone]
    return out, refused


def _memory(g: Game, keep: tuple[str, ...], rule: str, step: str) -> Breach | None:
    from judgebook.engine.rules.values import memory_limit

    sets, refused = _fits(g, keep)
    if not sets:
        return None
    used = sum(q.definition(g, c).memory for c in _programs(g))
    ways = tuple(Way(s, f"trash {', '.join(s)}", s) for s in sets)
    prompt = f"programs use {used}[mu] of a {memory_limit(g)}[mu] memory limit: the Runner trashes"
    return Breach(rule, step, prompt, "runner", ways, by="runner", during_install=bool(keep),
                  refused=tuple(refused))


def memory(g: Game, keep: tuple[str, ...]) -> Breach | None:
    """The Runner's programs over the memory limit (Bad Times, a +[mu] card gone): the Runner trashes programs
    until the rest fit, at the next checkpoint (rule_program_other_exceed_memory_limit)."""
    return _memory(g, keep, "rule_program_other_exceed_memory_limit", "step_checkpoint_card_restrictions")


def remote_servers(g: Game, keep: tuple[str, ...]) -> Breach | None:
    """More remote servers than an active limit allows (the limit was inactive for a while): the Corp chooses
    the servers to keep (`{target: [servers]}`); every card in the root of or protecting the others is
    trashed (rule_limit_remote_servers)."""
    from judgebook.engine.language.identities import RemoteServerLimit
    from judgebook.engine.rules.identities import existing_remotes
    from judgebook.engine.rules.values import statics

    remotes = existing_remotes(g)
    limits = [effect.limit for effect, _ in statics(g) if isinstance(effect, RemoteServerLimit)]
    if not remotes or not limits or len(remotes) <= min(limits):
        return None
    ways = tuple(
        Way(kept, f"keep {', '.join(kept) or 'no remote server'}",
            tuple(c for s in remotes if s not in kept for c in g.zone(q.root_zone(s)) + g.zone(q.ice_zone(s))))
        for kept in combinations(remotes, min(limits))
    )
    # The rule itself says the Corp chooses the servers to keep: it is the choice point's rule too.
    return Breach("rule_limit_remote_servers", "rule_limit_remote_servers",
                  f"remote servers to keep (limit {min(limits)})", "corp", ways)


def illegal_hosts(g: Game, keep: tuple[str, ...]) -> Breach | None:
    """Cards hosted on an active card that cannot host cards ("Tithonium cannot host cards", `cannot: {what:
    host}`) are in an illegal location: every one is trashed, the only appropriate set
    (step_checkpoint_card_restrictions)."""
    from judgebook.engine.language.statics import Cannot
    from judgebook.engine.rules.values import statics

    hosts = [ctx.source for effect, ctx in statics(g, "cannot") if isinstance(effect, Cannot) and effect.what == "host"]
    gone = tuple(c for host in hosts if host in g.cards for c in g.zone(f"hosted.{host}"))
    if not gone:
        return None
    owners = {g.cards[c].owner for c in gone}
    chooser: Side = owners.pop() if len(owners) == 1 else g.active
    way = Way(gone, f"hosted on a card that cannot host cards: {', '.join(gone)}", gone)
    return Breach("step_checkpoint_card_restrictions", "step_checkpoint_card_restrictions",
                  "cards in an illegal location", chooser, (way,))


# The checkpoint's restriction steps in order: uniqueness (and consoles), then card restrictions.
CHECKPOINT: tuple[Check, ...] = (uniqueness, consoles, memory, illegal_hosts, remote_servers)


# -- the like cards an install trashes (rule_install_trash_like_cards) -------------------------------------------


def _program_room(g: Game, keep: tuple[str, ...]) -> Breach | None:
    # The Runner's option to trash programs they need not (rule_install_trash_programs: "may first trash any
    # number") is not offered: only the sets that make room, as the memory limit requires.
    return _memory(g, keep, "rule_program_install_exceed_memory_limit", "rule_program_install_exceed_memory_limit")


def like_cards(g: Game, cid: str) -> Game:
    """What installing `cid` trashes as it is installed: in a root, a region trashes the region already there
    (rule_region_install, active or not: rule_region_active_inactive) and an asset or agenda the asset or
    agenda already there (rule_must_trash_cases_in_root_of_server); a program over the memory limit makes the
    Runner trash installed programs, never the new one, so that it fits (rule_program_install_exceed_memory_limit).
    The room is made right after the program is installed rather than before (the Runner's choice waits on a
    frame): what the install makes pending resolves after both, as it would."""
    from judgebook.engine.rules.effects import trash

    d = q.definition(g, cid)
    if d.type == "program" and g.cards[cid].owner == "runner" and _program_room(g, (cid,)) is not None:
        return push(g, Correct(_program_room, (cid,)))
    server = q.server_of(g, cid)
    if server is None or g.cards[cid].zone != q.root_zone(server):
        return g
    for other in g.zone(q.root_zone(server)):
        if other == cid:
            continue
        kind = q.definition(g, other)
        # The region limit does not apply in a central server's root (rule_region_one_root).
        if "region" in d.subtypes and "region" in kind.subtypes and server not in q.CENTRAL:
            rule = "rule_region_install"
        elif d.type in ("asset", "agenda") and kind.type in ("asset", "agenda"):
            rule = "rule_must_trash_cases_in_root_of_server"
        else:
            continue
        g = trash(g, other, "corp", during_install=True, anchor=rule)
    return g
