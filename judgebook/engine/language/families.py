"""The families of constructs beyond the grammar kernel, in one explicit list.

Each family module registers its instructions, statics, conditions, filters and quantities into the kernel's
registries when it is imported; importing them here, plainly, makes a renamed or broken family fail at import
rather than leave its words unknown. The card parser (`cards.py`) imports this list, so every card read sees
every family, and the kernel (`instructions.py` and the modules below it) imports none of them.
"""

from __future__ import annotations

from types import ModuleType

from judgebook.engine.language import (
    additional_costs,
    amounts,
    gained_abilities,
    identities,
    memory,
    movement,
    revealed,
    verbs,
)

FAMILIES: tuple[ModuleType, ...] = (
    additional_costs,
    amounts,
    gained_abilities,
    identities,
    memory,
    movement,
    revealed,
    verbs,
)
