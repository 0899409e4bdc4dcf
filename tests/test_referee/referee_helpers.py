"""Shorthand for the referee tests, and the deal builder shared by the property tests.

>>> [str(c) for c in cards("as 2S 3♠")]
['AS', '2S', '3S']
>>> [strs(m) for m in melds("AS 2S 3S | 7H 7D 7C")]
[['AS', '2S', '3S'], ['7H', '7D', '7C']]
>>> [str(lo) for lo in layoffs("8H>0 9H>0")]
['8H -> 0', '9H -> 0']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from referee import DECK, Card, Layoff, Meld, least_deadwood, parse_card, parse_cards, verify_meld


def cards(text: str) -> list[Card]:
    """``cards("AS 2S 3S")``: cards in the order written."""
    return parse_cards(text)


def card(text: str) -> Card:
    return parse_card(text)


def melds(text: str) -> list[list[Card]]:
    """``melds("AS 2S 3S | 7H 7D 7C")``: declared melds as card lists, in the
    order written; ``melds("")`` is the empty (declared) list."""
    return [parse_cards(part) for part in text.split("|") if part.strip()]


def meld_objects(text: str) -> list[Meld]:
    """Like :func:`melds`, as verified :class:`Meld` values."""
    return [verify_meld(m) for m in melds(text)]


def layoffs(text: str) -> list[Layoff]:
    """``layoffs("8H>0 9H>0")``: the card, then the knocker meld's number."""
    out = []
    for item in text.split():
        name, meld = item.split(">")
        out.append(Layoff(parse_card(name), int(meld)))
    return out


def strs(items: Iterable[object]) -> list[str]:
    """Canonical strings of cards, melds, layoffs or arrangements."""
    return [str(x) for x in items]


def names(hand: Iterable[Card]) -> list[str]:
    return [str(c) for c in hand]


#: Property tests also run on loaded CI machines: no per-example deadline, no
#: "data generation is too slow" health check.
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- deals for the property tests ------------------------------------------------------
# One builder, two sources of choices: hypothesis (shrinks) and a seeded random.Random
# (counts what the builder makes, deterministically).


class Chooser(Protocol):
    def integer(self, low: int, high: int) -> int: ...
    def sample(self, items: Iterable[Any], k: int) -> list[Any]: ...


class RandomChooser:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def sample(self, items: Iterable[Any], k: int) -> list[Any]:
        return self.rng.sample(list(items), k)


class DrawChooser:
    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def sample(self, items: Iterable[Any], k: int) -> list[Any]:
        pool = list(items)
        if k == 1:  # the common case, and the cheapest draw
            return [pool[self.draw(st.integers(0, len(pool) - 1))]]
        picked = self.draw(st.lists(st.integers(0, len(pool) - 1), min_size=k, max_size=k, unique=True))
        return [pool[i] for i in picked]


def random_meld(ch: Chooser) -> set[Card]:
    """A set of 3 or 4 (R4) or a run of 3 to 5 (R5)."""
    if ch.integer(0, 1):
        rank = ch.integer(1, 13)
        return {DECK[s * 13 + rank - 1] for s in ch.sample(range(4), ch.integer(3, 4))}
    suit, length = ch.integer(0, 3), ch.integer(3, 5)
    low = ch.integer(1, 14 - length)
    return {DECK[suit * 13 + r - 1] for r in range(low, low + length)}


def _melds_into(ch: Chooser, wanted: int, avoid: set[Card]) -> list[Card]:
    hand: set[Card] = set()
    added = 0
    for _ in range(6):
        if added == wanted:
            break
        meld = random_meld(ch)
        if not meld & avoid and len(hand | meld) <= 10:
            hand |= meld
            added += 1
    return sorted(hand)


def _fill(ch: Chooser, hand: list[Card], taken: set[Card], budget: int) -> list[Card]:
    """Fill to 10 cards, keeping (while it can) the filler's value within ``budget``."""
    while len(hand) < 10:
        free = [c for c in DECK if c not in taken and c not in hand]
        allowed = budget - (9 - len(hand))
        cheap = [c for c in free if c.value <= allowed] or free
        pick = ch.sample(cheap, 1)[0]
        hand.append(pick)
        budget -= pick.value
    return hand


def build_knocker(ch: Chooser) -> list[Card]:
    """2-3 random melds plus filler worth about 0-11: often a legal knock, often gin."""
    return _fill(ch, _melds_into(ch, ch.integer(2, 3), set()), set(), ch.integer(0, 11))


def build_defender(ch: Chooser, knocker: Sequence[Card]) -> list[Card]:
    """0-3 melds of his own (undercuts), up to 4 cards near the knocker's
    (same rank, or same suit up to two ranks away: layoffs and chains), then filler."""
    taken = set(knocker)
    hand = _melds_into(ch, ch.integer(0, 3), taken)
    near = [
        c
        for c in DECK
        if c not in taken
        and c not in hand
        and any(c.rank == k.rank or (c.suit == k.suit and abs(c.rank - k.rank) <= 2) for k in knocker)
    ]
    hand += ch.sample(near, min(len(near), ch.integer(0, min(4, 10 - len(hand)))))
    return _fill(ch, hand, taken, ch.integer(0, 40))


def legal_knocker(ch: Chooser) -> list[Card]:
    """For the seeded loop: retry until the knock is legal (R14)."""
    while True:
        hand = build_knocker(ch)
        if least_deadwood(hand) <= 10:
            return hand


@st.composite
def knocker_hands(draw: st.DrawFn) -> list[Card]:
    return build_knocker(DrawChooser(draw))


def _legal(hand: list[Card]) -> bool:
    return least_deadwood(hand) <= 10


_ANY_KNOCKER = knocker_hands()
_LEGAL_KNOCKER = _ANY_KNOCKER.filter(_legal)  # R14, knock limit 10


@st.composite
def deals(draw: st.DrawFn, legal: bool = True) -> tuple[list[Card], list[Card]]:
    """(knocker's 10 cards, defender's 10 cards); with ``legal`` the knock is within R14."""
    knocker = draw(_LEGAL_KNOCKER if legal else _ANY_KNOCKER)
    return knocker, build_defender(DrawChooser(draw), knocker)


def random_hands(size: int = 10) -> st.SearchStrategy[list[Card]]:
    """Uniformly random hands (few melds)."""
    return st.lists(st.sampled_from(DECK), min_size=size, max_size=size, unique=True)


def meldy_hands(size: int = 10) -> st.SearchStrategy[list[Card]]:
    """Hands built around melds, half of the time uniformly random."""

    @st.composite
    def built(draw: st.DrawFn) -> list[Card]:
        ch = DrawChooser(draw)
        hand = _melds_into(ch, ch.integer(1, 4), set())
        free = [c for c in DECK if c not in hand]
        hand = hand[:size] + ch.sample(free, max(0, size - len(hand)))
        return draw(st.permutations(hand))

    return st.one_of(random_hands(size), built())
