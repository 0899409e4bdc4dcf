"""Least deadwood (R7) of a 10- or 11-card hand, fast.

A hand is held as four 13-bit suit masks (bit ``r - 1`` for rank ``r``). Runs
never cross suits, and within one suit every block of three or more
consecutive ranks is best melded whole (every card has a positive value), so a
table of the deadwood each of the 8,192 suit masks leaves after its runs
answers the hand once its sets are chosen. Sets are the only real choice: for
each rank held three or four times, no set, the set of all, or (of four) each
set of three with the fourth card left to a run (R6). A 10-card hand has at
most 24 such choices, and most hands none; a rank none of whose cards a run
could take has one (its set), and a set of three never leaves out a card that
no run takes. The hand's cards OR-ed together (``Card.flag``) give the masks.

>>> from referee.cards import parse_cards
>>> least_deadwood(parse_cards("AS 2S 3S 7H 7D 7C 9C 10C JC KD"))
10
>>> discard, count = best_discard(parse_cards("3S 4S 5S 6S 2H 4H 5H 6H 2D 5D 6C"))
>>> str(discard), count
('6C', 9)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product

from referee.cards import DECK, Card
from referee.melds import Arrangement, Meld, make_arrangement

_RANK_VALUE = [0] + [min(r, 10) for r in range(1, 14)]


def block_masks(mask: int) -> list[int]:
    """Maximal blocks of consecutive ranks in a suit mask, low to high."""
    blocks = []
    while mask:
        block = mask & -mask
        while mask & (block << 1) & ~block:
            block |= block << 1
        blocks.append(block)
        mask &= ~block
    return blocks


def _mask_value(mask: int) -> int:
    return sum(_RANK_VALUE[r] for r in range(1, 14) if mask >> (r - 1) & 1)


# Per suit mask m: VALUE, the value of its cards; RUNS, its cards in blocks of
# three or more (melded in runs, R5); DEAD, the value of the rest.
VALUE: list[int] = [_mask_value(m) for m in range(8192)]
RUNS: list[int] = [sum(b for b in block_masks(m) if b.bit_count() >= 3) for m in range(8192)]
DEAD: list[int] = [VALUE[m & ~RUNS[m]] for m in range(8192)]


def suit_masks(cards: Sequence[Card]) -> list[int]:
    """Four suit masks (S, H, D, C) of the cards."""
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[c.suit] |= 1 << (c.rank - 1)
    return masks


def _triples(s0: int, s1: int, s2: int, s3: int) -> int:
    """Ranks held in at least three suits."""
    return (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))


def _set_options(m: Sequence[int], bit: int) -> list[tuple[int, ...]]:
    """Ways to meld the rank ``bit`` as a set that can leave the least
    deadwood: the suits it takes (R4, R6). A card that no run of its suit
    takes now is never left out (it would be deadwood for good)."""
    held = tuple(i for i in range(4) if m[i] & bit)
    in_runs = [i for i in held if RUNS[m[i]] & bit]
    if not in_runs:
        return [held]
    if len(held) == 3:
        return [(), held]
    return [(), held, *(tuple(i for i in held if i != skip) for skip in in_runs)]


def _least(s0: int, s1: int, s2: int, s3: int, candidates: int) -> int:
    """The least deadwood of the suit masks, the sets chosen among the ranks
    of ``candidates`` (a rank mask). Removing cards never makes a run, so a
    card of the rank that no run of its suit takes now never joins one: the
    set takes it, and the choices that leave it out need not be tried (R6)."""
    candidates &= (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not candidates:
        return DEAD[s0] + DEAD[s1] + DEAD[s2] + DEAD[s3]
    bit = candidates & -candidates
    rest = candidates ^ bit
    nb = ~bit
    best = _least(s0 & nb, s1 & nb, s2 & nb, s3 & nb, rest)  # the set of every suit held
    r0, r1, r2, r3 = RUNS[s0] & bit, RUNS[s1] & bit, RUNS[s2] & bit, RUNS[s3] & bit
    if not (r0 | r1 | r2 | r3):
        return best
    value = _least(s0, s1, s2, s3, rest)  # no set at this rank
    if value < best:
        best = value
    if s0 & s1 & s2 & s3 & bit:  # four of the rank: a set of three, the fourth kept for its run
        for value in (
            _least(s0, s1 & nb, s2 & nb, s3 & nb, rest) if r0 else best,
            _least(s0 & nb, s1, s2 & nb, s3 & nb, rest) if r1 else best,
            _least(s0 & nb, s1 & nb, s2, s3 & nb, rest) if r2 else best,
            _least(s0 & nb, s1 & nb, s2 & nb, s3, rest) if r3 else best,
        ):
            if value < best:
                best = value
    return best


def _hand_least(h: int) -> int:
    """The least deadwood of a hand given as its 52-bit mask (``Card.flag`` OR-ed)."""
    s0, s1, s2, s3 = h & 0x1FFF, h >> 13 & 0x1FFF, h >> 26 & 0x1FFF, h >> 39
    if not ((s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))):  # no rank held three times: no set
        return DEAD[s0] + DEAD[s1] + DEAD[s2] + DEAD[s3]
    return _least(s0, s1, s2, s3, 0x1FFF)


def least_deadwood(cards: Sequence[Card]) -> int:
    """The least deadwood count any arrangement of ``cards`` leaves (R7)."""
    h = 0
    for c in cards:
        h |= c.flag
    return _hand_least(h)


def best_discard(cards: Sequence[Card]) -> tuple[Card, int]:
    """For 11 cards (a knocker before his discard): the discard that leaves the
    least deadwood, and that count. Ties go to the higher-valued card, then the
    first in canonical order."""
    h = 0
    for c in cards:
        h |= c.flag
    best: tuple[int, int, int] | None = None
    for c in cards:
        key = (_hand_least(h ^ c.flag), -c.value, c.index)
        if best is None or key < best:
            best = key
    assert best is not None
    return DECK[best[2]], best[0]


# --- every arrangement that reaches the least deadwood --------------------------


def _set_choices(m: list[int], candidates: int) -> Iterator[tuple[list[int], list[Meld]]]:
    """Every choice of sets that can leave the least deadwood: (remaining
    suit masks, the set melds)."""
    candidates &= _triples(*m)
    if not candidates:
        yield m, []
        return
    bit = candidates & -candidates
    rank = bit.bit_length()
    rest = candidates & ~bit
    for used in _set_options(m, bit):
        n = list(m)
        for i in used:
            n[i] ^= bit
        for remaining, sets in _set_choices(n, rest):
            if used:
                yield remaining, [Meld(tuple(DECK[i * 13 + rank - 1] for i in used)), *sets]
            else:
                yield remaining, sets


def _compositions(length: int) -> list[list[int]]:
    """Ways to cut a block of ``length`` cards into runs of three or more."""
    if length == 0:
        return [[]]
    out: list[list[int]] = []
    for first in range(3, length + 1):
        if length - first == 0 or length - first >= 3:
            out.extend([first, *rest] for rest in _compositions(length - first))
    return out


def _run_splits(suit: int, mask: int) -> list[list[Meld]]:
    """Every way to meld the runs of a suit mask: each block of 3+ whole, or cut."""
    per_block = []
    for block in block_masks(RUNS[mask]):
        low = (block & -block).bit_length()
        options = []
        for parts in _compositions(block.bit_count()):
            melds, start = [], low
            for size in parts:
                melds.append(Meld(tuple(DECK[suit * 13 + r - 1] for r in range(start, start + size))))
                start += size
            options.append(melds)
        per_block.append(options)
    return [[m for chosen in combo for m in chosen] for combo in product(*per_block)]


def arrangements(cards: Sequence[Card], *, splits: bool = True) -> list[Arrangement]:
    """Every arrangement of ``cards`` that leaves the least deadwood, in the
    canonical order of R3 (fewer melds first, so long runs come whole first).
    With ``splits=False`` each block of consecutive cards is one run, which
    lists only arrangements that differ for the game (layoffs are the same
    either way)."""
    hand = list(cards)
    best: list[tuple[list[int], list[Meld]]] = []
    least = 1 << 30
    for remaining, sets in _set_choices(suit_masks(hand), 0x1FFF):
        count = sum(DEAD[x] for x in remaining)
        if count < least:
            least, best = count, [(remaining, sets)]
        elif count == least:
            best.append((remaining, sets))
    found = []
    for remaining, sets in best:
        if splits:
            per_suit = [_run_splits(s, remaining[s]) for s in range(4)]
        else:
            per_suit = [
                [
                    [
                        Meld(tuple(DECK[s * 13 + r] for r in range(13) if b >> r & 1))
                        for b in block_masks(RUNS[remaining[s]])
                    ]
                ]
                for s in range(4)
            ]
        for combo in product(*per_suit):
            runs = [m for suit_runs in combo for m in suit_runs]
            found.append(make_arrangement(hand, [*sets, *runs]))
    found.sort(key=lambda a: a.key)
    return found


def best_arrangement(cards: Sequence[Card]) -> Arrangement:
    """The first least-deadwood arrangement in canonical order."""
    return arrangements(cards, splits=False)[0]
