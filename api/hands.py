from __future__ import annotations

from typing import Any, Protocol, TypeVar

from flask.views import MethodView

import services
from api.body import Blueprint
from api.docs import ETAG_HEADER, keyed_read, keyed_write
from api.errors import conflict, invalid, not_found, seating_moved
from api.games import load_game
from api.judging import PresetJudged, judge_input, judge_preset_input, verify_three_handed_input
from api.shapes import HandInGame, Page, page_of
from models import Game, Hand
from models.game import GameRow, GameView, Recorded, RecordedTwoPlayer, StaleGameError
from models.revisions import revisions_query
from models.security import KeyRow
from referee import Roles
from schemas.hands import (
    HandCorrectionSchema,
    HandInSchema,
    HandListSchema,
    HandSchema,
    ReasonArgsSchema,
    RevisionListSchema,
)
from schemas.pages import PageArgsSchema

blp = Blueprint("hands", __name__, url_prefix="/games/<id:game_id>/hands", description="The hands of a game")


def _find(game: Game, number: int) -> Hand | None:
    return next((h for h in game.hands if h.number == number), None)


def _check_seating(
    given: dict[str, int] | None, seating: Roles | None, players: list[int], *, number: int | None = None
) -> None:
    """A hand that names its players is recorded only in their seats (R11):
    those of the next hand, or (``number``) those that hand was played in."""
    if given is None or seating is None:  # none named; a finished game refuses the hand itself (R20)
        return
    if "dealer" in given:
        raise invalid("seating", "a three-handed hand names its box and captain (R8)", offending=given, rule="R8")
    for role, player in given.items():
        if player not in players:
            raise invalid(f"seating.{role}", f"player {player} does not play in this game", offending=player)
    if len(set(given.values())) < len(given):
        raise invalid("seating", "one player named in two seats", offending=given)
    now = {role: int(player) for role, player in seating.as_dict().items()}
    if any(now[role] != player for role, player in given.items()):
        raise seating_moved(given, now, number=number)


def _check_two_player_seating(
    given: dict[str, int] | None, seating: dict[str, int] | None, players: list[int], *, number: int | None = None
) -> None:
    """A two-player hand that names its dealer and non_dealer is recorded only
    in those seats (R28): the next hand's, or (``number``) those it was played
    in; a cutthroat hand's may name its sitter too (R36)."""
    if given is None or seating is None:
        return
    if "dealer" not in given:
        raise invalid("seating", "a two-player hand names its dealer and non_dealer (R28)", offending=given, rule="R28")
    if "sitter" in given and "sitter" not in seating:
        raise invalid("seating.sitter", "a two-player hand has no sitter (R28)", offending=given["sitter"], rule="R28")
    for role, player in given.items():
        if player not in players:
            raise invalid(f"seating.{role}", f"player {player} does not play in this game", offending=player)
    if len(set(given.values())) < len(given):
        raise invalid("seating", "one player named in two seats", offending=given)
    if any(int(seating[role]) != player for role, player in given.items()):
        raise seating_moved(given, {k: int(v) for k, v in seating.items()}, number=number)


J = TypeVar("J", contravariant=True)  # what a game's hands are judged as


class _Records(Protocol[J]):
    """A service that records the next hand of a game's locked row (R26):
    the game's row after it, and the hand's, or StaleGameError."""

    def __call__(self, game: GameRow, judged: J, /, *, by: int | None) -> Recorded | RecordedTwoPlayer: ...


def _created(hand: Any, game: GameView, game_id: int) -> tuple[HandInGame, int, dict[str, str]]:
    """A hand just recorded, as answered: where it is, and its game's new ETag."""
    return (
        HandInGame(hand, game),
        201,
        {"Location": f"/api/v1/games/{game_id}/hands/{hand.number}", "ETag": game.etag},
    )


def _recorded(
    record: _Records[J], judged: J, game_id: int, game: GameRow, credential: KeyRow
) -> tuple[HandInGame, int, dict[str, str]]:
    """The next hand of ``game``, as judged, recorded by ``record``."""
    try:
        recorded = record(game, judged, by=credential.id)
    except StaleGameError:  # never expected under the row lock; if it were, the 409 writes nothing
        raise conflict("the game changed while this hand was being recorded: read it again") from None
    return _created(recorded.hand, recorded.game, game_id)


def _preset_judged(data: dict[str, Any], game: GameRow) -> PresetJudged:
    """The next hand of a two-player game (R28-R33, R35), a Hollywood match
    (R34: judged as a classic hand) or a cutthroat game (R36: judged as a
    two-player hand between its dealer and non-dealer while the third sits
    out), judged under its preset in the seating the game expects."""
    _check_two_player_seating(data.pop("seating", None), game.roles, game.players)
    return judge_preset_input(data, game.preset_rules)


def _record_cutthroat_hand(
    data: dict[str, Any], game_id: int, row: GameRow, credential: KeyRow
) -> tuple[HandInGame, int, dict[str, str]]:
    """The next hand of a cutthroat game (R36), the game the fold of its log (R26)."""
    judged = _preset_judged(data, row)
    game = load_game(game_id)  # the guard holds its row locked
    return _created(services.record_cutthroat_hand(game, judged, by=credential.id), game, game_id)


@blp.route("")
class Hands(MethodView):
    @blp.response(200, HandListSchema, headers=ETAG_HEADER)
    @keyed_read(scope="game", conditional=True)
    def get(self, game_id: int) -> tuple[dict[str, Any], dict[str, str]]:
        """All hands of a game, in order; the game's ETag, for conditional reads"""
        game = load_game(game_id)  # its guard answered a matching If-None-Match
        return {"items": [HandInGame(h, game) for h in game.hands]}, {"ETag": game.etag}

    @blp.arguments(HandInSchema())
    @blp.response(201, HandSchema, headers=ETAG_HEADER)
    @keyed_write(scope="game", if_match="required")
    def post(
        self, data: dict[str, Any], game_id: int, game: GameRow, credential: KeyRow
    ) -> tuple[HandInGame, int, dict[str, str]]:
        """Record the next hand: by cards, by counts (R25) or a draw (R12)"""
        # the game: read and locked by the guard, with the key and If-Match
        if game.hollywood:  # R34: entered in the match's columns
            return _recorded(services.record_hollywood_hand, _preset_judged(data, game), game_id, game, credential)
        if game.cutthroat:
            return _record_cutthroat_hand(data, game_id, game, credential)
        if game.two_player:
            return _recorded(services.record_two_player_hand, _preset_judged(data, game), game_id, game, credential)
        verify_three_handed_input(data)
        _check_seating(data.pop("seating", None), game.next_roles, game.players)
        return _recorded(services.record_next_hand, judge_input(data, game.rule_options), game_id, game, credential)


@blp.route("/<id:number>")
class HandByNumber(MethodView):
    @blp.response(200, HandSchema)
    @keyed_read(scope="game")
    def get(self, game_id: int, number: int) -> HandInGame:
        """One hand, its ruling exactly as made"""
        game = load_game(game_id)
        hand = _find(game, number)
        if hand is None:
            raise not_found(f"hand {number} in game", game_id)
        return HandInGame(hand, game)

    @blp.arguments(HandCorrectionSchema())
    @blp.response(200, HandSchema, headers=ETAG_HEADER)
    @keyed_write(scope="game", if_match="required")
    def put(
        self, data: dict[str, Any], game_id: int, number: int, credential: KeyRow
    ) -> tuple[HandInGame, dict[str, str]]:
        """Correct a past hand (R26): re-judged with its seating; later hands stand"""
        game = load_game(game_id)
        hand = _find(game, number)
        if hand is None:
            raise conflict(f"there is no hand {number} to correct: the game has {game.hands_played} hands", rule="R26")
        reason = data.pop("reason", None)
        if game.two_player:
            played = {k: int(v) for k, v in hand.two_player_seating.as_dict().items()}
            _check_two_player_seating(data.pop("seating", None), played, game.players, number=number)
            judged: Any = judge_preset_input(data, game.preset_rules)
        else:
            verify_three_handed_input(data)
            _check_seating(data.pop("seating", None), hand.seating, game.players, number=number)
            judged = judge_input(data, game.rule_options)
        services.correct_hand(game, hand, judged, by=credential.id, reason=reason)
        return HandInGame(hand, game), {"ETag": game.etag}

    @blp.arguments(ReasonArgsSchema, location="query")
    @blp.response(204, headers=ETAG_HEADER)
    @keyed_write(scope="game", if_match="required")
    def delete(self, args: dict[str, Any], game_id: int, number: int, credential: KeyRow) -> tuple[str, dict[str, str]]:
        """Undo the last hand (it stays in its revisions, as undone)"""
        game = load_game(game_id)
        if _find(game, number) is None:
            raise not_found(f"hand {number} in game", game_id)
        if number != game.hands_played:
            raise conflict(f"only the last hand ({game.hands_played}) can be undone")
        services.undo_last_hand(game, by=credential.id, reason=args.get("reason"))
        return "", {"ETag": game.etag}


@blp.route("/<id:number>/revisions", methods=["GET"])
@blp.arguments(PageArgsSchema(), location="query")
@blp.response(200, RevisionListSchema)
@keyed_read(scope="game")
def get_revisions(args: dict[str, Any], game_id: int, number: int) -> Page:
    """Every version of a hand, oldest first: recorded, each correction, an undo"""
    revisions = page_of(revisions_query(game_id, number), args)
    if not revisions.total:
        raise not_found(f"hand {number} in game", game_id)
    return revisions
