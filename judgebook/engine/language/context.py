"""What an expression is evaluated against: the ability it belongs to, beside the game state."""

from __future__ import annotations

from dataclasses import dataclass, replace

from judgebook.engine.state.model import GameEvent, Side, other


@dataclass(frozen=True)
class Ctx:
    source: str  # the card whose ability this is
    controller: Side
    ability: str = ""
    event: GameEvent | None = None  # the event that made a conditional ability pending
    x: int = 0  # X chosen when a cost was paid
    targets: tuple[str, ...] = ()  # the cards chosen for the instruction being resolved
    chosen: tuple[str, ...] = ()  # the cards the ability chose earlier ("that program")
    paid: int = 0  # credits paid by the last nested cost
    server: str | None = None  # the server chosen for "run any server"
    since: int = 0  # delayed abilities: the game's sequence number when created
    named: str = ""  # a card name the ability chose ("choose a card name")
    incarnation: int | None = None  # the object `source` names, where it may have changed zones since (delayed)

    def side(self, who: str) -> Side:
        """`you` / `opponent` / `corp` / `runner` from this ability's point of view."""
        if who == "you":
            return self.controller
        if who == "opponent":
            return other(self.controller)
        if who in ("corp", "runner"):
            return who  # type: ignore[return-value]
        raise ValueError(who)

    def with_targets(self, targets: tuple[str, ...]) -> Ctx:
        return replace(self, targets=targets, chosen=targets or self.chosen)


PLAYER_WORDS = ("you", "opponent", "corp", "runner")


def player_phrase(who: str) -> str:
    return {"you": "you", "opponent": "your opponent", "corp": "the Corp", "runner": "the Runner"}[who]
