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

from sqlalchemy import Integer, and_, bindparam, func, insert, select, true, update

from models.database import db, session_connection
from models.figures import FIGURE_FIELDS, THREE_HANDED, GamePlayer, add_figures
from models.game import Game, GameView, Recorded, RecordedTwoPlayer
from models.league import League, LeaguePlayer, LeagueRating
from models.ratings import MU, SIGMA, rate_hand, rate_log, won_by_box
from models.statement import ONE, ZERO, Statement
from referee import HandRecord
from referee.cutthroat import CutthroatHand
from referee.roles import PlayerId
from referee.stats import Figures
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


_LEAGUES = League.__table__
_RATINGS = LeagueRating.__table__
_MOVED_ON = {
    # a hand's write never clears a flag: one raised meanwhile by another game's write stays raised
    "history_version": func.coalesce(_LEAGUES.c.history_version, ZERO) + ONE,
    "streaks_stale": _LEAGUES.c.streaks_stale | bindparam("b_streaks_stale", type_=_LEAGUES.c.streaks_stale.type),
}
#: the hand was rated: the league is rated through it
_RATED_THROUGH = Statement(
    update(_LEAGUES)
    .where(_LEAGUES.c.id == bindparam("league_id"))
    .values({**_MOVED_ON, "rated_through": bindparam("b_rated_through", type_=_LEAGUES.c.rated_through.type)})
)
#: the hand was not rated (stale ratings, or a hand out of rating order): the next read re-rates
_RATINGS_STALE = Statement(
    update(_LEAGUES).where(_LEAGUES.c.id == bindparam("league_id")).values({**_MOVED_ON, "ratings_stale": true()})
)
#: the league's flags, with the ratings under ``preset`` of those of ``players`` rated before (none: a
#: row of flags alone), in one statement: the league's row joined to its players' rating rows
_PLAYERS = ("player_0", "player_1", "player_2")


def _players(players: Iterable[int]) -> dict[str, int | None]:
    """The parameters ``_PLAYERS`` of a statement for ``players`` (three at most), absent ones null."""
    given: list[int | None] = [*(int(p) for p in players), None, None, None]
    return dict(zip(_PLAYERS, given, strict=False))


_BOOKS = (
    select(
        _LEAGUES.c.streaks_stale,
        _LEAGUES.c.ratings_stale,
        _LEAGUES.c.rated_through,
        _RATINGS.c.player_id,
        _RATINGS.c.mu,
        _RATINGS.c.sigma,
    )
    .select_from(
        _LEAGUES.outerjoin(
            _RATINGS,
            and_(
                _RATINGS.c.league_id == _LEAGUES.c.id,
                _RATINGS.c.preset == bindparam("preset"),
                # three players at most (R8, R28, R36), absent ones null (which no row matches):
                # a statement compiled once, not rendered again for each hand as an expanding IN is
                _RATINGS.c.player_id.in_([bindparam(name, type_=Integer) for name in _PLAYERS]),
            ),
        )
    )
    .where(_LEAGUES.c.id == bindparam("league_id"))
)
_SET_RATING = Statement(
    update(_RATINGS)
    .where(
        _RATINGS.c.league_id == bindparam("b_league_id"),
        _RATINGS.c.preset == bindparam("b_preset"),
        _RATINGS.c.player_id == bindparam("b_player_id"),
    )
    .values(
        mu=bindparam("b_mu", type_=_RATINGS.c.mu.type),
        sigma=bindparam("b_sigma", type_=_RATINGS.c.sigma.type),
        hands_rated=_RATINGS.c.hands_rated + ONE,
    )
)
_NEW_RATING = Statement(insert(_RATINGS))

Rating = tuple[float, float]


def hand_appended(recorded: Recorded | RecordedTwoPlayer) -> None:
    """The league's books after one more hand of one of its games, of any
    preset: its figures, streaks, ratings and history version, in a few
    Core statements on the write's connection (every hand a club records
    comes this way)."""
    assert recorded.delta is not None  # a hand of a league's game adds to its figures
    hand_added(recorded.game, recorded.hand.number, recorded.record, recorded.delta)


def hand_added(
    game: GameView, number: int, record: HandRecord | TwoPlayerHand | CutthroatHand, delta: dict[PlayerId, Figures]
) -> None:
    """The league's books after hand ``number`` of ``game`` (the game as it
    is with it), which adds ``delta`` to its players' figures."""
    assert game.league_id is not None
    league_id = int(game.league_id)
    preset, players = _rated(game, record)
    params = {"league_id": league_id, "preset": preset, **_players(players)}
    rows = session_connection().execute(_BOOKS, params).all()
    assert rows  # the league's row, with its players' rating rows if any
    streaks_stale, ratings_stale, rated_through = rows[0][:3]
    add_figures("league_player", league_id, delta)
    if game.winner is not None and not streaks_stale:
        streaks_stale = not _extend_streaks(league_id, game, game.winner)
    elif game.winner is None and game.status == "finished":
        streaks_stale = True  # R34: a match that ends even, won by none: the next read recounts
    moved = {"league_id": league_id, "b_streaks_stale": streaks_stale}
    if not ratings_stale and _follows(rated_through, game, number):
        if players:
            known = {row.player_id: (row.mu, row.sigma) for row in rows if row.player_id is not None}
            _rate(league_id, preset, record, known)
        _RATED_THROUGH.execute({**moved, "b_rated_through": _position(game, number)})
    else:
        _RATINGS_STALE.execute(moved)


def _rated(game: GameView, record: HandRecord | TwoPlayerHand | CutthroatHand) -> tuple[str, list[int]]:
    """The preset a hand is rated under, and the players it rates: the box,
    the captain and the sitter of a three-handed hand; the dealer and the
    non-dealer of a two-player or cutthroat one (R36); none for a draw,
    which does not rate."""
    if isinstance(record, HandRecord):
        r = record.roles
        return THREE_HANDED, [] if won_by_box(record) is None else [int(r.box), int(r.captain), int(r.sitter)]
    preset = game.preset_rules.preset.value
    if record.winner is None:
        return preset, []
    return preset, [int(record.seating.dealer), int(record.seating.non_dealer)]


_MEMBERS = LeaguePlayer.__table__
#: the streaks of a finished game's players (three at most, R8, R28, R36; absent ones null)
_STREAKS = Statement(
    select(
        _MEMBERS.c.player_id,
        _MEMBERS.c.current_streak,
        _MEMBERS.c.longest_streak,
        _MEMBERS.c.streak_played_at,
        _MEMBERS.c.streak_game_id,
    ).where(
        _MEMBERS.c.league_id == bindparam("league_id"),
        _MEMBERS.c.player_id.in_([bindparam(name, type_=Integer) for name in _PLAYERS]),
    )
)
_SET_STREAK = Statement(
    update(_MEMBERS)
    .where(_MEMBERS.c.league_id == bindparam("b_league_id"), _MEMBERS.c.player_id == bindparam("b_player_id"))
    .values(
        current_streak=bindparam("b_current", type_=Integer),
        longest_streak=bindparam("b_longest", type_=Integer),
        streak_played_at=bindparam("b_played_at", type_=_MEMBERS.c.streak_played_at.type),
        streak_game_id=bindparam("b_game_id", type_=Integer),
    )
)


def _extend_streaks(league_id: int, game: GameView, winner: int) -> bool:
    """Each player's streak after the game ``winner`` won, in two Core
    statements; False, and nothing changed, when a game finished out of
    played_at order (the next read recounts)."""
    rows = _STREAKS.all({"league_id": league_id, **_players(game.players)})
    if any(
        row["streak_played_at"] is not None
        and (row["streak_played_at"], row["streak_game_id"] or 0) >= (game.played_at, game.id)
        for row in rows
    ):
        return False
    changed = []
    for row in rows:
        current = row["current_streak"] + 1 if row["player_id"] == winner else 0
        changed.append(
            {
                "b_league_id": league_id,
                "b_player_id": row["player_id"],
                "b_current": current,
                "b_longest": max(row["longest_streak"], current),
                "b_played_at": game.played_at,
                "b_game_id": game.id,
            }
        )
    _SET_STREAK.execute_many(changed)
    return True


def _rate(
    league_id: int, preset: str, record: HandRecord | TwoPlayerHand | CutthroatHand, known: dict[int, Rating]
) -> None:
    """The ratings after one rated hand, from those of its players rated
    before (``known``; a player's first rated hand starts from MU, SIGMA):
    the box against the captain and the sitter; a two-player or cutthroat
    hand's dealer against its non-dealer (R27, R28, R36)."""
    if isinstance(record, HandRecord):
        r = record.roles
        players = [int(r.box), int(r.captain), int(r.sitter)]
        box, captain, sitter = (known.get(p, (MU, SIGMA)) for p in players)
        after = dict(zip(players, rate_hand(box, captain, sitter, bool(won_by_box(record))), strict=True))
    else:
        players = [int(record.seating.dealer), int(record.seating.non_dealer)]
        rated = rate_log(
            [(players[0], players[1], None, record.winner is Seat.DEALER)],
            {p: [*known.get(p, (MU, SIGMA)), 0] for p in players},
        )
        after = {p: (rated[p][0], rated[p][1]) for p in players}
    _set_ratings(league_id, preset, set(known), after)


def _set_ratings(league_id: int, preset: str, known: set[int], after: dict[int, Rating]) -> None:
    """Store the ratings after one more rated hand: the rows of those rated
    before (``known``) updated, the others' made."""
    changed = [
        {"b_league_id": league_id, "b_preset": preset, "b_player_id": p, "b_mu": mu, "b_sigma": sigma}
        for p, (mu, sigma) in after.items()
        if p in known
    ]
    _SET_RATING.execute_many(changed)
    new = [
        {"league_id": league_id, "preset": preset, "player_id": p, "mu": mu, "sigma": sigma, "hands_rated": 1}
        for p, (mu, sigma) in after.items()
        if p not in known
    ]
    _NEW_RATING.execute_many(new)


def figures_of(game: Game) -> dict[PlayerId, Figures]:
    """The game's per-player figures as its rows hold them now."""
    return {int(row.player_id): Figures(**{n: getattr(row, n) for n in FIGURE_FIELDS}) for row in game.figures}


def figures_moved(before: dict[PlayerId, Figures], game: Game) -> dict[PlayerId, Figures]:
    """What the game's rows gained since ``before`` (figures_of), player by player."""
    moved = {}
    for player, after in figures_of(game).items():
        was = before.get(player, Figures())
        moved[player] = Figures(**{n: getattr(after, n) - getattr(was, n) for n in FIGURE_FIELDS})
    return moved


def game_started(game: Game) -> None:
    """A new game of the league: its players' totals gain its rows' figures
    (a game not yet begun: one game played each), in one statement, without
    recounting their history as a rewritten game's do (every member has his
    row from the day he joined)."""
    assert game.league_id is not None
    add_figures("league_player", game.league_id, {row.player_id: row for row in game.figures})


def game_rewritten(game: Game, *, history: bool = True, result_changed: bool = True) -> None:
    """After a full replay of a league game (created, corrected, undone,
    imported): its players' totals recounted; ratings stale when its history
    changed, and streaks too when its result did (finished or not, and by
    whom: all a streak of games won sees of it)."""
    league = db.session.get(League, game.league_id)
    assert league is not None
    db.session.flush()
    refresh_totals(league.id, game.players)
    if history:
        league.history_version = (league.history_version or 0) + 1
        league.ratings_stale = True
        if result_changed:
            league.streaks_stale = True
