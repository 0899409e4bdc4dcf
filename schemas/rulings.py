"""Rulings as JSON, described once: these schemas dump the referee's own
value types (cards, melds, arrangements, plays, rulings, verdicts), and a
hand's stored ruling is that dump."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marshmallow import Schema, fields, post_dump

from referee import Card, KnockVerdict, Outcome, Ruling, Score, Side


class CardText(fields.String):
    """A card on output: its canonical spelling (R3)."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else str(value)


class MeldCards(fields.List):
    """A meld on output: its cards in canonical order."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(CardText(), **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> list[Any] | None:
        return super()._serialize(getattr(value, "cards", value), attr, obj, **kwargs)


class EnumValue(fields.Enum):
    """An enum's value on output; a value that is already plain (from a stored
    dump) is served as it is."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value if value is None or type(value) is str else super()._serialize(value, attr, obj, **kwargs)


class Dumped(fields.Nested):
    """A nested ruling: dumped from the referee's value types once, when the
    hand is judged, and stored as that dump; a stored dump is served as it is."""

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return nested_obj if isinstance(nested_obj, dict) else super()._serialize(nested_obj, attr, obj, **kwargs)


def _omit_none(data: dict[str, Any], *names: str) -> dict[str, Any]:
    for name in names:
        if data.get(name, 0) is None:
            del data[name]
    return data


# --- the shape of every ruling: dumped from the referee's own types ---


def _cards(**kw: Any) -> fields.List:
    return fields.List(CardText(metadata={"example": "10H"}), **kw)


def _melds(**kw: Any) -> fields.List:
    return fields.List(MeldCards(), **kw)


class ArrangementSchema(Schema):
    melds = _melds(required=True)
    deadwood = _cards(required=True)
    deadwood_count = fields.Integer(required=True)


class LayoffSchema(Schema):
    card = CardText(required=True, metadata={"description": "A card (R3)"})
    meld = fields.Integer(required=True, metadata={"description": "Index into the knocker's melds"})


class KnockerRulingSchema(Schema):
    melds = _melds(required=True, allow_none=True)
    deadwood = _cards(required=True, allow_none=True)
    deadwood_count = fields.Integer(required=True)
    better = fields.Nested(
        ArrangementSchema,
        metadata={"description": "The least-deadwood arrangement, when the declared one was worse (R22)"},
    )

    @post_dump
    def _optional(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return _omit_none(data, "better")


class DefenderBetterSchema(Schema):
    melds = _melds(required=True)
    layoffs = fields.List(fields.Nested(LayoffSchema), required=True)
    deadwood = _cards(required=True)
    deadwood_count = fields.Integer(required=True)


class DefenderRulingSchema(Schema):
    melds = _melds(required=True, allow_none=True)
    layoffs = fields.List(
        fields.Nested(LayoffSchema), required=True, allow_none=True, metadata={"description": "In the order played"}
    )
    deadwood = _cards(required=True, allow_none=True)
    deadwood_count = fields.Integer(required=True)
    better = fields.Nested(
        DefenderBetterSchema,
        metadata={"description": "The defender's best play, when his declared one was worse (R22)"},
    )

    @post_dump
    def _optional(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return _omit_none(data, "better")


class RulingSchema(Schema):
    outcome = EnumValue(Outcome, by_value=True, required=True, metadata={"type": "string"})
    scorer = EnumValue(
        Side,
        by_value=True,
        required=True,
        allow_none=True,
        metadata={"type": "string", "description": "knocker or defender; null for a draw"},
    )
    points = fields.Integer(required=True)
    knocker = fields.Nested(KnockerRulingSchema, required=True, allow_none=True)
    defender = fields.Nested(DefenderRulingSchema, required=True, allow_none=True)


class KnockVerdictSchema(Schema):
    valid = fields.Boolean(required=True)
    deadwood_count = fields.Integer(required=True, attribute="arrangement.deadwood_count")
    melds = _melds(required=True, attribute="arrangement.melds")
    deadwood = _cards(required=True, attribute="arrangement.deadwood")
    discard = CardText(required=True, allow_none=True)
    reason = fields.String()
    rule = fields.String()
    legal_arrangement = fields.Nested(ArrangementSchema, allow_none=True)
    better = fields.Nested(ArrangementSchema)

    @post_dump(pass_original=True)
    def _optional(self, data: dict[str, Any], verdict: KnockVerdict, **kwargs: Any) -> dict[str, Any]:
        if verdict.valid:  # why not, and what would be legal: only for an invalid knock (R14)
            for name in ("reason", "rule", "legal_arrangement"):
                data.pop(name, None)
        return _omit_none(data, "better")


RULING = RulingSchema()
ARRANGEMENT = ArrangementSchema()
VERDICT = KnockVerdictSchema()


def card_list(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def ruling_dict(ruling: Ruling) -> dict[str, Any]:
    """The JSON of a ruling as stored with its hand and served."""
    return RULING.dump(ruling)


def count_ruling_dict(score: Score, knocker_count: int, defender_count: int) -> dict[str, Any]:
    """R25: the ruling of a hand entered by counts (no cards, no spreads)."""
    return RULING.dump(
        {
            "outcome": score.outcome,
            "scorer": score.scorer,
            "points": score.points,
            "knocker": {"melds": None, "deadwood": None, "deadwood_count": knocker_count},
            "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": defender_count},
        }
    )


def draw_ruling_dict() -> dict[str, Any]:
    """R12: a draw scores nobody."""
    return RULING.dump(DRAW_RULING)


DRAW_RULING = {"outcome": Outcome.DRAW, "scorer": None, "points": 0, "knocker": None, "defender": None}
