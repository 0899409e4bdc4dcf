"""models.ratings against openskill, the reference (R11, R12): the box alone
against the team of captain and sitter, the side of the hand's winner wins,
draws do not rate.

models.ratings writes openskill's Plackett-Luce step out as plain float
arithmetic; here openskill's own ``PlackettLuce().rate`` rates the same hands
and every rating after every hand must agree to 1e-9.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from models.ratings import (
    BETA,
    BOX_WON,
    KAPPA,
    MU,
    SIGMA,
    TAU,
    rate_hand,
    rate_hands,
    rate_log,
    won_by_box,
)
from referee import HandRecord, Outcome, Role, Roles, Score, Side

TOLERANCE = 1e-9
MODEL = PlackettLuce()


def openskill_hand(ratings: dict[int, object], box: int, captain: int, sitter: int, box_won: bool) -> None:
    """One hand rated by openskill, in place: the box alone against captain and sitter."""
    for p in (box, captain, sitter):
        ratings.setdefault(p, MODEL.rating())
    ranks: list[float] = [0, 1] if box_won else [1, 0]
    [[ratings[box]], [ratings[captain], ratings[sitter]]] = MODEL.rate(
        [[ratings[box]], [ratings[captain], ratings[sitter]]], ranks=ranks
    )


def random_hands(n: int, seed: int, players: int = 12) -> list[tuple[int, int, int, bool | None]]:
    """``n`` hands of three of ``players`` players, the box's side winning about half, 5% draws."""
    rng = random.Random(seed)
    hands: list[tuple[int, int, int, bool | None]] = []
    for _ in range(n):
        box, captain, sitter = rng.sample(range(1, players + 1), 3)
        hands.append((box, captain, sitter, None if rng.random() < 0.05 else rng.random() < 0.5))
    return hands


def test_the_model_is_openskills_plackett_luce_with_its_defaults() -> None:
    assert (MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.kappa, MODEL.tau) == (MU, SIGMA, BETA, KAPPA, TAU)
    assert (MODEL.limit_sigma, MODEL.balance, MODEL.margin) == (False, False, 0.0)


def test_r11_r12_ratings_equal_openskills_after_every_one_of_10000_random_hands() -> None:
    hands = random_hands(10_000, seed=2026)
    expected: dict[int, object] = {}
    rated: dict[int, list[float]] = {}
    worst = 0.0
    for box, captain, sitter, box_won in hands:
        before = [list(rated.get(p, [])) for p in (box, captain, sitter)]
        rate_log([(box, captain, sitter, box_won)], rated)
        if box_won is None:  # R12: draws do not rate
            assert [list(rated.get(p, [])) for p in (box, captain, sitter)] == before
            continue
        openskill_hand(expected, box, captain, sitter, box_won)
        for p in (box, captain, sitter):
            reference = expected[p]
            worst = max(worst, abs(rated[p][0] - reference.mu), abs(rated[p][1] - reference.sigma))  # type: ignore[attr-defined]
    assert worst <= TOLERANCE
    assert sorted(rated) == sorted(expected)
    counts: dict[int, int] = {}
    for box, captain, sitter, box_won in hands:
        if box_won is not None:
            for p in (box, captain, sitter):
                counts[p] = counts.get(p, 0) + 1
    assert {p: int(r[2]) for p, r in rated.items()} == counts


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-50, 100), st.floats(0.01, 20)),
        min_size=3,
        max_size=3,
    ),
    st.booleans(),
)
def test_r11_one_hand_from_any_ratings_equals_openskills(start: list[tuple[float, float]], box_won: bool) -> None:
    box, captain, sitter = start
    after = rate_hand(box, captain, sitter, box_won)
    ranks: list[float] = [0, 1] if box_won else [1, 0]
    [[b], [c, s]] = MODEL.rate(
        [[MODEL.rating(mu=box[0], sigma=box[1])], [MODEL.rating(*captain), MODEL.rating(*sitter)]], ranks=ranks
    )
    for (mu, sigma), reference in zip(after, (b, c, s), strict=True):
        assert mu == pytest.approx(reference.mu, rel=TOLERANCE, abs=TOLERANCE)
        assert sigma == pytest.approx(reference.sigma, rel=TOLERANCE, abs=TOLERANCE)


def test_r11_the_side_of_the_knocker_wins_unless_he_is_undercut() -> None:
    roles = Roles(box=1, captain=2, sitter=3)
    assert won_by_box(HandRecord(roles, Role.BOX, Score(Outcome.GIN, Side.KNOCKER, 30))) is True
    assert won_by_box(HandRecord(roles, Role.BOX, Score(Outcome.UNDERCUT, Side.DEFENDER, 0))) is False  # R17
    assert won_by_box(HandRecord(roles, Role.CAPTAIN, Score(Outcome.KNOCK, Side.KNOCKER, 4))) is False
    assert won_by_box(HandRecord(roles, Role.CAPTAIN, Score(Outcome.UNDERCUT, Side.DEFENDER, 12))) is True
    assert won_by_box(HandRecord(roles, None, Score(Outcome.DRAW, None, 0))) is None  # R12
    assert BOX_WON == {
        ("box", "knocker"): True,
        ("box", "defender"): False,
        ("captain", "knocker"): False,
        ("captain", "defender"): True,
        ("box", None): None,
        ("captain", None): None,
        (None, None): None,
        # R28: a two-player hand's row keeps its dealer as its box: did the dealer win?
        ("dealer", "knocker"): True,
        ("dealer", "defender"): False,
        ("non_dealer", "knocker"): False,
        ("non_dealer", "defender"): True,
        ("dealer", None): None,
        ("non_dealer", None): None,
    }


def test_r11_r12_rate_hands_over_hand_records_equals_openskill() -> None:
    hands = random_hands(500, seed=7, players=5)
    records = [
        HandRecord(
            Roles(box=box, captain=captain, sitter=sitter),
            None if box_won is None else Role.BOX,
            Score(Outcome.DRAW, None, 0)
            if box_won is None
            else Score(Outcome.KNOCK, Side.KNOCKER if box_won else Side.DEFENDER, 1),
        )
        for box, captain, sitter, box_won in hands
    ]
    expected: dict[int, object] = {}
    for box, captain, sitter, box_won in hands:
        if box_won is not None:
            openskill_hand(expected, box, captain, sitter, box_won)
    rated = rate_hands(records)
    assert sorted(rated) == sorted(expected)
    for p, (mu, sigma, _n) in rated.items():
        assert abs(mu - expected[p].mu) <= TOLERANCE  # type: ignore[attr-defined]
        assert abs(sigma - expected[p].sigma) <= TOLERANCE  # type: ignore[attr-defined]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_r28_r36_a_two_player_log_rates_dealer_against_non_dealer_as_openskill(seed: int) -> None:
    """A two-player or cutthroat hand is (dealer, non-dealer, None, dealer won):
    two teams of one, exactly openskill's ``rate([[dealer], [non_dealer]])``."""
    rng = random.Random(seed)
    hands = [
        (*rng.sample(range(1, 5), 2), None, None if rng.random() < 0.05 else rng.random() < 0.5) for _ in range(60)
    ]
    expected: dict[int, object] = {}
    for dealer, non_dealer, _, dealer_won in hands:
        if dealer_won is None:
            continue
        for p in (dealer, non_dealer):
            expected.setdefault(p, MODEL.rating())
        [[expected[dealer]], [expected[non_dealer]]] = MODEL.rate(
            [[expected[dealer]], [expected[non_dealer]]], ranks=[0, 1] if dealer_won else [1, 0]
        )
    rated = rate_log(hands)
    assert sorted(rated) == sorted(expected)
    for p, (mu, sigma, n) in rated.items():
        assert abs(mu - expected[p].mu) <= TOLERANCE  # type: ignore[attr-defined]
        assert abs(sigma - expected[p].sigma) <= TOLERANCE  # type: ignore[attr-defined]
        assert n == sum(1 for d, nd, _, won in hands if won is not None and p in (d, nd))
