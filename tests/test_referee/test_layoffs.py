"""Layoffs (R15, R18, R23) and the defender's best play against a spread (R24)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import DECK, LayoffError, all_melds, best_play, judge_hand
from referee.layoff import fits, verify_layoffs
from tests import reference
from tests.test_referee.referee_helpers import (
    PROPERTY,
    DrawChooser,
    build_defender,
    card,
    cards,
    knocker_hands,
    layoffs,
    meld_objects,
    melds,
    names,
    strs,
)

# A knock of 4 (4D) whose run 5H 6H 7H the defender can extend with 8H and then 9H.
KNOCKER = "5H 6H 7H 2S 2D 2C JC QC KC 4D"
KNOCKER_MELDS = "5H 6H 7H | 2S 2D 2C | JC QC KC"
DEFENDER = "8H 9H AS 3S KD 10D 6C 7S 4C QS"  # 68 in all, 51 without 8H and 9H


def judge_declared(layoff_text, defender_melds=None, knocker=KNOCKER, defender=DEFENDER, knocker_melds=KNOCKER_MELDS):
    return judge_hand(
        cards(knocker),
        cards(defender),
        knocker_melds=melds(knocker_melds),
        defender_melds=None if defender_melds is None else melds(defender_melds),
        layoffs=layoffs(layoff_text),
    )


def test_r15_a_chain_8h_then_9h_onto_5h_6h_7h():
    ruling = judge_declared("8H>0 9H>0")
    assert strs(ruling.defender.layoffs) == ["8H -> 0", "9H -> 0"]
    assert ruling.defender.deadwood_count == 51
    assert (str(ruling.outcome), str(ruling.scorer), ruling.points) == ("knock", "knocker", 47)
    assert ruling.defender_better is None


def test_r23_a_chain_in_the_wrong_order_is_refused():
    with pytest.raises(LayoffError) as caught:
        judge_declared("9H>0 8H>0")
    err = caught.value
    assert str(err) == "9H does not fit knocker meld 0 (5H 6H 7H)"
    assert (err.rule, err.field, err.card, err.meld) == ("R23", "defender_hand.layoffs[0]", "9H", 0)


def test_r23_a_layoff_onto_the_wrong_meld_is_refused():
    with pytest.raises(LayoffError) as caught:
        judge_declared("8H>1")
    assert (caught.value.rule, caught.value.field, caught.value.card, caught.value.meld) == (
        "R23",
        "defender_hand.layoffs[0]",
        "8H",
        1,
    )


def test_r23_a_layoff_onto_a_meld_the_knocker_does_not_have_is_refused():
    with pytest.raises(LayoffError) as caught:
        judge_declared("8H>0 9H>3")
    err = caught.value
    assert str(err) == "there is no knocker meld 3"
    assert (err.rule, err.field, err.meld, err.card) == ("R23", "defender_hand.layoffs[1].meld", 3, "9H")


def test_r23_a_card_the_defender_does_not_hold_cannot_be_laid_off():
    with pytest.raises(LayoffError) as caught:
        judge_declared("4H>0")
    assert (caught.value.rule, caught.value.field, caught.value.card) == ("R23", "defender_hand.layoffs[0].card", "4H")


def test_r6_a_card_laid_off_twice_is_refused():
    with pytest.raises(LayoffError) as caught:
        judge_declared("8H>0 8H>0")
    assert (caught.value.rule, caught.value.field, caught.value.card) == ("R6", "defender_hand.layoffs[1].card", "8H")


def test_r23_a_card_in_a_declared_defender_meld_cannot_be_laid_off():
    with pytest.raises(LayoffError) as caught:
        judge_hand(
            cards("6H 7H 8H 2S 3S 4S JD QD KD AC"),
            cards("9H 10H JH 5C KS 3D 4C 2D QC 8S"),
            knocker_melds=melds("2S 3S 4S | 6H 7H 8H | JD QD KD"),
            defender_melds=melds("9H 10H JH"),
            layoffs=layoffs("9H>1"),
        )
    assert (caught.value.rule, caught.value.field, caught.value.card) == ("R23", "defender_hand.layoffs[0].card", "9H")


def test_r23_layoffs_need_the_knockers_melds_declared():
    with pytest.raises(LayoffError) as caught:
        judge_hand(cards(KNOCKER), cards(DEFENDER), layoffs=layoffs("8H>1"))
    err = caught.value
    assert (err.rule, err.field) == ("R23", "defender_hand.layoffs")


def test_r23_an_empty_list_of_layoffs_is_declared_and_honoured():
    ruling = judge_declared("")
    assert ruling.defender.layoffs == ()
    assert ruling.defender.deadwood_count == 68
    assert ruling.points == 64
    assert strs(ruling.defender_better.layoffs) == ["8H -> 0", "9H -> 0"]


def test_r15_more_than_two_chained_layoffs_at_one_end_of_a_run():
    # OpenSpiel offers at most two layoffs per run end; R15 has no such cap.
    ruling = judge_declared("8H>0 9H>0 10H>0 JH>0", defender="8H 9H 10H JH AS 3S KD 6C 7S 4C")
    assert strs(ruling.defender.layoffs) == ["8H -> 0", "9H -> 0", "10H -> 0", "JH -> 0"]
    assert ruling.defender.deadwood_count == 31
    assert ruling.points == 27


def test_r24_best_play_chains_four_cards_at_one_end_when_his_melds_are_declared_empty():
    play = best_play(cards("8H 9H 10H JH AS 3S KD 6C 7S 4C"), meld_objects(KNOCKER_MELDS), defender_melds=[])
    assert play.melds == ()
    assert strs(play.layoffs) == ["8H -> 0", "9H -> 0", "10H -> 0", "JH -> 0"]
    assert play.deadwood_count == 31


def test_r24_best_play_keeps_four_in_a_row_as_his_own_run_rather_than_four_layoffs():
    play = best_play(cards("8H 9H 10H JH AS 3S KD 6C 7S 4C"), meld_objects(KNOCKER_MELDS))
    assert strs(play.melds) == ["8H 9H 10H JH"]
    assert play.layoffs == ()
    assert play.deadwood_count == 31


def test_r15_two_card_chains_at_both_ends_of_one_run():
    play = best_play(cards("3H 4H 8H 9H AS 3S KD 10D 6C QS"), meld_objects("2S 2D 2C | 5H 6H 7H | JC QC KC"))
    assert strs(play.layoffs) == ["4H -> 1", "8H -> 1", "3H -> 1", "9H -> 1"]
    assert play.deadwood_count == 40


def test_r15_the_fourth_card_lays_off_onto_a_set_of_three():
    play = best_play(cards("8C 5H 9S 7D 10H KS QC 3H AD 6H"), meld_objects("8S 8H 8D | JD QD KD | 2C 3C 4C"))
    assert strs(play.layoffs) == ["8C -> 0"]
    assert play.deadwood_count == 61


def test_r15_nothing_lays_off_onto_a_set_of_four():
    set_of_four = cards("5S 5H 5D 5C")
    assert not any(fits(c, set_of_four) for c in DECK)
    play = best_play(cards("4S 6S 6D 4C 6C 3D KH QS 9S 8D"), meld_objects("5S 5H 5D 5C | 9H 10H JH"))
    assert play.layoffs == ()
    assert strs(play.melds) == ["6S 6D 6C"]
    assert play.deadwood_count == 48


def test_r15_a_set_of_three_extended_to_four_takes_nothing_more():
    with pytest.raises(LayoffError) as caught:
        verify_layoffs(layoffs("8C>0 8C>0"), meld_objects("8S 8H 8D"), cards("8C"))
    assert caught.value.rule == "R6"
    assert not fits(card("8C"), cards("8S 8H 8D 8C"))
    assert fits(card("8C"), cards("8S 8H 8D"))
    assert not fits(card("8S"), cards("8S 8H 8D"))


def test_r15_nothing_lays_off_past_king_or_below_ace():
    assert (
        best_play(cards("AS 2H QH KH 9C 6S 5H 3D 10H 8C"), meld_objects("JS QS KS | 4H 4D 4C | 7D 8D 9D")).layoffs == ()
    )
    assert (
        best_play(cards("KH 5S 8D JD QS 4C 7H 3S KD 9S"), meld_objects("6S 6D 6C | AH 2H 3H | 9C 10C JC")).layoffs == ()
    )
    assert not fits(card("AS"), cards("JS QS KS"))
    assert not fits(card("KH"), cards("AH 2H 3H"))
    assert fits(card("AC"), cards("2C 3C 4C"))
    assert fits(card("KD"), cards("10D JD QD"))


@pytest.mark.parametrize(
    ("knocker_melds", "layoff"),
    [
        ("JS QS KS", "AS>0"),
        ("AH 2H 3H", "KH>0"),
        ("5S 5H 5D 5C", "4S>0"),
    ],
)
def test_r15_declared_layoffs_past_a_king_an_ace_or_onto_a_set_of_four_are_refused(knocker_melds, layoff):
    with pytest.raises(LayoffError) as caught:
        verify_layoffs(layoffs(layoff), meld_objects(knocker_melds), [layoffs(layoff)[0].card])
    assert (caught.value.rule, caught.value.field) == ("R23", "layoffs[0]")


def test_r15_r18_no_layoffs_after_gin():
    with pytest.raises(LayoffError) as caught:
        judge_hand(
            cards("5H 6H 7H 2S 2D 2C 10C JC QC KC"),
            cards("8H 4H 2H 9C AS 3S KD QD 6S 8S"),
            knocker_melds=melds("5H 6H 7H | 2S 2D 2C | 10C JC QC KC"),
            layoffs=layoffs("8H>0"),
        )
    err = caught.value
    assert str(err) == "the knocker went gin: the defender may not lay off"
    assert (err.rule, err.field, err.card) == ("R18", "defender_hand.layoffs[0]", "8H")


def test_r18_an_empty_list_of_layoffs_against_gin_is_fine():
    ruling = judge_hand(
        cards("5H 6H 7H 2S 2D 2C 10C JC QC KC"),
        cards("8H 4H 2H 9C AS 3S KD QD 6S 8S"),
        knocker_melds=melds("5H 6H 7H | 2S 2D 2C | 10C JC QC KC"),
        layoffs=[],
    )
    assert (str(ruling.outcome), ruling.points, ruling.defender.deadwood_count) == ("gin", 86, 61)


K3 = "6H 7H 8H | 2S 3S 4S | JD QD KD"


def test_r24_a_card_worth_more_laid_off_than_in_his_own_meld():
    # 9H leaves his four nines for the knocker's run and carries 10H with it.
    play = best_play(cards("9S 9H 9D 9C 10H 5C KS 3D 4C 2D"), meld_objects(K3))
    assert strs(play.melds) == ["9S 9D 9C"]
    assert strs(play.layoffs) == ["9H -> 0", "10H -> 0"]
    assert names(play.deadwood) == ["KS", "2D", "3D", "4C", "5C"]
    assert play.deadwood_count == 24


def test_r24_a_card_worth_more_in_his_own_meld_than_laid_off():
    # Laying 9H and 10H off would break his set of three nines.
    play = best_play(cards("9S 9H 9D 10H 5C KS 3D 4C 2D QC"), meld_objects(K3))
    assert strs(play.melds) == ["9S 9H 9D"]
    assert play.layoffs == ()
    assert play.deadwood_count == 44


def test_r24_ties_go_to_the_fewest_layoffs():
    play = best_play(cards("9H 10H JH 5C KS 3D 4C 2D QC 8S"), meld_objects(K3))
    assert strs(play.melds) == ["9H 10H JH"]
    assert play.layoffs == ()
    assert play.deadwood_count == 42


def test_r24_the_greedy_trap_a_ten_needed_to_carry_a_nine():
    # 10H fits the set of tens, but laid on JH QH KH it carries 9H too.
    play = best_play(cards("10H 9H 5S 7D 8C 6S KS QD 3H 2D"), meld_objects("10S 10D 10C | JH QH KH | 2C 3C 4C"))
    assert strs(play.layoffs) == ["10H -> 1", "9H -> 1"]
    assert play.deadwood_count == 51


def test_r24_declared_defender_melds_get_only_layoffs_of_the_rest():
    play = best_play(
        cards("9S 9H 9D 9C 10H 5C KS 3D 4C 2D"), meld_objects(K3), defender_melds=meld_objects("9S 9H 9D 9C")
    )
    assert strs(play.melds) == ["9S 9H 9D 9C"]
    assert play.layoffs == ()  # 10H cannot reach 8H without 9H
    assert play.deadwood_count == 34


@st.composite
def spreads_and_replies(draw):
    """Any knocker melds (not only least deadwood), a defender hand near them, and
    maybe declared defender melds."""
    knocker = draw(knocker_hands())
    knocker_melds = _disjoint(draw(st.lists(st.sampled_from(all_melds(knocker) or [None]), max_size=4)))
    defender = build_defender(DrawChooser(draw), knocker)
    declared = None
    if draw(st.booleans()):
        declared = _disjoint(draw(st.lists(st.sampled_from(all_melds(defender) or [None]), max_size=3)))
    return knocker_melds, defender, declared


def _disjoint(candidates):
    chosen, used = [], set()
    for meld in candidates:
        if meld is not None and used.isdisjoint(meld.cards):
            chosen.append(meld)
            used |= set(meld.cards)
    return chosen


@settings(PROPERTY, max_examples=500)
@given(spreads_and_replies())
def test_r15_r24_best_play_equals_the_brute_force_reference(case):
    knocker_melds, defender, declared = case
    play = best_play(defender, knocker_melds, defender_melds=declared)
    spread = [names(m.cards) for m in knocker_melds]
    if declared is None:
        assert play.deadwood_count == reference.defender_best(names(defender), spread)
    else:
        in_melds = {c for m in declared for c in m.cards}
        rest = [str(c) for c in defender if c not in in_melds]
        assert play.deadwood_count == reference.count(rest) - reference.layoff_value(rest, spread)
        assert list(play.melds) == sorted(declared, key=lambda m: m.key)
    # The play is one the defender could declare (R23), and accounts for every card.
    in_melds = {c for m in play.melds for c in m.cards}
    verify_layoffs(play.layoffs, knocker_melds, [c for c in defender if c not in in_melds])
    laid = [lo.card for lo in play.layoffs]
    assert sorted([*in_melds, *laid, *play.deadwood]) == sorted(defender)
