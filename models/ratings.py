"""Ratings: openskill's Plackett-Luce over hands, the box alone against the
team of captain and sitter (R11: the side of the hand's winner wins; draws do
not rate). One step, used hand by hand (models.books) and over a whole log
(models.standings). A two-player preset's hands (R28) are rated one player
against the other (``rate_two_player_log``), each preset on its own (R27).

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
    mb, sb, mc, sc, ms, ss = _rate(box[0], box[1], captain[0], captain[1], sitter[0], sitter[1], box_won)
    return (mb, sb), (mc, sc), (ms, ss)


def _rate(
    mb: float, sb: float, mc: float, sc: float, ms: float, ss: float, box_won: bool
) -> tuple[float, float, float, float, float, float]:
    # openskill's rate: each sigma widened by tau first
    sb = sqrt(sb * sb + _TAU_SQUARED)
    sc = sqrt(sc * sc + _TAU_SQUARED)
    ss = sqrt(ss * ss + _TAU_SQUARED)
    vb, vc, vs = sb**2, sc**2, ss**2
    # team ratings: the box alone, the captain's side summed (two terms: the
    # order openskill sums them in does not change the result)
    mu_team, var_team = mc + ms, vc + vs
    c = sqrt((vb + _BETA_SQUARED) + (var_team + _BETA_SQUARED))
    c_squared = c**2
    e_box, e_team = exp(mb / c), exp(mu_team / c)
    total = e_box + e_team if box_won else e_team + e_box
    # the winning side's omega is 1 - p, the losing side's -p, both delta p (1 - p)
    p = e_box / total
    if box_won:
        omega, delta = 1 - p, p * (1 - p)
    else:
        omega, delta = -p, p * (1 - p)
    omega *= vb / c
    delta *= vb / c_squared
    delta *= sqrt(vb) / c
    # one player: sigma^2 / team sigma^2 is exactly 1
    mb, sb = mb + omega, sb * sqrt(max(1 - delta, KAPPA))
    p = e_team / total
    if box_won:
        omega, delta = -p, p * (1 - p)
    else:
        omega, delta = 1 - p, p * (1 - p)
    omega *= var_team / c
    delta *= var_team / c_squared
    delta *= sqrt(var_team) / c
    share = vc / var_team
    mc, sc = mc + share * omega, sc * sqrt(max(1 - share * delta, KAPPA))
    share = vs / var_team
    ms, ss = ms + share * omega, ss * sqrt(max(1 - share * delta, KAPPA))
    return mb, sb, mc, sc, ms, ss


def rate_log(hands: Iterable[Sequence[Any]], ratings: dict[int, list[float]] | None = None) -> dict[int, list[float]]:
    """Ratings over hands in order, each (box, captain, sitter, box won) as
    models.standings reads a league's log: box won true or false (or 1 or
    0), None for a draw (draws do not rate). Each player's [mu, sigma, hands
    rated], going on from ``ratings`` (changed in place) when given.

    The loop is ``_rate`` written out once more (a league re-rates its whole
    history in it: calling it once a hand costs a third more); the tests
    hold both to openskill."""
    rated: dict[int, list[float]] = {} if ratings is None else ratings
    get = rated.get
    tau_squared, beta_squared, kappa = _TAU_SQUARED, _BETA_SQUARED, KAPPA
    for box, captain, sitter, box_won in hands:
        if box_won is None:
            continue
        b = get(box) or rated.setdefault(box, [MU, SIGMA, 0])
        c = get(captain) or rated.setdefault(captain, [MU, SIGMA, 0])
        s = get(sitter) or rated.setdefault(sitter, [MU, SIGMA, 0])
        sb, sc, ss = b[1], c[1], s[1]
        sb = sqrt(sb * sb + tau_squared)
        sc = sqrt(sc * sc + tau_squared)
        ss = sqrt(ss * ss + tau_squared)
        vb, vc, vs = sb**2, sc**2, ss**2
        var_team = vc + vs
        k = sqrt((vb + beta_squared) + (var_team + beta_squared))
        k_squared = k**2
        e_box, e_team = exp(b[0] / k), exp((c[0] + s[0]) / k)
        total = e_box + e_team
        p_box, p_team = e_box / total, e_team / total
        if box_won:
            omega_box, omega_team = (1 - p_box) * (vb / k), -p_team * (var_team / k)
        else:
            omega_box, omega_team = -p_box * (vb / k), (1 - p_team) * (var_team / k)
        delta = p_box * (1 - p_box) * (vb / k_squared) * (sqrt(vb) / k)
        x = 1 - delta
        b[0] += omega_box
        b[1] = sb * sqrt(kappa if kappa > x else x)
        delta = p_team * (1 - p_team) * (var_team / k_squared) * (sqrt(var_team) / k)
        share = vc / var_team
        x = 1 - share * delta
        c[0] += share * omega_team
        c[1] = sc * sqrt(kappa if kappa > x else x)
        share = vs / var_team
        x = 1 - share * delta
        s[0] += share * omega_team
        s[1] = ss * sqrt(kappa if kappa > x else x)
        b[2] += 1
        c[2] += 1
        s[2] += 1
    return rated


def rate_two_player_log(
    hands: Iterable[Sequence[Any]], ratings: dict[int, list[float]] | None = None
) -> dict[int, list[float]]:
    """Ratings over two-player hands in order (R28), each (dealer,
    non-dealer, dealer won): openskill's ``PlackettLuce().rate([[dealer],
    [non_dealer]], ranks=...)`` with its defaults, the step of ``_rate`` for
    two teams of one. None for a draw (draws do not rate). Each player's
    [mu, sigma, hands rated], going on from ``ratings`` (changed in place)."""
    rated: dict[int, list[float]] = {} if ratings is None else ratings
    get = rated.get
    tau_squared, beta_squared, kappa = _TAU_SQUARED, _BETA_SQUARED, KAPPA
    for dealer, non_dealer, dealer_won in hands:
        if dealer_won is None:
            continue
        a = get(dealer) or rated.setdefault(dealer, [MU, SIGMA, 0])
        b = get(non_dealer) or rated.setdefault(non_dealer, [MU, SIGMA, 0])
        sa = sqrt(a[1] * a[1] + tau_squared)
        sb = sqrt(b[1] * b[1] + tau_squared)
        va, vb = sa**2, sb**2
        k = sqrt((va + beta_squared) + (vb + beta_squared))
        k_squared = k**2
        e_a, e_b = exp(a[0] / k), exp(b[0] / k)
        total = e_a + e_b
        p_a, p_b = e_a / total, e_b / total
        if dealer_won:
            omega_a, omega_b = (1 - p_a) * (va / k), -p_b * (vb / k)
        else:
            omega_a, omega_b = -p_a * (va / k), (1 - p_b) * (vb / k)
        delta = p_a * (1 - p_a) * (va / k_squared) * (sqrt(va) / k)
        x = 1 - delta
        a[0] += omega_a
        a[1] = sa * sqrt(kappa if kappa > x else x)
        delta = p_b * (1 - p_b) * (vb / k_squared) * (sqrt(vb) / k)
        x = 1 - delta
        b[0] += omega_b
        b[1] = sb * sqrt(kappa if kappa > x else x)
        a[2] += 1
        b[2] += 1
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
