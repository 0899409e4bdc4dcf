"""Rule options, and the presets that set them (R27)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from referee.errors import RuleOptionError
from referee.presets import OPTION_RANGES, Preset, PresetRules, resolve_rules
from referee.rules import OPTIONS

PRESET_NAMES = [p.value for p in Preset]


def _option(name: str) -> fields.Integer:
    default, low, high, rule = OPTIONS[name]
    return fields.Integer(
        strict=True,
        validate=validate.Range(
            min=low, max=high, error=f"{name} must be a whole number from {low} to {high}, not {{input}} ({rule})"
        ),
        metadata={"description": f"{rule}; default {default}"},
    )


class RulesSchema(Schema):
    """Rule options; omitted ones take RULES.md's defaults."""

    gin_bonus = _option("gin_bonus")
    undercut_bonus = _option("undercut_bonus")
    knock_limit = _option("knock_limit")
    target_score = _option("target_score")


def _preset_option(name: str, description: str) -> fields.Field:
    """An option of the two-player presets (R27's table), checked by
    ``referee.presets.resolve_rules`` (which names it, its value and its range)."""
    rule, allowed = OPTION_RANGES[name]
    meta: dict[str, Any] = {"description": f"{rule}: {description}"}
    if allowed is bool:
        meta["type"] = "boolean"
    elif isinstance(allowed, tuple):
        meta.update(type="integer", minimum=allowed[0], maximum=allowed[1])
    else:
        meta.update(type="string", enum=[m.value for m in allowed])  # type: ignore[union-attr]
    return fields.Raw(metadata=meta)


_THREE_HANDED = frozenset(RulesSchema().fields)

_PRESET_OPTIONS = {
    "big_gin_bonus": "the big gin bonus, 0 (default): no big gin",
    "next_dealer": "who deals the next hand (default winner)",
    "box_bonus": "points per box at the end (default 25)",
    "gin_boxes": "boxes for a gin (default 1)",
    "undercut_boxes": "boxes for an undercut (default 1)",
    "boxes_immediate": "box bonuses count at once, toward the target (default off)",
    "game_bonus": "to the winner (default 100)",
    "shutout": "what a shutout pays (default double)",
    "ace": "oklahoma: the knock limit of an ace up-card (default gin_only)",
    "spades_double": "oklahoma: what a spade up-card doubles (default points)",
}


def _preset_options() -> dict[str, fields.Field]:
    """Every option of the two-player presets, as a schema's fields after
    its own (``Meta.include``); fresh fields for each schema."""
    return {name: _preset_option(name, description) for name, description in _PRESET_OPTIONS.items()}


class PresetRulesInSchema(RulesSchema):
    """A game's rules: a ``preset`` (R27; none is ``three_handed``, with the
    options above) and its options, each checked against the preset's range
    (R27's table). Loads as the plain options of a three-handed game, or as
    the resolved rules of a two-player preset."""

    preset = fields.String(
        validate=validate.OneOf(PRESET_NAMES),
        metadata={
            "description": "R27: three_handed (default), classic, straight, oklahoma, hollywood "
            "(R34: three columns at once) or cutthroat (R36: three players, two play each hand)"
        },
    )

    class Meta:
        include = _preset_options()

    @validates_schema
    def _preset_served(self, data: dict[str, Any], **kwargs: Any) -> None:
        preset = data.get("preset", "three_handed")
        if preset == Preset.THREE_HANDED:
            unknown = [name for name in data if name not in _THREE_HANDED and name != "preset"]
            if unknown:
                raise ValidationError({name: ["Unknown field."] for name in unknown})

    @post_load
    def _resolved(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any] | PresetRules:
        preset = data.pop("preset", "three_handed")
        if preset == Preset.THREE_HANDED:
            return data
        try:
            return resolve_rules(preset, data)
        except RuleOptionError as err:
            raise ValidationError(err.message, err.evidence.get("option", "preset")) from None


class RulesOutSchema(RulesSchema):
    """The rules a game plays by: a three-handed game's four options, or a
    preset's name and every option's value (R27)."""

    preset = fields.String(metadata={"enum": [p.value for p in Preset], "description": "R27; absent: three_handed"})

    class Meta:
        include = _preset_options()


class RulesPatchSchema(RulesSchema):
    """Options to change before the first hand: a three-handed game's four,
    or any option of a two-player game's preset (R27, checked against it by
    the game); the preset itself stays as the game started."""

    class Meta:
        include = _preset_options()


THREE_HANDED_OPTIONS = _THREE_HANDED
