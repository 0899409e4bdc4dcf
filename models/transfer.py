"""A league's whole history as JSON (and CSV), and back.

The JSON holds every game with its ``played_at``, cut, rules and every hand
with its seating, input (canonical cards) and ruling exactly as stored, so an
import rebuilds the same league: exporting it again gives the same document
apart from ids. An import is judged before anything is written
(``api.judging.judge_league``: every hand's ruling re-derived from its input,
every game replayed, R26); this module writes what was judged.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from models.books import refresh_totals
from models.database import db
from models.game import Game, Hand, Player
from models.league import League, LeagueMember
from referee import GameState, Role, Roles, Rules, Score, replay
from referee.stats import Figures

FORMAT = "ginref.league"
FORMAT_VERSION = 1


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def league_games(league_id: int) -> list[Game]:
    return list(db.session.scalars(
        select(Game).where(Game.league_id == league_id).order_by(Game.played_at, Game.id)
        .options(selectinload(Game.hands))))


def export_league(league: League) -> dict[str, Any]:
    members = db.session.execute(
        select(Player.id, Player.name).join(LeagueMember, LeagueMember.player_id == Player.id)
        .where(LeagueMember.league_id == league.id).order_by(Player.id)).all()
    games = []
    for game in league_games(league.id):
        games.append({
            "id": game.id, "played_at": _iso(game.played_at), "players": game.players, "cut": game.cut,
            "first_roles": game.first_roles.as_dict(), "rules": game.rules, "status": game.status,
            "scores": game.scores, "winner": game.winner,
            "hands": [{"number": h.number, "mode": h.mode, "seating": h.seating.as_dict(), "knocker": h.knocker,
                       "input": h.input, "ruling": h.ruling, "recorded_at": _iso(h.recorded_at),
                       "corrected_at": _iso(h.corrected_at)} for h in game.hands],
        })
    return {"format": FORMAT, "format_version": FORMAT_VERSION,
            "league": {"id": league.id, "name": league.name},
            "players": [{"id": pid, "name": name} for pid, name in members],
            "games": games}


CSV_COLUMNS = ["game_id", "played_at", "hand", "mode", "box_id", "box", "captain_id", "captain", "sitter_id",
               "sitter", "knocker", "outcome", "scorer_id", "scorer", "points", "box_score", "captain_score",
               "sitter_score", "seating_follows"]


def export_csv(league: League) -> str:
    """One row per hand: roles, outcome, points and running scores."""
    names = dict(db.session.execute(
        select(Player.id, Player.name).join(LeagueMember, LeagueMember.player_id == Player.id)
        .where(LeagueMember.league_id == league.id)).all())
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in league_games(league.id):
        for h in game.hands:
            scorer = h.record().scorer
            scores = h.scores_after
            writer.writerow([game.id, _iso(game.played_at), h.number, h.mode, h.box, names.get(h.box), h.captain,
                             names.get(h.captain), h.sitter, names.get(h.sitter), h.knocker or "", h.outcome,
                             scorer if scorer is not None else "", names.get(scorer) if scorer is not None else "",
                             h.points, scores.get(str(h.box)), scores.get(str(h.captain)), scores.get(str(h.sitter)),
                             "true" if h.seating_follows else "false"])
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class ImportedHand:
    """A hand of an import as the referee judged it again from its input (in
    the document's player ids): the ruling is the referee's, the input its
    canonical form."""

    number: int
    seating: Roles
    knocker: Role | None
    score: Score
    mode: str
    input: dict[str, Any]
    ruling: dict[str, Any]
    recorded_at: datetime
    corrected_at: datetime | None


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A game of an import: its hands, and the replay of them (``state``,
    with the running scores) and its players' figures."""

    played_at: datetime
    players: list[int]
    rules: Rules
    cut: dict[int, str] | None
    first_roles: Roles
    hands: list[ImportedHand]
    state: GameState
    figures: dict[int, Figures]


@dataclass(frozen=True, slots=True)
class ImportedLeague:
    """A whole import document, judged: the league's name, its players
    (document id, name) and games."""

    name: str
    players: list[tuple[int, str]]
    games: list[ImportedGame]


def import_league(doc: ImportedLeague) -> League:
    """Write a judged import (see ``api.judging.judge_league``) as a new
    league with new ids for its players and games. Adds to the session; the
    caller commits (or rolls back)."""
    league = League(name=doc.name)
    db.session.add(league)
    new_players = [Player(name=name) for _, name in doc.players]
    db.session.add_all(new_players)
    db.session.flush()
    ids = {pid: row.id for (pid, _), row in zip(doc.players, new_players, strict=True)}
    db.session.add_all(LeagueMember(league_id=league.id, player_id=p) for p in ids.values())
    for g in doc.games:
        first = Roles(**_mapped(g.first_roles, ids))
        game = Game(players=[ids[p] for p in g.players], rules=g.rules.as_dict(),
                    cut=None if g.cut is None else {str(ids[p]): card for p, card in g.cut.items()},
                    first_box=first.box, first_captain=first.captain, first_sitter=first.sitter,
                    league_id=league.id, played_at=g.played_at, version=0)
        for h in g.hands:
            hand = Hand(number=h.number, recorded_at=h.recorded_at, corrected_at=h.corrected_at,
                        **_mapped(h.seating, ids))
            hand.set_result(h.knocker, h.score, h.input, h.ruling, h.mode)
            game.hands.append(hand)
        db.session.add(game)
        game.apply(replay(g.rules, first, game.records()), books=False)
    db.session.flush()
    refresh_totals(league.id, ids.values())
    league.history_version = 1
    league.ratings_stale = league.streaks_stale = True
    return league


def _mapped(roles: Roles, ids: dict[int, int]) -> dict[str, int]:
    return {"box": ids[int(roles.box)], "captain": ids[int(roles.captain)], "sitter": ids[int(roles.sitter)]}
