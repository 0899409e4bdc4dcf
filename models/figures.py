"""Each player's figures (referee.stats.Figures) as columns: per game
(``GamePlayer``) and, in models.league, per league member.

``GamePlayer`` holds each player's figures for one game in a league
(referee.stats over that game's hand log), rewritten in the same transaction
as every change to the game's hands, so standings are sums over a few rows
per game. A game outside a league has its rows too (they say whose game it
is), with the figures of a game not yet begun: nothing reads more of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields as dataclass_fields
from datetime import datetime
from functools import lru_cache
from operator import attrgetter
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, bindparam, update
from sqlalchemy.orm import Mapped, mapped_column

from models.database import UTCDateTime, db
from models.statement import Statement
from referee import HandRecord
from referee.roles import PlayerId
from referee.stats import Figures, game_figures

FIGURE_FIELDS = [f.name for f in dataclass_fields(Figures)]
THREE_HANDED = "three_handed"


class FigureColumns:
    """The columns of referee.stats.Figures, for the per-game and per-league rows."""

    games_played: Mapped[int] = mapped_column(Integer, default=0)
    games_finished: Mapped[int] = mapped_column(Integer, default=0)
    games_won: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    hands_box: Mapped[int] = mapped_column(Integer, default=0)
    hands_captain: Mapped[int] = mapped_column(Integer, default=0)
    hands_sitter: Mapped[int] = mapped_column(Integer, default=0)
    hands_won_box: Mapped[int] = mapped_column(Integer, default=0)
    hands_won_captain: Mapped[int] = mapped_column(Integer, default=0)
    gins: Mapped[int] = mapped_column(Integer, default=0)
    undercuts_made: Mapped[int] = mapped_column(Integer, default=0)
    undercuts_suffered: Mapped[int] = mapped_column(Integer, default=0)
    knocks: Mapped[int] = mapped_column(Integer, default=0)
    knocker_deadwood_total: Mapped[int] = mapped_column(Integer, default=0)
    knocker_deadwood_hands: Mapped[int] = mapped_column(Integer, default=0)
    hands_dealer: Mapped[int] = mapped_column(Integer, default=0)
    hands_non_dealer: Mapped[int] = mapped_column(Integer, default=0)
    hands_won_dealer: Mapped[int] = mapped_column(Integer, default=0)
    hands_won_non_dealer: Mapped[int] = mapped_column(Integer, default=0)
    boxes: Mapped[int] = mapped_column(Integer, default=0)


class GamePlayer(FigureColumns, db.Model):  # type: ignore[name-defined,misc]
    """One player's figures in one game (see referee.stats.Figures)."""

    __tablename__ = "game_player"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True, index=True)
    league_id: Mapped[int | None] = mapped_column(ForeignKey("league.id"), nullable=True)
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # R27: the game's preset, by which standings and head to head are filtered
    preset: Mapped[str] = mapped_column(String(20), default=THREE_HANDED, server_default=THREE_HANDED)

    __table_args__ = (db.Index("ix_game_player_league_played", "league_id", "played_at"),)


@lru_cache(maxsize=1024)
def _add_figures_statement(table_name: str, names: tuple[str, ...]) -> Statement:
    """UPDATE table SET each figure of ``names`` = figure + :d_figure WHERE
    row is :pid (built once for each set of figures)."""
    table = db.metadata.tables[table_name]
    key = table.c.game_id if "game_id" in table.c else table.c.league_id
    return Statement(
        update(table)
        .where(key == bindparam("key"), table.c.player_id == bindparam("pid"))
        .values({name: table.c[name] + bindparam("d_" + name) for name in names})
    )


def add_figures(table_name: str, key: int, delta: Mapping[Any, Figures]) -> None:
    """Add each player's ``delta`` to his row of ``table_name`` (per game or
    per league), in one executemany on the write's connection. Only the
    figures that move are set: a hand moves a few of them."""
    players = [int(p) for p in delta]
    rows = [_FIGURES(f) for f in delta.values()]  # each player's figures, in FIGURE_FIELDS' order
    moving = [i for i, column in enumerate(zip(*rows, strict=True)) if any(column)]
    if not moving:
        return
    _add_figures_statement(table_name, tuple(FIGURE_FIELDS[i] for i in moving)).execute_many(
        [{"key": key, "pid": p, **{_DELTAS[i]: row[i] for i in moving}} for p, row in zip(players, rows, strict=True)],
    )


_FIGURES = attrgetter(*FIGURE_FIELDS)
_DELTAS = ["d_" + n for n in FIGURE_FIELDS]


def kept_figures(
    league_id: int | None, hands: Sequence[HandRecord], players: Iterable[PlayerId], winner: PlayerId | None
) -> dict[PlayerId, Figures]:
    """A game's per-player figures as its ``game_player`` rows keep them. Only a
    league's books and standings read them: a game in a league keeps those of
    its hands; a game outside one keeps only whose game it is (the figures of
    a game not yet begun), and recording its hands writes nothing there."""
    if league_id is None:
        return game_figures([], players, None)
    return game_figures(hands, players, winner)
