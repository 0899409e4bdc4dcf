"""The books after any sequence of writes the API allows (R9, R11-R26).

A hypothesis state machine plays leagues and games through the Flask test
client: games in a league and outside one, with given roles or a cut (R9),
rule options changed before the first hand; hands by cards (declared melds
and layoffs or not, R21-R24), by counts (R25) and draws (R12); corrections of
any past hand (R26), undo of the last, knocks the referee refuses (R14);
members added, a league exported and imported, standings read.

After every step two independent checks must hold:

* ``models.verify`` (the code behind ``flask books verify``) finds that
  everything stored agrees with a recount from the hand logs;
* the API's answers agree with a fold of the hands as the API returns them:
  each game's scores, roles, winner, status, hands played and R26 marks, and
  each hand's running scores and R26 mark, from ``referee.replay`` over the
  returned seating, knocker and ruling. Every game is listed after every
  step; one whose listing moved (every write to a game moves its version) is
  read again, with its hands, and folded.

A refused write (R14, R25, R26, the undo of a hand that is not the last) must
leave the game and its hands as they were; a hand sent again under the same
Idempotency-Key must be answered as the first time and recorded once.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from models import db
from models.verify import verify_books
from referee import (
    DECK,
    Card,
    HandRecord,
    Outcome,
    Role,
    Roles,
    Rules,
    Score,
    Side,
    all_melds,
    best_arrangement,
    best_play,
    least_deadwood,
    parse_card,
    replay,
)
from referee.cards import RANKS
from referee.layoff import play_without_layoffs
from tests.test_api.conftest import DRAW, by_counts

BASE = "/api/v1"
MELDS = all_melds(DECK)  # every meld a deck holds (R4, R5)
# When games are played: ties (the same instant twice), the past, the future and now (None).
INSTANTS = [None, None, "2020-01-01T12:00:00Z", "2020-01-01T12:00:00Z", "2019-06-01T12:00:00Z", "2031-01-01T00:00:00Z"]
RULE_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "target_score": st.sampled_from([10, 20, 30, 60]),  # small targets: games are won (R20)
        "knock_limit": st.sampled_from([0, 5, 10]),  # R14
        "gin_bonus": st.sampled_from([20, 25]),  # R18
        "undercut_bonus": st.sampled_from([0, 10]),  # R17
    },
)
MAX_GAMES = 10  # created by hand; imports copy more
MAX_PLAYING = 3  # a new game only while fewer are being played
MAX_LEAGUES = 3


def names(cards: list[Card]) -> list[str]:
    return [str(c) for c in cards]


def ten_cards(rng: random.Random, taken: set[Card]) -> list[Card]:
    """Ten cards not in ``taken``: up to three melds, topped up with other
    cards, often low ones only so that the knock limit is within reach (R14)."""
    hand: list[Card] = []
    for meld in rng.sample(MELDS, rng.randint(0, 3)):
        if len(hand) + len(meld.cards) <= 10 and not (set(meld.cards) & (taken | set(hand))):
            hand += meld.cards
    free = [c for c in DECK if c not in taken and c not in hand]
    low = [c for c in free if c.value <= 3]
    if rng.random() < 0.6 and len(low) >= 10 - len(hand):
        free = low
    return hand + rng.sample(free, 10 - len(hand))


@st.composite
def by_cards(draw: st.DrawFn) -> dict[str, Any]:
    """A knock by cards (R21), declared in full, in part or not at all (R22-R24).
    The knock may be over the limit: the referee then refuses it (R14). The
    deal comes from a seed: a few bytes of hypothesis's budget, not a shuffled
    deck's worth per hand."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    knocker = ten_cards(rng, set())
    defender = ten_cards(rng, set(knocker))
    knocker_hand: dict[str, Any] = {"cards": names(knocker)}
    defender_hand: dict[str, Any] = {"cards": names(defender)}
    if draw(st.booleans()):
        knocker_hand["discard"] = str(rng.choice([c for c in DECK if c not in knocker and c not in defender]))
    declared = draw(st.sampled_from(["none", "knocker", "fewer", "melds", "empty", "layoffs"]))
    if declared != "none":
        melds = list(best_arrangement(knocker).melds)
        if declared == "fewer" and melds:
            melds.pop()  # R22: fewer melds than he could, which may leave him over the limit (R14)
        knocker_hand["melds"] = [names(list(m.cards)) for m in melds]
        gin = sum(c.value for c in knocker) == sum(c.value for m in melds for c in m.cards)
        play = play_without_layoffs(defender) if gin else best_play(defender, melds)
        if declared == "empty":
            defender_hand["melds"] = []  # R22: declared empty
        elif declared in ("melds", "layoffs"):
            defender_hand["melds"] = [names(list(m.cards)) for m in play.melds]
        if declared == "layoffs":
            defender_hand["layoffs"] = [{"card": str(lo.card), "meld": lo.meld} for lo in play.layoffs]
    return {
        "knocker": draw(st.sampled_from(["box", "captain"])),
        "knocker_hand": knocker_hand,
        "defender_hand": defender_hand,
    }


def legal(body: dict[str, Any], rules: dict[str, int]) -> bool:
    """Whether the referee must accept this hand under these rules (R14, R25)."""
    if "knocker_hand" not in body:
        return "knocker_deadwood_count" not in body or body["knocker_deadwood_count"] <= rules["knock_limit"]
    cards = [parse_card(c) for c in body["knocker_hand"]["cards"]]
    declared = body["knocker_hand"].get("melds")
    if declared is None:
        return least_deadwood(cards) <= rules["knock_limit"]
    return sum(c.value for c in cards) - sum(parse_card(c).value for m in declared for c in m) <= rules["knock_limit"]


HANDS = st.one_of(
    by_cards(),
    st.builds(by_counts, st.sampled_from(["box", "captain"]), st.integers(0, 10), st.integers(0, 100)),
    st.just(DRAW),
)


def fold(game: dict[str, Any], hands: list[dict[str, Any]]) -> None:
    """The game and its hands as the API returns them equal ``referee.replay``
    over the hands' own seating, knocker and ruling (R11, R12, R19, R20, R26)."""
    records = []
    for hand in hands:
        ruling = hand["ruling"]
        scorer = None if ruling["scorer"] is None else Side(ruling["scorer"])
        records.append(
            HandRecord(
                Roles(**hand["seating"]),
                None if hand["knocker"] is None else Role(hand["knocker"]),
                Score(Outcome(ruling["outcome"]), scorer, ruling["points"]),
            )
        )
    state = replay(Rules(**game["rules"]), Roles(**game["first_roles"]), records)
    assert game["scores"] == {str(p): n for p, n in state.scores.items()}
    assert game["roles"] == (None if state.roles is None else state.roles.as_dict())
    assert game["winner"] == state.winner
    assert game["status"] == ("finished" if state.finished else "in_progress")
    assert game["hands_played"] == state.hands_played == len(hands)
    assert game["out_of_turn"] == list(state.out_of_turn)
    for number, (hand, running) in enumerate(zip(hands, state.running, strict=True), start=1):
        assert hand["number"] == number
        assert hand["scores"] == {str(p): n for p, n in running.items()}
        assert hand["seating_follows"] is (number not in state.out_of_turn)
        assert (hand["roles"], hand["status"], hand["winner"]) == (game["roles"], game["status"], game["winner"])


def empty(app: Flask) -> None:
    """Every row deleted, as the ``client`` fixture does after each test."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


class Books(RuleBasedStateMachine):
    def __init__(self, app: Flask, client: FlaskClient) -> None:
        super().__init__()
        self.app, self.client = app, client
        self.written = True  # since standings were last read
        empty(app)  # a fresh database for each example
        self.players = [self.write("POST", "/players", {"name": n})["id"] for n in ("Ann", "Bob", "Cy", "Dee", "Eve")]
        league = self.write("POST", "/leagues", {"name": "Thursday gin", "members": self.players[:4]})
        self.members: dict[int, list[int]] = {league["id"]: league["members"]}
        self.games: dict[int, dict[str, Any]] = {}  # id -> the game as last read
        self.created = 0
        self.retries = 0
        self.ruled: dict[int, int] = {}  # game id -> its version after its rules were last changed
        self.recorded: set[int] = set()  # the games that have had a hand (undone or not; made here or imported)

    def teardown(self) -> None:
        empty(self.app)

    # --- the API ---

    def call(self, method: str, path: str, body: Any = None, **query: Any) -> Any:
        self.written = self.written or method != "GET"
        return self.client.open(BASE + path, method=method, json=body, query_string=query or None)

    def write(self, method: str, path: str, body: Any = None, status: int = 201) -> Any:
        response = self.call(method, path, body)
        assert response.status_code == status, response.get_data(as_text=True)
        return response.get_json(silent=True)

    def get(self, path: str, **query: Any) -> Any:
        response = self.call("GET", path, **query)
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()

    def table(self, game_id: int) -> tuple[Any, Any]:
        return self.get(f"/games/{game_id}"), self.get(f"/games/{game_id}/hands")

    def refused(self, game_id: int, response: Any, status: int) -> None:
        """A refused write (R14, R25, R26) is a problem, and nothing changed."""
        assert response.status_code == status, response.get_data(as_text=True)
        assert response.mimetype == "application/problem+json"
        assert self.table(game_id) == (self.games[game_id]["game"], self.games[game_id]["hands"])

    def pick(self, data: st.DataObject, **where: Any) -> int:
        candidates = [gid for gid, g in self.games.items() if all(test(g["game"]) for test in where.values())]
        return int(data.draw(st.sampled_from(candidates)))

    def playing(self) -> bool:
        return any(g["game"]["status"] == "in_progress" for g in self.games.values())

    def with_hands(self) -> bool:
        return any(g["game"]["hands_played"] for g in self.games.values())

    # --- rules ---

    @initialize(data=st.data(), rules=RULE_OPTIONS, played_at=st.sampled_from(INSTANTS), cut=st.booleans())
    def start_a_league_game(self, data: st.DataObject, rules: dict[str, int], played_at: str | None, cut: bool) -> None:
        self.create_game(data, True, rules, played_at, cut)

    @initialize(data=st.data(), rules=RULE_OPTIONS, played_at=st.sampled_from(INSTANTS), cut=st.booleans())
    def start_a_game_outside_a_league(
        self, data: st.DataObject, rules: dict[str, int], played_at: str | None, cut: bool
    ) -> None:
        self.create_game(data, False, rules, played_at, cut)

    @precondition(
        lambda self: (
            self.created < MAX_GAMES
            and sum(g["game"]["status"] == "in_progress" for g in self.games.values()) < MAX_PLAYING
        )
    )
    @rule(
        data=st.data(),
        in_league=st.booleans(),
        rules=RULE_OPTIONS,
        played_at=st.sampled_from(INSTANTS),
        cut=st.booleans(),
    )
    def create_game(
        self, data: st.DataObject, in_league: bool, rules: dict[str, int], played_at: str | None, cut: bool
    ) -> None:
        league = data.draw(st.sampled_from(sorted(self.members))) if in_league else None
        players = data.draw(st.permutations(self.members[league] if league else self.players))[:3]
        body: dict[str, Any] = {"players": players, "rules": rules}
        if cut:  # R9: three distinct ranks, the highest in the box
            ranks = data.draw(st.lists(st.sampled_from(RANKS), min_size=3, max_size=3, unique=True))
            suits = data.draw(st.lists(st.sampled_from("SHDC"), min_size=3, max_size=3))
            body["cut"] = {str(p): r + s for p, r, s in zip(players, ranks, suits, strict=True)}
        else:
            body["roles"] = dict(zip(("box", "captain", "sitter"), players, strict=True))
        if league is not None:
            body["league_id"] = league
        if played_at is not None:
            body["played_at"] = played_at
        self.write("POST", "/games", body)
        self.created += 1

    def record(self, game_id: int, body: dict[str, Any], retry: bool) -> None:
        """The next hand; with ``retry``, sent again under the same Idempotency-Key,
        which answers as the first time and records nothing more."""
        game = self.games[game_id]["game"]
        headers = {}
        if retry:
            self.retries += 1
            headers["Idempotency-Key"] = f"retry-{self.retries:08d}-of-a-hand"
        response = self.client.post(f"{BASE}/games/{game_id}/hands", json=body, headers=headers)
        self.written = True
        if not legal(body, game["rules"]):
            self.refused(game_id, response, 422)  # R14, R25
            return
        assert response.status_code == 201, response.get_data(as_text=True)
        assert response.get_json()["number"] == game["hands_played"] + 1
        self.recorded.add(game_id)
        if retry:
            after = self.table(game_id)
            again = self.client.post(f"{BASE}/games/{game_id}/hands", json=body, headers=headers)
            assert (again.status_code, again.headers["Idempotent-Replayed"]) == (201, "true")
            assert again.get_json() == response.get_json()
            assert self.table(game_id) == after

    @precondition(playing)
    @rule(data=st.data(), body=by_cards(), retry=st.booleans())
    def record_by_cards(self, data: st.DataObject, body: dict[str, Any], retry: bool) -> None:
        self.record(self.pick(data, playing=lambda g: g["status"] == "in_progress"), body, retry)

    @precondition(playing)
    @rule(
        data=st.data(), knocker=st.sampled_from(["box", "captain"]), defender=st.integers(0, 100), retry=st.booleans()
    )
    def record_by_counts(self, data: st.DataObject, knocker: str, defender: int, retry: bool) -> None:
        game_id = self.pick(data, playing=lambda g: g["status"] == "in_progress")
        limit = self.games[game_id]["game"]["rules"]["knock_limit"]
        self.record(game_id, by_counts(knocker, data.draw(st.integers(0, limit)), defender), retry)  # R25

    @precondition(playing)
    @rule(data=st.data(), retry=st.booleans())
    def record_draw(self, data: st.DataObject, retry: bool) -> None:
        self.record(self.pick(data, playing=lambda g: g["status"] == "in_progress"), DRAW, retry)

    @precondition(with_hands)
    @rule(data=st.data(), body=HANDS)
    def correct_hand(self, data: st.DataObject, body: dict[str, Any]) -> None:
        game_id = self.pick(data, hands=lambda g: g["hands_played"] > 0)
        game = self.games[game_id]["game"]
        number = data.draw(st.integers(1, game["hands_played"]))
        response = self.call("PUT", f"/games/{game_id}/hands/{number}", body)
        if not legal(body, game["rules"]):
            self.refused(game_id, response, 422)  # R14, R25
        elif response.status_code == 409:  # R26: it would strand the hands after a win
            assert response.get_json()["rule"] == "R26"
            stranded = response.get_json()["hands"]
            assert stranded == list(range(stranded[0], game["hands_played"] + 1)) and stranded[0] > 1
            self.refused(game_id, response, 409)
        else:
            assert response.status_code == 200, response.get_data(as_text=True)
            assert response.get_json()["corrected_at"] is not None

    @precondition(with_hands)
    @rule(data=st.data(), last=st.booleans())
    def undo_hand(self, data: st.DataObject, last: bool) -> None:
        game_id = self.pick(data, hands=lambda g: g["hands_played"] > 0)
        played = self.games[game_id]["game"]["hands_played"]
        number = played if last or played == 1 else data.draw(st.integers(1, played - 1))
        response = self.call("DELETE", f"/games/{game_id}/hands/{number}")
        if number == played:
            assert response.status_code == 204, response.get_data(as_text=True)
        else:
            self.refused(game_id, response, 409)  # only the last hand can be undone

    def unplayed(self, game: dict[str, Any]) -> bool:
        """Never a hand, and not changed since its rules last were."""
        return game["id"] not in self.recorded and self.ruled.get(game["id"]) != game["version"]

    def all_undone(self, game: dict[str, Any]) -> bool:
        return game["id"] in self.recorded and not game["hands_played"]

    @precondition(lambda self: any(self.all_undone(g["game"]) for g in self.games.values()))
    @rule(data=st.data(), rules=RULE_OPTIONS)
    def change_rules_after_undoing_every_hand(self, data: st.DataObject, rules: dict[str, int]) -> None:
        """A 409: the undone hands' revisions keep the rulings made under the rules (R26)."""
        game_id = self.pick(data, all_undone=self.all_undone)
        response = self.client.patch(f"{BASE}/games/{game_id}", json={"rules": rules})
        self.refused(game_id, response, 409)

    @precondition(lambda self: any(self.unplayed(g["game"]) for g in self.games.values()))
    @rule(data=st.data(), rules=RULE_OPTIONS)
    def change_rules(self, data: st.DataObject, rules: dict[str, int]) -> None:
        """Only before the first hand (once there is one, a 409: see test_games.py)."""
        game_id = self.pick(data, unplayed=self.unplayed)
        self.ruled[game_id] = self.write("PATCH", f"/games/{game_id}", {"rules": rules}, 200)["version"]

    @precondition(lambda self: len(self.members) < MAX_LEAGUES)
    @rule(data=st.data())
    def export_and_import(self, data: st.DataObject) -> None:
        league = data.draw(st.sampled_from(sorted(self.members)))
        copy = self.write("POST", "/leagues/import", self.get(f"/leagues/{league}/export"))
        self.members[copy["id"]] = copy["members"]

    @precondition(lambda self: self.written)
    @rule(data=st.data())
    def read_standings(self, data: st.DataObject) -> None:
        """A read recomputes stale streaks and ratings; the books (no date range)
        and a count over every game's figures (a range) agree."""
        self.written = False
        league = data.draw(st.sampled_from(sorted(self.members)))
        books = self.get(f"/leagues/{league}/standings")["items"]
        counted = self.get(
            f"/leagues/{league}/standings", **{"from": "1900-01-01T00:00:00Z", "to": "2999-01-01T00:00:00Z"}
        )["items"]
        assert sorted(books, key=lambda r: r["player_id"]) == sorted(counted, key=lambda r: r["player_id"])

    def outsiders(self) -> dict[int, list[int]]:
        """Players who may join each league: one more for a league of four."""
        return {
            lid: [p for p in self.players if p not in members] if len(members) < 5 else []
            for lid, members in self.members.items()
        }

    @precondition(lambda self: any(self.outsiders().values()))
    @rule(data=st.data())
    def add_member(self, data: st.DataObject) -> None:
        outsiders = self.outsiders()
        league = data.draw(st.sampled_from([lid for lid in sorted(outsiders) if outsiders[lid]]))
        player = data.draw(st.sampled_from(outsiders[league]))
        self.members[league] = self.write("POST", f"/leagues/{league}/members", {"players": [player]}, 200)["members"]

    # --- after every step ---

    @invariant()
    def books_agree_with_the_hand_logs(self) -> None:
        with self.app.app_context():
            assert verify_books() == []

    @invariant()
    def the_api_agrees_with_a_fold_of_its_hands(self) -> None:
        """Every game listed as last folded, or read again with its hands and folded."""
        listed = self.get("/games", per_page=100)
        assert listed["total"] <= 100
        for game in listed["items"]:
            known = self.games.get(game["id"])
            if known is not None and known["game"] == game:
                continue
            read, hands = self.table(game["id"])
            assert read == game
            fold(read, hands["items"])
            # one event per version since the game began here (1) or was imported (no event at 1)
            versions = [e["version"] for e in self.get(f"/games/{game['id']}/events", limit=200)["items"]]
            first = read["version"] - len(versions) + 1
            assert first in (1, 2) and versions == list(range(first, read["version"] + 1))
            self.games[game["id"]] = {"game": read, "hands": hands}
            if read["hands_played"] or self.call("GET", f"/games/{game['id']}/hands/1/revisions").status_code == 200:
                self.recorded.add(game["id"])  # an imported game's undone hands are in its record too


# Deep sequences on SQLite; on PostgreSQL, where each request costs about three
# times as much, shorter ones (what it adds is its types and its locking, not
# depth): 200 examples each, in about 60-90 s on two cores.
STEPS = {"sqlite": 20, "postgresql": 8}


@pytest.mark.slow
def test_the_books_agree_with_the_hand_logs_after_any_sequence_of_writes(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        backend = db.engine.dialect.name
    run_state_machine_as_test(
        lambda: Books(app, client),
        settings=settings(
            max_examples=200,
            stateful_step_count=STEPS[backend],
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        ),
    )
