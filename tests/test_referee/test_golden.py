"""Hand-made golden hands (tests/data/golden_hands.json), replayed through judge_hand.

Each entry: knocker_cards, defender_cards; knocker_melds, defender_melds and
layoffs (null = undeclared, R22); optional rules and discard; expected is a
ruling {outcome, scorer, points, knocker_deadwood_count, defender_deadwood_count,
and optionally knocker_melds, defender_melds, layoffs} or {error: rule}.
"""

import json
from pathlib import Path

import pytest

from referee import Layoff, RefereeError, Rules, judge_hand, parse_card, parse_cards

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "data" / "golden_hands.json").read_text("utf-8"))


def test_golden_hands_have_unique_names():
    names = [hand["name"] for hand in GOLDEN]
    assert len(names) == len(set(names)) == 55


def declared(hand):
    kwargs = {}
    if hand.get("knocker_melds") is not None:
        kwargs["knocker_melds"] = [parse_cards(m) for m in hand["knocker_melds"]]
    if hand.get("defender_melds") is not None:
        kwargs["defender_melds"] = [parse_cards(m) for m in hand["defender_melds"]]
    if hand.get("layoffs") is not None:
        kwargs["layoffs"] = [Layoff(parse_card(lo["card"]), lo["meld"]) for lo in hand["layoffs"]]
    if hand.get("discard") is not None:
        kwargs["discard"] = parse_card(hand["discard"])
    return kwargs


@pytest.mark.parametrize("hand", GOLDEN, ids=[hand["name"] for hand in GOLDEN])
def test_golden_hand(hand):
    expected = hand["expected"]
    rules = Rules.from_options(hand.get("rules"))
    knocker, defender = parse_cards(hand["knocker_cards"]), parse_cards(hand["defender_cards"])
    if "error" in expected:
        with pytest.raises(RefereeError) as caught:
            judge_hand(knocker, defender, rules=rules, **declared(hand))
        assert caught.value.rule == expected["error"]
        return
    ruling = judge_hand(knocker, defender, rules=rules, **declared(hand))
    got = {
        "outcome": str(ruling.outcome),
        "scorer": str(ruling.scorer),
        "points": ruling.points,
        "knocker_deadwood_count": ruling.knocker.deadwood_count,
        "defender_deadwood_count": ruling.defender.deadwood_count,
        "knocker_melds": [[str(c) for c in m.cards] for m in ruling.knocker.melds],
        "defender_melds": [[str(c) for c in m.cards] for m in ruling.defender.melds],
        "layoffs": [{"card": str(lo.card), "meld": lo.meld} for lo in ruling.defender.layoffs],
    }
    assert {key: got[key] for key in expected} == expected
