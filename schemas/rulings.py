"""Rulings as JSON: the response shapes, and the conversion of the referee's
value types into the plain dicts that are stored with each hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marshmallow import Schema, fields

from referee import Arrangement, Card, DefenderPlay, KnockVerdict, Meld, Ruling, Score
from referee.judge import KnockerPlay

_SIDE = {"description": "knocker or defender; null for a draw", "enum": ["knocker", "defender", None]}


def card_list(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def meld_lists(melds: Iterable[Meld]) -> list[list[str]]:
    return [card_list(m.cards) for m in melds]


def arrangement_dict(arrangement: Arrangement) -> dict[str, Any]:
    return {"melds": meld_lists(arrangement.melds), "deadwood": card_list(arrangement.deadwood),
            "deadwood_count": arrangement.deadwood_count}


def _knocker_dict(play: KnockerPlay) -> dict[str, Any]:
    out = {"melds": meld_lists(play.melds), "deadwood": card_list(play.deadwood),
           "deadwood_count": play.deadwood_count}
    if play.better is not None:
        out["better"] = arrangement_dict(play.better)
    return out


def _defender_dict(play: DefenderPlay, better: DefenderPlay | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "melds": meld_lists(play.melds),
        "layoffs": [{"card": str(lo.card), "meld": lo.meld} for lo in play.layoffs],
        "deadwood": card_list(play.deadwood), "deadwood_count": play.deadwood_count}
    if better is not None:
        out["better"] = _defender_dict(better)
    return out


def ruling_dict(ruling: Ruling) -> dict[str, Any]:
    return {"outcome": ruling.outcome.value,
            "scorer": None if ruling.scorer is None else ruling.scorer.value,
            "points": ruling.points,
            "knocker": _knocker_dict(ruling.knocker),
            "defender": _defender_dict(ruling.defender, ruling.defender_better)}


def count_ruling_dict(score: Score, knocker_count: int, defender_count: int) -> dict[str, Any]:
    return {"outcome": score.outcome.value, "scorer": None if score.scorer is None else score.scorer.value,
            "points": score.points,
            "knocker": {"melds": None, "deadwood": None, "deadwood_count": knocker_count},
            "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": defender_count}}


def draw_ruling_dict() -> dict[str, Any]:
    return {"outcome": "draw", "scorer": None, "points": 0, "knocker": None, "defender": None}


def verdict_dict(verdict: KnockVerdict) -> dict[str, Any]:
    out: dict[str, Any] = {"valid": verdict.valid, **arrangement_dict(verdict.arrangement),
                           "discard": None if verdict.discard is None else str(verdict.discard)}
    if not verdict.valid:
        out["reason"] = verdict.reason
        out["rule"] = verdict.rule
        out["legal_arrangement"] = (None if verdict.legal_arrangement is None
                                    else arrangement_dict(verdict.legal_arrangement))
    if verdict.better is not None:
        out["better"] = arrangement_dict(verdict.better)
    return out


# --- response schemas (documentation and the shape of every ruling) ---

def _cards(**kw: Any) -> fields.List:
    return fields.List(fields.String(metadata={"example": "10H"}), **kw)


def _melds(**kw: Any) -> fields.List:
    return fields.List(fields.List(fields.String()), **kw)


class ArrangementSchema(Schema):
    melds = _melds(required=True)
    deadwood = _cards(required=True)
    deadwood_count = fields.Integer(required=True)


class LayoffSchema(Schema):
    card = fields.String(required=True, metadata={"description": "A card (R3)"})
    meld = fields.Integer(required=True, metadata={"description": "Index into the knocker's melds"})


class KnockerRulingSchema(Schema):
    melds = _melds(required=True, allow_none=True)
    deadwood = _cards(required=True, allow_none=True)
    deadwood_count = fields.Integer(required=True)
    better = fields.Nested(ArrangementSchema, metadata={
        "description": "The least-deadwood arrangement, when the declared one was worse (R22)"})


class DefenderBetterSchema(Schema):
    melds = _melds(required=True)
    layoffs = fields.List(fields.Nested(LayoffSchema), required=True)
    deadwood = _cards(required=True)
    deadwood_count = fields.Integer(required=True)


class DefenderRulingSchema(Schema):
    melds = _melds(required=True, allow_none=True)
    layoffs = fields.List(fields.Nested(LayoffSchema), required=True, allow_none=True,
                          metadata={"description": "In the order played"})
    deadwood = _cards(required=True, allow_none=True)
    deadwood_count = fields.Integer(required=True)
    better = fields.Nested(DefenderBetterSchema, metadata={
        "description": "The defender's best play, when his declared one was worse (R22)"})


class RulingSchema(Schema):
    outcome = fields.String(required=True, metadata={"enum": ["knock", "gin", "undercut", "draw"]})
    scorer = fields.String(required=True, allow_none=True, metadata=_SIDE)
    points = fields.Integer(required=True)
    knocker = fields.Nested(KnockerRulingSchema, required=True, allow_none=True)
    defender = fields.Nested(DefenderRulingSchema, required=True, allow_none=True)


class KnockVerdictSchema(Schema):
    valid = fields.Boolean(required=True)
    deadwood_count = fields.Integer(required=True)
    melds = _melds(required=True)
    deadwood = _cards(required=True)
    discard = fields.String(required=True, allow_none=True)
    reason = fields.String()
    rule = fields.String()
    legal_arrangement = fields.Nested(ArrangementSchema, allow_none=True)
    better = fields.Nested(ArrangementSchema)
