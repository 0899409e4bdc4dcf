"""Hand-made golden games (tests/data/golden_games.json), replayed through the
two-player referee.

Each entry: ``preset`` and ``options`` (R27), the ``players``, the first
``dealer`` or a ``cut`` (R28), and ``hands``: each names its ``dealer`` and
its ``knocker`` (``dealer``, ``non_dealer``, or null for a draw), then either
``counts`` (knocker's, defender's, R25) or ``knocker_cards`` and
``defender_cards``, with ``up_card`` in Oklahoma (R33) and ``big_gin`` for a
big gin by counts (R32). ``expected`` has any of: ``hands`` (each hand's
``scorer``, ``points``, ``boxes``, ``next_dealer``), ``scores``, ``running``,
``boxes``, ``out_of_turn``, ``winner``, ``result`` (``totals``: player ->
[hand points, box bonus, game bonus, shutout, total]; ``net``; ``shutout``);
or ``error``: the rule refused, and where known the ``hand`` that is refused,
the ``hands`` stranded (R26), the ``limit`` or the ``players`` who must cut.
Only the keys given are compared. ``rules`` lists the rules each game shows.
"""

import json
from pathlib import Path

import pytest

from referee import RefereeError, parse_card, parse_cards
from referee.preset_hand import DRAW_SCORE, judge_preset_hand, score_preset_counts
from referee.presets import resolve_rules
from referee.two_player import Seat, Seating, TwoPlayerHand, replay_two_player, verify_first_seating

GAMES = json.loads((Path(__file__).resolve().parents[1] / "data" / "golden_games.json").read_text("utf-8"))


def test_golden_games_have_unique_names_and_cite_rules():
    names = [game["name"] for game in GAMES]
    assert len(names) == len(set(names)) == 21
    assert all(game["rules"] and all(r.startswith("R") for r in game["rules"]) for game in GAMES)


def recorded(rules, players, hand):
    other = players[1] if hand["dealer"] == players[0] else players[0]
    seating = Seating(hand["dealer"], other)
    if hand["knocker"] is None:
        return TwoPlayerHand(seating, None, DRAW_SCORE)
    up = parse_card(hand["up_card"]) if "up_card" in hand else None
    if "counts" in hand:
        score = score_preset_counts(rules, *hand["counts"], up_card=up, big_gin=hand.get("big_gin", False))
    else:
        knocker, defender = parse_cards(hand["knocker_cards"]), parse_cards(hand["defender_cards"])
        score = judge_preset_hand(rules, knocker, defender, up_card=up).score
    return TwoPlayerHand(seating, Seat(hand["knocker"]), score)


def play(game):
    rules = resolve_rules(game["preset"], game["options"])
    players = game["players"]
    if "cut" in game:
        first = verify_first_seating(players, cut={p: parse_card(c) for p, c in game["cut"].items()})
    else:
        first = verify_first_seating(players, dealer=game["dealer"])
    hands = []
    for number, hand in enumerate(game["hands"], start=1):
        try:
            hands.append(recorded(rules, players, hand))
        except RefereeError as err:
            raise RefusedHandError(err, number) from err
    # the state after each hand: each a replay of the log so far (R26)
    return [replay_two_player(rules, first, hands[:n]) for n in range(1, len(hands) + 1)]


class RefusedHandError(Exception):
    """A golden game's hand the referee refuses, and its number."""

    def __init__(self, error, hand):
        super().__init__(str(error))
        self.error, self.hand = error, hand


@pytest.mark.parametrize("game", GAMES, ids=[game["name"] for game in GAMES])
def test_golden_game(game):
    expected = game["expected"]
    if "error" in expected:
        with pytest.raises((RefereeError, RefusedHandError)) as caught:
            play(game)
        hand = caught.value.hand if isinstance(caught.value, RefusedHandError) else None
        err = caught.value.error if isinstance(caught.value, RefusedHandError) else caught.value
        got = {
            "rule": err.rule,
            "hand": hand,
            "hands": getattr(err, "hands", None),
            "limit": getattr(err, "limit", None),
            "players": getattr(err, "players", None),
        }
        assert {key: got[key] for key in expected["error"]} == expected["error"]
        return
    states = play(game)
    final = states[-1]
    got_hands = [{"next_dealer": None if state.seating is None else state.seating.dealer} for state in states]
    rules = resolve_rules(game["preset"], game["options"])
    for number, hand in enumerate(game["hands"]):
        record = recorded(rules, game["players"], hand)
        got_hands[number].update(
            {"scorer": record.winner_player, "points": record.score.points, "boxes": record.score.boxes}
        )
    result = final.result
    got = {
        "hands": [
            {key: got_hands[i][key] for key in want} for i, want in enumerate(expected.get("hands", [{}] * len(states)))
        ],
        "scores": final.scores,
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
            "net": result.net,
            "shutout": result.shutout,
        },
    }
    assert {key: got[key] for key in expected} == expected
