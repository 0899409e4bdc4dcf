"""Hollywood (R34, on R26 and R28-R31): where each won hand is entered, the
three columns as games of their own, the end of the match, corrections.

Golden matches (tests/data/golden_matches.json, the ``hollywood`` ones) are
worked by hand; random matches are checked against the independent fold of
tests/reference_matches.py: every hand's columns and next dealer, every
column's entries, running scores, boxes, winner and result, the match's."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import GameStateError, RefereeError, RolesError, parse_card
from referee.hollywood import (
    Column,
    advance_hollywood,
    can_record_hollywood,
    columns_for,
    new_hollywood_match,
    replay_hollywood,
    verify_hollywood_correction,
)
from referee.preset_hand import score_preset_counts
from referee.presets import resolve_rules
from referee.sheet import new_sheet
from referee.two_player import Seat, Seating, TwoPlayerHand, replay_two_player, verify_first_seating
from tests import reference_matches
from tests.test_referee.match_helpers import random_options, random_result, totals_dict, two_player_hand
from tests.test_referee.referee_helpers import PROPERTY

RULES = resolve_rules("hollywood")
ANN_DEALS = Seating("ann", "bob")
BOB_DEALS = Seating("bob", "ann")


def won(seating: Seating, winner: str, points: int, rules=RULES) -> TwoPlayerHand:
    """A knock by counts won by ``winner`` for ``points`` (knocker 1, defender
    1 + points; from 100, a gin)."""
    seat = Seat.DEALER if seating.dealer == winner else Seat.NON_DEALER
    if points >= 100:  # a gin: the defender's count and the gin bonus (R18)
        return TwoPlayerHand(seating, seat, score_preset_counts(rules, 0, points - rules.gin_bonus))
    return TwoPlayerHand(seating, seat, score_preset_counts(rules, 1, points + 1))


# --- where a won hand goes (R34) ---------------------------------------------------------


def test_r34_a_players_first_second_and_third_wins_go_to_column_1_then_1_2_then_all_three():
    state = replay_hollywood(RULES, ANN_DEALS, [won(ANN_DEALS, "ann", 10)] * 4)
    assert state.entered == ((1,), (1, 2), (1, 2, 3), (1, 2, 3))
    assert [c.scores["ann"] for c in state.columns] == [40, 30, 20]
    assert [[e.hand for e in c.entries] for c in state.columns] == [[1, 2, 3, 4], [2, 3, 4], [3, 4]]


def test_r34_each_player_climbs_the_columns_by_his_own_wins():
    hands = [won(ANN_DEALS, "ann", 10), won(ANN_DEALS, "bob", 10), won(BOB_DEALS, "bob", 10), won(BOB_DEALS, "ann", 10)]
    state = replay_hollywood(RULES, ANN_DEALS, hands)
    assert state.entered == ((1,), (1,), (1, 2), (1, 2))
    assert [c.scores for c in state.columns] == [{"ann": 20, "bob": 20}, {"ann": 10, "bob": 10}, {"ann": 0, "bob": 0}]


def test_r34_a_player_shut_out_of_a_closed_column_starts_in_the_next_open_one():
    empty = new_sheet(("ann", "bob"))
    closed = empty.enter(RULES, "ann", 100, 1)
    assert columns_for((Column(1, closed), Column(2, empty), Column(3, empty)), "bob") == (2,)
    # ... and a player who had won in the closed column too
    both = empty.enter(RULES, "bob", 10, 1).enter(RULES, "ann", 100, 1)
    assert columns_for((Column(1, both), Column(2, empty), Column(3, empty)), "bob") == (2,)
    in_two = empty.enter(RULES, "bob", 10, 1)
    assert columns_for((Column(1, closed), Column(2, in_two), Column(3, empty)), "bob") == (2, 3)


def test_r34_once_every_column_where_he_has_not_won_is_closed_he_goes_only_where_he_has():
    empty = new_sheet(("ann", "bob"))
    closed = empty.enter(RULES, "ann", 100, 1)
    bob_in_three = empty.enter(RULES, "bob", 10, 1)
    assert columns_for((Column(1, closed), Column(2, closed), Column(3, bob_in_three)), "bob") == (3,)
    assert columns_for((Column(1, closed), Column(2, closed), Column(3, closed)), "bob") == ()


def test_r12_r34_a_draw_is_entered_in_no_column_and_the_same_player_deals_again():
    draw = two_player_hand(RULES, {"dealer": "bob", "non_dealer": "ann", "knocker": None})
    state = replay_hollywood(RULES, BOB_DEALS, [draw])
    assert (state.entered, state.seating, state.hands_played) == (((),), BOB_DEALS, 1)
    assert all(c.entries == () for c in state.columns)


def test_r34_each_column_counts_boxes_and_its_own_result_by_r29_r31():
    rules = resolve_rules("hollywood", {"target_score": 30, "gin_boxes": 2, "shutout": "plus_100"})
    gin = TwoPlayerHand(ANN_DEALS, Seat.DEALER, score_preset_counts(rules, 0, 10))  # 35, two boxes
    state = replay_hollywood(rules, ANN_DEALS, [gin, gin])
    one, two, three = state.columns
    assert (one.won_at, two.won_at, three.won_at) == (1, 2, None)
    assert (one.boxes, two.boxes, three.boxes) == ({"ann": 2, "bob": 0}, {"ann": 2, "bob": 0}, {"ann": 0, "bob": 0})
    # column 1 took only hand 1: it was won there and takes no more hands
    assert [e.hand for e in one.entries] == [1]
    assert one.result.totals["ann"].total == 35 + 50 + 100 + 100
    assert state.entered == ((1,), (2,))


# --- the end of the match (R34) -----------------------------------------------------------


def test_r34_the_match_ends_when_all_three_columns_are_won_and_takes_no_more_hands():
    big = won(ANN_DEALS, "ann", 100)
    state = replay_hollywood(RULES, ANN_DEALS, [big, big, big])
    assert state.entered == ((1,), (2,), (3,))
    assert state.finished and state.seating is None and not can_record_hollywood(state)
    assert state.result.totals == {"ann": 3 * (100 + 25 + 100 + 200), "bob": 0}
    assert (state.result.winner, state.result.net) == ("ann", 1275)
    with pytest.raises(GameStateError) as caught:
        advance_hollywood(RULES, state, big)
    assert caught.value.rule == "R34"
    assert "the match is over" in str(caught.value)
    with pytest.raises(GameStateError) as caught:
        replay_hollywood(RULES, ANN_DEALS, [big] * 5)
    assert (caught.value.rule, caught.value.hands, caught.value.won_at) == ("R34", [4, 5], 3)


def test_r34_the_match_net_is_the_sum_of_the_column_nets_from_the_side_of_the_player_ahead():
    big = 100
    hands = [won(ANN_DEALS, "ann", big), won(ANN_DEALS, "bob", big), won(BOB_DEALS, "bob", big)]
    state = replay_hollywood(RULES, ANN_DEALS, hands)
    nets = [(c.result.winner, c.result.net) for c in state.columns]
    assert nets == [("ann", 425), ("bob", 425), ("bob", 425)]
    assert (state.result.winner, state.result.net, state.result.totals) == ("bob", 425, {"ann": 425, "bob": 850})


def test_r28_r34_a_hand_of_other_players_is_refused():
    with pytest.raises(RolesError) as caught:
        advance_hollywood(RULES, new_hollywood_match(ANN_DEALS), won(Seating("ann", "cy"), "ann", 10))
    assert caught.value.rule == "R28"


# --- corrections (R26, R34) ---------------------------------------------------------------


def test_r26_a_correction_names_the_later_hands_it_moves_to_other_columns():
    hands = [won(ANN_DEALS, "ann", 20), won(ANN_DEALS, "ann", 30), won(ANN_DEALS, "bob", 10)]
    corrected = [won(ANN_DEALS, "bob", 20), *hands[1:]]
    correction = verify_hollywood_correction(RULES, ANN_DEALS, hands, corrected)
    moved = [(m.hand, m.before, m.after, m.corrected) for m in correction.moved]
    assert moved == [(2, (1, 2), (1,), False), (3, (1,), (1, 2), False)]
    assert correction.state.out_of_turn == (2,)


def test_r26_a_corrected_hand_that_changes_its_own_columns_is_marked_corrected():
    hands = [won(ANN_DEALS, "ann", 20), won(ANN_DEALS, "ann", 30)]
    corrected = [hands[0], won(ANN_DEALS, "bob", 30)]
    moved = verify_hollywood_correction(RULES, ANN_DEALS, hands, corrected).moved
    assert [(m.hand, m.before, m.after, m.corrected) for m in moved] == [(2, (1, 2), (1,), True)]


def test_r26_a_correction_that_ends_the_match_before_its_last_hand_is_refused_naming_the_hands():
    small, big = won(ANN_DEALS, "ann", 10), won(ANN_DEALS, "ann", 100)
    hands = [big, big, small, small, small]
    with pytest.raises(GameStateError) as caught:
        verify_hollywood_correction(RULES, ANN_DEALS, hands, [big, big, big, small, small])
    assert (caught.value.rule, caught.value.hands, caught.value.won_at) == ("R26", [4, 5], 3)
    assert str(caught.value) == (
        "the correction ends the match at hand 3: hands 4, 5 would come after the end of the match (R26, R34)"
    )


def test_r26_undo_is_the_replay_of_the_log_without_its_last_hand():
    hands = [won(ANN_DEALS, "ann", 100)] * 3
    undone = verify_hollywood_correction(RULES, ANN_DEALS, hands, hands[:2])
    assert (undone.state.finished, undone.state.open_columns, undone.moved) == (False, (3,), ())
    assert undone.state.seating == ANN_DEALS


# --- golden matches -------------------------------------------------------------------------

MATCHES = json.loads((Path(__file__).resolve().parents[1] / "data" / "golden_matches.json").read_text("utf-8"))
HOLLYWOOD = [m for m in MATCHES if m["preset"] == "hollywood"]


def test_golden_matches_have_unique_names_notes_and_cite_rules():
    names = [m["name"] for m in MATCHES]
    assert len(names) == len(set(names)) == 13
    assert len(HOLLYWOOD) == 6
    assert all(m["rules"] and all(r.startswith("R") for r in m["rules"]) and m["note"] for m in MATCHES)


def golden_hand(rules, players: list[str], hand: dict[str, Any]) -> TwoPlayerHand:
    other = players[1] if hand["dealer"] == players[0] else players[0]
    seating = Seating(hand["dealer"], other)
    if hand["knocker"] is None:
        return two_player_hand(rules, {"dealer": seating.dealer, "non_dealer": other, "knocker": None})
    return TwoPlayerHand(seating, Seat(hand["knocker"]), score_preset_counts(rules, *hand["counts"]))


def column_dict(column) -> dict[str, Any]:
    result = column.result
    return {
        "entries": [e.hand for e in column.entries],
        "scores": column.scores,
        "boxes": column.boxes,
        "winner": column.winner,
        "won_at": column.won_at,
        "result": None
        if result is None
        else {
            "totals": {
                p: [t.hand_points, t.box_bonus, t.game_bonus, t.shutout, t.total] for p, t in result.totals.items()
            },
            "net": result.net,
            "shutout": result.shutout,
        },
    }


@pytest.mark.parametrize("match", HOLLYWOOD, ids=[m["name"] for m in HOLLYWOOD])
def test_golden_hollywood_match(match):
    rules = resolve_rules(match["preset"], match["options"])
    players = match["players"]
    if "cut" in match:
        first = verify_first_seating(players, cut={p: parse_card(c) for p, c in match["cut"].items()})
    else:
        first = verify_first_seating(players, dealer=match["dealer"])
    hands = [golden_hand(rules, players, h) for h in match["hands"]]
    expected = match["expected"]
    got: dict[str, Any] = {}
    try:
        if "correction" in match:
            corrected = list(hands)
            for number, hand in match["correction"].items():
                corrected[int(number) - 1] = golden_hand(rules, players, hand)
            got["before"] = [list(e) for e in replay_hollywood(rules, first, hands).entered]
            correction = verify_hollywood_correction(rules, first, hands, corrected)
            state = correction.state
            got["moved"] = [[m.hand, list(m.before), list(m.after), m.corrected] for m in correction.moved]
        else:
            state = replay_hollywood(rules, first, hands)
    except RefereeError as err:
        assert "error" in expected, str(err)
        got_error = {"rule": err.rule, "hands": getattr(err, "hands", None)}
        assert {k: got_error[k] for k in expected["error"]} == expected["error"]
        return
    assert "error" not in expected
    result = state.result
    got.update(
        {
            "points": [h.score.points for h in hands],
            "entered": [list(e) for e in state.entered],
            "columns": [column_dict(c) for c in state.columns],
            "next_dealer": None if state.seating is None else state.seating.dealer,
            "out_of_turn": list(state.out_of_turn),
            "match": None if result is None else {"totals": result.totals, "winner": result.winner, "net": result.net},
        }
    )
    assert {k: got[k] for k in expected} == expected


# --- random matches against the independent fold --------------------------------------------

MAX_HANDS = 400


def random_match(rng: random.Random) -> tuple[dict, Seating, list[dict], list[int]]:
    """Random options, a first seating and a log of hands played until the
    match ends (or MAX_HANDS), now and then seated otherwise than R28 says."""
    options = random_options(rng, reference_matches.HOLLYWOOD_DEFAULTS)
    players = ("p1", "p2") if rng.random() < 0.5 else ("p2", "p1")
    full = {**reference_matches.HOLLYWOOD_DEFAULTS, **options}
    match = reference_matches.HollywoodMatch(options, *players)
    hands: list[dict] = []
    out_of_turn = []
    while not match.over and len(hands) < MAX_HANDS:
        dealer = match.next_dealer
        if rng.random() < 0.05:  # R26: a hand seated otherwise
            dealer = players[1] if dealer == players[0] else players[0]
            out_of_turn.append(len(hands) + 1)
        other = players[1] if dealer == players[0] else players[0]
        hands.append(random_result(rng, full, {"dealer": dealer, "non_dealer": other}))
        match.play(hands[-1])
    return options, Seating(*players), hands, out_of_turn


def compare(state, match: reference_matches.HollywoodMatch) -> None:
    assert [list(e) for e in state.entered] == [list(e) for e in match.entered]
    assert list(state.out_of_turn) == match.out_of_turn
    assert (None if state.seating is None else state.seating.dealer) == match.next_dealer
    for i, column in enumerate(state.columns):
        want = match.column(i)
        result = column.result
        assert [e.hand for e in column.entries] == want["entries"]
        assert [e.scores for e in column.entries] == want["running"]
        assert (column.boxes, column.winner, column.won_at) == (want["boxes"], want["winner"], want["won_at"])
        if want["result"] is None:
            assert result is None
        else:
            assert {
                "winner": result.winner,
                "loser": result.loser,
                "shutout": result.shutout,
                "totals": totals_dict(result.totals),
                "net": result.net,
            } == want["result"]
    want_match = match.result()
    if want_match is None:
        assert state.result is None
    else:
        assert (state.result.totals, state.result.winner, state.result.net) == (
            want_match["totals"],
            want_match["winner"],
            want_match["net"],
        )


def play_and_compare(rng: random.Random) -> tuple[bool, int]:
    """One random match through both folds; returns whether it ended and how
    many columns were shutouts."""
    options, first, hands, out_of_turn = random_match(rng)
    rules = resolve_rules("hollywood", options)
    assert rules.as_dict() == {"preset": "hollywood", **reference_matches.HOLLYWOOD_DEFAULTS, **options}
    log = [two_player_hand(rules, h) for h in hands]
    # hand by hand, then the whole log at once (R26)
    match = reference_matches.HollywoodMatch(options, first.dealer, first.non_dealer)
    state = new_hollywood_match(first)
    for hand, record in zip(hands, log, strict=True):
        figures = match.play(hand)
        assert (record.score.points, record.score.boxes, record.winner_player) == (
            figures["points"],
            figures["boxes"],
            figures["scorer"],
        )
        state = advance_hollywood(rules, state, record)
        assert list(state.entered[-1]) == list(figures["columns"])
    compare(state, match)
    assert match.out_of_turn == out_of_turn
    compare(replay_hollywood(rules, first, log), match)
    if match.over:
        with pytest.raises(GameStateError) as caught:
            replay_hollywood(rules, first, [*log, log[-1]])
        assert (caught.value.rule, caught.value.hands) == ("R34", [len(log) + 1])
    # the first column is the classic game of the hands entered in it (R34: a game of its own)
    entered = [record for record, columns in zip(log, state.entered, strict=True) if 1 in columns]
    if entered and rules.next_dealer.value == "winner" and not state.out_of_turn:
        classic = replay_two_player(resolve_rules("classic", options), first, entered)
        assert (classic.scores, classic.boxes, classic.winner) == (
            state.columns[0].scores,
            state.columns[0].boxes,
            state.columns[0].winner,
        )
    return state.finished, sum(1 for c in state.columns if c.result is not None and c.result.shutout)


def correct_and_compare(rng: random.Random) -> str:
    """A random hand of a random match corrected (its seating kept, R26): the
    hands moved to other columns, or the hands stranded by an early end.
    Returns which of the two (or neither) it was."""
    options, first, hands, _ = random_match(rng)
    if not hands:
        return "empty"
    full = {**reference_matches.HOLLYWOOD_DEFAULTS, **options}
    rules = resolve_rules("hollywood", options)
    number = rng.randint(1, len(hands))
    seats = {k: hands[number - 1][k] for k in ("dealer", "non_dealer")}
    corrected = list(hands)
    corrected[number - 1] = random_result(rng, full, seats)
    before = reference_matches.hollywood_match(options, first.dealer, first.non_dealer, hands)
    after = reference_matches.hollywood_match(options, first.dealer, first.non_dealer, corrected)
    log = [two_player_hand(rules, h) for h in hands]
    new_log = [two_player_hand(rules, h) for h in corrected]
    if isinstance(after, list):
        with pytest.raises(GameStateError) as caught:
            verify_hollywood_correction(rules, first, log, new_log)
        assert (caught.value.rule, caught.value.hands) == ("R26", after)
        return "stranded"
    correction = verify_hollywood_correction(rules, first, log, new_log)
    compare(correction.state, after)
    want = [
        (n, old, new, n == number and hands[n - 1] != corrected[n - 1])
        for n, (old, new) in enumerate(zip(before.entered, after.entered, strict=True), start=1)
        if old != new
    ]
    assert [(m.hand, m.before, m.after, m.corrected) for m in correction.moved] == want
    return "moved" if any(not m.corrected for m in correction.moved) else "kept"


def test_r34_two_hundred_seeded_matches_agree_with_the_reference():
    seen = {play_and_compare(random.Random(seed)) for seed in range(200)}
    assert {(True, 0), (True, 1), (True, 2), (True, 3)} <= seen


def test_r26_r34_two_hundred_seeded_corrections_agree_with_the_reference():
    seen = {correct_and_compare(random.Random(seed)) for seed in range(200)}
    assert {"stranded", "moved", "kept"} <= seen


@given(rng=st.randoms(use_true_random=False))
@settings(PROPERTY, max_examples=40)
def test_r34_random_matches_agree_with_the_reference(rng):
    play_and_compare(rng)


@given(rng=st.randoms(use_true_random=False))
@settings(PROPERTY, max_examples=40)
def test_r26_r34_random_corrections_agree_with_the_reference(rng):
    correct_and_compare(rng)


@pytest.mark.slow
@given(rng=st.randoms(use_true_random=False))
@settings(PROPERTY, max_examples=2000)
def test_r34_thousands_of_random_matches_agree_with_the_reference(rng):
    play_and_compare(rng)


@pytest.mark.slow
@given(rng=st.randoms(use_true_random=False))
@settings(PROPERTY, max_examples=2000)
def test_r26_r34_thousands_of_random_corrections_agree_with_the_reference(rng):
    correct_and_compare(rng)
