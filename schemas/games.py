from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from referee.presets import PresetRules
from schemas.fields import (
    STATUSES,
    BuiltSchema,
    UTCDateTime,
    dump_datetime,
    dump_int,
    dump_text,
    id_field,
    visibility_field,
)
from schemas.hands import SeatsOut, card_field, seating_dict, seats_dict
from schemas.pages import PageArgsSchema, PageSchema  # noqa: F401  (PageArgsSchema: the lists' query, imported from here too)
from schemas.rules import PresetRulesInSchema, RulesOutSchema, RulesPatchSchema, RulesSchema
from schemas.rulings import Steps


class RolesInSchema(Schema):
    box = id_field(required=True, metadata={"example": 2})
    captain = id_field(required=True, metadata={"example": 3})
    sitter = id_field(required=True, metadata={"example": 1})


class TwoPlayerRolesInSchema(Schema):
    """R28: who deals the first hand of a two-player game."""

    dealer = id_field(required=True, metadata={"example": 1})
    non_dealer = id_field(required=True, metadata={"example": 2})


class CutthroatRolesInSchema(TwoPlayerRolesInSchema):
    """R36: who deals the first hand of a cutthroat game, who does not, and who sits it out."""

    sitter = id_field(required=True, metadata={"example": 3})


_ROLES_IN = RolesInSchema()
_TWO_PLAYER_ROLES_IN = TwoPlayerRolesInSchema()
_CUTTHROAT_ROLES_IN = CutthroatRolesInSchema()


class RolesIn(fields.Field):
    """The first hand's roles: box, captain and sitter (R8), a two-player
    game's dealer and non_dealer (R28), or a cutthroat game's dealer,
    non_dealer and sitter (R36)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, Any]:
        if isinstance(value, dict) and ("dealer" in value or "non_dealer" in value):
            schema = _CUTTHROAT_ROLES_IN if "sitter" in value else _TWO_PLAYER_ROLES_IN
            loaded: dict[str, Any] = schema.load(value)
        else:
            loaded = _ROLES_IN.load(value)
        return loaded


def _seating_spec(*names: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": list(names),
        "properties": {n: {"type": "integer", "minimum": 1} for n in names},
        "additionalProperties": False,
    }


THREE_SEATS = _seating_spec("box", "captain", "sitter")
TWO_SEATS = _seating_spec("dealer", "non_dealer")
CUTTHROAT_SEATS = _seating_spec("dealer", "non_dealer", "sitter")


def _players(players: list[Any]) -> None:
    """Two players (a two-player preset, R28) or three (R8, R36): the schema
    checks which the rules ask for."""
    if len(players) not in (2, 3):
        raise ValidationError("Length must be 3.")


def _three_at_most(cut: dict[str, Any]) -> None:
    """validate.Length(max=3), which apispec would document as a string's maxLength."""
    if len(cut) > 3:
        raise ValidationError("Longer than maximum length 3.")


class GameInSchema(Schema):
    """Three players, and either a cut (R9) or the roles given directly."""

    class Meta:
        # Keywords of the whole body: no field can carry them, and apispec takes
        # none from a Schema, so the served spec lacks them for now; the live
        # fuzz run (tests/schemathesis_hooks.py) adds them to the spec it uses.
        json_schema = {
            "oneOf": [
                {"title": "By the cut (R9)", "required": ["cut"]},
                {"title": "By the roles", "required": ["roles"]},
            ]
        }

    players = fields.List(
        id_field(),
        required=True,
        validate=_players,
        metadata={
            "uniqueItems": True,
            "minItems": 2,
            "maxItems": 3,
            "example": [1, 2, 3],
            "description": "Three players (three-handed, R8, or cutthroat, R36), or two under a two-player "
            "preset (R28)",
        },
    )
    cut = fields.Dict(
        keys=fields.String(validate=validate.Length(max=12)),
        values=card_field(),
        validate=_three_at_most,
        metadata={
            "description": "Player id -> the card he cut (R9): one entry for each player "
            "(two under a two-player preset, R28; three in cutthroat, R36)",
            "minProperties": 2,
            "maxProperties": 3,
        },
    )
    roles = RolesIn(
        metadata={
            "oneOf": [THREE_SEATS, TWO_SEATS, CUTTHROAT_SEATS],
            "description": "box, captain and sitter (R8); or, under a two-player preset, dealer and non_dealer "
            "(R28); or, in cutthroat, dealer, non_dealer and sitter (R36)",
        }
    )
    rules = fields.Nested(PresetRulesInSchema, load_default=dict)
    league_id = id_field(
        metadata={"description": "The league the game counts for, under any preset (R27); its players must be members"}
    )
    played_at = UTCDateTime(
        metadata={"description": "When the game started (default: now); give it for games entered after the fact"}
    )
    visibility = visibility_field(
        metadata={
            "description": "Outside a league (default public); private: its reads need one of its keys. "
            "A game in a league follows its league's"
        }
    )

    @validates_schema
    def _cut_or_roles(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("cut" in data) == ("roles" in data):
            raise ValidationError("give either a cut or the roles", "cut")

    @validates_schema
    def _visibility_outside_a_league(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "visibility" in data and data.get("league_id") is not None:
            raise ValidationError("a game in a league follows its league's visibility", "visibility")

    @validates_schema(skip_on_field_errors=True)
    def _players_of_the_preset(self, data: dict[str, Any], **kwargs: Any) -> None:
        rules, players, roles = data.get("rules"), data["players"], data.get("roles")
        preset = rules.preset.value if isinstance(rules, PresetRules) else "three_handed"
        cutthroat = preset == "cutthroat"
        two = isinstance(rules, PresetRules) and not cutthroat
        if len(players) != (2 if two else 3):
            wanted = f"{preset} is played by 2 players (R28)" if two else "Length must be 3."
            raise ValidationError("cutthroat is played by 3 players (R36)" if cutthroat else wanted, "players")
        if roles is None:
            return
        if cutthroat and set(roles) != {"dealer", "non_dealer", "sitter"}:
            raise ValidationError("the roles of this game are dealer, non_dealer and sitter (R36)", "roles")
        if not cutthroat and ("dealer" in roles) != two or two and "sitter" in roles:
            wanted = "dealer and non_dealer (R28)" if two else "box, captain and sitter (R8)"
            raise ValidationError(f"the roles of this game are {wanted}", "roles")


class GamePatchSchema(Schema):
    """The rule options (before the first hand), the visibility (of a game
    outside a league, at any time), or both."""

    rules = fields.Nested(RulesPatchSchema)
    visibility = visibility_field(metadata={"description": "A game outside a league only"})

    @validates_schema
    def _something(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError("give rules or visibility", "rules")


class PlayerTotalSchema(Schema):
    """R31: a player's total at the end of a two-player game, and its parts."""

    hand_points = fields.Integer(required=True)
    box_bonus = fields.Integer(required=True, metadata={"description": "R29: box_bonus per box"})
    game_bonus = fields.Integer(required=True, metadata={"description": "R30: the winner's"})
    shutout = fields.Integer(required=True, metadata={"description": "R31: what a shutout adds (the winner's)"})
    total = fields.Integer(required=True)


class PairNetSchema(Schema):
    """R36: the net of two players of a cutthroat game: the one ahead's total minus the other's."""

    ahead = fields.Integer(required=True, metadata={"description": "The one ahead (the first seated, when level)"})
    behind = fields.Integer(required=True)
    net = fields.Integer(required=True)


class GameResultSchema(Schema):
    """R31: a finished two-player game's result; R36: a cutthroat game's,
    with the players shut out and each pair's net instead of one loser."""

    winner = fields.Integer(required=True)
    loser = fields.Integer(metadata={"description": "Two players only (R31)"})
    shutout = fields.Boolean(metadata={"description": "R31: the loser won no hand (two players only)"})
    net = fields.Integer(metadata={"description": "The winner's total minus the loser's (two players only)"})
    shut_out = fields.List(
        fields.Integer(), metadata={"description": "R36: the players who won no hand (cutthroat only)"}
    )
    nets = fields.List(fields.Nested(PairNetSchema), metadata={"description": "R36: each pair's net (cutthroat only)"})
    totals = fields.Dict(keys=fields.String(), values=fields.Nested(PlayerTotalSchema), required=True)
    explanation = Steps(
        required=True,
        metadata={"description": "How the result is made (R29-R31), step by step, each citing its rule"},
    )


class ColumnSchema(Schema):
    """R34: one of a Hollywood match's three columns, a game by R29-R31 of its own."""

    number = fields.Integer(required=True, metadata={"description": "1, 2 or 3"})
    scores = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    boxes = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    hands = fields.List(fields.Integer(), required=True, metadata={"description": "The hands entered in it"})
    winner = fields.Integer(required=True, allow_none=True)
    won_at = fields.Integer(required=True, allow_none=True, metadata={"description": "The hand that won it"})
    result = fields.Nested(GameResultSchema, required=True, allow_none=True)


class MatchResultSchema(Schema):
    """R34: a Hollywood match's result: each player's total over the three columns."""

    totals = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    winner = fields.Integer(required=True, allow_none=True, metadata={"description": "The player ahead; null: equal"})
    net = fields.Integer(required=True, metadata={"description": "The sum of the column nets from his side"})


class MovedHandSchema(Schema):
    """R26, R34: a hand the last correction entered in other columns."""

    hand = fields.Integer(required=True)
    before = fields.List(fields.Integer(), required=True)
    after = fields.List(fields.Integer(), required=True)
    corrected = fields.Boolean(required=True, metadata={"description": "The corrected hand itself, or one it moved"})


class GameSchema(BuiltSchema):
    """A game, built by :func:`game_dict`: a two-player game's boxes and
    result (R29, R31) and a Hollywood match's columns, match and moved (R34)
    are shown for those games only."""

    id = fields.Integer(required=True)
    status = fields.String(required=True, metadata={"enum": list(STATUSES)})
    players = fields.List(fields.Integer(), required=True)
    rules = fields.Nested(
        RulesOutSchema,
        required=True,
        metadata={"description": "The rules the game plays by: under a preset, its name and every option (R27)"},
    )
    scores = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    roles = SeatsOut(
        required=True,
        allow_none=True,
        metadata={
            "description": "Roles for the next hand (dealer and non_dealer under a two-player preset, R28); "
            "null once finished"
        },
    )
    first_roles = SeatsOut(required=True)
    boxes = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "R29: each player's boxes (a two-player game only)"},
    )
    result = fields.Nested(
        GameResultSchema,
        allow_none=True,
        metadata={
            "description": "R31: the result once the game is won; null before (a two-player game only; "
            "a Hollywood match's is `match`)"
        },
    )
    columns = fields.List(
        fields.Nested(ColumnSchema),
        metadata={"description": "R34: a Hollywood match's three columns (a Hollywood match only)"},
    )
    match = fields.Nested(
        MatchResultSchema,
        allow_none=True,
        metadata={"description": "R34: the match's result once its three columns are won (a Hollywood match only)"},
    )
    moved = fields.List(
        fields.Nested(MovedHandSchema),
        metadata={
            "description": "R26, R34: the hands the last correction entered in other columns (a Hollywood match only)"
        },
    )
    cut = fields.Dict(keys=fields.String(), values=fields.String(), required=True, allow_none=True)
    hands_played = fields.Integer(required=True)
    winner = fields.Integer(required=True, allow_none=True)
    out_of_turn = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Hands whose seating no longer follows from the hand before (R26)"},
    )
    version = fields.Integer(required=True)
    league_id = fields.Integer(required=True, allow_none=True)
    visibility = visibility_field(
        required=True,
        allow_none=True,
        metadata={
            "description": "A game outside a league: public or private; null in a league (it follows its league's)"
        },
    )
    played_at = fields.DateTime(required=True)
    created_at = fields.DateTime(required=True)

    def build(self, game: Any) -> dict[str, Any]:
        return game_dict(game)


_RULE_NAMES = tuple(RulesSchema().fields)
_HOLLYWOOD_ONLY = ("columns", "match", "moved")


def game_dict(game: Any) -> dict[str, Any]:
    """A game's JSON (a ``Game`` or a ``GameRow``), as :class:`GameSchema`
    describes it: a three-handed game's members, as before presets, or a
    two-player game's."""
    if game.two_player:
        return _two_player_game_dict(game)
    rules, roles, cut, scores = game.rules, game.roles, game.cut, game.scores
    return {
        "id": dump_int(game.id),
        "status": dump_text(game.status),
        "players": None if game.players is None else [dump_int(p) for p in game.players],
        "rules": None if rules is None else {name: dump_int(rules[name]) for name in _RULE_NAMES if name in rules},
        "scores": None if scores is None else {dump_text(k): dump_int(v) for k, v in scores.items()},
        "roles": seating_dict(roles),
        "first_roles": {  # R8: the first hand's roles, as its columns hold them
            "box": dump_int(game.first_box),
            "captain": dump_int(game.first_captain),
            "sitter": dump_int(game.first_sitter),
        },
        "cut": None if cut is None else {dump_text(k): dump_text(v) for k, v in cut.items()},
        "hands_played": dump_int(game.hands_played),
        "winner": dump_int(game.winner),
        "out_of_turn": None if game.out_of_turn is None else [dump_int(n) for n in game.out_of_turn],
        "version": dump_int(game.version),
        "league_id": dump_int(game.league_id),
        "visibility": dump_text(game.visibility),
        "played_at": dump_datetime(game.played_at),
        "created_at": dump_datetime(game.created_at),
    }


def _two_player_game_dict(game: Any) -> dict[str, Any]:
    """A two-player game's JSON (R27-R31), a Hollywood match's columns (R34) among it."""
    cut, result = game.cut, game.game_result
    shown = {
        "id": dump_int(game.id),
        "status": dump_text(game.status),
        "players": [dump_int(p) for p in game.players],
        "rules": dict(game.rules),
        "scores": {dump_text(k): dump_int(v) for k, v in game.scores.items()},
        "roles": seats_dict(game.roles),
        "first_roles": seats_dict(game.first_seating),
        "boxes": None if game.boxes is None else {dump_text(k): dump_int(v) for k, v in game.boxes.items()},
        "result": None if result is None else dict(result),
        "columns": game.match_columns,
        "match": game.match_result,
        "moved": game.moved,
        "cut": None if cut is None else {dump_text(k): dump_text(v) for k, v in cut.items()},
        "hands_played": dump_int(game.hands_played),
        "winner": dump_int(game.winner),
        "out_of_turn": [dump_int(n) for n in game.out_of_turn],
        "version": dump_int(game.version),
        "league_id": dump_int(game.league_id),
        "visibility": dump_text(game.visibility),
        "played_at": dump_datetime(game.played_at),
        "created_at": dump_datetime(game.created_at),
    }
    if not game.hollywood:
        for name in _HOLLYWOOD_ONLY:
            del shown[name]
    return shown


class GameListSchema(PageSchema):
    items = fields.List(fields.Nested(GameSchema), required=True)


class GameHistorySchema(Schema):
    items = fields.List(fields.Nested(GameSchema), required=True)
    next_cursor = fields.String(
        required=True, allow_none=True, metadata={"description": "Pass as `cursor` for the next page; null at the end"}
    )


class GameCreatedSchema(GameSchema):
    """A game just started, and its own key if it has one (outside a league)."""

    key = fields.String(metadata={"description": "For a game outside a league: its key, shown only now"})

    def build(self, game: Any) -> dict[str, Any]:
        shown = game_dict(game)
        if hasattr(game, "key"):  # an api.shapes.WithKey
            shown["key"] = dump_text(game.key)
        return shown


class KeySchema(Schema):
    key = fields.String(required=True, metadata={"description": "The new key, shown only now; the old one is revoked"})
