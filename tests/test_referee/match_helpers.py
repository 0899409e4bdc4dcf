"""Random Hollywood matches and cutthroat games for the property tests, and
their hands as the referee takes them (R25, R28, R34, R36).

A hand is a dict as tests/reference_matches.py reads it: ``dealer``,
``non_dealer`` (and ``sitter``) as seated, ``knocker`` (a seat or None for a
draw), ``knocker_count``, ``defender_count``, ``big_gin``.
"""

from __future__ import annotations

import random
from typing import Any

from referee.cutthroat import CutthroatHand, CutthroatSeating
from referee.preset_hand import DRAW_SCORE, HandScore, score_preset_counts
from referee.presets import PresetRules
from referee.two_player import Seat, Seating, TwoPlayerHand

CHOICES = {"next_dealer": ["winner", "loser", "alternate"], "shutout": ["double", "plus_100", "none"]}
RANGES = {
    "target_score": (10, 1000),
    "knock_limit": (0, 10),
    "gin_bonus": (0, 100),
    "undercut_bonus": (0, 100),
    "big_gin_bonus": (0, 100),
    "box_bonus": (0, 100),
    "gin_boxes": (1, 4),
    "undercut_boxes": (1, 4),
    "game_bonus": (0, 500),
}


def random_options(rng: random.Random, defaults: dict[str, Any]) -> dict[str, Any]:
    """A random subset of the options in ``defaults``, each a random value in
    range; targets mostly short, sometimes long."""
    options: dict[str, Any] = {}
    for name in defaults:
        if rng.random() < 0.5:
            continue
        if name in CHOICES:
            options[name] = rng.choice(CHOICES[name])
        elif name == "boxes_immediate":
            options[name] = rng.random() < 0.5
        elif name == "target_score":
            options[name] = rng.choice([rng.randint(10, 200), rng.randint(10, 200), rng.randint(10, 1000)])
        else:
            options[name] = rng.randint(*RANGES[name])
    return options


def random_result(rng: random.Random, options: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    """``hand`` (its seats) with a random result: a draw now and then (R12),
    else a knock by counts within the knock limit (R25), a big gin (R32)
    when it is played."""
    hand = {**hand, "knocker": None, "knocker_count": 0, "defender_count": 0, "big_gin": False}
    if rng.random() < 0.08:
        return hand
    hand["knocker"] = rng.choice(["dealer", "non_dealer"])
    if options["big_gin_bonus"] and rng.random() < 0.1:
        hand["big_gin"] = True
    else:
        hand["knocker_count"] = rng.randint(0, options["knock_limit"])
    hand["defender_count"] = rng.choice([rng.randint(0, 12), rng.randint(0, 100)])
    return hand


def hand_score(rules: PresetRules, hand: dict[str, Any]) -> HandScore:
    if hand["knocker"] is None:
        return DRAW_SCORE
    return score_preset_counts(rules, hand["knocker_count"], hand["defender_count"], big_gin=hand["big_gin"])


def two_player_hand(rules: PresetRules, hand: dict[str, Any]) -> TwoPlayerHand:
    """The hand as the Hollywood fold takes it."""
    knocker = None if hand["knocker"] is None else Seat(hand["knocker"])
    return TwoPlayerHand(Seating(hand["dealer"], hand["non_dealer"]), knocker, hand_score(rules, hand))


def cutthroat_hand(rules: PresetRules, hand: dict[str, Any]) -> CutthroatHand:
    """The hand as the cutthroat fold takes it."""
    knocker = None if hand["knocker"] is None else Seat(hand["knocker"])
    seating = CutthroatSeating(hand["dealer"], hand["non_dealer"], hand["sitter"])
    return CutthroatHand(seating, knocker, hand_score(rules, hand))


def totals_dict(totals: dict[Any, Any]) -> dict[Any, dict[str, int]]:
    """A result's :class:`referee.sheet.PlayerTotal` values as the reference writes them."""
    return {
        p: {
            "hand_points": t.hand_points,
            "box_bonus": t.box_bonus,
            "game_bonus": t.game_bonus,
            "shutout": t.shutout,
            "total": t.total,
        }
        for p, t in totals.items()
    }
