from __future__ import annotations

from typing import Any

from api.body import Blueprint
from api.docs import open_write
from api.judging import judge_cards
from referee import KnockVerdict, Rules, judge_knock
from schemas.referee import KnockInSchema, RefereeHandInSchema
from schemas.rulings import KnockVerdictSchema, RulingSchema, explained

blp = Blueprint(
    "referee", __name__, url_prefix="/referee", description="Rulings without a game: settle a disputed knock"
)


@blp.route("/knock", methods=["POST"])
@blp.arguments(KnockInSchema())
@blp.response(200, KnockVerdictSchema)
@open_write(blp)
def judge_knock_view(data: dict[str, Any]) -> KnockVerdict:
    """Can I knock with this? (R14) An illegal knock is a verdict, not an error; explained step by step"""
    rules = Rules.from_options(data.get("rules"))
    return judge_knock(data["cards"], data.get("melds"), data.get("discard"), rules)


@blp.route("/hand", methods=["POST"])
@blp.arguments(RefereeHandInSchema())
@blp.response(200, RulingSchema)
@open_write(blp)
def judge_hand_view(data: dict[str, Any]) -> dict[str, Any]:
    """Rule on a whole hand from both players' cards (R14-R24), explained step by step"""
    rules = Rules.from_options(data.get("rules"))
    return explained(judge_cards(data, rules).ruling, rules)
