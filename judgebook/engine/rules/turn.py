"""Turns (rule_sec_corp_turn, rule_sec_runner_turn) and the basic actions."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.errors import IllegalDecision
from judgebook.engine.language.context import Ctx
from judgebook.engine.language.costs import Cost
from judgebook.engine.language.identities import may_install_faceup, remote_limit_refuses
from judgebook.engine.language.quantities import Number
from judgebook.engine.language.statics import server_only_refuses
from judgebook.engine.rules import costs
from judgebook.engine.rules.effects import draw, move, set_player, win
from judgebook.engine.rules.frames import Call, Frame, event, find, log, path, pop, push, react_first, set_top, swap
from judgebook.engine.rules.gained_abilities import abilities
from judgebook.engine.rules.resolve import Resolve
from judgebook.engine.rules.restrictions import like_cards
from judgebook.engine.rules.triggers import emit, record
from judgebook.engine.rules.values import (
    ability_active,
    allotted_clicks,
    can_be_advanced,
    hand_size,
    max_hand_size,
    restricts_self,
)
from judgebook.engine.rules.windows import PriorityWindow, ReactionWindow, use_ability
from judgebook.engine.state import queries as q
from judgebook.engine.state.choice import ChoicePoint, Option, Refused, decision
from judgebook.engine.state.model import Game, Side, evolve, other
from judgebook.engine.timing.structures import CORP_TURN, RUNNER_TURN

ALLOTTED = {"corp": 3, "runner": 4}
BASIC = {
    "corp": {
        "gain_credit": "rule_corp_basic_action_credit",
        "draw": "rule_corp_basic_action_draw",
        "install": "rule_corp_basic_action_install",
        "play": "rule_corp_basic_action_operation",
    },
    "runner": {
        "gain_credit": "runner_basic_action_credit",
        "draw": "runner_basic_action_card",
        "install": "runner_basic_action_install",
        "play": "runner_basic_action_event",
    },
}


def structure(side: Side) -> list[tuple[object, object]]:
    return (CORP_TURN if side == "corp" else RUNNER_TURN).steps()  # type: ignore[return-value]


@dataclass(frozen=True)
class Turn(Frame):
    side: Side
    at: int = 0

    def labels(self) -> tuple[str, ...]:
        structure = CORP_TURN if self.side == "corp" else RUNNER_TURN
        steps = structure.steps()
        phase, st = steps[min(max(self.at - 1, 0), len(steps) - 1)]
        return (structure.label, phase.label, st.label)

    def step(self, g: Game) -> Game | ChoicePoint:
        if g.over:
            return pop(g)
        reacted = react_first(g)
        if reacted is not None:
            return reacted
        steps = (CORP_TURN if self.side == "corp" else RUNNER_TURN).steps()
        if self.at >= len(steps):
            g = pop(g)
            nxt = other(self.side)
            # The turn's facts are kept one more turn, for "during their last turn" conditions.
            return push(evolve(g, active=nxt, turn=g.turn + 1, history=(), last_turn=g.history), Turn(nxt))
        phase, st = steps[self.at]
        g = set_top(g, replace(self, at=self.at + 1))
        key = st.key
        side = self.side
        if key == "allotted_clicks":
            n = allotted_clicks(g, side, ALLOTTED[side])
            g = set_player(g, side, clicks=n)
            return log(g, "clicks", f"the {side} gains {n}[click]", st.anchor, side)
        if key == "refill":
            for cid in q.installed(g, side):
                d = q.definition(g, cid)
                if d.recurring and q.is_active(g, cid) and g.cards[cid].count("credit") != d.recurring:
                    card = g.cards[cid]
                    refilled = card.with_counter("credit", d.recurring - card.count("credit"))
                    g = evolve(g, cards=g.cards.set(cid, refilled))
                    g = log(
                        g,
                        "recurring",
                        f"{cid}'s recurring credits refill ({card.count('credit')} → {d.recurring})",
                        st.anchor,
                        side,
                        card=cid,
                    )
            return g
        if st.event in ("turn_begins", "turn_ends", "action_phase_ends"):
            g = emit(g, event(st.event, player=side), f"{st.label} ({side})", st.anchor, side)
            if st.event != "action_phase_ends":
                from judgebook.engine.rules.checkpoint import turn_boundary

                g = turn_boundary(g, side, st.event == "turn_begins")
            return g
        if key == "mandatory_draw":
            return draw(g, "corp", 1)
        if key == "action":
            if g.player(side).clicks <= 0:  # no unspent click: on past the loop to the phase's end
                return set_top(g, replace(self, at=self.at + 2))
            return push(g, Action(side))
        if key == "action_loop":
            # Always back to the paid ability window (step_corp_turn_action_phase_loop): after the last
            # click's action the Corp may still rez and score there; the click check then ends the phase.
            return set_top(g, replace(self, at=self.at - 2))
        if key == "discard":
            if side == "runner" and max_hand_size(g, side) < 0:
                return win(g, "corp", "flatline", "rule_runner_discard_step")
            excess = len(g.zone(f"{side}.hand")) - hand_size(g, side)
            return push(g, Discard(side)) if excess > 0 else g
        if key == "lose_clicks":
            return set_player(g, side, clicks=0)
        if st.window:
            return push(g, PriorityWindow(frozenset(st.window), st.anchor))
        return g


@dataclass(frozen=True)
class Action(Frame):
    side: Side
    label = "action"

    def step(self, g: Game) -> Game | ChoicePoint:
        if g.over:
            return pop(g)
        opts, refused = action_options(g, self.side)
        return ChoicePoint(
            self.side,
            "action",
            f"the {self.side} takes an action",
            "rule_action_window",
            tuple(opts),
            tuple(refused),
            default=None,
            default_reason="the script ends here",
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        g = pop(g)
        d = option.decision
        side = self.side
        g = log(g, "action", f"the {side} takes the action: {option.label}", option.rule, side, how="chosen")
        from judgebook.engine.rules.amounts import ActionCompleted  # "when you finish taking an action"

        which = f"use:{d.get('card')}:{d.get('ability')}" if d.value == "use" else str(d.value)
        g = push(g, ActionCompleted(side, which))
        if d.value == "use":
            return use_ability(
                g, side, str(d.get("card")), str(d.get("ability")), None, tuple(d.get("using") or ()), d.get("x")
            )
        g = costs.pay(g, Cost(clicks=1), Ctx(f"{side}.identity", side), side)
        kind = d.value
        using = tuple(d.get("using") or ())  # the credits the action's cost is paid with (rule_spend_credits)
        if using and kind in ("gain_credit", "draw", "purge"):
            raise IllegalDecision(f"`using`: the {kind} action spends no credits", "rule_spend_credits")
        if kind == "gain_credit":
            from judgebook.engine.rules.effects import apply_amount

            return apply_amount(g, Ctx(f"{side}.identity", side), "gain_credits", side, 1)
        if kind == "draw":
            from judgebook.engine.rules.identities import draw_action_count

            return draw(g, side, draw_action_count(g, side), action=True)
        if kind == "run":
            from judgebook.engine.rules.run import start_run

            extra = costs.additional_cost(g, "run", None, str(d.get("server")))
            if extra is not None or using:  # `using` with no additional cost to pay: refused by costs.pay
                g = costs.pay(g, extra or Cost(), Ctx("runner", "runner"), "runner", using=using)
            return start_run(g, str(d.get("server")))
        if kind == "remove_tag":
            from judgebook.engine.rules.effects import tags_removed

            g = costs.pay(g, Cost(credits=Number(2), has_credits=True), Ctx("runner", side), side, using=using)
            g = set_player(g, "runner", tags=g.runner.tags - 1)
            return tags_removed(g, 1, "runner_basic_action_remove_tag", side)
        if kind == "install":
            return install(g, side, str(d.get("card")), d.get("server"), bool(d.get("faceup")), using)
        if kind == "play":
            return play(g, side, str(d.get("card")), server=d.get("server"), x=d.get("x"), using=using)
        if kind == "purge":
            from judgebook.engine.rules.effects import purge

            g = costs.pay(g, Cost(clicks=2), Ctx("corp", side), side)  # with the action's own click: 3
            return purge(g, side)
        if kind == "trash_resource":
            cid = str(d.get("card"))
            from judgebook.engine.rules.effects import trash

            # With any additional cost to trash it with the basic action (rule_additional_cost).
            extra = costs.additional_cost(g, "trash_resource", cid)
            price = Cost(credits=Number(2), has_credits=True)
            return costs.pay_then(g, price.plus(extra) if extra else price, Ctx(cid, side), side, trash, (cid, "corp"),
                                  using=using, checkpoint=True)
        if kind == "advance":
            cid = str(d.get("card"))
            g = costs.pay(g, Cost(credits=Number(1), has_credits=True), Ctx(cid, side), side, using=using)
            g = evolve(g, cards=g.cards.set(cid, g.cards[cid].with_counter("advancement", 1)))
            return emit(
                g,
                event("advanced", card=cid, type=q.definition(g, cid).type),
                f"{cid} is advanced",
                "rule_advance",
                side,
            )
        raise ValueError(kind)


def _scored(g: Game, side: Side) -> list[str]:
    """The player's own cards in either score area: their agendas' [click] abilities are actions too."""
    return [c for z in ("corp.score", "runner.score") for c in g.zone(z) if g.cards[c].owner == side]


def _usable_where_scored(g: Game, cid: str, side: Side, active_in: str | None) -> bool:
    """An agenda in the opponent's score area is the opponent's to use, unless its ability says the owner
    can use it there ("even if this agenda is in the Runner's score area": `active_in: score`)."""
    zone = g.cards[cid].zone
    return not zone.endswith(".score") or zone == f"{side}.score" or active_in == "score"


def action_options(g: Game, side: Side) -> tuple[list[Option], list[Refused]]:
    opts: list[Option] = []
    refused: list[Refused] = []
    from judgebook.engine.rules.amounts import click_discount  # an extra action "paying [click] less"

    clicks = g.player(side).clicks + click_discount(g, side)
    if clicks < 1:
        return [], [Refused(decision("action", "run"), "take an action", "rule_cost", "no [click] left")]
    cite = BASIC[side]
    opts.append(Option(decision("action", "gain_credit"), "gain 1[c]", cite["gain_credit"]))
    opts.append(Option(decision("action", "draw"), "draw 1 card", cite["draw"]))
    if side == "runner":
        for server in g.servers:
            d = decision("action", "run", server=server)
            extra = costs.additional_cost(g, "run", None, server)
            why = costs.refusal(
                g, Cost(clicks=1).plus(extra) if extra else Cost(clicks=1), Ctx("runner", "runner"), "runner"
            )
            if costs.cannot(g, "run", "runner", server):
                refused.append(Refused(d, f"run on {server}", "rule_cannot_run_abilities", "a card forbids it"))
            elif why:
                refused.append(
                    Refused(d, f"run on {server}", "rule_additional_cost_to_run" if extra else why[0], why[1])
                )
            else:
                label = f"run on {server}" + (f" (additional cost: {extra.render()})" if extra else "")
                opts.append(Option(d, label, "runner_basic_action_run"))
        if g.runner.tags:
            why = costs.refusal(g, Cost(credits=Number(2), has_credits=True), Ctx("runner", "runner"), "runner")
            d = decision("action", "remove_tag")
            (
                refused.append(Refused(d, "remove 1 tag", why[0], why[1]))
                if why
                else opts.extend(costs.with_sources(Option(d, "remove 1 tag (2[c])", "runner_basic_action_remove_tag"),
                                                    g, side, "any", None, 2))
            )
        else:
            refused.append(
                Refused(decision("action", "remove_tag"), "remove 1 tag", "rule_tagged_remove_tag", "no tag to remove")
            )
    for cid in g.zone(f"{side}.hand"):
        card_def = q.definition(g, cid)
        if card_def.type in ("event", "operation"):
            installing = decision("action", "install", card=cid)
            refused.append(
                Refused(installing, f"install {cid}", cite["install"], f"a card of type {card_def.type} is played")
            )
            d = decision("action", "play", card=cid)
            price = Cost(clicks=1, credits=Number(costs.changed(g, "play", cid, card_def.cost or 0)), has_credits=True)
            extra = costs.additional_cost(g, "play", cid)
            why = costs.refusal(g, price.plus(extra) if extra else price, Ctx(cid, side), side, "play")
            forbids = costs.cannot(g, "play", side, card=cid)
            if forbids is not None:
                # Its own "play only if" is a restriction (rule_act_restriction); another card's is a "cannot".
                why = (
                    ("rule_act_restriction", "its play restriction is not met")
                    if restricts_self(forbids)
                    else ("rule_cannot_precedence", "a card forbids playing it")
                )
            if why:
                refused.append(Refused(d, f"play {cid}", why[0], why[1]))
            elif _runs_any(card_def):
                opts += [
                    Option(decision("action", "play", card=cid, server=s), f"play {cid} (run {s})", cite["play"])
                    for s in g.servers
                ]
            else:  # once per way of choosing which credits pay (rule_spend_credits)
                opts += costs.with_sources(Option(d, f"play {cid}", cite["play"]), g, side, "play", cid,
                                           costs.changed(g, "play", cid, card_def.cost or 0))
        elif side == "runner" and card_def.install_on == "ice":
            # "Install only on a piece of ice": one option per installed ice, the host (rule_valid_hosts).
            hosts = [c for c in q.installed(g, "corp") if q.is_ice(g, c)]
            if not hosts:
                refused.append(Refused(decision("action", "install", card=cid), f"install {cid}", "rule_valid_hosts",
                                       "no installed piece of ice to host it"))
            for ice in hosts:
                d = decision("action", "install", card=cid, server=ice)
                charge = Number(costs.changed(g, "install", cid, card_def.cost or 0))
                price_ice = Cost(clicks=1, credits=charge, has_credits=True)
                why = costs.refusal(g, price_ice, Ctx(cid, side), side, "install")
                (
                    refused.append(Refused(d, f"install {cid} on {ice}", why[0], why[1]))
                    if why
                    else opts.extend(costs.with_sources(
                        Option(d, f"install {cid} on {ice}", "runner_basic_action_install"), g, side, "install", cid,
                        costs.changed(g, "install", cid, card_def.cost or 0)))
                )
        elif side == "runner":
            d = decision("action", "install", card=cid)
            why = costs.refusal(
                g,
                Cost(clicks=1, credits=Number(costs.changed(g, "install", cid, card_def.cost or 0)), has_credits=True),
                Ctx(cid, side),
                side,
                "install",
            )
            if costs.cannot(g, "install", side, card=cid):
                why = ("rule_cannot_precedence", "a card forbids installing it")
            (
                refused.append(Refused(d, f"install {cid}", why[0], why[1]))
                if why
                else opts.extend(costs.with_sources(Option(d, f"install {cid}", "runner_basic_action_install"),
                                                    g, side, "install", cid,
                                                    costs.changed(g, "install", cid, card_def.cost or 0)))
            )
        else:
            for server in list(g.servers) + ["new"]:
                if card_def.type != "ice" and server in q.CENTRAL and card_def.type != "upgrade":
                    continue
                d = decision("action", "install", card=cid, server=server)
                # Installing ice costs 1[c] for each piece already protecting the server (rule_install_cost_ice),
                # but the Corp may first trash any of them, and those are not counted (rule_install_trash_ice): the
                # click is what the action needs; which ice to keep is refused at that choice if unaffordable.
                why = costs.refusal(g, Cost(clicks=1, credits=Number(0), has_credits=True), Ctx(cid, side), side)
                if costs.cannot(g, "install", side, None if server == "new" else server, cid):
                    why = ("rule_cannot_precedence", "a card forbids installing it there")
                if server_only_refuses(card_def, server):
                    why = ("rule_x_server_only", f"{cid} cannot be installed in {server}")
                if remote_limit_refuses(g, server):
                    why = ("rule_limit_remote_servers", "a limit on remote servers forbids a new one")
                if why:
                    refused.append(Refused(d, f"install {cid} in {server}", why[0], why[1]))
                else:
                    opts.append(Option(d, f"install {cid} in {server}", cite["install"]))
                    if may_install_faceup(g, cid):  # "You may install agendas faceup" (language/identities.py)
                        up = decision("action", "install", card=cid, server=server, faceup=True)
                        opts.append(Option(up, f"install {cid} faceup in {server}", cite["install"]))
    if side == "corp":
        purge = decision("action", "purge")
        if g.corp.clicks + click_discount(g, "corp") >= 3:
            opts.append(
                Option(purge, "purge virus counters ([click][click][click])", "corp_basic_action_purge_virus_counters")
            )
        else:
            refused.append(
                Refused(
                    purge,
                    "purge virus counters",
                    "corp_basic_action_purge_virus_counters",
                    "purging costs [click][click][click]",
                )
            )
        for cid in q.installed(g, "runner"):
            if q.definition(g, cid).type != "resource":
                continue
            d = decision("action", "trash_resource", card=cid)
            if not g.runner.tags:
                refused.append(Refused(d, f"trash {cid}", "rule_tagged_trash_resource", "the Runner is not tagged"))
                continue
            price = Cost(clicks=1, credits=Number(2), has_credits=True)
            extra = costs.additional_cost(g, "trash_resource", cid)
            why = costs.refusal(g, price.plus(extra) if extra else price, Ctx(cid, "corp"), "corp")
            (
                refused.append(Refused(d, f"trash {cid}", why[0], why[1]))
                if why
                else opts.extend(costs.with_sources(
                    Option(d, f"trash {cid} (1[click], 2[c])", "corp_basic_action_trash_resource"), g, "corp", "any",
                    cid, 2))
            )
        for cid in q.installed(g, "corp"):
            card_def = q.definition(g, cid)
            if can_be_advanced(g, cid):
                d = decision("action", "advance", card=cid)
                why = costs.refusal(g, Cost(clicks=1, credits=Number(1), has_credits=True), Ctx(cid, side), side)
                if costs.cannot(g, "advance", side, q.server_of(g, cid), cid):
                    why = ("rule_cannot_precedence", "a card forbids advancing it")
                if why:
                    refused.append(Refused(d, f"advance {cid}", why[0], why[1]))
                else:
                    opts += costs.with_sources(Option(d, f"advance {cid}", "corp_basic_action_advance"), g, side, "any",
                                               cid, 1)
    # Cards in hand too: an action such as "[click], reveal and trash this ice from HQ" is `active_in: hand`;
    # and the player's agendas in a score area.
    for cid in q.installed(g, side) + list(g.zone(f"{side}.identity")) + list(g.zone(f"{side}.hand")) \
            + _scored(g, side):
        for ab in abilities(g, cid):  # as effects change them
            active = q.is_active(g, cid) if ab.active_in in (None, "score") else ability_active(g, cid, ab.active_in)
            if ab.is_action and active and _usable_where_scored(g, cid, side, ab.active_in):
                d = decision("action", "use", card=cid, ability=ab.id)
                here = Ctx(cid, side, ab.id)
                why = costs.refusal(g, costs.changed_cost(g, ab.cost, here), here, side, "use") if ab.cost else None
                from judgebook.engine.rules.windows import use_key

                use = use_key(g, cid, ab)
                if use is not None and use in g.uses:
                    why = ("rule_cost_restrictions", f"once per {ab.once_per}: already used")
                if ab.condition is not None and not ab.condition.holds(g, Ctx(cid, side, ab.id)):
                    why = ("rule_use_restriction", f"only {ab.condition.render()}")
                (
                    refused.append(Refused(d, f"{cid}: {ab.text or ab.id}", why[0], why[1]))
                    if why
                    else opts.extend(costs.with_sources(Option(d, f"{cid}: {ab.text or ab.id}", "rule_action"), g,
                                                        side, "use", cid, _credits_of(g, ab.cost, here)))
                )
    return opts, refused


def _credits_of(g: Game, cost: Cost | None, ctx: Ctx) -> int:
    """The credits an ability's cost spends, as far as they are known before an X is chosen (0: none)."""
    if cost is None or not cost.has_credits or cost.x:
        return 0
    return int(costs.changed_cost(g, cost, ctx).credits.value(g, ctx))


def _runs_any(card_def: object) -> bool:
    from judgebook.engine.language.instructions import MakeRun

    return any(isinstance(e, MakeRun) and e.server == "any" for ab in card_def.abilities for e in ab.effects)  # type: ignore[attr-defined]


def install(g: Game, side: Side, cid: str, server: object, faceup: bool = False, using: tuple[str, ...] = ()) -> Game:
    d = q.definition(g, cid)
    from_hand = g.cards[cid].zone.endswith(".hand")  # "when you install this from anywhere except HQ"
    origin = q.from_zone(g, cid)  # "whenever you install a program from your heap"
    if side == "runner":
        price = Number(costs.changed(g, "install", cid, d.cost or 0))
        g = costs.pay(g, Cost(credits=price, has_credits=True), Ctx(cid, side), side, "install", using)
        if d.install_on is not None:
            # Installed hosted on the chosen ice: installed while its host is (rule_valid_hosts).
            g = move(g, cid, f"hosted.{server}")
            g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], host=str(server))))
        else:
            g = move(g, cid, "runner.rig")
    else:
        name = str(server or "new")
        if name == "new":
            n = 1 + sum(1 for s in g.servers if s.startswith("Server "))
            name = f"Server {n}"
            g = evolve(g, servers=g.servers + (name,))
        if d.type == "ice" and g.zone(q.ice_zone(name)):
            # The destination is declared: the Corp may first trash ice protecting it, which then costs nothing
            # (rule_install_trash_ice); the install goes on once they have chosen.
            from judgebook.engine.rules.procedures import TrashLikeIce

            g = push(g, Call(_corp_install, (cid, name, faceup, origin, using)))
            return push(g, TrashLikeIce(cid, name))
        return _corp_install(g, cid, name, faceup, origin, using)
    g = like_cards(g, cid)
    return emit(
        g,
        event("installed", card=cid, type=d.type, player=side, server=q.server_of(g, cid), from_hand=from_hand,
              from_zone=origin),
        f"the {side} installs {cid}",
        "rule_installing",
        side,
    )


def _corp_install(g: Game, cid: str, name: str, faceup: bool, origin: str, using: tuple[str, ...] = ()) -> Game:
    """The basic action's install of a Corp card in server `name`, its destination (and any ice to trash) chosen."""
    d = q.definition(g, cid)
    if d.type == "ice":
        # Installing ice costs 1[c] for each piece still protecting the server (rule_install_cost_ice).
        extra = len(g.zone(q.ice_zone(name)))
        g = costs.pay(g, Cost(credits=Number(extra), has_credits=True), Ctx(cid, "corp"), "corp", "install", using)
        from judgebook.engine.rules.positions import place_ice

        g = place_ice(g, cid, name, None, cid, "rule_ice_install_outermost")
    else:
        g = move(g, cid, q.root_zone(name))
    g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], faceup=faceup)))
    g = like_cards(g, cid)
    return emit(
        g,
        event("installed", card=cid, type=d.type, player="corp", server=q.server_of(g, cid),
              from_hand=origin == "hand", from_zone=origin),
        f"the corp installs {cid}",
        "rule_installing",
        "corp",
    )


def play(g: Game, side: Side, cid: str, pay: bool = True, server: str | None = None, x: int | None = None,
         using: tuple[str, ...] = ()) -> Game:
    """`x`: the X of an additional cost to play ("remove X tags"), which its abilities read too."""
    extra = costs.additional_cost(g, "play", cid)
    # The card goes to the play area first, then its costs are paid (rule_steps_playing_place,
    # rule_steps_playing_play_cost): damage paid as a cost cannot trash the card being played.
    g = move(g, cid, "play")
    if extra is not None and extra.chooses:
        # An additional cost with choices (cards to trash, one cost of several) is paid first; the play follows.
        g = push(g, Call(_pay_and_resolve, (side, cid, pay, server, True, int(x or 0), using)))
        return push(g, costs.PayCost(Ctx(cid, side, x=int(x or 0)), extra, side))
    return _pay_and_resolve(g, side, cid, pay, server, False, int(x or 0), using)


def _pay_and_resolve(
    g: Game, side: Side, cid: str, pay: bool, server: str | None, extra_paid: bool = False, x: int = 0,
    using: tuple[str, ...] = (),
) -> Game:
    d = q.definition(g, cid)
    extra = costs.additional_cost(g, "play", cid)
    if extra is not None and not extra_paid:
        g = costs.pay(g, extra, Ctx(cid, side, x=x), side)
    if pay:
        price = Number(costs.changed(g, "play", cid, d.cost or 0))
        g = costs.pay(g, Cost(credits=price, has_credits=True), Ctx(cid, side), side, "play", using)
    before = g.pending
    g = emit(g, event("played", card=cid, type=d.type, player=side), f"the {side} plays {cid}", "rule_playing", side)
    plays = [ab for ab in d.abilities if ab.kind == "play"]
    effects = tuple(e for ab in plays for e in ab.effects)
    g = push(g, Call(_to_discard, (cid,)))
    if effects:
        ability = plays[0]
        g = push(
            g,
            Resolve(
                effects, Ctx(cid, side, ability.id, server=server, x=x), "rule_playing",
                announce=ability.text or ability.id
            ),
        )
    # Abilities the play made pending resolve at the checkpoint before the play abilities do
    # (rule_steps_playing_played_checkpoint): Swift's click comes before Dirty Laundry's run.
    return push(g, ReactionWindow()) if [p for p in g.pending if p not in before] else g


def end_action_phase(g: Game, side: Side) -> Game:
    """A terminal card: the current action completes, the remaining steps of the action phase are skipped and
    the game goes on with the action phase formally ending (rule_forced_action_phase_end); outside its
    controller's action phase it does nothing (rule_end_action_phase_outside_action_phase)."""
    turn = find(g, Turn)
    steps = [st.key for _, st in (CORP_TURN if side == "corp" else RUNNER_TURN).steps()]
    loop = steps.index("action_loop")
    if turn is None or turn.side != side or not steps.index("action") < turn.at <= loop:
        return log(
            g,
            "no_effect",
            f"the {side}'s action phase is not in progress: it cannot end",
            "rule_end_action_phase_outside_action_phase",
            side,
        )
    g = swap(g, turn, replace(turn, at=loop + 1))
    return log(g, "action_phase_ends", f"the {side}'s action phase ends", "rule_forced_action_phase_end", side)


def _to_discard(g: Game, cid: str) -> Game:
    from judgebook.engine.language.statics import NotTrashed
    from judgebook.engine.rules.values import statics

    if g.pending and not g.over:
        # Abilities that met their condition as the card finished resolving ("when that run ends") resolve
        # while it is still in the play area; it is trashed after (rule_steps_playing_trash_played_card).
        reacted = react_first(push(g, Call(_to_discard, (cid,))))
        if reacted is not None:
            return reacted

    from judgebook.engine.rules.memory import finished_resolving

    g = finished_resolving(g, cid)  # "whenever you finish resolving an operation" (Nuvem SA)
    if any(isinstance(effect, NotTrashed) and ctx.source == cid for effect, ctx in statics(g)):
        return log(g, "stays", f"{cid} stays in the play area", "rule_play_not_trashed_until", g.cards[cid].owner)
    from judgebook.engine.rules.currents import is_current, stays

    if g.cards[cid].zone == "play" and is_current(g, cid):
        return stays(g, cid)
    if g.cards[cid].zone == "play":
        # The resolved card is trashed (rule_steps_playing_trash_played_card): "whenever an event is trashed".
        card, owner = g.cards[cid], g.cards[cid].owner
        g = move(g, cid, f"{owner}.discard")
        ev = event("trashed", card=cid, type=g.library.card(card.name).type, player=owner, by=owner)
        return emit(g, ev, f"{cid} is trashed", "rule_steps_playing_trash_played_card", owner)
    return g


@dataclass(frozen=True)
class Discard(Frame):
    side: Side

    def step(self, g: Game) -> Game | ChoicePoint:
        hand = g.zone(f"{self.side}.hand")
        excess = len(hand) - hand_size(g, self.side)
        if excess <= 0:
            return pop(g)
        if costs.cannot(g, "discard", self.side):  # "skip your discard step this turn"
            return log(pop(g), "cannot_discard", f"the {self.side} does not discard", "rule_cannot_precedence",
                       self.side)
        from itertools import combinations

        picks = list(combinations(hand, excess))[:200]
        return ChoicePoint(
            self.side,
            "discard",
            f"discard {excess} card(s) to maximum hand size",
            "step_corp_turn_discard" if self.side == "corp" else "step_runner_turn_discard",
            tuple(Option(decision("discard", list(p)), ", ".join(p), "rule_discarding_process") for p in picks),
            default=len(picks) - 1,
            path=path(g),
        )

    def choose(self, g: Game, option: Option) -> Game:
        for cid in option.decision.value:
            g = move(g, str(cid), f"{self.side}.discard")
            if self.side == "corp":  # discarded from HQ: always facedown in Archives (rule_discarding_facedown_status)
                g = evolve(g, cards=g.cards.set(str(cid), replace(g.cards[str(cid)], faceup=False)))
        g = log(
            pop(g),
            "discard",
            f"the {self.side} discards {', '.join(option.decision.value)}",
            "rule_discarding_process",
            self.side,
            how="chosen",
        )
        # "whenever you discard cards to reach your maximum hand size": one event for the cards discarded
        return record(g, event("discarded", cards=tuple(str(c) for c in option.decision.value), player=self.side))
