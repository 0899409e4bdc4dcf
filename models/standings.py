"""League figures: standings, head to head and ratings, from the per-game
figures (``GamePlayer``) and the hand logs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, delete, func, select

from models.database import db, write_transaction
from models.figures import FIGURE_FIELDS, GamePlayer
from models.game import Game, Hand, Player
from models.league import League, LeagueMember, LeaguePlayer, LeagueRating
from models.ratings import DEFAULT_MU, DEFAULT_SIGMA, rate_hands
from referee import HandRecord, Outcome, Role, Roles, Score, Side
from referee.stats import Figures, streaks


def _filters(league_id: int, since: datetime | None, until: datetime | None) -> list[ColumnElement[bool]]:
    conditions = [GamePlayer.league_id == league_id]
    if since is not None:
        conditions.append(GamePlayer.played_at >= since)
    if until is not None:
        conditions.append(GamePlayer.played_at < until)
    return conditions


def _figures(conditions: list[ColumnElement[bool]]) -> tuple[dict[int, Figures], dict[int, tuple[int, int]]]:
    columns = [func.sum(getattr(GamePlayer, name)) for name in FIGURE_FIELDS]
    rows = db.session.execute(
        select(GamePlayer.player_id, *columns).where(*conditions).group_by(GamePlayer.player_id)
    ).all()
    figures = {row[0]: Figures(*(int(v or 0) for v in row[1:])) for row in rows}
    results: dict[int, list[bool]] = {}
    finished = db.session.execute(
        select(GamePlayer.player_id, GamePlayer.games_won)
        .where(*conditions, GamePlayer.games_finished == 1)
        .order_by(GamePlayer.played_at, GamePlayer.game_id)
    ).all()
    for player_id, won in finished:
        results.setdefault(player_id, []).append(bool(won))
    return figures, {p: streaks(r) for p, r in results.items()}


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    hands_rated: int

    @property
    def ordinal(self) -> float:
        """A conservative skill: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Standing:
    """One member's line of the standings: his figures (referee.stats), his
    streaks of games won and his rating."""

    player_id: int
    name: str
    figures: Figures
    current_streak: int
    longest_streak: int
    rating: Rating

    def __getattr__(self, name: str) -> Any:
        return getattr(self.figures, _FIGURE_NAMES.get(name, name))


_FIGURE_NAMES = {"total_points": "points"}


def _row(
    player_id: int, name: str, f: Figures, streak: tuple[int, int], rating: tuple[float, float, int] | None
) -> Standing:
    return Standing(player_id, name, f, streak[0], streak[1], Rating(*(rating or (DEFAULT_MU, DEFAULT_SIGMA, 0))))


def _sort_key(sort: str) -> Any:
    def key(row: Standing) -> Any:
        return row.rating.ordinal if sort == "rating" else getattr(row, sort)

    return key


def sort_rows(rows: list[Standing], sort: str, order: str) -> list[Standing]:
    """Sort by ``sort``; nulls last; ties: games won, then total points (both
    descending), then player id ascending, whatever the order asked."""
    rows = sorted(rows, key=lambda r: (-r.games_won, -r.total_points, r.player_id))
    key = _sort_key(sort)
    present = [r for r in rows if key(r) is not None]
    missing = [r for r in rows if key(r) is None]
    present.sort(key=key, reverse=order == "desc")  # stable: ties keep the order above
    return present + missing


def standings(
    league: League,
    since: datetime | None = None,
    until: datetime | None = None,
    sort: str = "rating",
    order: str = "desc",
) -> list[Standing]:
    """Every member's figures; without a date range, from the league's books
    (a few rows, whatever the history's size)."""
    ratings = league_ratings(league)
    if since is None and until is None:
        if league.streaks_stale:
            refresh_streaks(league)
        books = db.session.execute(
            select(LeaguePlayer, Player.name)
            .join(Player, Player.id == LeaguePlayer.player_id)
            .where(LeaguePlayer.league_id == league.id)
        ).all()
        rows = [
            _row(
                book.player_id,
                name,
                Figures(*(getattr(book, n) for n in FIGURE_FIELDS)),
                (book.current_streak, book.longest_streak),
                ratings.get(book.player_id),
            )
            for book, name in books
        ]
        return sort_rows(rows, sort, order)
    figures, streak = _figures(_filters(league.id, since, until))
    members = db.session.execute(
        select(Player.id, Player.name)
        .join(LeagueMember, LeagueMember.player_id == Player.id)
        .where(LeagueMember.league_id == league.id)
    ).all()
    rows = [
        _row(pid, name, figures.get(pid, Figures()), streak.get(pid, (0, 0)), ratings.get(pid)) for pid, name in members
    ]
    return sort_rows(rows, sort, order)


def head_to_head(
    league: League, a: int, b: int, since: datetime | None = None, until: datetime | None = None
) -> tuple[list[Standing], int]:
    conditions = _filters(league.id, since, until)
    both = (
        select(GamePlayer.game_id)
        .where(GamePlayer.player_id == a, *conditions)
        .intersect(select(GamePlayer.game_id).where(GamePlayer.player_id == b, *conditions))
    )
    games = db.session.scalar(select(func.count()).select_from(both.subquery())) or 0
    figures, streak = _figures([GamePlayer.game_id.in_(both), GamePlayer.player_id.in_([a, b])])
    ratings = league_ratings(league)
    names = dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_([a, b]))).all())
    rows = [_row(p, names.get(p, ""), figures.get(p, Figures()), streak.get(p, (0, 0)), ratings.get(p)) for p in (a, b)]
    return rows, games


# --- ratings -------------------------------------------------------------------------


def league_hand_log(league_id: int) -> tuple[list[HandRecord], dict[str, Any] | None]:
    """Every hand of the league's games, in the order of played_at, then hand
    number. Games with the same played_at are ordered by their content (players,
    seating and rulings), never by id, so the order they were entered in
    cannot change the ratings."""
    games: dict[int, tuple[Any, list[Any]]] = {}
    rows = db.session.execute(
        select(
            Game.id,
            Game.played_at,
            Hand.box,
            Hand.captain,
            Hand.sitter,
            Hand.knocker,
            Hand.outcome,
            Hand.scorer,
            Hand.points,
        )
        .join(Hand, Hand.game_id == Game.id)
        .where(Game.league_id == league_id)
        .order_by(Game.played_at, Game.id, Hand.number)
    ).all()
    for game_id, played_at, *hand in rows:
        games.setdefault(game_id, (played_at, []))[1].append(tuple(hand))
    # ids enter the key only through comparisons, which an import (new ids, same order) keeps
    ordered = sorted(
        games.items(), key=lambda g: (g[1][0], [tuple("" if v is None else v for v in h) for h in g[1][1]])
    )
    log = [
        HandRecord(
            Roles(box=box, captain=captain, sitter=sitter),
            None if knocker is None else Role(knocker),
            Score(Outcome(outcome), None if scorer is None else Side(scorer), points),
        )
        for _, (_, hands) in ordered
        for box, captain, sitter, knocker, outcome, scorer, points in hands
    ]
    last = None
    if ordered:
        game_id, (played_at, hands) = ordered[-1]
        last = {"played_at": played_at.isoformat(), "game_id": game_id, "hands": len(hands)}
    return log, last


def _store_if_unchanged(league_id: int, version: int, store: Any) -> None:
    """Write what was computed outside the lock, unless the league's history
    moved on meanwhile (then it stays stale for the next read)."""
    db.session.commit()
    with write_transaction():
        league = db.session.execute(
            select(League).where(League.id == league_id).with_for_update().execution_options(populate_existing=True)
        ).scalar_one()
        if league.history_version == version:
            store(league)
        db.session.commit()


def refresh_ratings(league: League) -> None:
    """Recompute the league's ratings from its hand logs: read and rate
    without holding the write lock, then store."""
    version = league.history_version
    log, last = league_hand_log(league.id)
    ratings = rate_hands(log)

    def store(locked: League) -> None:
        db.session.execute(delete(LeagueRating).where(LeagueRating.league_id == locked.id))
        db.session.add_all(
            LeagueRating(league_id=locked.id, player_id=p, mu=mu, sigma=sigma, hands_rated=n)
            for p, (mu, sigma, n) in ratings.items()
        )
        locked.ratings_stale = False
        locked.rated_through = last

    _store_if_unchanged(league.id, version, store)


def refresh_streaks(league: League) -> None:
    """Recount every member's streaks of games won from the finished games."""
    version = league.history_version
    results: dict[int, list[tuple[bool, Any, int]]] = {}
    for player_id, won, played_at, game_id in db.session.execute(
        select(GamePlayer.player_id, GamePlayer.games_won, GamePlayer.played_at, GamePlayer.game_id)
        .where(GamePlayer.league_id == league.id, GamePlayer.games_finished == 1)
        .order_by(GamePlayer.played_at, GamePlayer.game_id)
    ):
        results.setdefault(player_id, []).append((bool(won), played_at, game_id))

    def store(locked: League) -> None:
        for row in db.session.scalars(select(LeaguePlayer).where(LeaguePlayer.league_id == locked.id)):
            games = results.get(row.player_id, [])
            row.current_streak, row.longest_streak = streaks(won for won, _, _ in games)
            row.streak_played_at, row.streak_game_id = (games[-1][1], games[-1][2]) if games else (None, None)
        locked.streaks_stale = False

    _store_if_unchanged(league.id, version, store)


def league_ratings(league: League) -> dict[int, tuple[float, float, int]]:
    """The league's ratings, recomputed from its hand logs when they changed."""
    if league.ratings_stale:
        refresh_ratings(league)
    rows = db.session.execute(
        select(LeagueRating.player_id, LeagueRating.mu, LeagueRating.sigma, LeagueRating.hands_rated).where(
            LeagueRating.league_id == league.id
        )
    ).all()
    return {p: (mu, sigma, n) for p, mu, sigma, n in rows}
