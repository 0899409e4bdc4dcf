"""The two-player game as a fold (R12, R26, R28-R31)."""

import pytest

from referee import CutError, GameStateError, RolesError
from referee.preset_hand import DRAW_SCORE, score_preset_counts
from referee.presets import resolve_rules
from referee.sheet import PlayerTotal
from referee.two_player import (
    Seat,
    Seating,
    TwoPlayerHand,
    can_record_two_player,
    dealer_from_cut,
    replay_two_player,
    verify_first_seating,
)
from tests.test_referee.referee_helpers import card

ANN_DEALS = Seating("ann", "bob")
BOB_DEALS = Seating("bob", "ann")


def knock(rules, seating, knocker, k, d):
    return TwoPlayerHand(seating, knocker, score_preset_counts(rules, k, d))


def test_r28_the_lower_cut_deals_and_a_tie_is_refused_naming_both():
    assert dealer_from_cut({"ann": card("KS"), "bob": card("AH")}) == BOB_DEALS
    with pytest.raises(CutError) as caught:
        dealer_from_cut({"ann": card("7S"), "bob": card("7H")})
    assert (caught.value.rule, caught.value.players) == ("R28", ["ann", "bob"])
    assert str(caught.value) == "tied ranks: ann, bob must cut again (the whole cut is resubmitted)"


def test_r28_the_first_seating_by_cut_or_by_the_dealer_given():
    assert verify_first_seating([7, 9], cut={"7": card("2C"), "9": card("3C")}) == Seating(7, 9)
    assert verify_first_seating([7, 9], dealer=9) == Seating(9, 7)
    with pytest.raises(RolesError) as caught:
        verify_first_seating([7, 9], dealer=8)
    assert (caught.value.rule, caught.value.field) == ("R28", "dealer")
    with pytest.raises(CutError) as caught_cut:
        verify_first_seating([7, 9], cut={"7": card("2C"), "8": card("3C")})
    assert (caught_cut.value.rule, caught_cut.value.field) == ("R28", "cut.8")
    with pytest.raises(RolesError):
        Seating("ann", "ann")


@pytest.mark.parametrize(
    ("next_dealer", "after_dealer_wins", "after_non_dealer_wins"),
    [("winner", ANN_DEALS, BOB_DEALS), ("loser", BOB_DEALS, ANN_DEALS), ("alternate", BOB_DEALS, BOB_DEALS)],
)
def test_r28_the_next_dealer_by_option(next_dealer, after_dealer_wins, after_non_dealer_wins):
    rules = resolve_rules("classic", {"next_dealer": next_dealer})
    assert replay_two_player(rules, ANN_DEALS, [knock(rules, ANN_DEALS, Seat.DEALER, 3, 20)]).seating == (
        after_dealer_wins
    )
    # ann deals and knocks but is undercut: bob, the non-dealer, won the hand (R11)
    assert replay_two_player(rules, ANN_DEALS, [knock(rules, ANN_DEALS, Seat.DEALER, 8, 5)]).seating == (
        after_non_dealer_wins
    )


@pytest.mark.parametrize("next_dealer", ["winner", "loser", "alternate"])
def test_r12_r28_after_a_draw_the_same_player_deals_and_nobody_counts_a_box(next_dealer):
    rules = resolve_rules("classic", {"next_dealer": next_dealer})
    state = replay_two_player(rules, BOB_DEALS, [TwoPlayerHand(BOB_DEALS, None, DRAW_SCORE)])
    assert (state.seating, state.scores, state.boxes, state.hands_played) == (
        BOB_DEALS,
        {"bob": 0, "ann": 0},
        {"bob": 0, "ann": 0},
        1,
    )


def test_r12_a_draw_has_no_knocker_and_a_knock_has_one():
    with pytest.raises(RolesError) as caught:
        TwoPlayerHand(ANN_DEALS, Seat.DEALER, DRAW_SCORE)
    assert caught.value.rule == "R12"
    with pytest.raises(RolesError):
        TwoPlayerHand(ANN_DEALS, None, score_preset_counts(resolve_rules("classic"), 3, 20))


def test_r30_an_undercutter_who_reaches_the_target_wins_and_takes_the_game_bonus():
    rules = resolve_rules("classic")
    hands = [knock(rules, ANN_DEALS, Seat.DEALER, 5, 80), knock(rules, ANN_DEALS, Seat.NON_DEALER, 9, 2)]
    # hand 1: ann 75, 1 box; hand 2: bob knocks 9 against ann's 2, ann undercuts: 25 + 7 = 32
    state = replay_two_player(rules, ANN_DEALS, hands)
    assert (state.winner, state.scores, state.seating, state.running) == (
        "ann",
        {"ann": 107, "bob": 0},
        None,
        ({"ann": 75, "bob": 0}, {"ann": 107, "bob": 0}),
    )
    assert state.result.totals == {
        "ann": PlayerTotal(107, 50, 100, 207, 464),
        "bob": PlayerTotal(0, 0, 0, 0, 0),
    }
    assert (state.result.net, state.result.shutout, state.result.loser) == (464, True, "bob")
    assert can_record_two_player(state) is False


def test_r30_no_hand_after_the_win_and_r26_a_correction_that_strands_hands_is_refused():
    rules = resolve_rules("classic", {"target_score": 50})
    hands = [knock(rules, ANN_DEALS, Seat.DEALER, 2, 60)] + [knock(rules, ANN_DEALS, Seat.DEALER, 2, 10)] * 2
    with pytest.raises(GameStateError) as caught:
        replay_two_player(rules, ANN_DEALS, hands)
    err = caught.value
    assert (err.rule, err.hands, err.winner, err.won_at) == ("R26", [2, 3], "ann", 1)
    assert str(err) == "ann reaches 50 at hand 1: hands 2, 3 would come after the win"


def test_r26_a_hand_seated_otherwise_than_expected_is_marked():
    rules = resolve_rules("classic")
    hands = [knock(rules, ANN_DEALS, Seat.DEALER, 2, 10), knock(rules, BOB_DEALS, Seat.DEALER, 2, 10)]
    state = replay_two_player(rules, ANN_DEALS, hands)
    assert (state.out_of_turn, state.seating, state.scores) == ((2,), BOB_DEALS, {"ann": 8, "bob": 8})


def test_r28_a_hand_by_someone_not_in_the_game_is_refused():
    rules = resolve_rules("classic")
    with pytest.raises(RolesError) as caught:
        replay_two_player(rules, ANN_DEALS, [knock(rules, Seating("ann", "cy"), Seat.DEALER, 2, 10)])
    assert (caught.value.rule, caught.value.field) == ("R28", "seating")


def test_r29_boxes_immediate_counts_box_bonuses_toward_the_target():
    rules = resolve_rules("classic", {"boxes_immediate": True, "target_score": 60, "gin_boxes": 2})
    # gin: 10 + 25 = 35 points and 2 boxes worth 50 at once: 85, over 60
    state = replay_two_player(rules, ANN_DEALS, [knock(rules, ANN_DEALS, Seat.NON_DEALER, 0, 10)])
    assert (state.winner, state.scores, state.boxes) == ("bob", {"ann": 0, "bob": 85}, {"ann": 0, "bob": 2})
    assert state.result.totals["bob"] == PlayerTotal(35, 50, 100, 135, 320)


def test_r31_a_hand_won_for_0_points_still_saves_the_loser_from_a_shutout():
    rules = resolve_rules("classic", {"undercut_bonus": 0})
    hands = [knock(rules, ANN_DEALS, Seat.DEALER, 5, 5), knock(rules, BOB_DEALS, Seat.NON_DEALER, 0, 80)]
    state = replay_two_player(rules, ANN_DEALS, hands)
    # hand 1: bob undercuts for 0 and deals next; hand 2: ann gins, 80 + 25 = 105
    assert (state.winner, state.scores, state.boxes) == ("ann", {"ann": 105, "bob": 0}, {"ann": 1, "bob": 1})
    assert state.result.shutout is False
    assert state.result.totals == {"ann": PlayerTotal(105, 25, 100, 0, 230), "bob": PlayerTotal(0, 25, 0, 0, 25)}
    assert state.result.net == 205
