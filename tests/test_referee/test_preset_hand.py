"""Hands judged under a preset (R14, R25, R29, R32, R33, R35)."""

import pytest

from referee import CountError, HandError, IllegalKnockError, LayoffError, Outcome, Rules, Side, judge_hand
from referee.preset_hand import (
    DRAW_SCORE,
    HandScore,
    can_judge_preset_hand,
    explain_preset_counts,
    explain_preset_hand,
    judge_preset_hand,
    score_preset_counts,
)
from referee.presets import resolve_rules
from referee.steps import PRESET_STEPS, PresetCode
from tests.test_referee.referee_helpers import card, cards, layoffs, melds

# Knocker: three sets of 4s, 5s and 6s (he takes sets: as runs the defender's
# 3S 2S 7S 8S would lay off) plus one card; defender: AH-3H, 7H-9H and
# 2S 3S 7S 8S, 20 deadwood, nothing to lay off on the sets.
SETS = "4H 5H 6H 4S 5S 6S 4D 5D 6D"
DEFENDER = cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")

# Big gin: AS-4S, 5H 5D 5C, 9H-QH, all 11 melded; the defender's KS KH KD and
# 2H-4H leave 7C 8D 9D 5S, 29 deadwood (5S would lay off on the 5s).
GIN = cards("4S 5S 6S 4D 5D 6D 10C JC QC KC")  # a 10-card gin against DEFENDER
BIG_GIN = cards("AS 2S 3S 4S 5H 5D 5C 9H 10H JH QH")
BIG_GIN_DEFENDER = cards("KS KH KD 2H 3H 4H 7C 8D 9D 5S")


def test_r35_straight_refuses_any_knock_with_deadwood():
    with pytest.raises(IllegalKnockError) as caught:
        judge_preset_hand(resolve_rules("straight"), cards(SETS + " AC"), DEFENDER)
    err = caught.value
    assert (err.rule, err.deadwood, err.limit) == ("R35", 1, 0)
    assert [s.code for s in err.explanation] == ["knocker_spread", "knock_over_limit"]


def test_r35_straight_scores_a_gin():
    hand = judge_preset_hand(resolve_rules("straight"), GIN, DEFENDER)
    assert hand.score == HandScore(Outcome.GIN, Side.KNOCKER, 25 + 20, 1, False, 45)


def test_r14_classic_judges_as_judge_hand_with_its_undercut_bonus():
    hand = judge_preset_hand(resolve_rules("classic"), cards(SETS + " 3C"), DEFENDER)
    assert hand.ruling == judge_hand(cards(SETS + " 3C"), DEFENDER, rules=Rules(undercut_bonus=25))
    assert hand.score == HandScore(Outcome.KNOCK, Side.KNOCKER, 17, 1, False, 17)


def test_r27_three_handed_under_its_preset_is_todays_ruling_and_counts_no_box():
    hand = judge_preset_hand(resolve_rules(), cards(SETS + " 3C"), DEFENDER)
    assert hand.ruling == judge_hand(cards(SETS + " 3C"), DEFENDER)
    assert (hand.score.points, hand.score.boxes) == (17, 0)


@pytest.mark.parametrize(("up", "limit"), [("2D", 2), ("AD", 0)])
def test_r33_a_knock_over_the_up_cards_value_is_refused_citing_r33(up, limit):
    with pytest.raises(IllegalKnockError) as caught:
        judge_preset_hand(resolve_rules("oklahoma"), cards(SETS + " 3C"), DEFENDER, up_card=card(up))
    err = caught.value
    assert (err.rule, err.deadwood, err.limit) == ("R33", 3, limit)
    assert err.explanation[0].code == (PresetCode.UP_CARD_ACE if up == "AD" else PresetCode.UP_CARD_LIMIT)
    assert err.explanation[0].params == {"up_card": up, "limit": limit}


def test_r33_an_ace_up_card_is_gin_only_by_default_and_a_limit_of_1_with_ace_one():
    knocker = cards(SETS + " AC")
    with pytest.raises(IllegalKnockError) as caught:
        judge_preset_hand(resolve_rules("oklahoma"), knocker, DEFENDER, up_card=card("AD"))
    assert (caught.value.rule, caught.value.limit) == ("R33", 0)
    hand = judge_preset_hand(resolve_rules("oklahoma", {"ace": "one"}), knocker, DEFENDER, up_card=card("AD"))
    assert hand.score == HandScore(Outcome.KNOCK, Side.KNOCKER, 19, 1, False, 19)
    assert [s.text for s in explain_preset_hand(hand)][:1] == [
        "The up-card is the ace AD: by option ace the knock limit is 1 (R33)"
    ]


@pytest.mark.parametrize(("spades_double", "points", "boxes"), [("off", 17, 1), ("points", 34, 1), ("all", 34, 2)])
def test_r33_a_spade_up_card_doubles_the_points_and_with_all_the_boxes(spades_double, points, boxes):
    rules = resolve_rules("oklahoma", {"spades_double": spades_double})
    hand = judge_preset_hand(rules, cards(SETS + " 3C"), DEFENDER, up_card=card("3S"))
    assert hand.score == HandScore(Outcome.KNOCK, Side.KNOCKER, points, boxes, False, 17)
    assert hand.ruling.points == 17


def test_r33_r29_a_gin_under_a_spade_with_all_doubles_its_gin_boxes():
    rules = resolve_rules("oklahoma", {"spades_double": "all", "gin_boxes": 2, "gin_bonus": 20})
    hand = judge_preset_hand(rules, GIN, DEFENDER, up_card=card("KS"))
    assert hand.score == HandScore(Outcome.GIN, Side.KNOCKER, 80, 4, False, 40)
    assert [s.text for s in explain_preset_hand(hand)] == [
        "The up-card is KS: its value, 10, is the knock limit (R33)",
        "The knocker melds 4S 5S 6S | 4D 5D 6D | 10C JC QC KC and keeps nothing: 0 deadwood (R7)",
        "The defender melds AH 2H 3H | 7H 8H 9H and keeps 2S 3S 7S 8S: 20 deadwood (R16)",
        "Gin: the knocker has no deadwood, so the defender may not lay off and cannot score; "
        "the knocker scores the defender's 20 + 20 = 40 (R18)",
        "The up-card KS is a spade: the hand's points are doubled, 40 x 2 = 80 (R33)",
        "The up-card KS is a spade: the hand's boxes are doubled too, 2 x 2 = 4 (R33)",
    ]


def test_r32_eleven_cards_all_melded_are_a_big_gin_without_layoffs():
    rules = resolve_rules("classic", {"big_gin_bonus": 31, "gin_boxes": 3})
    hand = judge_preset_hand(rules, BIG_GIN, BIG_GIN_DEFENDER)
    assert hand.score == HandScore(Outcome.GIN, Side.KNOCKER, 60, 3, True, 60)
    assert hand.ruling.defender.layoffs == ()
    assert [s.text for s in explain_preset_hand(hand)] == [
        "The knocker melds AS 2S 3S 4S | 5H 5D 5C | 9H 10H JH QH and keeps nothing: 0 deadwood (R7)",
        "The defender melds KS KH KD | 2H 3H 4H and keeps 5S 8D 9D 7C: 29 deadwood (R16)",
        "Big gin: the knocker melds all 11 cards, so the defender may not lay off and cannot score; "
        "the knocker scores the defender's 29 + 31 = 60 (R32)",
    ]


def test_r32_big_gin_with_declared_melds_is_judged_on_them():
    rules = resolve_rules("classic", {"big_gin_bonus": 31})
    declared = melds("AS 2S 3S 4S | 5H 5D 5C | 9H 10H JH QH")
    hand = judge_preset_hand(rules, BIG_GIN, BIG_GIN_DEFENDER, knocker_melds=declared, layoffs=[])
    assert (hand.score.points, hand.score.big_gin) == (60, True)
    split = melds("AS 2S 3S | 5H 5D 5C | 9H 10H JH QH")
    with pytest.raises(IllegalKnockError) as caught:
        judge_preset_hand(rules, BIG_GIN, BIG_GIN_DEFENDER, knocker_melds=split)
    assert (caught.value.rule, caught.value.field, caught.value.deadwood) == ("R32", "knocker_hand.melds", 4)


def test_r32_eleven_cards_with_big_gin_off_are_refused():
    with pytest.raises(HandError) as caught:
        judge_preset_hand(resolve_rules("classic"), BIG_GIN, BIG_GIN_DEFENDER)
    err = caught.value
    assert (err.rule, err.field, err.count, err.expected) == ("R32", "knocker_hand.cards", 11, [10])


def test_r32_eleven_cards_that_do_not_all_meld_are_refused():
    rules = resolve_rules("classic", {"big_gin_bonus": 31})
    with pytest.raises(IllegalKnockError) as caught:
        judge_preset_hand(rules, cards("AS 2S 3S 4S 5H 5D 5C 9H 10H JH KC"), BIG_GIN_DEFENDER)
    err = caught.value
    assert (err.rule, err.field, err.deadwood, err.limit) == ("R32", "knocker_hand.cards", 10, 0)
    assert str(err) == "11 cards are a big gin only when all of them meld: 10 deadwood"


def test_r32_a_big_gin_has_no_discard_and_no_layoffs():
    rules = resolve_rules("classic", {"big_gin_bonus": 31})
    with pytest.raises(HandError) as caught:
        judge_preset_hand(rules, BIG_GIN, BIG_GIN_DEFENDER, discard=card("KC"))
    assert (caught.value.rule, caught.value.field) == ("R32", "knocker_hand.discard")
    declared = melds("AS 2S 3S 4S | 5H 5D 5C | 9H 10H JH QH")
    with pytest.raises(LayoffError) as caught_layoff:
        judge_preset_hand(rules, BIG_GIN, BIG_GIN_DEFENDER, knocker_melds=declared, layoffs=layoffs("5S>1"))
    assert (caught_layoff.value.rule, caught_layoff.value.card) == ("R32", "5S")


def test_r32_a_ten_card_gin_with_big_gin_on_is_a_plain_gin():
    rules = resolve_rules("classic", {"big_gin_bonus": 31})
    hand = judge_preset_hand(rules, GIN, DEFENDER)
    assert hand.score == HandScore(Outcome.GIN, Side.KNOCKER, 45, 1, False, 45)


def test_r21_r32_a_card_given_twice_in_a_big_gin_is_refused():
    rules = resolve_rules("classic", {"big_gin_bonus": 31})
    with pytest.raises(HandError) as caught:
        judge_preset_hand(rules, BIG_GIN, cards("AS KH KD 2H 3H 4H 7C 8D 9D 5S"))
    assert (caught.value.rule, caught.value.card) == ("R21", "AS")


def test_r33_oklahoma_needs_the_up_card_and_the_others_refuse_one():
    with pytest.raises(HandError) as caught:
        judge_preset_hand(resolve_rules("oklahoma"), cards(SETS + " 3C"), DEFENDER)
    assert (caught.value.rule, caught.value.field) == ("R33", "up_card")
    with pytest.raises(HandError) as caught:
        score_preset_counts(resolve_rules("classic"), 3, 20, up_card=card("3S"))
    assert (caught.value.rule, caught.value.field, caught.value.card) == ("R33", "up_card", "3S")


def test_r29_r17_an_undercut_counts_undercut_boxes_and_a_zero_bonus_still_wins_the_hand():
    rules = resolve_rules("classic", {"undercut_boxes": 2, "undercut_bonus": 0})
    assert score_preset_counts(rules, 5, 5) == HandScore(Outcome.UNDERCUT, Side.DEFENDER, 0, 2, False, 0)
    assert score_preset_counts(resolve_rules("classic"), 7, 5) == HandScore(
        Outcome.UNDERCUT, Side.DEFENDER, 27, 1, False, 27
    )


def test_r25_r33_counts_in_oklahoma_take_the_up_cards_limit_and_double():
    rules = resolve_rules("oklahoma")
    with pytest.raises(CountError) as caught:
        score_preset_counts(rules, 6, 20, up_card=card("5H"))
    assert (caught.value.rule, caught.value.value, caught.value.maximum) == ("R33", 6, 5)
    score = score_preset_counts(rules, 4, 20, up_card=card("QS"))
    assert score == HandScore(Outcome.KNOCK, Side.KNOCKER, 32, 1, False, 16)
    assert [s.text for s in explain_preset_counts(rules, score, 4, 20, up_card=card("QS"))] == [
        "The up-card is QS: its value, 10, is the knock limit (R33)",
        "Entered by counts: the knocker's deadwood is 4, the defender's 20 after layoffs (R25)",
        "Knock stands: 4 deadwood, within the limit of 10 (R14)",
        "Knock: the knocker's 4 is lower than the defender's 20, so the knocker scores 20 - 4 = 16 (R16)",
        "The up-card QS is a spade: the hand's points are doubled, 16 x 2 = 32 (R33)",
    ]


def test_r25_r35_counts_in_straight_refuse_any_deadwood_and_three_handed_stays_r25():
    with pytest.raises(CountError) as caught:
        score_preset_counts(resolve_rules("straight"), 1, 20)
    assert (caught.value.rule, caught.value.maximum) == ("R35", 0)
    with pytest.raises(CountError) as caught:
        score_preset_counts(resolve_rules(), 11, 20)
    assert (caught.value.rule, caught.value.maximum) == ("R25", 10)


def test_r25_r32_a_big_gin_by_counts():
    rules = resolve_rules("oklahoma", {"big_gin_bonus": 31})
    score = score_preset_counts(rules, 0, 12, up_card=card("9S"), big_gin=True)
    assert score == HandScore(Outcome.GIN, Side.KNOCKER, 86, 1, True, 43)
    assert [s.code for s in explain_preset_counts(rules, score, 0, 12, up_card=card("9S"))] == [
        "up_card_limit",
        "counts",
        "big_gin",
        "spade_double",
    ]
    with pytest.raises(CountError) as caught:
        score_preset_counts(resolve_rules("classic"), 0, 12, big_gin=True)
    assert (caught.value.rule, caught.value.field) == ("R32", "big_gin")
    with pytest.raises(CountError) as caught:
        score_preset_counts(rules, 2, 12, up_card=card("9S"), big_gin=True)
    assert (caught.value.rule, caught.value.field, caught.value.maximum) == ("R32", "knocker_deadwood_count", 0)


def test_r12_a_draw_scores_nothing_and_counts_no_box():
    assert HandScore(Outcome.DRAW, None, 0, 0, False, 0) == DRAW_SCORE
    assert [s.code for s in explain_preset_counts(resolve_rules("classic"), DRAW_SCORE, 0, 0)] == ["draw"]


def test_r33_can_judge_says_whether_the_knock_stands_under_the_up_card():
    rules = resolve_rules("oklahoma")
    assert can_judge_preset_hand(rules, cards(SETS + " 3C"), DEFENDER, up_card=card("3H")) is True
    assert can_judge_preset_hand(rules, cards(SETS + " 3C"), DEFENDER, up_card=card("2H")) is False


def test_every_preset_code_has_one_rule_params_and_a_template():
    assert set(PRESET_STEPS) == set(PresetCode)
    assert {code: rule for code, (rule, _, _) in PRESET_STEPS.items()} == {
        PresetCode.UP_CARD_LIMIT: "R33",
        PresetCode.UP_CARD_ACE: "R33",
        PresetCode.BIG_GIN: "R32",
        PresetCode.SPADE_DOUBLE: "R33",
        PresetCode.SPADE_DOUBLE_BOXES: "R33",
    }
