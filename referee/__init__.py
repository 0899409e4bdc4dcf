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
from referee.game import GameState, HandRecord, replay, verify_can_record
from referee.judge import KnockVerdict, Ruling, judge_hand, judge_knock
from referee.layoff import DefenderPlay, Layoff, best_play
from referee.melds import Arrangement, Meld, all_melds, is_meld, verify_meld
from referee.roles import Role, Roles, next_roles, roles_from_cut
from referee.rules import Rules
from referee.scoring import DRAW, Outcome, Score, Side, score, score_counts

__all__ = [
    "DECK", "DRAW", "Arrangement", "Card", "CardSyntaxError", "CountError", "CutError",
    "DefenderPlay", "GameState", "GameStateError", "HandError", "HandRecord", "IllegalKnockError",
    "KnockVerdict", "Layoff", "LayoffError", "Meld", "MeldError", "Outcome", "RefereeError",
    "Role", "Roles", "RolesError", "RuleOptionError", "Rules", "Ruling", "Score", "Side", "all_melds",
    "arrangements", "best_arrangement", "best_discard", "best_play", "is_meld", "judge_hand",
    "judge_knock", "least_deadwood", "next_roles", "parse_card", "parse_cards", "replay",
    "roles_from_cut", "score", "score_counts", "sort_cards", "verify_can_record", "verify_meld",
]
