"""``flask books verify``: every stored figure recounted from the hand logs
alone (R11, R12, R16-R20, R25, R26), through Flask's CLI runner.

The league here is changed in every way the API allows; the command must find
that the books agree with the hand logs. A column changed behind the API's
back must be reported, exactly, with a non-zero exit.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from models import Game, GamePlayer, Hand, League, LeaguePlayer, LeagueRating, db
from models.verify import verify_books, verify_game, verify_league
from tests.test_api.conftest import (
    DRAW,
    GIN_34,
    KNOCK_6,
    KNOCK_10,
    UNDERCUT_20,
    by_cards,
    by_counts,
    melds,
    problem,
    seats,
)

BASE = "/api/v1"
# R15, R22, R23: KNOCK_6 with everything declared: the defender lays 8H then 9H off
# onto the knocker's 5H 6H 7H, declared first (meld 0) this time.
KNOCK_6_DECLARED = by_cards(
    "box",
    *KNOCK_6,
    knocker_melds=melds("5H 6H 7H | 2S 2D 2C | JS JD JC"),
    defender_melds=melds("3D 4D 5D | 8C 9C 10C"),
    layoffs=[{"card": "8H", "meld": 0}, {"card": "9H", "meld": 0}],
    discard="KC",
)


def verify(app: Flask, *args: str) -> Any:
    return app.test_cli_runner().invoke(args=["books", "verify", *args])


class Table:
    """Writes through the API with the key and If-Match a phone sends (AutoClient)."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def write(self, method: str, path: str, body: Any = None, status: int = 201) -> Any:
        response = self.client.open(BASE + path, method=method, json=body)
        assert response.status_code == status, response.get_data(as_text=True)
        return response.get_json(silent=True)

    def get(self, path: str) -> Any:
        response = self.client.get(BASE + path)
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()

    def player(self, name: str) -> int:
        return int(self.write("POST", "/players", {"name": name})["id"])

    def game(self, roles: tuple[int, int, int], **body: Any) -> int:
        players = list(roles)
        return int(self.write("POST", "/games", {"players": players, "roles": seats(*roles), **body})["id"])

    def hand(self, game_id: int, body: dict[str, Any]) -> dict[str, Any]:
        return dict(self.write("POST", f"/games/{game_id}/hands", body))

    def correct(self, game_id: int, number: int, body: dict[str, Any], status: int = 200) -> Any:
        return self.write("PUT", f"/games/{game_id}/hands/{number}", body, status)

    def undo(self, game_id: int, number: int) -> None:
        self.write("DELETE", f"/games/{game_id}/hands/{number}", status=204)


def stale(league_id: int) -> tuple[bool, bool]:
    league = db.session.get(League, league_id)
    assert league is not None
    db.session.refresh(league)
    return league.ratings_stale, league.streaks_stale


def test_r26_a_league_changed_in_every_way_the_api_allows_agrees_with_its_hand_logs(
    app: Flask, client: FlaskClient
) -> None:
    t = Table(client)
    a, b, c, d = (t.player(n) for n in ("Ann", "Bob", "Cy", "Dee"))
    league = t.write("POST", "/leagues", {"name": "Thursday gin", "members": [a, b, c, d]})["id"]

    # Rules changed before the first hand (PATCH); hands by cards, declared and not, by counts, draws.
    g1 = t.game((a, b, c), league_id=league, rules={"target_score": 50})
    t.write("PATCH", f"/games/{g1}", {"rules": {"target_score": 60, "gin_bonus": 20}}, status=200)
    t.hand(g1, KNOCK_6_DECLARED)  # A +6 (R16); A stays in the box (R11)
    t.hand(g1, DRAW)  # R12
    t.hand(g1, by_cards("captain", *KNOCK_10))  # C +10, into the box
    t.hand(g1, by_counts("box", 3, 12))  # C +9 = 19
    t.hand(g1, by_cards("captain", *UNDERCUT_20))  # the captain is undercut: C +20 = 39
    with app.app_context():
        assert verify_league(league) == [] and stale(league) == (False, False)  # kept in step hand by hand
    # R26: hand 1 corrected to a draw: hand 2 is now out of turn, later hands stand.
    t.correct(g1, 1, DRAW)
    # R26: a correction that would make C reach 60 before hand 5 is refused (409), and changes nothing.
    before = t.get(f"/games/{g1}")
    problem(client.put(f"{BASE}/games/{g1}/hands/4", json=by_counts("box", 0, 40)), 409)
    assert t.get(f"/games/{g1}") == before
    t.hand(g1, by_cards("box", *GIN_34))  # C gin, 9 + 20 = 29: 68 wins (R18, R20)
    assert t.get(f"/games/{g1}")["status"] == "finished"
    assert t.get(f"/games/{g1}")["out_of_turn"] == [2]

    # Hands undone (DELETE), a finished game unfinished and finished again.
    g2 = t.game((b, c, d), league_id=league, rules={"target_score": 30})
    t.hand(g2, by_counts("box", 2, 30))  # B +28 (R16)
    t.hand(g2, by_counts("captain", 5, 5))  # D knocks and is undercut (R17): B +10 = 38 wins
    assert t.get(f"/games/{g2}")["status"] == "finished"
    t.undo(g2, 2)
    t.hand(g2, by_counts("captain", 1, 9))  # D +8, into the box
    t.hand(g2, by_cards("captain", *KNOCK_6))  # C +6, into the box
    t.hand(g2, by_counts("box", 0, 5))  # C gin, 5 + 25: 36 wins
    assert t.get(f"/games/{g2}")["status"] == "finished"

    # A backdated game: its hands go before every other in rating and streak order.
    g3 = t.game((a, b, d), league_id=league, rules={"target_score": 10}, played_at="2020-02-02T20:00:00Z")
    t.hand(g3, by_counts("box", 4, 20))  # A +16: A wins at once
    with app.app_context():
        assert stale(league) == (True, True)
        assert verify_league(league) == []  # stale ratings: as a refresh would store them
    assert t.get(f"/leagues/{league}/standings")["items"]  # the read refreshes them
    with app.app_context():
        assert stale(league) == (False, False)

    # A member added later plays, the league's key is rotated, and the game goes on with the new key.
    e = t.player("Eve")
    t.write("POST", f"/leagues/{league}/members", {"players": [e]}, status=200)
    g4 = t.write(
        "POST", "/games", {"players": [a, d, e], "league_id": league, "cut": {str(a): "KH", str(d): "2S", str(e): "9D"}}
    )["id"]
    t.hand(g4, by_counts("box", 2, 10))
    t.write("POST", f"/leagues/{league}/key")
    t.hand(g4, by_counts("captain", 7, 9))
    t.hand(g4, DRAW)

    # A game outside any league, its own key rotated.
    g5 = t.game((c, d, e))
    t.hand(g5, by_cards("box", *GIN_34))
    t.write("POST", f"/games/{g5}/key")
    t.hand(g5, by_counts("box", 10, 3))
    t.correct(g5, 2, by_counts("box", 1, 3))
    t.undo(g5, 2)

    # The export imported back as a new league, which then plays on.
    doc = t.get(f"/leagues/{league}/export")
    copy = t.write("POST", "/leagues/import", doc)["id"]
    imported = [g["id"] for g in t.get(f"/leagues/{copy}/games")["items"] if g["status"] == "in_progress"]
    assert imported
    t.hand(imported[0], by_counts("box", 1, 2))

    games = t.get("/games?per_page=100")
    hands = sum(len(t.get(f"/games/{g['id']}/hands")["items"]) for g in games["items"])
    result = verify(app)
    assert (result.exit_code, result.output) == (
        0,
        f"books agree with the hand logs: {games['total']} games, {hands} hands\n",
    )
    assert games["total"] == 9
    one = verify(app, "--league", str(copy))
    assert (one.exit_code, one.output) == (0, f"books agree with the hand logs: 4 games, {hands - 14 - 1} hands\n")
    with app.app_context():
        assert verify_books() == [] and verify_game(g5) == []


@pytest.fixture
def small(client: FlaskClient) -> dict[str, int]:
    """A league of three whose one game Ann won by gin (R18): Ann 34, then Bob +9, with
    books kept in step (nothing stale)."""
    t = Table(client)
    a, b, c = (t.player(n) for n in ("Ann", "Bob", "Cy"))
    league = t.write("POST", "/leagues", {"name": "Small", "members": [a, b, c]})["id"]
    game = t.game((a, b, c), league_id=league, rules={"target_score": 30})
    t.hand(game, by_cards("box", *GIN_34))  # A +34 >= 30: A wins (R18, R20)
    other = t.game((a, b, c), league_id=league)
    t.hand(other, by_counts("captain", 1, 10))  # B +9
    t.get(f"/leagues/{league}/standings")
    return {"league": league, "game": game, "other": other, "a": a, "b": b, "c": c}


TAMPERED = {
    "a game's score": (
        lambda s: (
            update(Game).where(Game.id == s["game"]).values(scores={str(s["a"]): 44, str(s["b"]): 0, str(s["c"]): 0})
        ),
        "game {game}: scores[{a}] stored 44, recounted 34",
    ),
    "a hand's R26 mark": (
        lambda s: update(Hand).where(Hand.game_id == s["other"]).values(seating_follows=False),
        "game {other} hand 1: seating_follows stored False, recounted True",
    ),
    "a game's winner": (
        lambda s: update(Game).where(Game.id == s["game"]).values(winner=s["b"]),
        "game {game}: winner stored {b}, recounted {a}",
    ),
    "a game_player figure": (
        lambda s: (
            update(GamePlayer)
            .where(GamePlayer.game_id == s["game"], GamePlayer.player_id == s["b"])
            .values(hands_captain=2)
        ),
        "game {game} player {b}: game_player.hands_captain stored 2, recounted 1",
    ),
    "a league total": (
        lambda s: update(LeaguePlayer).where(LeaguePlayer.player_id == s["a"]).values(gins=0),
        "league {league} player {a}: league_player.gins stored 0, recounted 1",
    ),
    "a streak": (
        lambda s: update(LeaguePlayer).where(LeaguePlayer.player_id == s["c"]).values(longest_streak=3),
        "league {league} player {c}: longest_streak stored 3, recounted 0",
    ),
    "a rating's mu": (
        lambda s: update(LeagueRating).where(LeagueRating.player_id == s["a"]).values(mu=20.0),
        "league {league} player {a}: league_rating.mu stored 20.0, recounted {mu_a!r}",
    ),
}


@pytest.mark.parametrize("what", list(TAMPERED))
def test_a_column_changed_behind_the_apis_back_is_one_line_naming_it_and_a_nonzero_exit(
    app: Flask, small: dict[str, int], what: str
) -> None:
    tamper, line = TAMPERED[what]
    with app.app_context():
        assert verify_books() == []
        mu_a = db.session.scalar(select(LeagueRating.mu).where(LeagueRating.player_id == small["a"]))
        db.session.execute(tamper(small))
        db.session.commit()
    expected = line.format(**small, mu_a=mu_a)
    result = verify(app)
    assert result.exit_code == 1
    assert result.stdout == expected + "\n"
    assert result.stderr == "1 difference between the books and the hand logs: 2 games, 2 hands\n"
    with app.app_context():
        assert verify_books() == [expected]


def test_a_league_or_game_that_does_not_exist_is_a_usage_error(app: Flask, small: dict[str, int]) -> None:
    result = verify(app, "--league", "999999")
    assert result.exit_code == 2
    assert "there is no league 999999" in result.output
    result = verify(app, "--game", str(small["game"]))
    assert (result.exit_code, result.output) == (0, "books agree with the hand logs: 1 games, 1 hands\n")
