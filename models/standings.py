"""League figures: standings, head to head and ratings, from the per-game
figures (``GamePlayer``) and the hand logs.

A read that finds a league's streaks or ratings stale recounts them from the
hand logs and answers with the recount; it stores nothing itself. What it
recounted waits in the session (:func:`pending_stores`) for the request's one
commit point (app.py), which stores it under the league's lock once the
answer is built."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, case, delete, func, insert, literal_column, null, select

from models.database import db
from models.figures import FIGURE_FIELDS, THREE_HANDED, GamePlayer
from models.game import Game, Hand, Player
from models.league import League, LeagueMember, LeaguePlayer, LeagueRating
from models.ratings import BOX_WON, DEFAULT_MU, DEFAULT_SIGMA, rate_log
from referee.stats import Figures, streaks


def _filters(
    league_id: int, since: datetime | None, until: datetime | None, preset: str | None = None
) -> list[ColumnElement[bool]]:
    conditions = [GamePlayer.league_id == league_id]
    if preset is not None:
        conditions.append(GamePlayer.preset == preset)
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
    preset: str | None = None,
) -> list[Standing]:
    """Every member's figures over the league's games (of ``preset`` only, when
    given: R27), and his rating under that preset (the three-handed game's
    when none is given); without a date range or a preset, from the
    league's books (a few rows, whatever the history's size)."""
    ratings = league_ratings(league, preset or THREE_HANDED)
    if since is None and until is None and preset is None:
        recounted = refresh_streaks(league) if league.streaks_stale else None
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
                (book.current_streak, book.longest_streak)
                if recounted is None
                else streaks(recounted.get(book.player_id, [])),
                ratings.get(book.player_id),
            )
            for book, name in books
        ]
        return sort_rows(rows, sort, order)
    figures, streak = _figures(_filters(league.id, since, until, preset))
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
    league: League,
    a: int,
    b: int,
    since: datetime | None = None,
    until: datetime | None = None,
    preset: str | None = None,
) -> tuple[list[Standing], int]:
    """Two members' figures over the games they both played (of ``preset``
    only, when given), and how many; their ratings as in :func:`standings`."""
    conditions = _filters(league.id, since, until, preset)
    both = (
        select(GamePlayer.game_id)
        .where(GamePlayer.player_id == a, *conditions)
        .intersect(select(GamePlayer.game_id).where(GamePlayer.player_id == b, *conditions))
    )
    games = db.session.scalar(select(func.count()).select_from(both.subquery())) or 0
    figures, streak = _figures([GamePlayer.game_id.in_(both), GamePlayer.player_id.in_([a, b])])
    ratings = league_ratings(league, preset or THREE_HANDED)
    names = dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_([a, b]))).all())
    rows = [_row(p, names.get(p, ""), figures.get(p, Figures()), streak.get(p, (0, 0)), ratings.get(p)) for p in (a, b)]
    return rows, games


# --- ratings -------------------------------------------------------------------------


_GAMES, _HANDS = Game.__table__, Hand.__table__


def _driver_rows(statement: Select[Any]) -> list[tuple[Any, ...]]:
    """The rows of ``statement`` as plain tuples, in the session's
    transaction: a league's whole hand log is read this way. Only for
    columns the driver returns as they are (integers, strings): the text is
    the statement's own, compiled with its values (a league's id) written
    in, and run as it is (``exec_driver_sql``), without the Core's result
    processing."""
    connection = db.session.connection()
    sql = str(statement.compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True}))
    return [tuple(row) for row in connection.exec_driver_sql(sql)]


def _league_hands(league_id: int, *columns: Any) -> tuple[list[tuple[Any, ...]], dict[str, Any] | None]:
    """Every hand of the league's games as a plain row (``columns`` of the
    hand table, or expressions over them), in rating order: by the games'
    played_at, then hand number. Games with the same played_at are ordered by
    their content (players, seating and rulings), never by id, so the order
    they were entered in cannot change the ratings. Also the position of the
    last hand, as ``League.rated_through`` keeps it."""
    h, g = _HANDS.c, _GAMES.c
    in_league = h.game_id.in_(select(g.id).where(g.league_id == league_id))
    # by game id, then number (the order of the hand table's unique index): the
    # database need not sort the whole log, and most leagues' games are in
    # played_at order already
    rows = _driver_rows(select(*columns).where(in_league).order_by(h.game_id, h.number))
    if not rows:
        return rows, None
    games = [
        game_id for (game_id,) in _driver_rows(select(g.id).where(g.league_id == league_id).order_by(g.played_at, g.id))
    ]
    tied = db.session.execute(
        select(g.id, g.played_at)
        .where(
            g.league_id == league_id,
            g.played_at.in_(
                select(g.played_at).where(g.league_id == league_id).group_by(g.played_at).having(func.count() > 1)
            ),
        )
        .order_by(g.played_at, g.id)
    ).all()
    if tied:
        games = _order_tied_games(games, {game_id: played_at for game_id, played_at in tied})
    if all(a < b for a, b in zip(games, games[1:], strict=False)):
        last = db.session.scalar(select(func.max(h.game_id)).where(in_league))
        count = db.session.scalar(select(func.count()).where(h.game_id == last))
    else:  # some game is not in the order of ids: each game's hands where it goes
        counts = dict(_driver_rows(select(h.game_id, func.count()).where(in_league).group_by(h.game_id)))
        start, at = 0, {}
        for game_id in sorted(counts):
            at[game_id] = start
            start += counts[game_id]
        games = [game_id for game_id in games if game_id in counts]
        rows = [row for game_id in games for row in rows[at[game_id] : at[game_id] + counts[game_id]]]
        last, count = games[-1], counts[games[-1]]
    played_at = db.session.scalar(select(g.played_at).where(g.id == last))
    assert played_at is not None and count
    return rows, {"played_at": played_at.isoformat(), "game_id": last, "hands": count}


def _order_tied_games(games: list[int], tied: dict[int, datetime]) -> list[int]:
    """``games`` (by played_at, then id) with those that share a played_at
    put in the order of their hands' content."""
    content: dict[int, list[tuple[Any, ...]]] = {}
    h = _HANDS.c
    for game_id, *hand in db.session.execute(
        select(h.game_id, h.box, h.captain, h.sitter, h.knocker, h.outcome, h.scorer, h.points)
        .where(h.game_id.in_(list(tied)))
        .order_by(h.game_id, h.number)
    ):
        # ids enter the key only through comparisons, which an import (new ids, same order) keeps
        content.setdefault(game_id, []).append(tuple("" if v is None else v for v in hand))
    # each game's place: one for the games of each played_at shared, else one per
    # game; the sort is stable, so games of the same content keep the order by id
    place: dict[int, int] = {}
    for n, game_id in enumerate(games):
        previous = games[n - 1] if n else None
        shared = previous is not None and previous in tied and game_id in tied and tied[previous] == tied[game_id]
        place[game_id] = place[previous] if shared and previous is not None else n
    return sorted(games, key=lambda game_id: (place[game_id], content.get(game_id, [])))


#: 1 when the box's side won the hand, 0 when the captain's did, NULL for a draw
#: (R11, R12): models.ratings.BOX_WON, which the referee rules, as SQL
_BOX_WON = case(
    *(
        (and_(_HANDS.c.knocker == knocker, _HANDS.c.scorer == scorer), literal_column(str(int(won))))
        for (knocker, scorer), won in BOX_WON.items()
        if won is not None
    ),
    else_=null(),
).label("box_won")


def league_seatings(league_id: int) -> tuple[list[tuple[Any, ...]], dict[str, Any] | None]:
    """The league's hands as (box, captain, sitter, box won) in rating order
    (``_league_hands``), for ``rate_log``; and the position of the last."""
    h = _HANDS.c
    return _league_hands(league_id, h.box, h.captain, h.sitter, _BOX_WON)


def _two_player_games(league_id: int) -> dict[int, str]:
    """The preset of each of the league's games under a two-player preset (R27)."""
    gp = GamePlayer.__table__.c
    return dict(
        db.session.execute(
            select(gp.game_id, gp.preset).where(gp.league_id == league_id, gp.preset != THREE_HANDED).distinct()
        ).all()
    )


def rate_league(league_id: int) -> tuple[dict[str, dict[int, list[float]]], dict[str, Any] | None]:
    """Each preset's ratings over the league's hands of that preset, in rating
    order (R27), by ``rate_log``: a two-player hand's row keeps its dealer as
    its box, its non-dealer as its captain, and a two-player or cutthroat hand
    rates its dealer against its non-dealer alone (a cutthroat hand's sitter
    is not rated); and the position of the last hand."""
    presets = _two_player_games(league_id)
    if not presets:  # the whole log is three-handed: read as ``rate_log`` takes it
        rows, last = league_seatings(league_id)
        return ({THREE_HANDED: rate_log(rows)} if rows else {}), last
    h = _HANDS.c
    rows, last = _league_hands(league_id, h.game_id, h.box, h.captain, h.sitter, _BOX_WON)
    logs: dict[str, list[tuple[Any, ...]]] = {}
    for game_id, box, captain, sitter, won in rows:
        preset = presets.get(game_id, THREE_HANDED)
        # R27, R28, R36: a two-player or cutthroat hand rates its dealer (its box) against its non-dealer
        logs.setdefault(preset, []).append(
            (box, captain, sitter, won) if preset == THREE_HANDED else (box, captain, None, won)
        )
    return {preset: rate_log(log) for preset, log in logs.items()}, last


#: the session's ``info`` key under which a read leaves what it recounted, for the request's commit point
PENDING_STORES = "pending_stores"


def store_if_unchanged(league_id: int, version: int, store: Callable[[League], None]) -> None:
    """Write what a read recounted outside the lock, under the league's row
    lock, unless the league's history moved on meanwhile (then it stays stale
    for the next read). In the caller's write transaction: the caller commits."""
    league = db.session.execute(
        select(League).where(League.id == league_id).with_for_update().execution_options(populate_existing=True)
    ).scalar_one()
    if league.history_version == version:
        store(league)


def _store_later(league_id: int, version: int, store: Callable[[League], None]) -> None:
    db.session.info.setdefault(PENDING_STORES, []).append(partial(store_if_unchanged, league_id, version, store))


def pending_stores() -> list[Callable[[], None]]:
    """What the reads of this session recounted and left to store (each
    under its league's lock), taken out of the session."""
    stores: list[Callable[[], None]] = db.session.info.pop(PENDING_STORES, [])
    return stores


#: each player's (mu, sigma, hands rated)
Ratings = dict[int, tuple[float, float, int]]


def refresh_ratings(league: League) -> dict[str, Ratings]:
    """Recompute the league's ratings, each preset's, from its hand logs,
    without holding the write lock; they are stored at the request's commit point."""
    version = league.history_version
    by_preset, last = rate_league(league.id)

    def store(locked: League) -> None:
        db.session.execute(delete(LeagueRating).where(LeagueRating.league_id == locked.id))
        rows = [
            {"league_id": locked.id, "preset": preset, "player_id": p, "mu": mu, "sigma": sigma, "hands_rated": int(n)}
            for preset, ratings in by_preset.items()
            for p, (mu, sigma, n) in ratings.items()
        ]
        if rows:
            db.session.execute(insert(LeagueRating), rows)
        locked.ratings_stale = False
        locked.rated_through = last

    _store_later(league.id, version, store)
    return {
        preset: {p: (mu, sigma, int(n)) for p, (mu, sigma, n) in ratings.items()}
        for preset, ratings in by_preset.items()
    }


def refresh_streaks(league: League) -> dict[int, list[bool]]:
    """Recount every member's streaks of games won from the finished games:
    each member's results, in order; stored at the request's commit point."""
    version = league.history_version
    gp = GamePlayer.__table__.c
    results: dict[int, list[bool]] = {}
    last: dict[int, int] = {}
    for player_id, won, game_id in _driver_rows(
        select(gp.player_id, gp.games_won, gp.game_id)
        .where(gp.league_id == league.id, gp.games_finished == 1)
        .order_by(gp.played_at, gp.game_id)
    ):
        results.setdefault(player_id, []).append(bool(won))
        last[player_id] = game_id
    played_at: dict[int, datetime] = dict(
        db.session.execute(select(_GAMES.c.id, _GAMES.c.played_at).where(_GAMES.c.id.in_(set(last.values())))).all()
    )

    def store(locked: League) -> None:
        for row in db.session.scalars(select(LeaguePlayer).where(LeaguePlayer.league_id == locked.id)):
            row.current_streak, row.longest_streak = streaks(results.get(row.player_id, []))
            game_id = last.get(row.player_id)
            row.streak_played_at = None if game_id is None else played_at[game_id]
            row.streak_game_id = game_id
        locked.streaks_stale = False

    _store_later(league.id, version, store)
    return results


def league_ratings(league: League, preset: str = THREE_HANDED) -> Ratings:
    """The league's ratings under ``preset`` (R27), recomputed from its hand
    logs when they changed."""
    if league.ratings_stale:
        return refresh_ratings(league).get(preset, {})
    rows = db.session.execute(
        select(LeagueRating.player_id, LeagueRating.mu, LeagueRating.sigma, LeagueRating.hands_rated).where(
            LeagueRating.league_id == league.id, LeagueRating.preset == preset
        )
    ).all()
    return {p: (mu, sigma, n) for p, mu, sigma, n in rows}
