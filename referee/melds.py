"""Melds and arrangements (R4-R7), in the canonical order of R3.

>>> from referee.cards import parse_cards
>>> m = verify_meld(parse_cards("3s as 2S"))
>>> str(m), str(m.kind)
('AS 2S 3S', 'run')
>>> is_meld(parse_cards("QH KH AH"))
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.cards import DECK, Card, parse_cards
from referee.errors import MeldError


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"


def _kind_of(cards: Sequence[Card]) -> MeldKind | None:
    if len(cards) < 3:
        return None
    ranks = {c.rank for c in cards}
    if len(ranks) == 1 and len(cards) <= 4:
        return MeldKind.SET  # R4
    suits = {c.suit for c in cards}
    if len(suits) == 1:
        rs = sorted(c.rank for c in cards)
        if rs == list(range(rs[0], rs[0] + len(rs))):
            return MeldKind.RUN  # R5: Ace low, no wrap past K
    return None


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid set or run; ``cards`` are in canonical order."""

    cards: tuple[Card, ...]

    @property
    def kind(self) -> MeldKind:
        kind = _kind_of(self.cards)
        assert kind is not None
        return kind

    @property
    def key(self) -> tuple[int, ...]:
        return tuple(c.index for c in self.cards)

    @property
    def value(self) -> int:
        return sum(c.value for c in self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self.cards)

    @classmethod
    def parse(cls, text: str) -> Meld:
        return verify_meld(parse_cards(text))


def is_meld(cards: Sequence[Card]) -> bool:
    """True if the cards form a set (R4) or a run (R5)."""
    return len(set(cards)) == len(cards) and _kind_of(cards) is not None


def verify_meld(cards: Sequence[Card]) -> Meld:
    """Return the :class:`Meld`, or raise :class:`MeldError` (R4, R5)."""
    if len(set(cards)) != len(cards):
        raise MeldError("a meld lists a card twice", rule="R6", meld=[str(c) for c in cards])
    if _kind_of(cards) is None:
        text = " ".join(str(c) for c in cards)
        rule = "R5" if len({c.rank for c in cards}) > 1 else "R4"
        raise MeldError(f"{text} is not a set (R4) or a run (R5)", rule=rule, meld=[str(c) for c in cards])
    return Meld(tuple(sorted(cards)))


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Disjoint melds of a hand plus its deadwood (R6, R7), canonically ordered."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]

    @property
    def deadwood_count(self) -> int:
        return sum(c.value for c in self.deadwood)

    @property
    def key(self) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """R3: fewer melds first, then meld lists card by card."""
        return (len(self.melds), tuple(m.key for m in self.melds))

    def __str__(self) -> str:
        parts = [str(m) for m in self.melds]
        if self.deadwood:
            parts.append("deadwood " + " ".join(str(c) for c in self.deadwood))
        return " | ".join(parts)


def make_arrangement(hand: Iterable[Card], melds: Iterable[Meld]) -> Arrangement:
    """Arrange ``melds`` canonically; the other cards of ``hand`` are deadwood."""
    ordered = tuple(sorted(melds, key=lambda m: m.key))
    used = {c for m in ordered for c in m.cards}
    return Arrangement(ordered, tuple(sorted(c for c in hand if c not in used)))


def all_melds(cards: Iterable[Card]) -> list[Meld]:
    """Every meld the cards can make: each set of 3 or 4 (R4, every 3 of a 4)
    and each run of 3 or more (R5), in canonical order."""
    hand = sorted(set(cards))
    present = {c.index for c in hand}
    found: list[Meld] = []
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
    for same in by_rank.values():
        if len(same) >= 3:
            if len(same) == 4:
                found.append(Meld(tuple(same)))
            for skip in range(len(same)) if len(same) == 4 else [None]:
                found.append(Meld(tuple(c for i, c in enumerate(same) if i != skip)))
    for c in hand:
        length = 1
        while c.rank + length <= 13 and c.index + length in present:
            length += 1
            if length >= 3:
                found.append(Meld(tuple(DECK[c.index + k] for k in range(length))))
    found.sort(key=lambda m: (m.key, len(m)))
    return found
