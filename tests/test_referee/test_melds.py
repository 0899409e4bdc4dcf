"""Melds (R4-R7)."""

import pytest
from hypothesis import given, settings

from referee import Meld, MeldError, all_melds, is_meld, judge_knock, least_deadwood, verify_meld
from referee.melds import MeldKind, make_arrangement
from tests import reference
from tests.test_referee.referee_helpers import PROPERTY, cards, meld_objects, melds, meldy_hands, names, strs


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7S 7H 7D", "7S 7H 7D"),
        ("7D 7S 7H", "7S 7H 7D"),
        ("7C 7H 7S", "7S 7H 7C"),
        ("KC KD KH KS", "KS KH KD KC"),
    ],
)
def test_r4_sets_of_three_or_four(text, canonical):
    meld = verify_meld(cards(text))
    assert str(meld) == canonical
    assert meld.kind is MeldKind.SET
    assert str(meld.kind) == "set"
    assert is_meld(cards(text))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3S AS 2S", "AS 2S 3S"),
        ("AH 2H 3H", "AH 2H 3H"),
        ("JD QD KD", "JD QD KD"),
        ("9C KC 10C QC JC", "9C 10C JC QC KC"),
        ("4H 5H 6H 7H 8H 9H 10H", "4H 5H 6H 7H 8H 9H 10H"),
    ],
)
def test_r5_runs_of_three_or_more_same_suit_consecutive_ace_low(text, canonical):
    meld = verify_meld(cards(text))
    assert str(meld) == canonical
    assert meld.kind is MeldKind.RUN
    assert len(meld) == len(cards(text))
    assert is_meld(cards(text))


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("QS KS AS", "R5"),  # Ace is low only (R1)
        ("KD AD 2D", "R5"),  # no wrap past King
        ("QH KH AH 2H", "R5"),
        ("4H 5H 7H", "R5"),  # a gap
        ("4H 5H 6S", "R5"),  # two suits
        ("AS 2S", "R5"),  # too short for a run
        ("7S 7H 8D", "R5"),
        ("7S 7H", "R4"),  # too short for a set
        ("AS AS 2S", "R6"),  # a card twice
        ("7S 7H 7D 7C 7S", "R6"),
    ],
)
def test_r4_r5_r6_verify_meld_names_the_rule_it_breaks(text, rule):
    given_cards = cards(text)
    with pytest.raises(MeldError) as caught:
        verify_meld(given_cards)
    err = caught.value
    assert err.rule == rule
    assert err.meld == text.split()
    assert isinstance(err, ValueError)
    assert not is_meld(given_cards)


def test_r4_r5_the_error_message_names_the_cards():
    with pytest.raises(MeldError, match=r"^QS KS AS is not a set \(R4\) or a run \(R5\)$"):
        verify_meld(cards("QS KS AS"))


def test_r5_meld_parse_and_repr_round_trip():
    meld = Meld.parse("3s as 2S")
    assert repr(meld) == "Meld.parse('AS 2S 3S')"
    assert eval(repr(meld), {"Meld": Meld}) == meld
    assert meld.value == 6


def test_r4_r5_r6_all_melds_of_a_hand_every_three_of_a_four_and_every_run_segment():
    hand = cards("7S 7H 7D 7C 8C 9C 10C 2D 3D 4D")
    assert strs(all_melds(hand)) == [
        "7S 7H 7D",
        "7S 7H 7D 7C",
        "7S 7H 7C",
        "7S 7D 7C",
        "7H 7D 7C",
        "2D 3D 4D",
        "7C 8C 9C",
        "7C 8C 9C 10C",
        "8C 9C 10C",
    ]


def test_r5_all_melds_lists_each_segment_of_a_long_run():
    assert strs(all_melds(cards("AS 2S 3S 4S 5S KH QH JH 9D 2C"))) == [
        "AS 2S 3S",
        "AS 2S 3S 4S",
        "AS 2S 3S 4S 5S",
        "2S 3S 4S",
        "2S 3S 4S 5S",
        "3S 4S 5S",
        "JH QH KH",
    ]


def test_r5_all_melds_finds_no_run_around_the_corner():
    assert all_melds(cards("QS KS AS KD AD 2D 5H 5D 9C JC")) == []


@settings(PROPERTY, max_examples=300)
@given(meldy_hands(10))
def test_r4_r5_all_melds_equals_the_brute_force_list(hand):
    found = all_melds(hand)
    assert len({m.key for m in found}) == len(found)
    assert {frozenset(names(m.cards)) for m in found} == set(reference.all_melds(names(hand)))
    assert [m.key for m in found] == sorted(m.key for m in found)  # R3 canonical order


def test_r6_four_of_a_kind_as_a_set_of_three_and_a_run():
    hand = cards("7S 7H 7D 7C 8C 9C 2D 3D 4D JS")
    assert least_deadwood(hand) == 10
    verdict = judge_knock(hand, melds("7S 7H 7D | 7C 8C 9C | 2D 3D 4D"))
    assert verdict.valid
    assert strs(verdict.arrangement.melds) == ["7S 7H 7D", "7C 8C 9C", "2D 3D 4D"]
    assert names(verdict.arrangement.deadwood) == ["JS"]


def test_r6_four_of_a_kind_as_a_set_of_three_leaving_the_fourth_as_deadwood():
    verdict = judge_knock(cards("9S 9H 9D 9C AS 2S 3S 5D 6D 7D"), melds("9S 9H 9D | AS 2S 3S | 5D 6D 7D"))
    assert verdict.valid
    assert verdict.deadwood_count == 9
    assert names(verdict.arrangement.deadwood) == ["9C"]


def test_r6_a_card_in_two_melds_is_refused():
    with pytest.raises(MeldError) as caught:
        judge_knock(cards("7S 7H 7D 7C 8C 9C 2D 3D 4D JS"), melds("7S 7H 7D 7C | 7C 8C 9C"))
    assert caught.value.rule == "R6"
    assert caught.value.card == "7C"


def test_r7_arrangement_lists_melds_by_first_card_and_deadwood_in_canonical_order():
    hand = cards("KD 7C 9C 7H AS 10C 2S 3S JC 7D")
    arrangement = make_arrangement(hand, meld_objects("9C 10C JC | 7H 7D 7C | AS 2S 3S"))
    assert strs(arrangement.melds) == ["AS 2S 3S", "7H 7D 7C", "9C 10C JC"]
    assert names(arrangement.deadwood) == ["KD"]
    assert arrangement.deadwood_count == 10
    assert str(arrangement) == "AS 2S 3S | 7H 7D 7C | 9C 10C JC | deadwood KD"


def test_r7_deadwood_of_a_hand_with_no_melds_is_every_card():
    hand = cards("2S 4H 6D 8C 10S QH KD AC 3C 5S")
    arrangement = make_arrangement(hand, [])
    assert arrangement.melds == ()
    assert arrangement.deadwood_count == 2 + 4 + 6 + 8 + 10 + 10 + 10 + 1 + 3 + 5
    assert least_deadwood(hand) == 59
