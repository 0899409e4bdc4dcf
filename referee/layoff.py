"""Layoffs (R15, R23) and the defender's best play against a spread (R24).

The defender may keep his own melds and lay off his other cards onto the
knocker's melds: the fourth card onto a set of three, and cards extending a
run at either end, one after another (never past A or K, never onto a set of
four, never after gin).

Finding his best play: every card laid off onto a run is part of a chain of
his cards touching that run's end, and every block of three or more of his
consecutive same-suit cards is best kept as his own run. So once his sets and
his layoffs onto the knocker's sets are chosen (few choices), each suit is
settled by bit arithmetic: his runs are the blocks of 3+, and his layoffs the
shorter blocks connected to a knocker run.

>>> from referee.cards import parse_cards
>>> from referee.melds import Meld
>>> play = best_play(parse_cards("8H 9H 2C 2D KS"), [Meld.parse("5H 6H 7H")])
>>> [str(l) for l in play.layoffs], play.deadwood_count
(['8H -> 0', '9H -> 0'], 14)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.cards import DECK, Card
from referee.deadwood import RUNS, VALUE, arrangements, block_masks, suit_masks
from referee.errors import LayoffError
from referee.melds import Arrangement, Meld, MeldKind, make_arrangement
from referee.steps import Code, Step, card_names, layoff_steps, meld_names


@dataclass(frozen=True, slots=True)
class Layoff:
    """The defender's ``card`` laid onto the knocker's meld number ``meld``."""

    card: Card
    meld: int

    def __str__(self) -> str:
        return f"{self.card} -> {self.meld}"


@dataclass(frozen=True, slots=True)
class DefenderPlay:
    """The defender's melds, layoffs (in the order played) and deadwood; and,
    when what he declared was worse, his best play (``better``, R22)."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood: tuple[Card, ...]
    better: DefenderPlay | None = None

    @property
    def deadwood_count(self) -> int:
        return sum(c.value for c in self.deadwood)


def fits(card: Card, meld_cards: Sequence[Card]) -> bool:
    """Whether ``card`` may be laid onto a meld now holding ``meld_cards`` (R15)."""
    if len(meld_cards) >= 3 and len({c.rank for c in meld_cards}) == 1:
        return len(meld_cards) == 3 and card.rank == meld_cards[0].rank and card not in meld_cards
    if card.suit != meld_cards[0].suit:
        return False
    low = min(c.rank for c in meld_cards)
    high = max(c.rank for c in meld_cards)
    return card.rank == low - 1 or card.rank == high + 1  # ranks stop at A and K


def _why(before: Sequence[Layoff], knocker_melds: Sequence[Meld], step: Step) -> tuple[Step, ...]:
    """An illegal layoff's explanation: the layoffs before it (they fit), then ``step``."""
    return (*layoff_steps([(str(lo.card), lo.meld) for lo in before], meld_names(knocker_melds)), step)


def verify_layoffs(
    layoffs: Sequence[Layoff], knocker_melds: Sequence[Meld], available: Sequence[Card], *, gin: bool = False
) -> None:
    """Check declared layoffs in order (R15, R23; none after gin, R18).
    ``available`` is the defender's cards outside his declared melds. The
    error's ``explanation`` is the layoffs that fit, then why this one fails."""
    if gin and layoffs:
        raise LayoffError(
            "the knocker went gin: the defender may not lay off",
            rule="R18",
            field="layoffs[0]",
            card=str(layoffs[0].card),
            explanation=(Step.of(Code.LAYOFF_AFTER_GIN, card=str(layoffs[0].card)),),
        )
    extended = [list(m.cards) for m in knocker_melds]
    used: set[Card] = set()
    free = set(available)

    for i, layoff in enumerate(layoffs):
        field = f"layoffs[{i}]"
        card = str(layoff.card)
        if not 0 <= layoff.meld < len(extended):
            raise LayoffError(
                f"there is no knocker meld {layoff.meld}",
                field=f"{field}.meld",
                meld=layoff.meld,
                card=card,
                explanation=_why(
                    layoffs[:i],
                    knocker_melds,
                    Step.of(Code.LAYOFF_NO_MELD, card=card, meld=layoff.meld, meld_count=len(extended)),
                ),
            )
        if layoff.card in used:
            raise LayoffError(
                f"{layoff.card} is laid off twice",
                rule="R6",
                field=f"{field}.card",
                card=card,
                explanation=_why(layoffs[:i], knocker_melds, Step.of(Code.LAYOFF_TWICE, card=card)),
            )
        if layoff.card not in free:
            raise LayoffError(
                f"{layoff.card} is not a free card of the defender's hand (not held, or in his declared melds)",
                field=f"{field}.card",
                card=card,
                explanation=_why(layoffs[:i], knocker_melds, Step.of(Code.LAYOFF_NOT_FREE, card=card)),
            )
        target = extended[layoff.meld]
        if not fits(layoff.card, target):
            onto = card_names(sorted(target))
            raise LayoffError(
                f"{layoff.card} does not fit knocker meld {layoff.meld} ({' '.join(onto)})",
                field=field,
                card=card,
                meld=layoff.meld,
                explanation=_why(
                    layoffs[:i],
                    knocker_melds,
                    Step.of(Code.LAYOFF_DOES_NOT_FIT, card=card, meld=layoff.meld, onto=onto),
                ),
            )
        target.append(layoff.card)
        used.add(layoff.card)


def can_lay_off(
    layoffs: Sequence[Layoff], knocker_melds: Sequence[Meld], available: Sequence[Card], *, gin: bool = False
) -> bool:
    """Whether :func:`verify_layoffs` accepts these layoffs (R15, R18, R23)."""
    try:
        verify_layoffs(layoffs, knocker_melds, available, gin=gin)
    except LayoffError:
        return False
    return True


class _Spread:
    """The knocker's melds as layoff targets."""

    def __init__(self, knocker_melds: Sequence[Meld]) -> None:
        self.run_ranks = [0, 0, 0, 0]  # per suit, ranks covered by knocker runs
        self.run_at_low: dict[tuple[int, int], int] = {}  # (suit, low rank) -> meld
        self.run_at_high: dict[tuple[int, int], int] = {}
        self.set_targets: list[tuple[Card, int]] = []  # fourth card -> meld
        for i, meld in enumerate(knocker_melds):
            first = meld.cards[0]
            if meld.kind is MeldKind.RUN:
                for c in meld.cards:
                    self.run_ranks[first.suit] |= 1 << (c.rank - 1)
                self.run_at_low[first.suit, first.rank] = i
                self.run_at_high[first.suit, meld.cards[-1].rank] = i
            elif len(meld.cards) == 3:  # never onto a set of four (R15)
                missing = ({0, 1, 2, 3} - {c.suit for c in meld.cards}).pop()
                self.set_targets.append((DECK[missing * 13 + first.rank - 1], i))
        self.touching = [((k << 1) | (k >> 1)) & 0x1FFF & ~k for k in self.run_ranks]


def _chains(free: int, touching: int) -> int:
    """Cards of ``free`` connected to a knocker run through each other."""
    reach = free & touching
    while True:
        grown = reach | (((reach << 1) | (reach >> 1)) & free)
        if grown == reach:
            return reach
        reach = grown


_Choice = tuple[int, int, list[int], list[tuple[int, ...]], list[int]]


def _choices(pool: list[int], spread: _Spread, melding: bool) -> list[_Choice]:
    """Every choice of defender sets and set layoffs, scored:
    (deadwood, number of layoffs, remaining masks, set melds as (rank, suits...), set-layoff targets)."""
    results = []
    targets = [(t, i) for t, i in spread.set_targets if pool[t.suit] >> (t.rank - 1) & 1]
    for pick in range(1 << len(targets)):
        masks = list(pool)
        laid = []
        for j, (card, _) in enumerate(targets):
            if pick >> j & 1:
                masks[card.suit] ^= 1 << (card.rank - 1)
                laid.append(j)
        for remaining, sets in _own_sets(masks, 0x1FFF if melding else 0):
            dead = 0
            count = len(laid)
            for s in range(4):
                r = remaining[s]
                runs = RUNS[r] if melding else 0
                chained = _chains(r & ~runs, spread.touching[s])
                dead += VALUE[r & ~runs & ~chained]
                count += chained.bit_count()
            results.append((dead, count, remaining, sets, laid))
    return results


def _own_sets(m: list[int], candidates: int) -> list[tuple[list[int], list[tuple[int, ...]]]]:
    """Every choice of the defender's own sets: (remaining masks, [(rank, suit, ...)])."""
    s0, s1, s2, s3 = m
    candidates &= (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    if not candidates:
        return [(m, [])]
    bit = candidates & -candidates
    rank = bit.bit_length()
    held = [i for i in range(4) if m[i] & bit]
    options: list[list[int]] = [[], held]
    if len(held) == 4:
        options += [[i for i in held if i != skip] for skip in held]
    out = []
    for used in options:
        n = list(m)
        for i in used:
            n[i] ^= bit
        for remaining, sets in _own_sets(n, candidates & ~bit):
            out.append((remaining, [(rank, *used), *sets] if used else sets))
    return out


def _build(
    pool_cards: Sequence[Card],
    remaining: list[int],
    sets: list[tuple[int, ...]],
    laid: list[int],
    spread: _Spread,
    melding: bool,
    fixed_melds: Sequence[Meld],
) -> DefenderPlay:
    targets = [(t, i) for t, i in spread.set_targets if t in pool_cards]
    melds = list(fixed_melds)
    for rank, *suits in sets:
        melds.append(Meld(tuple(DECK[s * 13 + rank - 1] for s in suits)))
    placed: list[tuple[int, int, int]] = []  # (meld, distance, card index)
    for j in laid:
        card, meld = targets[j]
        placed.append((meld, 1, card.index))
    for s in range(4):
        r = remaining[s]
        runs = RUNS[r] if melding else 0
        for block in block_masks(runs):
            melds.append(Meld(tuple(DECK[s * 13 + k] for k in range(13) if block >> k & 1)))
        for block in block_masks(_chains(r & ~runs, spread.touching[s])):
            low = (block & -block).bit_length()
            high = block.bit_length()
            below = spread.run_at_high.get((s, low - 1))
            if below is not None:  # the chain climbs from the lower run
                placed += [(below, rank - low + 1, s * 13 + rank - 1) for rank in range(low, high + 1)]
            else:
                above = spread.run_at_low[s, high + 1]
                placed += [(above, high + 1 - rank, s * 13 + rank - 1) for rank in range(low, high + 1)]
    placed.sort()
    layoffs = tuple(Layoff(DECK[c], m) for m, _, c in placed)
    laid_cards = {lo.card for lo in layoffs}
    arrangement = make_arrangement([c for c in pool_cards if c not in laid_cards], melds)
    return DefenderPlay(arrangement.melds, layoffs, arrangement.deadwood)


def best_play(
    defender_cards: Sequence[Card], knocker_melds: Sequence[Meld], *, defender_melds: Sequence[Meld] | None = None
) -> DefenderPlay:
    """The defender's melds and layoffs that leave him the least deadwood (R24);
    ties: the fewest layoffs, then his melds and then his layoffs in canonical
    order. With ``defender_melds`` declared, only layoffs of the other cards."""
    melding = defender_melds is None
    fixed = tuple(defender_melds or ())
    in_melds = {c for m in fixed for c in m.cards}
    pool_cards = [c for c in defender_cards if c not in in_melds]
    spread = _Spread(knocker_melds)
    choices = _choices(suit_masks(pool_cards), spread, melding)
    least = min((dead, count) for dead, count, *_ in choices)
    plays = [
        _build(pool_cards, remaining, sets, laid, spread, melding, fixed)
        for dead, count, remaining, sets, laid in choices
        if (dead, count) == least
    ]
    if len(plays) == 1:
        return plays[0]
    return min(
        plays, key=lambda p: (make_arrangement([], p.melds).key, tuple((lo.meld, lo.card.index) for lo in p.layoffs))
    )


def play_without_layoffs(defender_cards: Sequence[Card], defender_melds: Sequence[Meld] | None = None) -> DefenderPlay:
    """The defender's play when he may not lay off (after gin, R18)."""
    if defender_melds is None:
        best: Arrangement = arrangements(defender_cards, splits=False)[0]
    else:
        best = make_arrangement(defender_cards, defender_melds)
    return DefenderPlay(best.melds, (), best.deadwood)


def play_with_layoffs(
    defender_cards: Sequence[Card], layoffs: Sequence[Layoff], defender_melds: Sequence[Meld] | None = None
) -> DefenderPlay:
    """The defender's play with declared layoffs (already verified); undeclared
    melds are his best arrangement of the cards he did not lay off."""
    laid = {lo.card for lo in layoffs}
    rest = [c for c in defender_cards if c not in laid]
    if defender_melds is None:
        arrangement = arrangements(rest, splits=False)[0]
    else:
        arrangement = make_arrangement(rest, defender_melds)
    return DefenderPlay(arrangement.melds, tuple(layoffs), arrangement.deadwood)
