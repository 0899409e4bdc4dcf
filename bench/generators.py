"""Seeded hand and deal generators for the benchmark suite.

Every generator takes a ``seed`` and uses its own ``random.Random(seed)``, so
the same call always gives the same cards. Cards are canonical strings
(R3): rank ``A 2-10 J Q K`` then suit ``S H D C``, e.g. ``"AS"``, ``"10H"``,
``"KC"``. Hands are returned in a shuffled order (engines must not rely on
sorted input), and within one call no hand (or deal) is repeated, so an
engine's internal memoisation cannot turn a benchmark into a cache test.

This module is self-contained (it does not import the referee): it carries a
small exact least-deadwood solver of its own, used only to shape the knock
deals (knocker within the knock limit, gins, layoff cards, undercuts).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

SUITS = "SHDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
KNOCK_LIMIT = 10

# Internal card form: index = suit * 13 + rank - 1 (suit 0..3 = S H D C,
# rank 1..13 = A..K), the canonical order of R3.


def card_str(index: int) -> str:
    """Canonical string of a card index 0..51."""
    return RANKS[index % 13] + SUITS[index // 13]


def card_index(text: str) -> int:
    """Index 0..51 of a canonical card string (only canonical input)."""
    return SUITS.index(text[-1]) * 13 + RANKS.index(text[:-1])


def card_value(index: int) -> int:
    """Deadwood value (R2)."""
    rank = index % 13 + 1
    return min(rank, 10)


def _strs(indices: Iterable[int]) -> list[str]:
    return [card_str(i) for i in indices]


# --------------------------------------------------------------------------
# A small exact deadwood solver (bitmask DFS over all melds of the hand).
# --------------------------------------------------------------------------


def all_melds(cards: Iterable[int]) -> list[int]:
    """Every meld (R4, R5) formable from ``cards``, as 52-bit masks: sets of 3
    and 4, every 3-subset of a 4-set, and every run of length >= 3."""
    held = 0
    for c in cards:
        held |= 1 << c
    melds: list[int] = []
    for suit in range(4):
        base = suit * 13
        r = 0
        while r < 13:
            if not held >> (base + r) & 1:
                r += 1
                continue
            end = r
            while end + 1 < 13 and held >> (base + end + 1) & 1:
                end += 1
            for lo in range(r, end - 1):
                for hi in range(lo + 2, end + 1):
                    mask = 0
                    for k in range(lo, hi + 1):
                        mask |= 1 << (base + k)
                    melds.append(mask)
            r = end + 1
    for rank in range(13):
        suits = [s for s in range(4) if held >> (s * 13 + rank) & 1]
        if len(suits) >= 3:
            full = 0
            for s in suits:
                full |= 1 << (s * 13 + rank)
            melds.append(full)
            if len(suits) == 4:
                for s in suits:
                    melds.append(full & ~(1 << (s * 13 + rank)))
    return melds


def _mask_value(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += card_value(low.bit_length() - 1)
        mask ^= low
    return total


def best_arrangements(cards: Sequence[int]) -> tuple[int, list[list[int]]]:
    """Least deadwood of ``cards`` and every arrangement (list of meld masks)
    that reaches it (including sub-arrangements that leave the same count)."""
    total = sum(card_value(c) for c in cards)
    melds = all_melds(cards)
    values = [_mask_value(m) for m in melds]
    best = [0]
    found: list[list[int]] = [[]]

    def dfs(start: int, used: int, melded: int, chosen: list[int]) -> None:
        if melded > best[0]:
            best[0] = melded
            found.clear()
        if melded == best[0]:
            found.append(list(chosen))
        for i in range(start, len(melds)):
            m = melds[i]
            if m & used:
                continue
            chosen.append(m)
            dfs(i + 1, used | m, melded + values[i], chosen)
            chosen.pop()

    dfs(0, 0, 0, [])
    return total - best[0], found


def least_deadwood(cards: Sequence[int]) -> int:
    """Least deadwood count (R7) of a hand of card indices."""
    return best_arrangements(cards)[0]


def _layoff_cards(meld: int, taken: int) -> list[list[int]]:
    """Chains of cards that could be laid off onto ``meld`` (R15), skipping
    cards in ``taken``: the fourth card of a 3-set, or 1-2 consecutive cards
    beyond either end of a run (never past Ace or King)."""
    cards = [i for i in range(52) if meld >> i & 1]
    if len({c % 13 for c in cards}) == 1:  # a set
        if len(cards) != 3:
            return []
        rank = cards[0] % 13
        fourth = next(s * 13 + rank for s in range(4) if s * 13 + rank not in cards)
        return [] if taken >> fourth & 1 else [[fourth]]
    suit = cards[0] // 13
    lo, hi = min(c % 13 for c in cards), max(c % 13 for c in cards)
    chains: list[list[int]] = []
    for step, edge in ((-1, lo), (1, hi)):
        chain: list[int] = []
        r = edge + step
        while 0 <= r < 13 and len(chain) < 2:
            c = suit * 13 + r
            if taken >> c & 1:
                break
            chain.append(c)
            chains.append(list(chain))
            r += step
    return chains


# --------------------------------------------------------------------------
# Meld builders
# --------------------------------------------------------------------------


def _random_set(rng: random.Random, rank: int | None = None) -> list[int]:
    if rank is None:
        rank = rng.randrange(13)
    size = 4 if rng.random() < 0.3 else 3
    return [s * 13 + rank for s in rng.sample(range(4), size)]


def _random_run(rng: random.Random, rank: int | None = None) -> list[int]:
    """A run of 3-5 cards; if ``rank`` is given the run passes through it (to
    cross a set of that rank)."""
    suit = rng.randrange(4)
    length = rng.choice([3, 3, 3, 4, 4, 5])
    if rank is None:
        lo = rng.randrange(13 - length + 1)
    else:
        lo = rng.randint(max(0, rank - length + 1), min(rank, 13 - length))
    return [suit * 13 + r for r in range(lo, lo + length)]


def _meld_rich_hand(rng: random.Random, size: int) -> list[int]:
    """2-3 melds, often sharing ranks (a set crossing a run), topped up with
    random cards and sometimes with cards next to the melds."""
    hand: list[int] = []
    n_melds = rng.choice([2, 3, 3])
    for _ in range(n_melds):
        ranks_held = sorted({c % 13 for c in hand})
        overlap = bool(hand) and rng.random() < 0.6
        if rng.random() < 0.5:
            meld = _random_set(rng, rng.choice(ranks_held) if overlap else None)
        else:
            meld = _random_run(rng, rng.choice(ranks_held) if overlap else None)
        for c in meld:
            if c not in hand:
                hand.append(c)
    if len(hand) > size:
        # Too many: drop random cards (breaking some melds into near-melds).
        rng.shuffle(hand)
        hand = hand[:size]
    while len(hand) < size:
        if rng.random() < 0.35:
            # A near-meld card: same rank as a held card, or next to one.
            c = rng.choice(hand)
            if rng.random() < 0.5:
                c = rng.randrange(4) * 13 + c % 13
            else:
                r = c % 13 + rng.choice((-2, -1, 1, 2))
                if not 0 <= r < 13:
                    continue
                c = (c // 13) * 13 + r
        else:
            c = rng.randrange(52)
        if c not in hand:
            hand.append(c)
    rng.shuffle(hand)
    return hand


# --------------------------------------------------------------------------
# Public generators
# --------------------------------------------------------------------------


def uniform_hands(n: int, size: int = 10, seed: int = 1) -> list[list[str]]:
    """``n`` distinct hands of ``size`` cards drawn uniformly from a deck."""
    rng = random.Random(seed)
    seen: set[frozenset[int]] = set()
    out: list[list[str]] = []
    while len(out) < n:
        hand = rng.sample(range(52), size)
        key = frozenset(hand)
        if key in seen:
            continue
        seen.add(key)
        out.append(_strs(hand))
    return out


def meld_rich_hands(n: int, size: int = 10, seed: int = 2) -> list[list[str]]:
    """``n`` distinct hands built mostly from sets and runs (2-3 melds, often
    crossing each other on a shared rank), the rest random or near-meld."""
    rng = random.Random(seed)
    seen: set[frozenset[int]] = set()
    out: list[list[str]] = []
    while len(out) < n:
        hand = _meld_rich_hand(rng, size)
        key = frozenset(hand)
        if key in seen:
            continue
        seen.add(key)
        out.append(_strs(hand))
    return out


_GIN_SHAPES = ((3, 3, 4), (3, 4, 3), (4, 3, 3), (5, 5), (3, 7), (4, 6))


def _gin_hand(rng: random.Random) -> list[int] | None:
    """Ten cards with no deadwood, or None if the random pieces collide."""
    hand: list[int] = []
    for length in rng.choice(_GIN_SHAPES):
        if length in (3, 4) and rng.random() < 0.45:
            rank = rng.randrange(13)
            meld = [s * 13 + rank for s in rng.sample(range(4), length)]
        else:
            suit = rng.randrange(4)
            lo = rng.randrange(13 - length + 1)
            meld = [suit * 13 + r for r in range(lo, lo + length)]
        if any(c in hand for c in meld):
            return None
        hand.extend(meld)
    if len(hand) != 10:
        return None
    return hand


def _knocker_hand(rng: random.Random, want_gin: bool) -> tuple[list[int], int, list[list[int]]]:
    while True:
        hand = _gin_hand(rng) if want_gin else _meld_rich_hand(rng, 10)
        if hand is None:
            continue
        if not want_gin and rng.random() < 0.7:
            # Swap some high random cards for low ones to reach the limit.
            hand = _lower_deadwood(rng, hand)
        dw, arrangements = best_arrangements(hand)
        if dw <= KNOCK_LIMIT and (dw == 0) == want_gin:
            rng.shuffle(hand)
            return hand, dw, arrangements


def _lower_deadwood(rng: random.Random, hand: list[int]) -> list[int]:
    _dw, arrangements = best_arrangements(hand)
    melded = 0
    for m in arrangements[0]:
        melded |= m
    loose = [c for c in hand if not melded >> c & 1]
    hand = [c for c in hand if melded >> c & 1]
    for c in loose:
        if card_value(c) > 4 and rng.random() < 0.8:
            while True:
                low = rng.randrange(4) * 13 + rng.randrange(4)
                if low not in hand and low not in loose:
                    break
            c = low
        hand.append(c)
    return hand


def _defender_hand(rng: random.Random, taken: int, seeded: Sequence[int], meld_rich: bool) -> list[int]:
    """Ten cards avoiding ``taken``: ``seeded`` first, then (if ``meld_rich``)
    the cards of a meld-rich hand that are free, then random cards."""
    defender = list(seeded)
    for c in seeded:
        taken |= 1 << c
    if meld_rich:
        for c in _meld_rich_hand(rng, 10):
            if len(defender) >= 10:
                break
            if not taken >> c & 1:
                defender.append(c)
                taken |= 1 << c
    while len(defender) < 10:
        c = rng.randrange(52)
        if not taken >> c & 1:
            defender.append(c)
            taken |= 1 << c
    rng.shuffle(defender)
    return defender


def knock_deals(n: int, seed: int = 3) -> list[tuple[list[str], list[str]]]:
    """``n`` distinct knock deals ``(knocker, defender)`` of 10 cards each,
    disjoint. The knocker's least deadwood is within the knock limit (R14).
    The mix (see :func:`describe_deals` for the measured shares): about 12%
    gins (R18); about 15% built as undercuts, where the defender's own least
    deadwood, before any layoff, is already no more than the knocker's
    (R17); in about 60% of the non-gin deals the defender is dealt 1-3
    cards that fit a meld of one of the knocker's least-deadwood
    arrangements (R15: the fourth card of a set, or one or two cards
    beyond an end of a run); and about a third of the other defenders get a
    meld-rich hand."""
    rng = random.Random(seed)
    seen: set[tuple[frozenset[int], frozenset[int]]] = set()
    out: list[tuple[list[str], list[str]]] = []
    while len(out) < n:
        roll = rng.random()
        want_gin = roll < 0.12
        want_undercut = 0.12 <= roll < 0.27
        knocker, k_dw, arrangements = _knocker_hand(rng, want_gin)
        if want_undercut and k_dw < 3:
            continue
        taken = 0
        for c in knocker:
            taken |= 1 << c
        layoffs: list[int] = []
        if not want_gin and rng.random() < 0.6:
            melds = [m for arr in arrangements for m in arr]
            blocked = taken
            for _ in range(rng.choice([1, 1, 2, 2, 3])):
                if not melds:
                    break
                chains = _layoff_cards(rng.choice(melds), blocked)
                if chains:
                    for c in rng.choice(chains):
                        layoffs.append(c)
                        blocked |= 1 << c
        if want_undercut:
            for _ in range(200):
                defender = _defender_hand(rng, taken, layoffs, meld_rich=True)
                if least_deadwood(defender) <= k_dw:
                    break
            else:
                continue
        else:
            defender = _defender_hand(rng, taken, layoffs, meld_rich=rng.random() < 0.35)
        key = (frozenset(knocker), frozenset(defender))
        if key in seen:
            continue
        seen.add(key)
        out.append((_strs(knocker), _strs(defender)))
    return out


def describe_deals(deals: Sequence[tuple[Sequence[str], Sequence[str]]]) -> dict[str, int]:
    """Counts of deal features, by this module's own solver: gins, deals where
    the defender holds a card that fits a meld of some least-deadwood
    arrangement of the knocker, and sure undercuts (not gin, and the
    defender's own least deadwood, before any layoff, is already <= the
    knocker's)."""
    stats = {"deals": 0, "gin": 0, "layoff_opportunity": 0, "sure_undercut": 0}
    for knocker_s, defender_s in deals:
        knocker = [card_index(c) for c in knocker_s]
        defender = [card_index(c) for c in defender_s]
        k_dw, arrangements = best_arrangements(knocker)
        d_dw = least_deadwood(defender)
        stats["deals"] += 1
        if k_dw == 0:
            stats["gin"] += 1
            continue
        taken = 0
        for c in knocker:
            taken |= 1 << c
        if any(chain[0] in defender for arr in arrangements for m in arr for chain in _layoff_cards(m, taken)):
            stats["layoff_opportunity"] += 1
        if d_dw <= k_dw:
            stats["sure_undercut"] += 1
    return stats


if __name__ == "__main__":  # a quick look at the sets
    for hand in meld_rich_hands(5, seed=7):
        print(" ".join(hand), least_deadwood([card_index(c) for c in hand]))
    deals = knock_deals(2000, seed=7)
    print(describe_deals(deals))
