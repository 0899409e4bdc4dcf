"""The books checked against the hand logs, which are the only truth (R26).

Recording the next hand moves the books by that one hand (models.game
``record_hand``, models.books ``hand_appended``); a correction, an undo or an
import recounts them from the log (``Game.apply``, ``books.game_rewritten``,
models.standings). Here everything stored is recounted from each game's hand
log alone (every hand's seating, knocker and ruling, never its derived
columns) with the referee, and compared with what is stored:

* each hand's derived columns (outcome, scorer, points, knocker deadwood),
  its running ``scores_after`` and its ``seating_follows`` mark;
* each game's scores, roles, winner, status, hands played and R26 marks;
* each game's per-player figures (``game_player``);
* each league member's totals (``league_player``), his streaks unless the
  league marks them stale, and the ratings (``league_rating``, to 1e-9) with
  the position they are rated through.

Stale streaks are not compared: the next read recounts them from the
per-game figures, which are. Stale ratings are compared as the next read
would store them (``rate_league``, what ``refresh_ratings`` stores) against
the recount, without storing them: checking the books never writes. A
two-player game (R28) is recounted by the two-player fold, and each
preset's ratings on their own (R27).

Each difference is one line: where (the league, game, hand or player), the
field, the stored and the recounted value.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Row, select, true

from models.database import db
from models.figures import FIGURE_FIELDS, THREE_HANDED, GamePlayer, kept_figures
from models.game import Game, GameRow, Hand, PresetHand, PresetState, preset_columns, replay_preset, ruled_score
from models.league import League, LeagueMember, LeaguePlayer, LeagueRating
from models.ratings import rate_hands, rate_log
from models.standings import rate_league
from referee import GameState, GameStateError, HandRecord, Outcome, RefereeError, Role, Roles, Score, Side, replay
from referee.cutthroat import CutthroatHand, CutthroatSeating
from referee.hollywood import HollywoodState
from referee.stats import Figures, streaks, two_player_game_figures
from referee.two_player import Seat, Seating, TwoPlayerHand

#: how far a stored rating may be from its recount
TOLERANCE = 1e-9


@dataclass
class Checked:
    """What a check found: one line per difference, and how much it read."""

    differences: list[str] = field(default_factory=list)
    games: int = 0
    hands: int = 0

    def differ(self, where: str, name: str, stored: Any, recounted: Any) -> None:
        if stored != recounted:
            self.differences.append(f"{where}: {name} stored {stored!r}, recounted {recounted!r}")

    def differ_float(self, where: str, name: str, stored: float, recounted: float) -> None:
        if not abs(stored - recounted) <= TOLERANCE:
            self.differences.append(f"{where}: {name} stored {stored!r}, recounted {recounted!r}")


@dataclass
class Stored:
    """A game as stored: its row, its hands' rows in order, its figure rows."""

    game: GameRow
    hands: list[Row[Any]] = field(default_factory=list)
    figures: list[Row[Any]] = field(default_factory=list)


@dataclass
class Recount:
    """One game recounted from its hand log: ``state`` and ``figures`` are
    None when the log itself cannot be replayed (said in the differences).
    A two-player game's (R28) records and state are the two-player fold's."""

    game: GameRow
    records: list[HandRecord] | list[PresetHand] | None
    state: GameState | PresetState | None
    figures: dict[int, Figures] | None

    @property
    def preset(self) -> str:
        """R27: the preset the game is played under."""
        return self.game.preset_rules.preset.value


_GAMES, _HANDS, _FIGURES = Game.__table__, Hand.__table__, GamePlayer.__table__


def stored_games(condition: ColumnElement[bool]) -> list[Stored]:
    """The games that meet ``condition``, by id, with their hands and figures
    (three statements, plain rows: a check reads every game there is)."""
    games = {
        row["id"]: Stored(GameRow.of(row))
        for row in db.session.execute(select(_GAMES).where(condition).order_by(_GAMES.c.id)).mappings()
    }
    ids = select(_GAMES.c.id).where(condition)
    for row in db.session.execute(
        select(_HANDS).where(_HANDS.c.game_id.in_(ids)).order_by(_HANDS.c.game_id, _HANDS.c.number)
    ):
        games[row.game_id].hands.append(row)
    for row in db.session.execute(
        select(_FIGURES).where(_FIGURES.c.game_id.in_(ids)).order_by(_FIGURES.c.game_id, _FIGURES.c.player_id)
    ):
        games[row.game_id].figures.append(row)
    return list(games.values())


# --- games ------------------------------------------------------------------------------------


def hand_record(hand: Row[Any]) -> HandRecord:
    """The hand as its log says: the seating as played, the knocker and the
    ruling, never the columns derived from them."""
    ruling = hand.ruling
    scorer = ruling["scorer"]
    score = Score(Outcome(ruling["outcome"]), None if scorer is None else Side(scorer), ruling["points"])
    deadwood = ruling["knocker"]["deadwood_count"] if hand.mode == "cards" else None
    return HandRecord(
        Roles(box=hand.box, captain=hand.captain, sitter=hand.sitter),
        None if hand.knocker is None else Role(hand.knocker),
        score,
        deadwood,
    )


def _records(stored: Stored, checked: Checked) -> list[HandRecord] | None:
    game = stored.game
    where = f"game {game.id}"
    checked.differ(where, "hand numbers", [h.number for h in stored.hands], list(range(1, len(stored.hands) + 1)))
    records: list[HandRecord] | None = []
    for hand in stored.hands:
        at = f"{where} hand {hand.number}"
        try:
            record = hand_record(hand)
        except (KeyError, TypeError, ValueError) as err:  # RefereeError is a ValueError
            checked.differences.append(f"{at}: the hand log cannot be read ({err!r})")
            records = None
            continue
        if sorted(record.roles.as_dict().values()) != sorted(game.players):
            checked.differences.append(
                f"{at}: seating {record.roles.as_dict()} is not the game's players {game.players}"
            )
            records = None
            continue
        checked.differ(at, "outcome", hand.outcome, record.score.outcome.value)
        checked.differ(at, "scorer", hand.scorer, None if record.score.scorer is None else record.score.scorer.value)
        checked.differ(at, "points", hand.points, record.score.points)
        checked.differ(at, "knocker_deadwood", hand.knocker_deadwood, record.knocker_deadwood)
        if records is not None:
            records.append(record)
    return records


def recount_game(stored: Stored, checked: Checked) -> Recount:
    """Recount one game from its hand log and compare everything stored on
    the game, its hands and its figures."""
    game = stored.game
    checked.games += 1
    checked.hands += len(stored.hands)
    if game.two_player:
        return _recount_two_player(stored, checked)
    where = f"game {game.id}"
    records = _records(stored, checked)
    if records is None:
        return Recount(game, None, None, None)
    try:
        state = replay(game.rule_options, game.first_roles, records)
    except (GameStateError, RefereeError) as err:  # hands after the win (R20, R26), or bad rules
        checked.differences.append(f"{where}: the hand log cannot be replayed ({err})")
        return Recount(game, records, None, None)
    scores = {str(p): n for p, n in state.scores.items()}
    for scorer in sorted(set(game.scores) | set(scores), key=_player_order):
        checked.differ(where, f"scores[{scorer}]", game.scores.get(scorer), scores.get(scorer))
    checked.differ(
        where,
        "roles",
        game.roles,
        None if state.roles is None else {k: int(v) for k, v in state.roles.as_dict().items()},
    )
    checked.differ(where, "winner", game.winner, None if state.winner is None else int(state.winner))
    checked.differ(where, "status", game.status, "finished" if state.finished else "in_progress")
    checked.differ(where, "hands_played", game.hands_played, state.hands_played)
    checked.differ(where, "out_of_turn", list(game.out_of_turn), list(state.out_of_turn))
    for hand, running in zip(stored.hands, state.running, strict=True):
        at = f"{where} hand {hand.number}"
        after = {str(p): n for p, n in running.items()}
        for seat in sorted(set(hand.scores_after) | set(after), key=_player_order):
            checked.differ(at, f"scores_after[{seat}]", hand.scores_after.get(seat), after.get(seat))
        checked.differ(at, "seating_follows", hand.seating_follows, hand.number not in state.out_of_turn)
    figures = {int(p): f for p, f in kept_figures(game.league_id, records, game.players, state.winner).items()}
    _compare_figures(stored, figures, checked)
    return Recount(game, records, state, figures)


def two_player_record(hand: Row[Any]) -> tuple[PresetHand, int | None]:
    """A two-player hand as its log says (R28): the seating as played (its
    dealer kept as the row's box, its non-dealer as its captain, and in
    cutthroat its sitter, R36), the knocker and the ruling; and the
    knocker's deadwood when entered by cards."""
    deadwood = hand.ruling["knocker"]["deadwood_count"] if hand.mode == "cards" else None
    knocker = None if hand.knocker is None else Seat(hand.knocker)
    score = ruled_score(hand.ruling)
    if hand.sitter is not None:
        return CutthroatHand(CutthroatSeating(hand.box, hand.captain, hand.sitter), knocker, score), deadwood
    return TwoPlayerHand(Seating(hand.box, hand.captain), knocker, score), deadwood


def _recount_two_player(stored: Stored, checked: Checked) -> Recount:
    """Recount a two-player game (R28-R31) from its hand log, as ``recount_game`` does a three-handed one."""
    game = stored.game
    where = f"game {game.id}"
    checked.differ(where, "hand numbers", [h.number for h in stored.hands], list(range(1, len(stored.hands) + 1)))
    log: list[tuple[PresetHand, int | None]] = []
    for hand in stored.hands:
        at = f"{where} hand {hand.number}"
        try:
            record, deadwood = two_player_record(hand)
        except (KeyError, TypeError, ValueError) as err:  # RefereeError is a ValueError
            checked.differences.append(f"{at}: the hand log cannot be read ({err!r})")
            return Recount(game, None, None, None)
        seated = [hand.box, hand.captain] + ([] if hand.sitter is None else [hand.sitter])
        if sorted(seated) != sorted(game.players):
            checked.differences.append(f"{at}: seating {record.seating.as_dict()} is not the game's players")
            return Recount(game, None, None, None)
        score = record.score
        checked.differ(at, "outcome", hand.outcome, score.outcome.value)
        checked.differ(at, "scorer", hand.scorer, None if score.scorer is None else score.scorer.value)
        checked.differ(at, "points", hand.points, score.points)
        checked.differ(at, "knocker_deadwood", hand.knocker_deadwood, deadwood)
        log.append((record, deadwood))
    records = [record for record, _ in log]
    try:
        state = replay_preset(game.preset_rules, game.first_seating, records)
    except (GameStateError, RefereeError) as err:  # hands after the win (R30, R34, R26)
        checked.differences.append(f"{where}: the hand log cannot be replayed ({err})")
        return Recount(game, records, None, None)
    columns = preset_columns(game.preset_rules, state)
    for name in ("scores", "roles", "winner", "hands_played", "out_of_turn", "boxes", "result"):
        checked.differ(where, name, getattr(game, name), columns[name])
    # R34: a match's columns (the marks of its last correction are not in the log)
    sheet = game.sheet if not isinstance(state, HollywoodState) else {"columns": (game.sheet or {}).get("columns")}
    checked.differ(where, "sheet", sheet, columns["sheet"])
    checked.differ(where, "status", game.status, "finished" if state.finished else "in_progress")
    entered = state.entered if isinstance(state, HollywoodState) else None
    for i, (hand, running) in enumerate(zip(stored.hands, state.running, strict=True)):
        at = f"{where} hand {hand.number}"
        checked.differ(at, "scores_after", hand.scores_after, {str(p): n for p, n in running.items()})
        checked.differ(at, "seating_follows", hand.seating_follows, hand.number not in state.out_of_turn)
        checked.differ(at, "columns", hand.columns, None if entered is None else list(entered[i]))
    if game.league_id is None:
        kept = kept_figures(None, [], game.players, None)
    else:
        kept = two_player_game_figures(log, game.players, state.winner, finished=state.finished)
    figures = {int(p): f for p, f in kept.items()}
    _compare_figures(stored, figures, checked)
    return Recount(game, records, state, figures)


def _compare_figures(stored: Stored, figures: dict[int, Figures], checked: Checked) -> None:
    """A game's ``game_player`` rows against its recounted figures."""
    game = stored.game
    where = f"game {game.id}"
    rows = {row.player_id: row for row in stored.figures}
    for player in sorted(set(rows) | set(figures)):
        at = f"{where} player {player}"
        row, recounted = rows.get(player), figures.get(player)
        if row is None or recounted is None:
            checked.differ(at, "game_player row", _presence(row), _presence(recounted))
            continue
        for name in FIGURE_FIELDS:
            checked.differ(at, f"game_player.{name}", getattr(row, name), getattr(recounted, name))
        checked.differ(at, "game_player.league_id", row.league_id, game.league_id)
        checked.differ(at, "game_player.played_at", row.played_at, game.played_at)
        checked.differ(at, "game_player.preset", row.preset, game.preset_rules.preset.value)


def _player_order(player: str) -> tuple[int, str]:
    return (int(player), "") if player.isdigit() else (0, player)


def _presence(row: object) -> str:
    return "missing" if row is None else "present"


# --- leagues ----------------------------------------------------------------------------------


def _hand_key(record: HandRecord | PresetHand) -> tuple[Any, ...]:
    """A hand as models.standings._league_hands orders games with the same played_at: by
    content (a two-player hand's dealer and non-dealer as its box and captain, R28, and a
    cutthroat hand's sitter as its sitter, R36)."""
    if isinstance(record, HandRecord):
        seats: tuple[Any, ...] = (record.roles.box, record.roles.captain, record.roles.sitter)
    else:
        seating = record.seating
        seats = (seating.dealer, seating.non_dealer, seating.sitter if isinstance(seating, CutthroatSeating) else None)
    return tuple(
        "" if v is None else v
        for v in (
            *seats,
            None if record.knocker is None else record.knocker.value,
            record.score.outcome.value,
            None if record.score.scorer is None else record.score.scorer.value,
            record.score.points,
        )
    )


def rating_order(
    recounts: Iterable[Recount],
) -> tuple[list[tuple[str, HandRecord | PresetHand]], dict[str, Any] | None]:
    """The league's hands in rating order (models.standings.rate_league),
    each with its game's preset (R27): games by played_at, those with the
    same played_at by their hands' content (then id), and each game's hands
    by number; and the position of the last hand."""
    games = sorted((r for r in recounts if r.records), key=lambda r: (r.game.played_at, r.game.id))
    games.sort(key=lambda r: (r.game.played_at, [_hand_key(h) for h in r.records or []]))
    log = [(r.preset, record) for r in games for record in r.records or []]
    last = (
        None
        if not games
        else {
            "played_at": games[-1].game.played_at,
            "game_id": games[-1].game.id,
            "hands": len(games[-1].records or []),
        }
    )
    return log, last


def _position(rated: dict[str, Any] | None) -> dict[str, Any] | None:
    """A stored ``rated_through`` with its instant read back, to compare instants, not spellings."""
    if rated is None or not isinstance(rated.get("played_at"), str):
        return rated
    return {**rated, "played_at": datetime.fromisoformat(rated["played_at"])}


def check_league(league: League, games: list[Stored], checked: Checked) -> None:
    """Recount every game of the league (``games``), then its members' totals,
    streaks and ratings."""
    where = f"league {league.id}"
    recounts = [recount_game(game, checked) for game in games]
    members = set(db.session.scalars(select(LeagueMember.player_id).where(LeagueMember.league_id == league.id)))
    totals = {p: Figures() for p in members}
    finished: dict[int, list[tuple[bool, Recount]]] = {p: [] for p in members}
    for recount in sorted(recounts, key=lambda r: (r.game.played_at, r.game.id)):
        for player, figures in (recount.figures or {}).items():
            totals.setdefault(player, Figures()).add(figures)
        if recount.state is not None and recount.state.finished:  # R34: a match may end even, won by none
            for player in recount.game.players:
                finished.setdefault(int(player), []).append((int(player) == recount.state.winner, recount))
    books = {
        row.player_id: row
        for row in db.session.scalars(select(LeaguePlayer).where(LeaguePlayer.league_id == league.id))
    }
    for player in sorted(set(books) | members):
        at = f"{where} player {player}"
        row = books.get(player)
        if row is None or player not in members:  # a row for each member, and only for members
            checked.differ(at, "league_player row", _presence(row), _presence(player in members or None))
            continue
        recounted = totals[player]
        for name in FIGURE_FIELDS:
            checked.differ(at, f"league_player.{name}", getattr(row, name), getattr(recounted, name))
        if league.streaks_stale:
            continue  # the next read recounts them from game_player, compared above
        results = finished.get(player, [])
        current, longest = streaks(won for won, _ in results)
        checked.differ(at, "current_streak", row.current_streak, current)
        checked.differ(at, "longest_streak", row.longest_streak, longest)
        last = results[-1][1].game if results else None
        checked.differ(at, "streak_played_at", row.streak_played_at, None if last is None else last.played_at)
        checked.differ(at, "streak_game_id", row.streak_game_id, None if last is None else last.id)
    _check_ratings(league, recounts, checked)


def _check_ratings(league: League, recounts: list[Recount], checked: Checked) -> None:
    where = f"league {league.id}"
    log, last = rating_order(recounts)
    recounted = _rate_by_preset(log)
    if league.ratings_stale:
        # what the next read's refresh_ratings would store
        refreshed, refresh_last = rate_league(league.id)
        stored = {
            (preset, p): (mu, sigma, int(n))
            for preset, ratings in refreshed.items()
            for p, (mu, sigma, n) in ratings.items()
        }
        prefix, rated_through = "refreshed ", _position(refresh_last)
    else:
        stored = {
            (preset, p): (mu, sigma, n)
            for preset, p, mu, sigma, n in db.session.execute(
                select(
                    LeagueRating.preset,
                    LeagueRating.player_id,
                    LeagueRating.mu,
                    LeagueRating.sigma,
                    LeagueRating.hands_rated,
                ).where(LeagueRating.league_id == league.id)
            )
        }
        prefix, rated_through = "", _position(league.rated_through)
    checked.differ(where, prefix + "rated_through", rated_through, last)
    for preset, player in sorted(set(stored) | set(recounted)):
        at = f"{where} player {player}" + ("" if preset == THREE_HANDED else f" ({preset})")
        row, recount = stored.get((preset, player)), recounted.get((preset, player))
        if row is None or recount is None:
            checked.differ(at, prefix + "league_rating row", _presence(row), _presence(recount))
            continue
        checked.differ_float(at, prefix + "league_rating.mu", row[0], recount[0])
        checked.differ_float(at, prefix + "league_rating.sigma", row[1], recount[1])
        checked.differ(at, prefix + "league_rating.hands_rated", row[2], recount[2])


def _rate_by_preset(
    log: list[tuple[str, HandRecord | PresetHand]],
) -> dict[tuple[str, int], tuple[float, float, int]]:
    """Each (preset, player)'s rating over the log, each preset rated on its own (R27): a
    two-player or cutthroat hand (R28, R36) rates its dealer against its non-dealer."""
    three = [record for preset, record in log if isinstance(record, HandRecord)]
    rated = {(THREE_HANDED, int(p)): r for p, r in rate_hands(three).items()}
    two: dict[str, list[tuple[int, int, None, bool | None]]] = {}
    for preset, record in log:
        if not isinstance(record, HandRecord):
            winner = record.winner
            seating = record.seating
            won = None if winner is None else winner is Seat.DEALER
            two.setdefault(preset, []).append((int(seating.dealer), int(seating.non_dealer), None, won))
    for preset, hands in two.items():
        for p, (mu, sigma, n) in rate_log(hands).items():
            rated[preset, p] = (mu, sigma, int(n))
    return rated


# --- entry points -----------------------------------------------------------------------------


def check_books(*, league_id: int | None = None, game_id: int | None = None) -> Checked:
    """One league, one game, or (neither given) every league and every game
    outside a league."""
    checked = Checked()
    if game_id is not None:
        for game in stored_games(_GAMES.c.id == game_id):
            recount_game(game, checked)
        return checked
    by_league: dict[int | None, list[Stored]] = {}
    for game in stored_games(true() if league_id is None else _GAMES.c.league_id == league_id):
        by_league.setdefault(game.game.league_id, []).append(game)
    leagues = select(League).order_by(League.id)
    for league in db.session.scalars(leagues if league_id is None else leagues.where(League.id == league_id)):
        check_league(league, by_league.get(league.id, []), checked)
    for game in by_league.get(None, []):
        recount_game(game, checked)
    return checked


def verify_league(league_id: int) -> list[str]:
    """Every difference between the league's books and its hand logs; empty: they agree."""
    return check_books(league_id=league_id).differences


def verify_game(game_id: int) -> list[str]:
    """Every difference between a game's stored state and figures and its hand log."""
    return check_books(game_id=game_id).differences


def verify_books() -> list[str]:
    """Every difference in every league and every game outside a league."""
    return check_books().differences


@contextmanager
def snapshot() -> Iterator[None]:
    """Read the books as of one instant, while a server may be writing: one
    REPEATABLE READ transaction on a database server (SQLite's read
    transaction is a snapshot already), rolled back after."""
    db.session.rollback()
    if db.session.get_bind().dialect.name != "sqlite":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        yield
    finally:
        db.session.rollback()
