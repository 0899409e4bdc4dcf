"""A Hollywood match's stored state is its fold (R34 on R26, R28-R31).

A hand's write advances the state its game row keeps
(``models.game.stored_hollywood_state``) instead of replaying the hand log. A
hypothesis state machine plays matches through the Flask test client, in a
league and outside one: hands by counts and draws, corrections of any past
hand (some refused, R26), undo of the last hand, hands after the end of the
match (refused, R34). After every step, for every match, the state rebuilt
from its row equals, field by field, ``replay_hollywood`` of its hands as
stored (but for what is each hand's own, which the hands' rows keep: each
column's entries, the columns each hand went into, the scores after it,
checked against the rows), and ``models.verify`` finds the books in step
with the hand logs.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from models import Game, db
from models.game import SHOWN_COLUMN_KEYS, GameRow, stored_hollywood_state
from models.verify import verify_books
from referee.hollywood import HollywoodState, replay_hollywood

BASE = "/api/v1"

OPTIONS = [
    {},
    {"target_score": 40},
    {"target_score": 30, "next_dealer": "loser", "shutout": "plus_100"},
    {"target_score": 50, "boxes_immediate": True, "gin_boxes": 2},
    {"target_score": 10, "gin_bonus": 0, "undercut_bonus": 0, "box_bonus": 0, "game_bonus": 0, "shutout": "none"},
]

hands = st.one_of(
    st.just({"outcome": "draw"}),
    st.fixed_dictionaries(
        {
            "knocker": st.sampled_from(["dealer", "non_dealer"]),
            "knocker_deadwood_count": st.sampled_from([0, 1, 4, 7, 10]),
            "defender_deadwood_count": st.sampled_from([0, 3, 8, 15, 30, 55]),
        }
    ),
)


def empty(app: Flask) -> None:
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def as_stored(state: HollywoodState) -> HollywoodState:
    """The fold as its row keeps it: what is each hand's own (each column's
    entries, the columns each hand was entered in, the scores after each
    hand) is on the hands' rows, not in the stored state."""
    columns = tuple(dataclasses.replace(column, entries=()) for column in state.columns)
    return dataclasses.replace(state, columns=columns, entered=(), running=())


def differences(stored: HollywoodState, replayed: HollywoodState) -> list[str]:
    """The fields in which the stored state is not the fold (each column's field by field)."""
    out = []
    for field in dataclasses.fields(HollywoodState):
        mine, theirs = getattr(stored, field.name), getattr(replayed, field.name)
        if field.name == "columns" and len(mine) == len(theirs):
            for a, b in zip(mine, theirs, strict=True):
                out += [
                    f"column {b.number} {f.name}: {getattr(a, f.name)!r} != {getattr(b, f.name)!r}"
                    for f in dataclasses.fields(b)
                    if getattr(a, f.name) != getattr(b, f.name)
                ]
        elif mine != theirs:
            out.append(f"{field.name}: {mine!r} != {theirs!r}")
    return out


class Matches(RuleBasedStateMachine):
    def __init__(self, app: Flask, client: FlaskClient) -> None:
        super().__init__()
        self.app, self.client = app, client
        empty(app)
        self.players = [self.ok("POST", "/players", {"name": n})["id"] for n in ("Ann", "Bob", "Cy")]
        self.league = self.ok("POST", "/leagues", {"name": "Hollywood night", "members": self.players})["id"]
        self.matches: dict[int, int] = {}  # id -> hands played

    def teardown(self) -> None:
        empty(self.app)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        return self.client.open(BASE + path, method=method, json=body)

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        response = self.call(method, path, body)
        assert response.status_code in (200, 201, 204), response.get_data(as_text=True)
        return response.get_json(silent=True)

    def refused(self, response: Any, rule: str) -> None:
        assert response.status_code == 409, response.get_data(as_text=True)
        assert response.get_json()["rule"] == rule, response.get_json()

    @precondition(lambda self: len(self.matches) < 3)
    @rule(options=st.sampled_from(OPTIONS), in_league=st.booleans(), pair=st.sampled_from([(0, 1), (1, 2), (2, 0)]))
    def start(self, options: dict[str, Any], in_league: bool, pair: tuple[int, int]) -> None:
        dealer, other = (self.players[i] for i in pair)
        body: dict[str, Any] = {
            "players": [dealer, other],
            "rules": {"preset": "hollywood", **options},
            "roles": {"dealer": dealer, "non_dealer": other},
        }
        if in_league:
            body["league_id"] = self.league
        game = self.ok("POST", "/games", body)
        self.matches[game["id"]] = 0

    @precondition(lambda self: self.matches)
    @rule(data=st.data(), hand=hands)
    def record(self, data: st.DataObject, hand: dict[str, Any]) -> None:
        game_id = data.draw(st.sampled_from(sorted(self.matches)))
        response = self.call("POST", f"/games/{game_id}/hands", hand)
        if self.call("GET", f"/games/{game_id}").get_json()["status"] == "finished" and response.status_code == 409:
            self.refused(response, "R34")  # a column that is won takes no more hands
            return
        assert response.status_code == 201, response.get_data(as_text=True)
        self.matches[game_id] += 1
        assert response.get_json()["number"] == self.matches[game_id]

    @precondition(lambda self: any(self.matches.values()))
    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        game_id = data.draw(st.sampled_from(sorted(g for g, n in self.matches.items() if n)))
        self.ok("DELETE", f"/games/{game_id}/hands/{self.matches[game_id]}")
        self.matches[game_id] -= 1

    @precondition(lambda self: any(self.matches.values()))
    @rule(data=st.data(), hand=hands)
    def correct(self, data: st.DataObject, hand: dict[str, Any]) -> None:
        game_id = data.draw(st.sampled_from(sorted(g for g, n in self.matches.items() if n)))
        number = data.draw(st.integers(1, self.matches[game_id]))
        response = self.call("PUT", f"/games/{game_id}/hands/{number}", hand)
        if response.status_code == 409:
            self.refused(response, "R26")  # it would end the match before its last hand
        else:
            assert response.status_code == 200, response.get_data(as_text=True)

    @invariant()
    def stored_state_is_the_fold(self) -> None:
        with self.app.app_context():
            for game_id, played in self.matches.items():
                game = db.session.get(Game, game_id)
                assert game is not None and game.hands_played == played
                replayed = replay_hollywood(
                    game.preset_rules, game.first_seating, [hand.two_player_record() for hand in game.hands]
                )
                row = GameRow.read(game_id)
                assert row is not None
                stored = stored_hollywood_state(row)
                assert differences(stored, as_stored(replayed)) == []
                assert stored == as_stored(replayed)
                assert (stored.finished, stored.scores, stored.boxes, stored.winner) == (
                    replayed.finished,
                    replayed.scores,
                    replayed.boxes,
                    replayed.winner,
                )
                # what is each hand's own: on the hands' rows, and each column's hands on the game's
                assert [c["hands"] for c in row.sheet["columns"]] == [  # type: ignore[index]
                    [entry.hand for entry in column.entries] for column in replayed.columns
                ]
                assert [hand.columns for hand in game.hands] == [list(e) for e in replayed.entered]
                assert [hand.scores_after for hand in game.hands] == [
                    {str(p): n for p, n in running.items()} for running in replayed.running
                ]
                assert all(list(column) == list(SHOWN_COLUMN_KEYS) for column in row.match_columns or [])
            db.session.rollback()
            assert verify_books() == []


@pytest.mark.parametrize("examples", [pytest.param(15, id="quick"), pytest.param(150, marks=pytest.mark.slow)])
def test_r34_the_stored_state_of_a_match_is_its_fold_after_any_sequence_of_writes(
    app: Flask, client: FlaskClient, examples: int
) -> None:
    run_state_machine_as_test(
        lambda: Matches(app, client),
        settings=settings(
            max_examples=examples,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
