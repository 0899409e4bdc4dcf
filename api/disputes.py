"""Disputes of recorded hands: opened with the cards as the disputing side
gives them, ruled on by the referee, resolved by the table."""

from __future__ import annotations

from typing import Any

import services
from api.body import Blueprint
from api.docs import ETAG_HEADER, keyed_read, keyed_write
from api.errors import conflict, invalid, not_found, stale_dispute
from api.games import load_game
from api.judging import Judged, PresetJudged, judge_cards, judge_preset_input
from api.shapes import Page, page_of
from models import Dispute, Game, Hand, db
from models.disputes import disputes_query
from models.revisions import latest_revision
from models.security import KeyRow
from schemas.disputes import DisputeArgsSchema, DisputeInSchema, DisputeListSchema, DisputeSchema, ResolutionInSchema
from schemas.hands import HandInSchema

blp = Blueprint("disputes", __name__, url_prefix="/games/<id:game_id>", description="Disputes of recorded hands")

_HAND_INPUT = HandInSchema()


def _standing(game: Game, number: int) -> Hand | None:
    return next((h for h in game.hands if h.number == number), None)


def _knocker(data: dict[str, Any], hand: Hand) -> str:
    """Who knocked in the dispute's cards: as given, else as the hand was recorded."""
    knocker: str | None = data.get("knocker", hand.knocker)
    if knocker is None:
        raise invalid("knocker", "this hand was a draw (R12): say who knocked", offending=None)
    return knocker


def _own_cards(hand: Hand) -> dict[str, Any]:
    """The hand's own cards, as recorded, to be ruled on again; a hand recorded
    by counts or as a draw has none."""
    if hand.mode != "cards":
        raise invalid(
            "knocker_hand",
            f"this hand was recorded {'by counts (R25)' if hand.mode == 'counts' else 'as a draw (R12)'}: "
            "give both hands' cards to dispute it",
            offending=None,
        )
    loaded: dict[str, Any] = _HAND_INPUT.load(hand.input)
    return loaded


def _judged(data: dict[str, Any], hand: Hand, game: Game) -> Judged | PresetJudged:
    """The referee's ruling on the dispute's cards, or on the hand's own."""
    if game.two_player:
        return _preset_judged(data, hand, game)
    if data["by"] not in ("box", "captain", "sitter") or data.get("knocker", "box") not in ("box", "captain"):
        raise invalid(
            "by",
            "a three-handed hand is disputed by the box, the captain or the sitter (R8)",
            offending=data["by"],
            rule="R8",
        )
    if "upcard" in data:
        raise invalid("upcard", "a three-handed game takes no upcard (R27)", offending=str(data["upcard"]), rule="R27")
    if "knocker_hand" in data:
        return judge_cards({**data, "knocker": _knocker(data, hand)}, game.rule_options)
    return judge_cards(_own_cards(hand), game.rule_options)


def _preset_judged(data: dict[str, Any], hand: Hand, game: Game) -> PresetJudged:
    """A two-player hand's dispute (R28): the dispute's cards (and up-card,
    R33) ruled on under the game's preset, or the hand's own again."""
    if data["by"] not in ("dealer", "non_dealer"):
        raise invalid(
            "by",
            "a two-player hand is disputed by the dealer or the non_dealer (R28)",
            offending=data["by"],
            rule="R28",
        )
    if "knocker_hand" in data:
        knocker = _knocker(data, hand)
        own = hand.input
        given = {k: data[k] for k in ("knocker_hand", "defender_hand")}
        upcard = data.get("upcard", None if "upcard" not in own else _HAND_INPUT.load(own)["upcard"])
        if upcard is not None:
            given["upcard"] = upcard
        return judge_preset_input({**given, "knocker": knocker}, game.preset_rules)
    loaded = _own_cards(hand)
    if "upcard" in data:
        loaded["upcard"] = data["upcard"]
    return judge_preset_input(loaded, game.preset_rules)


def _dispute(game_id: int, number: int, dispute_id: int) -> Dispute:
    dispute = db.session.get(Dispute, dispute_id)
    if dispute is None or dispute.game_id != game_id or dispute.number != number:
        raise not_found(f"dispute of hand {number} in game {game_id}", dispute_id)
    return dispute


@blp.route("/hands/<id:number>/disputes", methods=["POST"])
@blp.arguments(DisputeInSchema())
@blp.response(201, DisputeSchema, headers=ETAG_HEADER)
@keyed_write(scope="game", if_match="optional")
def open_dispute(
    data: dict[str, Any], game_id: int, number: int, credential: KeyRow
) -> tuple[Dispute, int, dict[str, str]]:
    """Dispute a recorded hand: the referee rules on the cards given (or the hand's own) beside the recorded ruling"""
    game = load_game(game_id)
    hand = _standing(game, number)
    if hand is None:
        raise not_found(f"hand {number} in game", game_id)
    dispute = services.open_dispute(
        game, hand, data["by"], data["claim"], _judged(data, hand, game), key_id=credential.id
    )
    return (
        dispute,
        201,
        {"Location": f"/api/v1/games/{game_id}/hands/{number}/disputes/{dispute.id}", "ETag": game.etag},
    )


@blp.route("/hands/<id:number>/disputes", methods=["GET"])
@blp.arguments(DisputeArgsSchema, location="query")
@blp.response(200, DisputeListSchema)
@keyed_read(scope="game")
def list_hand_disputes(args: dict[str, Any], game_id: int, number: int) -> Page:
    """A hand's disputes, open and resolved, oldest first"""
    return page_of(disputes_query(game_id, number, args.get("status")), args)


@blp.route("/hands/<id:number>/disputes/<id:dispute_id>", methods=["GET"])
@blp.response(200, DisputeSchema)
@keyed_read(scope="game")
def get_dispute(game_id: int, number: int, dispute_id: int) -> Dispute:
    """One dispute"""
    return _dispute(game_id, number, dispute_id)


@blp.route("/hands/<id:number>/disputes/<id:dispute_id>/resolution", methods=["POST"])
@blp.arguments(ResolutionInSchema())
@blp.response(200, DisputeSchema, headers=ETAG_HEADER)
@keyed_write(scope="game", if_match="required")
def resolve_dispute(
    data: dict[str, Any], game_id: int, number: int, dispute_id: int, credential: KeyRow
) -> tuple[Dispute, dict[str, str]]:
    """Resolve a dispute: upheld corrects the hand with its ruling (R26), rejected leaves the hand as it is"""
    game = load_game(game_id)
    dispute = _dispute(game_id, number, dispute_id)
    if dispute.status != "open":
        raise conflict(f"dispute {dispute_id} is already resolved ({dispute.status})")
    hand = _standing(game, number)
    if data["decision"] == "upheld":
        if hand is None:
            raise conflict(f"hand {number} was undone: there is no hand to correct", rule="R26")
        now = latest_revision(game_id, number)
        if now != dispute.revision:
            raise stale_dispute(dispute, now)
    services.resolve_dispute(game, dispute, data["decision"], data.get("reason"), hand=hand, key_id=credential.id)
    return dispute, {"ETag": game.etag}


@blp.route("/disputes", methods=["GET"])
@blp.arguments(DisputeArgsSchema, location="query")
@blp.response(200, DisputeListSchema)
@keyed_read(scope="game")
def list_game_disputes(args: dict[str, Any], game_id: int) -> Page:
    """A game's disputes, open and resolved, oldest first"""
    return page_of(disputes_query(game_id, None, args.get("status")), args)
