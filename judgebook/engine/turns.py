"""The turn structures' step handlers, the action window and the basic actions, installing and playing."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from judgebook.engine.cards import Cost
from judgebook.engine.citations import cite
from judgebook.engine.flows import END, TURNS
from judgebook.engine.game import ALLOTTED, Ctx, ScriptComplete
from judgebook.engine.scenario import Decision
from judgebook.engine.state import move, other, with_card, with_player, with_run
from judgebook.engine.timing import TimingStep


class TurnsMixin:
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
        self.turn_counts.clear()
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
        size = p.hand_size + sum(m.amount or 0 for m, source in self.modifiers("hand_size")
                                 if self.owner(source) == side)
        if side == "runner" and size < 0:
            self.win("corp", "flatline", "the Runner's maximum hand size is below 0 at the discard step: "
                     "flatlined", "runner_discard_flatline")
        excess = len(hand) - size
        if excess <= 0:
            self.log("discard", f"{side} has {len(hand)} card(s), maximum {size}: nothing to discard",
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
        if kind in ("install", "play", "use", "advance", "trash_resource") and not d.get("card"):
            raise self.illegal(d, f"the {kind} action needs `card`",
                               self.ACTION_RULES.get((side, kind), "initiate_action"))
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
