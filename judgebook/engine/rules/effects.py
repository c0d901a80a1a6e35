"""State changes the instructions are made of, each producing the events abilities listen to."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.language.statics import Static
from judgebook.engine.rules.frames import current_encounter, current_run, event, log
from judgebook.engine.rules.triggers import emit, record
from judgebook.engine.state import queries as q
from judgebook.engine.state.model import Duration, Game, Lasting, Side, evolve


def set_player(g: Game, side: Side, **changes: Any) -> Game:
    new = replace(g.player(side), **changes)
    return evolve(g, corp=new) if side == "corp" else evolve(g, runner=new)


def amount_possible(g: Game, name: str, side: Side, n: int) -> bool:
    p = g.player(side)
    limits = {
        "lose_credits": p.credits,
        "lose_clicks": p.clicks,
        "remove_tags": p.tags,
        "remove_bad_publicity": g.corp.bad_publicity,
        "draw": len(g.zone(f"{side}.deck")),
    }
    return name not in limits or limits[name] >= n


def apply_amount(g: Game, ctx: Ctx, name: str, side: Side, n: int) -> Game:
    p = g.player(side)
    if name == "gain_credits":
        from judgebook.engine.rules.costs import cannot

        if cannot(g, "gain_credits", side):
            return log(g, "cannot_gain", f"the {side} cannot gain credits", "rule_cannot_precedence", side)
        g = set_player(g, side, credits=p.credits + n)
        g = log(
            g,
            "credits",
            f"the {side} gains {n}[c] ({p.credits} → {p.credits + n})",
            "rule_gain_credits",
            side,
            changes=(f"{side} credits {p.credits} → {p.credits + n}",),
        )
        # Remembered and seen by triggers, with the card whose ability gave them (The Zwicky Group).
        if n <= 0:
            return g
        known = ctx.source in g.cards
        source = q.definition(g, ctx.source).type if known else None
        return record(g, event("credits_gained", player=side, amount=n, card=ctx.source if known else None,
                               source_type=source))
    if name == "lose_credits":
        lost = min(n, p.credits)  # as much as possible (rule_do_as_much_as_you_can)
        g = set_player(g, side, credits=p.credits - lost)
        g = log(
            g,
            "credits",
            f"the {side} loses {lost}[c]",
            "rule_do_as_much_as_you_can",
            side,
            changes=(f"{side} credits {p.credits} → {p.credits - lost}",),
        )
        from judgebook.engine.rules.memory import credits_taken

        return credits_taken(g, ctx, side, lost)  # "causes the Runner to spend or lose credits" (GameNET)
    if name == "gain_clicks":
        from judgebook.engine.rules.memory import clicks_gained

        return clicks_gained(set_player(g, side, clicks=p.clicks + n), side, n)  # remembered (Pichação)
    if name == "lose_clicks":
        g = set_player(g, side, clicks=max(0, p.clicks - n))
        return emit(
            g,
            event("clicks_spent", player=side, amount=min(n, p.clicks)),
            f"the {side} loses {n}[click]",
            "rule_cost",
            side,
        )
    if name == "draw":
        return draw(g, side, n)
    if name == "give_tags":
        g = set_player(g, "runner", tags=g.runner.tags + n)
        taken = event("tags_taken", amount=n, by=ctx.controller)
        return emit(g, taken, f"the Runner takes {n} tag(s)", "rule_tag", "runner")
    if name == "remove_tags":
        removed = min(n, g.runner.tags)
        g = set_player(g, "runner", tags=g.runner.tags - removed)
        if not removed:
            return log(g, "tags", "no tag to remove", "rule_tag", "runner")
        # "Whenever you remove 1 or more tags" (Amanuensis, Valentina Ferreira Carvalho).
        return tags_removed(g, removed, "rule_tag", side)
    if name == "bad_publicity":
        return set_player(g, "corp", bad_publicity=g.corp.bad_publicity + n)
    if name == "remove_bad_publicity":
        g = set_player(g, "corp", bad_publicity=max(0, g.corp.bad_publicity - n))
        return log(g, "bad_publicity", f"{n} bad publicity removed", "rule_do_as_much_as_you_can", "corp")
    raise ValueError(name)


def tags_removed(g: Game, n: int, anchor: str, by: Side = "runner") -> Game:
    """Tags leave the Runner (an instruction, a cost, the basic action): abilities may trigger on it."""
    return emit(g, event("tags_removed", amount=n, player=by), f"{n} tag(s) removed", anchor, "runner")


def purge(g: Game, side: Side) -> Game:
    """Purging removes every virus counter (rule_purge), by the basic action or an instruction."""
    for cid, card in g.cards.items():
        if card.count("virus"):
            g = evolve(g, cards=g.cards.set(cid, card.with_counter("virus", -card.count("virus"))))
    return emit(g, event("purge", player=side), "the Corp purges virus counters", "rule_purge", side)


def draw(g: Game, side: Side, n: int, action: bool = False, looked: bool = False) -> Game:
    """Draw n cards; `action`: the basic action's draw; `looked`: an interrupt already looked at the deck."""
    from judgebook.engine.rules.costs import cannot

    if cannot(g, "draw", side):
        return log(g, "cannot_draw", f"the {side} cannot draw cards", "rule_cannot_precedence", side)
    if not looked:  # "the first time each turn you would draw…" (language/identities.py)
        from judgebook.engine.rules.identities import look_before_draw

        pushed = look_before_draw(g, side, n, action)
        if pushed is not None:
            return pushed
    deck = g.zone(f"{side}.deck")
    if side == "corp" and n > len(deck):
        return win(g, "runner", "rnd_empty", "rule_empty_rnd")
    taken = deck[:n]
    for cid in taken:
        g = move(g, cid, f"{side}.hand")
    return emit(
        g,
        event("drawn", player=side, amount=len(taken), action=True if action else None),
        f"the {side} draws {len(taken)} card(s)",
        "rule_draw_procedure",
        side,
    )


def move(g: Game, cid: str, zone: str, index: int | None = None) -> Game:
    """Move a card; a move to a new zone makes a new object (rule_new_object): counters and rez state go."""
    card = g.cards[cid]
    was_installed = q.is_installed(g, cid)
    was_active = was_installed and q.is_active(g, cid)
    zones = dict(g.zones)
    left = zones.get(card.zone, ())
    removed = left.index(cid) if cid in left else None
    zones[card.zone] = tuple(c for c in left if c != cid)
    here = list(zones.get(zone, ()))
    inserted = len(here) if index is None else index
    here.insert(inserted, cid)
    zones[zone] = tuple(here)
    from judgebook.engine.state.fmap import FMap

    keep = zone.startswith("corp.server.") and card.zone.startswith("corp.server.")
    new = replace(
        card,
        zone=zone,
        host=None if not zone.startswith("hosted.") else card.host,
        hosted_only=False,  # a new place: the mover says if it is hosted without being installed
        rezzed=card.rezzed and keep,
        counters=card.counters if keep else FMap(),
        last_counters=card.last_counters if keep else FMap(),
        incarnation=card.incarnation + (0 if keep else 1),
        faceup=card.faceup if keep else not zone.endswith(("corp.deck", "corp.hand")),
        # a card converted to an agenda stays one only in a score area (rule_add_card_to_score_area)
        as_agenda=card.as_agenda if zone.endswith(".score") else None,
    )
    hosted = g.zone(f"hosted.{cid}")
    g = evolve(g, zones=FMap(zones), cards=g.cards.set(cid, new))
    if card.zone.endswith(".ice") or zone.endswith(".ice"):
        # A piece of ice leaves or takes a position: the Runner's position stays where it is (rules/positions.py).
        from judgebook.engine.rules.positions import shift

        if card.zone.endswith(".ice"):
            g = shift(g, card.zone.split(".")[2], cid, removed=removed)
        if zone.endswith(".ice"):
            g = shift(g, zone.split(".")[2], cid, inserted=inserted)
    if zone.endswith(".score") and not card.zone.endswith(".score"):  # a card's own way of entering (Vacheron)
        from judgebook.engine.rules.identities import entered_score

        g = entered_score(g, cid, card.zone)
    if hosted and not keep and not zone.startswith(("corp.server.", "runner.rig")):
        for h in hosted:  # hosted cards are trashed with their host (rule_hosted_host_leaves)
            g = move(g, h, f"{g.cards[h].owner}.discard")
    if was_installed and not q.is_installed(g, cid):
        from judgebook.engine.rules.movement import uninstalled

        g = uninstalled(g, cid, was_active)
    if zone == "corp.discard" and card.owner == "corp" and card.zone != zone:
        from judgebook.engine.rules.memory import added_to_archives

        g = added_to_archives(g, cid)  # "if no Corp cards have been added to Archives this turn" (Regenesis)
    return g


def trash(g: Game, cid: str, by: Side | None, cause: str = "", during_install: bool = False,
          source: str = "", anchor: str = "rule_trashing") -> Game:
    """`anchor`: the rule that has it trashed, where one decides it (a restriction the checkpoint enforces)."""
    card = g.cards[cid]
    d = q.definition(g, cid)
    was_installed = q.is_installed(g, cid)
    server = q.server_of(g, cid)  # where it was installed, for "whenever a card is trashed from this server"
    was_active = q.is_active(g, cid)  # its "when trashed" abilities see the move only if it was active
    g = move(g, cid, f"{card.owner}.discard")
    if cause == "cost" or by == card.owner:
        # A card its own player trashes (a [trash] cost, "you may trash this asset. If you do…") leaves its
        # abilities the counters it left play with (last known information); one the opponent trashed hosts
        # none when a later ability counts them (NetrunnerDB ruling on Conduit, 2021-10-10). An
        # approximation: the rule is about the ability trashing its own card.
        g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], last_counters=card.counters)))
    if card.owner == "corp":
        g = replace(
            g, cards=g.cards.set(cid, replace(g.cards[cid], faceup=not was_installed or card.rezzed or bool(cause)))
        )
    return emit(
        g,
        event(
            "trashed",
            card=cid,
            type=d.type,
            player=card.owner,
            by=by,
            installed=was_installed,
            from_zone="installed" if was_installed else card.zone.split(".")[-1],
            server=server,
            active=was_active,
            rezzed=card.rezzed,
            cost=cause == "cost" or None,
            during_install=during_install,  # "except during installation" (Yakov Erikovich Avdakov)
            source=source or None,  # the card whose instruction trashed it ("with this ice": Sorocaban Blade)
        ),
        f"{cid} is trashed",
        anchor,
        by,
    )


def forfeit(g: Game, cid: str, side: Side) -> Game:
    """Forfeiting an agenda moves it from a score area to the removed-from-game zone (movement_forfeit,
    rule_forfeit_rfg); "when you forfeit" abilities see the move."""
    g = move(g, cid, f"{g.cards[cid].owner}.removed")
    return emit(g, event("forfeited", card=cid, player=side), f"the {side} forfeits {cid}", "rule_forfeit_rfg", side)


def remove_from_game(g: Game, cid: str, side: Side) -> Game:
    counters = g.cards[cid].counters
    g = move(g, cid, f"{g.cards[cid].owner}.removed")
    if side == g.cards[cid].owner:  # as for a trash: its own ability still sees the counters it left play with
        g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], last_counters=counters)))
    return log(g, "removed", f"{cid} is removed from the game", "rule_rfg_move", side, card=cid)


def apply_to_cards(g: Game, ctx: Ctx, name: str, targets: tuple[str, ...]) -> Game:
    if name == "trash":
        # One instruction trashing several cards: one interrupt window, then all are trashed.
        from judgebook.engine.rules.damage import Part, imminent

        parts = tuple(Part("trash", 1, card=cid, by=ctx.controller) for cid in targets if cid in g.cards)
        return imminent(g, parts, ctx.source) if parts else g
    for cid in targets:
        if cid not in g.cards:
            continue
        card = g.cards[cid]
        if name == "rez":
            g = rez(g, cid, paid=False)
        elif name == "derez":
            # An inactive card maintains no choice: a new one is made when it is rezzed again.
            g = evolve(g, cards=g.cards.set(cid, replace(card, rezzed=False, chosen=None)))
            # An event ("whenever host ice is rezzed or derezzed": Saci).
            g = emit(g, event("derezzed", card=cid, player=card.owner), f"{cid} is derezzed", "rule_rez_procedure",
                     ctx.controller)
        elif name == "expose":
            # Only an installed card that is not rezzed can be exposed (rule_expose).
            if not q.is_installed(g, cid) or card.rezzed:
                g = log(g, "not_exposed", f"{cid} cannot be exposed", "rule_expose", ctx.controller, card=cid)
            else:
                g = log(g, "expose", f"{cid} is exposed", "rule_expose", ctx.controller, card=cid)
        elif name == "choose_card":
            source = g.cards[ctx.source]
            g = evolve(g, cards=g.cards.set(ctx.source, replace(source, chosen=cid)))
            # The choice lasts while the source stays active (derezzing it clears it, below).
            g = log(g, "chosen", f"{ctx.source} chooses {cid}",
                    "rule_lingering_effect_maintaining_choice_duration_other_cases", ctx.controller, card=cid)
        elif name == "turn_faceup":
            g = evolve(g, cards=g.cards.set(cid, replace(card, faceup=True)))
            g = log(g, "turn_faceup", f"{cid} is turned faceup", "rule_archives_faceup_facedown", ctx.controller,
                    card=cid)
        elif name in ("reveal", "look_at"):
            words = {"reveal": ("is revealed", "rule_reveal"), "look_at": ("is looked at", "rule_look")}[name]
            g = log(g, name, f"{cid} {words[0]}", words[1], ctx.controller, card=cid)
        elif name == "add_to_hand":
            g = move(g, cid, f"{card.owner}.hand")
        elif name == "add_to_top_of_deck":
            g = move(g, cid, f"{card.owner}.deck", 0)
        elif name in ("add_to_bottom_of_deck", "shuffle_into_deck"):
            g = move(g, cid, f"{card.owner}.deck")
        elif name == "turn_facedown":
            # The same object, now facedown (rule_object_turn_faceup_facedown).
            g = evolve(g, cards=g.cards.set(cid, replace(card, faceup=False)))
            g = log(g, "facedown", f"{cid} is turned facedown", "rule_object_turn_faceup_facedown", ctx.controller,
                    card=cid)
        else:
            raise ValueError(name)
    if name == "reveal":  # one event for the cards one instruction reveals together ("whenever you reveal")
        from judgebook.engine.rules.revealed import revealed_event

        g = revealed_event(g, ctx, targets)
    return g


def rez(g: Game, cid: str, paid: bool) -> Game:
    card = g.cards[cid]
    g = evolve(g, cards=g.cards.set(cid, replace(card, rezzed=True)))
    d = q.definition(g, cid)
    if d.recurring:
        g = evolve(g, cards=g.cards.set(cid, g.cards[cid].with_counter("credit", d.recurring)))
    rezzed = event("rezzed", card=cid, type=d.type, player="corp")  # only the Corp rezzes: `player: you` reads it
    return emit(g, rezzed, f"{cid} is rezzed", "rule_rez_procedure", "corp")


COUNTER_TYPES = {"credit": "rule_type_credit_counter", "advancement": "rule_type_advancement_counter",
                 "virus": "rule_type_virus_counter", "power": "rule_type_power_counter",
                 "agenda": "rule_type_agenda_counter", "condition": "rule_type_condition_counter"}


def counter_rule(kind: str, delta: int) -> str:
    """The rule a step placing or removing counters cites: advancement counters placed directly are not an
    advance (rule_placing_advancement_counter); other counters placed come from the bank (rule_bank_default);
    counters removed go by their type's rule (rule_counter_types)."""
    if delta > 0:
        return "rule_placing_advancement_counter" if kind == "advancement" else "rule_bank_default"
    return COUNTER_TYPES.get(kind, "rule_counters_cards")


def counters(g: Game, targets: tuple[str, ...], kind: str, delta: int) -> Game:
    for cid in targets:
        g = evolve(g, cards=g.cards.set(cid, g.cards[cid].with_counter(kind, delta)))
        g = log(
            g,
            "counters",
            f"{abs(delta)} {kind} counter(s) {'placed on' if delta > 0 else 'removed from'} {cid}",
            counter_rule(kind, delta),
            changes=(f"{cid} {kind} counters {'+' if delta > 0 else ''}{delta}",),
        )
    return g


def shuffle(g: Game, side: Side) -> Game:
    # Random order is not modelled: the deck keeps its order, which is one of the possible outcomes.
    return log(g, "shuffle", f"the {side}'s deck is shuffled", "rule_draw_procedure", side)


def win(g: Game, side: Side, reason: str, anchor: str) -> Game:
    if g.winner is not None:
        return g
    g = evolve(g, winner=side, win_reason=reason)
    return log(g, "win", f"the {side} wins ({reason.replace('_', ' ')})", anchor, side)


def create_lasting(
    g: Game, ctx: Ctx, effect: Static | None, duration: str, ability: Any = None, condition: Any = None
) -> Game:
    key = 0
    player: Side | None = None
    kind = duration
    if duration == "encounter":
        enc = current_encounter(g)
        key = int(enc.seq) if enc else -1
    elif duration == "run":
        run = current_run(g)
        key = int(run.seq) if run else g.runs + 1  # created before a run: for the next run
        enc = current_encounter(g)
        if run is None and enc is not None and getattr(effect, "name", "") == "strength":
            # A strength change "for the remainder of the run" made in an encounter outside a run lasts for
            # the remainder of that encounter (rule_ice_strength_modification_duration).
            kind, key, duration = "encounter", int(enc.seq), "encounter"
            g = log(g, "duration", "no run is in progress: the strength change lasts for the remainder of the "
                    "encounter", "rule_ice_strength_modification_duration", ctx.controller, card=ctx.source)
    elif duration == "turn":
        key = g.turn
    elif duration.startswith("until"):
        player = ctx.controller if "your" in duration else ("runner" if ctx.controller == "corp" else "corp")
        kind = "until_turn_begins" if duration.endswith("begins") else "until_turn_end"
    # "That icebreaker gets +2 strength for the remainder of the turn": with no card chosen, the lasting
    # effect's card is the triggering event's card (its `chosen`).
    target = ctx.chosen[0] if ctx.chosen else (
        (ctx.event.get("card") or ctx.event.get("ice")) if ctx.event is not None else None
    )
    lasting = Lasting(
        effect,
        Duration(kind, key, player, started=False, condition=condition),
        ctx.source,
        ctx.controller,
        target,
        ability,
        since=g.seq,
        named=ctx.named,
        incarnation=(g.cards[ctx.source].incarnation
                     if ability is not None and ctx.source in g.cards and q.is_installed(g, ctx.source) else None),
    )
    g = evolve(g, lasting=g.lasting + (lasting,))
    what = effect.render() if effect is not None else "a delayed conditional ability"
    return log(
        g,
        "lasting",
        f"{what} ({duration.replace('_', ' ')})",
        "rule_lingering_effect" if effect is not None else "rule_delayed_conditional_ability",
        ctx.controller,
        card=ctx.source,
    )
