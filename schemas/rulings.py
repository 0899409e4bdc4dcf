"""Rulings as JSON, described once: :class:`RulingSchema` describes a
ruling as served; :func:`ruling_dict`, :func:`count_ruling_dict` and
:func:`draw_ruling_dict` build it from the referee's own value types, as it
is stored with its hand, and :func:`served_ruling` serves a stored one. A
knock's verdict is dumped by its schema (:class:`KnockVerdictSchema`).

Every ruling served carries its ``explanation`` (the referee's steps,
:mod:`referee.steps`). A three-handed hand's is not stored: it is rebuilt
from the stored ruling and the game's rules each time the ruling is served
(:func:`explained`), so every hand ever recorded is explained, by the same
words, without a migration; and an export keeps the stored ruling exactly,
as its import compares it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from marshmallow import Schema, fields, post_dump

from referee import (
    PARAMS,
    PRESET_STEPS,
    STEPS,
    Card,
    Code,
    KnockVerdict,
    Outcome,
    PresetCode,
    Rules,
    Ruling,
    Score,
    Side,
    Spread,
    Step,
    explain_counts,
    explain_draw,
    explain_spreads,
)
from referee.steps import SHEET_STEPS, SheetCode
from schemas.fields import BuiltSchema


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


class Dumped(fields.Nested):
    """A nested ruling as stored (built from the referee's value types once,
    when the hand was judged), served by :func:`served_ruling` under the
    rules ``rules(obj)`` gives (the object dumped: a hand's revision or a
    dispute, whose game has the rules)."""

    def __init__(self, nested: Any, *, rules: Callable[[Any], Rules], **kwargs: Any) -> None:
        super().__init__(nested, **kwargs)
        self.rules = rules

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return served_ruling(nested_obj, lambda: self.rules(obj))


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


# --- explanations: the referee's steps ---


def _param(name: str) -> fields.Field:
    kind, what = PARAMS[name]
    meta = {"description": what}
    if kind == "count":
        return fields.Integer(metadata=meta)
    if kind == "card":
        return CardText(metadata={**meta, "example": "8H"})
    if kind == "cards":
        return _cards(metadata=meta)
    if kind == "melds":
        return _melds(metadata=meta)
    return fields.List(fields.Nested(LayoffSchema), metadata=meta)


class StepParamsSchema(Schema):
    """What fills a step's text: each code has its own params (see the step's
    ``code``); a param has one meaning in every code."""

    card = _param("card")
    meld = _param("meld")
    meld_count = _param("meld_count")
    onto = _param("onto")
    melds = _param("melds")
    deadwood = _param("deadwood")
    deadwood_count = _param("deadwood_count")
    layoffs = _param("layoffs")
    declared_count = _param("declared_count")
    limit = _param("limit")
    knocker_count = _param("knocker_count")
    defender_count = _param("defender_count")
    difference = _param("difference")
    undercut_bonus = _param("undercut_bonus")
    gin_bonus = _param("gin_bonus")
    points = _param("points")
    # the presets' (R32, R33, R29)
    up_card = _param("up_card")
    big_gin_bonus = _param("big_gin_bonus")
    base_points = _param("base_points")
    base_boxes = _param("base_boxes")
    boxes = _param("boxes")
    # a two-player game's result (R29-R31)
    player = _param("player")
    loser = _param("loser")
    other = _param("other")  # R36: the other player shut out
    box_bonus = _param("box_bonus")
    box_points = _param("box_points")
    game_bonus = _param("game_bonus")
    hand_points = _param("hand_points")
    shutout_points = _param("shutout_points")
    total = _param("total")
    loser_total = _param("loser_total")
    net = _param("net")


def _codes_description() -> str:
    lines = ["The step, by a stable code; its params and English template (filled with the params, then the rule):"]
    for code, (rule, names, template) in [*STEPS.items(), *PRESET_STEPS.items(), *SHEET_STEPS.items()]:
        lines.append(f'- `{code}` ({rule}): {", ".join(names) or "no params"}. "{template}"')
    return "\n".join(lines)


class StepSchema(Schema):
    rule = fields.String(required=True, metadata={"description": "The rule applied (RULES.md)", "example": "R14"})
    # every code a step may have: a hand's, a preset's (R27-R33) and a game result's (R29-R31, R36)
    code = fields.String(
        required=True,
        metadata={"description": _codes_description(), "enum": [c.value for c in [*Code, *PresetCode, *SheetCode]]},
    )
    params = fields.Nested(StepParamsSchema, required=True)
    text = fields.String(
        required=True,
        metadata={
            "description": "In English, built from the code's template and the params",
            "example": "Knock stands: 7 deadwood, within the limit of 10 (R14)",
        },
    )


def step_dict(step: Step) -> dict[str, Any]:
    """A step as JSON (what :class:`StepSchema` describes); the params' tuples are JSON arrays."""
    return {"rule": step.rule, "code": step.code._value_, "params": step.params, "text": step.text}


def step_dicts(steps: Iterable[Step]) -> list[dict[str, Any]]:
    return [step_dict(s) for s in steps]


class Steps(fields.List):
    """An explanation: the referee's steps, or steps already dumped."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(fields.Nested(StepSchema), **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> list[Any] | None:
        if value is None:
            return None
        return [step_dict(s) if isinstance(s, Step) else s for s in value]


def _explanation(**kw: Any) -> Steps:
    return Steps(metadata={"description": "How the referee came to it: the steps in order, each citing its rule"}, **kw)


class RulingSchema(BuiltSchema):
    """A ruling as served, explained: made by :func:`served_ruling` from the
    stored one (or, without a game, by the referee's endpoint), and given as
    it is. A side's ``better`` play is there only when it has one (R22)."""

    outcome = fields.Enum(Outcome, by_value=True, required=True, metadata={"type": "string"})
    scorer = fields.Enum(
        Side,
        by_value=True,
        required=True,
        allow_none=True,
        metadata={"type": "string", "description": "knocker or defender; null for a draw"},
    )
    points = fields.Integer(required=True)
    knocker = fields.Nested(KnockerRulingSchema, required=True, allow_none=True)
    defender = fields.Nested(DefenderRulingSchema, required=True, allow_none=True)
    # under a two-player preset (R27) only:
    winner = fields.String(
        allow_none=True,
        metadata={"enum": ["dealer", "non_dealer", None], "description": "R28: who won the hand; null for a draw"},
    )
    base_points = fields.Integer(metadata={"description": "R33: the points before a spade up-card doubles them"})
    boxes = fields.Integer(metadata={"description": "R29: the boxes the hand counts for its winner"})
    big_gin = fields.Boolean(metadata={"description": "R32: the knocker melded all 11 cards"})
    upcard = fields.String(allow_none=True, metadata={"description": "R33: the hand's up-card (oklahoma)"})
    knock_limit = fields.Integer(
        allow_none=True, metadata={"description": "The hand's knock limit (R14, R33, R35); null for a draw"}
    )
    explanation = _explanation(required=True)

    def build(self, ruling: Mapping[str, Any]) -> dict[str, Any]:
        if "explanation" not in ruling:
            raise ValueError("a ruling is served explained (served_ruling)")
        return dict(ruling)


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
    explanation = _explanation(required=True)

    @post_dump(pass_original=True)
    def _optional(self, data: dict[str, Any], verdict: KnockVerdict, **kwargs: Any) -> dict[str, Any]:
        if verdict.valid:  # why not, and what would be legal: only for an invalid knock (R14)
            for name in ("reason", "rule", "legal_arrangement"):
                data.pop(name, None)
        return _omit_none(data, "better")


ARRANGEMENT = ArrangementSchema()


def ruling_dict(ruling: Ruling) -> dict[str, Any]:
    """The JSON of a ruling as stored with its hand, built straight from the
    referee's types, as every hand's write and every hand of an import needs
    it: a ruling as :class:`RulingSchema` describes it, but its explanation
    (:func:`served_ruling` adds it)."""
    knocker, defender = ruling.knocker, ruling.defender
    knocker_out: dict[str, Any] = {
        "melds": _melds_out(knocker.melds),
        "deadwood": _cards_out(knocker.deadwood),
        "deadwood_count": knocker.deadwood_count,
    }
    if knocker.better is not None:
        knocker_out["better"] = {
            "melds": _melds_out(knocker.better.melds),
            "deadwood": _cards_out(knocker.better.deadwood),
            "deadwood_count": knocker.better.deadwood_count,
        }
    defender_out = _defender_out(defender)
    if defender.better is not None:
        defender_out["better"] = _defender_out(defender.better)
    return {
        "outcome": ruling.outcome.value,
        "scorer": None if ruling.scorer is None else ruling.scorer.value,
        "points": ruling.points,
        "knocker": knocker_out,
        "defender": defender_out,
    }


def _cards_out(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _melds_out(melds: Iterable[Any]) -> list[list[str]]:
    return [[str(c) for c in m.cards] for m in melds]


def _defender_out(play: Any) -> dict[str, Any]:
    return {
        "melds": _melds_out(play.melds),
        "layoffs": [{"card": str(lo.card), "meld": lo.meld} for lo in play.layoffs],
        "deadwood": _cards_out(play.deadwood),
        "deadwood_count": play.deadwood_count,
    }


def count_ruling_dict(score: Score, knocker_count: int, defender_count: int) -> dict[str, Any]:
    """R25: the ruling of a hand entered by counts (no cards, no spreads), as stored."""
    return {
        "outcome": score.outcome.value,
        "scorer": None if score.scorer is None else score.scorer.value,
        "points": score.points,
        "knocker": {"melds": None, "deadwood": None, "deadwood_count": knocker_count},
        "defender": {"melds": None, "layoffs": None, "deadwood": None, "deadwood_count": defender_count},
    }


def draw_ruling_dict() -> dict[str, Any]:
    """R12: a draw scores nobody; its ruling as stored."""
    return {"outcome": Outcome.DRAW.value, "scorer": None, "points": 0, "knocker": None, "defender": None}


# --- a stored ruling explained ---

_OUTCOME = {o.value: o for o in Outcome}


def _spread(side: Mapping[str, Any]) -> Spread:
    layoffs = side.get("layoffs")
    return Spread(
        side["melds"],
        side["deadwood"],
        side["deadwood_count"],
        [(lo["card"], lo["meld"]) for lo in layoffs] if layoffs else (),
    )


def ruling_steps(stored: Mapping[str, Any], rules: Rules) -> tuple[Step, ...]:
    """The explanation of a stored ruling (a draw, counts or cards) by ``rules``,
    read from its notation (no card is parsed: a stored ruling is the referee's)."""
    outcome = _OUTCOME[stored["outcome"]]
    if outcome is Outcome.DRAW:
        return explain_draw()
    knocker, defender = stored["knocker"], stored["defender"]
    if knocker["melds"] is None:  # R25: counts alone
        return explain_counts(outcome, stored["points"], knocker["deadwood_count"], defender["deadwood_count"], rules)
    knocker_better, defender_better = knocker.get("better"), defender.get("better")
    return explain_spreads(
        outcome,
        stored["points"],
        _spread(knocker),
        _spread(defender),
        rules,
        knocker_better=None if knocker_better is None else _spread(knocker_better),
        defender_better=None if defender_better is None else _spread(defender_better),
    )


def explained(stored: Mapping[str, Any], rules: Rules) -> dict[str, Any]:
    """A stored ruling as served: the same members, and its explanation."""
    return {**stored, "explanation": step_dicts(ruling_steps(stored, rules))}


def served_ruling(stored: Mapping[str, Any], rules: Callable[[], Rules]) -> dict[str, Any]:
    """A stored ruling as served: a preset's as stored, with the explanation
    it keeps (R27); any other explained by the rules ``rules()`` gives (the
    game's, asked for only then: a preset game's rules are no ``Rules``)."""
    return dict(stored) if "explanation" in stored else explained(stored, rules())
