"""The league export document, as read back by an import.

Every member of the document is declared and typed here; an unknown member
is refused. The shape is all a schema checks: what the document says about
the play (rulings, seatings, scores, winners) is checked against the rules by
``api.judging.judge_league``. The document's games are loaded one at a time
(:data:`GAME_SHAPES`: read by :mod:`schemas.readers`, the shapes of a game
are described here once, by their readers), so that a large import never
holds two copies of all its hands.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from referee.presets import Preset, PresetRules
from schemas.disputes import MAX_CLAIM
from schemas.fields import (
    DISPUTE_STATUSES,
    MAX_ID,
    MODES,
    REVISION_ACTIONS,
    ROLES,
    CardField,
    Name,
    Text,
    UTCDateTime,
    id_field,
    visibility_field,
)
from schemas.hands import MAX_REASON, read_hand
from schemas.numbers import NumberOutOfRangeError, check_utf8, loads, utf8_text
from schemas.readers import (
    Reader,
    Shape,
    member,
    not_null,
    nullable,
    read_instant,
    read_integer_in,
    read_list,
    read_mapping,
    read_raw,
    read_string,
    read_with,
)
from schemas.rules import PresetRulesInSchema, RulesSchema

_SHORT = 12  # a card, role or outcome is shorter; a name or date-time may not be
_ROLE = validate.OneOf(["box", "captain"])
# POST /games takes a cut's keys as any digits naming a player (e.g. "07"), and keeps them.
_CUT_KEY = validate.Regexp(r"^[0-9]{1,12}$", error="{input!r} is not a player id")


_PLAYER_ID = re.compile(r"[1-9][0-9]{0,9}\Z")  # \Z: not before a final line break, as $ would
_PLAYER_KEY_CHECK = validate.Regexp(_PLAYER_ID, error="{input!r} is not a player id")
_ID = read_integer_in(1, MAX_ID)
_COUNT = read_integer_in(0, MAX_ID)


def _one_of(options: list[str]) -> Reader:
    return read_string(frozenset(options), f"Must be one of: {', '.join(options)}.")


def read_scores(value: Any) -> dict[str, int]:
    """Points by player id: ``{"17": 26}``, each key a player id, each value a count."""
    scores = read_mapping(value)
    for key, points in scores.items():
        if type(points) is not int or not 0 <= points <= MAX_ID or not _PLAYER_ID.match(key):
            break
    else:
        return scores
    errors: dict[str, dict[str, Any]] = {}
    for key in scores:
        try:
            _PLAYER_KEY_CHECK(key)
        except ValidationError as err:
            errors.setdefault(key, {})["key"] = err.messages
    for key, points in scores.items():
        try:
            _COUNT(points)
        except ValidationError as err:
            errors.setdefault(key, {})["value"] = err.messages
    raise ValidationError(errors)


class _Rules(RulesSchema):
    """All four options, as an export gives them (schemas.rules bounds each)."""

    @validates_schema
    def _every_option(self, data: dict[str, Any], **kwargs: Any) -> None:
        missing = {name: ["Missing data for required field."] for name in self.fields if name not in data}
        if missing:
            raise ValidationError(missing)


def _not_before(data: dict[str, Any], later: str, earlier: str, event: str) -> None:
    """``data[later]``, an instant or None, is not before ``data[earlier]`` (when ``event`` happened)."""
    when = data[later]
    if when is not None and when < data[earlier]:
        raise ValidationError(f"{when.isoformat()} is before {event} ({data[earlier].isoformat()})", later)


def _corrected_after_recorded(data: dict[str, Any]) -> None:
    _not_before(data, "corrected_at", "recorded_at", "the hand was recorded")


#: the three roles of a three-handed hand (R8)
THREE_ROLES = Shape({"box": _ID, "captain": _ID, "sitter": _ID})
#: a two-player hand's dealer and non-dealer (R28)
SEATING = Shape({"dealer": _ID, "non_dealer": _ID})
#: a cutthroat hand's dealer and non-dealer, and the player who sits it out (R36)
CUTTHROAT_SEATING = SEATING.but(sitter=_ID)
_KNOCKER = nullable(_one_of(["box", "captain"]))
_TWO_SEATS = ["dealer", "non_dealer"]  # R28
_TWO_PLAYER_KNOCKER = nullable(_one_of(_TWO_SEATS))

#: a hand that stands (its input judged again by api.judging)
HAND = Shape(
    {
        "number": _ID,
        "mode": _one_of(MODES),
        "seating": member(THREE_ROLES),
        "knocker": _KNOCKER,
        "input": not_null(read_hand),
        "ruling": read_raw,  # compared member by member with the referee's ruling of the input
        "recorded_at": read_instant,
        "corrected_at": nullable(read_instant),
    },
    _corrected_after_recorded,
)

#: one version of a hand (``models.revisions.HandRevision``), without the key
#: that made it: key ids are the exporting server's own
REVISION = Shape(
    {
        "number": _ID,
        "revision": _ID,
        "action": _one_of(REVISION_ACTIONS),
        "mode": _one_of(MODES),
        "seating": member(THREE_ROLES),
        "knocker": _KNOCKER,
        # loaded with HandInSchema by api.judging, unless given exactly as an input loaded already
        "input": read_mapping,
        "ruling": read_raw,  # compared with the referee's ruling of the input
        "scores": read_scores,
        "game_scores": read_scores,
        "made_at": read_instant,
        "reason": read_with(Text(MAX_REASON, required=True, allow_none=True)),
        "dispute": nullable(_ID),  # the id of one of the game's disputes in the document
    }
)


class _Result(Schema):
    outcome = fields.String(required=True, validate=validate.Length(max=_SHORT))
    scorer = fields.String(required=True, allow_none=True, validate=validate.Length(max=_SHORT))
    points = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_ID))


class _Dispute(Schema):
    """A dispute (``models.disputes.Dispute``), without the keys that opened
    and resolved it; ``id`` is the document's own (1, 2, ... in each game)."""

    id = id_field(required=True)
    number = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=MAX_ID))
    by = fields.String(required=True, validate=validate.OneOf(ROLES))
    claim = Text(MAX_CLAIM, required=True)
    mode = fields.String(required=True, validate=validate.OneOf(MODES))
    knocker = fields.String(required=True, allow_none=True, validate=_ROLE)
    input = fields.Dict(required=True)  # loaded with HandInSchema by api.judging
    ruling = fields.Raw(required=True)  # compared with the referee's ruling of the input
    recorded = fields.Nested(_Result, required=True)
    differences = fields.List(fields.Raw(), required=True)  # compared with how recorded and ruling differ
    status = fields.String(required=True, validate=validate.OneOf(DISPUTE_STATUSES))
    reason = Text(MAX_REASON, required=True, allow_none=True)
    opened_at = UTCDateTime(required=True)
    resolved_at = UTCDateTime(required=True, allow_none=True)

    @validates_schema
    def _resolved_after_opened(self, data: dict[str, Any], **kwargs: Any) -> None:
        _not_before(data, "resolved_at", "opened_at", "the dispute was opened")


class _TwoPlayerDispute(_Dispute):
    by = fields.String(required=True, validate=validate.OneOf(_TWO_SEATS))
    knocker = fields.String(required=True, allow_none=True, validate=validate.OneOf(_TWO_SEATS))


#: one game of a document of format 1: its hands, without their record
GAME_V1 = Shape(
    {
        "id": _ID,  # the game's id in the document; an import gives it a new one
        "played_at": read_instant,
        "players": read_list(_ID, equal=3),
        "cut": read_with(
            fields.Dict(keys=fields.String(validate=_CUT_KEY), values=CardField(), required=True, allow_none=True)
        ),
        "first_roles": member(THREE_ROLES),
        "rules": not_null(_Rules().load),
        "status": _one_of(["in_progress", "finished"]),
        "scores": read_scores,
        "winner": nullable(_ID),
        "hands": read_list(member(HAND)),
    }
)
#: one game of the document: its hands that stand, and its whole record
GAME = GAME_V1.but(revisions=read_list(member(REVISION)), disputes=read_list(not_null(_Dispute().load)))


def _two_player_preset(data: dict[str, Any]) -> None:
    if not isinstance(data["rules"], PresetRules):
        raise ValidationError("a two-player game's rules name its preset (R27)", "rules")


def _cutthroat_preset(data: dict[str, Any]) -> None:
    rules = data["rules"]
    if not isinstance(rules, PresetRules) or rules.preset is not Preset.CUTTHROAT:
        raise ValidationError("a cutthroat game's rules name its preset (R36)", "rules")


_TWO_PLAYER_HAND = HAND.but(seating=member(SEATING), knocker=_TWO_PLAYER_KNOCKER)
_TWO_PLAYER_REVISION = REVISION.but(seating=member(SEATING), knocker=_TWO_PLAYER_KNOCKER)

#: one game of a two-player preset (R27, R28) in a document of format 3: two
#: players, its dealer and non-dealer where a three-handed game has roles, and
#: its rules the preset with every option
TWO_PLAYER_GAME = GAME.but(
    _two_player_preset,
    players=read_list(_ID, equal=2),
    first_roles=member(SEATING),
    rules=not_null(PresetRulesInSchema().load),
    hands=read_list(member(_TWO_PLAYER_HAND)),
    revisions=read_list(member(_TWO_PLAYER_REVISION)),
    disputes=read_list(not_null(_TwoPlayerDispute().load)),
)

#: one cutthroat game (R36) in a document of format 3: three players, each
#: seating its dealer, non-dealer and sitter; its knockers, disputes and rules
#: as a two-player preset's (R28: the sitter neither plays nor disputes)
CUTTHROAT_GAME = TWO_PLAYER_GAME.but(
    _cutthroat_preset,
    players=read_list(_ID, equal=3),
    first_roles=member(CUTTHROAT_SEATING),
    hands=read_list(member(_TWO_PLAYER_HAND.but(seating=member(CUTTHROAT_SEATING)))),
    revisions=read_list(member(_TWO_PLAYER_REVISION.but(seating=member(CUTTHROAT_SEATING)))),
)

#: the shape of a game, by the document's ``format_version`` (3 adds the games
#: of the two-player presets, :data:`TWO_PLAYER_GAME`, and of cutthroat,
#: :data:`CUTTHROAT_GAME`; its other games are 2's)
GAME_SHAPES: dict[int, Shape] = {1: GAME_V1, 2: GAME, 3: GAME}


def game_preset(game: Any) -> str:
    """The preset a document's game (as given) names in its rules (R27):
    ``three_handed`` when it names none or its rules are not an object, and
    no name (``""``) when its preset is not a string (the schema then says
    what is wrong with them)."""
    rules = game.get("rules") if type(game) is dict else None
    preset = rules.get("preset", Preset.THREE_HANDED.value) if type(rules) is dict else Preset.THREE_HANDED.value
    return preset if type(preset) is str else ""


def is_two_player_game(game: Any) -> bool:
    """Whether a document's game (as given) is one of a preset: its rules
    name a preset other than the three-handed game (R27), cutthroat's
    three-player game (R36) included."""
    return game_preset(game) != Preset.THREE_HANDED.value


def is_cutthroat_game(game: Any) -> bool:
    """Whether a document's game (as given) names cutthroat as its preset (R36)."""
    return game_preset(game) == Preset.CUTTHROAT.value


class _Player(Schema):
    id = id_field(required=True)
    name = Name(required=True)


class _League(Schema):
    id = id_field(required=True)  # the league's id in the document; an import makes a new league
    name = Name(required=True)
    visibility = visibility_field(load_default="public")  # absent from exports made before it was


class LeagueImportSchema(Schema):
    """The document around its games, which stay as given: each is loaded
    by its shape (:data:`GAME_SHAPES`) when it is judged."""

    format = fields.String(required=True, validate=validate.Equal("ginref.league"))
    format_version = fields.Integer(strict=True, required=True, validate=validate.OneOf([1, 2, 3]))
    league = fields.Nested(_League, required=True)
    players = fields.List(fields.Nested(_Player), required=True)
    games = fields.List(fields.Raw(), required=True)


class PlayerMappingSchema(Schema):
    """An import's ``players`` query parameter, parsed: which of the
    document's players are existing players (document id -> existing id).
    Two of the document's players may not become one (R8)."""

    players = fields.Dict(
        keys=fields.String(validate=_PLAYER_KEY_CHECK),
        values=fields.Integer(
            strict=True,
            validate=validate.Range(min=1, max=MAX_ID, error="{input} is not a player id"),
            error_messages={"invalid": "{input!r} is not a player id", "null": "null is not a player id"},
        ),
        required=True,
    )

    @validates_schema
    def _one_player_each(self, data: dict[str, Any], **kwargs: Any) -> None:
        onto: dict[int, str] = {}
        for key, value in data["players"].items():
            if value in onto:
                message = (
                    f"document player {onto[value]} is mapped to player {value} already: "
                    "two players of the document cannot be one (R8)"
                )
                raise ValidationError({key: {"value": [message]}}, "players")
            onto[value] = key


class _MemberTwiceError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose members are each given once (json.loads keeps the last of twins)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _MemberTwiceError(key)
        out[key] = value
    return out


def read_player_mapping(text: str) -> dict[int, int]:
    """The ``players`` query parameter of an import: a JSON object from player
    ids of the document to ids of existing players (``'{"3": 17}'`` is
    ``{3: 17}``). Raises ``ValidationError`` with the messages under
    ``players``; whether the players exist is for the caller to check."""
    try:
        value = loads(text, object_pairs_hook=_once_each)
    except NumberOutOfRangeError as err:
        message = f"the number {err.text[:40]} is out of range"
        raise ValidationError({"players": [message] if err.path == "body" else {err.path: [message]}}) from None
    except _MemberTwiceError as err:
        raise ValidationError({"players": {err.key: ["given twice"]}}) from None
    except ValueError:
        raise ValidationError({"players": ['not JSON: a JSON object such as {"3": 17} is expected']}) from None
    loaded = PlayerMappingSchema().load({"players": value})
    return {int(key): int(existing) for key, existing in loaded["players"].items()}


def read_document(read: Callable[[], bytes]) -> Any:
    """The document's JSON text as Python values, read with ``read``; its
    games stay as their JSON text (``msgspec.Raw``, a view of the body, no
    copy), each parsed when it is judged (:class:`GameReader`), so that a
    large import never holds all of its games parsed at once. Each distinct
    short string (a card, a role, an outcome) is kept once however often it
    occurs, as a large import holds tens of thousands of hands of the same
    52 cards. Raises ``ValueError`` for text that is not JSON (as
    ``json.loads``), and :class:`~schemas.numbers.NumberOutOfRangeError` for a
    number out of range. A body that is not UTF-8 is a
    :class:`~schemas.numbers.NotUtf8Error`; one that is not an object whose
    ``games`` are an array is parsed whole, with the standard library."""
    data = read()
    check_utf8(data)  # the whole body's: a game's text is read later, on its own
    strings = _Strings()
    try:
        members = msgspec.json.decode(data, type=dict[str, msgspec.Raw])
    except (msgspec.DecodeError, msgspec.ValidationError):
        return strings.loads(_decoded(data))
    del data  # the members hold the body as long as they need it
    doc: dict[str, Any] = {}
    for key, raw in members.items():
        if key == "games":
            try:
                doc[key] = msgspec.json.decode(raw, type=list[msgspec.Raw])
                continue
            except msgspec.ValidationError:  # not an array: the schema says so
                pass
        doc[key] = strings.loads(raw, key)
    return doc


class _Strings:
    """JSON text parsed as :func:`schemas.numbers.loads` parses it, every
    short string kept once across all the text it parses."""

    def __init__(self) -> None:
        self.shared: dict[str, str] = {}

    def loads(self, text: str | bytes | msgspec.Raw, path: str = "") -> Any:
        shared = self.shared

        def share(value: str) -> str:
            return shared.setdefault(value, value) if len(value) <= _SHORT else value

        def shared_strings(obj: dict[str, Any]) -> dict[str, Any]:
            for key, value in obj.items():
                if type(value) is str:
                    obj[key] = share(value)
                elif type(value) is list:
                    for i, item in enumerate(value):
                        if type(item) is str:
                            value[i] = share(item)
                        elif type(item) is list:  # melds: lists of cards
                            item[:] = [share(x) if type(x) is str else x for x in item]
            return obj

        try:
            return loads(bytes(text) if type(text) is msgspec.Raw else text, object_hook=shared_strings)
        except NumberOutOfRangeError as err:
            if not path:
                raise
            inner = "" if err.path == "body" else err.path
            raise NumberOutOfRangeError(
                path + ("" if not inner else inner if inner.startswith("[") else f".{inner}"), err.text
            ) from None


class GameReader:
    """The games of a document read by :func:`read_document`, parsed one at a
    time, with the short strings of all of them shared."""

    def __init__(self) -> None:
        self._strings = _Strings()

    def decoded(self, game: Any) -> Any:
        """The game as Python values, as fast as they come: by msgspec, whose
        numbers are not bounded and whose strings are not shared. A game that
        does not load or judge from it is read again by :meth:`read`. None for
        what msgspec does not read (a number past a double's range):
        :meth:`read` says why."""
        if type(game) is not msgspec.Raw:
            return game
        try:
            return msgspec.json.decode(game)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None

    def read(self, game: Any, path: str) -> Any:
        """The game at ``path`` (``games[3]``) as Python values; raises as
        :func:`read_document` does, naming the number's whole path."""
        if type(game) is not msgspec.Raw:
            return game  # parsed with the whole document already
        return self._strings.loads(game, path)


def _decoded(data: bytes) -> str:
    return utf8_text(data)  # UTF-8 only, as every body (RFC 8259)
