"""Pure reads of the game state: where cards are, what is installed and active."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judgebook.engine.state.model import Card, Game, Side

if TYPE_CHECKING:
    from judgebook.engine.language.cards import CardDef

CENTRAL = ("HQ", "R&D", "Archives")
CENTRAL_ZONES = {"HQ": "corp.hand", "R&D": "corp.deck", "Archives": "corp.discard"}


def definition(g: Game, cid: str) -> CardDef:
    card = g.cards[cid]
    if card.flipped or card.as_agenda is not None:  # its other face, or a card converted to an agenda
        return g.library.face(card)
    return g.library.card(card.name)


def ice_zone(server: str) -> str:
    return f"corp.server.{server}.ice"


def root_zone(server: str) -> str:
    return f"corp.server.{server}.root"


def server_of(g: Game, cid: str) -> str | None:
    """The server an installed Corp card (or a card hosted on one) is in."""
    card = g.cards[cid]
    if card.host is not None and card.zone.startswith("hosted."):
        return server_of(g, card.host)
    if card.zone.startswith("corp.server."):
        return card.zone.split(".")[2]
    return None


def is_installed(g: Game, cid: str) -> bool:
    card = g.cards[cid]
    if card.zone.startswith("hosted.") and card.host is not None:
        return not card.hosted_only and is_installed(g, card.host)
    return card.zone == "runner.rig" or card.zone.startswith("corp.server.")


def from_zone(g: Game, cid: str) -> str:
    """Where a card is, as an event that moves it records it (`from_zone`): installed, or the last part of its
    zone (hand, deck, discard, play, ...)."""
    card = g.cards[cid]
    if is_installed(g, cid):
        return "installed"
    return "hosted" if card.zone.startswith("hosted.") else card.zone.split(".")[-1]


def is_ice(g: Game, cid: str) -> bool:
    return g.cards[cid].zone.endswith(".ice")


def installed(g: Game, side: Side | None = None) -> list[str]:
    out: list[str] = []
    corp: list[str] = []
    for server in g.servers:
        corp += g.zone(root_zone(server)) + g.zone(ice_zone(server))
    if side in (None, "corp"):
        out += corp
    if side in (None, "runner"):
        out += g.zone("runner.rig")
    # Hosted cards are installed with their host, whoever owns the host (a Runner's trojan on a Corp ice),
    # unless they were hosted without being installed (rule_host_without_install).
    hosted = _installed_hosted(g, corp + list(g.zone("runner.rig")))
    out += [c for c in hosted if side is None or g.cards[c].owner == side]
    return out


def _installed_hosted(g: Game, hosts: list[str]) -> list[str]:
    found: list[str] = []
    todo = list(hosts)
    while todo:
        host = todo.pop()
        for cid in g.zone(f"hosted.{host}"):
            if g.cards[cid].hosted_only:  # not installed, nor is anything hosted on it
                continue
            found.append(cid)
            todo.append(cid)
    return found


def is_active(g: Game, cid: str) -> bool:
    """rule_active_cards: installed Runner cards (faceup), rezzed Corp cards, identities, agendas in
    the score area, currents, and events/operations being played."""
    card = g.cards[cid]
    if card.zone in ("corp.identity", "runner.identity", "corp.current", "runner.current", "play"):
        return True
    if card.zone in ("corp.score", "runner.score"):
        return True
    if not is_installed(g, cid):
        return False
    if card.owner == "runner":
        return card.faceup
    return card.rezzed or definition(g, cid).install_faceup


def printed_strength(g: Game, cid: str) -> int:
    return definition(g, cid).strength or 0


def zone_name(card: Card) -> str:
    """The zone in a player's words."""
    z = card.zone
    names = {
        "corp.hand": "HQ",
        "corp.deck": "R&D",
        "corp.discard": "Archives",
        "corp.score": "the Corp's score area",
        "runner.hand": "the grip",
        "runner.deck": "the stack",
        "runner.discard": "the heap",
        "runner.score": "the Runner's score area",
        "runner.rig": "the rig",
        "play": "the play area",
        "removed": "the removed-from-game zone",
        "corp.identity": "the Corp's identity",
        "runner.identity": "the Runner's identity",
    }
    if z in names:
        return names[z]
    if z.startswith("corp.server."):
        _, _, server, part = z.split(".", 3)
        return f"{'ice protecting' if part == 'ice' else 'the root of'} {server}"
    if z.startswith("hosted."):
        return f"hosted on {z[len('hosted.') :]}"
    return z


def agenda_points(g: Game, side: Side) -> int:
    return sum(definition(g, c).agenda_points + g.cards[c].count("agenda_points") for c in g.zone(f"{side}.score"))
