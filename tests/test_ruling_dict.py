"""schemas.rulings.ruling_dict builds a ruling's JSON straight from the
referee's types (count_ruling_dict, draw_ruling_dict and schemas.hands'
canonical hands likewise): for any ruling, what RULING (RulingSchema, the
shape the API describes) dumps, member for member and in the same order, whether the
play was the referee's own or declared, with a better one beside it (R22)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee import DECK, IllegalKnockError, Layoff, RefereeError, Rules, judge_hand, parse_cards, score_counts
from schemas.hands import DefenderHandSchema, KnockerHandSchema, defender_hand_dict, knocker_hand_dict
from schemas.rulings import DRAW_RULING, RULING, count_ruling_dict, draw_ruling_dict, ruling_dict
from tests.test_referee.referee_helpers import PROPERTY, deals

GOLDEN = json.loads((Path(__file__).parent / "data" / "golden_hands.json").read_text())


def _same(ruling: Any) -> None:
    fast, described = ruling_dict(ruling), RULING.dump(ruling)
    assert fast == described
    assert json.dumps(fast) == json.dumps(described)  # the same members in the same order, throughout


def test_every_golden_ruling_is_what_its_schema_dumps() -> None:
    judged = 0
    for hand in GOLDEN:
        melds = hand["knocker_melds"]
        try:
            ruling = judge_hand(
                parse_cards(hand["knocker_cards"]),
                parse_cards(hand["defender_cards"]),
                knocker_melds=None if melds is None else [parse_cards(m) for m in melds],
                defender_melds=None
                if hand["defender_melds"] is None
                else [parse_cards(m) for m in hand["defender_melds"]],
                layoffs=None
                if hand["layoffs"] is None
                else [Layoff(parse_cards([lo["card"]])[0], lo["meld"]) for lo in hand["layoffs"]],
            )
        except RefereeError:
            continue
        _same(ruling)
        judged += 1
    assert judged >= 35


@settings(PROPERTY, max_examples=200)
@given(deals(), st.data())
def test_any_ruling_undeclared_or_declared_worse_is_what_its_schema_dumps(deal: Any, data: st.DataObject) -> None:
    knocker, defender = deal
    plain = judge_hand(knocker, defender)
    _same(plain)
    melds = list(plain.knocker.melds)
    kept = data.draw(st.lists(st.sampled_from(melds), unique=True) if melds else st.just([]))
    try:  # fewer melds than the best: a better arrangement beside the declared one (R22)
        declared = judge_hand(knocker, defender, knocker_melds=[m.cards for m in kept], defender_melds=[], layoffs=[])
    except IllegalKnockError:
        assume(False)
    _same(declared)
    _same(judge_hand(knocker, defender, rules=Rules(gin_bonus=31, undercut_bonus=7)))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10), st.integers(0, 100), st.integers(0, 50), st.integers(0, 50), st.integers(0, 10))
def test_a_ruling_by_counts_and_a_draw_are_what_their_schema_dumps(
    knocker: int, defender: int, gin: int, undercut: int, limit: int
) -> None:
    """R25, R12: built directly, as RULING dumps them."""
    rules = Rules(gin_bonus=gin, undercut_bonus=undercut, knock_limit=limit)
    assume(knocker <= limit)
    score = score_counts(knocker, defender, rules)
    described = RULING.dump(
        {
            "outcome": score.outcome,
            "scorer": score.scorer,
            "points": score.points,
            "knocker": {"melds": None, "deadwood": None, "deadwood_count": knocker},
            "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": defender},
        }
    )
    fast = count_ruling_dict(score, knocker, defender)
    assert fast == described and json.dumps(fast) == json.dumps(described)
    assert json.dumps(draw_ruling_dict()) == json.dumps(RULING.dump(DRAW_RULING))


CARDS_OF = st.lists(st.sampled_from(DECK), max_size=10)


@st.composite
def loaded_hand(draw: Any, third: str) -> dict[str, Any]:
    hand: dict[str, Any] = {}
    if draw(st.integers(0, 9)):  # now and then, no cards: a member left out is left out of the dump
        hand["cards"] = draw(CARDS_OF)
    if draw(st.booleans()):
        hand["melds"] = draw(st.none() | st.lists(CARDS_OF, max_size=3))
    if draw(st.booleans()):
        if third == "discard":
            hand["discard"] = draw(st.none() | st.sampled_from(DECK))
        else:
            hand["layoffs"] = draw(
                st.none()
                | st.lists(
                    st.fixed_dictionaries({"card": st.sampled_from(DECK), "meld": st.integers(0, 2)}), max_size=3
                )
            )
    return hand


@settings(max_examples=300, deadline=None)
@given(loaded_hand("discard"), loaded_hand("layoffs"))
def test_a_hand_by_cards_is_given_back_as_its_schema_dumps_it(
    knocker: dict[str, Any], defender: dict[str, Any]
) -> None:
    """R3: canonical cards, member for member and in the same order."""
    for fast, described in (
        (knocker_hand_dict(knocker), KnockerHandSchema().dump(knocker)),
        (defender_hand_dict(defender), DefenderHandSchema().dump(defender)),
    ):
        assert json.dumps(fast) == json.dumps(described)
