"""ginref's referee: the rules of three-handed Gin Rummy (RULES.md R1-R26) as a
pure library. Standard library only."""

from referee.cards import DECK, Card, CardSyntaxError, parse_card, parse_cards, sort_cards
from referee.deadwood import arrangements, best_arrangement, best_discard, least_deadwood
from referee.errors import (
    CountError,
    CutError,
    GameStateError,
    HandError,
    IllegalKnockError,
    LayoffError,
    MeldError,
    RefereeError,
    RolesError,
    RuleOptionError,
)
from referee.explain import Spread, explain_counts, explain_draw, explain_hand, explain_spreads
from referee.game import GameState, HandRecord, can_record, replay, verify_can_record
from referee.judge import KnockVerdict, Ruling, judge_hand, judge_knock
from referee.layoff import DefenderPlay, Layoff, best_play, can_lay_off, verify_layoffs
from referee.melds import Arrangement, Meld, all_melds, is_meld, verify_meld
from referee.roles import Role, Roles, can_seat, next_roles, roles_from_cut, verify_seating
from referee.rules import Rules, can_set_option, verify_option
from referee.scoring import DRAW, Outcome, Score, Side, can_count, score, score_counts, verify_counts
from referee.steps import PARAMS, STEPS, Code, Step

__all__ = [
    "DECK",
    "DRAW",
    "PARAMS",
    "STEPS",
    "Arrangement",
    "Card",
    "CardSyntaxError",
    "Code",
    "CountError",
    "CutError",
    "DefenderPlay",
    "GameState",
    "GameStateError",
    "HandError",
    "HandRecord",
    "IllegalKnockError",
    "KnockVerdict",
    "Layoff",
    "LayoffError",
    "Meld",
    "MeldError",
    "Outcome",
    "RefereeError",
    "Role",
    "Roles",
    "RolesError",
    "RuleOptionError",
    "Rules",
    "Ruling",
    "Score",
    "Side",
    "Spread",
    "Step",
    "all_melds",
    "arrangements",
    "best_arrangement",
    "best_discard",
    "best_play",
    "can_count",
    "can_lay_off",
    "can_record",
    "can_seat",
    "explain_counts",
    "explain_draw",
    "explain_hand",
    "explain_spreads",
    "can_set_option",
    "is_meld",
    "judge_hand",
    "judge_knock",
    "least_deadwood",
    "next_roles",
    "parse_card",
    "parse_cards",
    "replay",
    "roles_from_cut",
    "score",
    "score_counts",
    "sort_cards",
    "verify_can_record",
    "verify_counts",
    "verify_layoffs",
    "verify_meld",
    "verify_option",
    "verify_seating",
]
