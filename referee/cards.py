"""Cards and their notation (R1-R3).

A :class:`Card` is a suit and a rank. Its :attr:`Card.index` (0-51) *is* the
canonical order of R3: suits S, H, D, C, then ranks A to K, so sorting cards,
melds and arrangements by index-based keys gives the one canonical order.

>>> parse_card(" 10h ")
Card.parse('10H')
>>> str(parse_card("q♠"))
'QS'
>>> [str(c) for c in sort_cards(parse_cards(["KC", "as", "T♥️"]))]
['AS', '10H', 'KC']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_SUIT_ALIASES = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3, "♤": 0, "♡": 1, "♢": 2, "♧": 3}
_RANK_ALIASES = {r: i + 1 for i, r in enumerate(RANKS)}
_RANK_ALIASES.update({"1": 1, "T": 10})
_VARIATION_SELECTORS = "\ufe0f\ufe0e"


class CardSyntaxError(ValueError):
    """A string that is not a card (R3). ``text`` is the offending string."""

    rule = "R3"

    def __init__(self, text: object) -> None:
        self.text = text
        super().__init__(f"{text!r} is not a card")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 52 cards (R1). Fields are ordered so that comparison is the
    canonical order of R3.

    There is one object per card: ``Card(0, 1)`` is ``DECK[0]``, so a card
    hashes by identity, at C speed (the referee keeps cards in sets and dicts
    on every ruling)."""

    suit: int  # 0..3 for S, H, D, C
    rank: int  # 1..13 for A..K; Ace is always low (R1)
    #: Position in the canonical order, 0 (AS) to 51 (KC).
    index: int = field(init=False, compare=False, repr=False)
    #: Deadwood value (R2): A = 1, 2-10 face value, J Q K = 10.
    value: int = field(init=False, compare=False, repr=False)
    #: ``1 << index``: a hand's cards OR-ed together are its 52-bit mask.
    flag: int = field(init=False, compare=False, repr=False)

    def __new__(cls, suit: int, rank: int) -> Card:
        if type(suit) is int and type(rank) is int and 0 <= suit <= 3 and 1 <= rank <= 13:
            made = _MADE[suit * 13 + rank - 1]
            if made is not None:
                return made
        return object.__new__(cls)

    def __post_init__(self) -> None:
        if (
            type(self.suit) is not int
            or type(self.rank) is not int
            or not (0 <= self.suit <= 3 and 1 <= self.rank <= 13)
        ):
            raise CardSyntaxError(f"suit={self.suit}, rank={self.rank}")
        index = self.suit * 13 + self.rank - 1
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "value", self.rank if self.rank < 10 else 10)
        object.__setattr__(self, "flag", 1 << index)

    __hash__ = object.__hash__  # one object per card (above)

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        return Card, (self.suit, self.rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    def __str__(self) -> str:
        return _NAMES[self.index]  # one string per card, however many rulings name it

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_MADE: list[Card | None] = [None] * 52
_NAMES: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))


def _make_deck() -> tuple[Card, ...]:
    for s in range(4):
        for r in range(1, 14):
            _MADE[s * 13 + r - 1] = Card(s, r)
    return tuple(card for card in _MADE if card is not None)


DECK: tuple[Card, ...] = _make_deck()
#: each card by its own name (``str(card)``), the spelling nearly every hand is sent in: found at once
_BY_NAME: dict[str, Card] = {str(card): card for card in DECK}


def parse_card(text: str) -> Card:
    """Parse any spelling of R3 into a :class:`Card`.

    Raises :class:`CardSyntaxError` naming the string if it is not a card.

    >>> parse_card("TH"), parse_card("1c"), parse_card("♦️K".replace("♦️", "") + "♦️")
    (Card.parse('10H'), Card.parse('AC'), Card.parse('KD'))
    """
    found = _BY_NAME.get(text) if type(text) is str else None
    if found is not None:
        return found
    if not isinstance(text, str):
        raise CardSyntaxError(text)
    body = text.strip()
    if body and body[-1] in _VARIATION_SELECTORS:  # only right after the suit symbol
        body = body[:-1]
    if len(body) < 2:
        raise CardSyntaxError(text)
    rank_text, suit_char = body[:-1], body[-1]
    if not rank_text.isascii():  # no Unicode case folding into ASCII (e.g. U+017F)
        raise CardSyntaxError(text)
    suit = _SUIT_ALIASES.get(suit_char.upper() if suit_char.isascii() else suit_char)
    rank = _RANK_ALIASES.get(rank_text.upper())
    if suit is None or rank is None:
        raise CardSyntaxError(text)
    return DECK[suit * 13 + rank - 1]


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Parse several cards: a list of strings, or one string separated by spaces.

    >>> [str(c) for c in parse_cards("AS 2s 3♠")]
    ['AS', '2S', '3S']
    """
    if isinstance(texts, str):
        texts = texts.split()
    return [parse_card(t) for t in texts]


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in the canonical order of R3."""
    return sorted(cards)
