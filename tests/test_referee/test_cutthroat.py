"""Cutthroat (R36, on R12, R26 and R29-R31): the cut of three, the loser
sitting out, each player's total and each pair's net, the shutouts.

Golden games (tests/data/golden_matches.json, the ``cutthroat`` ones) are
worked by hand; random games are checked against the independent fold of
tests/reference_matches.py: every hand's points, boxes and scorer, every
seating, the running scores, the winner and the whole result."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import DECK, CutError, GameStateError, RefereeError, RolesError, parse_card
from referee.cutthroat import (
    CutthroatHand,
    CutthroatSeat,
    CutthroatSeating,
    advance_cutthroat,
    can_record_cutthroat,
    new_cutthroat_game,
    next_cutthroat_seating,
    replay_cutthroat,
    seating_from_cut,
    verify_cutthroat_seating,
)
from referee.preset_hand import score_preset_counts
from referee.presets import resolve_rules
from referee.two_player import Seat
from tests import reference, reference_matches
from tests.test_referee.match_helpers import cutthroat_hand, random_options, random_result, totals_dict
from tests.test_referee.referee_helpers import PROPERTY, card

RULES = resolve_rules("cutthroat")
FIRST = CutthroatSeating(dealer="ann", non_dealer="bob", sitter="cy")


def knock(seating: CutthroatSeating, knocker: Seat, counts: tuple[int, int], rules=RULES) -> CutthroatHand:
    return CutthroatHand(seating, knocker, score_preset_counts(rules, *counts))


# --- seating (R36) -------------------------------------------------------------------------


def test_r36_the_two_higher_cuts_play_and_the_higher_deals():
    seating = seating_from_cut({"ann": card("AS"), "bob": card("10H"), "cy": card("JD")})
    assert seating == CutthroatSeating(dealer="cy", non_dealer="bob", sitter="ann")
    assert seating.of(CutthroatSeat.SITTER) == "ann"


@pytest.mark.parametrize(
    ("cut", "players"),
    [({"ann": "9H", "bob": "9S", "cy": "KD"}, ["ann", "bob"]), ({"ann": "2H", "bob": "QS", "cy": "2D"}, ["ann", "cy"])],
)
def test_r36_tied_ranks_cut_again_even_between_the_two_lower(cut, players):
    with pytest.raises(CutError) as caught:
        seating_from_cut({p: card(c) for p, c in cut.items()})
    assert (caught.value.rule, caught.value.players) == ("R36", players)


def test_r36_a_game_is_seated_by_its_roles_or_a_cut_of_its_three_players():
    roles = {"dealer": 3, "non_dealer": 1, "sitter": 2}
    assert verify_cutthroat_seating([1, 2, 3], roles=roles) == CutthroatSeating(3, 1, 2)
    cut = {"1": card("5S"), "2": card("KH"), "3": card("7D")}
    assert verify_cutthroat_seating([1, 2, 3], cut=cut) == CutthroatSeating(2, 3, 1)
    with pytest.raises(RolesError) as caught:
        verify_cutthroat_seating([1, 2, 3], roles={"dealer": 1, "non_dealer": 2, "sitter": 4})
    assert (caught.value.rule, caught.value.field) == ("R36", "roles")
    with pytest.raises(RolesError):
        verify_cutthroat_seating([1, 2, 3], roles={"box": 1, "captain": 2, "sitter": 3})
    with pytest.raises(CutError) as caught:
        verify_cutthroat_seating([1, 2, 3], cut={"1": card("5S"), "2": card("KH")})
    assert caught.value.players == [3]
    with pytest.raises(CutError) as caught:
        verify_cutthroat_seating([1, 2, 3], cut={"1": card("5S"), "2": card("5S"), "3": card("KH")})
    assert "distinct" in str(caught.value)
    with pytest.raises(RolesError):
        verify_cutthroat_seating([1, 2, 2], roles=roles)


def test_r36_the_loser_sits_out_and_the_sitter_comes_in_and_deals():
    dealer_wins = knock(FIRST, Seat.DEALER, (2, 12))
    assert next_cutthroat_seating(dealer_wins) == CutthroatSeating(dealer="cy", non_dealer="ann", sitter="bob")
    undercut = knock(FIRST, Seat.DEALER, (9, 4))  # bob undercuts: ann lost
    assert next_cutthroat_seating(undercut) == CutthroatSeating(dealer="cy", non_dealer="bob", sitter="ann")


def test_r12_r36_after_a_draw_the_same_two_play_and_the_same_player_deals():
    draw = cutthroat_hand(RULES, {**FIRST.as_dict(), "knocker": None})
    state = replay_cutthroat(RULES, FIRST, [draw, draw])
    assert (state.seating, state.hands_played, state.scores) == (FIRST, 2, {"ann": 0, "bob": 0, "cy": 0})


def test_r36_the_sitter_never_scores_and_a_hand_of_other_players_is_refused():
    state = replay_cutthroat(RULES, FIRST, [knock(FIRST, Seat.NON_DEALER, (1, 21))])
    assert state.scores == {"ann": 0, "bob": 20, "cy": 0}
    with pytest.raises(RolesError) as caught:
        advance_cutthroat(RULES, state, knock(CutthroatSeating("cy", "bob", "dan"), Seat.DEALER, (1, 5)))
    assert caught.value.rule == "R36"


# --- the result (R29-R31, R36) ---------------------------------------------------------------


def test_r36_the_first_to_reach_the_target_wins_and_the_game_takes_no_more_hands():
    rules = resolve_rules("cutthroat", {"target_score": 50, "shutout": "none"})
    hands = [knock(FIRST, Seat.DEALER, (0, 30), rules)]  # ann 55
    state = replay_cutthroat(rules, FIRST, hands)
    assert (state.winner, state.seating, can_record_cutthroat(state)) == ("ann", None, False)
    with pytest.raises(GameStateError) as caught:
        advance_cutthroat(rules, state, hands[0])
    assert caught.value.rule == "R36"
    with pytest.raises(GameStateError) as caught:
        replay_cutthroat(rules, FIRST, hands * 3)
    assert (caught.value.hands, caught.value.won_at) == ([2, 3], 1)


def test_r36_each_pairs_net_is_the_difference_of_their_totals():
    rules = resolve_rules("cutthroat", {"target_score": 40})
    first = knock(FIRST, Seat.DEALER, (1, 11))  # ann 10; bob sits, cy deals to ann
    second = knock(CutthroatSeating("cy", "ann", "bob"), Seat.DEALER, (2, 42), rules)  # cy 40
    state = replay_cutthroat(rules, FIRST, [first, second])
    result = state.result
    assert result.winner == "cy" and result.shut_out == ("bob",)
    assert {p: t.total for p, t in result.totals.items()} == {"ann": 35, "bob": 0, "cy": 40 + 25 + 100 + 140}
    nets = [(n.ahead, n.behind, n.net) for n in result.nets]
    assert nets == [("ann", "bob", 35), ("cy", "ann", 270), ("cy", "bob", 305)]


# --- golden games ---------------------------------------------------------------------------

MATCHES = json.loads((Path(__file__).resolve().parents[1] / "data" / "golden_matches.json").read_text("utf-8"))
CUTTHROAT = [m for m in MATCHES if m["preset"] == "cutthroat"]


def test_golden_cutthroat_games_show_a_shut_out_player_under_each_shutout_option():
    results = [(m["options"].get("shutout"), m["expected"].get("result")) for m in CUTTHROAT]
    shut_out = [option for option, result in results if result and result["shut_out"]]
    assert sorted(set(shut_out)) == ["double", "none", "plus_100"]


def golden_hand(rules, players: list[str], hand: dict[str, Any]) -> CutthroatHand:
    sitter = next(p for p in players if p not in (hand["dealer"], hand["non_dealer"]))
    seated = {"dealer": hand["dealer"], "non_dealer": hand["non_dealer"], "sitter": sitter}
    if hand["knocker"] is None:
        return cutthroat_hand(rules, {**seated, "knocker": None})
    return knock(CutthroatSeating(**seated), Seat(hand["knocker"]), tuple(hand["counts"]), rules)


@pytest.mark.parametrize("game", CUTTHROAT, ids=[m["name"] for m in CUTTHROAT])
def test_golden_cutthroat_game(game):
    rules = resolve_rules(game["preset"], game["options"])
    players = game["players"]
    expected = game["expected"]
    try:
        if "cut" in game:
            first = verify_cutthroat_seating(players, cut={p: parse_card(c) for p, c in game["cut"].items()})
        else:
            first = verify_cutthroat_seating(players, roles=game["roles"])
        hands = [golden_hand(rules, players, h) for h in game["hands"]]
        states = [replay_cutthroat(rules, first, hands[:n]) for n in range(1, len(hands) + 1)]
    except RefereeError as err:
        assert "error" in expected, str(err)
        got_error = {"rule": err.rule, "players": getattr(err, "players", None), "hands": getattr(err, "hands", None)}
        assert {k: got_error[k] for k in expected["error"]} == expected["error"]
        return
    assert "error" not in expected
    final = states[-1]
    result = final.result
    got = {
        "first": first.as_dict(),
        "points": [h.score.points for h in hands],
        "seatings": [None if s.seating is None else s.seating.as_dict() for s in states],
        "running": [dict(r) for r in final.running],
        "boxes": final.boxes,
        "out_of_turn": list(final.out_of_turn),
        "winner": final.winner,
        "result": None
        if result is None
        else {
            "totals": {
                p: [t.hand_points, t.box_bonus, t.game_bonus, t.shutout, t.total] for p, t in result.totals.items()
            },
            "shut_out": list(result.shut_out),
            "nets": [[n.ahead, n.behind, n.net] for n in result.nets],
        },
    }
    assert {k: got[k] for k in expected} == expected


# --- random games against the independent fold ----------------------------------------------

MAX_HANDS = 200
PLAYERS = ("p1", "p2", "p3")


def random_first(rng: random.Random) -> tuple[CutthroatSeating, dict[str, str]]:
    """The first seating by a random cut (cut again on tied ranks), checked
    against the reference's reading of R36."""
    while True:
        cards = rng.sample(range(len(DECK)), 3)
        cut = {p: reference.DECK[c] for p, c in zip(PLAYERS, cards, strict=True)}
        seats = reference_matches.cutthroat_cut(cut)
        by_id = {p: DECK[c] for p, c in zip(PLAYERS, cards, strict=True)}
        if seats is None:
            with pytest.raises(CutError):
                verify_cutthroat_seating(PLAYERS, cut=by_id)
            continue
        seating = verify_cutthroat_seating(PLAYERS, cut=by_id)
        assert seating.as_dict() == seats
        return seating, seats


def play_and_compare(rng: random.Random) -> tuple[str, int] | None:
    """One random game through both folds; returns its ``shutout`` option and
    how many players were shut out (None if nobody reached the target)."""
    options = random_options(rng, reference_matches.CUTTHROAT_DEFAULTS)
    rules = resolve_rules("cutthroat", options)
    full = {**reference_matches.CUTTHROAT_DEFAULTS, **options}
    assert rules.as_dict() == {"preset": "cutthroat", **full}
    first, seats = random_first(rng)
    game = reference_matches.CutthroatGame(options, seats["dealer"], seats["non_dealer"], seats["sitter"])
    state = new_cutthroat_game(first)
    hands: list[dict] = []
    while game.winner is None and len(hands) < MAX_HANDS:
        seated = dict(game.seats)
        if rng.random() < 0.05:  # R26: a hand seated otherwise
            order = list(PLAYERS)
            rng.shuffle(order)
            seated = dict(zip(("dealer", "non_dealer", "sitter"), order, strict=True))
        hands.append(random_result(rng, full, seated))
        figures = game.play(hands[-1])
        record = cutthroat_hand(rules, hands[-1])
        assert (record.score.points, record.score.boxes, record.winner_player) == (
            figures["points"],
            figures["boxes"],
            figures["scorer"],
        )
        state = advance_cutthroat(rules, state, record)
        assert state.scores == figures["running"]
        assert (None if state.seating is None else state.seating.as_dict()) == figures["next"]
    final = replay_cutthroat(rules, first, [cutthroat_hand(rules, h) for h in hands])
    assert (final.winner, final.boxes, list(final.out_of_turn)) == (game.winner, game.boxes, game.out_of_turn)
    assert [dict(r) for r in final.running] == [h["running"] for h in game.hands]
    want = game.result()
    if want is None:
        assert final.result is None
        return None
    result = final.result
    assert {
        "winner": result.winner,
        "shut_out": list(result.shut_out),
        "totals": totals_dict(result.totals),
        "nets": [[n.ahead, n.behind, n.net] for n in result.nets],
    } == want
    with pytest.raises(GameStateError) as caught:
        replay_cutthroat(rules, first, [cutthroat_hand(rules, h) for h in [*hands, hands[-1]]])
    assert caught.value.hands == [len(hands) + 1]
    return str(rules.shutout), len(result.shut_out)


def test_r36_three_hundred_seeded_games_agree_with_the_reference_under_every_shutout():
    seen = {play_and_compare(random.Random(seed)) for seed in range(300)}
    # the sample reaches every option with one and with two players shut out
    assert {(option, n) for option in ("double", "plus_100", "none") for n in (0, 1, 2)} <= seen


@given(rng=st.randoms(use_true_random=False))
@settings(PROPERTY, max_examples=60)
def test_r36_random_games_agree_with_the_reference(rng):
    play_and_compare(rng)


@pytest.mark.slow
@given(rng=st.randoms(use_true_random=False))
@settings(PROPERTY, max_examples=3000)
def test_r36_thousands_of_random_games_agree_with_the_reference(rng):
    play_and_compare(rng)
