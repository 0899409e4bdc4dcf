"""A hand as recorded: by cards, by counts (R25) or as a draw (R12)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from marshmallow import Schema, ValidationError, fields, validate

from schemas.fields import (
    KNOCKERS,
    MODES,
    REVISION_ACTIONS,
    SEATS,
    STATUSES,
    BuiltSchema,
    CardField,
    ParsedSchema,
    Text,
    dump_bool,
    dump_datetime,
    dump_int,
    dump_text,
    id_field,
)
from schemas.pages import PageSchema
from schemas.readers import (
    MISSING,
    NULL,
    nullable,
    read_boolean,
    read_card,
    read_cards,
    read_integer,
    read_integer_in,
    read_list,
    read_nested,
    read_object,
    read_string,
    read_with,
)
from schemas.rulings import Dumped, RulingSchema, served_ruling

_DECLARED = "absent or null: undeclared (the referee arranges it, R24); []: declared empty (R22)"

# What the spec states of cards, beyond what the fields check (the checks stay
# where they are: a hand of 9 cards is still a 422 citing R21). A card is a
# string that referee.cards.parse_card reads (R3), white space being what
# str.strip() takes off. A hand holds 10 different cards (R21), a meld 3 of
# them or more (R4, R5) and 10 cards make at most 3 melds (R6), so a layoff
# names meld 0, 1 or 2 (R23).
WHITE_SPACE = r"[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
CARD_PATTERN = rf"^{WHITE_SPACE}*(?:[Aa1-9TtJjQqKk]|10)[SsHhDdCc\u2660-\u2667][\ufe0e\ufe0f]?{WHITE_SPACE}*$"
CARD_SPEC = {"type": "string", "pattern": CARD_PATTERN}
MAX_MELDS = 3

# The examples make a hand the referee rules on: R24's example, the box knocking
# with three sets and KC (10), the defender keeping two runs and laying nothing off.
KNOCK_10 = {
    "knocker": ("4H 5H 6H 4S 5S 6S 4D 5D 6D KC", "4S 4H 4D | 5S 5H 5D | 6S 6H 6D"),
    "defender": ("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S", "AH 2H 3H | 7H 8H 9H"),
}


def card_field(*, metadata: dict[str, Any] | None = None, **kwargs: Any) -> CardField:
    """A CardField; without CardField's example (10H) unless ``metadata`` gives one:
    to fill a list of cards, Swagger UI and schemathesis repeat an item's example,
    and ten 10Hs are no hand. The lists carry examples of their own."""
    field = CardField(metadata={**CARD_SPEC, **(metadata or {})}, **kwargs)
    if "example" not in (metadata or {}):
        del cast(dict[str, Any], field.metadata)["example"]
    return field


def hand_cards(least: int, most: int, description: str, example: str, **kwargs: Any) -> fields.List:
    """``least`` to ``most`` cards, all different: the referee checks both (R21)."""
    metadata = {
        "description": description,
        "minItems": least,
        "maxItems": most,
        "uniqueItems": True,
        "example": example.split(),
    }
    return fields.List(card_field(), validate=validate.Length(max=52), metadata=metadata, **kwargs)


def declared_melds(example: str, *, metadata: dict[str, Any] | None = None) -> fields.List:
    """Melds as declared; ``example`` separates them with ``|``."""
    meld = fields.List(
        card_field(), validate=validate.Length(max=13), metadata={"minItems": 3, "maxItems": 10, "uniqueItems": True}
    )
    return fields.List(
        meld,
        validate=validate.Length(max=10),
        allow_none=True,
        load_default=None,
        metadata={"maxItems": MAX_MELDS, "example": [m.split() for m in example.split("|")], **(metadata or {})},
    )


class LayoffInSchema(Schema):
    card = card_field(required=True)
    meld = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=0, max=51),
        metadata={"description": "Index into knocker_hand.melds as declared (R23)", "maximum": MAX_MELDS - 1},
    )


class KnockerHandSchema(BuiltSchema, ParsedSchema):
    """The knocker's hand by cards: loaded from any spelling of R3 by
    :func:`read_knocker_hand`, built canonical by :func:`knocker_hand_dict`."""

    cards = hand_cards(
        10,
        11,
        "The knocker's 10 cards after his discard (R21); 11 and no discard for a big gin (R32)",
        KNOCK_10["knocker"][0],
        required=True,
    )
    melds = declared_melds(KNOCK_10["knocker"][1], metadata={"description": "Declared melds, " + _DECLARED})
    discard = card_field(
        allow_none=True,
        load_default=None,
        metadata={"description": "The discard; kept with the hand, no effect on the ruling", "example": "QS"},
    )

    def build(self, hand: dict[str, Any]) -> dict[str, Any]:
        return knocker_hand_dict(hand)

    def parse(self, data: Any) -> dict[str, Any]:
        return read_knocker_hand(data)


class DefenderHandSchema(BuiltSchema, ParsedSchema):
    """The defender's hand by cards: loaded from any spelling of R3 by
    :func:`read_defender_hand`, built canonical by :func:`defender_hand_dict`."""

    cards = hand_cards(10, 10, "The defender's 10 cards (R21)", KNOCK_10["defender"][0], required=True)
    melds = declared_melds(KNOCK_10["defender"][1], metadata={"description": "Declared melds, " + _DECLARED})
    layoffs = fields.List(
        fields.Nested(LayoffInSchema),
        validate=validate.Length(max=10),
        allow_none=True,
        load_default=None,
        metadata={"description": "Declared layoffs in the order played, " + _DECLARED, "example": []},
    )

    def build(self, hand: dict[str, Any]) -> dict[str, Any]:
        return defender_hand_dict(hand)

    def parse(self, data: Any) -> dict[str, Any]:
        return read_defender_hand(data)


def knocker_hand_dict(hand: dict[str, Any]) -> dict[str, Any]:
    """A loaded knocker's hand as kept in a hand's input and served:
    canonical cards (R3), the members it was given."""
    out = _cards_and_melds_dict(hand)
    if "discard" in hand:
        out["discard"] = None if hand["discard"] is None else str(hand["discard"])
    return out


def defender_hand_dict(hand: dict[str, Any]) -> dict[str, Any]:
    """A loaded defender's hand as kept in a hand's input and served."""
    out = _cards_and_melds_dict(hand)
    if "layoffs" in hand:
        layoffs = hand["layoffs"]
        out["layoffs"] = None if layoffs is None else [{"card": str(lo["card"]), "meld": lo["meld"]} for lo in layoffs]
    return out


def _cards_and_melds_dict(hand: dict[str, Any]) -> dict[str, Any]:
    """The cards and the melds a loaded hand gives (of either side), canonical (R3)."""
    out: dict[str, Any] = {}
    if "cards" in hand:
        out["cards"] = [str(c) for c in hand["cards"]]
    if "melds" in hand:
        out["melds"] = _melds_dict(hand["melds"])
    return out


def _melds_dict(melds: list[list[Any]] | None) -> list[list[str]] | None:
    return None if melds is None else [[str(c) for c in meld] for meld in melds]


_CARDS_FIELDS = ("knocker_hand", "defender_hand")
_COUNT_FIELDS = ("knocker_deadwood_count", "defender_deadwood_count")


# the three forms of a hand: (title, required members, how many members at most)
# (each may add the ``seating`` it was played in)
_FORMS: list[dict[str, Any]] = [
    {"title": "By cards", "required": ["knocker", *_CARDS_FIELDS], "maxProperties": 5},
    {"title": "By counts (R25)", "required": ["knocker", *_COUNT_FIELDS], "maxProperties": 6},
    {"title": "A draw (R12)", "required": ["outcome"], "maxProperties": 2},
]


_KNOCKER_ROLE = validate.OneOf(KNOCKERS)


def knocker_seat(value: str) -> None:
    """box or captain (R8), as before presets; or a two-player seat (R28),
    which the hand's game checks it plays by."""
    if value not in SEATS:
        _KNOCKER_ROLE(value)


class HandSeatingInSchema(Schema):
    """Who played the hand: the player in the box and the captain (R7), and
    the sitter if the client knows him."""

    box = id_field(required=True, metadata={"example": 2})
    captain = id_field(required=True, metadata={"example": 3})
    sitter = id_field(metadata={"example": 1})


class TwoPlayerSeatingInSchema(Schema):
    """Who played a two-player hand: its dealer and non-dealer (R28); in
    cutthroat, the sitter too if the client knows him (R36)."""

    dealer = id_field(required=True, metadata={"example": 1})
    non_dealer = id_field(required=True, metadata={"example": 2})
    sitter = id_field(metadata={"example": 3, "description": "Cutthroat only (R36)"})


_SEATING = HandSeatingInSchema()
_TWO_PLAYER_SEATING = TwoPlayerSeatingInSchema()


def _read_seating(value: Any) -> dict[str, Any]:
    """The seating a hand names: box and captain (R8, and the sitter), or a
    two-player hand's dealer and non_dealer (R28)."""
    if value is None:
        raise ValidationError(NULL)
    two = isinstance(value, dict) and ("dealer" in value or "non_dealer" in value)
    loaded: dict[str, Any] = (_TWO_PLAYER_SEATING if two else _SEATING).load(value)
    return loaded


_SEATING_SPEC = {
    "oneOf": [
        {
            "type": "object",
            "title": "Three-handed (R8)",
            "required": ["box", "captain"],
            "properties": {name: {"type": "integer", "minimum": 1} for name in ("box", "captain", "sitter")},
            "additionalProperties": False,
        },
        {
            "type": "object",
            "title": "Two players (R28), or cutthroat's three (R36)",
            "required": ["dealer", "non_dealer"],
            "properties": {name: {"type": "integer", "minimum": 1} for name in ("dealer", "non_dealer", "sitter")},
            "additionalProperties": False,
        },
    ]
}


_KNOCKER_ERROR = f"Must be one of: {', '.join(KNOCKERS)}."  # what knocker_seat says of any other string

#: a layoff's members (R23)
_LAYOFF = {"card": read_card, "meld": read_integer_in(0, 51)}


#: declared melds (R22): null, or at most 10 lists of at most 13 cards (the referee checks the rest)
read_melds = nullable(read_list(read_cards(13), 10))
_KNOCKER_HAND = {"cards": read_cards(52), "melds": read_melds, "discard": nullable(read_card)}
_DEFENDER_HAND = {
    "cards": read_cards(52),
    "melds": read_melds,
    "layoffs": nullable(read_list(read_nested(_LAYOFF, ("card", "meld")), 10)),
}
CARDS = ("cards",)
UNDECLARED = {"melds": None, "discard": None, "layoffs": None}


#: the knocker's hand by cards (R21), as :class:`KnockerHandSchema` describes it
read_knocker_hand = read_nested(_KNOCKER_HAND, CARDS, UNDECLARED)
#: the defender's hand by cards (R21, R23), as :class:`DefenderHandSchema` describes it
read_defender_hand = read_nested(_DEFENDER_HAND, CARDS, UNDECLARED)


#: a hand's members, in the order their errors are named
_HAND = {
    "knocker": read_string(frozenset([*KNOCKERS, *SEATS]), _KNOCKER_ERROR),
    "knocker_hand": read_knocker_hand,
    "defender_hand": read_defender_hand,
    "upcard": read_card,
    "big_gin": read_boolean,
    "knocker_deadwood_count": read_integer,
    "defender_deadwood_count": read_integer,
    "outcome": read_string(("draw",), "Must be one of: draw."),
    "seating": _read_seating,
}


def _one_mode(data: dict[str, Any]) -> None:
    """One of the three forms (R21, R25, R12), whole."""
    errors: dict[str, list[str]] = {}
    if "outcome" in data:
        for name in ("knocker", *_CARDS_FIELDS, *_COUNT_FIELDS, "upcard", "big_gin"):
            if name in data:
                errors[name] = ["a draw has no knocker, hands or counts (R12)"]
    else:
        if "knocker" not in data:
            errors["knocker"] = [MISSING]
        counts = any(n in data for n in _COUNT_FIELDS)
        cards = any(n in data for n in _CARDS_FIELDS)
        if counts and cards:
            for name in _COUNT_FIELDS:
                if name in data:
                    errors[name] = ["give the hands' cards or the counts, not both"]
        wanted = _COUNT_FIELDS if counts else _CARDS_FIELDS
        for name in wanted:
            if name not in data:
                errors.setdefault(name, [MISSING])
    if errors:
        raise ValidationError(errors)


def read_hand(value: Any, readers: dict[str, Any] = _HAND) -> dict[str, Any]:
    """A hand's body as :class:`HandInSchema` describes it: its members read,
    then its form checked whole."""
    data = read_object(value, readers)
    _one_mode(data)
    return data


class HandInSchema(ParsedSchema):
    """One of: cards (`knocker`, `knocker_hand`, `defender_hand`); counts
    (`knocker`, `knocker_deadwood_count`, `defender_deadwood_count`, R25); or
    `{"outcome": "draw"}` (R12). Any of them may name the `seating` it was
    played in: the hand is refused (409) when the game's has moved on."""

    class Meta:  # keywords of the whole body, as for GameInSchema
        json_schema = {"oneOf": _FORMS}

    knocker = fields.String(
        validate=knocker_seat,
        metadata={
            "description": "Who knocked: box or captain; dealer or non_dealer under a two-player preset (R28)",
            "enum": [*KNOCKERS, *SEATS],
            "example": "box",
        },
    )
    knocker_hand = fields.Nested(KnockerHandSchema)
    defender_hand = fields.Nested(DefenderHandSchema)
    upcard = card_field(
        metadata={"description": "R33: an oklahoma hand's up-card (by cards or by counts); no other game takes one"}
    )
    big_gin = fields.Boolean(
        metadata={
            "description": "R32: by counts, a knocker who melded all 11 cards (his count is 0); by cards, "
            "give his 11 cards and no discard"
        }
    )
    knocker_deadwood_count = fields.Integer(
        strict=True,
        metadata={
            "description": "R25: 0 to the knock limit (0 is gin; the limit is 10 at most)",
            "minimum": 0,
            "maximum": 10,
        },
    )
    defender_deadwood_count = fields.Integer(
        strict=True, metadata={"description": "R25: after layoffs, 0 to 100", "minimum": 0, "maximum": 100}
    )
    outcome = fields.String(validate=validate.OneOf(["draw"]), metadata={"description": "draw (R12)"})
    seating = fields.Raw(
        metadata={
            **_SEATING_SPEC,
            "description": "The players the hand was played by (R11; dealer and non_dealer, R28): when the "
            "game's seating has moved on "
            "(or, for a correction, the hand was played by others), a 409 naming who sits where, and nothing recorded",
        },
    )

    def parse(self, data: Any) -> dict[str, Any]:
        return read_hand(data)


MAX_REASON = 500


class HandCorrectionSchema(HandInSchema):
    """The hand as it should have been (R26), in any of its three forms, and
    optionally why (kept with the hand's revisions)."""

    class Meta:
        json_schema = {"oneOf": [{**form, "maxProperties": form["maxProperties"] + 1} for form in _FORMS]}

    reason = Text(MAX_REASON, metadata={"description": "Why the hand is corrected (kept in its revisions)"})

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._readers = {**_HAND, "reason": read_with(self.fields["reason"])}

    def parse(self, data: Any) -> dict[str, Any]:
        return read_hand(data, self._readers)


class ReasonArgsSchema(Schema):
    reason = Text(MAX_REASON, metadata={"description": "Why the hand is undone (kept in its revisions)"})


class SeatingSchema(Schema):
    box = fields.Integer(required=True)
    captain = fields.Integer(required=True)
    sitter = fields.Integer(required=True)


def _seats_spec(title: str, names: tuple[str, ...]) -> dict[str, Any]:
    """One way of seating as the spec describes it: exactly those ``names``
    (closed, so that a cutthroat seating matches its own branch alone)."""
    return {
        "type": "object",
        "title": title,
        "required": list(names),
        "properties": {name: {"type": "integer"} for name in names},
        "additionalProperties": False,
    }


_SEATS_SPEC = {
    "oneOf": [
        _seats_spec("Three-handed (R8)", ("box", "captain", "sitter")),
        _seats_spec("Two players (R28)", ("dealer", "non_dealer")),
        _seats_spec("Cutthroat (R36)", ("dealer", "non_dealer", "sitter")),
    ]
}


class SeatsOut(fields.Field):
    """Who sits where: box, captain and sitter (R8), dealer and non_dealer (R28), or those and the sitter (R36)."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {**_SEATS_SPEC, **kwargs.pop("metadata", {})}
        super().__init__(metadata=metadata, **kwargs)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return seats_dict(value)


def seats_dict(seats: Any) -> dict[str, int | None] | None:
    """Roles (R8), a two-player seating (R28) or a cutthroat one (R36), as a mapping or a value type."""
    if seats is None:
        return None
    if isinstance(seats, Mapping):
        if "dealer" in seats:
            return {name: dump_int(seats[name]) for name in _SEAT_NAMES if name in seats}
        return seating_dict(seats)
    if hasattr(seats, "dealer"):
        return {name: dump_int(getattr(seats, name)) for name in _SEAT_NAMES if hasattr(seats, name)}
    return seating_dict(seats)


_SEAT_NAMES = ("dealer", "non_dealer", "sitter")


def _scores_field(description: str, **kwargs: Any) -> fields.Dict:
    """Each player's score, by the player's id."""
    return fields.Dict(
        keys=fields.String(), values=fields.Integer(), required=True, metadata={"description": description}, **kwargs
    )


class HandSchema(BuiltSchema):
    """A hand in its game, built by :func:`hand_dict`: a Hollywood match's
    hand shows the columns it was entered in (R34), no other does."""

    number = fields.Integer(required=True)
    mode = fields.String(required=True, metadata={"enum": list(MODES)})
    knocker = fields.String(required=True, allow_none=True, metadata={"enum": [*KNOCKERS, *SEATS, None]})
    seating = SeatsOut(
        required=True, metadata={"description": "The players in each role as the hand was played (R26, R28)"}
    )
    seating_follows = fields.Boolean(
        required=True,
        metadata={
            "description": "False when a correction of an earlier hand means this seating no longer "
            "follows by R11 (the hand stands as played, R26)"
        },
    )
    ruling = fields.Nested(RulingSchema, required=True)
    input = fields.Dict(required=True, metadata={"description": "The hand as recorded, canonical cards"})
    discard = fields.String(required=True, allow_none=True)
    scores = _scores_field("Running scores after this hand (a Hollywood match's: summed over its columns)")
    columns = fields.List(
        fields.Integer(),
        metadata={"description": "R34: the columns this hand was entered in (a Hollywood match's hands only)"},
    )
    roles = SeatsOut(
        required=True,
        allow_none=True,
        metadata={"description": "The game's roles for its next hand; null once the game is won"},
    )
    status = fields.String(required=True, metadata={"enum": list(STATUSES), "description": "The game's status now"})
    winner = fields.Integer(required=True, allow_none=True, metadata={"description": "The game's winner"})
    recorded_at = fields.DateTime(required=True)
    corrected_at = fields.DateTime(required=True, allow_none=True)

    def build(self, shown: Any) -> dict[str, Any]:
        return hand_dict(shown)


def hand_dict(shown: Any) -> dict[str, Any]:
    """A hand's JSON, as :class:`HandSchema` describes it, its stored ruling
    explained. ``shown``: an ``api.shapes.HandInGame``, whose hand and game
    are read directly (through it, each of a hand's attributes was looked up
    twice, failing first)."""
    hand, game = shown.hand, shown.game
    scores, given = hand.scores_after, hand.input
    columns = getattr(hand, "columns", None)  # R34: a Hollywood match's hand only
    shown = {
        "number": dump_int(hand.number),
        "mode": dump_text(hand.mode),
        "knocker": dump_text(hand.knocker),
        "seating": seats_dict(hand.seats) if game.two_player else seating_dict(hand.seating),
        "seating_follows": dump_bool(hand.seating_follows),
        "ruling": served_ruling(hand.ruling, lambda: game.rule_options),
        "input": None if given is None else dict(given),
        "discard": dump_text(shown.discard),
        "scores": None if scores is None else {dump_text(k): dump_int(v) for k, v in scores.items()},
        "columns": columns,
        "roles": seats_dict(game.roles) if game.two_player else seating_dict(game.roles),
        "status": dump_text(game.status),
        "winner": dump_int(game.winner),
        "recorded_at": dump_datetime(hand.recorded_at),
        "corrected_at": dump_datetime(hand.corrected_at),
    }
    if columns is None:
        del shown["columns"]
    return shown


def seating_dict(roles: Any) -> dict[str, int | None] | None:
    """``Nested(SeatingSchema)``'s dump, of a mapping or of ``Roles``."""
    if roles is None:
        return None
    if isinstance(roles, Mapping):
        return {name: dump_int(roles[name]) for name in _ROLE_NAMES if name in roles}
    return {name: dump_int(getattr(roles, name)) for name in _ROLE_NAMES if hasattr(roles, name)}


_ROLE_NAMES = ("box", "captain", "sitter")


class HandListSchema(Schema):
    items = fields.List(fields.Nested(HandSchema), required=True)


class RevisionSchema(Schema):
    """One version of a hand, as it stood when it was made."""

    revision = fields.Integer(required=True, metadata={"description": "1, 2, ... under this hand number"})
    action = fields.String(required=True, metadata={"enum": list(REVISION_ACTIONS)})
    mode = fields.String(required=True, metadata={"enum": list(MODES)})
    knocker = fields.String(required=True, allow_none=True, metadata={"enum": [*KNOCKERS, *SEATS, None]})
    seating = SeatsOut(required=True, attribute="seats")
    input = fields.Dict(required=True, metadata={"description": "The hand as entered, canonical cards"})
    ruling = Dumped(RulingSchema, required=True, rules=lambda revision: revision.game.rule_options)
    scores = _scores_field("Running scores after this hand, as they stood in this version", attribute="scores_after")
    game_scores = _scores_field("The game's scores just after this version was made")
    made_at = fields.DateTime(required=True)
    key_id = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The id of the key that made it (never the key); null when imported"},
    )
    reason = fields.String(required=True, allow_none=True)
    dispute_id = fields.Integer(
        required=True, allow_none=True, metadata={"description": "The dispute whose upholding made it"}
    )


class RevisionListSchema(PageSchema):
    items = fields.List(fields.Nested(RevisionSchema), required=True)
