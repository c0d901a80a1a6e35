"""The instruction vocabulary (LANGUAGE.md §5): each instruction changes the state and logs it."""
from __future__ import annotations

from dataclasses import replace

from judgebook.engine.cards import Cost, Instr
from judgebook.engine.citations import cite
from judgebook.engine.errors import ScenarioError
from judgebook.engine.game import Ctx, Imminent
from judgebook.engine.state import Lasting, move, other, summary, with_card, with_player, with_run


class EffectsMixin:
    def do(self, ins: Instr, ctx: Ctx) -> None:
        handler = getattr(self, f"_do_{ins.op}")
        if ins.op in ("pay", "if", "trace", "choose") or not (ins.then or ins.otherwise):
            handler(ins, ctx)
            return
        # "... If you do, ...": the follow-up depends on whether the instruction changed anything
        before = summary(self.state)
        handler(ins, ctx)
        did = summary(self.state) != before
        self.settle()
        self.resolve_effects(ins.then if did else ins.otherwise, ctx, "checkpoint_after_instruction")

    def aim(self, ins: Instr, ctx: Ctx) -> str:
        who = ins.player or "self"
        return ctx.controller if who == "self" else other(ctx.controller) if who == "opponent" else who

    # --- credits, clicks, cards ----------------------------------------------------------
    def _credits(self, ins: Instr, ctx: Ctx, sign: int) -> None:
        side = self.aim(ins, ctx)
        p = self.state.player(side)
        amount = p.credits if ins.arg == "all" else self.amount(ins.arg, ctx)
        if sign < 0:
            if ins.if_able and p.credits < amount:
                self.log("if_able", f"{side} cannot lose {amount}[c]: the instruction is ignored",
                         cite("if_able"))
                return
            amount = min(amount, p.credits)
        self.state = with_player(self.state, side, credits=p.credits + sign * amount)
        self.log("credits", f"{side} {'gains' if sign > 0 else 'loses'} {amount}[c] ({ctx.label})",
                 cite(ctx.rule), player=side)

    def _do_gain_credits(self, ins: Instr, ctx: Ctx) -> None:
        self._credits(ins, ctx, 1)

    def _do_lose_credits(self, ins: Instr, ctx: Ctx) -> None:
        self._credits(ins, ctx, -1)

    def _clicks(self, ins: Instr, ctx: Ctx, sign: int) -> None:
        side = self.aim(ins, ctx)
        p = self.state.player(side)
        amount = int(ins.arg) if sign > 0 else min(int(ins.arg), p.clicks)
        self.state = with_player(self.state, side, clicks=p.clicks + sign * amount)
        if sign < 0 and amount:
            self.emit("clicks_spent", player=side, amount=amount)
        self.log("clicks", f"{side} {'gains' if sign > 0 else 'loses'} {amount}[click] ({ctx.label})",
                 cite(ctx.rule), player=side)

    def _do_gain_clicks(self, ins: Instr, ctx: Ctx) -> None:
        self._clicks(ins, ctx, 1)

    def _do_lose_clicks(self, ins: Instr, ctx: Ctx) -> None:
        self._clicks(ins, ctx, -1)

    def _do_draw(self, ins: Instr, ctx: Ctx) -> None:
        self.draw(self.aim(ins, ctx), self.amount(ins.arg, ctx), ctx.label)

    def draw(self, side: str, n: int, why: str, anchor: str | None = None) -> None:
        blocker = self.cannot("draw", player=side)
        if blocker:
            self.log("cannot", f"{blocker}: the {side} cannot draw cards ({why})", cite("cannot"))
            return
        deck = list(self.state.zones.get(f"{side}.deck", ()))
        if side == "corp" and len(deck) < n:
            self.win("runner", "rnd_empty", "the Corp must draw from an empty R&D: the Runner wins",
                     "rnd_empty")
        drawn = deck[:n]
        for cid in drawn:
            self.state = move(self.state, cid, f"{side}.hand")
        self.log("draw", f"{side} draws {len(drawn)} card(s) ({why})", anchor or cite("draw"), player=side)
        if drawn:
            self.emit("drawn", player=side, amount=len(drawn))

    def _do_bad_publicity(self, ins: Instr, ctx: Ctx) -> None:
        corp = self.state.corp
        self.state = with_player(self.state, "corp", bad_publicity=corp.bad_publicity + int(ins.arg))
        self.log("bad_publicity", f"the Corp takes {ins.arg} bad publicity", cite("bad_publicity"))

    def _do_win(self, ins: Instr, ctx: Ctx) -> None:
        self.win(str(ins.arg), "card", f"{ctx.label}: {ins.arg} wins the game", ctx.rule)

    # --- damage and tags ------------------------------------------------------------------
    def _do_damage(self, ins: Instr, ctx: Ctx) -> None:
        kind = ins.arg.get("type", "net")
        by = self.aim(replace(ins, player=ins.by), ctx) if ins.by else ctx.controller
        self.deal_damage(kind, self.amount(ins.arg.get("amount", 1), ctx), ctx, by)

    def deal_damage(self, kind: str, amount: int, ctx: Ctx, by: str = "corp",
                    imm: Imminent | None = None) -> None:
        if imm is None:
            if amount <= 0:
                self.log("no_damage", f"{ctx.label}: 0 {kind} damage, so no damage becomes imminent",
                         cite("as_much_as_possible"))
                return
            imm = Imminent("damage", amount, kind, by=by)
            self.interrupt(imm)
        if imm.amount <= 0:
            self.log("prevented", f"all of the {kind} damage from {ctx.label} is prevented", cite("prevent"))
            return
        grip = self.state.zones.get("runner.hand", ())
        rule = "core_damage" if kind == "core" else "meat_net_damage"
        self.log("damage", f"{ctx.label} does {imm.amount} {kind} damage", cite(rule))
        if kind == "core":
            r = self.state.runner
            self.state = with_player(self.state, "runner", core_damage=r.core_damage + imm.amount,
                                     hand_size=r.hand_size - imm.amount)
        if imm.amount > len(grip):
            for cid in grip:
                self.move_to_discard(cid)
            self.emit("damage", damage_type=kind, amount=imm.amount)
            self.win("corp", "flatline", f"the Runner suffers {imm.amount} damage with {len(grip)} "
                     "card(s) in the grip: flatlined, the Corp wins", "flatline")
        self.trash_from_grip(imm.amount, kind, f"{kind} damage")
        self.emit("damage", damage_type=kind, amount=imm.amount)

    def _do_give_tags(self, ins: Instr, ctx: Ctx) -> None:
        blocker = self.cannot("take_tags")
        if blocker:
            self.log("cannot", f"{blocker}: the Runner cannot take tags; {ctx.label} gives none",
                     cite("cannot"))
            return
        self.give_tags(self.amount(ins.arg, ctx), ctx)

    def give_tags(self, amount: int, ctx: Ctx, imm: Imminent | None = None) -> None:
        if imm is None:
            imm = Imminent("tags", amount)
            self.interrupt(imm)
        if imm.amount <= 0:
            self.log("avoided", f"the tags from {ctx.label} are avoided", cite("prevent"))
            return
        r = self.state.runner
        self.state = with_player(self.state, "runner", tags=r.tags + imm.amount)
        self.log("tags", f"the Runner takes {imm.amount} tag(s) ({ctx.label})", cite("tag"))
        self.emit("tags_taken", amount=imm.amount)

    def _do_remove_tags(self, ins: Instr, ctx: Ctx) -> None:
        r = self.state.runner
        n = min(int(ins.arg), r.tags)
        self.state = with_player(self.state, "runner", tags=r.tags - n)
        self.log("tags", f"the Runner removes {n} tag(s) ({ctx.label})", cite("tag"))

    # --- the run ---------------------------------------------------------------------
    def _do_end_the_run(self, ins: Instr, ctx: Ctx) -> None:
        run = self.state.run
        if run is None or run.ended:
            self.log("no_effect", f"{ctx.label}: end the run, but no run is in progress: no effect",
                     cite("end_run_no_run"))
            return
        imm = Imminent("end_run")
        self.interrupt(imm)
        if imm.amount <= 0:
            self.log("avoided", f"the end-the-run effect of {ctx.label} is prevented", cite("prevent"))
            return
        self.end_run("end_the_run", f"{ctx.label} ends the run", "end_the_run")

    def encounter_ends(self) -> None:
        """The encounter is over (completed, bypassed or the run ended): `encounter_ends` once."""
        run = self.state.run
        scope = ("encounter", run.seq, run.encounter_seq)
        if run.encounter and scope not in self.ended_scopes:
            self.ended_scopes.add(scope)
            self.emit("encounter_ends", ice=run.encounter, server=run.server,
                      encounter_seq=run.encounter_seq, fully_broken=run.fully_broken)

    def end_run(self, how: str, text: str, rule_name: str) -> None:
        run = self.state.run
        if not run.encounter_over:
            self.encounter_ends()
        self.state = with_run(self.state, ended=True, ended_by=how, encounter_over=True)
        self.ended_scopes.add(("run", run.seq))
        self.log("end_run", text, cite(rule_name))

    def _do_jack_out(self, ins: Instr, ctx: Ctx) -> None:
        if self.state.run is None or self.state.run.ended:
            return
        if self.cannot("jack_out"):
            self.log("cannot", "the Runner cannot jack out", cite("cannot"))
            return
        self.end_run("jack_out", f"the Runner jacks out ({ctx.label})", "jack_out")

    def _do_bypass(self, ins: Instr, ctx: Ctx) -> None:
        run = self.state.run
        if run is None or run.encounter is None or run.encounter_over:
            self.log("no_effect", f"{ctx.label}: bypass, but no ice is being encountered", cite("bypass"))
            return
        self.encounter_ends()
        self.state = with_run(self.state, encounter_over=True, bypassed=True)
        self.log("bypass", f"the Runner bypasses {run.encounter} ({ctx.label}): the encounter ends "
                 "and the Runner passes the ice", cite("bypass"))

    def _do_access(self, ins: Instr, ctx: Ctx) -> None:
        if self.state.run:
            self.state = with_run(self.state, access_bonus=self.state.run.access_bonus + int(ins.arg))
        self.log("access_more", f"the Runner will access {ins.arg} additional card(s) ({ctx.label})",
                 cite("random_access_limit"))

    def _do_strength(self, ins: Instr, ctx: Ctx) -> None:
        run = self.state.run
        delta = int(ins.arg)
        if run is None:
            self.log("no_effect", f"{ctx.label}: strength change outside a run has no lasting effect here",
                     cite("icebreaker_strength"))
            return
        if self.cdef(ctx.source).type == "ice":
            self.state = with_run(self.state, run_strength=run.run_strength + ((ctx.source, delta),))
        elif not self.in_encounter_window() and "icebreaker" in self.cdef(ctx.source).subtypes:
            self.transient.append((ctx.source, delta))
            self.log("strength", f"{ctx.source} gets {delta:+d} strength outside an encounter: it "
                     "expires at the next checkpoint", cite("icebreaker_outside_encounter"))
            return
        else:
            self.state = with_run(self.state, strength=run.strength + ((ctx.source, delta),))
        self.log("strength", f"{ctx.source} gets {delta:+d} strength (now {self.strength(ctx.source)})",
                 cite("icebreaker_strength"))

    # --- cards -----------------------------------------------------------------------
    _target_ctx: Ctx | None = None

    def target(self, ins: Instr, ctx: Ctx) -> str | None:
        self._target_ctx = ctx
        arg = ins.arg
        if arg in (None, "target"):
            if ctx.target:
                return str(ctx.target)
            d = self.take(None, ("target",), lambda d: self._fit_target(d, ins))
            if d:
                self.log("target", f"target chosen: {d.value}", cite("instruction_target"), decision=d)
                ctx.chosen = str(d.value)
                return str(d.value)
            legal = [c for c in self.board_order() if self._target_ok(c, ins)]
            if legal:
                self.log("target", f"target: {legal[0]} (first legal card, assumed)",
                         cite("instruction_target"), assumed=True)
                ctx.chosen = legal[0]
            return legal[0] if legal else None
        if arg == "self":
            return ctx.source
        if arg in ("event_ice", "encountered"):
            ice = ctx.event.get("ice") if ctx.event and arg == "event_ice" else (
                self.state.run.encounter if self.state.run else None)
            return ice
        if str(arg) not in self.state.cards:
            raise ScenarioError(f"no card with id {arg!r}", field=ins.field, line=ins.line,
                                file=self.sc.file)
        return str(arg)

    def _fit_target(self, d, ins: Instr) -> bool:
        cid = str(d.value)
        if self._target_ok(cid, ins):
            return True
        if not self.is_installed(cid) and dict(ins.target_filter).get("installed", True):
            raise self.illegal(d, f"{cid} is not in the play area", "targets_in_play_area")
        raise self.illegal(d, f"{cid} does not match {dict(ins.target_filter)}", "as_much_as_possible")

    def _target_ok(self, cid: str, ins: Instr) -> bool:
        if cid not in self.state.cards:
            return False
        want = dict(ins.target_filter)
        cdef = self.cdef(cid)
        if "type" in want and cdef.type != want["type"]:
            return False
        if "side" in want and cdef.side != want["side"]:
            return False
        if "subtype" in want and want["subtype"] not in cdef.subtypes:
            return False
        if "name" in want:
            name = want["name"]
            if name == "event_ice":
                ice = self._target_ctx.event.get("ice") if self._target_ctx and self._target_ctx.event else None
                if ice is None or cid == ice:
                    return False
                name = self.card(ice).name
            if self.card(cid).name != name:
                return False
        if "zone" in want:
            return (self.zone(cid) or "").endswith("." + str(want["zone"]))
        if want.get("installed", True) and not self.is_installed(cid):
            return False
        return True

    def _do_trash(self, ins: Instr, ctx: Ctx) -> None:
        if isinstance(ins.arg, dict):
            self.trash_all(dict(ins.arg["all"] or {}), ctx)
            return
        cid = self.target(ins, ctx)
        if cid is None:
            self.log("no_effect", f"{ctx.label}: nothing to trash", cite("as_much_as_possible"))
            return
        self.trash(cid, ctx.controller, ctx.label)

    def trash(self, cid: str, by: str, why: str) -> None:
        blocker = self.cannot("trash", card=cid)
        if blocker:
            self.log("cannot", f"{blocker}: {cid} cannot be trashed", cite("cannot"))
            return
        imm = Imminent("trash", 1, card=cid)
        self.interrupt(imm)
        if imm.amount <= 0:
            self.log("prevented", f"trashing {cid} is prevented", cite("prevent"))
            return
        ctype = self.cdef(cid).type
        self.move_to_discard(cid)
        self.log("trash", f"{cid} is trashed ({why})", cite("trashing"))
        self.emit("trashed", card=cid, type=ctype, player=self.owner(cid), by=by)

    def trash_all(self, spec: dict, ctx: Ctx) -> None:
        """Trash every matching card in one instruction: one `trashed` event each."""
        def where(c: str) -> bool:
            if "zone" in spec:
                return (self.zone(c) or "").endswith("." + str(spec["zone"]))
            return not spec.get("installed", True) or self.is_installed(c)
        chosen = [c for c in self.board_order()
                  if (spec.get("side") in (None, self.cdef(c).side))
                  and (spec.get("type") in (None, self.cdef(c).type))
                  and where(c) and not self.cannot("trash", card=c)]
        for cid in chosen:
            self.move_to_discard(cid)
        self.log("trash", f"{ctx.label} trashes {', '.join(chosen) or 'nothing'}", cite("trashing"))
        for cid in chosen:
            self.emit("trashed", card=cid, type=self.cdef(cid).type, player=self.owner(cid), by=ctx.controller)

    def _do_run(self, ins: Instr, ctx: Ctx) -> None:
        server = ctx.server if ins.arg == "any" else str(ins.arg)
        if server not in self.state.servers:
            raise ScenarioError(f"{ctx.label}: run on {server!r}: no such server (give the play "
                                "decision a `server`)", field=ins.field, line=ins.line, file=self.sc.file)
        blocker = self.cannot("run", server=server)
        if blocker:
            self.log("cannot", f"{blocker}: the Runner cannot run on {server}", cite("cannot_run"))
            return
        self.run(server)

    def _do_breach(self, ins: Instr, ctx: Ctx) -> None:
        run = self.state.run
        if run is None or run.ended:
            self.log("no_effect", f"{ctx.label}: no run in progress, no breach", cite("breach_link"))
            return
        self.log("breach_effect", f"{ctx.label}: the Runner breaches {ins.arg}", cite("breach_link"))
        saved = (self.breach_server, self.accessed, self.zone_chosen, self.limit, self.in_run_breach)
        self.breach(str(ins.arg))
        self.breach_server, self.accessed, self.zone_chosen, self.limit, self.in_run_breach = saved

    def _do_encounter(self, ins: Instr, ctx: Ctx) -> None:
        ice = self.target(ins, ctx)
        if ice:
            self.encounter(ice, ctx.label)

    def _do_add_to_hand(self, ins: Instr, ctx: Ctx) -> None:
        cid = self.target(ins, ctx)
        if cid is None:
            return
        run = self.state.run
        zone = self.zone(cid) or ""
        if run and zone == f"corp.server.{run.server}.ice" and run.position is not None:
            index = list(self.state.zones[zone]).index(cid)
            if index < run.position:
                self.state = with_run(self.state, position=run.position - 1)
            elif index == run.position:
                self.state = with_run(self.state, vacated=True)
        self.state = with_card(self.state, replace(self.card(cid), rezzed=False, counters=()))
        self.state = move(self.state, cid, f"{self.owner(cid)}.hand")
        text = f"{cid} is added to {'HQ' if self.owner(cid) == 'corp' else 'the grip'} ({ctx.label})"
        if self.state.run and self.state.run.vacated:
            text += "; the approach or encounter ends and the Runner passes its position"
        self.log("add_to_hand", text, cite("uninstall_ice_during_run"))

    def _do_add_to_deck(self, ins: Instr, ctx: Ctx) -> None:
        which = ins.arg.get("card", "self")
        cid = ctx.source if which == "self" else ctx.target if which == "target" else str(which)
        if cid is None or cid not in self.state.cards:
            self.log("no_effect", f"{ctx.label}: no card to add to the deck", cite("as_much_as_possible"))
            return
        top = ins.arg.get("position", "top") == "top"
        self.state = with_card(self.state, replace(self.card(cid), rezzed=False, counters=()))
        self.state = move(self.state, cid, f"{self.owner(cid)}.deck", top=top)
        self.log("add_to_deck", f"{cid} is added to the {'top' if top else 'bottom'} of its owner's deck "
                 f"({ctx.label})", cite(ctx.rule))

    def _do_add_to_score(self, ins: Instr, ctx: Ctx) -> None:
        cid = ctx.source
        side = str(ins.arg)
        self.state = with_card(self.state, replace(self.card(cid), counters=(), rezzed=False, faceup=True))
        self.state = move(self.state, cid, f"{side}.score")
        self.log("add_to_score", f"{cid} is added to the {side}'s score area (not scored or stolen)",
                 cite("add_to_score"))

    def _do_play(self, ins: Instr, ctx: Ctx) -> None:
        cid = self.target(ins, ctx)
        if cid is None:
            self.log("no_effect", f"{ctx.label}: nothing to play", cite("as_much_as_possible"))
            return
        side = self.cdef(cid).side
        problem = self.cost_problem(side, Cost(credits=self.cdef(cid).cost or 0), cid)
        if problem:
            self.log("cannot_pay", f"{ctx.label}: cannot play {cid}: {problem[0]}", cite(problem[1]))
            return
        self.play(cid, None, pay=True, d=None)

    def _do_rez(self, ins: Instr, ctx: Ctx) -> None:
        cid = self.target(ins, ctx)
        if cid and not self.card(cid).rezzed:
            self.rez(cid, None, free=not ins.pay_cost)

    def _do_derez(self, ins: Instr, ctx: Ctx) -> None:
        cid = self.target(ins, ctx)
        if cid:
            self.state = with_card(self.state, replace(self.card(cid), rezzed=False))
            self.log("derez", f"{cid} is derezzed ({ctx.label})", cite("rez"))

    def _counters(self, ins: Instr, ctx: Ctx, sign: int) -> None:
        arg = ins.arg
        which = arg.get("card", "self")
        cid = ctx.source if which == "self" else (ctx.target or self.last_installed) if which == "target" \
            else str(which)
        if cid not in self.state.cards:
            raise ScenarioError(f"no card with id {cid!r}", field=ins.field, line=ins.line, file=self.sc.file)
        count = arg.get("count", 1)
        kind, n = str(arg.get("type", "power")), ctx.x if count == "X" else int(count)
        self.state = with_card(self.state, self.card(cid).with_counter(kind, sign * n))
        self.log("counters", f"{'places' if sign > 0 else 'removes'} {n} {kind} counter(s) "
                 f"{'on' if sign > 0 else 'from'} {cid} ({ctx.label})", cite("counters"))

    def _do_add_counters(self, ins: Instr, ctx: Ctx) -> None:
        self._counters(ins, ctx, 1)

    def _do_remove_counters(self, ins: Instr, ctx: Ctx) -> None:
        self._counters(ins, ctx, -1)

    def install_paying(self, cid: str, discount: int) -> None:
        cost = Cost(credits=max(0, (self.cdef(cid).cost or 0) - discount))
        problem = self.cost_problem(self.cdef(cid).side, cost, cid)
        if problem:
            self.log("cannot_pay", f"cannot install {cid}: {problem[0]}", cite(problem[1]))
            return
        self.install(cid, None, pay=False, d=None, action_cost=cost)

    def _do_install(self, ins: Instr, ctx: Ctx) -> None:
        if ins.arg == "hosted":
            ins = replace(ins, arg="target", target_filter=ins.target_filter + (("zone", f"hosted.{ctx.source}"),))
        if ins.arg in (None, "target") and not dict(ins.target_filter).get("zone"):
            ins = replace(ins, target_filter=ins.target_filter + (("zone", "hand"),))
        cid = self.target(ins, ctx)
        if not cid:
            self.log("no_effect", f"{ctx.label}: nothing to install", cite("as_much_as_possible"))
            return
        server = self.new_remote() if ins.server == "new" else ins.server
        if ins.discount or (ins.pay_cost and self.cdef(cid).side == "runner"):
            self.install_paying(cid, ins.discount)
            return
        index = None
        if ins.position == "inward_of_self" and self.server_of(ctx.source):
            server = self.server_of(ctx.source)
            index = list(self.state.zones[f"corp.server.{server}.ice"]).index(ctx.source) + 1
        self.install(cid, server, pay=ins.pay_cost and not ins.rez, d=None, index=index)
        if ins.rez and not self.card(cid).rezzed:
            self.rez(cid, None, free=True)

    # --- interrupts, lasting effects, traces, nested costs ----------------------------
    def imminent_part(self, what: str, damage_type: str | None = None) -> Imminent | None:
        """The imminent instruction (or part of a composite one) an interrupt applies to."""
        for imm in reversed(self.imminent):
            if imm.kind == what and (not damage_type or damage_type == imm.damage_type):
                return imm
        return None

    def _do_increase(self, ins: Instr, ctx: Ctx) -> None:
        imm = self.imminent_part(ins.arg.get("what", "damage"), ins.arg.get("damage_type"))
        if imm is None:
            self.log("no_effect", f"{ctx.label}: nothing imminent to increase", cite("modify_value"))
            return
        before = imm.amount
        imm.amount += int(ins.arg.get("amount", 1))
        self.log("increase", f"{ctx.label} increases the imminent {imm.kind} from {before} to {imm.amount}",
                 cite("modify_value"))

    def _do_all(self, ins: Instr, ctx: Ctx) -> None:
        """Several effects in ONE instruction: one interrupt window for all parts, then all resolve."""
        parts = ins.options[0]
        group = []
        for part in parts:
            if part.op == "damage":
                by = self.aim(replace(part, player=part.by), ctx) if part.by else ctx.controller
                group.append(Imminent("damage", self.amount(part.arg.get("amount", 1), ctx),
                                      part.arg.get("type", "net"), by=by))
            elif part.op == "give_tags":
                group.append(Imminent("tags", self.amount(part.arg, ctx)))
            else:
                group.append(None)
        self.interrupt_group([g for g in group if g is not None])
        for part, imm in zip(parts, group):
            if imm is None:
                self.do(part, ctx)
            elif imm.kind == "damage":
                self.deal_damage(imm.damage_type, imm.amount, ctx, imm.by, imm=imm)
            else:
                self.give_tags(imm.amount, ctx, imm=imm)

    def _do_prevent(self, ins: Instr, ctx: Ctx) -> None:
        mod = ins.modifier
        imm = self.imminent_part(mod.what, mod.damage_type)
        if imm is None:
            self.log("no_effect", f"{ctx.label}: nothing to prevent", cite("prevent"))
            return
        before = imm.amount
        imm.amount = min(0, imm.amount) if mod.amount is None else imm.amount - mod.amount
        self.log("prevent", f"{ctx.label} prevents {before - imm.amount} of the imminent {imm.kind}",
                 cite("prevent_all" if mod.amount is None else "prevent"))

    def _do_lasting(self, ins: Instr, ctx: Ctx) -> None:
        run = self.state.run
        # "during that run" created before the run starts belongs to the next run (The Noble Path)
        lasting = Lasting(ins.modifier, ins.duration or "turn", ctx.source, self.state.turn,
                          run.seq if run else len(self.runs) + 1, run.encounter_seq if run else None,
                          ins.ability, ctx.chosen or ctx.target)
        self.state = replace(self.state, lasting=self.state.lasting + (lasting,))
        what = f"a delayed conditional ability ({ins.ability.trigger})" if ins.ability else \
            f"a lingering effect ({ins.modifier.kind})"
        self.log("lasting", f"{ctx.label} creates {what} for the {lasting.duration}",
                 cite("delayed_ability" if ins.ability else "lingering"))

    def _do_resolve_subroutine(self, ins: Instr, ctx: Ctx) -> None:
        """Resolve a subroutine of another ice; a cycle of these is a mandatory loop (10.x)."""
        others = [c for c in self.board_order() if self.is_installed(c) and self.cdef(c).type == "ice"
                  and self.card(c).rezzed and c != ctx.source and self.cdef(c).subroutines]
        if ins.arg.get("ice") == "target":
            pick = self.target(replace(ins, arg="target", target_filter=(("type", "ice"),)), ctx)
            others = [pick] if pick else []
        if not others:
            self.log("no_effect", f"{ctx.label}: no other rezzed ice with a subroutine", cite("as_much_as_possible"))
            return
        ice, n = others[0], int(ins.arg.get("subroutine", 1)) - 1
        label = f"{ice}:sub{n + 1}"
        if label in self.sub_stack:
            if not self._loop_continues(label):
                return
        self.sub_stack.append(label)
        try:
            self.log("subroutine", f"{ctx.label} resolves subroutine {n + 1} of {ice}", cite("subroutine_resolution"),
                     ability=label)
            self.resolved.append(label)
            self.resolve_effects(self.cdef(ice).subroutines[n].effects, Ctx(ice, "corp", label), "subroutine_checkpoint")
        finally:
            self.sub_stack.pop()

    loop_left: int | None = None

    def _loop_continues(self, label: str) -> bool:
        if self.loop_left is None:
            def fit(d):
                if isinstance(d.value, bool) or not isinstance(d.value, int) or d.value < 0:
                    raise self.illegal(d, "the loop count is a whole number", "mandatory_loop")
                return True
            d = self.take("corp", ("loop",), fit)
            self.loop_left = int(d.value) if d else 1
            self.log("loop", f"mandatory infinite loop through {label}: the Corp names "
                     f"{self.loop_left}; it resolves that many times and ends" + ("" if d else " (assumed 1)"),
                     cite("mandatory_loop"), assumed=d is None, decision=d, player="corp")
        if self.loop_left <= 0:
            self.log("loop_end", "the loop has resolved the named number of times and ends", cite("mandatory_loop"))
            return False
        self.loop_left -= 1
        return True

    def _do_if(self, ins: Instr, ctx: Ctx) -> None:
        ok = all(self.static_condition(k, v) for k, v in ins.arg.items())
        self.log("if", f"{ctx.label}: condition {'met' if ok else 'not met'}", cite(ctx.rule))
        self.resolve_effects(ins.then if ok else ins.otherwise, ctx, "checkpoint_after_instruction")

    def _do_trace(self, ins: Instr, ctx: Ctx) -> None:
        base = int(ins.arg.get("base", 0))
        self.log("trace", f"{ctx.label}: trace [{base}] initiated", cite("trace_initiated"))
        self.emit("trace", card=ctx.source)
        self.settle()
        corp = self._trace_spend("corp", "trace_corp")
        runner = self._trace_spend("runner", "trace_runner")
        link = self.link() + runner
        success = base + corp > link
        self.log("trace_result", f"trace strength {base + corp} vs link strength {link}: "
                 f"{'successful' if success else 'unsuccessful'}", cite("trace_result"))
        self.resolve_effects(ins.then if success else ins.otherwise, ctx, "checkpoint_after_instruction")

    def _trace_spend(self, side: str, rule_name: str) -> int:
        def fit(d):
            n = d.value
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise self.illegal(d, "trace spending is a whole number", rule_name)
            if n > self.state.player(side).credits:
                raise self.illegal(d, f"{side} has only {self.state.player(side).credits}[c]", "bid_possible")
            if n > 0 and self.cannot("spend_credits", player=side):
                raise self.illegal(d, f"{self.cannot('spend_credits', player=side)}: the {side} cannot "
                                   "spend credits, so can only spend 0", "bid_possible")
            return True
        d = self.take(side, ("trace",), fit) if self._trace_player_ok(side) else None
        n = int(d.value) if d else 0
        if n:
            p = self.state.player(side)
            self.state = with_player(self.state, side, credits=p.credits - n)
        self.log("trace_spend", f"{side} spends {n}[c]" + ("" if d else " (assumed)"), cite(rule_name),
                 assumed=d is None, decision=d, player=side)
        return n

    def _trace_player_ok(self, side: str) -> bool:
        d = self.peek()
        return d is not None and d.kind == "trace" and (d.player in (None, side))

    def link(self) -> int:
        total = self.state.runner.link
        total += sum(self.cdef(c).link for c in self.state.zones.get("runner.installed", ()))
        total += sum(self.cdef(c).link for c in self.state.zones.get("runner.identity", ()))
        return total + sum(m.amount or 0 for m, _ in self.modifiers("link"))

    def _do_pay(self, ins: Instr, ctx: Ctx) -> None:
        """A nested cost: "may pay", "must pay, if able", "unless <player> pays"."""
        payer = ins.by and (ctx.controller if ins.by == "self" else other(ctx.controller)
                            if ins.by == "opponent" else ins.by) or ctx.controller
        cost = self.effective(ins.cost)
        problem = self.cost_problem(payer, cost, ctx.source)
        paid = False
        if ins.optional:
            def fit(d):
                x = int(d.get("x", 0) or 0)
                if d.value and self.cost_problem(payer, cost, ctx.source, x, tuple(d.get("using") or ())):
                    p = self.cost_problem(payer, cost, ctx.source, x, tuple(d.get("using") or ()))
                    raise self.illegal(d, f"{payer} cannot pay {cost.describe(x)}: {p[0]}", p[1])
                return True
            d = self.take(payer, ("pay",), fit)
            if d and d.value:
                ctx.x = int(d.get("x", 0) or 0)     # "that many": X carries into the instructions
                self.pay(payer, cost, ctx.source, ctx.x, tuple(d.get("using") or ()), f"({ctx.label})")
                paid = True
            else:
                self.log("decline_pay", f"{payer} does not pay {cost.describe()} ({ctx.label})"
                         + ("" if d else " (assumed)"), cite("nested_cost"), assumed=d is None,
                         decision=d, player=payer)
        elif problem:
            self.log("cannot_pay", f"{payer} cannot pay {cost.describe()} ({ctx.label}): {problem[0]}",
                     cite("if_able" if ins.if_able else problem[1]), player=payer)
        else:
            # a cost the player must pay: a scripted {pay: true} may say which credits to use
            def must(d):
                if not d.value:
                    raise self.illegal(d, f"{payer} must pay {cost.describe()}: it is not optional",
                                       "if_able" if ins.if_able else "nested_cost")
                using = tuple(d.get("using") or ())
                p = self.cost_problem(payer, cost, ctx.source, 0, using)
                if p:
                    raise self.illegal(d, f"{payer} cannot pay {cost.describe()} that way: {p[0]}", p[1])
                return True
            d = self.take(payer, ("pay",), must)
            self.pay(payer, cost, ctx.source, 0, tuple(d.get("using") or ()) if d else (),
                     what=f"({ctx.label})")
            if d:
                self.steps[-1] = replace(self.steps[-1], decision=d.index)
            paid = True
        self.settle()
        self.resolve_effects(ins.then if paid else ins.otherwise, ctx, "checkpoint_after_instruction")

    def _do_choose(self, ins: Instr, ctx: Ctx) -> None:
        """"X or Y": the chooser picks an option that can be carried out (CR rule_mandatory_choice)."""
        chooser = ins.by and (ctx.controller if ins.by == "self" else other(ctx.controller)
                              if ins.by == "opponent" else ins.by) or ctx.controller
        able = [i for i, opt in enumerate(ins.options) if self.feasible(opt, ctx, chooser)]
        if not able:
            self.log("no_effect", f"{ctx.label}: none of the options can be carried out", cite("mandatory_choice"))
            return

        def fit(d):
            n = d.value
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(ins.options):
                raise self.illegal(d, f"choose a number from 1 to {len(ins.options)}", "choice_instruction")
            if n - 1 not in able:
                raise self.illegal(d, f"option {n} cannot be carried out, so it cannot be chosen",
                                   "mandatory_choice")
            return True
        d = self.take(chooser, ("choose",), fit)
        pick = int(d.value) - 1 if d else able[0]
        self.log("choose", f"{chooser} chooses option {pick + 1} of {ctx.label}"
                 + ("" if d else (" (the only option that can be carried out)" if len(able) == 1
                                  else " (first option, assumed)")),
                 cite("mandatory_choice"), assumed=d is None and len(able) > 1, decision=d, player=chooser)
        self.resolve_effects(ins.options[pick], ctx, "checkpoint_after_instruction")

    def feasible(self, effects: tuple, ctx: Ctx, chooser: str) -> bool:
        return any(self._can_carry_out(ins, ctx, chooser) for ins in effects)

    def _can_carry_out(self, ins: Instr, ctx: Ctx, chooser: str) -> bool:
        if ins.op == "give_tags":
            return not self.cannot("take_tags")
        if ins.op == "pay":
            payer = ins.by and (ctx.controller if ins.by == "self" else other(ctx.controller)
                                if ins.by == "opponent" else ins.by) or chooser
            return self.cost_problem(payer, ins.cost, ctx.source) is None
        if ins.op == "end_the_run":
            return self.state.run is not None and not self.state.run.ended
        if ins.op == "trash":
            if ins.arg in (None, "target"):
                return any(self._target_ok(c, ins) for c in self.board_order())
            return True
        if ins.op == "lose_credits":
            side = self.aim(ins, ctx)
            return self.state.player(side).credits > 0
        return True
