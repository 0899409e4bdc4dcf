"""Ratings: openskill's Plackett-Luce over hands, the box alone against the
team of captain and sitter (R11: the side of the hand's winner wins; draws do
not rate). One step, used hand by hand (models.books) and over a whole log
(models.standings). A two-player preset's hands (R28) are rated one player
against the other, each preset on its own (R27).

The step is openskill's ``PlackettLuce().rate([[box], [captain, sitter]],
ranks=...)`` with its defaults (no weights, scores, ``limit_sigma`` or
``balance``), written out as plain float arithmetic for two teams and one
winner: openskill copies every rating object and team on each call, which
made re-rating a league of 100,000 hands take seconds. The operations are
openskill's own, in its order, so the results are the same floats; the tests
compare the two over random logs. openskill stays the reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import exp, sqrt
from typing import Any

from referee import HandRecord, Outcome, Role, Roles, Score, Side
from referee.preset_hand import HandScore
from referee.two_player import Seat, Seating, TwoPlayerHand

#: openskill's PlackettLuce defaults
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0
DEFAULT_MU = MU
DEFAULT_SIGMA = SIGMA

_TAU_SQUARED = TAU * TAU
_BETA_SQUARED = BETA**2

#: (mu, sigma) of one player
Rating = tuple[float, float]


def rate_hand(box: Rating, captain: Rating, sitter: Rating, box_won: bool) -> tuple[Rating, Rating, Rating]:
    """The three players' (mu, sigma) after a hand won by the box's side or
    by the captain's (R11); the sitter is on the captain's team."""
    rated = rate_log([(1, 2, 3, box_won)], {1: [*box, 0], 2: [*captain, 0], 3: [*sitter, 0]})
    return (rated[1][0], rated[1][1]), (rated[2][0], rated[2][1]), (rated[3][0], rated[3][1])


def rate_log(hands: Iterable[Sequence[Any]], ratings: dict[int, list[float]] | None = None) -> dict[int, list[float]]:
    """Ratings over hands in order, each (box, captain, sitter, box won) as
    models.standings reads a league's log: box won true or false (or 1 or
    0), None for a draw (draws do not rate). Each player's [mu, sigma, hands
    rated], going on from ``ratings`` (changed in place) when given.

    A two-player or cutthroat hand (R28, R36) is (dealer, non-dealer, None,
    dealer won): its dealer alone against its non-dealer alone, the step for
    two teams of one (the non-dealer's share of his team is then exactly 1).

    The step is openskill's ``PlackettLuce().rate([[box], [captain,
    sitter]], ranks=...)`` with its defaults, written out in its order of
    operations, so the floats are openskill's; the tests hold it to openskill."""
    rated: dict[int, list[float]] = {} if ratings is None else ratings
    get = rated.get
    tau_squared, beta_squared, kappa = _TAU_SQUARED, _BETA_SQUARED, KAPPA
    for box, captain, sitter, box_won in hands:
        if box_won is None:
            continue
        b = get(box) or rated.setdefault(box, [MU, SIGMA, 0])
        c = get(captain) or rated.setdefault(captain, [MU, SIGMA, 0])
        # each sigma widened by tau first
        sb = sqrt(b[1] * b[1] + tau_squared)
        sc = sqrt(c[1] * c[1] + tau_squared)
        vb = sb**2
        var_team = vc = sc**2
        mu_team = c[0]
        if sitter is not None:
            s = get(sitter) or rated.setdefault(sitter, [MU, SIGMA, 0])
            ss = sqrt(s[1] * s[1] + tau_squared)
            vs = ss**2
            var_team, mu_team = vc + vs, mu_team + s[0]
        k = sqrt((vb + beta_squared) + (var_team + beta_squared))
        k_squared = k**2
        e_box, e_team = exp(b[0] / k), exp(mu_team / k)
        total = e_box + e_team
        p_box, p_team = e_box / total, e_team / total
        # the winning side's omega is 1 - p, the losing side's -p, both delta p (1 - p)
        if box_won:
            omega_box, omega_team = (1 - p_box) * (vb / k), -p_team * (var_team / k)
        else:
            omega_box, omega_team = -p_box * (vb / k), (1 - p_team) * (var_team / k)
        # one player: sigma^2 / team sigma^2 is exactly 1
        delta = p_box * (1 - p_box) * (vb / k_squared) * (sqrt(vb) / k)
        x = 1 - delta
        b[0] += omega_box
        b[1] = sb * sqrt(kappa if kappa > x else x)
        b[2] += 1
        delta = p_team * (1 - p_team) * (var_team / k_squared) * (sqrt(var_team) / k)
        share = vc / var_team
        x = 1 - share * delta
        c[0] += share * omega_team
        c[1] = sc * sqrt(kappa if kappa > x else x)
        c[2] += 1
        if sitter is not None:
            share = vs / var_team
            x = 1 - share * delta
            s[0] += share * omega_team
            s[1] = ss * sqrt(kappa if kappa > x else x)
            s[2] += 1
    return rated


def won_by_box(record: HandRecord) -> bool | None:
    """Did the box's side win the hand (R11)? None for a draw (R12)."""
    winner = record.winner
    return None if winner is None else winner is Role.BOX


def _box_won_by_columns() -> dict[tuple[str | None, str | None], bool | None]:
    """``won_by_box`` for each (knocker, scorer) a hand row can hold, as the referee rules it."""
    roles = Roles(box=1, captain=2, sitter=3)
    table: dict[tuple[str | None, str | None], bool | None] = {(None, None): None}
    for knocker in (Role.BOX, Role.CAPTAIN):
        for scorer in Side:
            record = HandRecord(roles, knocker, Score(Outcome.KNOCK, scorer, 0))
            table[knocker.value, scorer.value] = won_by_box(record)
        table[knocker.value, None] = None
    return table


def _dealer_won_by_columns() -> dict[tuple[str | None, str | None], bool | None]:
    """For a two-player hand (R28), whose dealer a hand row keeps as its box:
    did the dealer win, for each (knocker, scorer) the row can hold, as the referee rules it."""
    seating = Seating(dealer=1, non_dealer=2)
    table: dict[tuple[str | None, str | None], bool | None] = {}
    for knocker in Seat:
        for scorer in Side:
            hand = TwoPlayerHand(seating, knocker, HandScore(Outcome.KNOCK, scorer, 0))
            table[knocker.value, scorer.value] = hand.winner is Seat.DEALER
        table[knocker.value, None] = None
    return table


#: a hand row's (knocker, scorer) columns to ``won_by_box``; for a two-player
#: hand, whether its dealer (the row's box) won
BOX_WON = _box_won_by_columns() | _dealer_won_by_columns()


def rate_hands(hands: Iterable[HandRecord]) -> dict[int, tuple[float, float, int]]:
    """Ratings over hands in order; draws do not rate."""
    rated = rate_log((int(h.roles.box), int(h.roles.captain), int(h.roles.sitter), won_by_box(h)) for h in hands)
    return {p: (mu, sigma, int(n)) for p, (mu, sigma, n) in rated.items()}
