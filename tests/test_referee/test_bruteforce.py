"""The fast engine against the brute-force reading of RULES.md (tests/reference.py),
on deals built to contain legal knocks, gins, undercuts and layoffs."""

import random
from collections import Counter

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from referee import Rules, judge_hand, least_deadwood
from tests import reference
from tests.test_referee.referee_helpers import (
    PROPERTY,
    RandomChooser,
    build_defender,
    cards,
    deals,
    legal_knocker,
    names,
)

pytestmark = pytest.mark.slow  # long property and fuzz runs: make test-slow, make check, CI


def adjudication(ruling):
    return {
        "outcome": str(ruling.outcome),
        "scorer": str(ruling.scorer),
        "points": ruling.points,
        "knocker_deadwood": ruling.knocker.deadwood_count,
        "defender_deadwood": ruling.defender.deadwood_count,
    }


def kind(ruling):
    return str(ruling.outcome), "layoffs" if ruling.defender.layoffs else "no layoffs"


@settings(PROPERTY, max_examples=2000)
@given(deals())
@example((cards("4H 5H 6H 4S 5S 6S 4D 5D 6D KC"), cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")))  # R24
@example((cards("2S 3S 4S 6H 6D 6C JC QC KC 8D"), cards("AH 2H 3H 9S 10S JS 7S 7H 7D 8H")))  # undercut
@example((cards("5H 6H 7H 2S 2D 2C 10C JC QC KC"), cards("8H 4H 2H 9C AS 3S KD QD 6S 8S")))  # gin
@example((cards("10S 10D 10C JH QH KH 2C 3C 4C AD"), cards("10H 9H 5S 7D 8C 6S KS QD 3H 2D")))  # layoffs
def test_r14_r24_full_adjudication_equals_the_brute_force_reference(deal):
    knocker, defender = deal
    ruling = judge_hand(knocker, defender)
    event(" / ".join(kind(ruling)))
    assert adjudication(ruling) == reference.adjudicate(names(knocker), names(defender))


@settings(PROPERTY, max_examples=300)
@given(deals(legal=False), st.integers(0, 100), st.integers(0, 100), st.integers(0, 10))
def test_r14_r17_r18_adjudication_with_rule_options_equals_the_reference(deal, gin_bonus, undercut_bonus, limit):
    knocker, defender = deal
    rules = Rules(gin_bonus=gin_bonus, undercut_bonus=undercut_bonus, knock_limit=limit)
    expected = reference.adjudicate(names(knocker), names(defender), gin_bonus, undercut_bonus, limit)
    if expected is None:
        assert least_deadwood(knocker) > limit
        return
    assert adjudication(judge_hand(knocker, defender, rules=rules)) == expected


def test_the_deal_builder_makes_knocks_gins_undercuts_and_layoffs():
    """The same builder, on a seeded random source: what it makes, counted, and
    every one of those deals checked against the reference too."""
    rng = random.Random(20240601)
    seen = Counter()
    for _ in range(600):
        ch = RandomChooser(rng)
        knocker = legal_knocker(ch)
        defender = build_defender(ch, knocker)
        assert len(set(knocker) | set(defender)) == 20
        ruling = judge_hand(knocker, defender)
        assert adjudication(ruling) == reference.adjudicate(names(knocker), names(defender))
        seen[str(ruling.outcome)] += 1
        seen["layoffs"] += bool(ruling.defender.layoffs)
        seen["chained layoffs"] += any(
            sum(lo.meld == m for lo in ruling.defender.layoffs) >= 2 for m in range(len(ruling.knocker.melds))
        )
        seen["layoffs onto a set"] += any(
            len(ruling.knocker.melds[lo.meld].cards) == 3 and str(ruling.knocker.melds[lo.meld].kind) == "set"
            for lo in ruling.defender.layoffs
        )
        seen["undercut after layoffs"] += str(ruling.outcome) == "undercut" and bool(ruling.defender.layoffs)
        seen["undercut on equal counts"] += (
            str(ruling.outcome) == "undercut" and ruling.knocker.deadwood_count == ruling.defender.deadwood_count
        )
    assert seen["knock"] >= 250
    assert seen["gin"] >= 120
    assert seen["undercut"] >= 40
    assert seen["layoffs"] >= 80
    assert seen["chained layoffs"] >= 8
    assert seen["layoffs onto a set"] >= 15
    assert seen["undercut after layoffs"] >= 8
    assert seen["undercut on equal counts"] >= 5
