"""Recording and reading single hands: cards (R14-R24), counts (R25), draws (R12)."""

from __future__ import annotations

import pytest

from tests.test_api.conftest import (
    DRAW,
    GIN_34,
    KNOCK_6,
    KNOCK_6_RULING,
    KNOCK_10,
    KNOCK_10_RULING,
    RULES_TYPE,
    by_cards,
    by_counts,
    cards,
    melds,
    problem,
    seats,
    without_explanation,
)

HANDS = "/api/v1/games/{}/hands"


@pytest.fixture
def game(api, table) -> dict:
    """A fresh game, as GET shows it: Ann in the box, Bob captain, Cy sits out."""
    return api.game(api.new_game(table.ids, roles=seats(table.ann, table.bob, table.cy))["id"])


def test_r21_a_knock_by_cards_is_recorded_with_its_seating_input_and_ruling(api, table, game):
    hand = api.record(game["id"], by_cards("box", *KNOCK_6))
    assert hand["number"] == 1
    assert (hand["mode"], hand["knocker"]) == ("cards", "box")
    assert hand["seating"] == seats(table.ann, table.bob, table.cy)
    assert without_explanation(hand["ruling"]) == KNOCK_6_RULING
    assert hand["input"] == {
        "knocker": "box",
        "knocker_hand": {"cards": cards(KNOCK_6[0]), "melds": None, "discard": None},
        "defender_hand": {"cards": cards(KNOCK_6[1]), "melds": None, "layoffs": None},
    }
    assert hand["discard"] is None
    assert hand["scores"] == table.scores(6, 0, 0)
    assert hand["recorded_at"] and hand["corrected_at"] is None


def test_r3_cards_in_any_spelling_come_back_canonical(api, game):
    # KNOCK_10 spelled the ways a phone or a hurried scorer would.
    knocker = ["4♥️", "5h", " 6H ", "4♠", "5s", "6S", "4♦", "5d", "6D", "k♣"]
    defender = ["ah", "2♥", "3H", "7h", "8♥️", "9H", "2s", "3♠", "7S", "8s"]
    hand = api.record(
        game["id"],
        {"knocker": "box", "knocker_hand": {"cards": knocker, "discard": "tc"}, "defender_hand": {"cards": defender}},
    )
    assert without_explanation(hand["ruling"]) == KNOCK_10_RULING
    assert hand["input"]["knocker_hand"]["cards"] == cards(KNOCK_10[0])
    assert hand["input"]["defender_hand"]["cards"] == cards(KNOCK_10[1])
    assert hand["input"]["knocker_hand"]["discard"] == "10C"
    assert hand["discard"] == "10C"


def test_r21_the_discard_is_kept_with_the_hand_and_does_not_change_the_ruling(api, game):
    hand = api.record(game["id"], by_cards("box", *KNOCK_10, discard="QD"))
    assert hand["discard"] == "QD"
    assert without_explanation(hand["ruling"]) == KNOCK_10_RULING
    assert api.hand(game["id"], 1)["discard"] == "QD"


def test_r22_declared_melds_are_honoured_even_when_they_let_the_defender_undercut(api, table, game):
    # R24's example, but the knocker declares the three runs: the defender lays off
    # 3S 2S 7S 8S onto 4S 5S 6S and keeps AH 2H 3H and 7H 8H 9H: 0 against 10, undercut 10 + 10 = 20.
    runs = melds("4H 5H 6H | 4S 5S 6S | 4D 5D 6D")
    hand = api.record(game["id"], by_cards("box", *KNOCK_10, knocker_melds=runs))
    ruling = hand["ruling"]
    assert (ruling["outcome"], ruling["scorer"], ruling["points"]) == ("undercut", "defender", 20)
    assert ruling["knocker"] == {"melds": runs, "deadwood": ["KC"], "deadwood_count": 10}  # order as declared
    defender = ruling["defender"]
    assert defender["melds"] == melds("AH 2H 3H | 7H 8H 9H")
    assert (defender["deadwood"], defender["deadwood_count"]) == ([], 0)
    assert sorted(lo["card"] for lo in defender["layoffs"]) == ["2S", "3S", "7S", "8S"]
    assert {lo["meld"] for lo in defender["layoffs"]} == {1}
    played = [lo["card"] for lo in defender["layoffs"]]  # R15: one after another, each touching the run
    assert played.index("3S") < played.index("2S") and played.index("7S") < played.index("8S")
    assert hand["scores"] == table.scores(0, 20, 0)
    assert hand["roles"] == seats(table.bob, table.cy, table.ann)  # box lost


def test_r22_a_knocker_who_declares_deadwood_instead_of_gin_has_knocked_and_is_told_the_better(api, table, game):
    # AS-10S declared as three runs of three leaves 10S (10); the defender keeps 9H (9): undercut 10 + 1.
    declared = melds("AS 2S 3S | 4S 5S 6S | 7S 8S 9S")
    ruling = api.record(game["id"], by_cards("box", *GIN_34, knocker_melds=declared))["ruling"]
    assert (ruling["outcome"], ruling["scorer"], ruling["points"]) == ("undercut", "defender", 11)
    assert ruling["knocker"] == {
        "melds": declared,
        "deadwood": ["10S"],
        "deadwood_count": 10,
        "better": {"melds": melds("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"), "deadwood": [], "deadwood_count": 0},
    }
    assert ruling["defender"] == {
        "melds": melds("AH 2H 3H | 4D 5D 6D | JC QC KC"),
        "layoffs": [],
        "deadwood": ["9H"],
        "deadwood_count": 9,
    }


def test_r23_declared_layoffs_stand_as_declared_and_the_better_play_is_shown(api, game):
    # The defender lays off only 8H (onto meld 0 as declared), not 9H after it: 9H + 3S + 4C = 16, knock 15.
    declared = melds("5H 6H 7H | 2S 2D 2C | JS JD JC")
    ruling = api.record(
        game["id"], by_cards("captain", *KNOCK_6, knocker_melds=declared, layoffs=[{"card": "8h", "meld": 0}])
    )["ruling"]
    assert (ruling["outcome"], ruling["scorer"], ruling["points"]) == ("knock", "knocker", 15)
    assert ruling["knocker"] == {"melds": declared, "deadwood": ["AS"], "deadwood_count": 1}
    assert ruling["defender"] == {
        "melds": melds("3D 4D 5D | 8C 9C 10C"),
        "layoffs": [{"card": "8H", "meld": 0}],
        "deadwood": ["3S", "9H", "4C"],
        "deadwood_count": 16,
        "better": {
            "melds": melds("3D 4D 5D | 8C 9C 10C"),
            "layoffs": [{"card": "8H", "meld": 0}, {"card": "9H", "meld": 0}],
            "deadwood": ["3S", "4C"],
            "deadwood_count": 7,
        },
    }


def test_r22_an_empty_list_of_defender_melds_is_declared_and_the_layoffs_are_arranged_around_it(api, game):
    # No melds of his own: 8H 9H go onto 5H 6H 7H (meld 2), the rest is deadwood: 3+3+4+5+4+8+9+10 = 46.
    ruling = api.record(game["id"], by_cards("box", *KNOCK_6, defender_melds=[]))["ruling"]
    assert (ruling["outcome"], ruling["scorer"], ruling["points"]) == ("knock", "knocker", 45)
    assert ruling["defender"]["melds"] == []
    assert ruling["defender"]["layoffs"] == [{"card": "8H", "meld": 2}, {"card": "9H", "meld": 2}]
    assert ruling["defender"]["deadwood"] == cards("3S 3D 4D 5D 4C 8C 9C 10C")
    assert ruling["defender"]["deadwood_count"] == 46
    assert ruling["defender"]["better"]["deadwood_count"] == 7


def test_r18_after_gin_the_defender_may_not_lay_off_and_scores_nothing_with_no_deadwood(api, table, game):
    # JS would fit AS-10S, but not after gin: 10 + 25 = 35.
    ruling = api.record(game["id"], by_cards("box", GIN_34[0], "JS AH 2H 3H 4D 5D 6D JC QC KC"))["ruling"]
    assert (ruling["outcome"], ruling["scorer"], ruling["points"]) == ("gin", "knocker", 35)
    assert ruling["defender"]["layoffs"] == [] and ruling["defender"]["deadwood"] == ["JS"]
    # A defender with no deadwood at all still loses to gin: 0 + 25.
    ruling = api.record(game["id"], by_cards("box", GIN_34[0], "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"))["ruling"]
    assert (ruling["outcome"], ruling["scorer"], ruling["points"]) == ("gin", "knocker", 25)
    assert api.game(game["id"])["scores"] == table.scores(60, 0, 0)


def test_r18_a_declared_layoff_after_gin_is_422(api, game):
    body = by_cards(
        "box",
        GIN_34[0],
        "JS AH 2H 3H 4D 5D 6D JC QC KC",
        knocker_melds=melds(GIN_34[0]),
        layoffs=[{"card": "JS", "meld": 0}],
    )
    details = problem(api.post(f"/games/{game['id']}/hands", body), 422, RULES_TYPE + "R18")
    assert details["errors"] == {"defender_hand.layoffs[0]": ["the knocker went gin: the defender may not lay off"]}
    assert details["offending"] == "JS"


@pytest.mark.parametrize(
    ("parts", "rule", "field", "words"),
    [
        (
            {"knocker_melds": melds("5H 6H 7H | 2S 2D 2C | JS JD JC"), "layoffs": [{"card": "9H", "meld": 0}]},
            "R23",
            "defender_hand.layoffs[0]",
            "9H does not fit knocker meld 0",
        ),
        (
            {"knocker_melds": melds("5H 6H 7H | 2S 2D 2C | JS JD JC"), "layoffs": [{"card": "8H", "meld": 3}]},
            "R23",
            "defender_hand.layoffs[0].meld",
            "there is no knocker meld 3",
        ),
        ({"layoffs": [{"card": "8H", "meld": 0}]}, "R23", "defender_hand.layoffs", "only with the knocker's melds"),
        ({"knocker_melds": melds("5H 6H JS")}, "R5", "knocker_hand.melds[0]", "5H 6H JS is not a set"),
        ({"knocker_melds": melds("5H 6H 7H 8H")}, "R22", "knocker_hand.melds[0]", "8H is not in the hand"),
        ({"knocker_melds": melds("5H 6H 7H | 5H 6H 7H")}, "R6", "knocker_hand.melds[1]", "5H is in melds 0 and 1"),
        ({"defender_melds": melds("3D 4D 5D 6D")}, "R22", "defender_hand.melds[0]", "6D is not in the hand"),
    ],
)
def test_r22_r23_bad_declarations_are_422_naming_the_field_and_the_card(api, game, parts, rule, field, words):
    details = problem(
        api.post(f"/games/{game['id']}/hands", by_cards("box", *KNOCK_6, **parts)), 422, RULES_TYPE + rule
    )
    assert details["rule"] == rule
    assert list(details["errors"]) == [field]
    assert words in details["errors"][field][0]
    assert api.game(game["id"])["hands_played"] == 0


def test_r14_an_illegal_knock_in_a_game_is_422_and_nothing_is_recorded(api, game):
    api.record(game["id"], by_counts("box", 2, 12))
    before = api.game(game["id"])
    # Declared empty melds: all ten cards are deadwood, 1+2+2+2+5+6+7+10+10+10 = 55.
    body = by_cards("box", *KNOCK_6, knocker_melds=[])
    details = problem(api.post(f"/games/{game['id']}/hands", body), 422, RULES_TYPE + "R14")
    assert details["rule"] == "R14"
    assert details["errors"] == {
        "knocker_hand.melds": ["the declared melds leave deadwood 55, over the knock limit of 10"]
    }
    assert details["legal_arrangement"] == {
        "melds": melds("2S 2D 2C | JS JD JC | 5H 6H 7H"),
        "deadwood": ["AS"],
        "deadwood_count": 1,
    }
    after = api.game(game["id"])
    assert (after["hands_played"], after["version"]) == (before["hands_played"], before["version"])
    assert after == before
    assert len(api.hands(game["id"])) == 1


def test_r14_a_hand_with_no_legal_knock_is_422_with_a_null_legal_arrangement(api, game):
    body = by_cards("captain", "KS QH JD 10C 9S 8H 7D 6C 5S 4H", GIN_34[1])
    details = problem(api.post(f"/games/{game['id']}/hands", body), 422, RULES_TYPE + "R14")
    assert details["legal_arrangement"] is None
    assert details["errors"] == {"knocker_hand.cards": ["the least deadwood is 79, over the knock limit of 10"]}
    assert api.game(game["id"]) == game


def test_r25_counts_are_recorded_with_null_melds(api, table, game):
    hand = api.record(game["id"], by_counts("captain", 4, 20))
    assert (hand["mode"], hand["knocker"], hand["discard"]) == ("counts", "captain", None)
    assert hand["input"] == by_counts("captain", 4, 20)
    assert without_explanation(hand["ruling"]) == {
        "outcome": "knock",
        "scorer": "knocker",
        "points": 16,
        "knocker": {"melds": None, "deadwood": None, "deadwood_count": 4},
        "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": 20},
    }
    assert hand["scores"] == table.scores(0, 16, 0)
    assert hand["roles"] == seats(table.bob, table.cy, table.ann)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"knocker": "box", "knocker_deadwood_count": 3}, "defender_deadwood_count"),
        ({"knocker_deadwood_count": 3, "defender_deadwood_count": 9}, "knocker"),
        ({"knocker": "sitter", "knocker_deadwood_count": 3, "defender_deadwood_count": 9}, "knocker"),
        ({**by_counts("box", 3, 9), "knocker_hand": {"cards": cards(KNOCK_6[0])}}, "knocker_deadwood_count"),
        ({"knocker": "box", "knocker_hand": {"cards": cards(KNOCK_6[0])}}, "defender_hand"),
        ({"outcome": "draw", "knocker": "box"}, "knocker"),
        ({"outcome": "win"}, "outcome"),
        ({**by_counts("box", 3.0, 9)}, "knocker_deadwood_count"),
        ({**by_counts("box", "3", 9)}, "knocker_deadwood_count"),
        ({**by_counts("box", True, 9)}, "knocker_deadwood_count"),
        ({**DRAW, "mood": "grumpy"}, "mood"),
        ({}, "knocker"),
    ],
)
def test_a_hand_is_exactly_one_of_cards_counts_or_a_draw(api, game, body, field):
    details = problem(api.post(f"/games/{game['id']}/hands", body), 422)
    assert field in details["errors"], details
    assert api.game(game["id"]) == game


def test_hands_read_back_one_by_one_and_as_a_list_in_order(api, table, game):
    recorded = [api.record(game["id"], body) for body in (DRAW, by_cards("box", *KNOCK_10), by_counts("box", 1, 2))]
    now = {k: api.game(game["id"])[k] for k in ("roles", "status", "winner")}
    # each hand as played, with the game's state now (roles for its next hand, status, winner)
    assert api.hands(game["id"]) == [{**h, **now} for h in recorded]
    assert [api.hand(game["id"], n) for n in (1, 2, 3)] == api.hands(game["id"])
    # hand 3: box Ann 1 vs 2 scores 1 and stays in the box.
    assert recorded[2]["scores"] == table.scores(11, 0, 0)


def test_r24_the_same_input_always_gives_the_same_ruling(api, game):
    rulings = {str(api.record(game["id"], by_cards("box", *KNOCK_10))["ruling"]) for _ in range(3)}
    referee = api.post("/referee/hand", by_cards("box", *KNOCK_10)).get_json()
    assert rulings == {str(referee)}


def test_unknown_hands_and_games_are_404(api, game):
    g = game["id"]
    for path in (
        f"{HANDS.format(g)}/1",
        f"{HANDS.format(g)}/0",
        f"{HANDS.format(g)}/{2**31}",
        f"{HANDS.format(g)}/{2**64}",
        f"{HANDS.format(g + 1000)}",
        f"{HANDS.format(g + 1000)}/1",
        f"{HANDS.format(2**31)}",
        f"{HANDS.format(2**31)}/1",
        f"{HANDS.format(10**40)}/1",
    ):
        problem(api.client.get(path), 404)
    problem(api.post(f"/games/{g + 1000}/hands", DRAW), 404)
    problem(api.post(f"/games/{2**31}/hands", DRAW), 404)
    problem(api.client.delete(f"{HANDS.format(2**31)}/1"), 404)
    problem(api.client.put(f"{HANDS.format(2**31)}/1", json=DRAW), 404)
    assert api.hands(g) == []
