"""A league's running books: each member's totals and streaks, and the
ratings, kept in step with the hand logs in the same transaction as each
change to them.

Hands usually arrive in order (the next hand of the league's latest game):
then the totals, streaks and ratings move by that one hand. A backdated game
or a correction leaves the streaks or ratings stale, and the next read
recomputes them from the logs, outside the write lock (see models.standings).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from models.database import db
from models.figures import FIGURE_FIELDS, THREE_HANDED, GamePlayer, add_figures
from models.game import Game, GameView, Recorded, RecordedTwoPlayer
from models.league import League, LeaguePlayer, LeagueRating
from models.ratings import MU, SIGMA, rate_hand, rate_two_player_log, won_by_box
from referee import HandRecord
from referee.two_player import Seat, TwoPlayerHand


def refresh_totals(league_id: int, players: Iterable[int]) -> None:
    """Recompute members' totals from the per-game figures (creating rows)."""
    players = [int(p) for p in players]
    sums = {
        row[0]: row[1:]
        for row in db.session.execute(
            select(GamePlayer.player_id, *(func.coalesce(func.sum(getattr(GamePlayer, n)), 0) for n in FIGURE_FIELDS))
            .where(GamePlayer.league_id == league_id, GamePlayer.player_id.in_(players))
            .group_by(GamePlayer.player_id)
        )
    }
    rows = {
        r.player_id: r
        for r in db.session.scalars(
            select(LeaguePlayer).where(LeaguePlayer.league_id == league_id, LeaguePlayer.player_id.in_(players))
        )
    }
    for p in players:
        row = rows.get(p)
        if row is None:
            row = LeaguePlayer(league_id=league_id, player_id=p, current_streak=0, longest_streak=0)
            db.session.add(row)
        for name, value in zip(FIGURE_FIELDS, sums.get(p, [0] * len(FIGURE_FIELDS)), strict=True):
            setattr(row, name, int(value))


def _position(game: GameView, number: int) -> dict[str, Any]:
    return {"played_at": game.played_at.isoformat(), "game_id": game.id, "hands": number}


def _follows(rated: dict[str, Any] | None, game: GameView, number: int) -> bool:
    """Is this hand the next one of the league's log in rating order?"""
    if rated is None:
        return number == 1
    if rated["game_id"] == game.id:
        return number == rated["hands"] + 1
    return number == 1 and game.played_at > datetime.fromisoformat(rated["played_at"])


def hand_appended(recorded: Recorded | RecordedTwoPlayer) -> None:
    """The league's books after one more hand of one of its games, of any preset."""
    game, number = recorded.game, recorded.hand.number
    assert recorded.delta is not None  # a hand of a league's game adds to its figures
    league = db.session.get(League, game.league_id)
    assert league is not None
    league.history_version = (league.history_version or 0) + 1
    add_figures("league_player", league.id, recorded.delta)
    if game.winner is not None and not league.streaks_stale:
        _extend_streaks(league, game, game.winner)
    elif game.winner is None and game.status == "finished":
        league.streaks_stale = True  # R34: a match that ends even, won by none: the next read recounts
    if not league.ratings_stale and _follows(league.rated_through, game, number):
        if isinstance(recorded, Recorded):
            _rate_one(league, recorded.record)
        else:
            _rate_two_player(league, game.preset_rules.preset.value, recorded.record)
        league.rated_through = _position(game, number)
    else:
        league.ratings_stale = True


def _extend_streaks(league: League, game: GameView, winner: int) -> None:
    rows = list(
        db.session.scalars(
            select(LeaguePlayer).where(
                LeaguePlayer.league_id == league.id, LeaguePlayer.player_id.in_([int(p) for p in game.players])
            )
        )
    )
    for row in rows:
        if row.streak_played_at is not None and (row.streak_played_at, row.streak_game_id or 0) >= (
            game.played_at,
            game.id,
        ):
            league.streaks_stale = True  # a game finished out of played_at order: recount
            return
    for row in rows:
        won = row.player_id == winner
        row.current_streak = row.current_streak + 1 if won else 0
        row.longest_streak = max(row.longest_streak, row.current_streak)
        row.streak_played_at, row.streak_game_id = game.played_at, game.id


def _rate_one(league: League, record: HandRecord) -> None:
    box_won = won_by_box(record)
    if box_won is None:
        return  # draws do not rate
    r = record.roles
    players = [int(r.box), int(r.captain), int(r.sitter)]
    rows = _rating_rows(league, THREE_HANDED, players)
    box, captain, sitter = ((rows[p].mu, rows[p].sigma) for p in players)
    rated = rate_hand(box, captain, sitter, box_won)
    for p, (mu, sigma) in zip(players, rated, strict=True):
        rows[p].mu, rows[p].sigma, rows[p].hands_rated = mu, sigma, rows[p].hands_rated + 1


def _rate_two_player(league: League, preset: str, record: TwoPlayerHand) -> None:
    """R27, R28: the two players' ratings under their game's preset, after one hand (draws do not rate)."""
    winner = record.winner
    if winner is None:
        return
    players = [int(record.seating.dealer), int(record.seating.non_dealer)]
    rows = _rating_rows(league, preset, players)
    rated = rate_two_player_log(
        [(players[0], players[1], winner is Seat.DEALER)], {p: [rows[p].mu, rows[p].sigma, 0] for p in players}
    )
    for p in players:
        rows[p].mu, rows[p].sigma, rows[p].hands_rated = rated[p][0], rated[p][1], rows[p].hands_rated + 1


def _rating_rows(league: League, preset: str, players: list[int]) -> dict[int, LeagueRating]:
    """The players' rating rows under ``preset``, made for those rated for the first time."""
    rows = {
        row.player_id: row
        for row in db.session.scalars(
            select(LeagueRating).where(
                LeagueRating.league_id == league.id,
                LeagueRating.preset == preset,
                LeagueRating.player_id.in_(players),
            )
        )
    }
    new = [p for p in players if p not in rows]
    for p in new:
        rows[p] = LeagueRating(league_id=league.id, preset=preset, player_id=p, mu=MU, sigma=SIGMA, hands_rated=0)
        db.session.add(rows[p])
    if new:
        db.session.flush()  # a player's first rated hand: the row exists for the next hand's query
    return rows


def game_rewritten(game: Game, *, history: bool = True) -> None:
    """After a full replay of a league game (created, corrected, undone,
    imported): its players' totals recounted; streaks and ratings stale when
    its history changed."""
    league = db.session.get(League, game.league_id)
    assert league is not None
    db.session.flush()
    refresh_totals(league.id, game.players)
    if history:
        league.history_version = (league.history_version or 0) + 1
        league.streaks_stale = True
        league.ratings_stale = True
