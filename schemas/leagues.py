from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from schemas.fields import MAX_ID, ORDERS, UTCDateTime, id_field, visibility_field
from schemas.pages import PageSchema
from schemas.players import name_field
from schemas.rules import PRESET_NAMES


def preset_filter() -> fields.String:
    return fields.String(
        validate=validate.OneOf(PRESET_NAMES),
        metadata={
            "description": "R27: only the games of this preset, and the ratings under it "
            "(without it: every game, and the ratings under three_handed)"
        },
    )


class LeagueInSchema(Schema):
    name = name_field(required=True)
    members = fields.List(
        id_field(),
        load_default=list,
        validate=validate.Length(max=500),
        metadata={"description": "Player ids to add as members"},
    )
    visibility = visibility_field(
        load_default="public",
        metadata={"description": "private: every read of the league and its games needs one of its keys"},
    )


class LeaguePatchSchema(Schema):
    visibility = visibility_field(
        required=True,
        metadata={"description": "private: every read of the league and its games needs one of its keys"},
    )


class MembersInSchema(Schema):
    players = fields.List(id_field(), required=True, validate=validate.Length(min=1, max=500))


class LeagueSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    members = fields.List(fields.Integer(), required=True)
    games = fields.Integer(required=True, metadata={"description": "Number of games in the league"})
    visibility = visibility_field(
        required=True, metadata={"description": "private: its reads, and its games', need one of its keys"}
    )
    created_at = fields.DateTime(required=True)


class LeagueCreatedSchema(LeagueSchema):
    key = fields.String(required=True, metadata={"description": "The league's key, shown only now"})


class ImportedPlayerSchema(Schema):
    document_id = fields.Integer(required=True, metadata={"description": "The player's id in the document"})
    id = fields.Integer(required=True, metadata={"description": "The player it is in this league"})
    name = fields.String(required=True, metadata={"description": "The player's name: an existing player keeps his own"})
    created = fields.Boolean(
        required=True,
        metadata={
            "description": "true: a new player, made by this import; false: the existing player `players` maps it to"
        },
    )


class LeagueImportedSchema(LeagueCreatedSchema):
    players = fields.List(
        fields.Nested(ImportedPlayerSchema),
        required=True,
        metadata={"description": "Each player of the document, in its order, and the player it became"},
    )


class LeagueListSchema(PageSchema):
    items = fields.List(fields.Nested(LeagueSchema), required=True)


class RangeArgsSchema(Schema):
    since = UTCDateTime(data_key="from", metadata={"description": "Games with played_at at or after this instant"})
    until = UTCDateTime(data_key="to", metadata={"description": "Games with played_at before this instant"})

    @validates_schema
    def _ordered(self, data: dict, **kwargs: object) -> None:
        if "since" in data and "until" in data and data["since"] > data["until"]:
            raise ValidationError("must not be before 'from'", "to")


_SORT = [
    "rating",
    "games_won",
    "win_rate",
    "total_points",
    "games_played",
    "hands_won",
    "gins",
    "undercuts_made",
    "knocks",
    "boxes",
    "average_points_per_hand_won",
    "average_knocker_deadwood",
    "longest_streak",
    "current_streak",
    "name",
]


class StandingsArgsSchema(RangeArgsSchema):
    sort = fields.String(load_default="rating", validate=validate.OneOf(_SORT))
    order = fields.String(load_default="desc", validate=validate.OneOf(ORDERS))
    preset = preset_filter()


def _query_id(**kwargs: object) -> fields.Integer:
    return fields.Integer(validate=validate.Range(min=1, max=MAX_ID), **kwargs)  # type: ignore[arg-type]


class HeadToHeadArgsSchema(RangeArgsSchema):
    a = _query_id(required=True)
    b = _query_id(required=True)
    preset = preset_filter()


class RatingSchema(Schema):
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True, metadata={"description": "Uncertainty"})
    ordinal = fields.Float(required=True, metadata={"description": "mu - 3 sigma, a conservative skill"})
    hands_rated = fields.Integer(required=True)


def _integer(description: str | None = None) -> fields.Integer:
    """An integer every standing has."""
    return fields.Integer(required=True, metadata={"description": description} if description else {})


class StandingSchema(Schema):
    player_id = _integer()
    name = fields.String(required=True)
    games_played = _integer("Finished or not")
    games_finished = _integer()
    games_won = _integer()
    win_rate = fields.Float(required=True, allow_none=True, metadata={"description": "games_won / games_finished"})
    total_points = _integer("Points of the hands he won (R16-R18, R32, R33), without game bonuses")
    hands_played = _integer(
        "Hands he played, in the box or as captain (R8), or as dealer or non-dealer (R28), draws included"
    )
    hands_sat_out = _integer("Hands he sat out (R8)")
    hands_box = _integer()
    hands_captain = _integer()
    hands_sitter = _integer()
    hands_dealer = _integer("Two-player hands he dealt (R28)")
    hands_non_dealer = _integer("Two-player hands he did not deal (R28)")
    hands_won = _integer()
    hands_won_box = _integer()
    hands_won_captain = _integer()
    hands_won_dealer = _integer()
    hands_won_non_dealer = _integer()
    boxes = _integer("Boxes of his two-player hands won (R29)")
    gins = _integer()
    undercuts_made = _integer()
    undercuts_suffered = _integer()
    knocks = _integer()
    average_knocker_deadwood = fields.Float(
        required=True, allow_none=True, metadata={"description": "Over his knocks entered by cards"}
    )
    average_points_per_hand_won = fields.Float(required=True, allow_none=True)
    current_streak = _integer()
    longest_streak = _integer()
    rating = fields.Nested(
        RatingSchema,
        required=True,
        metadata={"description": "Under the preset asked for (R27), or under three_handed when none is"},
    )


def _preset_shown() -> fields.String:
    return fields.String(
        required=True, allow_none=True, metadata={"description": "The preset asked for (R27); null: every game"}
    )


class StandingsSchema(Schema):
    league_id = fields.Integer(required=True)
    sort = fields.String(required=True)
    order = fields.String(required=True)
    preset = _preset_shown()
    items = fields.List(fields.Nested(StandingSchema), required=True)


class HeadToHeadSchema(Schema):
    league_id = fields.Integer(required=True)
    preset = _preset_shown()
    games = fields.Integer(required=True, metadata={"description": "Games both played"})
    items = fields.List(fields.Nested(StandingSchema), required=True)


class HistoryArgsSchema(RangeArgsSchema):
    player = _query_id()
    league = _query_id()
    preset = fields.String(
        validate=validate.OneOf(PRESET_NAMES), metadata={"description": "R27: only the games of this preset"}
    )
    cursor = fields.String(validate=validate.Length(max=200))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
