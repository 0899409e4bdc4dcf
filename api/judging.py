"""From a loaded request body to the referee's ruling, and back to JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee import DRAW, Layoff, Role, Rules, Score, judge_hand, score_counts
from schemas.rulings import card_list, count_ruling_dict, draw_ruling_dict, ruling_dict


@dataclass(frozen=True)
class Judged:
    mode: str  # cards, counts, draw
    knocker: Role | None
    score: Score
    ruling: dict[str, Any]
    input: dict[str, Any]
    discard: str | None = None


def _canonical_hand(hand: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"cards": card_list(hand["cards"])}
    if "melds" in hand:
        out["melds"] = None if hand["melds"] is None else [card_list(m) for m in hand["melds"]]
    if "discard" in hand:
        out["discard"] = None if hand["discard"] is None else str(hand["discard"])
    if "layoffs" in hand:
        out["layoffs"] = (None if hand["layoffs"] is None
                          else [{"card": str(lo["card"]), "meld": lo["meld"]} for lo in hand["layoffs"]])
    return out


def judge_cards(data: dict[str, Any], rules: Rules) -> Judged:
    knocker_hand, defender_hand = data["knocker_hand"], data["defender_hand"]
    layoffs = defender_hand.get("layoffs")
    ruling = judge_hand(
        knocker_hand["cards"], defender_hand["cards"],
        knocker_melds=knocker_hand.get("melds"), defender_melds=defender_hand.get("melds"),
        layoffs=None if layoffs is None else [Layoff(lo["card"], lo["meld"]) for lo in layoffs],
        discard=knocker_hand.get("discard"), rules=rules)
    knocker = Role(data["knocker"]) if "knocker" in data else None
    discard = knocker_hand.get("discard")
    input_ = {"knocker": data.get("knocker"), "knocker_hand": _canonical_hand(knocker_hand),
              "defender_hand": _canonical_hand(defender_hand)}
    return Judged("cards", knocker, Score(ruling.outcome, ruling.scorer, ruling.points),
                  ruling_dict(ruling), input_, None if discard is None else str(discard))


def judge_input(data: dict[str, Any], rules: Rules) -> Judged:
    """A recorded hand in any of its three forms."""
    if data.get("outcome") == "draw":  # R12
        return Judged("draw", None, DRAW, draw_ruling_dict(), {"outcome": "draw"})
    if "knocker_deadwood_count" in data:  # R25
        k, d = data["knocker_deadwood_count"], data["defender_deadwood_count"]
        score = score_counts(k, d, rules)
        return Judged("counts", Role(data["knocker"]), score, count_ruling_dict(score, k, d),
                      {"knocker": data["knocker"], "knocker_deadwood_count": k, "defender_deadwood_count": d})
    return judge_cards(data, rules)
