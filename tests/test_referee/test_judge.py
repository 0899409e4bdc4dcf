"""Ruling on a whole hand (R14-R18, R21-R24)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import HandError, IllegalKnockError, MeldError, RefereeError, Rules, judge_hand
from tests.test_referee.referee_helpers import PROPERTY, card, cards, deals, melds, names, strs


def summary(ruling):
    return (
        str(ruling.outcome),
        str(ruling.scorer),
        ruling.points,
        ruling.knocker.deadwood_count,
        ruling.defender.deadwood_count,
    )


def test_r24_the_example_three_sets_beat_three_runs():
    ruling = judge_hand(cards("4H 5H 6H 4S 5S 6S 4D 5D 6D KC"), cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"))
    assert summary(ruling) == ("knock", "knocker", 10, 10, 20)
    assert strs(ruling.knocker.melds) == ["4S 4H 4D", "5S 5H 5D", "6S 6H 6D"]
    assert names(ruling.knocker.deadwood) == ["KC"]
    assert strs(ruling.defender.melds) == ["AH 2H 3H", "7H 8H 9H"]
    assert ruling.defender.layoffs == ()
    assert names(ruling.defender.deadwood) == ["2S", "3S", "7S", "8S"]
    assert ruling.knocker.better is None
    assert ruling.defender_better is None


def test_r24_the_three_runs_would_have_been_undercut():
    ruling = judge_hand(
        cards("4H 5H 6H 4S 5S 6S 4D 5D 6D KC"),
        cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"),
        knocker_melds=melds("4S 5S 6S | 4H 5H 6H | 4D 5D 6D"),
    )
    assert summary(ruling) == ("undercut", "defender", 20, 10, 0)
    assert strs(ruling.defender.layoffs) == ["3S -> 0", "7S -> 0", "2S -> 0", "8S -> 0"]
    assert ruling.knocker.better is None  # same deadwood: a choice, not a mistake


WORSE_KNOCKER = "2S 3S 4S 4H 4D 8C 9C 10C JC AH"
WORSE_DEFENDER = "5S 6S 7C QC KH 10D 9H 3C 2C 5D"


def test_r22_a_worse_declared_knocker_arrangement_is_honoured_and_the_better_one_shown():
    ruling = judge_hand(cards(WORSE_KNOCKER), cards(WORSE_DEFENDER), knocker_melds=melds("2S 3S 4S | 8C 9C 10C JC"))
    assert summary(ruling) == ("knock", "knocker", 30, 9, 39)
    assert strs(ruling.knocker.melds) == ["2S 3S 4S", "8C 9C 10C JC"]
    assert names(ruling.knocker.deadwood) == ["AH", "4H", "4D"]
    assert strs(ruling.defender.layoffs) == ["5S -> 0", "6S -> 0", "7C -> 1", "QC -> 1"]
    assert str(ruling.knocker.better) == "4S 4H 4D | 8C 9C 10C JC | deadwood 2S 3S AH"


def test_r24_undeclared_the_same_knocker_takes_the_least_deadwood():
    ruling = judge_hand(cards(WORSE_KNOCKER), cards(WORSE_DEFENDER))
    assert summary(ruling) == ("knock", "knocker", 44, 6, 50)
    assert strs(ruling.knocker.melds) == ["4S 4H 4D", "8C 9C 10C JC"]
    assert strs(ruling.defender.layoffs) == ["7C -> 1", "QC -> 1"]
    assert ruling.knocker.better is None


K3_HAND = "6H 7H 8H 2S 3S 4S JD QD KD AC"
NINES = "9S 9H 9D 9C 10H 5C KS 3D 4C 2D"


def test_r22_worse_declared_defender_melds_are_honoured_and_the_better_play_shown():
    ruling = judge_hand(cards(K3_HAND), cards(NINES), defender_melds=melds("9S 9H 9D 9C"))
    assert summary(ruling) == ("knock", "knocker", 33, 1, 34)
    assert strs(ruling.defender.melds) == ["9S 9H 9D 9C"]
    assert ruling.defender.layoffs == ()
    better = ruling.defender_better
    assert strs(better.melds) == ["9S 9D 9C"]
    assert strs(better.layoffs) == ["9H -> 1", "10H -> 1"]
    assert better.deadwood_count == 24


def test_r24_declared_defender_melds_with_undeclared_layoffs_get_the_best_layoffs_of_the_rest():
    ruling = judge_hand(cards(K3_HAND), cards(NINES), defender_melds=melds("9S 9D 9C"))
    assert summary(ruling) == ("knock", "knocker", 23, 1, 24)
    assert strs(ruling.defender.layoffs) == ["9H -> 1", "10H -> 1"]
    assert ruling.defender_better is None


def test_r22_worse_declared_layoffs_are_honoured_and_the_better_play_shown():
    ruling = judge_hand(
        cards("5H 6H 7H 2S 2D 2C JC QC KC 4D"),
        cards("8H 9H AS 3S KD 10D 6C 7S 4C QS"),
        knocker_melds=melds("5H 6H 7H | 2S 2D 2C | JC QC KC"),
        layoffs=[],
    )
    assert summary(ruling) == ("knock", "knocker", 64, 4, 68)
    assert strs(ruling.defender_better.layoffs) == ["8H -> 0", "9H -> 0"]
    assert ruling.defender_better.deadwood_count == 51


def test_r18_worse_declared_defender_melds_against_gin_are_honoured_and_the_better_shown():
    ruling = judge_hand(
        cards("3H 4H 5H 6H 9S 9D 9C QS QD QC"), cards("7H 8H 9H 10H 2S 2D 2C JS JD JC"), defender_melds=[]
    )
    assert summary(ruling) == ("gin", "knocker", 95, 0, 70)
    assert strs(ruling.defender_better.melds) == ["2S 2D 2C", "JS JD JC", "7H 8H 9H 10H"]
    assert ruling.defender_better.deadwood_count == 0


GIN_ABLE = "5H 6H 7H 2S 2D 2C 10C JC QC KC"
AGAINST_GIN_ABLE = "2H 4H 8H 9H KS KD KH AS AD 3D"


def test_r22_a_knocker_who_could_go_gin_but_declares_deadwood_has_knocked_and_is_undercut():
    ruling = judge_hand(cards(GIN_ABLE), cards(AGAINST_GIN_ABLE), knocker_melds=melds("2S 2D 2C | 5H 6H 7H | JC QC KC"))
    assert summary(ruling) == ("undercut", "defender", 15, 10, 5)
    assert strs(ruling.defender.melds) == ["KS KH KD"]
    assert strs(ruling.defender.layoffs) == ["2H -> 0", "4H -> 1", "8H -> 1", "9H -> 1"]
    assert str(ruling.knocker.better) == "2S 2D 2C | 5H 6H 7H | 10C JC QC KC"


def test_r18_undeclared_the_same_knocker_goes_gin():
    ruling = judge_hand(cards(GIN_ABLE), cards(AGAINST_GIN_ABLE))
    assert summary(ruling) == ("gin", "knocker", 53, 0, 28)
    assert ruling.defender.layoffs == ()


def test_r24_the_knockers_tie_break_plays_against_the_defenders_declared_melds():
    # Two spreads leave 10: four 4s + 5C-8C, or three 4s + 4C-8C. Against the
    # defender's best reply both are undercut alike; against his declared set of
    # nines the four 4s do best for the knocker (the 3C finds no run end).
    # RULES.md R24 reading pinned here: "undeclared parts are arranged around
    # the declared ones", the knocker's spread included.
    knocker, defender = cards("4S 4H 4D 4C 5C 6C 7C 8C 7S 3H"), cards("3S 9S 8H 9H 10H JH 3D 9D 3C 9C")
    undeclared = judge_hand(knocker, defender)
    assert summary(undeclared) == ("undercut", "defender", 20, 10, 0)
    assert strs(undeclared.knocker.melds) == ["4S 4H 4D", "4C 5C 6C 7C 8C"]
    ruling = judge_hand(knocker, defender, defender_melds=melds("9S 9H 9D"))
    assert summary(ruling) == ("knock", "knocker", 27, 10, 37)
    assert strs(ruling.knocker.melds) == ["4S 4H 4D 4C", "5C 6C 7C 8C"]
    assert strs(ruling.defender.layoffs) == ["9C -> 1"]
    assert ruling.defender_better.deadwood_count == 0


def test_r21_the_discard_is_kept_and_has_no_effect_on_the_ruling():
    knocker, defender = cards(WORSE_KNOCKER), cards(WORSE_DEFENDER)
    assert judge_hand(knocker, defender, discard=card("KS")) == judge_hand(knocker, defender)


def test_r21_a_card_in_both_hands_is_refused_naming_both_places():
    with pytest.raises(HandError) as caught:
        judge_hand(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 5D"), cards("KH QD 8S 4H 2D 5D 6H JH 9D 5C"))
    err = caught.value
    assert str(err) == "5D appears twice (knocker_hand.cards[9] and defender_hand.cards[5])"
    assert (err.rule, err.field, err.card, err.first) == (
        "R21",
        "defender_hand.cards[5]",
        "5D",
        "knocker_hand.cards[9]",
    )


def test_r21_the_discard_must_be_distinct_from_both_hands():
    with pytest.raises(HandError) as caught:
        judge_hand(cards("AS 2S 3S 7H 7D 7C 9C 10C JC 5D"), cards("KH QD 8S 4H 2D 3C 6H JH 9D 5C"), discard=card("JH"))
    err = caught.value
    assert (err.rule, err.field, err.card, err.first) == ("R21", "knocker_hand.discard", "JH", "defender_hand.cards[7]")


@pytest.mark.parametrize(
    ("knocker", "defender", "field", "count"),
    [
        ("AS 2S 3S 7H 7D 7C 9C 10C JC", "KH QD 8S 4H 2D 3C 6H JH 9D 5C", "knocker_hand.cards", 9),
        ("AS 2S 3S 7H 7D 7C 9C 10C JC 5D 6D", "KH QD 8S 4H 2D 3C 6H JH 9D 5C", "knocker_hand.cards", 11),
        ("AS 2S 3S 7H 7D 7C 9C 10C JC 5D", "KH QD 8S 4H 2D 3C 6H JH 9D", "defender_hand.cards", 9),
    ],
)
def test_r21_each_hand_has_ten_cards(knocker, defender, field, count):
    with pytest.raises(HandError) as caught:
        judge_hand(cards(knocker), cards(defender))
    err = caught.value
    assert str(err) == f"{field} has {count} cards, not 10"
    assert (err.rule, err.field, err.count, err.expected) == ("R21", field, count, [10])


def test_r14_an_undeclared_knock_over_the_limit_is_an_illegal_knock():
    with pytest.raises(IllegalKnockError) as caught:
        judge_hand(cards("AS 2S 3S 7H 7D 7C 2D 4H 6C KC"), cards("9S 8H 10D JD 6S 5S 4D KH 3D 9C"))
    err = caught.value
    assert str(err) == "the least deadwood is 22, over the knock limit of 10"
    assert (err.rule, err.field, err.deadwood, err.limit, err.legal_arrangement) == (
        "R14",
        "knocker_hand.cards",
        22,
        10,
        None,
    )


def test_r14_declared_melds_over_the_limit_are_an_illegal_knock_showing_the_legal_one():
    with pytest.raises(IllegalKnockError) as caught:
        judge_hand(
            cards("7S 7H 7D 7C 8C 9C 2D 3D 4D JS"),
            cards("6C 5C KS QD 10H 3S 9H 4H AH 8S"),
            knocker_melds=melds("7S 7H 7D 7C | 2D 3D 4D"),
        )
    err = caught.value
    assert str(err) == "the declared melds leave deadwood 27, over the knock limit of 10"
    assert (err.rule, err.field, err.deadwood, err.limit) == ("R14", "knocker_hand.melds", 27, 10)
    assert str(err.legal_arrangement) == "7S 7H 7D | 2D 3D 4D | 7C 8C 9C | deadwood JS"


def test_r14_the_knock_limit_option_applies_to_the_hand():
    with pytest.raises(IllegalKnockError) as caught:
        judge_hand(
            cards("AS 2S 3S 8H 8D 8C JC QC KC 7D"), cards("4H 5S 9H 6C 3D KH 10S 2H QD 6D"), rules=Rules(knock_limit=5)
        )
    assert (caught.value.deadwood, caught.value.limit) == (7, 5)


@pytest.mark.parametrize(
    ("kwargs", "rule", "field"),
    [
        ({"knocker_melds": "QS KS AS | 7H 7D 7C"}, "R5", "knocker_hand.melds[0]"),
        ({"knocker_melds": "7H 7D 7C | 7S 8S 9S"}, "R22", "knocker_hand.melds[1]"),
        ({"knocker_melds": "7H 7D 7C | 3C 4C 5C | 5C 5H 5S"}, "R6", "knocker_hand.melds[2]"),
        ({"defender_melds": "9S 8H 10D"}, "R5", "defender_hand.melds[0]"),
        ({"defender_melds": "9S 9C"}, "R4", "defender_hand.melds[0]"),
        ({"defender_melds": "2S 3S 4S"}, "R22", "defender_hand.melds[0]"),
    ],
)
def test_r22_bad_declared_melds_name_their_hand_and_number(kwargs, rule, field):
    declared = {key: melds(value) for key, value in kwargs.items()}
    with pytest.raises(MeldError) as caught:
        judge_hand(cards("QS KS AS 7H 7D 7C 3C 4C 5C 2H"), cards("9S 8H 10D JD 6S 2S 4D KH 3D 9C"), **declared)
    assert (caught.value.rule, caught.value.field) == (rule, field)


def ruling_or_error(knocker, defender, **declared):
    try:
        return judge_hand(knocker, defender, **declared)
    except RefereeError as err:
        return type(err), err.rule, err.field, str(err)


@settings(PROPERTY, max_examples=300)
@given(deals(legal=False), st.randoms(use_true_random=False))
def test_r24_the_same_input_always_gives_the_same_ruling(deal, rnd):
    knocker, defender = deal
    first = ruling_or_error(knocker, defender)
    assert ruling_or_error(list(knocker), list(defender)) == first
    shuffled_knocker, shuffled_defender = list(knocker), list(defender)
    rnd.shuffle(shuffled_knocker)
    rnd.shuffle(shuffled_defender)
    assert ruling_or_error(shuffled_knocker, shuffled_defender) == first


@settings(PROPERTY, max_examples=300)
@given(deals())
def test_r22_r24_declaring_what_the_referee_chose_gives_the_same_ruling(deal):
    knocker, defender = deal
    ruling = judge_hand(knocker, defender)
    knocker_melds = [list(m.cards) for m in ruling.knocker.melds]
    defender_melds = [list(m.cards) for m in ruling.defender.melds]
    for declared in (
        {"knocker_melds": knocker_melds},
        {"knocker_melds": knocker_melds, "defender_melds": defender_melds},
        {"knocker_melds": knocker_melds, "layoffs": list(ruling.defender.layoffs)},
        {"knocker_melds": knocker_melds, "defender_melds": defender_melds, "layoffs": list(ruling.defender.layoffs)},
    ):
        again = judge_hand(knocker, defender, **declared)
        assert summary(again) == summary(ruling)
        assert again.knocker.better is None
        assert again.defender_better is None
