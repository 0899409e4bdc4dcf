"""Roles and their rotation (R8-R12).

>>> roles = Roles(box="ann", captain="bob", sitter="cy")
>>> next_roles(roles, Role.BOX)
Roles(box='ann', captain='cy', sitter='bob')
>>> next_roles(roles, Role.CAPTAIN)
Roles(box='bob', captain='cy', sitter='ann')
>>> from referee.cards import parse_card
>>> roles_from_cut({"ann": parse_card("2S"), "bob": parse_card("KH"), "cy": parse_card("7D")})
Roles(box='bob', captain='cy', sitter='ann')
>>> verify_seating([1, 2, 3], cut={"1": parse_card("2S"), "2": parse_card("KH"), "3": parse_card("7D")})
Roles(box=2, captain=3, sitter=1)
>>> can_seat([1, 2, 3], roles={"box": 1, "captain": 2, "sitter": 4})
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.cards import Card
from referee.errors import CutError, RolesError

PlayerId = int | str


class Role(StrEnum):
    BOX = "box"
    CAPTAIN = "captain"
    SITTER = "sitter"


@dataclass(frozen=True, slots=True)
class Roles:
    """Who is in the box, who is captain, who sits out (R8)."""

    box: PlayerId
    captain: PlayerId
    sitter: PlayerId

    def __post_init__(self) -> None:
        if len({self.box, self.captain, self.sitter}) != 3:
            raise RolesError(
                "box, captain and sitter must be three different players", field="roles", roles=self.as_dict()
            )

    def of(self, role: Role) -> PlayerId:
        return {Role.BOX: self.box, Role.CAPTAIN: self.captain, Role.SITTER: self.sitter}[role]

    def role_of(self, player: PlayerId) -> Role:
        for role in Role:
            if self.of(role) == player:
                return role
        raise KeyError(player)

    def as_dict(self) -> dict[str, PlayerId]:
        return {"box": self.box, "captain": self.captain, "sitter": self.sitter}


def roles_from_cut(cut: Mapping[PlayerId, Card]) -> Roles:
    """R9: highest rank in the box, middle captain, lowest sits out. Ace is low,
    suits do not break ties: tied ranks raise :class:`CutError` naming the
    players who must cut again."""
    if len(cut) != 3:
        raise CutError(
            f"a cut needs one card from each of 3 players, not {len(cut)}", field="cut", players=sorted(cut, key=str)
        )
    by_rank: dict[int, list[PlayerId]] = {}
    for player, card in cut.items():
        by_rank.setdefault(card.rank, []).append(player)
    tied = [p for players in by_rank.values() if len(players) > 1 for p in players]
    if tied:
        cards = list(cut.values())
        if len(set(cards)) != len(cards):
            raise CutError("the three cut cards must be distinct cards", field="cut", players=tied)
        names = ", ".join(str(p) for p in tied)
        raise CutError(f"tied ranks: {names} must cut again (the whole cut is resubmitted)", field="cut", players=tied)
    order = sorted(cut, key=lambda p: cut[p].rank, reverse=True)
    return Roles(box=order[0], captain=order[1], sitter=order[2])


def next_roles(roles: Roles, winner: Role | None) -> Roles:
    """R11 after a hand won by ``winner`` (box or captain); R12: a draw (None)
    leaves the roles as they are."""
    if winner is None:
        return roles
    if winner is Role.BOX:
        return Roles(box=roles.box, captain=roles.sitter, sitter=roles.captain)
    if winner is Role.CAPTAIN:
        return Roles(box=roles.captain, captain=roles.sitter, sitter=roles.box)
    raise RolesError("the sitter never plays a hand", field="winner")


def verify_seating(
    players: Sequence[PlayerId], *, roles: Mapping[str, PlayerId] | None = None, cut: Mapping[str, Card] | None = None
) -> Roles:
    """The roles of a game's first hand (R8, R9): three different players,
    seated by the ``roles`` given (the game's three players) or by a ``cut``
    keyed by each player's id as written in decimal (``"7"``), one card each.
    Raises :class:`RolesError` or :class:`CutError` naming the field."""
    if len(set(players)) != 3:
        raise RolesError(
            f"three different players are needed, not {list(players)}", field="players", players=list(players)
        )
    if roles is not None:
        if sorted(roles.values(), key=str) != sorted(players, key=str):
            raise RolesError(
                "box, captain and sitter must be the game's three players", field="roles", value=dict(roles)
            )
        return Roles(**roles)
    if cut is None:
        raise CutError("a game is seated by a cut or by roles", field="cut", players=list(players))
    by_name = {str(p): p for p in players}
    by_player: dict[PlayerId, Card] = {}
    for key, card in cut.items():
        if key not in by_name:
            raise CutError(f"{key!r} is not one of the game's players", field=f"cut.{key}", value=key)
        by_player[by_name[key]] = card
    missing = [p for p in players if p not in by_player]
    if missing:
        raise CutError(f"each player cuts one card: missing {missing}", field="cut", players=missing)
    if len(set(by_player.values())) != 3:
        raise CutError("the three cut cards must be distinct cards", field="cut", players=list(players))
    return roles_from_cut(by_player)


def can_seat(
    players: Sequence[PlayerId], *, roles: Mapping[str, PlayerId] | None = None, cut: Mapping[str, Card] | None = None
) -> bool:
    """Whether :func:`verify_seating` would seat the table."""
    try:
        verify_seating(players, roles=roles, cut=cut)
    except (RolesError, CutError):
        return False
    return True
