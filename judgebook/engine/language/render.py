"""A whole card definition back to English: one line per ability, then one per subroutine.

Each construct renders itself (its registry class's `render`); this puts an ability's parts in the order
a printed card gives them — trigger, condition, "you may", cost, effects — so the rendering can be set
beside NetrunnerDB's text and compared with it (tests/test_pool_rendering.py).
"""

from __future__ import annotations

from judgebook.engine.language.cards import Ability, CardDef, Subroutine
from judgebook.engine.language.events import EVENT_PHRASES, ByPlayer, EventFilter, OnServer
from judgebook.engine.language.grammar import possessive
from judgebook.engine.language.instructions import render_all
from judgebook.engine.language.selectors import Ref

# The same events happening to the card itself ("When you score this agenda"): the printed self-reference.
SELF_EVENT_WORDS = {
    "scored": "you score this card",
    "stolen": "this card is stolen",
    "rezzed": "you rez this card",
    "installed": "you install this card",
    "trashed": "this card is trashed",   # "When the Runner trashes this asset"
    "access": "the Runner accesses this card",
    "encounter_ice": "the Runner encounters this card",
    "approach_ice": "the Runner approaches this card",
    "pass_ice": "the Runner passes this card",
    "advanced": "you advance this card",
    "forfeited": "you forfeit this card",
}


def render_trigger(ability: Ability) -> str:
    trig = ability.trigger
    if trig is None:
        return ""
    first = [f for f in trig.filters if f.name in ("first_this_turn", "first_this_run")]
    # "the ice is this card" reads as the printed "this ice": the card itself, not a target
    itself = [f for f in trig.filters if f.name in ("card", "ice") and getattr(f, "ref", None) == "self"]
    what = EVENT_PHRASES[trig.event]
    # a trigger on another named card ("the ice is the host card") names it in place of the event's generic
    # object: "when the Runner encounters the host card"
    named: list[EventFilter] = []
    for f in trig.filters:
        ref = getattr(f, "ref", None)
        generic = next((o for o in ("a piece of ice", "a card") if o in what), None)
        if f.name in ("card", "ice") and ref not in (None, "self") and generic and not named:
            what = what.replace(generic, Ref(str(ref)).render(), 1)
            named.append(f)
    # a player's own event ("your turn begins") says whose it is in place of a "the player is ..." filter
    owner = next((f for f in trig.filters if isinstance(f, ByPlayer)), None)
    if owner is not None and what.startswith("your "):
        what = f"{possessive(str(owner.who))} {what.removeprefix('your ')}"
        named.append(owner)
    # the server of a run event is part of its phrase: "approaches this server", "a successful run on HQ"
    server = next((f for f in trig.filters if isinstance(f, OnServer)), None)
    if server is not None:
        what = what.replace("a server", server.place()) if "a server" in what else f"{what} {server.render()}"
        named.append(server)
    rest = [f.render() for f in trig.filters if f not in first and f not in itself and f not in named]
    head = "the first time each " + ("turn" if first[0].name == "first_this_turn" else "run") if first else "when"
    if itself and not trig.event.startswith("would_"):
        what = SELF_EVENT_WORDS.get(trig.event, f"{what} (this card)")
    return f"{head} {what}" + (f" ({', '.join(rest)})" if rest else "")


def render_ability(ability: Ability) -> str:
    """One ability in printed order: "[interrupt] when …, if …, you may <cost>: <effects> (once per turn)"."""
    parts: list[str] = []
    if ability.interrupt:
        parts.append("[interrupt]")
    if ability.static is not None:
        text = ability.static.render()
        if ability.condition is not None:
            text = f"while {ability.condition.render()}, {text}"
        return " ".join(parts + [text])
    lead = render_trigger(ability)
    # a paid ability's `if:` is a use restriction, printed after it ("Use this ability only during a run")
    restriction = ability.condition is not None and ability.trigger is None and ability.cost is not None
    if ability.condition is not None and not restriction:
        lead = (lead + ", " if lead else "") + f"if {ability.condition.render()}"
    if lead:
        parts.append(lead + ",")
    if ability.optional:
        parts.append("you may")
    body = render_all(ability.effects)
    if ability.brk is not None:
        count = "X" if ability.brk.x else "all" if ability.brk.count is None else str(ability.brk.count)
        count = f"up to {count}" if ability.brk.up_to else count
        body = f"break {count} {ability.brk.subtype + ' ' if ability.brk.subtype else ''}subroutine"
        body += "s" if ability.brk.count != 1 else ""
        if ability.effects:  # what the ability does after breaking ("When this run ends, ...": Boomerang)
            body += f". {render_all(ability.effects)}"
    if ability.cost is not None:
        body = f"{ability.cost.render()}: {body}"
    parts.append(body)
    if restriction and ability.condition is not None:
        parts.append(f"(use this ability only if {ability.condition.render()})")
    if ability.once_per:
        parts.append(f"(use this ability only once per {ability.once_per})")
    if ability.access:
        parts.append("(usable while accessing this card)")
    return " ".join(p for p in parts if p)


def render_subroutine(sub: Subroutine) -> str:
    return f"[subroutine] {render_all(sub.effects)}"


# What hosted or recurring credits may pay for (`credits_for`), as a printed card says it.
CREDITS_FOR = {
    "icebreakers": "use these credits to pay for using icebreakers",
    "traces": "use these credits during traces",
    "install": "you can spend hosted credits to pay install costs",
    "run": "you can spend hosted credits during that run",
    "any": "",
}


def render_card(card: CardDef) -> list[str]:
    """The definition as English, a line per ability and per subroutine, in the definition's order (then what
    its credits pay for)."""
    lines = [render_ability(a) for a in card.abilities]
    if card.recurring:
        lines.insert(0, f"{card.recurring}[recurring-credit]")
    if card.credits_for and card.credits_for != "any":
        lines.append(CREDITS_FOR.get(card.credits_for, f"you can spend hosted credits for: {card.credits_for}"))
    lines += [render_subroutine(s) for s in card.subroutines]
    return lines
