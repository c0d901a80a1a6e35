"""The replay's cursor: current state, the decision provider, the log, checkpoints, costs.

`replay()` (replay.py) builds one `Game` per call and throws it away, so the
public function stays pure; inside, the cursor moves from one state value to
the next and records each step.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from judgebook.engine.cards import Ability, CardDef, Cost, Modifier
from judgebook.engine.citations import cite
from judgebook.engine.errors import IllegalDecision, ScenarioError
from judgebook.engine.scenario import CardSpec, Decision, Scenario
from judgebook.engine.state import (
    CardState,
    GameState,
    Lasting,
    PlayerState,
    diff,
    installed_ids,
    move,
    other,
    score_points,
    summary,
    with_card,
    with_player,
    zone_of,
)
from judgebook.engine.timeline import RunRecord, Step

ALLOTTED = {"corp": 3, "runner": 4}
COUNTER_KINDS = ("advancement", "power", "virus", "agenda", "credit")


class GameOver(Exception):
    pass


class ScriptComplete(Exception):
    pass


class LoopDetected(Exception):
    pass


@dataclass(frozen=True)
class Event:
    name: str
    fields: tuple[tuple[str, Any], ...]

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.fields).get(key, default)


@dataclass(frozen=True)
class Instance:
    """A pending instance of a conditional ability."""
    card: str
    ability: Ability
    controller: str
    event: Event
    lki: bool = False                    # stays active: its source just left play (last known information)
    target: str | None = None            # delayed abilities: the card their creator chose

    @property
    def label(self) -> str:
        return f"{self.card}:{self.ability.id}"


@dataclass
class Ctx:
    """What an instruction needs to know about the ability it belongs to."""
    source: str
    controller: str
    label: str
    event: Event | None = None
    x: int = 0
    target: str | None = None
    server: str | None = None
    rule: str = "checkpoint_after_instruction"   # the resolution step of this kind of ability
    chosen: str | None = None            # the last target this ability chose


@dataclass
class Imminent:
    """An instruction about to resolve, whose expected effects interrupts may change."""
    kind: str                            # damage | tags | trash | end_run
    amount: int = 1
    damage_type: str | None = None
    card: str | None = None
    by: str | None = None                # who does the damage (the Runner may suffer their own)
    applied: set = field(default_factory=set)


def _initial_state(sc: Scenario) -> GameState:
    cards: dict[str, CardState] = {}
    zones: dict[str, tuple[str, ...]] = {}

    def put(zone: str, specs: tuple[CardSpec, ...], owner: str) -> None:
        for spec in specs:
            cards[spec.id] = CardState(spec.id, spec.name, owner, rezzed=spec.rezzed,
                                       faceup=spec.faceup, counters=spec.counters, chosen=spec.chosen)
        zones[zone] = tuple(s.id for s in specs)

    servers = []
    for side, spec in (("corp", sc.corp), ("runner", sc.runner)):
        for zone in ("hand", "deck", "discard", "score", "current"):
            put(f"{side}.{zone}", getattr(spec, zone), side)
        put(f"{side}.identity", (spec.identity,) if spec.identity else (), side)
    for server in sc.corp.servers:
        servers.append(server.name)
        put(f"corp.server.{server.name}.ice", server.ice, "corp")
        put(f"corp.server.{server.name}.root", server.root, "corp")
    put("runner.installed", sc.runner.installed, "runner")
    for side, spec in (("corp", sc.corp), ("runner", sc.runner)):
        hosts = list(spec.installed) + [c for server in spec.servers for c in server.ice + server.root]
        for host in hosts:
            if host.hosted:
                put(f"{side}.hosted.{host.id}", host.hosted, side)
    zones["play"] = ()
    for cid, card in list(cards.items()):
        definition, zone = sc.cards[card.name], zone_of_static(zones, cid) or ""
        active = zone == "runner.installed" or (zone.startswith("corp.server.") and card.rezzed)
        if definition.recurring and active and not card.count("credit"):
            cards[cid] = card.with_counter("credit", definition.recurring)
    clicks = {side: (getattr(sc, side).clicks if getattr(sc, side).clicks is not None else
                     (ALLOTTED[side] if side == sc.active and sc.start == "action_phase" else 0))
              for side in ("corp", "runner")}
    return GameState(
        active=sc.active, turn=1,
        corp=PlayerState("corp", sc.corp.credits, clicks["corp"], sc.corp.hand_size,
                         bad_publicity=sc.corp.bad_publicity),
        runner=PlayerState("runner", sc.runner.credits, clicks["runner"],
                           sc.runner.hand_size - sc.runner.core_damage, tags=sc.runner.tags,
                           core_damage=sc.runner.core_damage, link=sc.runner.link,
                           memory=sc.runner.memory),
        cards=cards, zones=zones, servers=tuple(servers))


def zone_of_static(zones: dict, cid: str) -> str | None:
    return next((z for z, ids in zones.items() if cid in ids), None)


class GameBase:
    def __init__(self, scenario: Scenario):
        self.sc = scenario
        self.defs: dict[str, CardDef] = scenario.cards
        self.state = _initial_state(scenario)
        self.steps: list[Step] = []
        self.path: list[str] = []
        self.phase_keys: list[str] = []
        self.cursor = 0
        self.misfit: dict[int, tuple[str, str]] = {}
        self.events: list[Event] = []
        self.turn_events: Counter = Counter()
        self.run_events: Counter = Counter()
        self.turn_counts: Counter = Counter()   # runs initiated this turn (for "the first time each turn")
        self.left_play: set[str] = set()      # active cards that left play since the last checkpoint
        self.trashed_this_run: set[str] = set()
        self.transient: list[tuple[str, int]] = []   # breaker strength until the next checkpoint
        self.resolved: list[str] = []
        self.runs: list[RunRecord] = []
        self.imminent: list[Imminent] = []
        self.ended_scopes: set = set()
        self.scope_seq = 0
        self.seen: set = set()
        self.sub_stack: list[str] = []          # subroutines resolving through resolve_subroutine
        self.deferred: list[Instance] = []      # pending when the run ended: for the run ends phase
        self.encounters = 0                     # encounters so far (each gets its own number)
        self.breach_server: str | None = None   # the breach in progress: server, accessed cards, limits
        self.accessed: list[str] = []
        self.zone_chosen, self.limit = 0, 1
        self.barred: set[tuple[str, str]] = set()   # (server, card) already reported as not accessible
        self._snap = summary(self.state)
        self._check_decision_cards()

    # --- the log ---------------------------------------------------------------
    def log(self, event: str, text: str, rule: str | None, assumed: bool = False,
            decision: Decision | None = None, player: str | None = None, ability: str | None = None) -> None:
        now = summary(self.state)
        phase = self.path[-1] if self.path else "setup"
        if len(self.path) >= 2:
            phase = f"{self.path[-2]}: {self.path[-1]}" if self.path[-1] != self.path[-2] else phase
        if decision and decision.note:
            text = f"{text} — {decision.note}"
        self.steps.append(Step(len(self.steps) + 1, phase, tuple(self.path), event, text, rule,
                               diff(self._snap, now), assumed,
                               decision.index if decision else None, player, ability))
        self._snap = now
        if len(self.steps) > self.sc.max_steps:
            raise LoopDetected(f"more than {self.sc.max_steps} steps (options.max_steps)")

    @contextmanager
    def within(self, *labels: str, keys: tuple[str, ...] = ()) -> Iterator[None]:
        self.path.extend(labels)
        self.phase_keys.extend(keys)
        try:
            yield
        finally:
            del self.path[len(self.path) - len(labels):]
            if keys:
                del self.phase_keys[len(self.phase_keys) - len(keys):]

    # --- cards -----------------------------------------------------------------
    def card(self, cid: str) -> CardState:
        return self.state.cards[cid]

    def cdef(self, cid: str) -> CardDef:
        return self.defs[self.state.cards[cid].name]

    def zone(self, cid: str) -> str | None:
        return zone_of(self.state, cid)

    def is_installed(self, cid: str) -> bool:
        z = self.zone(cid) or ""
        return z == "runner.installed" or z.startswith("corp.server.")

    def is_active(self, cid: str) -> bool:
        z = self.zone(cid) or ""
        c, d = self.card(cid), self.cdef(cid)
        if z == "runner.installed" or z.endswith(".identity") or z.endswith(".current") or z == "play":
            return True
        if z.startswith("corp.server."):
            return c.rezzed or d.install_faceup
        return z == "corp.score" and d.type == "agenda"

    def ability_active(self, cid: str, ability: Ability) -> bool:
        if ability.persistent and cid in self.trashed_this_run and self.state.run is not None:
            return True
        if ability.active_in == "installed":
            return self.is_installed(cid)
        if ability.active_in:
            z = self.zone(cid) or ""
            return z.endswith("." + ability.active_in) or (
                ability.active_in == "accessed" and self.accessing == cid)
        return self.is_active(cid)

    def board_order(self) -> list[str]:
        """Every card in a fixed order: identities, installed, score areas, then the rest."""
        st = self.state
        first = list(st.zones.get("corp.identity", ())) + list(st.zones.get("runner.identity", ()))
        first += installed_ids(st) + list(st.zones.get("play", ()))
        first += list(st.zones.get("corp.current", ())) + list(st.zones.get("runner.current", ()))
        first += list(st.zones.get("corp.score", ())) + list(st.zones.get("runner.score", ()))
        rest = [c for c in st.cards if c not in first]
        return first + rest

    def owner(self, cid: str) -> str:
        return self.card(cid).owner

    def agenda_points(self, side: str) -> int:
        return score_points(self.state, side, {n: d.agenda_points for n, d in self.defs.items()})

    accessing: str | None = None

    # --- decisions -------------------------------------------------------------
    def _check_decision_cards(self) -> None:
        card_kinds = ("use", "rez", "score", "trigger", "decline", "access", "trash", "target")
        for d in self.sc.decisions:
            names = [d.value] if d.kind in card_kinds else []
            if d.kind == "action" and "card" in dict(d.params):
                names.append(d.get("card"))
            for key in ("discard", "random", "using"):
                value = d.value if d.kind == key else d.get(key) if key == "using" else None
                if value is not None and not isinstance(value, list):
                    raise ScenarioError(f"{key} is a list of card ids", field=d.field, line=d.line,
                                        file=self.sc.file)
                names += list(value or [])
            for name in names:
                if not isinstance(name, (str, int)) or isinstance(name, bool):
                    raise ScenarioError(f"expected a card id, found {name!r}", field=d.field, line=d.line,
                                        file=self.sc.file)
                if d.kind == "access" and str(name) in ("HQ", "R&D"):
                    continue  # a random card from that zone
                if str(name) not in self.state.cards:
                    raise ScenarioError(f"no card with id {name!r} on the board (ids: "
                                        f"{', '.join(sorted(self.state.cards))})",
                                        field=d.field, line=d.line, file=self.sc.file)

    def peek(self) -> Decision | None:
        return self.sc.decisions[self.cursor] if self.cursor < len(self.sc.decisions) else None

    def decider(self, d: Decision) -> str | None:
        if d.player:
            return d.player
        if d.kind == "pass":
            return str(d.value) if d.value in ("corp", "runner") else None
        if d.kind in ("use", "trigger", "decline"):
            return self.owner(str(d.value))
        if d.kind in ("rez", "score"):
            return "corp"
        if d.kind == "action":
            return self.state.active
        if d.kind in ("jack_out", "access", "trash"):
            return "runner"
        return None

    def take(self, player: str | None, kinds: tuple[str, ...],
             fit: Callable[[Decision], Any] = lambda d: True) -> Decision | None:
        """The next scripted decision if it is `player`'s, of one of `kinds`, and fits here.

        `fit` returns True, or a (message, rule) reason to wait for a later point;
        it raises IllegalDecision when the decision fits here but breaks a rule.
        """
        d = self.peek()
        if d is None or d.kind not in kinds:
            return None
        who = self.decider(d)
        if player and who and who != player:
            return None
        at = d.get("at")
        if at and str(at) not in self.phase_keys:
            self.misfit.setdefault(d.index, (f"waits for `at: {at}`", "priority"))
            return None
        verdict = fit(d)
        if verdict is not True:
            self.misfit.setdefault(d.index, verdict)
            return None
        self.cursor += 1
        return d

    def illegal(self, d: Decision, message: str, rule_name: str) -> IllegalDecision:
        return IllegalDecision(f"decision {d.index} {d.describe()}: {message}", cite(rule_name),
                               field=d.field, line=d.line, file=self.sc.file)

    # --- events and checkpoints ---------------------------------------------------
    def emit(self, name: str, **fields: Any) -> None:
        self.events.append(Event(name, tuple(fields.items())))

    def matches(self, cid: str, ability: Ability, event: Event | None) -> bool:
        controller = self.owner(cid)
        for key, want in ability.condition:
            got = event.get(key) if event else None
            if key in ("player",):
                want = controller if want == "self" else other(controller) if want == "opponent" else want
                if got != want:
                    return False
            elif key in ("card", "ice"):
                target = cid if want == "self" else self.card(cid).chosen if want == "chosen" else want
                if got != target:
                    return False
            elif key == "server":
                kind = "central" if got in ("HQ", "R&D", "Archives") else "remote"
                want = self.server_of(cid) if want == "this" else want
                if want not in (got, kind):
                    return False
            elif key == "by":
                want = controller if want == "self" else other(controller) if want == "opponent" else want
                if got != want:
                    return False
            elif key == "ice_subtype":
                ice = event.get("ice") if event else None
                if ice is None or want not in self.defs[self.state.cards[ice].name].subtypes:
                    return False
            elif key in ("type", "damage_type", "trash_cost", "ability", "fully_broken"):
                if got != want:
                    return False
            elif key == "first_this_turn":
                if want and self.turn_events[(event.name, tuple(sorted(
                        (k, v) for k, v in event.fields if k in ("player",))))] > 1:
                    return False
            elif key == "first_this_run":
                # outside a run there is no "first time this run" (e.g. after the run ends)
                if want and (self.state.run is None or self.run_events[event.name] > 1):
                    return False
            elif key == "installed":
                if got is None or self.is_installed(str(got)) != want:
                    return False
            elif not self.static_condition(key, self.server_of(cid) if want == "this" else want):
                return False
        return True

    def static_condition(self, key: str, want: Any) -> bool:
        st = self.state
        if key == "runner_tagged":
            return (st.runner.tags > 0) == bool(want)
        if key == "during_run":
            return (st.run is not None) == bool(want)
        if key == "run_server":
            return st.run is not None and st.run.server == want
        if key == "corp_credits_at_least":
            return st.corp.credits >= int(want)
        if key == "runner_credits_at_least":
            return st.runner.credits >= int(want)
        if key == "runner_link_at_least":
            return self.link() >= int(want)
        if key == "stole_this_run":
            return (self.run_events["stolen"] > 0) == bool(want)
        return True

    def checkpoint(self, rule_name: str = "checkpoint") -> list[Instance]:
        """CR 10.3: pending abilities, expired durations, agenda points (in that order)."""
        events, self.events = self.events, []
        pending: list[Instance] = []
        for event in events:
            self.count_event(event)
            pending += self.instances_for(event)
        self.left_play = set()
        self.expire_durations()
        self.check_agenda_points()
        return pending

    def count_event(self, event: Event, delta: int = 1) -> None:
        self.turn_events[(event.name, tuple(sorted((k, v) for k, v in event.fields
                                                   if k in ("player",))))] += delta
        self.run_events[event.name] += delta

    def instances_for(self, event: Event) -> list[Instance]:
        out = self.delayed_instances(event)
        for cid in self.board_order():
            for ability in self.cdef(cid).abilities:
                if ability.kind != "conditional" or ability.trigger != event.name or ability.interrupt:
                    continue
                lki = cid in self.left_play and not self.ability_active(cid, ability)
                active = self.ability_active(cid, ability) or lki or (
                    event.name == "access" and event.get("card") == cid)
                if not active or not self.matches(cid, ability, event):
                    continue
                if ability.once_per_turn and (cid, ability.id) in self.state.used:
                    continue
                out.append(Instance(cid, ability, self.owner(cid), event, lki))
        return out

    def delayed_instances(self, event: Event) -> list[Instance]:
        """Delayed conditional abilities kept by lingering effects (rule_delayed_conditional_ability)."""
        out = []
        for lasting in self.state.lasting:
            ability = lasting.ability
            if ability is None or ability.trigger != event.name:
                continue
            cond = dict(ability.condition)
            if cond.pop("next_ice", False) and event.get("encounter_seq") != (lasting.encounter_seq or 0) + 1:
                continue
            if self.matches(lasting.source, replace(ability, condition=tuple(cond.items())), event):
                out.append(Instance(lasting.source, ability, self.owner(lasting.source), event, lki=True,
                                    target=lasting.target))
        return out

    def expire_durations(self) -> None:
        st = self.state
        run = st.run

        def alive(l: Lasting) -> bool:
            if l.duration == "turn":
                return l.turn == st.turn
            if l.duration == "run":  # lasts through the run ends phase
                if run is None:
                    return l.run_seq > len(self.runs) and l.turn == st.turn  # its run has not begun yet
                return run.seq == l.run_seq
            return (run is not None and run.encounter_seq == l.encounter_seq
                    and run.encounter is not None and not run.encounter_over)
        if self.transient:
            self.transient = []
            self.log("expire", "strength changes made outside an encounter expire", cite("icebreaker_outside_encounter"))
        keep = tuple(l for l in st.lasting if alive(l))
        if len(keep) != len(st.lasting):
            self.state = replace(st, lasting=keep)
            self.log("expire", "lingering effects whose duration ended are removed",
                     cite("duration_expired"))

    def check_agenda_points(self) -> None:
        corp, runner = self.agenda_points("corp") >= 7, self.agenda_points("runner") >= 7
        if corp or runner:
            winner = "draw" if corp and runner else "corp" if corp else "runner"
            self.win(winner, "agenda_points",
                     f"{winner} has 7 or more agenda points" if winner != "draw"
                     else "both players have 7 or more agenda points: a draw", "win_agenda")

    def win(self, winner: str, reason: str, text: str, rule_name: str) -> None:
        self.state = replace(self.state, winner=winner, win_reason=reason)
        self.log("game_over", text, cite(rule_name))
        raise GameOver()

    # --- modifiers and costs ---------------------------------------------------------
    def modifiers(self, kind: str) -> list[tuple[Modifier, str]]:
        out = []
        for cid in self.board_order():
            for ability in self.cdef(cid).abilities:
                if ability.static and ability.static.kind == kind and (
                        self.ability_active(cid, ability) or self._self_restriction(ability)):
                    out.append((ability.static, cid))
        out += [(l.modifier, l.source) for l in self.state.lasting if l.modifier and l.modifier.kind == kind]
        return out

    @staticmethod
    def _self_restriction(ability: Ability) -> bool:
        """Costs and restrictions on a card's own play/install/rez/steal apply while it is inactive
        (rule_active_exception_modify_cost, rule_active_exception_modify_play_install_rez)."""
        return ability.static.kind in ("additional_cost", "cannot") and ability.static.card == "self"

    def cannot(self, what: str, card: str | None = None, server: str | None = None,
               player: str | None = None) -> str | None:
        """The card whose "cannot" forbids `what`, if any."""
        for mod, source in self.modifiers("cannot"):
            if mod.what != what:
                continue
            if mod.target and player and mod.target != player:
                continue
            if mod.server and mod.server != server:
                continue
            if mod.card and (mod.card if mod.card != "self" else source) != card:
                continue
            if mod.exempt and (source if mod.exempt == "self" else mod.exempt) == card:
                continue
            return source
        return None

    def additional_costs(self, what: str, card: str | None = None,
                         server: str | None = None) -> list[tuple[Cost, str]]:
        out = []
        for mod, source in self.modifiers("additional_cost"):
            where = self.server_of(source) if mod.server == "this" else mod.server
            kind = "central" if server in ("HQ", "R&D", "Archives") else "remote"
            if mod.what != what or (where and where not in (server, kind)):
                continue
            if mod.first_this_turn and self.turn_counts[what] > 0:
                continue
            if mod.card not in (None, "any") and (source if mod.card == "self" else mod.card) != card:
                continue
            out.append((mod.cost, source))
        return out

    def hosted_spendable(self, player: str, source: str | None, using: tuple[str, ...] = ()) -> list[str]:
        """Cards whose hosted credits the player may spend on this payment without naming them."""
        out = []
        for cid in self.board_order():
            how = self.cdef(cid).spend_hosted
            if not how or cid in using or self.owner(cid) != player or not self.is_active(cid):
                continue
            if how == "run" and self.state.run is None:
                continue
            if how == "icebreakers" and (source is None or "icebreaker" not in self.cdef(source).subtypes):
                continue
            out.append(cid)
        return out

    def server_of(self, cid: str) -> str | None:
        z = self.zone(cid) or ""
        return z.split(".")[2] if z.startswith("corp.server.") else None

    def credits_available(self, player: str, using: tuple[str, ...] = (), source: str | None = None) -> int:
        total = self.state.player(player).credits + sum(self.card(c).count("credit") for c in using)
        total += sum(self.card(c).count("credit") for c in self.hosted_spendable(player, source, using))
        if player == "runner" and self.state.run:
            total += self.state.run.bp_fund
        return total

    def effective(self, cost: Cost) -> Cost:
        """The cost with its per-subroutine part counted against the encountered ice."""
        if not cost.per_subroutine:
            return cost
        run = self.state.run
        subs = len(self.cdef(run.encounter).subroutines) if run and run.encounter else 0
        return replace(cost, credits=cost.credits + cost.per_subroutine * subs, per_subroutine=0)

    def mandatory_would(self, kind: str, amount: int, damage_type: str | None = None) -> str | None:
        """The card whose static or mandatory interrupt would prevent this cost part, if any."""
        for mod, source in self.modifiers("prevent"):
            if mod.what == kind and (not mod.damage_type or mod.damage_type == damage_type):
                return source
        event = Event(f"would_{kind}", (("amount", amount),) + ((("damage_type", damage_type),)
                                                                 if damage_type else ()))
        self.count_event(event)
        try:
            for cid in self.board_order():
                for ability in self.cdef(cid).abilities:
                    if (ability.kind == "conditional" and ability.interrupt and not ability.optional
                            and ability.trigger == event.name and self.ability_active(cid, ability)
                            and self.matches(cid, ability, event)
                            and any(i.op == "prevent" for i in ability.effects)):
                        return cid
        finally:
            self.count_event(event, -1)
        return None

    def cost_problem(self, player: str, cost: Cost, source: str | None, x: int = 0,
                     using: tuple[str, ...] = ()) -> tuple[str, str] | None:
        """Why `player` cannot pay `cost` in full (message, rule name), or None."""
        cost = self.effective(cost)
        p = self.state.player(player)
        need = cost.credits + (x if cost.x else 0)
        have = self.credits_available(player, using, source)
        if need > 0 and self.cannot("spend_credits", player=player):
            return (f"{self.cannot('spend_credits', player=player)}: the {player} cannot spend credits",
                    "cannot")
        if need > have:
            return f"{need}[c] needed, {player} has {have}[c]", "cost"
        if cost.clicks > p.clicks:
            return f"{cost.clicks}[click] needed, {player} has {p.clicks}", "cost"
        if cost.trash_self and (source is None or not self.is_installed(source)):
            return "the [trash] cost needs the card installed", "cost"
        if cost.tags:
            blocker = self.cannot("take_tags")
            if blocker:
                return f"{blocker}: the Runner cannot take tags, so the cost cannot be paid", "cannot"
            blocker = self.mandatory_would("tags", cost.tags)
            if blocker:
                return (f"{blocker} would avoid the tag, so taking it cannot be paid as a cost",
                        "cost_interrupt_static_mandatory")
        for kind, n in cost.counters:
            if source is None or self.card(source).count(kind) < n:
                return f"{n} {kind} counter(s) needed on {source}", "cost"
        for kind, n in cost.damage:
            if n > len(self.state.zones.get("runner.hand", ())):
                return f"cannot suffer {n} {kind} damage as a cost with a smaller grip", "cost"
            blocker = self.mandatory_would("damage", n, kind)
            if blocker:
                return (f"{blocker} would prevent the damage, so it cannot be paid as a cost",
                        "cost_interrupt_static_mandatory")
        return None

    def pay(self, player: str, cost: Cost, source: str | None, x: int = 0,
            using: tuple[str, ...] = (), what: str = "") -> None:
        cost = self.effective(cost)
        need = cost.credits + (x if cost.x else 0)
        for cid in using:
            take = min(need, self.card(cid).count("credit"))
            self.state = with_card(self.state, self.card(cid).with_counter("credit", -take))
            need -= take
        if player == "runner" and self.state.run and need:
            from_fund = min(need, self.state.run.bp_fund)
            self.state = replace(self.state, run=replace(self.state.run, bp_fund=self.state.run.bp_fund - from_fund))
            need -= from_fund
        p = self.state.player(player)
        from_pool = min(need, p.credits)
        for cid in self.hosted_spendable(player, source, using) if need > from_pool else ():
            take = min(need - from_pool, self.card(cid).count("credit"))
            self.state = with_card(self.state, self.card(cid).with_counter("credit", -take))
            need -= take
        self.state = with_player(self.state, player, credits=p.credits - need, clicks=p.clicks - cost.clicks)
        if cost.clicks:
            self.emit("clicks_spent", player=player, amount=cost.clicks)
        if cost.tags:
            self.state = with_player(self.state, "runner", tags=self.state.runner.tags + cost.tags)
            self.emit("tags_taken", amount=cost.tags)
        for kind, n in cost.counters:
            self.state = with_card(self.state, self.card(source).with_counter(kind, -n))
        if cost.trash_self and source:
            self.move_to_discard(source)
            self.emit("trashed", card=source, type=self.cdef(source).type, player=self.owner(source), by=player)
        self.log("pay", f"{player} pays {cost.describe(x)}{' ' + what if what else ''}",
                 cite("cost_zero") if cost == Cost() else cite("cost"), player=player)
        if cost.trash_self and source:
            self._no_interrupting_costs(source)
        for kind, n in cost.damage:
            self.trash_from_grip(n, kind, f"{kind} damage as a cost")

    def _no_interrupting_costs(self, source: str) -> None:
        """A scripted interrupt aimed at a cost being paid is refused (rule_cost_no_interrupt)."""
        d = self.peek()
        if d is None or d.kind != "use" or str(d.value) not in self.state.cards:
            return
        ability = self.defs[self.card(str(d.value)).name].ability(str(d.get("ability", "")))
        if ability and ability.interrupt and any(i.op == "prevent" and i.modifier.what == "trash"
                                                  for i in ability.effects):
            raise self.illegal(d, f"trashing {source} is part of paying a cost, which optional "
                               "interrupts cannot modify", "cost_no_interrupt")

    def move_to_discard(self, cid: str) -> None:
        if self.is_active(cid):
            self.left_play.add(cid)
        if self.state.run is not None:
            self.trashed_this_run.add(cid)
        owner = self.owner(cid)
        card = self.card(cid)
        self.state = with_card(self.state, replace(card, rezzed=False, counters=(), faceup=True))
        self.state = move(self.state, cid, f"{owner}.discard")

    def trash_from_grip(self, n: int, kind: str, why: str) -> list[str]:
        grip = list(self.state.zones.get("runner.hand", ()))
        d = self.take(None, ("random",), lambda d: True if isinstance(d.value, list) and len(d.value) == min(n, len(grip))
                      and all(c in grip for c in d.value) else (f"random choice must name {min(n, len(grip))} card(s) in the grip", "multiple_damage"))
        chosen = list(d.value) if d else grip[:n]
        for cid in chosen:
            self.move_to_discard(cid)
        for cid in chosen:
            self.emit("trashed", card=cid, type=self.cdef(cid).type, player="runner", by="damage",
                      damage_type=kind)
        if chosen:
            self.log("trash_random", f"{why}: {', '.join(chosen)} trashed from the grip"
                     + ("" if d else " (random choice: first cards in grip order)"),
                     cite("multiple_damage"), assumed=d is None, decision=d)
        return chosen

    def amount(self, value: Any, ctx: Ctx | None = None) -> int:
        """A number in a card definition: a whole number, or {per: ...} computed from the state."""
        if not isinstance(value, dict):
            return int(value)
        per, times = value["per"], int(value.get("times", 1))
        st = self.state
        if per == "unused_mu":
            used = sum(self.cdef(c).memory for c in st.zones.get("runner.installed", ())
                       if self.cdef(c).type == "program")
            n = st.runner.memory - used
        elif per == "accesses_this_run":
            n = self.run_events["access"]
        elif per in COUNTER_KINDS:
            n = self.card(ctx.source).count(per) if ctx else 0
        elif per == "x":
            n = ctx.x if ctx else 0
        elif per == "tags":
            n = st.runner.tags
        elif per == "cards_in_grip":
            n = len(st.zones.get("runner.hand", ()))
        else:  # subroutines of the encountered ice
            n = len(self.cdef(st.run.encounter).subroutines) if st.run and st.run.encounter else 0
        return max(0, n) * times

    def fingerprint(self, extra: Any) -> str:
        return json.dumps([summary(self.state), extra, self.path], sort_keys=True, default=str)
