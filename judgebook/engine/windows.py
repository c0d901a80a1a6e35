"""Priority windows: paid ability, reaction and interrupt windows, and what players do in them."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from judgebook.engine.cards import Ability, Cost
from judgebook.engine.citations import cite
from judgebook.engine.errors import ScenarioError
from judgebook.engine.game import Ctx, Imminent, Instance, LoopDetected
from judgebook.engine.scenario import Decision
from judgebook.engine.state import move, other, with_card, with_run

WOULD = {"damage": "would_damage", "tags": "would_tags", "trash": "would_trash",
         "end_run": "would_end_run"}


class WindowsMixin:
    # --- checkpoints followed by reaction windows -------------------------------------
    def settle(self, closes_with: Any = None) -> None:
        pending = self.checkpoint()
        if not pending:
            return
        run = self.state.run
        if run and run.ended and "run_ends" not in self.phase_keys:
            # the game has moved on to the run ends phase, which processes these windows
            self.deferred.extend(pending)
            return
        self.react(pending, closes_with)

    # --- paid ability windows -----------------------------------------------------------
    def paw(self, kinds: frozenset) -> None:
        run_seq = self.state.run.seq if self.state.run else None
        anchor = self.current_anchor or cite("paw_priority")
        player, last_pass, deferred = self.state.active, None, None
        while True:
            run = self.state.run
            if run_seq is not None and (run is None or run.seq != run_seq or run.ended):
                self.log("window_closed", "the run ended: the paid ability window closes",
                         cite("run_ends_close_paws"))
                late = self.peek()
                if late and late.kind in ("use", "rez", "score"):
                    self.misfit[late.index] = ("the run ended and closed the paid ability window it "
                                               "was meant for", "run_ends_close_paws")
                return
            self.settle()
            d = self.take(player, ("use", "rez", "score", "pass"),
                          lambda d: self.fit_paw(d, player, kinds))
            if d is None or d.kind == "pass":
                if last_pass == other(player):
                    self._close_paw(player, d, deferred, anchor)
                    return
                if deferred:
                    self.log(*deferred)
                deferred = ("pass", f"{player} passes priority to {other(player)}", cite("paw_priority"),
                            d is None, d, player)
                last_pass, player = player, other(player)
                continue
            if deferred:
                self.log(*deferred)
                deferred = None
            self.perform(d, player)
            last_pass = None

    def _close_paw(self, player: str, d: Decision | None, deferred: tuple | None, anchor: str) -> None:
        if deferred and deferred[3] and d is None:
            self.log("window", f"paid ability window: {other(player)} passes, then {player} passes; "
                     "the window closes", anchor, assumed=True)
            return
        if deferred:
            self.log(*deferred)
        self.log("pass", f"{player} passes: both players passed in succession, the window closes",
                 cite("paw_priority"), assumed=d is None, decision=d, player=player)

    def perform(self, d: Decision, player: str) -> None:
        if d.kind == "use":
            self.use_paid(d, player)
        elif d.kind == "rez":
            self.rez(str(d.value), d)
        elif d.kind == "score":
            self.score(str(d.value), d)

    def fit_paw(self, d: Decision, player: str, kinds: frozenset) -> Any:
        if d.kind == "pass":
            return True
        if d.kind == "use":
            return self.fit_use(d, player, "paw")
        if d.kind == "rez":
            return self.fit_rez(d, kinds)
        return self.fit_score(d, kinds)

    def fit_rez(self, d: Decision, kinds: frozenset) -> Any:
        cid = str(d.value)
        card, cdef = self.card(cid), self.cdef(cid)
        if cdef.type == "agenda":
            raise self.illegal(d, "agendas cannot be rezzed", "cannot_rez_agendas")
        if not self.is_installed(cid) or card.rezzed:
            return (f"{cid} is not an installed unrezzed card here", "rez")
        if cdef.type == "ice":
            run = self.state.run
            if "rez_ice" not in kinds or run is None or self.approached_ice() != cid:
                return ("ice can only be rezzed in the approach window of that ice", "rez_ice_restriction")
        elif "rez" not in kinds:
            return ("this paid ability window does not allow rezzing", "paw_rez")
        blocker = self.cannot("rez", card=cid)
        if blocker:
            raise self.illegal(d, f"{blocker} says it cannot be rezzed", "cannot")
        problem = self.cost_problem("corp", self.rez_cost(cid), cid)
        if problem:
            raise self.illegal(d, f"cannot pay the rez cost: {problem[0]}", "inherent_rez_cost")
        return True

    def fit_score(self, d: Decision, kinds: frozenset) -> Any:
        cid = str(d.value)
        if "score" not in kinds:
            return ("agendas can only be scored in windows marked (S)", "paw_score")
        cdef, card = self.cdef(cid), self.card(cid)
        if cdef.type != "agenda" or not self.is_installed(cid):
            raise self.illegal(d, f"{cid} is not an installed agenda", "score")
        need = cdef.advancement_requirement or 0
        if card.count("advancement") < need:
            raise self.illegal(d, f"{cid} has {card.count('advancement')} advancement counters, "
                               f"needs {need}", "advancement_requirement")
        blocker = self.cannot("score", card=cid)
        if blocker:
            raise self.illegal(d, f"{blocker} says it cannot be scored", "cannot")
        return True

    # --- paid abilities -------------------------------------------------------------------
    def find_ability(self, d: Decision, cid: str) -> Ability:
        cdef = self.cdef(cid)
        wanted = d.get("ability")
        if wanted is None:
            paid = [a for a in cdef.abilities if a.kind == "paid"]
            if len(paid) != 1:
                raise ScenarioError(f"{cid} has {len(paid)} paid abilities: name one with `ability:` "
                                    f"({', '.join(a.id for a in paid)})", field=d.field, line=d.line,
                                    file=self.sc.file)
            return paid[0]
        ability = cdef.ability(str(wanted))
        if ability is None:
            raise ScenarioError(f"{cdef.name} has no ability {wanted!r} "
                                f"({', '.join(a.id for a in cdef.abilities)})",
                                field=d.field, line=d.line, file=self.sc.file)
        return ability

    def fit_use(self, d: Decision, player: str, window: str) -> Any:
        cid = str(d.value)
        ability = self.find_ability(d, cid)
        if ability.kind != "paid":
            raise self.illegal(d, f"{cid}:{ability.id} is not a paid ability", "trigger_abilities")
        if window == "paw" and ability.interrupt:
            return ("interrupts are used in interrupt windows", "interrupt_ability")
        if window == "interrupt" and not ability.interrupt:
            return ("only interrupts can be used in an interrupt window", "interrupt_window")
        if ability.access:
            return ("mid-access abilities are used while accessing", "mid_access_ability")
        if ability.is_action:
            return ("actions are taken in an action window ({action: use, ...})", "paw_options")
        if ability.brk and not self.in_encounter_window():
            return ("a break ability can only be used during an encounter", "breaks_only_in_encounter")
        if not self.ability_active(cid, ability):
            raise self.illegal(d, f"{cid} is not active", "ability_active")
        if ability.once_per_turn and (cid, ability.id) in self.state.used:
            raise self.illegal(d, f"{cid}:{ability.id} was already used this turn", "once_per_turn")
        if ability.brk:
            self.check_break(d, cid, ability)
        if window == "interrupt" and not self._could_change(ability):
            raise self.illegal(d, f"{cid}:{ability.id} could not change the imminent effects (nothing "
                               "it prevents is imminent)", "relevant_interrupts")
        problem = self.cost_problem(player, ability.cost or Cost(), cid, int(d.get("x", 0) or 0),
                                    tuple(d.get("using") or ()))
        if problem:
            raise self.illegal(d, f"cannot pay {cid}'s cost: {problem[0]}", problem[1])
        return True

    def _could_change(self, ability: Ability) -> bool:
        """A prevention-only interrupt is only usable while something it prevents is imminent."""
        prevents = [i.modifier for i in ability.effects if i.op == "prevent"]
        if not prevents or len(prevents) != len(ability.effects):
            return True
        return any(self.imminent_part(m.what, m.damage_type) and self.imminent_part(m.what, m.damage_type).amount > 0
                   for m in prevents)

    def in_encounter_window(self) -> bool:
        run = self.state.run
        return bool(run and run.encounter and not run.encounter_over and not run.ended
                    and self.phase_keys[-1:] == ["encounter_paw"])

    def check_break(self, d: Decision, cid: str, ability: Ability) -> None:
        ice = self.state.run.encounter
        idef = self.cdef(ice)
        if ability.brk.subtype and ability.brk.subtype not in idef.subtypes:
            raise self.illegal(d, f"{cid} breaks {ability.brk.subtype} subroutines; {ice} is "
                               f"{', '.join(idef.subtypes) or 'no subtype'}", "break")
        if self.strength(cid) < self.strength(ice):
            raise self.illegal(d, f"{cid} has strength {self.strength(cid)}, {ice} has "
                               f"{self.strength(ice)}", "interface_strength")
        unbroken = self.unbroken()
        if not unbroken:
            raise self.illegal(d, f"{ice} has no unbroken subroutine to break", "break_targets_unbroken")
        for n in self.chosen_subs(d, ability, unbroken):
            if n not in unbroken:
                raise self.illegal(d, f"subroutine {n + 1} of {ice} is not an unbroken subroutine",
                                   "break_targets_unbroken")

    def chosen_subs(self, d: Decision | None, ability: Ability, unbroken: list[int]) -> list[int]:
        limit = len(unbroken) if ability.brk.count is None else ability.brk.count
        asked = d.get("subroutines") if d else None
        if asked is None:
            return unbroken[:limit]
        if not isinstance(asked, list) or not all(isinstance(n, int) for n in asked):
            raise ScenarioError("subroutines is a list of numbers (1 = first)", field=d.field,
                                line=d.line, file=self.sc.file)
        if len(asked) > limit:
            raise self.illegal(d, f"this ability breaks at most {limit} subroutine(s)", "break")
        return [n - 1 for n in asked]

    def unbroken(self) -> list[int]:
        run = self.state.run
        return [i for i in range(len(self.cdef(run.encounter).subroutines)) if i not in run.broken]

    def strength(self, cid: str) -> int:
        base = self.cdef(cid).strength or 0
        run = self.state.run
        if run:
            base += sum(n for c, n in run.strength + run.run_strength if c == cid)
        base += sum(n for c, n in self.transient if c == cid)
        for mod, source in self.modifiers("strength"):
            if (source if mod.target in (None, "self") else mod.target) == cid:
                base += mod.amount or 0
        return base

    def use_paid(self, d: Decision, player: str) -> None:
        cid = str(d.value)
        ability = self.find_ability(d, cid)
        label = f"{cid}:{ability.id}"
        x = int(d.get("x", 0) or 0)
        self.log("use", f"{player} uses {label}" + (f" — {ability.text}" if ability.text else ""),
                 cite("paid_announce"), decision=d, player=player, ability=label)
        cost = ability.cost or Cost()
        self.pay(player, cost, cid, x, tuple(d.get("using") or ()), f"for {label}")
        self.emit("ability_used", card=cid, ability=ability.id, trash_cost=cost.trash_self, player=player)
        self.settle()
        self.state = replace(self.state, used=self.state.used | {(cid, ability.id)})
        self.resolved.append(label)
        if ability.brk:
            self.break_subs(cid, self.chosen_subs(d, ability, self.unbroken()), d)
        ctx = Ctx(cid, player, label, x=x, target=d.get("target"))
        self.resolve_effects(ability.effects, ctx, "paid_checkpoint")

    def break_subs(self, breaker: str, subs: list[int], d: Decision) -> None:
        run = self.state.run
        self.state = with_run(self.state, broken=tuple(sorted(set(run.broken) | set(subs))))
        self.log("break", f"{breaker} breaks subroutine(s) {', '.join(str(n + 1) for n in subs)} "
                 f"on {run.encounter}" + ("" if d.get("subroutines") else " (first unbroken, assumed)"),
                 cite("break"))
        for n in subs:
            self.emit("subroutine_broken", ice=run.encounter, by=breaker)
        if not self.unbroken():
            self.state = with_run(self.state, fully_broken=True)
            self.log("fully_broken", f"every subroutine on {run.encounter} is broken: the Runner fully "
                     "breaks it", cite("fully_break"))
            self.emit("fully_broken", ice=run.encounter, server=run.server, by=breaker)
        self.settle()

    RESOLUTION_STEP = {"paid_checkpoint": "paid_resolve", "conditional_checkpoint": "conditional_resolve",
                       "subroutine_checkpoint": "subroutine_resolution", "play_checkpoint": "play_resolve"}

    def resolve_effects(self, effects: tuple, ctx: Ctx, checkpoint_rule: str) -> None:
        """Resolve instructions in order, a checkpoint (and any reaction window) after each."""
        ctx.rule = self.RESOLUTION_STEP.get(checkpoint_rule, ctx.rule)
        for ins in effects:
            self.do(ins, ctx)
            self.settle()

    # --- rez and score -----------------------------------------------------------------
    def rez_cost(self, cid: str) -> Cost:
        cost = Cost(credits=self.cdef(cid).cost or 0)
        for extra, _ in self.additional_costs("rez", card=cid):
            cost = cost.plus(extra)
        return cost

    def rez(self, cid: str, d: Decision | None, free: bool = False) -> None:
        if not free:
            self.pay("corp", self.rez_cost(cid), cid, what=f"to rez {cid}")
        card = self.card(cid)
        card = replace(card, rezzed=True)
        if self.cdef(cid).recurring:
            card = card.with_counter("credit", self.cdef(cid).recurring - card.count("credit"))
        self.state = with_card(self.state, card)
        self.log("rez", f"Corp rezzes {cid}", cite("rez"), decision=d, player="corp")
        self.emit("rezzed", card=cid, type=self.cdef(cid).type)
        self.settle()

    def score(self, cid: str, d: Decision | None) -> None:
        card = self.card(cid)
        self.state = with_card(self.state, replace(card, counters=(), rezzed=False, faceup=True))
        self.state = move(self.state, cid, "corp.score")
        self.log("score", f"Corp scores {cid} ({self.cdef(cid).agenda_points} agenda points)",
                 cite("score"), decision=d, player="corp")
        self.emit("scored", card=cid, type="agenda")
        self.settle()

    forced_ice: str | None = None

    def approached_ice(self) -> str | None:
        run = self.state.run
        if self.forced_ice:
            return self.forced_ice
        if run is None or run.position is None or run.vacated:
            return None
        ice = self.state.zones.get(f"corp.server.{run.server}.ice", ())
        return ice[run.position] if run.position < len(ice) else None

    # --- reaction windows ----------------------------------------------------------------
    def react(self, instances: list[Instance], closes_with: Any = None) -> None:
        pending = list(instances)
        self.log("reaction_window", "reaction window opens; pending: "
                 + ", ".join(f"{i.label} ({i.controller})" for i in pending), cite("pending"))
        for player in (self.state.active, other(self.state.active)):
            while True:
                if closes_with is not None and closes_with in self.ended_scopes:
                    self._close_with_structure(pending)
                    return
                self._drop_inactive(pending, player)
                mine = [i for i in pending if i.controller == player]
                if not mine:
                    break
                self._loop_check(pending)
                if not self._react_once(pending, mine, player):
                    break

    def _close_with_structure(self, pending: list[Instance]) -> None:
        if pending:
            self.log("lose_pending", "the timing structure that opened this reaction window has ended: "
                     + ", ".join(i.label for i in pending) + " lose pending status and do not resolve",
                     cite("reaction_closes_with_structure"))

    def _drop_inactive(self, pending: list[Instance], player: str) -> None:
        for inst in [i for i in pending if i.controller == player]:
            accessed = inst.event.name == "access" and self.accessing == inst.card
            if not self.ability_active(inst.card, inst.ability) and not accessed and not inst.lki:
                pending.remove(inst)
                self.log("lose_pending", f"{inst.label} loses pending status: its source is no longer "
                         "active, so it does not resolve", cite("lose_pending_inactive"))

    def _loop_check(self, pending: list[Instance]) -> None:
        fp = self.fingerprint([self.cursor, [i.label for i in pending]])
        if fp in self.seen:
            raise LoopDetected("the same game state with the same pending abilities recurred: "
                               + ", ".join(i.label for i in pending))
        self.seen.add(fp)

    def _match(self, d: Decision, mine: list[Instance]) -> Instance | None:
        return next((i for i in mine if i.card == str(d.value)
                     and (d.get("ability") is None or i.ability.id == str(d.get("ability")))), None)

    def _react_once(self, pending: list[Instance], mine: list[Instance], player: str) -> bool:
        """Resolve or decline one of `player`'s pending abilities; False when they pass."""
        def fit(d: Decision) -> Any:
            if d.kind == "pass":
                if any(not i.ability.optional for i in mine):
                    raise self.illegal(d, "mandatory abilities are still pending", "cannot_pass_mandatory")
                return True
            match = self._match(d, mine)
            if match is None:
                return (f"{d.value} has no pending ability for {player} here", "pending")
            if d.kind == "decline" and not match.ability.optional:
                raise self.illegal(d, f"{match.label} is mandatory", "cannot_pass_mandatory")
            return True
        d = self.take(player, ("trigger", "decline", "pass"), fit)
        if d and d.kind == "pass":
            for inst in mine:
                pending.remove(inst)
            self.log("pass", f"{player} passes; optional {', '.join(i.label for i in mine)} not used",
                     cite("optional_conditional"), decision=d, player=player)
            return False
        if d and d.kind == "decline":
            inst = self._match(d, mine)
            pending.remove(inst)
            self.log("decline", f"{player} declines optional {inst.label}", cite("optional_conditional"),
                     decision=d, player=player)
            return True
        inst = self._match(d, mine) if d else mine[0]
        pending.remove(inst)
        why = ""
        if d is None and len(mine) > 1:
            why = " (the controller chooses the order; board order assumed)"
        if d is None and inst.ability.optional:
            why += " (optional: used, assumed)"
        self.resolve_instance(inst, d, why)
        return True

    def resolve_instance(self, inst: Instance, d: Decision | None, why: str = "") -> None:
        text = f" — {inst.ability.text}" if inst.ability.text else ""
        self.log("trigger", f"{inst.controller} triggers {inst.label}{why}{text}",
                 cite("conditional_announce"), assumed=d is None, decision=d, player=inst.controller,
                 ability=inst.label)
        self.state = replace(self.state, used=self.state.used | {(inst.card, inst.ability.id)})
        self.resolved.append(inst.label)
        ctx = Ctx(inst.card, inst.controller, inst.label, event=inst.event, target=inst.target)
        self.resolve_effects(inst.ability.effects, ctx, "conditional_checkpoint")

    # --- interrupt windows ------------------------------------------------------------------
    def interrupt(self, imm: Imminent) -> None:
        self.interrupt_group([imm])

    def interrupt_group(self, group: list[Imminent]) -> None:
        """Replacement effects, then ONE interrupt window, for an imminent instruction (all its parts)."""
        self.imminent.extend(group)
        try:
            for imm in group:
                self._static_prevention(imm)
            pending: list[Instance] = []
            for imm in group:
                if imm.amount <= 0:
                    continue
                event = self._would_event(imm)
                self.count_event(event)
                pending += self._interrupt_instances(event)
            if not any(i.amount > 0 for i in group) or (not pending and not self._paid_interrupts()):
                return
            what = " and ".join(f"{i.kind}" + (f" ({i.amount})" if i.kind in ("damage", "tags") else "")
                                for i in group)
            self.log("interrupt_window", f"interrupt window before {what}", cite("interrupt_window"))
            self._interrupt_priority(pending, group)
        finally:
            del self.imminent[len(self.imminent) - len(group):]

    def _would_event(self, imm: Imminent):
        from judgebook.engine.game import Event
        fields = [("amount", imm.amount)]
        if imm.damage_type:
            fields.append(("damage_type", imm.damage_type))
        if imm.card:
            fields += [("card", imm.card), ("type", self.cdef(imm.card).type)]
        if imm.by:
            fields.append(("by", imm.by))
        return Event(WOULD[imm.kind], tuple(fields))

    def _static_prevention(self, imm: Imminent) -> None:
        for mod, source in self.modifiers("prevent"):
            if mod.what != imm.kind or (mod.damage_type and mod.damage_type != imm.damage_type):
                continue
            key = (source, mod.line)
            if key in imm.applied:
                continue
            imm.applied.add(key)
            before = imm.amount
            imm.amount = min(0, imm.amount) if mod.amount is None else imm.amount - mod.amount
            self.log("prevent", f"{source} prevents {before - imm.amount} of the {imm.kind}",
                     cite("replacement_on_opening"))

    def _interrupt_instances(self, event) -> list[Instance]:
        out = []
        for cid in self.board_order():
            for ability in self.cdef(cid).abilities:
                if (ability.kind == "conditional" and ability.interrupt and ability.trigger == event.name
                        and self.ability_active(cid, ability) and self.matches(cid, ability, event)
                        and not (ability.once_per_turn and (cid, ability.id) in self.state.used)):
                    out.append(Instance(cid, ability, self.owner(cid), event))
        return out

    def _paid_interrupts(self) -> bool:
        return any(a.kind == "paid" and a.interrupt and self.ability_active(cid, a)
                   for cid in self.board_order() for a in self.cdef(cid).abilities)

    def _interrupt_priority(self, pending: list[Instance], group: list[Imminent]) -> None:
        player, last_pass = self.state.active, None
        while True:
            if all(imm.amount <= 0 for imm in group):
                # only interrupts that could still change a value stay relevant (increase)
                dropped = [i for i in pending if not any(e.op == "increase" for e in i.ability.effects)]
                for inst in dropped:
                    pending.remove(inst)
                if not pending:
                    self.log("window_closed", "the imminent effect is fully prevented: "
                             + (f"{', '.join(i.label for i in dropped)} no longer relevant; " if dropped else "")
                             + "the interrupt window closes", cite("relevant_interrupts"))
                    return
            mine = [i for i in pending if i.controller == player]

            def fit(d: Decision) -> Any:
                if d.kind == "use":
                    return self.fit_use(d, player, "interrupt")
                if d.kind == "pass":
                    if any(not i.ability.optional for i in mine):
                        raise self.illegal(d, "mandatory interrupts are pending", "cannot_pass_mandatory")
                    return True
                match = self._match(d, mine)
                if match is None:
                    return (f"{d.value} has no pending interrupt here", "interrupt_window")
                if d.kind == "decline" and not match.ability.optional:
                    raise self.illegal(d, f"{match.label} is mandatory", "cannot_pass_mandatory")
                return True
            d = self.take(player, ("trigger", "decline", "use", "pass"), fit)
            if d and d.kind == "use":
                self.use_paid(d, player)
                last_pass = None
                continue
            if d and d.kind == "decline":
                pending.remove(self._match(d, mine))
                continue
            if d and d.kind == "trigger" or (d is None and mine):
                inst = self._match(d, mine) if d else mine[0]
                pending.remove(inst)
                self.resolve_instance(inst, d, " (assumed)" if d is None else "")
                last_pass = None
                continue
            for inst in mine:
                pending.remove(inst)
            if last_pass == other(player):
                self.log("pass", "both players passed in succession: the interrupt window closes",
                         cite("interrupt_priority"), assumed=d is None, decision=d, player=player)
                return
            last_pass, player = player, other(player)
