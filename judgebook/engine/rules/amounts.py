"""Engine side of the `amounts` constructs: breaking X subroutines (the X paid), a number a player chooses,
repeating an ability's process (rule_repeat_this_process_x_times)."""

from __future__ import annotations

from itertools import combinations

from judgebook.engine.driver.choice import Option, decision
from judgebook.engine.errors import IllegalDecision
from judgebook.engine.language.cards import Ability
from judgebook.engine.language.context import Ctx
from judgebook.engine.state.model import Game, Side


def x_break_options(
    g: Game, side: Side, cid: str, ab: Ability, unbroken: list[int], allowance: int | None, label: str
) -> list[Option]:
    """ "X[c]: Break X subroutines": one option per set of unbroken subroutines, X being how many it breaks
    (rule_cost_x: X is chosen as the cost is paid); a set whose X the Runner cannot pay is not offered."""
    from judgebook.engine.rules import costs
    from judgebook.engine.state import queries as q

    assert ab.cost is not None
    most = len(unbroken) if allowance is None else min(len(unbroken), allowance)
    purpose = "break" if ab.brk is not None or "icebreaker" in q.definition(g, cid).subtypes else "use"
    out = []
    for n in range(1, most + 1):
        ctx = Ctx(cid, side, ab.id, x=n)
        if costs.refusal(g, costs.changed_cost(g, ab.cost, ctx), ctx, side, purpose) is not None:
            break
        for subs in combinations(unbroken, n):
            chosen = [i + 1 for i in subs]
            out.append(Option(decision("use", cid, ability=ab.id, subroutines=chosen, x=n),
                              f"{label} (X = {n}: subroutine {', '.join(map(str, chosen))})", "rule_cost_x"))
    return out


def check_x_break(g: Game, cid: str, subs: list[int] | None, x: int | None) -> None:
    """The subroutines a "break X" ability breaks are X of them, or every unbroken one when X is more."""
    from judgebook.engine.rules.frames import current_encounter
    from judgebook.engine.rules.values import subroutines

    enc = current_encounter(g)
    chosen = len(subs or [])
    unbroken = 0 if enc is None else len(subroutines(g, enc.ice)) - len(enc.broken)
    if x is None or chosen != min(x, unbroken):
        raise IllegalDecision(
            f"{cid} breaks X subroutines: X = {x}, but {chosen} subroutine(s) were named", "rule_cost_x"
        )
