"""The common shape of an export's games, loaded without marshmallow's
per-field machinery.

An export is written by this server, so nearly every game of an import has
one shape: every member present, ints where ints are, cards spelt out, no
member unknown. :func:`load_game` loads such a game to exactly what
:class:`~schemas.transfer.GameImportSchema` would load it to (a property
test holds the two equal, on valid and on broken games alike) and gives up,
returning None, on anything else: the schema then loads the game, and its
errors are the ones an importer sees. Dates are read as ``UTCDateTime``
reads them (``datetime.fromisoformat``, UTC when no offset is named), and
seatings and scores by the one-pass checks their fields make; where a
member is rare or its checks are more than a type and a range (rule
options, a cut, disputes, free text), the schema's own field loads it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from marshmallow import ValidationError, utils

from schemas.fields import KNOCKERS, MAX_ID, MODES, REVISION_ACTIONS
from schemas.hands import read_hand
from schemas.transfer import GAME_SCHEMAS, GameImportSchemaV1, _Hand, _Revision, roles_at_once, scores_at_once

_GAME_V1 = GAME_SCHEMAS[1]()
_GAME_V2 = GAME_SCHEMAS[2]()
_HAND_FIELDS = _Hand().fields
_REVISION_FIELDS = _Revision().fields
_GAME_KEYS = {1: frozenset(_GAME_V1.fields), 2: frozenset(_GAME_V2.fields)}
_HAND_KEYS = frozenset(_HAND_FIELDS)
_REVISION_KEYS = frozenset(_REVISION_FIELDS)
_STATUSES = frozenset(["in_progress", "finished"])
_MODES = frozenset(MODES)
_ACTIONS = frozenset(REVISION_ACTIONS)
_KNOCKERS = frozenset(KNOCKERS)


class _UnusualError(Exception):
    """Not the common shape: the schema loads it."""


def _id(value: Any) -> int:
    if type(value) is int and 0 < value <= MAX_ID:
        return value
    raise _UnusualError


def _one_of(value: Any, options: frozenset[str]) -> str:
    if type(value) is str and value in options:
        return value
    raise _UnusualError


def _given(value: Any) -> Any:  # a required member that is not null (a ruling)
    if value is None:
        raise _UnusualError
    return value


def _field(schema_fields: dict[str, Any], name: str, value: Any) -> Any:
    """The schema's own field ``name`` loading ``value``."""
    try:
        return schema_fields[name].deserialize(value)
    except ValidationError:
        raise _UnusualError from None


def _when(value: Any) -> datetime:
    """A date-time as ``UTCDateTime`` loads it: ISO 8601 as ``fromisoformat``
    reads it, UTC when it names no offset, in UTC."""
    if type(value) is not str:
        raise _UnusualError
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise _UnusualError from None
    if not utils.is_aware(when):
        when = when.replace(tzinfo=UTC)
    try:
        return when.astimezone(UTC)
    except OverflowError:
        raise _UnusualError from None


def _roles(value: Any) -> dict[str, int]:
    roles = roles_at_once(value)
    if roles is None:
        raise _UnusualError
    return roles


def _scores(value: Any) -> dict[str, int]:
    scores = scores_at_once(value)
    if scores is None:
        raise _UnusualError
    return scores


def load_input(value: Any) -> dict[str, Any]:
    """A hand's input as ``HandInSchema`` loads it (``read_hand``); raises
    :class:`_UnusualError` when it is wrong (the schema then names what is)."""
    try:
        return read_hand(value)
    except ValidationError:
        raise _UnusualError from None


def _knocker(value: Any) -> str | None:
    return None if value is None else _one_of(value, _KNOCKERS)


def _hand(value: Any) -> dict[str, Any]:
    if type(value) is not dict or value.keys() != _HAND_KEYS:
        raise _UnusualError
    mode = _one_of(value["mode"], _MODES)
    recorded = _when(value["recorded_at"])
    corrected = value["corrected_at"]
    if corrected is not None:
        corrected = _when(corrected)
        if corrected < recorded:
            raise _UnusualError
    return {
        "number": _id(value["number"]),
        "mode": mode,
        "seating": _roles(value["seating"]),
        "knocker": _knocker(value["knocker"]),
        "input": load_input(value["input"]),
        "ruling": _given(value["ruling"]),
        "recorded_at": recorded,
        "corrected_at": corrected,
    }


def _revision(value: Any) -> dict[str, Any]:
    if type(value) is not dict or value.keys() != _REVISION_KEYS:
        raise _UnusualError
    mode, action, given_input = _one_of(value["mode"], _MODES), _one_of(value["action"], _ACTIONS), value["input"]
    if type(given_input) is not dict:
        raise _UnusualError
    reason, dispute = value["reason"], value["dispute"]
    return {
        "number": _id(value["number"]),
        "revision": _id(value["revision"]),
        "action": action,
        "mode": mode,
        "seating": _roles(value["seating"]),
        "knocker": _knocker(value["knocker"]),
        "input": dict(given_input),
        "ruling": _given(value["ruling"]),
        "scores": _scores(value["scores"]),
        "game_scores": _scores(value["game_scores"]),
        "made_at": _when(value["made_at"]),
        "reason": None if reason is None else _field(_REVISION_FIELDS, "reason", reason),
        "dispute": None if dispute is None else _id(dispute),
    }


def load_game(value: Any, version: int) -> dict[str, Any] | None:
    """The game as ``GAME_SCHEMAS[version]`` loads it, or None if it is not
    of the common shape (the schema then loads it, or says what is wrong)."""
    if version == 3:  # a three-handed game of format 3 is one of format 2
        version = 2
    schema: GameImportSchemaV1 = _GAME_V2 if version == 2 else _GAME_V1
    if type(value) is not dict or value.keys() != _GAME_KEYS[version]:
        return None
    fields = schema.fields
    try:
        players, hands, status, winner, cut = (
            value["players"],
            value["hands"],
            value["status"],
            value["winner"],
            value["cut"],
        )
        if type(players) is not list or len(players) != 3 or type(hands) is not list:
            return None
        game = {
            "id": _id(value["id"]),
            "played_at": _when(value["played_at"]),
            "players": [_id(p) for p in players],
            "cut": None if cut is None else _field(fields, "cut", cut),
            "first_roles": _roles(value["first_roles"]),
            "rules": _field(fields, "rules", value["rules"]),
            "status": _one_of(status, _STATUSES),
            "scores": _scores(value["scores"]),
            "winner": None if winner is None else _id(winner),
            "hands": [_hand(h) for h in hands],
        }
        if version == 2:
            revisions, disputes = value["revisions"], value["disputes"]
            if type(revisions) is not list:
                return None
            game["revisions"] = [_revision(r) for r in revisions]
            game["disputes"] = _field(fields, "disputes", disputes)
    except _UnusualError:
        return None
    return game
