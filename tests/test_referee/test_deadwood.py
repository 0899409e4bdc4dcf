"""Least deadwood (R7), every least-deadwood arrangement in R3 order, the best discard."""

import pytest
from hypothesis import given, settings

from referee import arrangements, best_arrangement, best_discard, least_deadwood
from tests import reference
from tests.test_referee.referee_helpers import PROPERTY, cards, meldy_hands, names, strs


@pytest.mark.parametrize(
    ("text", "least"),
    [
        ("AS 2S 3S 7H 7D 7C 9C 10C JC KD", 10),
        ("AS 2S 3S 7H 7D 7C 9C 10C JC 5D", 5),
        ("2S 4H 6D 8C 10S QH KD AC 3C 5S", 59),  # no meld at all
        ("5H 6H 7H 2S 2D 2C 10C JC QC KC", 0),  # gin
        ("3S 4S 5S 6S 7S 8S 9S 10S JS QS", 0),  # one long run
        ("7S 7H 7D 7C 8C 9C 2D 3D 4D JS", 10),  # R6: a seven goes to the run
        ("4H 5H 6H 4S 5S 6S 4D 5D 6D KC", 10),  # three sets or three runs
        ("QS KS AS KD AD 2D 5H 5D 9C JC", 63),  # R5: no run around the corner
        ("AS 2S 3S 4S 8H 8D 8C 2C 4D 5C", 11),
        ("5S 5H 5D 5C 4S 6S 4C 6C KD QD", 30),
        ("5S 6S 7S 7H 7D 7C 8H 9H KD QC", 31),  # R6: of four sevens, the heart goes to its run
        ("7S 7H 7D 7C 2S 3S 4S 9C 9D 9H", 0),  # a set of four beside a run and a set: gin
    ],
)
def test_r7_least_deadwood_examples(text, least):
    assert least_deadwood(cards(text)) == least


def test_r7_least_deadwood_of_eleven_cards():
    assert least_deadwood(cards("3S 4S 5S 6S 2H 4H 5H 6H 2D 5D 6C")) == 15


def test_r3_a_long_run_is_listed_whole_before_its_splits():
    assert strs(arrangements(cards("AS 2S 3S 4S 5S 6S 9H 9D 9C 2D"))) == [
        "AS 2S 3S 4S 5S 6S | 9H 9D 9C | deadwood 2D",
        "AS 2S 3S | 4S 5S 6S | 9H 9D 9C | deadwood 2D",
    ]


def test_r3_splits_of_a_seven_card_run_come_shorter_first_meld_first():
    assert strs(arrangements(cards("AS 2S 3S 4S 5S 6S 7S 9H 9D 9C"))) == [
        "AS 2S 3S 4S 5S 6S 7S | 9H 9D 9C",
        "AS 2S 3S | 4S 5S 6S 7S | 9H 9D 9C",
        "AS 2S 3S 4S | 5S 6S 7S | 9H 9D 9C",
    ]


def test_r3_every_split_of_a_ten_card_run_in_canonical_order():
    assert strs(arrangements(cards("QS JS 10S 9S 8S 7S 6S 5S 4S 3S"))) == [
        "3S 4S 5S 6S 7S 8S 9S 10S JS QS",
        "3S 4S 5S | 6S 7S 8S 9S 10S JS QS",
        "3S 4S 5S 6S | 7S 8S 9S 10S JS QS",
        "3S 4S 5S 6S 7S | 8S 9S 10S JS QS",
        "3S 4S 5S 6S 7S 8S | 9S 10S JS QS",
        "3S 4S 5S 6S 7S 8S 9S | 10S JS QS",
        "3S 4S 5S | 6S 7S 8S | 9S 10S JS QS",
        "3S 4S 5S | 6S 7S 8S 9S | 10S JS QS",
        "3S 4S 5S 6S | 7S 8S 9S | 10S JS QS",
    ]


def test_r3_three_runs_come_before_three_sets_card_by_card():
    assert strs(arrangements(cards("4H 5H 6H 4S 5S 6S 4D 5D 6D KC"))) == [
        "4S 5S 6S | 4H 5H 6H | 4D 5D 6D | deadwood KC",
        "4S 4H 4D | 5S 5H 5D | 6S 6H 6D | deadwood KC",
    ]


def test_r6_each_way_to_share_a_four_of_a_kind_is_listed():
    assert strs(arrangements(cards("5S 5H 5D 5C 4S 6S 4C 6C KD QD"))) == [
        "4S 5S 6S | 5H 5D 5C | deadwood QD KD 4C 6C",
        "4S 5S 6S | 4C 5C 6C | deadwood 5H 5D QD KD",
        "5S 5H 5D | 4C 5C 6C | deadwood 4S 6S QD KD",
    ]
    assert strs(arrangements(cards("5S 6S 7S 7H 7D 7C 5C 6C 2D 3H"))) == [
        "5S 6S 7S | 7H 7D 7C | deadwood 3H 2D 5C 6C",
        "7S 7H 7D | 5C 6C 7C | deadwood 5S 6S 3H 2D",
    ]


def test_r7_a_hand_without_melds_has_one_arrangement():
    assert strs(arrangements(cards("2S 4H 6D 8C 10S QH KD AC 3C 5S"))) == ["deadwood 2S 5S 10S 4H QH 6D KD AC 3C 8C"]


def test_r7_arrangements_without_splits_keep_each_block_whole():
    assert strs(arrangements(cards("AS 2S 3S 4S 5S 6S 7S 9H 9D 9C"), splits=False)) == [
        "AS 2S 3S 4S 5S 6S 7S | 9H 9D 9C"
    ]
    assert str(best_arrangement(cards("4H 5H 6H 4S 5S 6S 4D 5D 6D KC"))) == (
        "4S 5S 6S | 4H 5H 6H | 4D 5D 6D | deadwood KC"
    )


def test_r14_best_discard_the_openspiel_counter_example():
    # Discarding the 6C keeps both runs and leaves 2H 2D 5D = 9; a greedy
    # "highest deadwood card" discard does worse.
    discard, count = best_discard(cards("3S 4S 5S 6S 2H 4H 5H 6H 2D 5D 6C"))
    assert str(discard) == "6C"
    assert count == 9


def test_r14_best_discard_ties_go_to_the_higher_valued_card():
    # 3S and 7S both leave gin; the 7 is worth more.
    assert best_discard(cards("3S 4S 5S 6S 7S 9H 9D 9C KH KD KC")) == (cards("7S")[0], 0)


@pytest.mark.parametrize(
    ("text", "discard", "count"),
    [
        ("AS 2S 3S 4H 4D 4C 7C 8C 9C KD QH", "QH", 10),
        ("AS 2S 3S 4H 4D 4C 7C 8C 9C KD 10H", "10H", 10),
        ("AS 2S 3S 4H 4D 4C 7C 8C 9C 5D 5H", "5H", 5),
    ],
)
def test_r14_best_discard_ties_of_equal_value_go_to_the_first_card_in_canonical_order(text, discard, count):
    card, least = best_discard(cards(text))
    assert (str(card), least) == (discard, count)


@pytest.mark.slow
@settings(PROPERTY, max_examples=3000)
@given(meldy_hands(10))
def test_r7_least_deadwood_equals_the_brute_force_reference_on_ten_cards(hand):
    assert least_deadwood(hand) == reference.least_deadwood(names(hand))


@settings(PROPERTY, max_examples=500)
@given(meldy_hands(11))
def test_r7_least_deadwood_equals_the_brute_force_reference_on_eleven_cards(hand):
    assert least_deadwood(hand) == reference.least_deadwood(names(hand))


@settings(PROPERTY, max_examples=300)
@given(meldy_hands(11))
def test_r14_best_discard_count_equals_the_brute_force_reference(hand):
    discard, count = best_discard(hand)
    assert discard in hand
    assert count == reference.best_discard_deadwood(names(hand))
    assert least_deadwood([c for c in hand if c != discard]) == count


@settings(PROPERTY, max_examples=300)
@given(meldy_hands(10))
def test_r3_r7_arrangements_are_exactly_the_least_deadwood_ones_in_canonical_order(hand):
    found = arrangements(hand)
    least = least_deadwood(hand)
    hand_names = names(hand)
    expected = {
        frozenset(arr) for arr in reference.arrangements(hand_names) if reference.deadwood(hand_names, arr) == least
    }
    got = [frozenset(frozenset(names(m.cards)) for m in a.melds) for a in found]
    assert len(set(got)) == len(got)
    assert set(got) == expected
    assert [a.key for a in found] == sorted(a.key for a in found)
    for a in found:
        assert a.deadwood_count == least
        assert sorted(a.deadwood) == list(a.deadwood)
        assert sorted([*a.deadwood, *(c for m in a.melds for c in m.cards)]) == sorted(hand)
    assert found[0] == arrangements(hand, splits=False)[0] == best_arrangement(hand)
