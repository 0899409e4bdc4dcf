"""Judging a knock (R14) and the hand it is judged on (R21, R22)."""

import pytest

from referee import HandError, MeldError, Rules, judge_knock
from tests.test_referee.referee_helpers import card, cards, melds, names, strs

COUNTER_EXAMPLE = "3S 4S 5S 6S 2H 4H 5H 6H 2D 5D 6C"  # 11 cards, before the discard


def test_r14_a_knock_within_the_limit_is_valid():
    verdict = judge_knock(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 5D"))
    assert verdict.valid
    assert verdict.deadwood_count == 5
    assert str(verdict.arrangement) == "AS 2S 3S | 7H 7D 7C | 9C 10C JC | deadwood 5D"
    assert (verdict.reason, verdict.rule, verdict.better, verdict.discard) == (None, None, None, None)


def test_r14_ten_deadwood_is_within_the_limit():
    verdict = judge_knock(cards("AS 2S 3S 4S 8H 8D 8C 2C 3D 5C"))
    assert verdict.valid
    assert verdict.deadwood_count == 10


def test_r14_a_knock_over_the_limit_is_an_invalid_verdict_not_an_error():
    verdict = judge_knock(cards("AS 2S 3S 7H 7D 7C 2D 4H 6C KC"))
    assert not verdict.valid
    assert verdict.rule == "R14"
    assert verdict.deadwood_count == 22
    assert str(verdict.arrangement) == "AS 2S 3S | 7H 7D 7C | deadwood 4H 2D 6C KC"
    assert verdict.reason == "the least deadwood 22, over the knock limit of 10"
    assert verdict.legal_arrangement is None  # there is none


def test_r14_eleven_deadwood_is_one_over_the_limit():
    verdict = judge_knock(cards("AS 2S 3S 4S 8H 8D 8C 2C 4D 5C"))
    assert not verdict.valid
    assert verdict.deadwood_count == 11


def test_r14_declared_melds_over_the_limit_are_invalid_and_the_legal_arrangement_is_shown():
    verdict = judge_knock(cards("7S 7H 7D 7C 8C 9C 2D 3D 4D JS"), melds("7S 7H 7D 7C | 2D 3D 4D"))
    assert not verdict.valid
    assert verdict.rule == "R14"
    assert verdict.deadwood_count == 27
    assert strs(verdict.arrangement.melds) == ["7S 7H 7D 7C", "2D 3D 4D"]
    assert names(verdict.arrangement.deadwood) == ["JS", "8C", "9C"]
    assert verdict.reason == "the declared melds leave deadwood 27, over the knock limit of 10"
    assert str(verdict.legal_arrangement) == "7S 7H 7D | 2D 3D 4D | 7C 8C 9C | deadwood JS"
    assert str(verdict.better) == "7S 7H 7D | 2D 3D 4D | 7C 8C 9C | deadwood JS"


def test_r14_declaring_no_melds_is_declared_and_judged_on_all_ten_cards():
    verdict = judge_knock(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 5D"), [])
    assert not verdict.valid
    assert verdict.deadwood_count == 61
    assert verdict.arrangement.melds == ()
    assert str(verdict.legal_arrangement) == "AS 2S 3S | 7H 7D 7C | 9C 10C JC | deadwood 5D"


def test_r22_declared_melds_keep_the_order_declared():
    verdict = judge_knock(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 5D"), melds("9C 10C JC | 7D 7C 7H | 3S 2S AS"))
    assert verdict.valid
    assert strs(verdict.arrangement.melds) == ["9C 10C JC", "7H 7D 7C", "AS 2S 3S"]
    assert verdict.better is None


def test_r22_a_legal_but_worse_declared_arrangement_stands_and_the_better_one_is_shown():
    verdict = judge_knock(cards("2S 3S 4S 4H 4D 8C 9C 10C JC AH"), melds("2S 3S 4S | 8C 9C 10C JC"))
    assert verdict.valid
    assert verdict.deadwood_count == 9
    assert names(verdict.arrangement.deadwood) == ["AH", "4H", "4D"]
    assert str(verdict.better) == "4S 4H 4D | 8C 9C 10C JC | deadwood 2S 3S AH"
    assert verdict.better.deadwood_count == 6


def test_r14_eleven_cards_without_a_discard_take_the_best_discard():
    verdict = judge_knock(cards(COUNTER_EXAMPLE))
    assert verdict.valid
    assert str(verdict.discard) == "6C"
    assert verdict.deadwood_count == 9
    assert str(verdict.arrangement) == "3S 4S 5S 6S | 4H 5H 6H | deadwood 2H 2D 5D"


def test_r14_eleven_cards_with_a_discard_are_judged_on_the_other_ten():
    verdict = judge_knock(cards(COUNTER_EXAMPLE), discard=card("5D"))
    assert verdict.valid
    assert str(verdict.discard) == "5D"
    assert verdict.deadwood_count == 10
    assert str(verdict.arrangement) == "3S 4S 5S 6S | 4H 5H 6H | deadwood 2H 2D 6C"


def test_r14_eleven_cards_with_a_bad_discard_can_be_over_the_limit():
    verdict = judge_knock(cards(COUNTER_EXAMPLE), discard=card("2H"))
    assert not verdict.valid
    assert verdict.deadwood_count == 13
    assert verdict.legal_arrangement is None


def test_r14_eleven_cards_with_declared_melds_discard_the_highest_free_card():
    verdict = judge_knock(cards(COUNTER_EXAMPLE), melds("3S 4S 5S 6S | 4H 5H 6H"))
    assert verdict.valid
    assert str(verdict.discard) == "6C"
    assert verdict.deadwood_count == 9


def test_r14_eleven_cards_with_declared_melds_using_all_of_them_must_name_the_discard():
    hand = cards("AS 2S 3S 4S 5S 6S 7H 8H 9H 10H JH")
    with pytest.raises(MeldError) as caught:
        judge_knock(hand, melds("AS 2S 3S 4S 5S 6S | 7H 8H 9H 10H JH"))
    assert caught.value.field == "melds"
    verdict = judge_knock(hand, melds("AS 2S 3S 4S 5S 6S | 7H 8H 9H 10H"), discard=card("JH"))
    assert verdict.valid
    assert verdict.deadwood_count == 0


def test_r21_ten_cards_may_come_with_the_discard_that_was_made():
    verdict = judge_knock(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 5D"), discard=card("KH"))
    assert verdict.valid
    assert str(verdict.discard) == "KH"
    assert verdict.deadwood_count == 5


@pytest.mark.parametrize(
    ("limit", "text", "valid"),
    [
        (5, "AS 2S 3S 8H 8D 8C JC QC KC 7D", False),
        (5, "AS 2S 3S 8H 8D 8C JC QC KC 5D", True),
        (0, "AS 2S 3S 8H 8D 8C JC QC KC AD", False),
        (0, "5H 6H 7H 2S 2D 2C 10C JC QC KC", True),
    ],
)
def test_r14_the_knock_limit_option(limit, text, valid):
    verdict = judge_knock(cards(text), rules=Rules(knock_limit=limit))
    assert verdict.valid is valid
    if not valid:
        assert verdict.reason.endswith(f"over the knock limit of {limit}")


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("AS 2S 3S 7H 7D 7C 9C 10C JC", 9),
        ("AS 2S 3S 7H 7D 7C 9C 10C JC 5D 6D 7D", 12),
        ("", 0),
    ],
)
def test_r21_a_hand_of_the_wrong_size_is_a_hand_error(text, count):
    with pytest.raises(HandError) as caught:
        judge_knock(cards(text))
    err = caught.value
    assert str(err) == f"cards has {count} cards, not 10 or 11"
    assert (err.rule, err.field, err.count, err.expected) == ("R21", "cards", count, [10, 11])


def test_r21_a_card_given_twice_is_a_hand_error_naming_it():
    with pytest.raises(HandError) as caught:
        judge_knock(cards("AS 2S 3S 7H 7D 7C 9C 10C 2S 5D"))
    err = caught.value
    assert str(err) == "2S appears twice (cards[1] and cards[8])"
    assert (err.rule, err.field, err.card, err.first) == ("R21", "cards[8]", "2S", "cards[1]")


def test_r21_the_discard_may_not_also_be_in_the_ten_cards():
    with pytest.raises(HandError) as caught:
        judge_knock(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 5D"), discard=card("5D"))
    assert (caught.value.rule, caught.value.field, caught.value.card) == ("R21", "discard", "5D")


def test_r21_the_discard_of_eleven_cards_must_be_one_of_them():
    with pytest.raises(HandError) as caught:
        judge_knock(cards(COUNTER_EXAMPLE), discard=card("KD"))
    assert (caught.value.rule, caught.value.field, caught.value.card) == ("R21", "discard", "KD")


def test_r22_a_declared_meld_with_a_card_not_in_the_hand_is_refused():
    with pytest.raises(MeldError) as caught:
        judge_knock(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 5D"), melds("AS 2S 3S | 7S 7H 7D"))
    err = caught.value
    assert str(err) == "7S is not in the hand"
    assert (err.rule, err.field, err.card) == ("R22", "melds[1]", "7S")


def test_r22_the_discard_is_not_in_the_hand_for_the_melds():
    with pytest.raises(MeldError) as caught:
        judge_knock(cards(COUNTER_EXAMPLE), melds("3S 4S 5S 6S | 5H 5D 5C"), discard=card("5D"))
    assert (caught.value.rule, caught.value.field, caught.value.card) == ("R22", "melds[1]", "5D")


def test_r6_overlapping_declared_melds_are_refused():
    with pytest.raises(MeldError) as caught:
        judge_knock(cards("7S 7H 7D 7C 8C 9C 2D 3D 4D JS"), melds("7S 7H 7D 7C | 7C 8C 9C"))
    err = caught.value
    assert str(err) == "7C is in melds 0 and 1"
    assert (err.rule, err.field, err.card, err.melds) == ("R6", "melds[1]", "7C", [0, 1])


@pytest.mark.parametrize(
    ("declared", "rule", "meld"),
    [
        ("2D 3D 4D | 7C 8C JS", "R5", ["7C", "8C", "JS"]),
        ("2D 3D 4D | 7S 7H", "R4", ["7S", "7H"]),
    ],
)
def test_r4_r5_a_declared_meld_that_is_not_a_meld_is_refused(declared, rule, meld):
    with pytest.raises(MeldError) as caught:
        judge_knock(cards("7S 7H 7D 7C 8C 9C 2D 3D 4D JS"), melds(declared))
    err = caught.value
    assert (err.rule, err.field, err.meld) == (rule, "melds[1]", meld)
