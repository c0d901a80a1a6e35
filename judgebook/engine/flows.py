"""The driver that walks the timing structures of timing.py, and the handlers of their steps.

A handler is named `_<structure>_<step>`; it may log, change the state and
return a jump `(phase, step)` or END. After each step the walker emits the
step's event, opens the step's paid ability window, runs a checkpoint, and
applies the structure's redirects (the run ended, the ice was bypassed).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from judgebook.engine.cards import Cost
from judgebook.engine.citations import cite
from judgebook.engine.game import ALLOTTED, Ctx, ScriptComplete
from judgebook.engine.scenario import Decision
from judgebook.engine.state import (RunState, move, other, with_card, with_player, with_run)
from judgebook.engine.timeline import RunRecord
from judgebook.engine.timing import (ACCESS, BREACH, CORP_TURN, FORCED_ENCOUNTER, RUN, RUNNER_TURN, Phase,
                                    Structure, TimingStep)

END = "end"
TURNS = {"corp": CORP_TURN, "runner": RUNNER_TURN}


class FlowsMixin:
    # --- the walker ----------------------------------------------------------------
    def walk(self, st: Structure, phase_key: str, step_key: str | None, scope: Any) -> None:
        pi = next(i for i, p in enumerate(st.phases) if p.key == phase_key)
        si = st.phases[pi].index(step_key) if step_key else 0
        while True:
            phase = st.phases[pi]
            step = phase.steps[si]
            with self.within(phase.label, step.label, keys=(phase.key, step.key)):
                jump = self.do_step(st, phase, step, scope)
            if jump == END:
                return
            if jump:
                pi = next(i for i, p in enumerate(st.phases) if p.key == jump[0])
                si = st.phases[pi].index(jump[1])
                continue
            si += 1
            if si >= len(phase.steps):
                pi, si = pi + 1, 0
                if pi >= len(st.phases):
                    return

    def do_step(self, st: Structure, phase: Phase, step: TimingStep, scope: Any) -> Any:
        self.current_anchor = step.anchor
        handler = getattr(self, f"_{st.key}_{step.key}", None)
        jump = handler(step) if handler else None
        if handler is None and not step.window:
            self.log("step", step.label, step.anchor)
        if step.event and jump != END:
            self.emit(step.event, **self.event_fields(st))
        if step.window and not jump:
            self.paw(step.window)
        if jump != END:
            self.settle(closes_with=self.scope_now(st) if step.begins else None)
        return self.redirect(st, phase) or jump

    def scope_now(self, st: Structure) -> Any:
        run = self.state.run
        if st.key == "run" and run:
            if run.encounter and not run.encounter_over:
                return ("encounter", run.seq, run.encounter_seq)
            return ("run", run.seq)
        if st.key == "access":
            return ("access", self.accessing, len(self.steps))
        return (st.key, self.state.turn)

    def event_fields(self, st: Structure) -> dict:
        run = self.state.run
        fields: dict[str, Any] = {"player": self.state.active}
        if run:
            fields["server"] = run.server
            ice = self.approached_ice()
            if ice:
                fields["ice"] = ice
            fields["successful"] = run.successful
        if st.key == "access" and self.accessing:
            fields.update(card=self.accessing, type=self.cdef(self.accessing).type)
        return fields

    def redirect(self, st: Structure, phase: Phase) -> Any:
        run = self.state.run
        if st.key == "run" and run:
            if run.ended and phase.key != "run_ends":
                return ("run_ends", "close_windows")
            if phase.key == "encounter_ice" and run.encounter_over:
                return ("movement", "pass_ice")
            if phase.key in ("approach_ice", "encounter_ice") and run.vacated:
                return ("movement", "pass_ice")
        if st.key == "forced_encounter" and (run is None or run.ended or run.encounter_over):
            return END
        if st.key in ("breach", "access") and (run is None or run.ended) and self.in_run_breach:
            return END
        if st.key == "access" and self.accessing and self.zone(self.accessing) != self.access_zone:
            return END
        return None

    in_run_breach = False
    access_zone: str | None = None
    current_anchor: str | None = None

    # --- turns ------------------------------------------------------------------------
    def start(self) -> None:
        side, at = self.sc.active, self.sc.start
        first = {"corp_turn": (TURNS[side].phases[0].key, None), "runner_turn": (TURNS[side].phases[0].key, None),
                 "action_phase": ("action_phase", "action_paw"),
                 "discard_phase": ("discard_phase", "discard")}[at]
        self.turn(side, *first)
        while True:
            side = other(side)
            self.state = replace(self.state, active=side, turn=self.state.turn + 1)
            self.turn(side, TURNS[side].phases[0].key, None)

    def turn(self, side: str, phase: str, step: str | None) -> None:
        st = TURNS[side]
        with self.within(st.label, keys=(st.key,)):
            self.walk(st, phase, step, ("turn", self.state.turn))

    def _allotted(self, step: TimingStep) -> None:
        side = self.state.active
        self.state = replace(self.state, used=frozenset())
        self.turn_events.clear()
        p = self.state.player(side)
        self.state = with_player(self.state, side, clicks=p.clicks + ALLOTTED[side])
        self.log("clicks", f"{side} gains {ALLOTTED[side]}[click]", step.anchor, player=side)

    def _refill(self, step: TimingStep) -> None:
        side = self.state.active
        refilled = []
        for cid in self.board_order():
            cdef = self.cdef(cid)
            if cdef.recurring and self.owner(cid) == side and self.is_active(cid):
                card = self.card(cid)
                self.state = with_card(self.state, card.with_counter("credit", cdef.recurring - card.count("credit")))
                refilled.append(cid)
        self.log("refill", "recurring credits refill" + (f": {', '.join(refilled)}" if refilled else
                                                          " (none installed)"), step.anchor)

    _corp_turn_allotted_clicks = _runner_turn_allotted_clicks = _allotted
    _corp_turn_refill = _runner_turn_refill = _refill

    def _turn_begins(self, step: TimingStep) -> None:
        self.log("turn_begins", f"the {self.state.active}'s turn formally begins", step.anchor)

    _corp_turn_turn_begins = _runner_turn_turn_begins = _turn_begins

    def _corp_turn_mandatory_draw(self, step: TimingStep) -> None:
        self.draw("corp", 1, "mandatory draw", step.anchor)

    def _action(self, step: TimingStep) -> Any:
        if self.state.player(self.state.active).clicks <= 0:
            self.log("no_clicks", f"the {self.state.active} has no unspent [click]", step.anchor)
            return ("action_phase", "action_phase_ends")
        self.action_window()
        return None

    def _action_loop(self, step: TimingStep) -> Any:
        return ("action_phase", "action_paw")

    _corp_turn_action = _runner_turn_action = _action
    _corp_turn_action_loop = _runner_turn_action_loop = _action_loop

    def _discard(self, step: TimingStep) -> None:
        side = self.state.active
        p = self.state.player(side)
        hand = list(self.state.zones.get(f"{side}.hand", ()))
        if side == "runner" and p.hand_size < 0:
            self.win("corp", "flatline", "the Runner's maximum hand size is below 0 at the discard step: "
                     "flatlined", "runner_discard_flatline")
        excess = len(hand) - p.hand_size
        if excess <= 0:
            self.log("discard", f"{side} has {len(hand)} card(s), maximum {p.hand_size}: nothing to discard",
                     cite("discard_noop"))
            return
        d = self.take(side, ("discard",), lambda d: True if isinstance(d.value, list) and len(d.value) == excess
                      and all(c in hand for c in d.value) else
                      (f"discard names {excess} card(s) from the hand", "discarding"))
        chosen = list(d.value) if d else hand[-excess:]
        for cid in chosen:
            self.state = move(self.state, cid, f"{side}.discard")
        self.log("discard", f"{side} discards {', '.join(chosen)}" + ("" if d else " (assumed)"),
                 cite("discarding"), assumed=d is None, decision=d, player=side)

    _corp_turn_discard = _runner_turn_discard = _discard

    def _lose_clicks(self, step: TimingStep) -> None:
        side = self.state.active
        self.state = with_player(self.state, side, clicks=0)
        self.log("clicks", f"{side} loses any unspent [click]", step.anchor)

    _corp_turn_lose_clicks = _runner_turn_lose_clicks = _lose_clicks

    def _turn_complete(self, step: TimingStep) -> Any:
        self.log("turn_complete", f"the {self.state.active}'s turn is complete", step.anchor)
        return END

    _corp_turn_turn_complete = _runner_turn_turn_complete = _turn_complete

    # --- actions ------------------------------------------------------------------------
    def action_window(self) -> None:
        side = self.state.active
        nxt = self.peek()
        if nxt and nxt.kind == "action" and nxt.player and nxt.player != side:
            raise self.illegal(nxt, f"it is the {side}'s action window", "action_window_priority")
        d = self.take(side, ("action",), lambda d: self.fit_action(d, side))
        if d is None:
            self.log("script_complete", f"{side}'s action window: no further scripted action; "
                     "the replay stops here", cite("action_window"))
            raise ScriptComplete()
        self.take_action(d, side)

    ACTION_COSTS = {"run": (1, 0), "gain_credit": (1, 0), "draw": (1, 0), "install": (1, 0),
                    "play": (1, 0), "advance": (1, 1), "remove_tag": (1, 2),
                    "trash_resource": (1, 2), "purge": (3, 0)}
    ACTION_RULES = {("runner", "run"): "runner_run", ("runner", "gain_credit"): "runner_gain_credit",
                    ("corp", "gain_credit"): "corp_gain_credit", ("runner", "draw"): "runner_draw",
                    ("corp", "draw"): "corp_draw", ("runner", "install"): "runner_install",
                    ("corp", "install"): "corp_install", ("runner", "play"): "runner_play",
                    ("corp", "play"): "corp_play", ("corp", "advance"): "corp_advance",
                    ("runner", "remove_tag"): "runner_remove_tag",
                    ("corp", "trash_resource"): "corp_trash_resource", ("corp", "purge"): "corp_purge"}

    def action_cost(self, d: Decision, side: str) -> tuple[Cost, str]:
        kind = d.value
        if kind == "use":
            ability = self.find_ability(d, str(d.get("card")))
            return ability.cost, "action_ability"
        rule = self.ACTION_RULES.get((side, kind))
        if rule is None:
            raise self.illegal(d, f"the {side} has no basic action {kind!r}", "initiate_action")
        clicks, credits = self.ACTION_COSTS[kind]
        cost = Cost(clicks=clicks, credits=credits)
        card = d.get("card")
        if kind in ("install", "play") and card:
            cost = cost.plus(Cost(credits=self.install_or_play_cost(str(card), d.get("server"))))
            for extra, _ in self.additional_costs(kind, card=str(card)):
                cost = cost.plus(extra)
        if kind == "run":
            for extra, _ in self.additional_costs("run", server=d.get("server")):
                cost = cost.plus(extra)
        return cost, rule

    def install_or_play_cost(self, cid: str, server: Any) -> int:
        cdef = self.cdef(cid)
        if cdef.side == "corp" and cdef.type == "ice":
            return len(self.state.zones.get(f"corp.server.{server}.ice", ()))
        if cdef.type in ("agenda", "asset", "upgrade"):
            return 0
        return cdef.cost or 0

    def fit_action(self, d: Decision, side: str) -> Any:
        kind = d.value
        cost, rule = self.action_cost(d, side)
        card = str(d.get("card")) if d.get("card") else None
        if kind in ("install", "play", "use", "advance", "trash_resource") and not card:
            raise self.illegal(d, f"the {kind} action needs `card`", rule)
        self.check_action_target(d, side, kind, card, rule)
        problem = self.cost_problem(side, cost, card, int(d.get("x", 0) or 0), tuple(d.get("using") or ()))
        if problem:
            raise self.illegal(d, f"cannot pay {cost.describe()}: {problem[0]}",
                               "initiate_action" if "[click]" in problem[0] else problem[1])
        return True

    def check_action_target(self, d: Decision, side: str, kind: str, card: str | None, rule: str) -> None:
        if kind == "run":
            server = d.get("server")
            if server not in self.state.servers:
                raise self.illegal(d, f"no server {server!r} (servers: {', '.join(self.state.servers)})", rule)
            blocker = self.cannot("run", server=server)
            if blocker:
                raise self.illegal(d, f"{blocker}: the Runner cannot run on {server}", "cannot_run")
        elif kind in ("install", "play"):
            if self.zone(card) != f"{side}.hand":
                raise self.illegal(d, f"{card} is not in the {side}'s hand", rule)
            ctype = self.cdef(card).type
            playable = ctype in ("event", "operation")
            if (kind == "play") != playable:
                raise self.illegal(d, f"{card} is a{'n' if ctype[0] in 'aeiou' else ''} {ctype}", rule)
            if kind == "install" and side == "corp" and not d.get("server"):
                raise self.illegal(d, "a Corp install needs `server` (an existing or new server name)", rule)
            blocker = self.cannot(kind, card=card)
            if blocker:
                raise self.illegal(d, f"{blocker}: {card} cannot be {kind}ed", "cannot")
        elif kind == "advance" and not self.is_installed(card):
            raise self.illegal(d, f"{card} is not installed", rule)
        elif kind == "remove_tag" and self.state.runner.tags <= 0:
            raise self.illegal(d, "the Runner has no tags", "remove_tag")
        elif kind == "trash_resource":
            if self.state.runner.tags <= 0:
                raise self.illegal(d, "the Runner is not tagged", "tagged_trash_resource")
            if self.cdef(card).type != "resource" or not self.is_installed(card):
                raise self.illegal(d, f"{card} is not an installed resource", rule)
        elif kind == "use":
            ability = self.find_ability(d, card)
            if not ability.is_action:
                raise self.illegal(d, f"{card}:{ability.id} is not an action", "action_ability")
            if not self.ability_active(card, ability):
                raise self.illegal(d, f"{card} is not active", "ability_active")
            if ability.once_per_turn and (card, ability.id) in self.state.used:
                # the cost (even one the player might want to pay) cannot be paid: rule_cost_restrictions
                raise self.illegal(d, f"{card}:{ability.id} was already used this turn, so its cost "
                                   "cannot be paid", "cost_restrictions")

    def take_action(self, d: Decision, side: str) -> None:
        kind, card = d.value, (str(d.get("card")) if d.get("card") else None)
        cost, rule = self.action_cost(d, side)
        self.log("action", f"{side} takes the action: {kind}" + (f" {card}" if card else "")
                 + (f" on {d.get('server')}" if d.get("server") else ""), cite(rule), decision=d, player=side)
        if kind in ("install", "play"):
            getattr(self, kind)(card, d.get("server"), pay=True, d=d, action_cost=cost)
            return
        self.pay(side, cost, card, int(d.get("x", 0) or 0), tuple(d.get("using") or ()))
        self.settle()
        getattr(self, f"_act_{kind}")(d, side, card)

    def _act_run(self, d: Decision, side: str, card: str | None) -> None:
        self.run(str(d.get("server")))

    def _act_gain_credit(self, d: Decision, side: str, card: str | None) -> None:
        self.state = with_player(self.state, side, credits=self.state.player(side).credits + 1)
        self.log("credits", f"{side} gains 1[c]", cite(self.ACTION_RULES[(side, "gain_credit")]), player=side)

    def _act_draw(self, d: Decision, side: str, card: str | None) -> None:
        self.draw(side, 1, "basic action")

    def _act_advance(self, d: Decision, side: str, card: str | None) -> None:
        self.state = with_card(self.state, self.card(card).with_counter("advancement", 1))
        self.log("advance", f"the Corp advances {card}", cite("corp_advance"))
        self.emit("advanced", card=card, type=self.cdef(card).type)

    def _act_remove_tag(self, d: Decision, side: str, card: str | None) -> None:
        self.state = with_player(self.state, "runner", tags=self.state.runner.tags - 1)
        self.log("tags", "the Runner removes 1 tag", cite("remove_tag"))

    def _act_trash_resource(self, d: Decision, side: str, card: str | None) -> None:
        self.trash(card, "corp", "basic action")

    def _act_purge(self, d: Decision, side: str, card: str | None) -> None:
        for cid in list(self.state.cards):
            if self.card(cid).count("virus"):
                self.state = with_card(self.state, self.card(cid).with_counter("virus", -self.card(cid).count("virus")))
        self.log("purge", "the Corp purges virus counters", cite("purge"))

    def _act_use(self, d: Decision, side: str, card: str | None) -> None:
        ability = self.find_ability(d, card)
        self.state = replace(self.state, used=self.state.used | {(card, ability.id)})
        self.resolved.append(f"{card}:{ability.id}")
        self.resolve_effects(ability.effects, Ctx(card, side, f"{card}:{ability.id}", x=int(d.get("x", 0) or 0),
                                                  target=d.get("target")), "paid_checkpoint")

    # --- installing and playing ---------------------------------------------------------
    last_installed: str | None = None

    def new_remote(self) -> str:
        n = 1 + sum(1 for s in self.state.servers if s not in ("HQ", "R&D", "Archives"))
        while f"Server {n}" in self.state.servers:
            n += 1
        return f"Server {n}"

    def install(self, cid: str, server: Any, pay: bool, d: Decision | None,
                action_cost: Cost | None = None, index: int | None = None) -> None:
        cdef = self.cdef(cid)
        side = cdef.side
        cost = action_cost or (Cost(credits=self.install_or_play_cost(cid, server)) if pay else Cost())
        if action_cost or pay:
            self.pay(side, cost, cid, what=f"to install {cid}")
        if side == "runner":
            self.state = move(self.state, cid, "runner.installed")
            card = self.card(cid)
            if cdef.recurring:
                card = card.with_counter("credit", cdef.recurring)
            self.state = with_card(self.state, card)
            where = ""
        else:
            if server is None:
                server = self.new_remote()
            server = str(server)
            if server not in self.state.servers:
                self.state = replace(self.state, servers=self.state.servers + (server,))
            slot = "ice" if cdef.type == "ice" else "root"
            self.state = with_card(self.state, replace(self.card(cid), rezzed=False))
            self.state = move(self.state, cid, f"corp.server.{server}.{slot}", top=slot == "ice",
                              index=index if slot == "ice" else None)
            run = self.state.run
            if slot == "ice" and run and run.server == server and run.position is not None \
                    and (index is None or index <= run.position):
                self.state = with_run(self.state, position=run.position + 1)  # an outward position was added
            where = f" {'protecting' if slot == 'ice' else 'in the root of'} {server}"
        self.last_installed = cid
        self.log("install", f"{side} installs {cid}{where}", cite("install"), player=side)
        self.emit("installed", card=cid, type=cdef.type, player=side)
        self.settle()

    def play(self, cid: str, server: Any, pay: bool, d: Decision | None, action_cost: Cost | None = None) -> None:
        side = self.cdef(cid).side
        self.state = move(self.state, cid, "play")
        if action_cost or pay:
            self.pay(side, action_cost or Cost(credits=self.cdef(cid).cost or 0), cid, what=f"to play {cid}")
        self.log("play", f"{side} plays {cid}", cite("playing"), player=side)
        self.emit("played", card=cid, player=side)
        self.settle()
        for ability in self.cdef(cid).abilities:
            if ability.kind == "play":
                self.resolved.append(f"{cid}:{ability.id}")
                self.resolve_effects(ability.effects, Ctx(cid, side, f"{cid}:{ability.id}",
                                                          target=d.get("target") if d else None,
                                                          server=d.get("server") if d else None),
                                     "play_checkpoint")
        if self.zone(cid) == "play":
            self.state = move(self.state, cid, f"{side}.discard")
            self.log("trash", f"{cid} is trashed after resolving", cite("playing"))

    # --- the run -------------------------------------------------------------------------
    def run(self, server: str) -> None:
        seq = len(self.runs) + 1
        self.state = replace(self.state, run=RunState(server, seq))
        self.run_events.clear()
        self.trashed_this_run = set()
        with self.within("run", keys=("run",)):
            self.walk(RUN, "initiation", None, ("run", seq))
        self.settle()

    def _run_announce(self, step: TimingStep) -> None:
        self.log("announce", f"the Runner announces {self.state.run.server} as the attacked server", step.anchor)

    def _run_bad_publicity(self, step: TimingStep) -> None:
        bp = self.state.corp.bad_publicity
        if bp:
            self.state = with_run(self.state, bp_fund=bp)
            self.log("bad_publicity", f"{bp}[c] added to the bad publicity fund", step.anchor)

    def _run_run_begins(self, step: TimingStep) -> None:
        self.log("run_begins", f"the run on {self.state.run.server} formally begins", step.anchor)

    def _run_position(self, step: TimingStep) -> None:
        ice = self.state.zones.get(f"corp.server.{self.state.run.server}.ice", ())
        self.state = with_run(self.state, position=0 if ice else None)
        self.log("position", f"the Runner's position: the outermost ice, {ice[0]}" if ice else
                 "no ice protects the server: the Runner has no position", step.anchor)

    def _run_initiation_complete(self, step: TimingStep) -> Any:
        if self.state.run.position is not None:
            return ("approach_ice", "approach_begins")
        return ("movement", "pass_ice")

    def _run_approach_begins(self, step: TimingStep) -> None:
        self.log("approach", f"the Runner approaches {self.approached_ice()}", step.anchor)

    def _run_approach_complete(self, step: TimingStep) -> Any:
        ice = self.approached_ice()
        if ice and self.card(ice).rezzed:
            return ("encounter_ice", "encounter_begins")
        if ice:
            self.log("unrezzed", f"{ice} is unrezzed: the Runner does not encounter it", step.anchor)
        return ("movement", "pass_ice")

    # a forced encounter (rule_forced_encounter) walks the encounter phase on its own
    def encounter(self, ice: str, why: str) -> None:
        run = self.state.run
        if run is None or run.ended:
            self.log("no_effect", f"{why}: no run in progress, no forced encounter", cite("forced_encounter"))
            return
        saved = (run.encounter, run.encounter_seq, run.broken, run.encounter_over, run.bypassed, run.strength)
        self.forced_ice = ice
        self.log("forced_encounter", f"{why}: the Runner encounters {ice} without changing position",
                 cite("forced_encounter"))
        try:
            with self.within("forced encounter", keys=("forced_encounter",)):
                self.walk(FORCED_ENCOUNTER, "encounter_ice", None, ("run", run.seq))
        finally:
            self.forced_ice = None
        if self.state.run and not self.state.run.ended:
            self.state = with_run(self.state, encounter=saved[0], broken=saved[2], encounter_over=saved[3],
                                  bypassed=saved[4], strength=saved[5])

    def _run_encounter_begins(self, step: TimingStep) -> None:
        run = self.state.run
        ice = self.approached_ice()
        self.state = with_run(self.state, encounter=ice, encounter_seq=run.encounter_seq + 1,
                              encounter_over=False, bypassed=False, broken=(), strength=(),
                              fully_broken=False)
        self.log("encounter", f"the Runner encounters {ice}; its subroutines are unbroken", step.anchor)

    def _run_encounter_paw(self, step: TimingStep) -> None:
        ice = self.state.run.encounter
        if not self.cdef(ice).subroutines:
            self.state = with_run(self.state, fully_broken=True)
            self.log("fully_broken", f"{ice} has no subroutines: the Runner fully breaks it as the "
                     "paid ability window begins", cite("fully_break_no_subroutines"))
            self.emit("fully_broken", ice=ice, server=self.state.run.server, by=None)

    def _run_resolve_subroutines(self, step: TimingStep) -> None:
        ice = self.state.run.encounter
        subs = self.cdef(ice).subroutines
        if not subs:
            return
        for i, sub in enumerate(subs):
            run = self.state.run
            if run is None or run.ended or run.encounter_over:
                self.log("subs_stop", f"the encounter has ended: no more subroutines on {ice} resolve",
                         cite("subroutines_stop"))
                return
            if i in run.broken:
                self.log("broken", f"subroutine {i + 1} of {ice} is broken and does not resolve",
                         cite("subroutines_in_order"))
                continue
            label = f"{ice}:sub{i + 1}"
            self.log("subroutine", f"{ice} subroutine {i + 1} resolves" + (f": {sub.text}" if sub.text else ""),
                     step.anchor)
            self.resolved.append(label)
            self.resolve_effects(sub.effects, Ctx(ice, "corp", label), "subroutine_checkpoint")

    def _forced_encounter_encounter_begins(self, step: TimingStep) -> None:
        self._run_encounter_begins(step)

    def _forced_encounter_encounter_paw(self, step: TimingStep) -> None:
        self._run_encounter_paw(step)

    def _forced_encounter_resolve_subroutines(self, step: TimingStep) -> None:
        self._run_resolve_subroutines(step)

    def _forced_encounter_encounter_complete(self, step: TimingStep) -> None:
        self._run_encounter_complete(step)

    def _run_encounter_complete(self, step: TimingStep) -> None:
        self.log("encounter_complete", f"the encounter with {self.state.run.encounter} is complete", step.anchor)
        self.encounter_ends()
        self.state = with_run(self.state, encounter_over=True)

    def _run_pass_ice(self, step: TimingStep) -> None:
        run = self.state.run
        ice = self.approached_ice()
        if run.encounter:
            self.ended_scopes.add(("encounter", run.seq, run.encounter_seq))
        self.state = with_run(self.state, encounter=None, encounter_over=False, strength=())
        if ice:
            self.log("pass_ice", f"the Runner passes {ice}", step.anchor)

    def _run_jack_out(self, step: TimingStep) -> None:
        def fit(d: Decision) -> Any:
            if d.value and self.cannot("jack_out"):
                raise self.illegal(d, f"{self.cannot('jack_out')}: the Runner cannot jack out", "cannot")
            return True
        d = self.take("runner", ("jack_out",), fit)
        if d and d.value:
            self.end_run("jack_out", "the Runner jacks out", "jack_out")
            self.steps[-1] = replace(self.steps[-1], decision=d.index, player="runner")
            return
        self.log("no_jack_out", "the Runner does not jack out" + ("" if d else " (assumed)"), step.anchor,
                 assumed=d is None, decision=d, player="runner")

    def _run_move(self, step: TimingStep) -> None:
        run = self.state.run
        ice = self.state.zones.get(f"corp.server.{run.server}.ice", ())
        # a vacated position has closed up: the next inward ice now sits at the same index
        nxt = None if run.position is None else run.position + (0 if run.vacated else 1)
        self.moved = nxt is not None and nxt < len(ice)
        if self.moved:
            self.state = with_run(self.state, position=nxt, vacated=False)
            self.log("move", f"the Runner moves inward to {ice[nxt]}", step.anchor)
        else:
            self.state = with_run(self.state, position=None, vacated=False)

    moved = False

    def _run_approach_next(self, step: TimingStep) -> Any:
        return ("approach_ice", "approach_begins") if self.moved else None

    def _run_approach_server(self, step: TimingStep) -> None:
        self.log("approach_server", f"the Runner approaches {self.state.run.server}", step.anchor)

    def _run_movement_complete(self, step: TimingStep) -> None:
        return None

    def _run_declared_successful(self, step: TimingStep) -> None:
        self.state = with_run(self.state, reached_success=True, successful=True)
        self.log("successful", f"the run on {self.state.run.server} is declared successful", step.anchor)

    def _run_breach(self, step: TimingStep) -> None:
        self.breach(self.state.run.server)

    def _run_success_complete(self, step: TimingStep) -> None:
        return None

    def _run_close_windows(self, step: TimingStep) -> None:
        self.log("run_ends_phase", "the run ends phase begins", step.anchor)

    def _run_return_bp(self, step: TimingStep) -> None:
        if self.state.run.bp_fund:
            self.state = with_run(self.state, bp_fund=0)
            self.log("bad_publicity", "bad publicity credits return to the bank", step.anchor)

    def _run_unsuccessful(self, step: TimingStep) -> None:
        run = self.state.run
        if run.reached_success:
            self.log("not_unsuccessful", "the run reached the success phase: it is not unsuccessful",
                     cite("not_unsuccessful"))
            return
        self.log("unsuccessful", f"the run on {run.server} is unsuccessful", step.anchor)
        self.emit("run_unsuccessful", server=run.server)

    def _run_run_complete(self, step: TimingStep) -> Any:
        run = self.state.run
        self.runs.append(RunRecord(run.server, run.successful, run.ended_by or "complete", run.breached))
        self.ended_scopes.add(("run", run.seq))
        self.state = replace(self.state, run=None)
        self.log("run_complete", f"the run on {run.server} is complete", step.anchor)
        self.emit("run_ends", server=run.server, successful=run.successful)
        return END

    # --- breach and access -----------------------------------------------------------------
    def breach(self, server: str) -> None:
        self.state = with_run(self.state, breached=True)
        self.breach_server, self.accessed, self.zone_chosen, self.limit = server, [], 0, 1
        self.in_run_breach = True
        with self.within("breach", keys=("breach",)):
            self.walk(BREACH, "breach", None, ("run", self.state.run.seq))
        self.in_run_breach = False

    def _breach_breach_begins(self, step: TimingStep) -> None:
        self.log("breach", f"the Runner breaches {self.breach_server}", step.anchor)

    def _breach_flip_archives(self, step: TimingStep) -> None:
        if self.breach_server == "Archives":
            for cid in self.state.zones.get("corp.discard", ()):
                self.state = with_card(self.state, replace(self.card(cid), faceup=True))
            self.log("flip", "all cards in Archives are turned faceup", step.anchor)

    def _breach_access_limit(self, step: TimingStep) -> None:
        if self.breach_server in ("HQ", "R&D"):
            self.limit = 1 + (self.state.run.access_bonus if self.state.run else 0)
            self.log("limit", f"random access limit: {self.limit}", step.anchor)

    def candidates(self) -> list[str]:
        server = self.breach_server
        out = [c for c in self.state.zones.get(f"corp.server.{server}.root", ()) if c not in self.accessed]
        zone = {"HQ": "corp.hand", "R&D": "corp.deck", "Archives": "corp.discard"}.get(server)
        if zone:
            cards = [c for c in self.state.zones.get(zone, ()) if c not in self.accessed]
            if server == "Archives":
                out += cards
            elif self.zone_chosen < self.limit and cards:
                out += cards if server == "HQ" else cards[:1]
        return out

    def _breach_choose_candidate(self, step: TimingStep) -> Any:
        cands = self.candidates()
        if not cands:
            self.log("no_candidates", "no candidates remain", step.anchor)
            return ("breach", "breach_complete")
        zone_of_server = {"HQ": "corp.hand", "R&D": "corp.deck"}

        def pick(d: Decision) -> str | None:
            if str(d.value) in zone_of_server:
                return next((c for c in cands if self.zone(c) == zone_of_server[str(d.value)]), None)
            return str(d.value) if str(d.value) in cands else None
        d = self.take("runner", ("access",), lambda d: True if pick(d) else
                      (f"{d.value} is not a candidate now (candidates: {', '.join(cands)})", "candidates"))
        self.chosen = pick(d) if d else cands[0]
        if self.zone(self.chosen) in ("corp.hand", "corp.deck"):
            self.zone_chosen += 1
        self.accessed.append(self.chosen)
        random = self.zone(self.chosen) == "corp.hand"
        assumed = (d is None and (len(cands) > 1 or random)) or (d is not None and str(d.value) == "HQ")
        why = " (a random card from HQ: the first in hand order, assumed)" if random else \
            " (first candidate in board order, assumed)"
        self.log("choose", f"the Runner chooses {self.chosen}" + (why if assumed else ""), step.anchor,
                 assumed=assumed, decision=d, player="runner")
        return None

    def _breach_access_candidate(self, step: TimingStep) -> None:
        self.access(self.chosen)

    def _breach_repeat(self, step: TimingStep) -> Any:
        return ("breach", "choose_candidate")

    def _breach_breach_complete(self, step: TimingStep) -> None:
        self.log("breach_complete", f"the breach of {self.breach_server} is complete", step.anchor)

    def access(self, cid: str) -> None:
        self.accessing, self.access_zone = cid, self.zone(cid)
        with self.within("access", keys=("access",)):
            self.walk(ACCESS, "access", None, ("access", cid))
        self.accessing = None

    def _access_accessed(self, step: TimingStep) -> None:
        self.log("access", f"the Runner accesses {self.accessing}", step.anchor)

    def _access_mid_access(self, step: TimingStep) -> None:
        cid = self.accessing
        cdef = self.cdef(cid)
        def fit(d: Decision) -> Any:
            if str(d.value) != cid:
                return (f"{d.value} is not the card being accessed", "basic_trash")
            if cdef.trash_cost is None:
                raise self.illegal(d, f"{cid} has no trash cost", "no_trash_cost")
            problem = self.cost_problem("runner", self.trash_cost(cid), cid)
            if problem:
                raise self.illegal(d, f"cannot pay the trash cost: {problem[0]}", problem[1])
            if self.cannot("trash", card=cid):
                raise self.illegal(d, f"{self.cannot('trash', card=cid)}: {cid} cannot be trashed", "cannot")
            return True
        d = self.take("runner", ("trash",), fit)
        if d:
            self.log("basic_trash", f"the Runner uses the basic trash ability on {cid}", cite("basic_trash"),
                     decision=d, player="runner")
            self.pay("runner", self.trash_cost(cid), cid, what=f"to trash {cid}")
            self.trash(cid, "runner", "basic trash ability")
        elif cdef.trash_cost is not None and self.zone(cid) != "corp.discard":
            self.log("no_trash", f"the Runner does not trash {cid} (assumed)", cite("mid_access_window"),
                     assumed=True, player="runner")

    def trash_cost(self, cid: str) -> Cost:
        cost = Cost(credits=self.cdef(cid).trash_cost or 0)
        for extra, _ in self.additional_costs("trash", card=cid, server=self.breach_server):
            cost = cost.plus(extra)
        return cost

    def _access_steal(self, step: TimingStep) -> None:
        cid = self.accessing
        if self.cdef(cid).type != "agenda" or self.zone(cid) != self.access_zone:
            return
        blocker = self.cannot("steal", card=cid)
        if blocker:
            self.log("cannot_steal", f"{blocker}: the Runner cannot steal {cid}", cite("cannot"))
            return
        extra = Cost()
        for cost, _ in self.additional_costs("steal", card=cid, server=self.breach_server):
            extra = extra.plus(cost)
        if extra != Cost() and not self._pay_to_steal(cid, extra):
            return
        card = self.card(cid)
        self.state = with_card(self.state, replace(card, counters=(), rezzed=False, faceup=True))
        self.state = move(self.state, cid, "runner.score")
        self.log("steal", f"the Runner steals {cid} ({self.cdef(cid).agenda_points} agenda points)",
                 cite("must_steal"))
        self.emit("stolen", card=cid, type="agenda")

    def _pay_to_steal(self, cid: str, extra: Cost) -> bool:
        problem = self.cost_problem("runner", extra, cid)
        def fit(d: Decision) -> Any:
            if d.value and problem:
                raise self.illegal(d, f"cannot pay the additional cost to steal: {problem[0]}", problem[1])
            return True
        d = self.take("runner", ("pay",), fit)
        wants = d.value if d else problem is None
        if not wants:
            self.log("decline_steal", f"the Runner does not pay the additional cost ({extra.describe()}) "
                     f"and does not steal {cid}" + ("" if d else f" (cannot pay: {problem[0]})"),
                     cite("steal_additional_cost"), decision=d, player="runner")
            return False
        self.pay("runner", extra, cid, what=f"as an additional cost to steal {cid}"
                 + ("" if d else " (assumed)"))
        self.settle()
        return True
