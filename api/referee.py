from __future__ import annotations

from dataclasses import replace
from typing import Any

from api.body import Blueprint
from api.docs import open_write
from api.errors import invalid
from api.judging import judge_cards, judge_preset_input
from referee import KnockVerdict, Rules, judge_knock
from referee.errors import RefereeError
from referee.preset_hand import verify_up_card
from referee.presets import PresetRules
from schemas.fields import SEATS
from schemas.referee import KnockInSchema, RefereeHandInSchema
from schemas.rulings import KnockVerdictSchema, RulingSchema, explained

blp = Blueprint(
    "referee", __name__, url_prefix="/referee", description="Rulings without a game: settle a disputed knock"
)


@blp.route("/knock", methods=["POST"])
@blp.arguments(KnockInSchema())
@blp.response(200, KnockVerdictSchema)
@open_write()
def judge_knock_view(data: dict[str, Any]) -> KnockVerdict:
    """Can I knock with this? (R14) An illegal knock is a verdict, not an error; explained step by step"""
    given = data.get("rules")
    if isinstance(given, PresetRules):  # R27: the preset's knock limit, or the up-card's (R33, R35)
        try:
            terms = verify_up_card(given, data.get("upcard"))
        except RefereeError as err:
            err.field = "upcard"
            raise
        verdict = judge_knock(data["cards"], data.get("melds"), data.get("discard"), terms.rules)
        return verdict if verdict.valid else replace(verdict, rule=terms.limit_rule)
    if "upcard" in data:
        raise invalid("upcard", "only oklahoma records an up-card (R33)", offending=str(data["upcard"]), rule="R33")
    rules = Rules.from_options(given)
    return judge_knock(data["cards"], data.get("melds"), data.get("discard"), rules)


@blp.route("/hand", methods=["POST"])
@blp.arguments(RefereeHandInSchema())
@blp.response(200, RulingSchema)
@open_write()
def judge_hand_view(data: dict[str, Any]) -> dict[str, Any]:
    """Rule on a whole hand from both players' cards (R14-R24), explained step by step"""
    given = data.get("rules")
    if isinstance(given, PresetRules):  # R27: judged under the preset (R32, R33, R35)
        knocker = data.get("knocker")
        ruling = judge_preset_input({**data, "knocker": knocker if knocker in SEATS else "dealer"}, given).ruling
        if knocker not in SEATS:
            ruling.pop("winner")
        return ruling
    if "upcard" in data or data.get("knocker", "box") not in ("box", "captain"):
        name = "upcard" if "upcard" in data else "knocker"
        raise invalid(
            name, f"{name} {data[name]} is a two-player preset's (R27)", offending=str(data[name]), rule="R27"
        )
    rules = Rules.from_options(given)
    return explained(judge_cards(data, rules).ruling, rules)
