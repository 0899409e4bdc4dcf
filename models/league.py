"""Leagues, their members, their members' totals and ratings.

Ratings (openskill) are recomputed from the hand logs, in the order of the
games' ``played_at`` then hand number, whenever the league's history has
changed (models.books keeps them in step hand by hand meanwhile).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from models.database import UTCDateTime, db, now
from models.figures import FigureColumns

PUBLIC, PRIVATE = "public", "private"
VISIBILITIES = (PUBLIC, PRIVATE)


class League(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "league"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    # "private": its reads (and its games') need one of its keys, a write key or a share key
    visibility: Mapped[str] = mapped_column(String(10), default=PUBLIC, server_default=PUBLIC)
    # Bumped by every change to the hands of the league's games.
    history_version: Mapped[int] = mapped_column(Integer, default=0)
    # Ratings and streaks are kept in step hand by hand while hands come in
    # order; a backdated game or a correction makes them stale, and the next
    # read recomputes them from the hand logs.
    ratings_stale: Mapped[bool] = mapped_column(Boolean, default=True)
    rated_through: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    streaks_stale: Mapped[bool] = mapped_column(Boolean, default=True)


class LeagueMember(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "league_member"

    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, index=True)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class LeaguePlayer(FigureColumns, db.Model):  # type: ignore[name-defined,misc]
    """A member's totals over all the league's games (the sums of GamePlayer),
    and his streaks of games won, for standings without a date range."""

    __tablename__ = "league_player"

    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    current_streak: Mapped[int] = mapped_column(Integer, default=0)
    longest_streak: Mapped[int] = mapped_column(Integer, default=0)
    # the last finished game counted in the streaks, in played_at order
    streak_played_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    streak_game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class LeagueRating(db.Model):  # type: ignore[name-defined,misc]
    """A member's rating under one preset (R27): each preset is rated on its own."""

    __tablename__ = "league_rating"

    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(20), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    hands_rated: Mapped[int] = mapped_column(Integer, default=0)
