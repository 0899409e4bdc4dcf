"""The change feed of a game (GET /games/{game_id}/events)."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields, validate

from schemas.fields import EVENT_KINDS, UTCDateTime

MAX_WAIT = 25.0  # seconds: below the usual 30 s idle timeouts of proxies and phones' networks
MAX_EVENTS = 200


def _wait(description: str) -> fields.Float:
    return fields.Float(
        load_default=0.0,
        validate=validate.Range(min=0, max=MAX_WAIT),
        allow_nan=False,
        metadata={"description": f"Seconds (at most {MAX_WAIT:g}) {description}"},
    )


def _limit(description: str) -> fields.Integer:
    return fields.Integer(
        load_default=MAX_EVENTS, validate=validate.Range(min=1, max=MAX_EVENTS), metadata={"description": description}
    )


class EventArgsSchema(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=2147483647),
        metadata={
            "description": "The version the client has (the game's `version`, or the ETag's number): "
            "the changes after it are listed"
        },
    )
    wait = _wait(
        "to wait for a change when there is none yet: the answer comes as soon as there is one, "
        "or empty at the end of the wait"
    )
    limit = _limit("The most changes in one answer; ask again `after` the last one for more")


class EventSchema(Schema):
    version = fields.Integer(required=True, metadata={"description": "The game's version this change made"})
    kind = fields.String(required=True, metadata={"enum": list(EVENT_KINDS)})
    hand = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The hand recorded, corrected or undone"}
    )
    at = UTCDateTime(required=True)


class EventListSchema(Schema):
    items = fields.List(fields.Nested(EventSchema), required=True)
    version = fields.Integer(
        required=True,
        metadata={"description": "The game's version now: pass it (or the last item's) as `after` next time"},
    )


class EventStreamArgsSchema(EventArgsSchema):
    wait = _wait(
        "the stream stays open: every change in that time is sent as it comes, then the stream ends "
        "(0: the changes there are now, and the end)"
    )
    limit = _limit("The most changes read at once; the stream goes on past them")


class EventStreamHeadersSchema(Schema):
    class Meta:
        unknown = EXCLUDE  # a request's other headers

    last_event_id = fields.Integer(
        data_key="Last-Event-ID",
        validate=validate.Range(min=0, max=2147483647),
        metadata={
            "description": "The last event's `id` the client has (EventSource sends it when it reconnects): "
            "it replaces `after`"
        },
    )
