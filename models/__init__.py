"""Persistence: typed SQLAlchemy 2 models. They persist and convert; the
referee decides."""

from models.database import db, init_engine_events, write_transaction
from models.disputes import Dispute
from models.events import GameEvent
from models.figures import GamePlayer
from models.game import Game, Hand, Player
from models.league import League, LeagueMember, LeaguePlayer, LeagueRating
from models.revisions import HandRevision
from models.security import ApiKey, IdempotencyRecord

__all__ = [
    "ApiKey",
    "Dispute",
    "Game",
    "GameEvent",
    "GamePlayer",
    "Hand",
    "HandRevision",
    "IdempotencyRecord",
    "League",
    "LeagueMember",
    "LeaguePlayer",
    "LeagueRating",
    "Player",
    "db",
    "init_engine_events",
    "write_transaction",
]
