"""Persistence: typed SQLAlchemy 2 models. They persist and convert; the
referee decides."""

from models.database import db, init_engine_events, write_transaction
from models.game import Game, Hand, Player

__all__ = ["Game", "Hand", "Player", "db", "init_engine_events", "write_transaction"]
