"""Leagues through HTTP (issue 4): standings, head to head, ratings, history,
export and import, members (R11, R12, R16-R20, R25, R26).

Every league here is built through the API only. Every expected figure is
worked out in this file, independently of the application, from the list of
hands the test submits:

* ``play`` seats each hand by R11 (R12 for draws) from the game's first roles,
  scores it (R16-R19, counts by R25) and finds the winner (R20);
* ``tally`` derives each player's standings figures from those hands;
* ``expected_ratings`` rates the hands with openskill (the box alone against
  the team of captain and sitter; the side of the hand's winner wins; draws do
  not rate), in the order of the games' ``played_at``, then hand number.

Players are written by initial: Ann (A), Bob (B), Cy (C), Dee (D); seatings
are (box, captain, sitter). Rule options: target 30 (R20), other defaults.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cmp_to_key
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openskill.models import PlackettLuce

from models import db
from models.league import League

BASE = "/api/v1"
PROBLEM_JSON = "application/problem+json"
INVALID = "https://ginref.org/problems/invalid-content"
TARGET = 30  # R20, as a rule option
GIN_BONUS = 25  # R18 default
UNDERCUT_BONUS = 10  # R17 default
NAMES = {"A": "Ann", "B": "Bob", "C": "Cy", "D": "Dee"}
CSV_COLUMNS = [
    "game_id",
    "played_at",
    "hand",
    "mode",
    "box_id",
    "box",
    "captain_id",
    "captain",
    "sitter_id",
    "sitter",
    "knocker",
    "outcome",
    "scorer_id",
    "scorer",
    "points",
    "box_score",
    "captain_score",
    "sitter_score",
    "seating_follows",
]


# --- hands, as submitted, with their results worked out by hand ---------------------------------------


@dataclass(frozen=True)
class Result:
    """One hand as submitted (``body``) and what the rules make of it."""

    body: dict[str, Any]
    mode: str  # counts, cards, draw
    knocker: str | None  # box, captain; None for a draw
    outcome: str  # knock, gin, undercut, draw
    points: int
    deadwood: int | None = None  # the knocker's deadwood, known for card-entered hands

    @property
    def winner(self) -> str | None:
        """R11: the knocker wins the hand, unless undercut (R17); nobody wins a draw (R12)."""
        if self.knocker is None:
            return None
        if self.outcome == "undercut":
            return "captain" if self.knocker == "box" else "box"
        return self.knocker


def counts(knocker: str, k: int, d: int) -> Result:
    """R25: a knock by counts, scored by R16-R18."""
    body = {"knocker": knocker, "knocker_deadwood_count": k, "defender_deadwood_count": d}
    if k == 0:
        return Result(body, "counts", knocker, "gin", d + GIN_BONUS)  # R18
    if k < d:
        return Result(body, "counts", knocker, "knock", d - k)  # R16
    return Result(body, "counts", knocker, "undercut", UNDERCUT_BONUS + k - d)  # R17


DRAW = Result({"outcome": "draw"}, "draw", None, "draw", 0)  # R12


def _cards(knocker: str, hands: tuple[str, str], outcome: str, points: int, deadwood: int) -> Result:
    body = {
        "knocker": knocker,
        "knocker_hand": {"cards": hands[0].split()},
        "defender_hand": {"cards": hands[1].split()},
    }
    return Result(body, "cards", knocker, outcome, points, deadwood)


# R18: the knocker holds AS-10S (gin, deadwood 0); the defender keeps AH 2H 3H, 4D 5D 6D,
# JC QC KC and may not lay off: 9H = 9. Gin scores 9 + 25 = 34.
GIN_34 = ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "AH 2H 3H 4D 5D 6D JC QC KC 9H")
# R24: the knocker spreads 4s 5s 6s as sets and keeps KC (10); nothing fits them, the
# defender keeps AH 2H 3H, 7H 8H 9H and 2S 3S 7S 8S = 20: the knocker scores 20 - 10 = 10.
KNOCK_10 = ("4H 5H 6H 4S 5S 6S 4D 5D 6D KC", "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")
# R17: the knocker keeps KC (10), the defender holds AC-10C (0): undercut, 10 + 10 = 20.
UNDERCUT_20 = ("AS 2S 3S 4H 5H 6H 7D 8D 9D KC", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C")
# R15/R16: the knocker keeps AS (1); the defender lays 8H 9H off onto 5H 6H 7H and keeps
# 3S 4C = 7: the knocker scores 7 - 1 = 6.
KNOCK_6 = ("5H 6H 7H 2S 2D 2C JS JD JC AS", "8H 9H 3D 4D 5D 8C 9C 10C 3S 4C")


def gin34(knocker: str) -> Result:
    return _cards(knocker, GIN_34, "gin", 34, 0)


def knock10(knocker: str) -> Result:
    return _cards(knocker, KNOCK_10, "knock", 10, 10)


def undercut20(knocker: str) -> Result:
    return _cards(knocker, UNDERCUT_20, "undercut", 20, 10)


def knock6(knocker: str) -> Result:
    return _cards(knocker, KNOCK_6, "knock", 6, 1)


def box(k: int, d: int) -> Result:
    return counts("box", k, d)


def cap(k: int, d: int) -> Result:
    return counts("captain", k, d)


# --- games: seating by R11, scores, winner --------------------------------------------------------------

Seat = tuple[str, str, str]  # (box, captain, sitter)


def rotate(seat: Seat, winner: str | None) -> Seat:
    """R11 (and R12: a draw leaves the roles as they are)."""
    box_, captain, sitter = seat
    if winner is None:
        return seat
    if winner == "box":
        return (box_, sitter, captain)  # the box stays; captain and sitter swap
    return (captain, sitter, box_)  # the captain goes into the box, the sitter becomes captain


@dataclass(frozen=True)
class Spec:
    """A game as the test submits it: first roles (or a cut, R9), hands, and
    whether the game is meant to end with its last hand (checked by ``play``)."""

    played_at: str
    first: Seat
    hands: list[Result]
    finished: bool
    cut: dict[str, str] | None = None


@dataclass(frozen=True)
class Played:
    """A game as played: each hand with the players who sat in each role (R26)."""

    played_at: datetime
    players: Seat
    first: Seat
    hands: tuple[tuple[Seat, Result], ...]

    @property
    def running(self) -> list[dict[str, int]]:
        """Scores after each hand; only the winner of a hand scores (R19)."""
        scores = dict.fromkeys(self.first, 0)
        out = []
        for seat, result in self.hands:
            if result.winner is not None:
                scores[seat[("box", "captain").index(result.winner)]] += result.points
            out.append(dict(scores))
        return out

    @property
    def winner(self) -> str | None:
        """R20: the first to reach the target, in hand order; there are no hands after."""
        for number, scores in enumerate(self.running, start=1):
            reached = [p for p, n in scores.items() if n >= TARGET]
            if reached:
                assert number == len(self.hands), f"the test's game {self.played_at} goes on after its win"
                return reached[0]
        return None

    @property
    def follows(self) -> list[bool]:
        """Whether each hand's seating follows from the hand before by R11 (R26)."""
        expected = self.first
        out = []
        for seat, result in self.hands:
            out.append(seat == expected)
            expected = rotate(seat, result.winner)
        return out

    def corrected(self, number: int, result: Result) -> Played:
        """Hand ``number`` re-judged; later hands keep the players who really played them (R26)."""
        hands = list(self.hands)
        hands[number - 1] = (hands[number - 1][0], result)
        return replace(self, hands=tuple(hands))


def stamp(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def play(spec: Spec) -> Played:
    seat = spec.first
    hands = []
    for result in spec.hands:
        hands.append((seat, result))
        seat = rotate(seat, result.winner)
    game = Played(stamp(spec.played_at), spec.first, spec.first, tuple(hands))
    assert (game.winner is not None) == spec.finished, spec
    return game


# The league: 23 games over ten weeks, mostly by counts (R25), with cards, draws (R12),
# gins (count 0) and undercuts. Comments: who scores what, and the seating after the hand.
LEAGUE: list[Spec] = [
    # A+20 (A,C,B); C+20 (C,B,A); B+20 (B,A,C); B gin +30 = 50: Bob wins.
    Spec("2024-01-03T19:00:00Z", ("A", "B", "C"), [box(2, 22), cap(1, 21), cap(3, 23), box(0, 5)], True),
    # draw (B,D,A); D+7 (D,A,B); A gin by cards as captain +34: Ann wins.
    Spec("2024-01-06T19:00:00Z", ("B", "D", "A"), [DRAW, cap(3, 10), gin34("captain")], True),
    # undercut: A+10 (A,D,C); A knocks 10 by cards, +10 = 20 (A,C,D); C undercut by A: +11 = 31: Ann wins.
    Spec("2024-01-09T19:00:00Z", ("C", "A", "D"), [box(5, 5), knock10("box"), cap(4, 3)], True),
    # A+22 (A,D,C); D+19 (D,C,A); D gin +30 = 49: Dee wins.
    Spec("2024-01-12T19:00:00Z", ("A", "C", "D"), [box(8, 30), cap(1, 20), box(0, 5)], True),
    # B+6 (B,A,C); draw; A undercut by B: B+10 = 16 (B,C,A). Not finished.
    Spec("2024-01-15T19:00:00Z", ("B", "C", "A"), [box(3, 9), DRAW, cap(2, 2)], False),
    # A undercut by cards: D+20 (D,B,A); B+18 (B,A,D); A gin +26 (A,D,B); A+4 = 30: Ann wins.
    Spec("2024-01-18T19:00:00Z", ("D", "A", "B"), [undercut20("captain"), cap(7, 25), cap(0, 1), box(6, 10)], True),
    # A+30 at once: Ann wins.
    Spec("2024-01-21T19:00:00Z", ("A", "B", "D"), [box(10, 40)], True),
    # C knocks by cards +6 (C,A,B); draw; A undercut by C: C+10 = 16 (C,B,A); B gin +45: Bob wins.
    Spec("2024-01-24T19:00:00Z", ("C", "B", "A"), [knock6("box"), DRAW, cap(9, 9), cap(0, 20)], True),
    # B+30: Bob wins.
    Spec("2024-01-27T19:00:00Z", ("B", "C", "D"), [box(1, 31)], True),
    # D+8 (D,C,A); D undercut by C: C+10 (C,A,D); C+20 = 30: Cy wins.
    Spec("2024-01-30T19:00:00Z", ("A", "D", "C"), [cap(2, 10), box(3, 3), box(4, 24)], True),
    # D gin by cards +34: Dee wins.
    Spec("2024-02-02T19:00:00Z", ("D", "B", "C"), [gin34("box")], True),
    # two draws; A+30: Ann wins.
    Spec("2024-02-05T19:00:00+01:00", ("B", "A", "C"), [DRAW, DRAW, cap(5, 35)], True),
    # C+18 (C,B,D); B undercut by C: C+10 = 28 (C,D,B); D knocks by cards +10 (D,B,C); D gin +25 = 35: Dee wins.
    Spec("2024-02-08T19:00:00Z", ("C", "D", "B"), [box(2, 20), cap(6, 6), knock10("captain"), box(0, 0)], True),
    # B+11 (B,C,A); C+19 (C,A,B); C+11 = 30: Cy wins.
    Spec("2024-02-11T19:00:00Z", ("A", "B", "C"), [cap(1, 12), cap(3, 22), box(2, 13)], True),
    # A+5 (A,D,C); draw. Not finished.
    Spec("2024-02-14T19:00:00Z", ("A", "C", "D"), [box(4, 9), DRAW], False),
    # B undercut by cards: D+20 (D,A,B); D+10 = 30: Dee wins.
    Spec("2024-02-17T19:00:00Z", ("B", "D", "A"), [undercut20("box"), box(3, 13)], True),
    # A+7 (A,D,B); A+20 = 27 (A,B,D); A+3 = 30: Ann wins.
    Spec("2024-02-20T19:00:00Z", ("A", "B", "D"), [box(2, 9), box(5, 25), box(1, 4)], True),
    # Cut (R9): K > 9 > 2, so Ann is in the box, Cy captain, Bob sits out.
    # A gin +28 (A,B,C); B+2 (B,C,A); C+27 (C,A,B); A+2 = 30: Ann wins.
    Spec(
        "2024-02-23T18:30:00-05:00",
        ("A", "C", "B"),
        [box(0, 3), cap(2, 4), cap(3, 30), cap(1, 3)],
        True,
        cut={"C": "9D", "A": "KH", "B": "2S"},
    ),
    # C gin +35: Cy wins.
    Spec("2024-02-26T19:00:00Z", ("D", "C", "B"), [cap(0, 10)], True),
    # D undercut by A: D+10 (D,B,A); D gin by cards +34 = 44: Dee wins.
    Spec("2024-03-01T19:00:00Z", ("A", "D", "B"), [box(7, 7), gin34("box")], True),
    # A+6 (A,D,B); draw; A+24 = 30: Ann wins.
    Spec("2024-03-04T19:00:00Z", ("B", "A", "D"), [cap(2, 8), DRAW, box(1, 25)], True),
    # A+27 (A,C,B); C+1 (C,B,A); C undercut by B: B+11 (B,A,C). Not finished.
    Spec("2024-03-07T19:00:00Z", ("A", "B", "C"), [box(3, 30), cap(4, 5), box(9, 8)], False),
    # D gin +40: Dee wins.
    Spec("2024-03-10T19:00:00Z", ("C", "D", "A"), [cap(0, 15)], True),
]

# The first game's last hand: Bob (box) went gin; corrected, he knocked with 10 against
# Ann's 0: undercut (R17), 10 + 10 = 20 to Ann, whose 20 + 20 = 40 wins the game instead.
FIRST_GAME_LAST_HAND = (0, 4, box(10, 0))
# The 17th game's first hand: Ann knocked 2 against Bob's 9 (+7); corrected, 5 against 5:
# undercut, Bob +10. Hands 2 and 3 keep their seating (hand 2 is now out of turn, R26);
# Ann ends on 20 + 3 = 23: the game she won is no longer finished.
SEVENTEENTH_GAME_FIRST_HAND = (16, 1, box(5, 5))


# --- figures worked out from the hands ------------------------------------------------------------------

COUNTED = [
    "games_played",
    "games_finished",
    "games_won",
    "total_points",
    "hands_played",
    "hands_sat_out",
    "hands_box",
    "hands_captain",
    "hands_sitter",
    "hands_won",
    "hands_won_box",
    "hands_won_captain",
    "gins",
    "undercuts_made",
    "undercuts_suffered",
    "knocks",
    # two-player presets' (R28, R29): none in a league of three-handed games
    "hands_dealer",
    "hands_non_dealer",
    "hands_won_dealer",
    "hands_won_non_dealer",
    "boxes",
]


def streaks(results: list[bool]) -> tuple[int, int]:
    current = longest = 0
    for won in results:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest


def tally(games: list[Played], players: list[str]) -> dict[str, dict[str, Any]]:
    """Each player's standings figures, without the rating."""
    rows = {p: dict.fromkeys(COUNTED, 0) for p in players}
    deadwood: dict[str, list[int]] = {p: [] for p in players}
    results: dict[str, list[bool]] = {p: [] for p in players}
    for game in sorted(games, key=lambda g: g.played_at):
        winner = game.winner
        for p in game.players:
            if p not in rows:
                continue
            rows[p]["games_played"] += 1
            if winner is not None:  # unfinished games count for hands and points only
                rows[p]["games_finished"] += 1
                rows[p]["games_won"] += p == winner
                results[p].append(p == winner)
        for seat, result in game.hands:
            at = dict(zip(("box", "captain", "sitter"), seat, strict=True))
            for role, p in at.items():
                if p in rows:
                    rows[p]["hands_played" if role != "sitter" else "hands_sat_out"] += 1  # R8
                    rows[p][f"hands_{role}"] += 1
            won = result.winner
            if won is not None and at[won] in rows:
                row = rows[at[won]]
                row["total_points"] += result.points
                row["hands_won"] += 1
                row[f"hands_won_{won}"] += 1
            if result.knocker is None:
                continue
            knocker = at[result.knocker]
            defender = at["captain" if result.knocker == "box" else "box"]
            if knocker in rows:
                rows[knocker]["knocks"] += 1
                rows[knocker]["gins"] += result.outcome == "gin"
                rows[knocker]["undercuts_suffered"] += result.outcome == "undercut"
                if result.deadwood is not None:
                    deadwood[knocker].append(result.deadwood)
            if defender in rows:
                rows[defender]["undercuts_made"] += result.outcome == "undercut"
    for p, row in rows.items():
        row["win_rate"] = row["games_won"] / row["games_finished"] if row["games_finished"] else None
        row["average_knocker_deadwood"] = sum(deadwood[p]) / len(deadwood[p]) if deadwood[p] else None
        row["average_points_per_hand_won"] = row["total_points"] / row["hands_won"] if row["hands_won"] else None
        row["current_streak"], row["longest_streak"] = streaks(results[p])
    return rows


def expected_ratings(games: list[Played], players: list[str]) -> dict[str, dict[str, Any]]:
    """openskill over the hands, in played_at then hand order; draws do not rate."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    rated = dict.fromkeys(players, 0)
    for game in sorted(games, key=lambda g: g.played_at):
        for seat, result in game.hands:
            if result.winner is None:
                continue
            for p in seat:
                ratings.setdefault(p, model.rating())
                rated[p] += 1
            box_, captain, sitter = seat
            ranks = [0, 1] if result.winner == "box" else [1, 0]
            [[ratings[box_]], [ratings[captain], ratings[sitter]]] = model.rate(
                [[ratings[box_]], [ratings[captain], ratings[sitter]]], ranks=ranks
            )
    out = {}
    for p in players:
        mu, sigma = (ratings[p].mu, ratings[p].sigma) if p in ratings else (model.mu, model.sigma)
        out[p] = {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma, "hands_rated": rated[p]}
    return out


def approx_rating(rating: dict[str, Any]) -> dict[str, Any]:
    return {k: (v if isinstance(v, int) else pytest.approx(v, rel=1e-12, abs=1e-12)) for k, v in rating.items()}


# --- the API ----------------------------------------------------------------------------------------------


@dataclass
class Built:
    """A league built through the API: ids by initial, and the games as played."""

    id: int
    key: str
    ids: dict[str, int]
    games: list[Played]
    game_ids: list[int]  # parallel to games
    initials: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.initials = {v: k for k, v in self.ids.items()}


class Api:
    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def write(self, method: str, path: str, body: Any, key: str | None = None, status: int = 201) -> Any:
        headers = {"If-Match": "*"}  # hands need the game's ETag when keys are required; any will do
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        response = self.client.open(BASE + path, method=method, json=body, headers=headers)
        assert response.status_code == status, response.get_data(as_text=True)
        return response.get_json()

    def get(self, path: str, status: int = 200, **query: Any) -> Any:
        response = self.client.get(BASE + path, query_string=query)
        assert response.status_code == status, response.get_data(as_text=True)
        return response.get_json()

    def player(self, name: str) -> int:
        return int(self.write("POST", "/players", {"name": name})["id"])

    def league(self, name: str, members: list[int]) -> dict[str, Any]:
        return self.write("POST", "/leagues", {"name": name, "members": members})

    def total(self, path: str) -> int:
        return int(self.get(path, per_page=1)["total"])

    def standings(self, league_id: int, **query: Any) -> list[dict[str, Any]]:
        return list(self.get(f"/leagues/{league_id}/standings", **query)["items"])

    def game_body(self, spec: Spec, ids: dict[str, int], league_id: int) -> dict[str, Any]:
        body: dict[str, Any] = {
            "players": [ids[p] for p in spec.first],
            "league_id": league_id,
            "played_at": spec.played_at,
            "rules": {"target_score": TARGET},
        }
        if spec.cut is None:
            body["roles"] = dict(zip(("box", "captain", "sitter"), (ids[p] for p in spec.first), strict=True))
        else:
            body["players"] = [ids[p] for p in spec.cut]
            body["cut"] = {str(ids[p]): card for p, card in spec.cut.items()}
        return body


def build(
    api: Api,
    specs: list[Spec],
    *,
    name: str = "Thursday gin",
    entry: list[int] | None = None,
    interleave: bool = False,
    misentered: tuple[int, int, Result] | None = None,
) -> Built:
    """Players, a league and its games through the API. Games are created in the
    order ``entry`` (default: as listed); with ``interleave`` their hands are
    recorded round-robin rather than game by game; ``misentered`` = (game, hand,
    wrong result) records that hand wrongly first and corrects it at the end."""
    ids = {p: api.player(n) for p, n in NAMES.items()}
    league = api.league(name, list(ids.values()))
    key = league.get("key")
    games = [play(s) for s in specs]
    game_ids = [0] * len(specs)
    order = entry if entry is not None else list(range(len(specs)))
    for i in order:
        created = api.write("POST", "/games", api.game_body(specs[i], ids, league["id"]), key)
        assert created["first_roles"] == dict(
            zip(("box", "captain", "sitter"), (ids[p] for p in specs[i].first), strict=True)
        )
        game_ids[i] = created["id"]

    def record(i: int, n: int) -> None:
        seat, result = games[i].hands[n]
        if misentered is not None and misentered[:2] == (i, n + 1):
            result = misentered[2]
        hand = api.write("POST", f"/games/{game_ids[i]}/hands", result.body, key)
        assert hand["number"] == n + 1
        assert hand["seating"] == dict(zip(("box", "captain", "sitter"), (ids[p] for p in seat), strict=True))
        assert (hand["mode"], hand["ruling"]["outcome"], hand["ruling"]["points"]) == (
            result.mode,
            result.outcome,
            result.points,
        )

    if interleave:
        for n in range(max(len(s.hands) for s in specs)):
            for i in order:
                if n < len(specs[i].hands):
                    record(i, n)
    else:
        for i in order:
            for n in range(len(specs[i].hands)):
                record(i, n)
    if misentered is not None:
        i, n, _ = misentered
        api.write("PUT", f"/games/{game_ids[i]}/hands/{n}", games[i].hands[n - 1][1].body, key, status=200)
    return Built(league["id"], key or "", ids, games, game_ids)


def by_initial(built: Built, rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {built.initials[r["player_id"]]: r for r in rows}


def check_standings(built: Built, rows: list[dict[str, Any]], games: list[Played] | None = None) -> None:
    """The standings equal the figures and ratings worked out from the hands, exactly."""
    games = built.games if games is None else games
    figures = tally(games, list(NAMES))
    ratings = expected_ratings(games, list(NAMES))
    assert sorted(r["player_id"] for r in rows) == sorted(built.ids.values())
    for p, row in by_initial(built, rows).items():
        expected = {"player_id": built.ids[p], "name": NAMES[p], **figures[p], "rating": approx_rating(ratings[p])}
        assert row == expected, p


def problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON
    body = response.get_json(force=True)
    assert body["status"] == status and body["title"] and body["detail"] and body["type"]
    return body


@pytest.fixture
def api(client: FlaskClient) -> Api:
    """This module's own shorthand (it overrides conftest's ``api``): it sends the
    league's key and ``If-Match: *`` with every write, so it works whether or not
    the app requires keys."""
    return Api(client)


@pytest.fixture
def league(api: Api) -> Built:
    return build(api, LEAGUE)


@pytest.fixture
def small(api: Api) -> Built:
    """The league's first six games, for tests that need a league but not all of it."""
    return build(api, LEAGUE[:6], name="Small")


# --- sorting and date ranges --------------------------------------------------------------------------

SORT_KEYS = [
    "rating",
    "games_won",
    "win_rate",
    "total_points",
    "games_played",
    "hands_won",
    "gins",
    "undercuts_made",
    "knocks",
    "average_points_per_hand_won",
    "average_knocker_deadwood",
    "longest_streak",
    "current_streak",
    "name",
]


def documented_order(rows: list[dict[str, Any]], sort: str, order: str) -> list[int]:
    """The documented order (models/standings.py sort_rows): by ``sort`` in ``order``,
    nulls last; ties: games won, then total points (both descending), then player id
    ascending, whatever the order asked."""

    def value(row: dict[str, Any]) -> Any:
        return row["rating"]["ordinal"] if sort == "rating" else row[sort]

    def compare(x: dict[str, Any], y: dict[str, Any]) -> int:
        vx, vy = value(x), value(y)
        if (vx is None) != (vy is None):
            return 1 if vx is None else -1
        if vx is not None and vx != vy:
            return (-1 if vx < vy else 1) * (1 if order == "asc" else -1)
        for a, b in (
            (y["games_won"], x["games_won"]),
            (y["total_points"], x["total_points"]),
            (x["player_id"], y["player_id"]),
        ):
            if a != b:
                return -1 if a < b else 1
        return 0

    return [r["player_id"] for r in sorted(rows, key=cmp_to_key(compare))]


# --- 1. standings, 2. head to head: one league of 23 games ------------------------------------------------


@pytest.fixture(scope="class")
def shared_league(app: Flask) -> Iterator[tuple[Api, Built]]:
    """The league, built once for a class of tests that only read it (none of them
    uses ``client``, whose teardown empties the database), emptied after them."""
    api = Api(app.test_client())
    yield api, build(api, LEAGUE)
    with app.app_context():  # as the client fixture does after each test
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


class TestOneLeagueOfTwentyThreeGames:
    """The tests that only read the league share it: it is built once per backend."""

    @pytest.fixture
    def api(self, shared_league: tuple[Api, Built]) -> Api:
        return shared_league[0]

    @pytest.fixture
    def league(self, shared_league: tuple[Api, Built]) -> Built:
        return shared_league[1]

    def test_the_league_has_four_players_and_twenty_three_games_with_cards_counts_draws_gins_and_undercuts(
        self, api: Api, league: Built
    ) -> None:
        info = api.get(f"/leagues/{league.id}")
        assert info["members"] == sorted(league.ids.values())
        assert info["games"] == len(LEAGUE) == 23
        results = [r for g in league.games for _, r in g.hands]
        modes = [r.mode for r in results]
        outcomes = [r.outcome for r in results]
        assert modes.count("cards") == 8 and modes.count("draw") == 7 and modes.count("counts") == 46
        assert outcomes.count("gin") == 11 and outcomes.count("undercut") == 10
        assert sum(1 for g in league.games if g.winner is None) == 3
        for game, game_id in zip(league.games, league.game_ids, strict=True):
            state = api.get(f"/games/{game_id}")
            assert state["scores"] == {str(league.ids[p]): n for p, n in game.running[-1].items()}
            assert state["winner"] == (None if game.winner is None else league.ids[game.winner])
            assert state["status"] == ("in_progress" if game.winner is None else "finished")
            assert (state["hands_played"], state["league_id"]) == (len(game.hands), league.id)
            assert stamp(state["played_at"]) == game.played_at

    def test_r11_r19_r20_standings_equal_every_figure_worked_out_from_the_hands(self, api: Api, league: Built) -> None:
        check_standings(league, api.standings(league.id))

    def test_r11_r19_r20_bobs_standings_worked_out_line_by_line(self, api: Api, league: Built) -> None:
        """Bob's hands, game by game, seated by R11 from the first roles (B = box, c = captain,
        s = sitter; + points he scored, k a knock of his, * a draw):

        g1  c s c+20k B+30k(gin)   won      g13 s c(k, undercut by Cy) s c              lost
        g2  B* B s                 lost     g14 c+11k B s                                lost
        g5  B+6k B* B+10(undercut) open     g16 B(k by cards, KC: undercut by Dee) s     lost
        g6  s c+18k B s            lost     g17 c s c                                    lost
        g7  c                      lost     g18 s c+2k B s                               lost
        g8  c s* s c+45k(gin)      won      g19 s                                        lost
        g9  B+30k                  won      g20 s c                                      lost
        g11 c                      lost     g21 B s* s                                   lost
        g12 B* B* B                lost     g22 c s c+11(undercut of Cy)                 open
        """
        bob = by_initial(league, api.standings(league.id))["B"]
        assert {k: v for k, v in bob.items() if k != "rating"} == {
            "player_id": league.ids["B"],
            "name": "Bob",
            "games_played": 18,
            "games_finished": 16,
            "games_won": 3,
            "win_rate": 3 / 16,
            "total_points": 20 + 30 + 6 + 10 + 18 + 45 + 30 + 11 + 2 + 11,
            "hands_played": 31,
            "hands_sat_out": 18,
            "hands_box": 15,
            "hands_captain": 16,
            "hands_sitter": 18,
            "hands_won": 10,
            "hands_won_box": 4,
            "hands_won_captain": 6,
            "knocks": 10,
            "gins": 2,
            "undercuts_suffered": 2,
            "undercuts_made": 2,
            "average_knocker_deadwood": 10.0,  # his only knock entered by cards: KC
            "average_points_per_hand_won": 18.3,
            # finished games in played_at order: W L L L W W L L L L L L L L L L
            "current_streak": 0,
            "longest_streak": 2,
            **dict.fromkeys(("hands_dealer", "hands_non_dealer", "hands_won_dealer", "hands_won_non_dealer"), 0),
            "boxes": 0,  # R28, R29: no two-player game in this league
        }
        assert bob["rating"]["hands_rated"] == 49 - 6  # draws do not rate: g2, g5, g8, g12 (2), g21

    def test_standings_sort_by_every_figure_both_ways_with_the_documented_tie_break(
        self, api: Api, league: Built
    ) -> None:
        default = api.get(f"/leagues/{league.id}/standings")
        assert (default["sort"], default["order"]) == ("rating", "desc")
        rows = default["items"]
        assert [r["player_id"] for r in rows] == documented_order(rows, "rating", "desc")
        ties = 0
        for sort in SORT_KEYS:
            for order in ("asc", "desc"):
                body = api.get(f"/leagues/{league.id}/standings", sort=sort, order=order)
                assert (body["sort"], body["order"]) == (sort, order)
                assert [r["player_id"] for r in body["items"]] == documented_order(rows, sort, order), (sort, order)
                values = [r[sort] for r in rows if sort not in ("rating", "name")]
                ties += len(values) != len(set(values))
        assert ties  # some figures tie in this league, so the tie-break is exercised
        bad = problem(api.client.get(f"{BASE}/leagues/{league.id}/standings?sort=luck"), 422)
        assert "query.sort" in bad["errors"]
        bad = problem(api.client.get(f"{BASE}/leagues/{league.id}/standings?order=up"), 422)
        assert "query.order" in bad["errors"]

    def test_standings_from_to_count_only_games_played_in_the_range(self, api: Api, league: Built) -> None:
        """``from`` is inclusive, ``to`` exclusive, on played_at, in any UTC offset."""
        ranges = [
            # games 6 to 13: from game 6's played_at (19:00Z, written in +01:00) to game 14's (excluded)
            ("2024-01-18T20:00:00+01:00", "2024-02-11T19:00:00Z", slice(5, 13)),
            # exactly game 12 (played at 2024-02-05T19:00:00+01:00)
            ("2024-02-05T18:00:00Z", "2024-02-05T18:00:00.000001Z", slice(11, 12)),
            # from alone, to alone
            ("2024-03-01T19:00:00Z", None, slice(19, 23)),
            (None, "2024-01-09T19:00:00Z", slice(0, 2)),
            # nothing
            ("2025-01-01T00:00:00Z", "2025-02-01T00:00:00Z", slice(0, 0)),
        ]
        overall = by_initial(league, api.standings(league.id))
        for since, until, games in ranges:
            query = {k: v for k, v in (("from", since), ("to", until)) if v is not None}
            rows = by_initial(league, api.standings(league.id, **query))
            figures = tally(league.games[games], list(NAMES))
            for p, row in rows.items():
                assert {k: v for k, v in row.items() if k not in ("player_id", "name", "rating")} == figures[p], (
                    query,
                    p,
                )
                assert row["rating"] == overall[p]["rating"]  # ratings are the league's, over all its history
        bad = problem(
            api.client.get(
                f"{BASE}/leagues/{league.id}/standings",
                query_string={"from": "2024-02-01T00:00:00Z", "to": "2024-01-01T00:00:00Z"},
            ),
            422,
        )
        assert "query.to" in bad["errors"]
        bad = problem(api.client.get(f"{BASE}/leagues/{league.id}/standings", query_string={"from": "last week"}), 422)
        assert "query.from" in bad["errors"]

    def test_head_to_head_counts_only_the_games_both_played_and_their_figures(self, api: Api, league: Built) -> None:
        overall = by_initial(league, api.standings(league.id))
        for a, b in (("A", "D"), ("B", "C"), ("D", "B"), ("C", "A")):
            body = api.get(f"/leagues/{league.id}/head-to-head", a=league.ids[a], b=league.ids[b])
            both = [g for g in league.games if a in g.players and b in g.players]
            assert 0 < len(both) < len(league.games)
            assert (body["league_id"], body["games"]) == (league.id, len(both))
            assert [r["player_id"] for r in body["items"]] == [league.ids[a], league.ids[b]]
            figures = tally(both, [a, b])
            for row, p in zip(body["items"], (a, b), strict=True):
                assert {k: v for k, v in row.items() if k != "rating"} == {
                    "player_id": league.ids[p],
                    "name": NAMES[p],
                    **figures[p],
                }, (a, b, p)
                assert row["rating"] == overall[p]["rating"]  # the league's rating, not a head-to-head one
        # with a date range: games 1 to 10 only
        body = api.get(
            f"/leagues/{league.id}/head-to-head",
            a=league.ids["A"],
            b=league.ids["D"],
            **{"from": "2024-01-01T00:00:00Z", "to": "2024-02-01T00:00:00Z"},
        )
        both = [g for g in league.games[:10] if {"A", "D"} <= set(g.players)]
        assert body["games"] == len(both) == 6
        figures = tally(both, ["A", "D"])
        assert [{k: v for k, v in r.items() if k not in ("player_id", "name", "rating")} for r in body["items"]] == [
            figures["A"],
            figures["D"],
        ]


def test_r20_unfinished_games_count_for_hands_and_points_but_not_for_games_won_or_streaks(api: Api) -> None:
    """Ann wins game 1, leaves game 2 unfinished with 25 points, wins game 3: her
    streak runs through the unfinished game (2), which counts for games played."""
    specs = [
        Spec("2024-04-01T19:00:00Z", ("A", "B", "C"), [box(0, 5)], True),
        Spec("2024-04-02T19:00:00Z", ("A", "B", "C"), [box(5, 30)], False),
        Spec("2024-04-03T19:00:00Z", ("A", "B", "C"), [box(1, 31)], True),
    ]
    built = build(api, specs)
    ann = by_initial(built, api.standings(built.id))["A"]
    assert (ann["games_played"], ann["games_finished"], ann["games_won"], ann["win_rate"]) == (3, 2, 2, 1.0)
    assert (ann["total_points"], ann["hands_played"], ann["hands_won"]) == (30 + 25 + 30, 3, 3)
    assert (ann["current_streak"], ann["longest_streak"]) == (2, 2)
    check_standings(built, api.standings(built.id))


def test_standings_ties_are_broken_by_games_won_then_points_then_player_id_and_nulls_sort_last(api: Api) -> None:
    """Ann wins game 1 by gin (30); Bob leaves game 2 unfinished with 10; Cy only loses;
    Eve (created before Dee) and Dee are members who never played."""
    ann, bob, cy, eve, dee = (api.player(n) for n in ("Ann", "Bob", "Cy", "Eve", "Dee"))
    created = api.league("Ties", [ann, bob, cy, eve, dee])
    league_id, key = created["id"], created.get("key")
    first = api.write(
        "POST",
        "/games",
        {
            "players": [ann, bob, cy],
            "league_id": league_id,
            "played_at": "2024-05-01T19:00:00Z",
            "rules": {"target_score": TARGET},
            "roles": {"box": ann, "captain": bob, "sitter": cy},
        },
        key,
    )
    api.write("POST", f"/games/{first['id']}/hands", box(0, 5).body, key)  # Ann +30: wins
    second = api.write(
        "POST",
        "/games",
        {
            "players": [ann, bob, cy],
            "league_id": league_id,
            "played_at": "2024-05-02T19:00:00Z",
            "rules": {"target_score": TARGET},
            "roles": {"box": bob, "captain": cy, "sitter": ann},
        },
        key,
    )
    api.write("POST", f"/games/{second['id']}/hands", box(2, 12).body, key)  # Bob +10

    def order(sort: str, way: str) -> list[int]:
        return [r["player_id"] for r in api.standings(league_id, sort=sort, order=way)]

    assert order("games_played", "desc") == [ann, bob, cy, eve, dee]  # 2 2 2 0 0
    assert order("games_played", "asc") == [eve, dee, ann, bob, cy]
    assert order("win_rate", "desc") == [ann, bob, cy, eve, dee]  # 1.0 0.0 0.0 null null
    assert order("win_rate", "asc") == [bob, cy, ann, eve, dee]
    assert order("gins", "desc") == [ann, bob, cy, eve, dee]
    assert order("gins", "asc") == [bob, cy, eve, dee, ann]
    assert order("knocks", "asc") == [cy, eve, dee, ann, bob]  # 0 0 0 1 1
    assert order("average_points_per_hand_won", "desc") == [ann, bob, cy, eve, dee]  # 30 10 null...
    assert order("average_points_per_hand_won", "asc") == [bob, ann, cy, eve, dee]
    assert order("name", "asc") == [ann, bob, cy, dee, eve]
    assert order("name", "desc") == [eve, dee, cy, bob, ann]
    rows = {r["player_id"]: r for r in api.standings(league_id)}
    for never in (eve, dee):  # members who never played: zeros, nulls, the initial rating
        assert rows[never]["games_played"] == rows[never]["hands_played"] == 0
        assert rows[never]["win_rate"] is rows[never]["average_knocker_deadwood"] is None
        assert rows[never]["rating"] == {"mu": 25.0, "sigma": 25 / 3, "ordinal": 25.0 - 3 * (25 / 3), "hands_rated": 0}


# --- 2. head to head: errors -----------------------------------------------------------------------------


def test_head_to_head_of_a_player_with_himself_or_without_b_is_422(api: Api, small: Built) -> None:
    a = small.ids["A"]
    bad = problem(api.client.get(f"{BASE}/leagues/{small.id}/head-to-head?a={a}&b={a}"), 422)
    assert "b" in bad["errors"]
    bad = problem(api.client.get(f"{BASE}/leagues/{small.id}/head-to-head?a={a}"), 422)
    assert "query.b" in bad["errors"]


def test_head_to_head_with_a_player_who_does_not_exist_is_a_client_error(api: Api, small: Built) -> None:
    response = api.client.get(f"{BASE}/leagues/{small.id}/head-to-head?a={small.ids['A']}&b=2147483647")
    assert response.status_code in (404, 422), response.get_json()
    problem(response, response.status_code)


# --- 3. ratings and corrections ---------------------------------------------------------------------------


def test_ratings_draws_do_not_rate(api: Api) -> None:
    ids = {p: api.player(n) for p, n in NAMES.items()}
    created = api.league("Draws", list(ids.values()))
    key = created.get("key")
    game = api.write(
        "POST",
        "/games",
        {
            "players": [ids["A"], ids["B"], ids["C"]],
            "league_id": created["id"],
            "roles": {"box": ids["A"], "captain": ids["B"], "sitter": ids["C"]},
            "played_at": "2024-06-01T19:00:00Z",
        },
        key,
    )
    for _ in range(3):
        api.write("POST", f"/games/{game['id']}/hands", DRAW.body, key)
    initial = {"mu": 25.0, "sigma": 25 / 3, "ordinal": 0.0, "hands_rated": 0}
    rows = api.standings(created["id"])
    assert [r["rating"] for r in rows] == [approx_rating(initial)] * 4
    played = {r["player_id"]: (r["hands_played"], r["hands_sat_out"]) for r in rows}
    assert played == {ids["A"]: (3, 0), ids["B"]: (3, 0), ids["C"]: (0, 3), ids["D"]: (0, 0)}  # R8, R12
    api.write("POST", f"/games/{game['id']}/hands", box(2, 12).body, key)  # Ann (box) wins a hand
    rated = {r["player_id"]: r["rating"] for r in api.standings(created["id"])}
    api.write("POST", f"/games/{game['id']}/hands", DRAW.body, key)
    after = {r["player_id"]: r["rating"] for r in api.standings(created["id"])}
    assert after == rated  # a draw changes no rating
    assert [after[ids[p]]["hands_rated"] for p in "ABCD"] == [1, 1, 1, 0]
    assert after[ids["A"]]["mu"] > 25 > after[ids["B"]]["mu"] == after[ids["C"]]["mu"]
    assert after[ids["D"]] == approx_rating(initial)


def test_r26_a_correction_that_leaves_every_result_as_it_was_keeps_the_streaks_and_rerates_the_hands(
    api: Api, league: Built, app: Flask
) -> None:
    """A hand of a finished game made a draw (R12) where the game still ends
    with the same winner: the streaks of games won cannot have moved, so they
    are not recounted; the ratings are, and the standings are those of the
    corrected history (R26: the later hands stand as played)."""
    index, number = next(
        (i, n)
        for i, game in enumerate(league.games)
        if game.winner is not None
        for n in range(1, len(game.hands))
        if game.hands[n - 1][1] != DRAW and game.corrected(n, DRAW).winner == game.winner
    )
    before = by_initial(league, api.standings(league.id))
    api.write("PUT", f"/games/{league.game_ids[index]}/hands/{number}", DRAW.body, league.key, status=200)
    with app.app_context():
        row = db.session.get(League, league.id)
        assert row is not None and (row.streaks_stale, row.ratings_stale) == (False, True)
    corrected = list(league.games)
    corrected[index] = league.games[index].corrected(number, DRAW)
    after = by_initial(league, api.standings(league.id))
    check_standings(league, list(after.values()), corrected)
    assert [after[p]["rating"] for p in NAMES] != [before[p]["rating"] for p in NAMES]
    for p in NAMES:  # the streaks as they were, without a recount
        assert (after[p]["current_streak"], after[p]["longest_streak"]) == (
            before[p]["current_streak"],
            before[p]["longest_streak"],
        )


def test_r26_correcting_an_early_hand_so_another_player_wins_the_game_changes_standings_and_ratings(
    api: Api, league: Built
) -> None:
    """The first game's last hand: Bob's gin becomes an undercut by Ann, who wins the game."""
    before = by_initial(league, api.standings(league.id))
    index, number, result = FIRST_GAME_LAST_HAND
    game_id = league.game_ids[index]
    hand = api.write("PUT", f"/games/{game_id}/hands/{number}", result.body, league.key, status=200)
    assert (hand["ruling"]["outcome"], hand["ruling"]["points"]) == ("undercut", 20)
    assert hand["winner"] == league.ids["A"] and hand["status"] == "finished"
    corrected = list(league.games)
    corrected[index] = league.games[index].corrected(number, result)
    assert corrected[index].winner == "A" and league.games[index].winner == "B"
    after = by_initial(league, api.standings(league.id))
    check_standings(league, list(after.values()), corrected)
    assert (after["A"]["games_won"], after["B"]["games_won"]) == (
        before["A"]["games_won"] + 1,
        before["B"]["games_won"] - 1,
    )
    # Ann's finished games began L W W L: now W W W L
    assert (before["A"]["longest_streak"], after["A"]["longest_streak"]) == (2, 3)
    for p in "ABCD":  # Dee did not play the hand, but later played those who did
        assert after[p]["rating"] != before[p]["rating"]
    assert [after[p]["rating"]["hands_rated"] for p in "ABCD"] == [before[p]["rating"]["hands_rated"] for p in "ABCD"]
    # the corrected history entered directly, in a fresh league, rates the same
    specs = list(LEAGUE)
    hands = list(specs[index].hands)
    hands[number - 1] = result
    specs[index] = replace(specs[index], hands=hands)
    fresh = build(api, specs, name="Fresh")
    again = by_initial(fresh, api.standings(fresh.id))
    for p in NAMES:
        assert {**again[p], "player_id": None} == {**after[p], "player_id": None}, p


def test_r26_correcting_hand_1_so_the_winner_no_longer_wins_keeps_later_seatings_and_rerates(
    api: Api, league: Built
) -> None:
    """The 17th game's first hand: Ann's knock becomes an undercut by Bob. Hands 2 and 3
    keep their seating (hand 2 no longer follows by R11) and Ann no longer reaches 30."""
    before = by_initial(league, api.standings(league.id))
    index, number, result = SEVENTEENTH_GAME_FIRST_HAND
    game_id = league.game_ids[index]
    api.write("PUT", f"/games/{game_id}/hands/{number}", result.body, league.key, status=200)
    game = api.get(f"/games/{game_id}")
    corrected = list(league.games)
    corrected[index] = league.games[index].corrected(number, result)
    assert corrected[index].follows == [True, False, True]
    assert (game["status"], game["winner"], game["out_of_turn"]) == ("in_progress", None, [2])
    assert game["scores"] == {str(league.ids[p]): n for p, n in corrected[index].running[-1].items()}
    after = by_initial(league, api.standings(league.id))
    check_standings(league, list(after.values()), corrected)
    assert after["A"]["games_won"] == before["A"]["games_won"] - 1
    assert after["A"]["games_finished"] == before["A"]["games_finished"] - 1
    assert after["A"]["total_points"] == before["A"]["total_points"] - 7
    assert after["B"]["undercuts_made"] == before["B"]["undercuts_made"] + 1
    for p in "ABD":
        assert after[p]["rating"] != before[p]["rating"]
    # head to head shows it at once
    body = api.get(f"/leagues/{league.id}/head-to-head", a=league.ids["A"], b=league.ids["B"])
    both = [g for g in corrected if {"A", "B"} <= set(g.players)]
    figures = tally(both, ["A", "B"])
    assert [{k: v for k, v in r.items() if k not in ("player_id", "name", "rating")} for r in body["items"]] == [
        figures["A"],
        figures["B"],
    ]


# --- 4. the order of entry does not matter ----------------------------------------------------------------


def test_the_same_games_entered_in_another_order_give_the_same_standings_and_ratings(api: Api, league: Built) -> None:
    """The second league gets the same games, created newest first, their hands recorded
    round-robin across games, and the first hand of the first game entered wrongly and
    corrected at the end."""
    other = build(
        api,
        LEAGUE,
        name="Same games, other order",
        entry=list(reversed(range(len(LEAGUE)))),
        interleave=True,
        misentered=(0, 1, box(2, 21)),
    )
    assert other.game_ids != sorted(other.game_ids)
    first = api.standings(league.id)
    second = api.standings(other.id)
    check_standings(other, second)
    assert [league.initials[r["player_id"]] for r in first] == [other.initials[r["player_id"]] for r in second]
    for a, b in zip(first, second, strict=True):
        assert {**a, "player_id": None} == {**b, "player_id": None}


def test_games_with_the_same_played_at_rate_the_same_whatever_order_they_were_entered_in(api: Api) -> None:
    same = "2024-07-01T19:00:00Z"
    specs = [
        Spec(same, ("A", "B", "C"), [box(1, 31)], True),  # Ann wins
        Spec(same, ("B", "A", "D"), [box(1, 31)], True),
    ]  # Bob wins
    one = build(api, specs, name="x then y")
    two = build(api, specs, name="y then x", entry=[1, 0])
    first = by_initial(one, api.standings(one.id))
    second = by_initial(two, api.standings(two.id))
    assert {p: r["rating"] for p, r in first.items()} == {p: r["rating"] for p, r in second.items()}


# --- 5. history -------------------------------------------------------------------------------------------


def pages(api: Api, path: str, limit: int, **query: Any) -> list[list[int]]:
    """Follow next_cursor to the end; the game ids of each page."""
    out: list[list[int]] = []
    cursor = None
    while True:
        args = {**query, "limit": limit, **({"cursor": cursor} if cursor else {})}
        body = api.get(path, **args)
        out.append([g["id"] for g in body["items"]])
        stamps = [stamp(g["played_at"]) for g in body["items"]]
        assert stamps == sorted(stamps, reverse=True)
        cursor = body["next_cursor"]
        if cursor is None:
            return out
        assert len(body["items"]) == limit and len(out) < 100


def newest_first(games: list[tuple[datetime, int]]) -> list[int]:
    return [g for _, g in sorted(games, reverse=True)]


def test_history_is_newest_first_and_its_cursor_pages_hold_every_game_once(api: Api, league: Built) -> None:
    # three more games at one instant, so page boundaries fall among equal played_at
    same = "2024-03-20T19:00:00Z"
    a, b, c, d = (league.ids[p] for p in "ABCD")
    extra = [
        api.write(
            "POST",
            "/games",
            {
                "players": players,
                "league_id": league.id,
                "played_at": same,
                "roles": dict(zip(("box", "captain", "sitter"), players, strict=True)),
            },
            league.key,
        )["id"]
        for players in ([a, b, c], [b, c, d], [a, b, d])
    ]
    # a game outside any league and one in another league, for the player's history
    loose = api.write(
        "POST",
        "/games",
        {"players": [a, c, d], "played_at": "2024-02-09T12:00:00Z", "roles": {"box": a, "captain": c, "sitter": d}},
    )["id"]
    other = api.league("Other", [a, b, c])
    elsewhere = api.write(
        "POST",
        "/games",
        {
            "players": [c, b, a],
            "played_at": "2024-02-10T12:00:00Z",
            "league_id": other["id"],
            "roles": {"box": c, "captain": b, "sitter": a},
        },
        other.get("key"),
    )["id"]
    games = [(g.played_at, gid) for g, gid in zip(league.games, league.game_ids, strict=True)]
    games += [(stamp(same), gid) for gid in extra]
    players = {gid: set(g.players) for g, gid in zip(league.games, league.game_ids, strict=True)}
    players.update({extra[0]: {"A", "B", "C"}, extra[1]: {"B", "C", "D"}, extra[2]: {"A", "B", "D"}})
    everything = newest_first(games)
    assert len(everything) == 26
    for limit in (1, 2, 4, 7, 13, 26, 100):
        got = pages(api, f"/leagues/{league.id}/games", limit)
        flat = [g for page in got for g in page]
        assert flat == everything, limit  # no duplicates, no gaps, newest first
        assert len(got) == max(1, -(-26 // limit))
    # filters: dates, a player, both
    window = {"from": "2024-01-18T19:00:00Z", "to": "2024-02-23T23:30:00Z"}  # games 6 to 17 (18 excluded)
    inside = [g for t, g in games if stamp(window["from"]) <= t < stamp(window["to"])]
    assert len(inside) == 12
    assert [g for p in pages(api, f"/leagues/{league.id}/games", 5, **window) for g in p] == newest_first(
        [(t, g) for t, g in games if g in inside]
    )
    dee = [(t, g) for t, g in games if "D" in players[g]]
    assert [g for p in pages(api, f"/leagues/{league.id}/games", 3, player=d) for g in p] == newest_first(dee)
    assert [g for p in pages(api, f"/leagues/{league.id}/games", 3, player=d, **window) for g in p] == newest_first(
        [(t, g) for t, g in dee if g in inside]
    )
    # a player's games: every league and none; filtered by league, by another player, by dates
    ann = [(t, g) for t, g in games if "A" in players[g]]
    everywhere = ann + [(stamp("2024-02-09T12:00:00Z"), loose), (stamp("2024-02-10T12:00:00Z"), elsewhere)]
    assert [g for p in pages(api, f"/players/{a}/games", 4) for g in p] == newest_first(everywhere)
    assert [g for p in pages(api, f"/players/{a}/games", 4, league=league.id) for g in p] == newest_first(ann)
    assert [g for p in pages(api, f"/players/{a}/games", 4, league=other["id"]) for g in p] == [elsewhere]
    with_dee = [(t, g) for t, g in everywhere if g == loose or (g in players and "D" in players[g])]
    assert [g for p in pages(api, f"/players/{a}/games", 4, player=d) for g in p] == newest_first(with_dee)
    assert [g for p in pages(api, f"/players/{a}/games", 4, **window) for g in p] == newest_first(
        [(t, g) for t, g in everywhere if stamp(window["from"]) <= t < stamp(window["to"])]
    )


def test_history_with_a_bad_cursor_or_limit_is_a_422_problem(api: Api, small: Built) -> None:
    for path in (f"/leagues/{small.id}/games", f"/players/{small.ids['A']}/games"):
        for cursor in ("not-a-cursor", "!!!", base64.urlsafe_b64encode(b"yesterday|3").decode()):
            bad = problem(api.client.get(BASE + path, query_string={"cursor": cursor}), 422)
            assert bad["type"] == INVALID and "cursor" in bad["errors"]
        for limit in (0, 101):
            bad = problem(api.client.get(BASE + path, query_string={"limit": limit}), 422)
            assert "query.limit" in bad["errors"]
    problem(api.client.get(f"{BASE}/players/2147483647/games"), 404)


def test_history_with_a_cursor_naming_an_impossible_game_id_is_a_422_problem(api: Api, small: Built) -> None:
    cursor = base64.urlsafe_b64encode(b"2024-03-01T19:00:00+00:00|99999999999999999999").decode()
    bad = problem(api.client.get(f"{BASE}/leagues/{small.id}/games", query_string={"cursor": cursor}), 422)
    assert "cursor" in bad["errors"]


# --- 6. export and import ---------------------------------------------------------------------------------


def remap(doc: dict[str, Any], league_id: int, players: dict[int, int], games: dict[int, int]) -> dict[str, Any]:
    """The export document with every id replaced: league, players, games."""
    out: dict[str, Any] = json.loads(json.dumps(doc))
    out["league"]["id"] = league_id
    for p in out["players"]:
        p["id"] = players[p["id"]]
    for g in out["games"]:
        g["id"] = games[g["id"]]
        g["players"] = [players[p] for p in g["players"]]
        g["first_roles"] = {k: players[v] for k, v in g["first_roles"].items()}
        if g["cut"] is not None:
            g["cut"] = {str(players[int(k)]): v for k, v in g["cut"].items()}
        g["scores"] = {str(players[int(k)]): v for k, v in g["scores"].items()}
        if g["winner"] is not None:
            g["winner"] = players[g["winner"]]
        for h in g["hands"]:
            h["seating"] = {k: players[v] for k, v in h["seating"].items()}
        for r in g.get("revisions", []):
            r["seating"] = {k: players[v] for k, v in r["seating"].items()}
            r["scores"] = {str(players[int(k)]): v for k, v in r["scores"].items()}
            r["game_scores"] = {str(players[int(k)]): v for k, v in r["game_scores"].items()}
    return out


def export(api: Api, league_id: int) -> tuple[str, dict[str, Any]]:
    response = api.client.get(f"{BASE}/leagues/{league_id}/export")
    assert response.status_code == 200 and response.mimetype == "application/json"
    text = response.get_data(as_text=True)
    return text, json.loads(text)


def test_export_import_export_is_identical_apart_from_ids(api: Api) -> None:
    league = build(api, LEAGUE, name="Gin du jeudi — Café «Bézique»")
    index, number, result = SEVENTEENTH_GAME_FIRST_HAND  # a corrected hand, out of turn after it
    api.write("PUT", f"/games/{league.game_ids[index]}/hands/{number}", result.body, league.key, status=200)
    text, doc = export(api, league.id)
    assert (doc["format"], doc["format_version"], doc["league"]) == (
        "ginref.league",
        2,
        {"id": league.id, "name": "Gin du jeudi — Café «Bézique»", "visibility": "public"},
    )
    assert len(doc["games"]) == 23 and sum(len(g["hands"]) for g in doc["games"]) == 61
    players_before = api.total("/players")
    response = api.client.post(f"{BASE}/leagues/import", data=text, content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)
    imported = response.get_json()
    assert response.headers["Location"] == f"{BASE}/leagues/{imported['id']}"
    assert imported["id"] != league.id and imported["games"] == 23 and len(imported["members"]) == 4
    assert api.total("/players") == players_before + 4  # the import brings its own players
    text2, doc2 = export(api, imported["id"])
    names = {p["name"]: p["id"] for p in doc2["players"]}
    players = {p["id"]: names[p["name"]] for p in doc["players"]}
    games = {g["id"]: g2["id"] for g, g2 in zip(doc["games"], doc2["games"], strict=True)}
    assert sorted(players.values()) == imported["members"]
    assert len(set(games.values())) == 23 and not set(games.values()) & set(games)
    assert doc2 == remap(doc, imported["id"], players, games)
    # the export's members come in key order (flask's JSON), so "10" before "9" as new ids may have it
    assert text2 == json.dumps(remap(doc, imported["id"], players, games), ensure_ascii=False, sort_keys=True)
    # the imported league's standings (ratings included) equal the original's
    old = {r["name"]: {**r, "player_id": None} for r in api.standings(league.id)}
    new = {r["name"]: {**r, "player_id": None} for r in api.standings(imported["id"])}
    assert new == old
    assert [r["name"] for r in api.standings(imported["id"])] == [r["name"] for r in api.standings(league.id)]
    # and the games as the game endpoint shows them
    corrected = api.get(f"/games/{games[league.game_ids[index]]}")
    assert (corrected["out_of_turn"], corrected["status"]) == ([2], "in_progress")


def test_an_import_larger_than_the_ordinary_body_limit_rebuilds_the_league(api: Api, small: Built) -> None:
    """The import has its own body limit: a document of some 200 games (over 64 KiB) goes in whole."""
    _, doc = export(api, small.id)
    games = []
    four_weeks = stamp("2024-01-29T00:00:00Z") - stamp("2024-01-01T00:00:00Z")  # the six games span 15 days
    for month in range(34):
        for g in doc["games"]:
            played = stamp(g["played_at"]) + month * four_weeks
            games.append({**g, "id": len(games) + 1, "played_at": played.isoformat()})
    doc["games"] = games
    text = json.dumps(doc, ensure_ascii=False)
    assert len(text.encode()) > 4 * 64 * 1024
    response = api.client.post(f"{BASE}/leagues/import", data=text, content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)[:500]
    imported = response.get_json()
    assert imported["games"] == len(games) == 204
    _, doc2 = export(api, imported["id"])
    names = {p["name"]: p["id"] for p in doc2["players"]}
    players = {p["id"]: names[p["name"]] for p in doc["players"]}
    ids = {g["id"]: g2["id"] for g, g2 in zip(doc["games"], doc2["games"], strict=True)}
    assert doc2 == remap(doc, imported["id"], players, ids)


# --- 6b. an import onto existing players (`players`) --------------------------------------------------------


NOT_JSON = 'not JSON: a JSON object such as {{"3": 17}} is expected'  # formatted as the others


def post_import(api: Api, text: str, players: Any = None, **headers: str) -> Any:
    """POST the document ``text``; ``players``: the mapping (a dict, sent as JSON) or the raw parameter."""
    query = {} if players is None else {"players": players if isinstance(players, str) else json.dumps(players)}
    return api.client.post(
        f"{BASE}/leagues/import", data=text, content_type="application/json", query_string=query, headers=headers
    )


def wipe(app: Flask) -> None:
    """Another server: nothing of the exported league is here."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def totals(api: Api) -> list[int]:
    return [api.total(p) for p in ("/leagues", "/players", "/games")]


def test_an_import_onto_the_players_a_server_knows_creates_none_and_rates_them_as_the_original(api: Api) -> None:
    league = build(api, LEAGUE)
    text, doc = export(api, league.id)
    original = {r["name"]: r for r in api.standings(league.id)}
    wipe(api.client.application)
    # The same four people on another server, entered in another order and among others: their ids are
    # not in the document's order (ratings and tie-breaks must follow the people, not the ids).
    api.player("Eve")
    here = {name: api.player(name) for name in ("Dee", "Cy", "Bob", "Ann")}
    assert sorted(here, key=here.__getitem__) != sorted(here)
    # Their own league, which the import must leave as it is.
    other = api.league("Mondays", [here["Ann"], here["Bob"], here["Cy"]])
    game = api.write(
        "POST",
        "/games",
        {
            "players": [here["Ann"], here["Bob"], here["Cy"]],
            "league_id": other["id"],
            "roles": {"box": here["Ann"], "captain": here["Bob"], "sitter": here["Cy"]},
        },
        other["key"],
    )
    api.write("POST", f"/games/{game['id']}/hands", counts_body("box", 2, 9), other["key"])
    other_before = (api.standings(other["id"]), export(api, other["id"])[0])
    mapping = {str(p["id"]): here[p["name"]] for p in doc["players"]}
    before = totals(api)
    response = post_import(api, text, mapping)
    assert response.status_code == 201, response.get_data(as_text=True)
    imported = response.get_json()
    assert imported["players"] == [
        {"document_id": p["id"], "id": here[p["name"]], "name": p["name"], "created": False} for p in doc["players"]
    ]
    assert imported["members"] == sorted(here.values())
    assert totals(api) == [before[0] + 1, before[1], before[2] + 23]  # no player twice
    assert {p: api.get(f"/players/{i}")["name"] for p, i in here.items()} == {p: p for p in here}
    # The league is the exported one, played by the players who were here already.
    players = {int(k): v for k, v in mapping.items()}
    _, doc2 = export(api, imported["id"])
    games = {g["id"]: g2["id"] for g, g2 in zip(doc["games"], doc2["games"], strict=True)}
    expected = remap(doc, imported["id"], players, games)
    assert doc2 == expected | {"players": sorted(expected["players"], key=lambda p: p["id"])}  # by id, as exported
    rows = api.standings(imported["id"])
    assert {r["name"]: r for r in rows} == {
        name: {**row, "player_id": here[name]} for name, row in original.items()
    }  # ratings included, exactly
    assert [r["name"] for r in rows] == [r["name"] for r in original.values()]
    # Their other league is untouched; their history now holds both leagues' games.
    assert (api.standings(other["id"]), export(api, other["id"])[0]) == other_before
    ann = next(p["id"] for p in doc["players"] if p["name"] == "Ann")
    hers = [games[g["id"]] for g in doc["games"] if ann in g["players"]]
    assert len(hers) == 19  # all but the four games of Bob, Cy and Dee
    assert sorted(g["id"] for g in api.get(f"/players/{here['Ann']}/games", limit=100)["items"]) == sorted(
        [game["id"], *hers]
    )


def counts_body(knocker: str, k: int, d: int) -> dict[str, Any]:
    return {"knocker": knocker, "knocker_deadwood_count": k, "defender_deadwood_count": d}


def test_an_import_maps_some_players_creates_the_others_and_says_which(api: Api, small: Built) -> None:
    text, doc = export(api, small.id)
    ids = {p["name"]: p["id"] for p in doc["players"]}
    annie = api.player("Annie")  # Ann, as this server knows her
    mapping = {str(ids["Ann"]): annie, str(ids["Cy"]): small.ids["C"]}
    before = totals(api)
    response = post_import(api, text, mapping)
    assert response.status_code == 201, response.get_data(as_text=True)
    imported = response.get_json()
    made = {p["name"]: p["id"] for p in imported["players"] if p["created"]}
    assert sorted(made) == ["Bob", "Dee"] and not set(made.values()) & (set(small.ids.values()) | {annie})
    assert imported["players"] == [
        {"document_id": ids["Ann"], "id": annie, "name": "Annie", "created": False},  # her name here, not "Ann"
        {"document_id": ids["Bob"], "id": made["Bob"], "name": "Bob", "created": True},
        {"document_id": ids["Cy"], "id": small.ids["C"], "name": "Cy", "created": False},
        {"document_id": ids["Dee"], "id": made["Dee"], "name": "Dee", "created": True},
    ]
    assert imported["members"] == sorted([annie, made["Bob"], small.ids["C"], made["Dee"]])
    assert totals(api) == [before[0] + 1, before[1] + 2, before[2] + 6]
    assert {api.get(f"/players/{i}")["name"] for i in made.values()} == {"Bob", "Dee"}
    players = {ids["Ann"]: annie, ids["Bob"]: made["Bob"], ids["Cy"]: small.ids["C"], ids["Dee"]: made["Dee"]}
    _, doc2 = export(api, imported["id"])
    games = {g["id"]: g2["id"] for g, g2 in zip(doc["games"], doc2["games"], strict=True)}
    assert doc2 == remap(doc, imported["id"], players, games) | {
        "players": sorted(
            [{"id": players[p["id"]], "name": "Annie" if p["name"] == "Ann" else p["name"]} for p in doc["players"]],
            key=lambda p: p["id"],
        )
    }
    original = {players[small.ids[small.initials[r["player_id"]]]]: r for r in api.standings(small.id)}
    assert {r["player_id"]: r for r in api.standings(imported["id"])} == {
        p: {**r, "player_id": p, "name": "Annie" if p == annie else r["name"]} for p, r in original.items()
    }
    # The original league, where Cy plays too, is as it was.
    check_standings(small, api.standings(small.id), small.games)


def test_an_import_without_players_or_with_none_mapped_creates_every_player(api: Api, small: Built) -> None:
    text, doc = export(api, small.id)
    for players in (None, {}):
        before = totals(api)
        response = post_import(api, text, players)
        assert response.status_code == 201, response.get_data(as_text=True)
        listed = response.get_json()["players"]
        assert [(p["document_id"], p["name"], p["created"]) for p in listed] == [
            (p["id"], p["name"], True) for p in doc["players"]
        ]
        assert totals(api) == [before[0] + 1, before[1] + 4, before[2] + 6]


MAPPING_FAULTS = [
    # (what, the players parameter from the document's ids by name (d) and the server's by initial (s),
    #  the field named, its message; both formatted with the document's ids by name and "A" for Ann's here)
    (
        "a key that is not a player of the document",
        lambda d, s: {"2147483647": s["A"]},
        "query.players.2147483647.key",
        "there is no player 2147483647 in the document",
    ),
    (
        "a key that is not a player id",
        lambda d, s: {"Ann": s["A"]},
        "query.players.Ann.key",
        "'Ann' is not a player id",
    ),
    (
        "a key with a leading zero",
        lambda d, s: {f"0{d['Ann']}": s["A"]},
        "query.players.0{Ann}.key",
        "'0{Ann}' is not a player id",
    ),
    (
        "a value that is no player",
        lambda d, s: {str(d["Ann"]): 2147483647},
        "query.players.{Ann}.value",
        "there is no player 2147483647",
    ),
    (
        "two players of the document onto one (R8)",
        lambda d, s: {str(d["Ann"]): s["A"], str(d["Bob"]): s["C"], str(d["Cy"]): s["A"]},
        "query.players.{Cy}.value",
        "document player {Ann} is mapped to player {A} already: two players of the document cannot be one (R8)",
    ),
    (
        "a value that is a string",
        lambda d, s: {str(d["Ann"]): str(s["A"])},
        "query.players.{Ann}.value",
        "'{A}' is not a player id",
    ),
    (
        "a value that is true",
        lambda d, s: {str(d["Ann"]): True},
        "query.players.{Ann}.value",
        "True is not a player id",
    ),
    ("a value of zero", lambda d, s: {str(d["Ann"]): 0}, "query.players.{Ann}.value", "0 is not a player id"),
    ("a value of null", lambda d, s: {str(d["Ann"]): None}, "query.players.{Ann}.value", "null is not a player id"),
    (
        "a value too long to read",
        lambda d, s: f'{{"{d["Ann"]}": {"9" * 31}}}',
        "query.players.{Ann}",
        f"the number {'9' * 31} is out of range",
    ),
    (
        "a key given twice",
        lambda d, s: f'{{"{d["Ann"]}": {s["A"]}, "{d["Ann"]}": {s["B"]}}}',
        "query.players.{Ann}",
        "given twice",
    ),
    ("a list", lambda d, s: json.dumps([[d["Ann"], s["A"]]]), "query.players", "Not a valid mapping type."),
    ("not JSON", lambda d, s: f"{d['Ann']}:{s['A']}", "query.players", NOT_JSON),
    ("empty", lambda d, s: "", "query.players", NOT_JSON),
]


@pytest.mark.parametrize(
    ("players", "field_", "message"), [pytest.param(p, f, m, id=w) for w, p, f, m in MAPPING_FAULTS]
)
def test_an_import_with_a_bad_players_mapping_is_a_422_naming_it_and_writes_nothing(
    api: Api, small: Built, players: Any, field_: str, message: str
) -> None:
    text, doc = export(api, small.id)
    ids = {p["name"]: p["id"] for p in doc["players"]}
    api.player("Eve")  # a player of this server outside the league
    before = totals(api)
    bad = problem(post_import(api, text, players(ids, small.ids)), 422)
    field_, message = field_.format(**ids), message.format(**ids, A=small.ids["A"])
    assert (bad["type"], bad["errors"], bad["detail"]) == (INVALID, {field_: [message]}, f"{field_}: {message}")
    assert totals(api) == before


def test_an_import_with_players_given_twice_is_a_422_and_writes_nothing(api: Api, small: Built) -> None:
    text, doc = export(api, small.id)
    ann = str(doc["players"][0]["id"])
    before = totals(api)
    response = api.client.post(
        f"{BASE}/leagues/import?players=" + json.dumps({ann: small.ids["A"]}) + "&players={}",
        data=text,
        content_type="application/json",
    )
    bad = problem(response, 422)
    assert bad["errors"] == {"query.players": ["given 2 times: give one JSON object"]}
    assert totals(api) == before


def test_an_import_onto_existing_players_whose_document_is_refused_writes_nothing(api: Api, small: Built) -> None:
    text, doc = export(api, small.id)
    doc["games"][2]["scores"] = {k: v + 1 for k, v in doc["games"][2]["scores"].items()}
    mapping = {str(p["id"]): small.ids[p["name"][0]] for p in doc["players"]}
    before = totals(api)
    bad = problem(post_import(api, json.dumps(doc), mapping), 422)
    assert list(bad["errors"]) == ["games[2].scores"]
    assert totals(api) == before


def test_a_retried_import_replays_only_with_the_same_players(api: Api, small: Built) -> None:
    text, doc = export(api, small.id)
    ann = str(doc["players"][0]["id"])
    key = "import-retry-0123456789abcdef"
    first = post_import(api, text, {ann: small.ids["A"]}, **{"Idempotency-Key": key})
    assert first.status_code == 201
    before = totals(api)
    again = post_import(api, text, {ann: small.ids["A"]}, **{"Idempotency-Key": key})
    assert (again.status_code, again.headers.get("Idempotent-Replayed")) == (201, "true")
    assert again.get_json() == first.get_json()
    other = problem(post_import(api, text, {ann: small.ids["B"]}, **{"Idempotency-Key": key}), 422)
    assert other["type"] == "https://ginref.org/problems/idempotency"
    bare = problem(post_import(api, text, **{"Idempotency-Key": key}), 422)
    assert bare["type"] == "https://ginref.org/problems/idempotency"
    assert totals(api) == before


def test_the_csv_export_has_one_row_per_hand_with_roles_outcome_points_and_running_scores(api: Api) -> None:
    league = build(api, LEAGUE)
    index, number, result = SEVENTEENTH_GAME_FIRST_HAND
    api.write("PUT", f"/games/{league.game_ids[index]}/hands/{number}", result.body, league.key, status=200)
    games = list(league.games)
    games[index] = games[index].corrected(number, result)
    response = api.client.get(f"{BASE}/leagues/{league.id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == CSV_COLUMNS
    expected = []
    for game, game_id in sorted(zip(games, league.game_ids, strict=True), key=lambda x: (x[0].played_at, x[1])):
        for n, ((seat, res), scores, follows) in enumerate(
            zip(game.hands, game.running, game.follows, strict=True), start=1
        ):
            scorer = None if res.winner is None else seat[("box", "captain").index(res.winner)]
            people = [x for p in seat for x in (str(league.ids[p]), NAMES[p])]
            expected.append(
                [
                    str(game_id),
                    game.played_at.isoformat(),
                    str(n),
                    res.mode,
                    *people,
                    res.knocker or "",
                    res.outcome,
                    "" if scorer is None else str(league.ids[scorer]),
                    "" if scorer is None else NAMES[scorer],
                    str(res.points),
                    *(str(scores[p]) for p in seat),
                    "true" if follows else "false",
                ]
            )
    assert rows[1:] == expected
    assert len(expected) == 61 and [r[-1] for r in expected].count("false") == 1


IMPORT_FAULTS = [
    # (what, change to the exported document, the field the problem names)
    (
        "a hand with a bad card",
        lambda d: d["games"][1]["hands"][2]["input"]["knocker_hand"]["cards"].__setitem__(0, "1X"),
        "games[1].hands[2].input.knocker_hand.cards[0]",
    ),
    (
        "scores that do not add up",
        lambda d: d["games"][5]["scores"].update({k: v + 1 for k, v in list(d["games"][5]["scores"].items())[:1]}),
        "games[5].scores",
    ),
    ("an unknown format", lambda d: d.update(format="ginref.tournament"), "format"),
    ("an unknown format version", lambda d: d.update(format_version=4), "format_version"),
    ("hands numbered out of order", lambda d: d["games"][3]["hands"][1].update(number=3), "games[3].hands[1].number"),
    (
        "a player who is not in the document",
        lambda d: d["games"][4]["players"].__setitem__(0, 2147483647),
        "games[4].players",
    ),
    (
        "a hand after the winner's (R20)",
        lambda d: d["games"][0]["hands"].append(
            {**d["games"][0]["hands"][-1], "number": len(d["games"][0]["hands"]) + 1}
        ),
        "games[0].hands",
    ),
    (
        "a ruling without a scorer",
        lambda d: d["games"][0]["hands"][0]["ruling"].update(scorer=None),
        "games[0].hands[0].ruling.scorer",
    ),
]


@pytest.mark.parametrize(("change", "field_"), [pytest.param(c, f, id=w) for w, c, f in IMPORT_FAULTS])
def test_an_import_that_fails_validation_is_a_422_naming_the_field_and_changes_nothing(
    api: Api, small: Built, change: Any, field_: str
) -> None:
    _, doc = export(api, small.id)
    change(doc)
    counts_before = [api.total(p) for p in ("/leagues", "/players", "/games")]
    bad = problem(api.client.post(f"{BASE}/leagues/import", json=doc), 422)
    assert bad["type"] == INVALID
    assert field_ in bad["errors"], bad
    assert [api.total(p) for p in ("/leagues", "/players", "/games")] == counts_before


@pytest.mark.parametrize("member", ["scores", "cut"])
def test_an_import_with_a_key_that_is_not_a_player_id_is_a_422_naming_the_field(
    api: Api, small: Built, member: str
) -> None:
    _, doc = export(api, small.id)
    _, bob, cy = doc["games"][0]["players"]
    doc["games"][0][member] = {
        "scores": {"Ann": 20, f"{bob}": 0, f"{cy}": 0},
        "cut": {"Ann": "KH", f"{bob}": "2S", f"{cy}": "9D"},
    }[member]
    counts_before = [api.total(p) for p in ("/leagues", "/players", "/games")]
    bad = problem(api.client.post(f"{BASE}/leagues/import", json=doc), 422)
    assert list(bad["errors"]) == [f"games[0].{member}.Ann.key"]
    assert "'Ann' is not a player id" in bad["errors"][f"games[0].{member}.Ann.key"]
    assert [api.total(p) for p in ("/leagues", "/players", "/games")] == counts_before


def test_an_import_whose_hand_mode_disagrees_with_its_input_is_a_422_naming_the_mode(api: Api, small: Built) -> None:
    _, doc = export(api, small.id)
    assert doc["games"][0]["hands"][0]["mode"] == "counts"
    doc["games"][0]["hands"][0]["mode"] = "cards"
    counts_before = [api.total(p) for p in ("/leagues", "/players", "/games")]
    bad = problem(api.client.post(f"{BASE}/leagues/import", json=doc), 422)
    assert "games[0].hands[0].mode" in bad["errors"]
    assert [api.total(p) for p in ("/leagues", "/players", "/games")] == counts_before


# --- 7. members and unknown leagues -----------------------------------------------------------------------


def test_a_game_in_a_league_needs_three_members_and_members_can_be_added(api: Api) -> None:
    ann, bob, cy, dee = (api.player(n) for n in ("Ann", "Bob", "Cy", "Dee"))
    created = api.league("Members", [ann, bob, cy])
    league_id, key = created["id"], created.get("key")
    assert created["members"] == [ann, bob, cy] and created["games"] == 0
    for players, index in (([ann, bob, dee], 2), ([dee, ann, bob], 0)):
        body = {
            "players": players,
            "league_id": league_id,
            "roles": dict(zip(("box", "captain", "sitter"), players, strict=True)),
        }
        bad = problem(
            api.client.post(f"{BASE}/games", json=body, headers={"Authorization": f"Bearer {key}"} if key else {}), 422
        )
        assert list(bad["errors"]) == [f"players[{index}]"]
        assert str(dee) in bad["errors"][f"players[{index}]"][0]
    assert api.get(f"/leagues/{league_id}")["games"] == 0
    assert api.total("/games") == 0
    added = api.write("POST", f"/leagues/{league_id}/members", {"players": [dee, ann]}, key, status=200)
    assert added["members"] == [ann, bob, cy, dee]
    again = api.write("POST", f"/leagues/{league_id}/members", {"players": [dee]}, key, status=200)
    assert again["members"] == [ann, bob, cy, dee]  # adding a member twice changes nothing
    bad = problem(
        api.client.post(
            f"{BASE}/leagues/{league_id}/members",
            json={"players": [dee, 2147483647]},
            headers={"Authorization": f"Bearer {key}"} if key else {},
        ),
        422,
    )
    assert list(bad["errors"]) == ["players[1]"]
    game = api.write(
        "POST",
        "/games",
        {"players": [ann, bob, dee], "league_id": league_id, "roles": {"box": ann, "captain": bob, "sitter": dee}},
        key,
    )
    assert game["league_id"] == league_id
    assert api.get(f"/leagues/{league_id}")["games"] == 1
    assert {r["player_id"]: r["games_played"] for r in api.standings(league_id)} == {ann: 1, bob: 1, cy: 0, dee: 1}
    # a player may belong to several leagues
    api.league("Another", [ann, dee])
    assert api.get(f"/leagues/{league_id}")["members"] == [ann, bob, cy, dee]


def test_an_unknown_league_is_404_and_an_unknown_league_id_in_a_game_is_422(api: Api) -> None:
    ann, bob, cy = (api.player(n) for n in ("Ann", "Bob", "Cy"))
    missing = 2147483647
    for path in ("", "/standings", f"/head-to-head?a={ann}&b={bob}", "/games", "/export", "/export.csv"):
        problem(api.client.get(f"{BASE}/leagues/{missing}{path}"), 404)
    problem(api.client.post(f"{BASE}/leagues/{missing}/members", json={"players": [ann]}), 404)
    bad = problem(
        api.client.post(
            f"{BASE}/games",
            json={"players": [ann, bob, cy], "league_id": missing, "roles": {"box": ann, "captain": bob, "sitter": cy}},
        ),
        422,
    )
    assert list(bad["errors"]) == ["league_id"]
    assert api.total("/games") == 0


def test_r16_an_import_whose_ruling_points_do_not_follow_from_its_counts_is_a_422(api: Api, small: Built) -> None:
    _, doc = export(api, small.id)
    hand = next(h for g in doc["games"] for h in g["hands"] if h["mode"] == "counts" and h["ruling"]["points"])
    hand["ruling"]["points"] += 50
    counts_before = [api.total(p) for p in ("/leagues", "/players", "/games")]
    bad = problem(api.client.post(f"{BASE}/leagues/import", json=doc), 422)
    assert any(k.endswith(".ruling") for k in bad["errors"])
    assert [api.total(p) for p in ("/leagues", "/players", "/games")] == counts_before


@pytest.mark.parametrize("interleave", [False, True])
def test_the_leagues_running_books_equal_a_count_from_the_games(api: Api, interleave: bool) -> None:
    """Without a date range the standings come from books kept hand by hand
    (totals, streaks, ratings); with a range, from each game's figures. Over
    the whole history they must agree, whether hands came in order or
    interleaved across tables (which makes the books recount)."""
    entry = list(range(len(LEAGUE)))[::-1] if interleave else None
    built = build(api, LEAGUE, entry=entry, interleave=interleave)
    books = sorted(api.standings(built.id), key=lambda r: r["player_id"])
    counted = sorted(
        api.standings(built.id, **{"from": "1900-01-01T00:00:00Z", "to": "2999-01-01T00:00:00Z"}),
        key=lambda r: r["player_id"],
    )
    assert books == counted
    expected = tally(built.games, list(NAMES))
    for row in books:
        initial = built.initials[row["player_id"]]
        assert {k: row[k] for k in (*COUNTED, "current_streak", "longest_streak")} == {
            k: expected[initial][k] for k in (*COUNTED, "current_streak", "longest_streak")
        }
