"""Rulings without a game: POST /referee/knock ("can I knock with this?", R14)
and POST /referee/hand (a whole hand, R14-R24)."""

from __future__ import annotations

import pytest

from tests.test_api.conftest import (
    GIN_34,
    GIN_34_RULING,
    KNOCK_6,
    KNOCK_10,
    KNOCK_10_RULING,
    RULES_TYPE,
    by_cards,
    cards,
    melds,
    problem,
    without_explanation,
)

KNOCK = "/referee/knock"
HAND = "/referee/hand"
# OpenSpiel's counterexample: 11 cards before the discard. Discarding 6C leaves
# 3S-6S and 4H-6H with 2H 2D 5D = 9; any other discard leaves more.
COUNTEREXAMPLE = "3S 4S 5S 6S 2H 4H 5H 6H 2D 5D 6C"
NO_MELDS = "KS QH JD 10C 9S 8H 7D 6C 5S 4H"  # ten ranks, no two alike and no runs: 79


def knock(api, text: str, **extra):
    """The verdict, less its explanation (test_explanations.py checks those)."""
    response = api.post(KNOCK, {"cards": cards(text), **extra})
    assert response.status_code == 200, response.get_json()
    assert response.mimetype == "application/json"
    return without_explanation(response.get_json())


def test_r14_ten_cards_within_the_limit_can_knock(api):
    # Sets or runs both leave KC; the canonical order (R3) lists the runs first.
    assert knock(api, KNOCK_10[0]) == {
        "valid": True,
        "deadwood_count": 10,
        "melds": melds("4S 5S 6S | 4H 5H 6H | 4D 5D 6D"),
        "deadwood": ["KC"],
        "discard": None,
    }


def test_r14_gin_is_a_valid_knock_with_no_deadwood(api):
    verdict = knock(api, GIN_34[0])
    assert (verdict["valid"], verdict["deadwood_count"], verdict["deadwood"]) == (True, 0, [])
    assert verdict["melds"] == [cards(GIN_34[0])]


def test_r14_eleven_cards_the_referee_picks_the_best_discard(api):
    assert knock(api, COUNTEREXAMPLE) == {
        "valid": True,
        "deadwood_count": 9,
        "melds": melds("3S 4S 5S 6S | 4H 5H 6H"),
        "deadwood": ["2H", "2D", "5D"],
        "discard": "6C",
    }


def test_r14_eleven_cards_with_the_discard_given_are_judged_on_the_other_ten(api):
    verdict = knock(api, COUNTEREXAMPLE, discard="5d")
    assert verdict == {
        "valid": True,
        "deadwood_count": 10,
        "melds": melds("3S 4S 5S 6S | 4H 5H 6H"),
        "deadwood": ["2H", "2D", "6C"],
        "discard": "5D",
    }
    # Discarding 2H leaves 2D 5D 6C = 13: no arrangement of those ten is legal.
    verdict = knock(api, COUNTEREXAMPLE, discard="2H")
    assert (verdict["valid"], verdict["deadwood_count"], verdict["discard"]) == (False, 13, "2H")
    assert (verdict["rule"], verdict["legal_arrangement"]) == ("R14", None)


def test_r14_ten_cards_with_a_discard_keep_the_discard(api):
    verdict = knock(api, KNOCK_10[0], discard="QD")
    assert (verdict["valid"], verdict["discard"], verdict["deadwood_count"]) == (True, "QD", 10)


def test_r14_an_over_limit_declared_knock_is_a_ruling_with_the_legal_arrangement(api):
    verdict = knock(api, GIN_34[0], melds=melds("AS 2S 3S"))
    assert verdict == {
        "valid": False,
        "deadwood_count": 49,
        "melds": melds("AS 2S 3S"),
        "deadwood": cards("4S 5S 6S 7S 8S 9S 10S"),
        "discard": None,
        "reason": "the declared melds leave deadwood 49, over the knock limit of 10",
        "rule": "R14",
        "legal_arrangement": {"melds": [cards(GIN_34[0])], "deadwood": [], "deadwood_count": 0},
        "better": {"melds": [cards(GIN_34[0])], "deadwood": [], "deadwood_count": 0},
    }


def test_r14_with_no_arrangement_within_the_limit_the_legal_arrangement_is_null(api):
    verdict = knock(api, NO_MELDS)
    assert (verdict["valid"], verdict["rule"], verdict["deadwood_count"]) == (False, "R14", 79)
    assert verdict["melds"] == []
    assert verdict["deadwood"] == cards("5S 9S KS 4H 8H QH 7D JD 6C 10C")  # canonical order
    assert verdict["legal_arrangement"] is None
    assert "79" in verdict["reason"] and "10" in verdict["reason"]


def test_r22_a_declared_arrangement_within_the_limit_stands_and_the_better_one_is_shown(api):
    verdict = knock(api, GIN_34[0], melds=melds("AS 2S 3S 4S 5S 6S 7S 8S 9S"))
    assert verdict == {
        "valid": True,
        "deadwood_count": 10,
        "melds": melds("AS 2S 3S 4S 5S 6S 7S 8S 9S"),
        "deadwood": ["10S"],
        "discard": None,
        "better": {"melds": [cards(GIN_34[0])], "deadwood": [], "deadwood_count": 0},
    }


def test_r14_the_knock_limit_option_applies(api):
    verdict = knock(api, COUNTEREXAMPLE, rules={"knock_limit": 5})
    assert (verdict["valid"], verdict["deadwood_count"], verdict["rule"]) == (False, 9, "R14")
    assert verdict["legal_arrangement"] is None
    assert "knock limit of 5" in verdict["reason"]
    assert knock(api, GIN_34[0], rules={"knock_limit": 0})["valid"] is True


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"cards": cards("AS 2S 3S 4S 5S 6S 7S 8S 9S")}, "cards", "has 9 cards"),
        ({"cards": cards(COUNTEREXAMPLE + " KD")}, "cards", "has 12 cards"),
        ({"cards": cards("AS 2S 3S 4S 5S 6S 7S 8S 9S as")}, "cards[9]", "AS appears twice"),
        ({"cards": cards(KNOCK_10[0]), "discard": "KC"}, "discard", "KC appears twice"),
        ({"cards": cards(COUNTEREXAMPLE), "discard": "KD"}, "discard", "KD is not one of the 11 cards"),
        ({"cards": cards(KNOCK_10[0]), "melds": melds("4H 5H KC")}, "melds[0]", "is not a set (R4) or a run (R5)"),
        (
            {
                "cards": cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"),
                "melds": [cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS")],
            },
            "melds",
            "name the discard",
        ),
    ],
)
def test_r21_r22_bad_knock_input_is_422_naming_the_field(api, body, field, words):
    details = problem(api.post(KNOCK, body), 422)
    assert list(details["errors"]) == [field]
    assert words in details["errors"][field][0]
    assert details["type"].startswith(RULES_TYPE)


def test_r3_a_knock_with_a_string_that_is_not_a_card_is_422_naming_it(api):
    details = problem(api.post(KNOCK, {"cards": cards("AS 2S 3S QX 5S 6S 7S 8S 9S 10S")}), 422)
    assert details["errors"] == {"cards[3]": ['"QX" is not a card (R3)']}


def test_r24_the_referee_rules_on_a_whole_hand_without_a_game(api):
    response = api.post(HAND, by_cards("box", *KNOCK_10))
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert without_explanation(response.get_json()) == KNOCK_10_RULING
    # `knocker` is optional here and does not change the ruling.
    body = by_cards("box", *KNOCK_10)
    del body["knocker"]
    assert without_explanation(api.post(HAND, body).get_json()) == KNOCK_10_RULING


def test_r18_rule_options_apply_to_a_referee_ruling(api):
    ruling = api.post(HAND, {**by_cards("box", *GIN_34), "rules": {"gin_bonus": 20}}).get_json()
    assert without_explanation(ruling) == {**GIN_34_RULING, "points": 29}  # 9 + 20


def test_r14_an_illegal_declared_knock_is_422_citing_r14_with_the_legal_arrangement(api):
    body = by_cards("box", *KNOCK_10, knocker_melds=melds("4H 5H 6H"))
    details = problem(api.post(HAND, body), 422, RULES_TYPE + "R14")
    assert details["rule"] == "R14"
    assert details["title"] == "Rule R14"
    # 4S 5S 6S 4D 5D 6D KC = 40
    assert details["errors"] == {
        "knocker_hand.melds": ["the declared melds leave deadwood 40, over the knock limit of 10"]
    }
    assert details["legal_arrangement"] == {
        "melds": melds("4S 5S 6S | 4H 5H 6H | 4D 5D 6D"),
        "deadwood": ["KC"],
        "deadwood_count": 10,
    }


def test_r14_an_illegal_undeclared_knock_is_422_with_a_null_legal_arrangement(api):
    details = problem(api.post(HAND, by_cards("box", NO_MELDS, GIN_34[1])), 422, RULES_TYPE + "R14")
    assert "legal_arrangement" in details and details["legal_arrangement"] is None
    assert details["errors"] == {"knocker_hand.cards": ["the least deadwood is 79, over the knock limit of 10"]}


def test_r14_a_knock_over_a_lowered_knock_limit_is_422(api):
    # KNOCK_6's knocker keeps AS (1): over a knock limit of 0.
    details = problem(
        api.post(HAND, {**by_cards("box", *KNOCK_6), "rules": {"knock_limit": 0}}), 422, RULES_TYPE + "R14"
    )
    assert details["legal_arrangement"] is None
    assert "knock limit of 0" in details["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"knocker_hand": {"cards": cards(KNOCK_10[0])}}, "defender_hand"),
        ({"defender_hand": {"cards": cards(KNOCK_10[1])}}, "knocker_hand"),
        ({**by_cards("box", *KNOCK_10), "knocker": "sitter"}, "knocker"),
        ({**by_cards("box", *KNOCK_10), "rules": {"undercut_bonus": 101}}, "rules.undercut_bonus"),
        ({**by_cards("box", *KNOCK_10), "knocker_deadwood_count": 3}, "knocker_deadwood_count"),
    ],
)
def test_a_referee_hand_needs_both_hands_and_nothing_else(api, body, field):
    details = problem(api.post(HAND, body), 422)
    assert field in details["errors"]
