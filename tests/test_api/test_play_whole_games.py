"""Whole games through HTTP, from the first hand to the winner (R9-R12, R16-R20, R25, R26).

Every expected score and role below is worked out by hand from RULES.md; the
comments show the working. Players: Ann (a), Bob (b), Cy (c); seatings are
written (box, captain, sitter).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_api.conftest import (
    DRAW,
    DRAW_RULING,
    GIN_34,
    GIN_34_RULING,
    KNOCK_6,
    KNOCK_6_RULING,
    KNOCK_10,
    KNOCK_10_RULING,
    UNDERCUT_20,
    UNDERCUT_20_RULING,
    by_cards,
    by_counts,
    problem,
    seats,
    without_explanation,
)


def counts_ruling(outcome: str, scorer: str, points: int, knocker: int, defender: int) -> dict[str, Any]:
    return {
        "outcome": outcome,
        "scorer": scorer,
        "points": points,
        "knocker": {"melds": None, "deadwood": None, "deadwood_count": knocker},
        "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": defender},
    }


def play(
    api,
    game_id: int,
    body: dict[str, Any],
    *,
    number: int,
    seating: dict[str, int],
    ruling: dict[str, Any],
    scores: dict[str, int],
    roles: dict[str, int] | None,
    winner: int | None = None,
    out_of_turn: list[int] | None = None,
) -> dict[str, Any]:
    """Record one hand and check the hand and the game after it, exactly."""
    before = api.game(game_id)
    hand = api.record(game_id, body)
    finished = winner is not None
    assert hand["number"] == number
    assert hand["seating"] == seating
    assert hand["seating_follows"] is True
    assert without_explanation(hand["ruling"]) == ruling
    assert hand["scores"] == scores
    assert hand["roles"] == roles
    assert hand["status"] == ("finished" if finished else "in_progress")
    assert hand["winner"] == winner
    assert hand["corrected_at"] is None
    game = api.game(game_id)
    assert game["scores"] == scores
    assert game["roles"] == roles
    assert game["hands_played"] == number
    assert game["status"] == hand["status"]
    assert game["winner"] == winner
    assert game["out_of_turn"] == (out_of_turn or [])
    assert game["version"] == before["version"] + 1
    assert api.hand(game_id, number) == hand
    return hand


def assert_game_is_over(api, game_id: int, winner: int) -> None:
    """R20: a finished game takes no more hands, of any kind, and stays as it was."""
    game = api.game(game_id)
    assert (game["status"], game["winner"], game["roles"]) == ("finished", winner, None)
    for body in (DRAW, by_counts("box", 1, 30), by_cards("box", *KNOCK_10)):
        response = api.client.post(f"/api/v1/games/{game_id}/hands", json=body)
        details = problem(response, 409)
        assert details["rule"] == "R20"
        assert str(winner) in details["detail"]
    assert api.game(game_id) == game
    assert len(api.hands(game_id)) == game["hands_played"]


def test_r9_r11_r20_a_game_from_a_cut_played_by_cards_to_a_winner(api, table):
    a, b, c = table.ann, table.bob, table.cy
    scores = table.scores
    # R9: Ann cuts AS (Ace low), Bob KH, Cy 2D -> Bob box, Cy captain, Ann sits out.
    game = api.new_game(table.ids, cut={str(a): "AS", str(b): "KH", str(c): "2D"})
    g = game["id"]
    assert game["roles"] == seats(b, c, a)
    assert (game["hands_played"], game["version"]) == (0, 1)

    # 1. (b, c, a): box Bob goes gin, 34 -> b 34. Box won: b stays, c and a swap.
    play(
        api,
        g,
        by_cards("box", *GIN_34),
        number=1,
        seating=seats(b, c, a),
        ruling=GIN_34_RULING,
        scores=scores(0, 34, 0),
        roles=seats(b, a, c),
    )
    # 2. (b, a, c): captain Ann knocks, 10 -> a 10. Box lost: b sits, a box, c captain.
    play(
        api,
        g,
        by_cards("captain", *KNOCK_10),
        number=2,
        seating=seats(b, a, c),
        ruling=KNOCK_10_RULING,
        scores=scores(10, 34, 0),
        roles=seats(a, c, b),
    )
    # 3. (a, c, b): box Ann knocks and is undercut, 20 to captain Cy. Box lost: a sits, c box, b captain.
    play(
        api,
        g,
        by_cards("box", *UNDERCUT_20),
        number=3,
        seating=seats(a, c, b),
        ruling=UNDERCUT_20_RULING,
        scores=scores(10, 34, 20),
        roles=seats(c, b, a),
    )
    # 4. (c, b, a): captain Bob knocks, 6 after layoffs -> b 40. Box lost: c sits, b box, a captain.
    play(
        api,
        g,
        by_cards("captain", *KNOCK_6),
        number=4,
        seating=seats(c, b, a),
        ruling=KNOCK_6_RULING,
        scores=scores(10, 40, 20),
        roles=seats(b, a, c),
    )
    # 5. (b, a, c): box Bob gin 34 -> b 74. Box won: a and c swap.
    play(
        api,
        g,
        by_cards("box", *GIN_34),
        number=5,
        seating=seats(b, a, c),
        ruling=GIN_34_RULING,
        scores=scores(10, 74, 20),
        roles=seats(b, c, a),
    )
    # 6. (b, c, a): captain Cy gin 34 -> c 54. Box lost: b sits, c box, a captain.
    play(
        api,
        g,
        by_cards("captain", *GIN_34),
        number=6,
        seating=seats(b, c, a),
        ruling=GIN_34_RULING,
        scores=scores(10, 74, 54),
        roles=seats(c, a, b),
    )
    # 7. (c, a, b): box Cy undercut, 20 to captain Ann -> a 30. Box lost: c sits, a box, b captain.
    play(
        api,
        g,
        by_cards("box", *UNDERCUT_20),
        number=7,
        seating=seats(c, a, b),
        ruling=UNDERCUT_20_RULING,
        scores=scores(30, 74, 54),
        roles=seats(a, b, c),
    )
    # 8. (a, b, c): captain Bob gin 34 -> b 108 >= 100: Bob wins (R20), no roles any more.
    play(
        api,
        g,
        by_cards("captain", *GIN_34),
        number=8,
        seating=seats(a, b, c),
        ruling=GIN_34_RULING,
        scores=scores(30, 108, 54),
        roles=None,
        winner=b,
    )

    assert_game_is_over(api, g, b)
    hands = api.hands(g)
    assert [h["number"] for h in hands] == list(range(1, 9))
    assert [h["seating"] for h in hands] == [
        seats(b, c, a),
        seats(b, a, c),
        seats(a, c, b),
        seats(c, b, a),
        seats(b, a, c),
        seats(b, c, a),
        seats(c, a, b),
        seats(a, b, c),
    ]
    assert [h["ruling"]["points"] for h in hands] == [34, 10, 20, 6, 34, 34, 20, 34]
    assert [(h["status"], h["winner"], h["roles"]) for h in hands] == [("finished", b, None)] * 8  # the game's now
    assert [h["mode"] for h in hands] == ["cards"] * 8
    assert all(h["seating_follows"] for h in hands)
    assert hands[-1]["scores"] == scores(30, 108, 54)


def test_r25_a_game_recorded_by_counts_to_a_winner(api, table):
    a, b, c = table.ann, table.bob, table.cy
    scores = table.scores
    g = api.new_game(table.ids, roles=seats(a, b, c))["id"]
    # 1. (a, b, c): box Ann 3 vs 60: knock, 57. Box won -> (a, c, b).
    play(
        api,
        g,
        by_counts("box", 3, 60),
        number=1,
        seating=seats(a, b, c),
        ruling=counts_ruling("knock", "knocker", 57, 3, 60),
        scores=scores(57, 0, 0),
        roles=seats(a, c, b),
    )
    # 2. (a, c, b): captain Cy 0 vs 12: gin, 12 + 25 = 37. Box lost -> (c, b, a).
    play(
        api,
        g,
        by_counts("captain", 0, 12),
        number=2,
        seating=seats(a, c, b),
        ruling=counts_ruling("gin", "knocker", 37, 0, 12),
        scores=scores(57, 0, 37),
        roles=seats(c, b, a),
    )
    # 3. (c, b, a): box Cy 5 vs 5: equal is an undercut (R17), 10 to captain Bob. Box lost -> (b, a, c).
    play(
        api,
        g,
        by_counts("box", 5, 5),
        number=3,
        seating=seats(c, b, a),
        ruling=counts_ruling("undercut", "defender", 10, 5, 5),
        scores=scores(57, 10, 37),
        roles=seats(b, a, c),
    )
    # 4. (b, a, c): captain Ann 7 vs 3: undercut, 10 + 4 = 14 to box Bob. Box won -> (b, c, a).
    play(
        api,
        g,
        by_counts("captain", 7, 3),
        number=4,
        seating=seats(b, a, c),
        ruling=counts_ruling("undercut", "defender", 14, 7, 3),
        scores=scores(57, 24, 37),
        roles=seats(b, c, a),
    )
    # 5. (b, c, a): captain Cy 10 vs 100 (both at their R25 limits): knock, 90 -> c 127, Cy wins.
    play(
        api,
        g,
        by_counts("captain", 10, 100),
        number=5,
        seating=seats(b, c, a),
        ruling=counts_ruling("knock", "knocker", 90, 10, 100),
        scores=scores(57, 24, 127),
        roles=None,
        winner=c,
    )
    assert_game_is_over(api, g, c)
    assert [h["mode"] for h in api.hands(g)] == ["counts"] * 5


def test_r12_draws_are_hands_that_keep_the_roles_and_score_nothing(api, table):
    a, b, c = table.ann, table.bob, table.cy
    scores = table.scores
    g = api.new_game(table.ids, roles=seats(b, c, a))["id"]
    # 1. draw: nobody scores, the same seating again.
    hand = play(
        api, g, DRAW, number=1, seating=seats(b, c, a), ruling=DRAW_RULING, scores=scores(0, 0, 0), roles=seats(b, c, a)
    )
    assert (hand["mode"], hand["knocker"], hand["discard"]) == ("draw", None, None)
    # 2. (b, c, a): box Bob 2 vs 52: 50. Box won -> (b, a, c).
    play(
        api,
        g,
        by_counts("box", 2, 52),
        number=2,
        seating=seats(b, c, a),
        ruling=counts_ruling("knock", "knocker", 50, 2, 52),
        scores=scores(0, 50, 0),
        roles=seats(b, a, c),
    )
    # 3., 4. two draws in a row: roles stay (b, a, c).
    play(
        api,
        g,
        DRAW,
        number=3,
        seating=seats(b, a, c),
        ruling=DRAW_RULING,
        scores=scores(0, 50, 0),
        roles=seats(b, a, c),
    )
    play(
        api,
        g,
        DRAW,
        number=4,
        seating=seats(b, a, c),
        ruling=DRAW_RULING,
        scores=scores(0, 50, 0),
        roles=seats(b, a, c),
    )
    # 5. (b, a, c): captain Ann 1 vs 21: 20. Box lost -> (a, c, b).
    play(
        api,
        g,
        by_counts("captain", 1, 21),
        number=5,
        seating=seats(b, a, c),
        ruling=counts_ruling("knock", "knocker", 20, 1, 21),
        scores=scores(20, 50, 0),
        roles=seats(a, c, b),
    )
    # 6. draw -> (a, c, b).
    play(
        api,
        g,
        DRAW,
        number=6,
        seating=seats(a, c, b),
        ruling=DRAW_RULING,
        scores=scores(20, 50, 0),
        roles=seats(a, c, b),
    )
    # 7. (a, c, b): captain Cy 5 vs 4: undercut, 10 + 1 = 11 to box Ann. Box won -> (a, b, c).
    play(
        api,
        g,
        by_counts("captain", 5, 4),
        number=7,
        seating=seats(a, c, b),
        ruling=counts_ruling("undercut", "defender", 11, 5, 4),
        scores=scores(31, 50, 0),
        roles=seats(a, b, c),
    )
    # 8. (a, b, c): captain Bob gin 0 vs 25: 50 -> b exactly 100: reaching the target wins (R20).
    play(
        api,
        g,
        by_counts("captain", 0, 25),
        number=8,
        seating=seats(a, b, c),
        ruling=counts_ruling("gin", "knocker", 50, 0, 25),
        scores=scores(31, 100, 0),
        roles=None,
        winner=b,
    )
    assert_game_is_over(api, g, b)
    assert [h["mode"] for h in api.hands(g)] == ["draw", "counts", "draw", "draw", "counts", "draw", "counts", "counts"]


def test_r26_undo_removes_only_the_last_hand_and_can_unfinish_the_game(api, table):
    a, b, c = table.ann, table.bob, table.cy
    scores = table.scores
    base = "/api/v1/games/{}/hands/{}"
    g = api.new_game(table.ids, roles=seats(a, b, c), rules={"target_score": 50})["id"]
    # 1. (a, b, c): box Ann 2 vs 32: 30. -> (a, c, b).
    play(
        api,
        g,
        by_counts("box", 2, 32),
        number=1,
        seating=seats(a, b, c),
        ruling=counts_ruling("knock", "knocker", 30, 2, 32),
        scores=scores(30, 0, 0),
        roles=seats(a, c, b),
    )
    # 2. (a, c, b): captain Cy 4 vs 14: 10. -> (c, b, a).
    play(
        api,
        g,
        by_counts("captain", 4, 14),
        number=2,
        seating=seats(a, c, b),
        ruling=counts_ruling("knock", "knocker", 10, 4, 14),
        scores=scores(30, 0, 10),
        roles=seats(c, b, a),
    )

    # Only the last hand can be undone; a hand that does not exist is 404.
    before = api.game(g)
    details = problem(api.client.delete(base.format(g, 1)), 409)
    assert "last hand" in details["detail"]
    problem(api.client.delete(base.format(g, 3)), 404)
    problem(api.client.delete(base.format(g, 2**31)), 404)
    assert api.game(g) == before

    # Undo hand 2: the game is as it was after hand 1.
    api.undo(g, 2)
    game = api.game(g)
    assert (game["hands_played"], game["scores"], game["roles"]) == (1, scores(30, 0, 0), seats(a, c, b))
    assert game["version"] == before["version"] + 1
    problem(api.client.get(base.format(g, 2)), 404)
    assert [h["number"] for h in api.hands(g)] == [1]

    # 2 again. (a, c, b): box Ann gin 0 vs 0: 25 -> a 55 >= 50: Ann wins.
    play(
        api,
        g,
        by_counts("box", 0, 0),
        number=2,
        seating=seats(a, c, b),
        ruling=counts_ruling("gin", "knocker", 25, 0, 0),
        scores=scores(55, 0, 0),
        roles=None,
        winner=a,
    )
    assert_game_is_over(api, g, a)

    # Undoing the winning hand un-finishes the game.
    api.undo(g, 2)
    game = api.game(g)
    assert (game["status"], game["winner"], game["roles"]) == ("in_progress", None, seats(a, c, b))
    assert (game["hands_played"], game["scores"]) == (1, scores(30, 0, 0))
    assert api.hand(g, 1)["status"] == "in_progress"
    play(
        api,
        g,
        DRAW,
        number=2,
        seating=seats(a, c, b),
        ruling=DRAW_RULING,
        scores=scores(30, 0, 0),
        roles=seats(a, c, b),
    )

    # Undo everything: back to the first roles; then there is nothing left to undo.
    api.undo(g, 2)
    api.undo(g, 1)
    game = api.game(g)
    assert (game["hands_played"], game["scores"], game["roles"]) == (0, scores(0, 0, 0), seats(a, b, c))
    assert api.hands(g) == []
    problem(api.client.delete(base.format(g, 1)), 404)
    # The rules stay: the undone hands' revisions keep the rulings made under them (R26).
    response = api.client.patch(f"/api/v1/games/{g}", json={"rules": {"target_score": 10}})
    details = problem(response, 409)
    assert "hands were undone" in details["detail"] and details["rule"] == "R26"
    assert api.game(g)["rules"]["target_score"] == game["rules"]["target_score"]


@pytest.fixture
def played(api, table) -> dict[str, Any]:
    """A finished game of four hands, by counts, that Bob wins at hand 4.

    1. (a, b, c): captain Bob 3 vs 23: 20 -> b 20. Box lost -> (b, c, a).
    2. (b, c, a): captain Cy gin 0 vs 15: 40 -> c 40. Box lost -> (c, a, b).
    3. (c, a, b): box Cy 4 vs 14: 10 -> c 50. Box won -> (c, b, a).
    4. (c, b, a): captain Bob gin 0 vs 55: 80 -> b 100: Bob wins.
    """
    a, b, c = table.ann, table.bob, table.cy
    g = api.new_game(table.ids, roles=seats(a, b, c))["id"]
    for body in (
        by_counts("captain", 3, 23),
        by_counts("captain", 0, 15),
        by_counts("box", 4, 14),
        by_counts("captain", 0, 55),
    ):
        api.record(g, body)
    game = api.game(g)
    assert (game["status"], game["winner"], game["scores"]) == ("finished", b, table.scores(0, 100, 50))
    return game


def test_r26_correcting_an_early_hand_changes_scores_and_winner_and_marks_later_hands(api, table, played):
    a, b, c = table.ann, table.bob, table.cy
    scores = table.scores
    g = played["id"]
    original = api.hands(g)

    # Correct hand 1: it was box Ann who knocked, 3 vs 23 -> a 20 instead of b 20.
    # Box won, so hand 2 should have been (a, c, b); it was played (b, c, a): out of turn.
    # Hand 2's captain won from (b, c, a) -> (c, a, b): hand 3 follows, and hand 4 follows hand 3.
    # Bob now has 80 after hand 4: nobody has won. Roles after hand 4 (captain won) -> (b, a, c).
    hand1 = api.correct(g, 1, by_counts("box", 3, 23))
    assert hand1["number"] == 1
    assert hand1["seating"] == seats(a, b, c)
    assert hand1["knocker"] == "box"
    assert without_explanation(hand1["ruling"]) == counts_ruling("knock", "knocker", 20, 3, 23)
    assert hand1["scores"] == scores(20, 0, 0)
    assert hand1["roles"] == seats(b, a, c)  # the game's roles for its next hand (after hand 4)
    assert hand1["corrected_at"] is not None
    assert hand1["seating_follows"] is True

    game = api.game(g)
    assert game["scores"] == scores(20, 80, 50)
    assert (game["status"], game["winner"]) == ("in_progress", None)
    assert game["roles"] == seats(b, a, c)
    assert game["out_of_turn"] == [2]
    assert game["hands_played"] == 4
    assert game["version"] == played["version"] + 1

    hands = api.hands(g)
    assert [h["seating"] for h in hands] == [seats(a, b, c), seats(b, c, a), seats(c, a, b), seats(c, b, a)]
    assert [h["seating_follows"] for h in hands] == [True, False, True, True]
    assert [h["scores"] for h in hands] == [scores(20, 0, 0), scores(20, 0, 40), scores(20, 0, 50), scores(20, 80, 50)]
    for later, before in zip(hands[1:], original[1:], strict=True):  # R26: later rulings stand
        assert (later["ruling"], later["input"], later["knocker"]) == (
            before["ruling"],
            before["input"],
            before["knocker"],
        )
        assert later["corrected_at"] is None
    assert hands[3]["status"] == "in_progress" and hands[3]["winner"] is None

    # 5. (b, a, c): captain Ann gin 0 vs 55: 80 -> a 100: Ann wins where Bob had won.
    play(
        api,
        g,
        by_counts("captain", 0, 55),
        number=5,
        seating=seats(b, a, c),
        ruling=counts_ruling("gin", "knocker", 80, 0, 55),
        scores=scores(100, 80, 50),
        roles=None,
        winner=a,
        out_of_turn=[2],
    )
    assert_game_is_over(api, g, a)


def test_r26_a_correction_can_finish_the_game_again_and_clear_the_marks(api, table, played):
    b, c = table.bob, table.cy
    g = played["id"]
    api.correct(g, 1, by_counts("box", 3, 23))
    assert api.game(g)["out_of_turn"] == [2]
    # Put hand 1 back as it was: Bob wins at hand 4 again and hand 2 follows again.
    hand1 = api.correct(g, 1, by_counts("captain", 3, 23))
    assert (hand1["roles"], hand1["status"], hand1["winner"]) == (None, "finished", b)  # the game's, now
    game = api.game(g)
    assert game["scores"] == table.scores(0, 100, 50)
    assert (game["status"], game["winner"], game["roles"], game["out_of_turn"]) == ("finished", b, None, [])
    assert [h["seating_follows"] for h in api.hands(g)] == [True] * 4
    assert api.hand(g, 4)["status"] == "finished"
    assert api.hand(g, 4)["winner"] == b
    assert game["scores"][str(c)] == 50


def test_r26_correcting_the_winning_hand_can_give_the_win_to_the_other_player(api, table, played):
    a, b, c = table.ann, table.bob, table.cy
    g = played["id"]
    # Hand 4 was (c, b, a); really box Cy went gin, 0 vs 50: 75 -> c 125, and Bob stays on 20.
    hand4 = api.correct(g, 4, by_counts("box", 0, 50))
    assert hand4["seating"] == seats(c, b, a)
    assert without_explanation(hand4["ruling"]) == counts_ruling("gin", "knocker", 75, 0, 50)
    assert hand4["scores"] == table.scores(0, 20, 125)
    assert (hand4["status"], hand4["winner"], hand4["roles"]) == ("finished", c, None)
    game = api.game(g)
    assert (game["status"], game["winner"], game["roles"]) == ("finished", c, None)
    assert game["scores"] == table.scores(0, 20, 125)
    assert game["out_of_turn"] == []
    # Really a draw: nobody has won, and the roles stay as for hand 4 (R12).
    api.correct(g, 4, DRAW)
    game = api.game(g)
    assert (game["status"], game["winner"], game["roles"]) == ("in_progress", None, seats(c, b, a))
    assert game["scores"] == table.scores(0, 20, 50)
    assert game["hands_played"] == 4


def test_r26_a_correction_that_strands_later_hands_is_409_naming_them(api, table, played):
    g = played["id"]
    before, hands_before = api.game(g), api.hands(g)
    # Hand 2 as captain Cy gin 0 vs 75: 100 -> Cy would win at hand 2, before hands 3 and 4.
    details = problem(api.client.put(f"/api/v1/games/{g}/hands/2", json=by_counts("captain", 0, 75)), 409)
    assert details["hands"] == [3, 4]
    assert details["rule"] == "R26"
    assert api.game(g) == before
    assert api.hands(g) == hands_before
    # Hand 1 as captain Bob gin 0 vs 75: 100 -> Bob would win at hand 1: hands 2-4 stranded.
    details = problem(api.client.put(f"/api/v1/games/{g}/hands/1", json=by_counts("captain", 0, 75)), 409)
    assert details["hands"] == [2, 3, 4]
    assert api.game(g) == before


def test_r26_correcting_a_hand_that_does_not_exist_is_409(api, table, played):
    g = played["id"]
    before = api.game(g)
    for number in (5, 99, 2**31 - 1):
        details = problem(api.client.put(f"/api/v1/games/{g}/hands/{number}", json=DRAW), 409)
        assert str(number) in details["detail"]
    problem(api.client.put(f"/api/v1/games/{g}/hands/{2**31}", json=DRAW), 404)
    problem(api.client.put(f"/api/v1/games/{played['id'] + 1000}/hands/1", json=DRAW), 404)
    assert api.game(g) == before


def test_r26_a_correction_by_cards_is_rejudged_with_the_hands_own_seating(api, table):
    a, b, c = table.ann, table.bob, table.cy
    scores = table.scores
    g = api.new_game(table.ids, roles=seats(a, b, c))["id"]
    api.record(g, by_cards("box", *KNOCK_10))  # 1. (a, b, c): a 10 -> (a, c, b)
    api.record(g, by_cards("captain", *KNOCK_6))  # 2. (a, c, b): c 6 -> (c, b, a)
    # Hand 1 was really an undercut of box Ann: captain Bob scores 20 -> hand 2 should have been (b, c, a).
    hand1 = api.correct(g, 1, by_cards("box", *UNDERCUT_20))
    assert without_explanation(hand1["ruling"]) == UNDERCUT_20_RULING
    # roles: the game's for its next hand, which follow hand 2 (captain Cy won from (a, c, b))
    assert (hand1["seating"], hand1["scores"], hand1["roles"]) == (seats(a, b, c), scores(0, 20, 0), seats(c, b, a))
    game = api.game(g)
    assert game["scores"] == scores(0, 20, 6)
    assert game["out_of_turn"] == [2]
    assert game["roles"] == seats(c, b, a)  # from hand 2 as played: captain Cy won from (a, c, b)
    hand2 = api.hand(g, 2)
    assert (hand2["seating"], hand2["seating_follows"], without_explanation(hand2["ruling"])) == (
        seats(a, c, b),
        False,
        KNOCK_6_RULING,
    )
    # A correction into a draw: hand 1 scores nothing and keeps the roles (R12); hand 2 is still out of turn.
    api.correct(g, 1, DRAW)
    game = api.game(g)
    assert (game["scores"], game["out_of_turn"]) == (scores(0, 0, 6), [2])
    assert api.hand(g, 1)["mode"] == "draw"


def test_rule_options_make_short_games_and_zero_points_still_win_the_hand(api, table):
    a, b, c = table.ann, table.bob, table.cy
    scores = table.scores
    g = api.new_game(table.ids, roles=seats(a, b, c), rules={"target_score": 10, "gin_bonus": 20})["id"]
    response = api.client.patch(f"/api/v1/games/{g}", json={"rules": {"undercut_bonus": 0}})
    assert response.status_code == 200
    assert response.get_json()["rules"] == {"gin_bonus": 20, "undercut_bonus": 0, "knock_limit": 10, "target_score": 10}
    # 1. (a, b, c): box Ann 5 vs 5: undercut worth 0 + 0 = 0, but captain Bob won the hand (R11):
    #    box lost -> (b, c, a).
    play(
        api,
        g,
        by_counts("box", 5, 5),
        number=1,
        seating=seats(a, b, c),
        ruling=counts_ruling("undercut", "defender", 0, 5, 5),
        scores=scores(0, 0, 0),
        roles=seats(b, c, a),
    )
    details = problem(api.client.patch(f"/api/v1/games/{g}", json={"rules": {"target_score": 100}}), 409)
    assert "first hand" in details["detail"]
    # 2. (b, c, a): box Bob 6 vs 9: 3. Box won -> (b, a, c).
    play(
        api,
        g,
        by_counts("box", 6, 9),
        number=2,
        seating=seats(b, c, a),
        ruling=counts_ruling("knock", "knocker", 3, 6, 9),
        scores=scores(0, 3, 0),
        roles=seats(b, a, c),
    )
    # 3. (b, a, c): captain Ann gin 0 vs 0 with gin_bonus 20: 20 >= 10 -> Ann wins.
    play(
        api,
        g,
        by_counts("captain", 0, 0),
        number=3,
        seating=seats(b, a, c),
        ruling=counts_ruling("gin", "knocker", 20, 0, 0),
        scores=scores(20, 3, 0),
        roles=None,
        winner=a,
    )
    assert_game_is_over(api, g, a)
    assert api.game(g)["rules"]["target_score"] == 10


def test_r14_knock_limit_option_bounds_counts_and_card_knocks_in_a_game(api, table):
    a, b, c = table.ann, table.bob, table.cy
    g = api.new_game(table.ids, roles=seats(a, b, c), rules={"knock_limit": 0})["id"]
    before = api.game(g)
    details = problem(api.post(f"/games/{g}/hands", by_counts("box", 1, 30)), 422)
    assert details["rule"] == "R25"
    details = problem(api.post(f"/games/{g}/hands", by_cards("box", *KNOCK_6)), 422)
    assert details["rule"] == "R14"
    assert api.game(g) == before
    # Only gin ends a hand: box Ann gin by cards, 34.
    play(
        api,
        g,
        by_cards("box", *GIN_34),
        number=1,
        seating=seats(a, b, c),
        ruling=GIN_34_RULING,
        scores=table.scores(34, 0, 0),
        roles=seats(a, c, b),
    )
