"""A league's whole history as JSON (and CSV), and back.

The JSON holds every game with its ``played_at``, cut, rules and every hand
with its seating, input (canonical cards) and ruling exactly as stored, so an
import rebuilds the same league: exporting it again gives the same document
apart from ids. Rulings are never re-judged on import (R26: the record
stands); the game state is replayed from them.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from models.books import refresh_totals
from models.database import db
from models.game import Game, Hand, Player
from models.league import League, LeagueMember
from referee import GameStateError, RefereeError, Roles, Rules, replay, score

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
            scored_by = h.record().scorer
            scorer = None if scored_by is None else int(scored_by)
            scores = h.scores_after
            writer.writerow([game.id, _iso(game.played_at), h.number, h.mode, h.box, names.get(h.box), h.captain,
                             names.get(h.captain), h.sitter, names.get(h.sitter), h.knocker or "", h.outcome,
                             scorer if scorer is not None else "", names.get(scorer) if scorer is not None else "",
                             h.points, scores.get(str(h.box)), scores.get(str(h.captain)), scores.get(str(h.sitter)),
                             "true" if h.seating_follows else "false"])
    return out.getvalue()


class ImportDocumentError(ValueError):
    """An import document that cannot be rebuilt; ``field`` names where."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def _verify_score(h: dict[str, Any], rules: Rules, field: str) -> None:
    """A stored ruling's points must follow from its own counts (R16-R18):
    rulings are not re-judged from the cards, but they cannot be made up."""
    ruling = h["ruling"]
    if ruling["outcome"] == "draw":
        return
    k, d = ruling["knocker"]["deadwood_count"], ruling["defender"]["deadwood_count"]
    if h["mode"] == "counts" and (h["input"].get("knocker_deadwood_count"), h["input"].get(
            "defender_deadwood_count")) != (k, d):
        raise ImportDocumentError(f"{field}.ruling", "the ruling's counts are not the hand's counts")
    expected = score(k, d, rules, gin=ruling["outcome"] == "gin")
    if (expected.outcome.value, expected.scorer and expected.scorer.value, expected.points) != (
            ruling["outcome"], ruling["scorer"], ruling["points"]):
        raise ImportDocumentError(f"{field}.ruling", f"deadwood {k} against {d} scores {expected.points} to the "
                           f"{expected.scorer}, not {ruling['points']} to the {ruling['scorer']}")


def import_league(doc: dict[str, Any]) -> League:
    """Rebuild a league from a validated export document (schemas.transfer).
    Adds to the session; the caller commits (or rolls back on error)."""
    league = League(name=doc["league"]["name"])
    db.session.add(league)
    ids: dict[int, int] = {}
    new_players = [Player(name=p["name"]) for p in doc["players"]]
    db.session.add_all(new_players)
    db.session.flush()
    for p, row in zip(doc["players"], new_players, strict=True):
        if p["id"] in ids:
            raise ImportDocumentError("players", f"player id {p['id']} appears twice")
        ids[p["id"]] = row.id
    db.session.add_all(LeagueMember(league_id=league.id, player_id=pid) for pid in ids.values())

    def player(old: int, field: str) -> int:
        if old not in ids:
            raise ImportDocumentError(field, f"player {old} is not one of the league's players")
        return ids[old]

    for gi, g in enumerate(doc["games"]):
        field = f"games[{gi}]"
        players = [player(p, f"{field}.players") for p in g["players"]]
        if len(set(players)) != 3:
            raise ImportDocumentError(f"{field}.players", "a game has three different players")
        first = {k: player(v, f"{field}.first_roles.{k}") for k, v in g["first_roles"].items()}
        try:
            first_roles = Roles(**first)
        except RefereeError as err:
            raise ImportDocumentError(f"{field}.first_roles", err.message) from None
        try:
            rules = Rules.from_options(g["rules"])
        except RefereeError as err:
            raise ImportDocumentError(f"{field}.{err.field or 'rules'}", err.message) from None
        if sorted(first.values()) != sorted(players):
            raise ImportDocumentError(f"{field}.first_roles", "roles must be the game's players")
        cut = None if g["cut"] is None else {str(player(int(k), f"{field}.cut")): v for k, v in g["cut"].items()}
        game = Game(players=players, rules=rules.as_dict(), cut=cut, first_box=first_roles.box,
                    first_captain=first_roles.captain, first_sitter=first_roles.sitter,
                    league_id=league.id, played_at=g["played_at"], version=0)
        for hi, h in enumerate(g["hands"]):
            hfield = f"{field}.hands[{hi}]"
            if h["number"] != hi + 1:
                raise ImportDocumentError(f"{hfield}.number", f"hands must be numbered 1, 2, ... (got {h['number']})")
            seating = {k: player(v, f"{hfield}.seating.{k}") for k, v in h["seating"].items()}
            if sorted(seating.values()) != sorted(players):
                raise ImportDocumentError(f"{hfield}.seating", "the seating must be the game's three players")
            hand = Hand(number=h["number"], mode=h["mode"], knocker=h["knocker"], input=h["input"],
                        ruling=h["ruling"], recorded_at=h["recorded_at"], corrected_at=h["corrected_at"], **seating)
            ruling = h["ruling"]
            hand.outcome, hand.scorer, hand.points = ruling["outcome"], ruling["scorer"], ruling["points"]
            _verify_score(h, rules, hfield)
            hand.knocker_deadwood = ruling["knocker"]["deadwood_count"] if h["mode"] == "cards" else None
            game.hands.append(hand)
        try:
            state = replay(rules, first_roles, game.records())
        except GameStateError as err:
            raise ImportDocumentError(f"{field}.hands", err.message) from None
        old_scores = {str(player(int(k), f"{field}.scores")): v for k, v in g["scores"].items()}
        db.session.add(game)
        game.apply(state)
        if old_scores != game.scores:
            raise ImportDocumentError(f"{field}.scores", f"the hands add up to {game.scores}, not {old_scores}")
    db.session.flush()
    refresh_totals(league.id, ids.values())
    league.history_version = 1
    league.ratings_stale = league.streaks_stale = True
    return league
