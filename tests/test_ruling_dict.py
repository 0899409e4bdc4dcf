"""schemas.rulings.ruling_dict builds a ruling's JSON straight from the
referee's types: for any ruling, what RULING (RulingSchema, the shape the
API describes) dumps, member for member and in the same order, whether the
play was the referee's own or declared, with a better one beside it (R22)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee import IllegalKnockError, Layoff, RefereeError, Rules, judge_hand, parse_cards
from schemas.rulings import RULING, ruling_dict
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
