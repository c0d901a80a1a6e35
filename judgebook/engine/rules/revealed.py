"""State changes and frames of the `reveal` family's constructs (judgebook.engine.language.revealed)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from judgebook.engine.language.context import Ctx
from judgebook.engine.rules.frames import Frame, pop, push
from judgebook.engine.state.model import Game, Side, evolve


@dataclass(frozen=True)
class TrashedThisWay(Frame):
    """Waits below the instructions of a `with_trashed`; when they are done, the cards trashed since `start`
    (the history's length as they began) are `chosen` for `then` (rule_checkpoint_after_instruction_resolution)."""

    ctx: Ctx
    then: tuple[Any, ...]
    start: int

    def step(self, g: Game) -> Game:
        from judgebook.engine.rules.resolve import resolve_now

        cards = tuple(
            f.event.get("card") for f in g.history[self.start :] if f.event.name == "trashed" and f.event.get("card")
        )
        ctx = replace(self.ctx, targets=(), chosen=cards)
        return resolve_now(pop(g), ctx, self.then, "rule_checkpoint_after_instruction_resolution")


def with_trashed(g: Game, ctx: Ctx, body: tuple[Any, ...], then: tuple[Any, ...]) -> Game:
    from judgebook.engine.rules.resolve import resolve_now

    g = push(g, TrashedThisWay(ctx, then, len(g.history)))
    return resolve_now(g, replace(ctx, targets=()), body, "rule_checkpoint_after_instruction_resolution")


def by_subroutine(g: Game, ice: str) -> bool:
    """Whether what happens now happens as a subroutine on `ice` resolves in its encounter: below the frames
    of the instruction itself (its checkpoint, its interrupt window's imminent part, a `with_trashed`), the
    next frame is that subroutine's resolution or the encounter at its resolve-subroutines step. A reaction
    window or another ability's resolution in between means another ability did it."""
    from judgebook.engine.rules.damage import Imminent
    from judgebook.engine.rules.encounter import Encounter
    from judgebook.engine.rules.resolve import Checkpoint, Resolve

    for frame in reversed(g.stack):
        if isinstance(frame, Checkpoint | Imminent | TrashedThisWay):
            continue
        if isinstance(frame, Resolve):
            if frame.ctx.source == ice and frame.ctx.ability.startswith("sub"):
                return True
            return False
        return isinstance(frame, Encounter) and frame.ice == ice and frame.at == "subroutines"
    return False


def revealed_event(g: Game, ctx: Ctx, targets: tuple[str, ...]) -> Game:
    """The cards one instruction revealed, as one event: "whenever you reveal the grip" happens once for the
    whole grip (rule_reveal). `player` is who revealed them; `cards` are they."""
    from judgebook.engine.rules.frames import event
    from judgebook.engine.rules.triggers import emit

    cards = tuple(c for c in targets if c in g.cards)
    if not cards:
        return g
    ev = event("revealed", cards=cards, player=ctx.controller)
    return emit(g, ev, f"the {ctx.controller} reveals {len(cards)} card(s)", "rule_reveal", ctx.controller)


def set_aside(g: Game, ctx: Ctx, targets: tuple[str, ...]) -> Game:
    """Move cards to the set-aside zone, faceup (rule_set_aside, rule_set_aside_default_faceup)."""
    from judgebook.engine.rules.effects import move
    from judgebook.engine.rules.frames import log

    for cid in targets:
        if cid not in g.cards:
            continue
        g = move(g, cid, "set_aside")
        g = evolve(g, cards=g.cards.set(cid, replace(g.cards[cid], faceup=True)))
        g = log(g, "set_aside", f"{cid} is set aside faceup", "rule_set_aside_default_faceup", ctx.controller,
                card=cid)
    return g


def set_aside_until(g: Game, ctx: Ctx, side: Side, filters: tuple[Any, ...], count: int) -> Game:
    """Set aside the top card of a deck, one at a time, until `count` set-aside cards match the filters or
    the deck is empty (rule_set_aside)."""
    found = 0
    while found < count and g.zone(f"{side}.deck"):
        cid = g.zone(f"{side}.deck")[0]
        hit = all(f.matches(g, ctx, cid) for f in filters)
        g = set_aside(g, ctx, (cid,))
        found += hit
    return g


def access_cards(g: Game, targets: tuple[str, ...]) -> Game:
    """The Runner accesses each card where it is, one after the other (sec_steps_accessing_card); a card they
    cannot access (or any but the only card they may access: Ash 2X3ZB9CY) is not accessed (rule_cannot_precedence)."""
    from judgebook.engine.rules.access import Access, _cannot_access, _only_accessible

    only = _only_accessible(g)
    allowed = [c for c in targets if c in g.cards and not _cannot_access(g, c) and (not only or c == only)]
    for cid in targets:
        if cid not in allowed and cid in g.cards:
            from judgebook.engine.rules.frames import log

            g = log(g, "cannot_access", f"{cid} cannot be accessed", "rule_cannot_precedence", "runner", card=cid)
    frames = [Access(cid) for cid in reversed(allowed)]
    return push(g, *frames) if frames else g


@dataclass(frozen=True)
class NameChoice(Frame):
    """The chooser names a card (rule_choice_instruction): any name; those of the cards in this game, and one
    that none of them has (standing for every other name: naming it finds no card)."""

    ctx: Ctx
    chooser: Side
    then: tuple[Any, ...]

    def step(self, g: Game) -> Any:
        from judgebook.engine.rules.frames import path
        from judgebook.engine.state.choice import ChoicePoint, Option, decision

        names = sorted({c.name for c in g.cards.values()}) + [OTHER_NAME]
        return ChoicePoint(
            self.chooser,
            "choose",
            "choose a card name",
            "rule_choice_instruction",
            tuple(Option(decision("choose", n), n, "rule_choice_instruction") for n in names),
            path=path(g),
        )

    def choose(self, g: Game, option: Any) -> Game:
        from judgebook.engine.rules.frames import log
        from judgebook.engine.rules.resolve import resolve_now

        name = str(option.decision.value)
        g = log(pop(g), "choose", f"the {self.chooser} chooses the name {name}", "rule_choice_instruction",
                self.chooser, how="chosen")
        return resolve_now(g, replace(self.ctx, named=name), self.then, "rule_choice_instruction")


OTHER_NAME = "(a name no card in this game has)"


def choose_name(g: Game, ctx: Ctx, chooser: Side, then: tuple[Any, ...]) -> Game:
    return push(g, NameChoice(ctx, chooser, then))


@dataclass(frozen=True)
class ProcessMark(Frame):
    """Below a `process`'s instructions: what an `again` inside them repeats; gone once they are done."""

    ctx: Ctx
    body: tuple[Any, ...]

    def step(self, g: Game) -> Game:
        return pop(g)


def process(g: Game, ctx: Ctx, body: tuple[Any, ...]) -> Game:
    from judgebook.engine.rules.resolve import resolve_now

    g = push(g, ProcessMark(ctx, body))
    return resolve_now(g, ctx, body, "rule_checkpoint_after_instruction_resolution")


def again(g: Game) -> Game:
    """The nearest process resolves again from its start (its mark stays below for a further `again`)."""
    from judgebook.engine.rules.frames import find, log
    from judgebook.engine.rules.resolve import resolve_now

    mark = find(g, ProcessMark)
    if mark is None:
        return g
    g = log(g, "repeat", "the process is repeated", "rule_checkpoint_after_instruction_resolution")
    g = resolve_now(g, mark.ctx, mark.body, "rule_checkpoint_after_instruction_resolution")
    # Abilities that became pending during this iteration resolve before the next begins (a checkpoint between
    # instructions: rule_checkpoint_after_instruction_resolution; NetrunnerDB ruling on Complete Image, 2019-04-27).
    from judgebook.engine.rules.frames import react_first

    return react_first(g) or g


def steal_accessed(g: Game, ctx: Ctx) -> Game:
    """"Steal it, ignoring all costs. (You are no longer accessing it.)": the agenda of the triggering access
    event, while the Runner is still accessing it, is stolen at once, skipping the rest of its access and any
    additional cost to steal it (NetrunnerDB ruling on Whistleblower, 2019-04-27). Its access ends as it moves
    (rule_moved_while_accessing): the "when accessed" abilities still pending for that access no longer
    resolve, and its access frame leaves the stack. A card that cannot be stolen stays accessed."""
    from judgebook.engine.rules import costs
    from judgebook.engine.rules.access import Access, _server_of_candidate
    from judgebook.engine.rules.effects import move
    from judgebook.engine.rules.frames import event, log
    from judgebook.engine.rules.triggers import emit
    from judgebook.engine.state import queries as q

    cid = ctx.event.get("card") if ctx.event is not None else None
    access = next((f for f in g.stack if isinstance(f, Access) and f.card == cid), None)
    if cid is None or access is None or cid not in g.cards or q.definition(g, cid).type != "agenda" \
            or (access.seen >= 0 and g.cards[cid].incarnation != access.seen):
        return log(g, "not_stolen", f"{cid} is not being accessed: nothing is stolen", "rule_moved_while_accessing",
                   "runner")
    if costs.cannot(g, "steal", "runner", card=cid):
        return log(g, "not_stolen", f"{cid} cannot be stolen", "rule_cannot_precedence", "runner")
    for p in g.pending:
        if p.event.name == "access" and p.event.get("card") == cid:
            g = log(g, "expired", f"{p.label} no longer resolves: {cid} is no longer being accessed",
                    "rule_moved_while_accessing", p.controller, card=p.card, ability=p.ability)
    g = evolve(g, pending=tuple(p for p in g.pending if not (p.event.name == "access" and p.event.get("card") == cid)),
               stack=tuple(f for f in g.stack if f is not access))
    server = _server_of_candidate(g, cid)
    g = move(g, cid, "runner.score")
    g = log(g, "access_ends", f"{cid} is stolen: its access ends", "rule_moved_while_accessing", "runner")
    return emit(g, event("stolen", card=cid, player="runner", server=server),
                f"the Runner steals {cid}, ignoring all costs", "step_access_agenda", "runner")


def used_optionally(g: Game, ctx: Ctx, side: Side, anchor: str = "rule_conditional_ability_used_condition") -> Game:
    """rule_using: a player who chooses to resolve an optional ability or an optional part of an ability (a
    "you may" cost paid, an "up to" choice of 1 or more cards, a "may" option taken) uses the ability and its
    source card: an `ability_used` event, neither an action nor a [trash] ability ("the first time each turn you
    use a piece of hardware"). Each optional part carried out is one such event (a trigger on it counts them
    with `first_this_turn` and the like)."""
    from judgebook.engine.rules.frames import event
    from judgebook.engine.rules.triggers import emit
    from judgebook.engine.state import queries as q

    cid = ctx.source
    if cid not in g.cards or side != ctx.controller:
        return g  # only the ability's controller uses it (an opponent's choice inside it is not a use)
    return emit(g, event("ability_used", card=cid, ability=ctx.ability, player=side, trash_cost=False,
                         type=q.definition(g, cid).type, action=False, optional=True),
                f"the {side} uses {cid}", anchor, side)
