"""Roles, rotation and the game as a fold over its hands (R8-R12, R19, R20, R26)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import (
    DRAW,
    CountError,
    CutError,
    GameStateError,
    HandRecord,
    Role,
    Roles,
    RolesError,
    Rules,
    can_record,
    can_seat,
    next_roles,
    parse_card,
    replay,
    roles_from_cut,
    score,
    verify_can_record,
    verify_seating,
)
from tests.test_referee.referee_helpers import PROPERTY, card

PLAYERS = ("ann", "bob", "cy")
FIRST = Roles(box="ann", captain="bob", sitter="cy")


def cut(**cards):
    return {player: card(text) for player, text in cards.items()}


# --- R8, R9: roles and the cut -----------------------------------------------------------


def test_r9_highest_cut_is_box_middle_captain_lowest_sits_out():
    assert roles_from_cut(cut(ann="2S", bob="KH", cy="7D")) == Roles(box="bob", captain="cy", sitter="ann")


def test_r9_ace_is_low_in_the_cut():
    assert roles_from_cut(cut(ann="AS", bob="2H", cy="KD")) == Roles(box="cy", captain="bob", sitter="ann")


def test_r9_suits_do_not_matter_only_ranks():
    assert roles_from_cut(cut(ann="10C", bob="JS", cy="9H")) == Roles(box="bob", captain="ann", sitter="cy")


def test_r9_player_ids_may_be_numbers():
    assert roles_from_cut({7: card("3C"), 8: card("QC"), 9: card("5C")}) == Roles(box=8, captain=9, sitter=7)


def test_r9_tied_ranks_are_refused_naming_the_players_who_must_cut_again():
    with pytest.raises(CutError) as caught:
        roles_from_cut(cut(ann="9D", bob="5S", cy="5H"))
    err = caught.value
    assert str(err) == "tied ranks: bob, cy must cut again (the whole cut is resubmitted)"
    assert (err.rule, err.field, err.players) == ("R9", "cut", ["bob", "cy"])


def test_r9_a_tie_for_the_box_is_refused_too():
    with pytest.raises(CutError) as caught:
        roles_from_cut(cut(ann="KS", bob="2S", cy="KD"))
    assert caught.value.players == ["ann", "cy"]


def test_r9_a_three_way_tie_names_everyone():
    with pytest.raises(CutError) as caught:
        roles_from_cut(cut(ann="5D", bob="5S", cy="5H"))
    assert caught.value.players == ["ann", "bob", "cy"]


def test_r9_the_three_cut_cards_must_be_distinct():
    with pytest.raises(CutError) as caught:
        roles_from_cut(cut(ann="5S", bob="5S", cy="9H"))
    err = caught.value
    assert str(err) == "the three cut cards must be distinct cards"
    assert (err.rule, err.field, err.players) == ("R9", "cut", ["ann", "bob"])


@pytest.mark.parametrize("players", [("ann", "bob"), ("ann", "bob", "cy", "dee")])
def test_r9_a_cut_needs_exactly_three_players(players):
    cards_by_player = {p: card(text) for p, text in zip(players, ["2S", "5H", "9D", "KC"], strict=False)}
    with pytest.raises(CutError) as caught:
        roles_from_cut(cards_by_player)
    assert caught.value.players == sorted(players)


def test_r8_roles_are_three_different_players():
    with pytest.raises(RolesError) as caught:
        Roles(box="ann", captain="bob", sitter="ann")
    err = caught.value
    assert (err.rule, err.field, err.roles) == ("R8", "roles", {"box": "ann", "captain": "bob", "sitter": "ann"})


def test_r8_roles_look_up_both_ways():
    assert [FIRST.of(role) for role in Role] == ["ann", "bob", "cy"]
    assert [FIRST.role_of(p) for p in PLAYERS] == [Role.BOX, Role.CAPTAIN, Role.SITTER]
    assert [str(role) for role in Role] == ["box", "captain", "sitter"]
    assert FIRST.as_dict() == {"box": "ann", "captain": "bob", "sitter": "cy"}


# --- R11, R12: rotation ------------------------------------------------------------------


def test_r11_box_won_box_stays_captain_and_sitter_swap():
    assert next_roles(FIRST, Role.BOX) == Roles(box="ann", captain="cy", sitter="bob")


def test_r11_box_lost_box_sits_out_captain_to_the_box_sitter_captains():
    assert next_roles(FIRST, Role.CAPTAIN) == Roles(box="bob", captain="cy", sitter="ann")


def test_r12_a_draw_leaves_the_roles():
    assert next_roles(FIRST, None) == FIRST


def test_r8_the_sitter_never_wins_a_hand():
    with pytest.raises(RolesError, match="the sitter never plays a hand") as err:
        next_roles(FIRST, Role.SITTER)
    assert (err.value.rule, err.value.field) == ("R8", "winner")
    with pytest.raises(RolesError, match="the sitter never knocks") as err:
        HandRecord(FIRST, Role.SITTER, score(3, 20))
    assert (err.value.rule, err.value.field) == ("R8", "knocker")


@pytest.mark.parametrize(
    ("players", "roles", "cut", "error", "field", "evidence"),
    [
        ([1, 1, 2], {"box": 1, "captain": 1, "sitter": 2}, None, RolesError, "players", {"players": [1, 1, 2]}),
        (
            [1, 2, 3],
            {"box": 1, "captain": 2, "sitter": 4},
            None,
            RolesError,
            "roles",
            {"value": {"box": 1, "captain": 2, "sitter": 4}},
        ),
        ([1, 2, 3], None, {"1": "KS", "2": "7H"}, CutError, "cut", {"players": [3]}),
        ([1, 2, 3], None, {"1": "KS", "2": "7H", "4": "2D"}, CutError, "cut.4", {"value": "4"}),
        ([1, 2, 3], None, {"01": "KS", "2": "7H", "3": "2D"}, CutError, "cut.01", {"value": "01"}),
        ([1, 2, 3], None, {"1": "KS", "2": "KS", "3": "2D"}, CutError, "cut", {"players": [1, 2, 3]}),
        ([1, 2, 3], None, {"1": "KS", "2": "KH", "3": "2D"}, CutError, "cut", {"players": [1, 2]}),
        ([1, 2, 3], None, None, CutError, "cut", {"players": [1, 2, 3]}),
    ],
)
def test_r8_r9_verify_seating_names_the_field_and_its_evidence(players, roles, cut, error, field, evidence):
    cards = None if cut is None else {k: parse_card(v) for k, v in cut.items()}
    with pytest.raises(error) as err:
        verify_seating(players, roles=roles, cut=cards)
    assert err.value.field == field
    assert {k: getattr(err.value, k) for k in evidence} == evidence
    assert not can_seat(players, roles=roles, cut=cards)


def test_r9_verify_seating_seats_by_the_cut_or_the_roles():
    cut = {"7": parse_card("AS"), "8": parse_card("QH"), "9": parse_card("10D")}
    assert verify_seating([7, 8, 9], cut=cut) == Roles(box=8, captain=9, sitter=7)
    assert verify_seating([7, 8, 9], roles={"box": 9, "captain": 7, "sitter": 8}) == Roles(box=9, captain=7, sitter=8)
    assert can_seat([7, 8, 9], cut=cut)


def test_evidence_an_error_does_not_declare_is_refused_at_once():
    with pytest.raises(TypeError, match="CountError declares no evidence card"):
        CountError("a count", card="AS")


@pytest.mark.parametrize(
    ("knocker", "counts", "winner", "scorer"),
    [
        (Role.BOX, (3, 20), Role.BOX, "ann"),
        (Role.BOX, (9, 4), Role.CAPTAIN, "bob"),  # R17: undercut, the defender wins
        (Role.CAPTAIN, (0, 30), Role.CAPTAIN, "bob"),
        (Role.CAPTAIN, (6, 6), Role.BOX, "ann"),
    ],
)
def test_r11_the_winner_is_the_knocker_unless_undercut(knocker, counts, winner, scorer):
    hand = HandRecord(FIRST, knocker, score(*counts))
    assert hand.winner is winner
    assert hand.scorer == scorer


def test_r11_an_undercut_worth_zero_points_still_rotates_the_roles():
    rules = Rules(undercut_bonus=0)
    hand = HandRecord(FIRST, Role.BOX, score(9, 9, rules))
    assert hand.score.points == 0
    assert hand.winner is Role.CAPTAIN
    state = replay(rules, FIRST, [hand])
    assert state.scores == {"ann": 0, "bob": 0, "cy": 0}
    assert state.roles == Roles(box="bob", captain="cy", sitter="ann")


def test_r12_a_draw_is_a_hand_that_nobody_scores():
    hand = HandRecord(FIRST, None, DRAW)
    assert hand.winner is None
    assert hand.scorer is None
    state = replay(Rules(), FIRST, [hand, hand])
    assert state.scores == {"ann": 0, "bob": 0, "cy": 0}
    assert state.roles == FIRST
    assert state.hands_played == 2
    assert state.out_of_turn == ()


# --- R19, R20, R26: the game -------------------------------------------------------------


def game_hands():
    """Six hands as played; ann reaches 100 in the sixth."""
    r1 = FIRST
    r2 = Roles(box="ann", captain="cy", sitter="bob")
    r3 = Roles(box="ann", captain="bob", sitter="cy")
    r4 = Roles(box="bob", captain="cy", sitter="ann")
    r6 = Roles(box="cy", captain="ann", sitter="bob")
    return [
        HandRecord(r1, Role.BOX, score(3, 60)),  # ann knocks: 57
        HandRecord(r2, Role.CAPTAIN, score(8, 5)),  # cy undercut by ann: 13
        HandRecord(r3, Role.BOX, score(9, 4)),  # ann undercut by bob: 15
        HandRecord(r4, None, DRAW),  # draw: roles stay
        HandRecord(r4, Role.CAPTAIN, score(0, 20)),  # cy gin: 45
        HandRecord(r6, Role.CAPTAIN, score(2, 40)),  # ann knocks as captain: 38
    ]


def test_r19_r20_scores_are_the_sum_of_the_hands_and_the_winner_reaches_the_target():
    state = replay(Rules(), FIRST, game_hands())
    assert state.scores == {"ann": 108, "bob": 15, "cy": 45}
    assert state.winner == "ann"
    assert state.finished
    assert state.roles is None
    assert state.hands_played == 6
    assert state.out_of_turn == ()
    assert [r["ann"] for r in state.running] == [57, 70, 70, 70, 70, 108]
    assert [r["bob"] for r in state.running] == [0, 0, 15, 15, 15, 15]
    assert [r["cy"] for r in state.running] == [0, 0, 0, 0, 45, 45]


def test_r11_r12_roles_for_the_next_hand_follow_from_the_last():
    hands = game_hands()
    assert replay(Rules(), FIRST, hands[:1]).roles == hands[1].roles
    assert replay(Rules(), FIRST, hands[:2]).roles == hands[2].roles
    assert replay(Rules(), FIRST, hands[:3]).roles == hands[3].roles
    assert replay(Rules(), FIRST, hands[:4]).roles == hands[4].roles  # after the draw
    assert replay(Rules(), FIRST, hands[:5]).roles == hands[5].roles


def test_r20_a_game_that_is_won_takes_no_more_hands():
    state = replay(Rules(), FIRST, game_hands())
    with pytest.raises(GameStateError) as caught:
        verify_can_record(state)
    err = caught.value
    assert str(err) == "the game is over: ann has won"
    assert (err.rule, err.winner) == ("R20", "ann")
    assert not can_record(state)
    verify_can_record(replay(Rules(), FIRST, game_hands()[:5]))  # not over yet
    assert can_record(replay(Rules(), FIRST, game_hands()[:5]))


def test_r26_hands_after_the_winner_are_refused_naming_them():
    extra = HandRecord(Roles(box="ann", captain="bob", sitter="cy"), Role.BOX, score(1, 2))
    with pytest.raises(GameStateError) as caught:
        replay(Rules(), FIRST, [*game_hands(), extra, extra])
    err = caught.value
    assert str(err) == "ann reaches 100 at hand 6: hands 7, 8 would come after the win"
    assert (err.rule, err.field, err.hands, err.winner, err.won_at) == ("R26", "hands", [7, 8], "ann", 6)


def test_r26_a_lower_target_that_strands_later_hands_is_refused():
    with pytest.raises(GameStateError) as caught:
        replay(Rules(target_score=60), FIRST, game_hands())
    assert (caught.value.hands, caught.value.winner, caught.value.won_at) == ([3, 4, 5, 6], "ann", 2)


def test_r26_a_corrected_hand_keeps_later_hands_as_played_and_marks_them():
    hands = game_hands()
    hands[0] = HandRecord(FIRST, Role.BOX, score(9, 4))  # corrected: ann was undercut by bob
    state = replay(Rules(), FIRST, hands)
    # Hand 2 should then have had bob in the box; it keeps who really played it.
    assert state.out_of_turn == (2,)
    assert state.scores == {"ann": 13 + 38, "bob": 15 + 15, "cy": 45}
    assert state.winner is None
    assert state.roles == Roles(box="ann", captain="bob", sitter="cy")


def test_r26_first_hand_seated_other_than_the_cut_is_marked():
    hand = HandRecord(Roles(box="bob", captain="ann", sitter="cy"), Role.BOX, score(3, 20))
    assert replay(Rules(), FIRST, [hand]).out_of_turn == (1,)


# --- properties -----------------------------------------------------------------------------

hand_results = st.tuples(st.sampled_from([Role.BOX, Role.CAPTAIN, None]), st.integers(0, 10), st.integers(0, 100))


@settings(PROPERTY)
@given(st.lists(hand_results, max_size=25), st.permutations(PLAYERS), st.integers(10, 1000))
def test_r8_r19_one_box_captain_and_sitter_after_any_hand_and_the_sitter_never_scores(results, seats, target):
    rules = Rules(target_score=target)
    roles = Roles(*seats)
    first = roles
    hands = []
    for knocker, knocker_count, defender_count in results:
        hand = HandRecord(roles, knocker, DRAW if knocker is None else score(knocker_count, defender_count, rules))
        state = replay(rules, first, [*hands, hand])
        hands.append(hand)
        before = state.running[-2] if len(state.running) > 1 else dict.fromkeys(PLAYERS, 0)
        after = state.running[-1]
        assert after[roles.sitter] == before[roles.sitter]  # R19
        changed = {p for p in PLAYERS if after[p] != before[p]}
        assert changed <= ({hand.scorer} if hand.scorer is not None else set())
        assert sum(after.values()) == sum(before.values()) + (hand.score.points if hand.scorer else 0)
        assert state.out_of_turn == ()
        if state.finished:
            assert state.winner == hand.scorer
            assert state.scores[state.winner] >= target
            assert all(max(r.values()) < target for r in state.running[:-1])
            assert state.roles is None
            break
        roles = state.roles
        assert {roles.box, roles.captain, roles.sitter} == set(PLAYERS)  # R8
        assert roles == next_roles(hand.roles, hand.winner)


@settings(PROPERTY)
@given(st.lists(st.tuples(st.permutations(PLAYERS), hand_results), min_size=1, max_size=7))
def test_r26_exactly_the_hands_seated_out_of_turn_are_marked(played):
    rules = Rules(target_score=1000)  # 7 hands of at most 125 points: nobody wins
    hands = [
        HandRecord(Roles(*seats), knocker, DRAW if knocker is None else score(k, d))
        for seats, (knocker, k, d) in played
    ]
    state = replay(rules, FIRST, hands)
    expected, marked = FIRST, []
    for number, hand in enumerate(hands, start=1):
        if hand.roles != expected:
            marked.append(number)
        expected = next_roles(hand.roles, hand.winner)
    assert state.out_of_turn == tuple(marked)
    for player in PLAYERS:  # R26: points go to who really played
        assert state.scores[player] == sum(h.score.points for h in hands if h.scorer == player)
