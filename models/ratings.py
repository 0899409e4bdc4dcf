"""Ratings: openskill's Plackett-Luce over hands, the box alone against the
team of captain and sitter. One step, used hand by hand (models.books) and
over a whole log (models.standings)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from openskill.models import PlackettLuce

from referee import HandRecord, Role

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma


def rate_hand(box: Any, captain: Any, sitter: Any, winner: Role) -> tuple[Any, Any, Any]:
    """The three players' ratings after a hand won by ``winner``'s side (R11)."""
    ranks: list[float] = [0, 1] if winner is Role.BOX else [1, 0]
    [[box], [captain, sitter]] = MODEL.rate([[box], [captain, sitter]], ranks=ranks)
    return box, captain, sitter


def rate_hands(hands: Iterable[HandRecord]) -> dict[int, tuple[float, float, int]]:
    """Ratings over hands in order; draws do not rate."""
    ratings: dict[Any, Any] = {}
    counts: dict[Any, int] = {}
    for hand in hands:
        winner = hand.winner
        if winner is None:
            continue
        r = hand.roles
        for p in (r.box, r.captain, r.sitter):
            if p not in ratings:
                ratings[p] = MODEL.rating()
                counts[p] = 0
            counts[p] += 1
        ratings[r.box], ratings[r.captain], ratings[r.sitter] = rate_hand(
            ratings[r.box], ratings[r.captain], ratings[r.sitter], winner
        )
    return {int(p): (v.mu, v.sigma, counts[p]) for p, v in ratings.items()}
