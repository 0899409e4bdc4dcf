"""Schemathesis over the whole spec against a live gunicorn server (4 workers).

Run by .ci/run (`make fuzz-live`). Seeds players, leagues, games in and outside
leagues (with hands by cards, by counts and draws, with room for more, without
hands, finished), so that small ids name real resources; then fuzzes every
operation (examples, coverage, fuzzing and stateful phases) with the hooks of
tests/schemathesis_hooks.py, which send each write the key of its league or
game, the game's ETag and a fresh Idempotency-Key. Checks that no response is
a server error and every response conforms to openapi.yaml (status, content
type, schema, headers).

Prints how many answers each operation got, by status class, and the wall
time. Exits non-zero on any check failure, on any 5xx, and when a write
operation never got a 2xx (its view was never reached with a request it
accepts). Bounded by --max-examples per operation and a timeout.

    python tests/fuzz_live.py [max_examples]      (default 100)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance,response_headers_conformance"
)
TIMEOUT = 420  # seconds for the schemathesis run: the whole step stays within 8 minutes
WRITES = ("POST", "PUT", "PATCH", "DELETE")
# The imports' own limit (10 an hour per address) would spend itself on the first
# generated cases, and the real documents sent after them would all be 429.
IMPORT_LIMIT = '"100000 per hour"'

# Hands whose rulings tests/test_api/conftest.py works out (R14-R18, R12).
KNOCK_10 = ("4H 5H 6H 4S 5S 6S 4D 5D 6D KC", "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")
GIN_34 = ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "AH 2H 3H 4D 5D 6D JC QC KC 9H")
BY_CARDS = {
    "knocker": "box",
    "knocker_hand": {"cards": KNOCK_10[0].split(), "discard": "QS"},
    "defender_hand": {"cards": KNOCK_10[1].split()},
}
BY_COUNTS = {"knocker": "captain", "knocker_deadwood_count": 3, "defender_deadwood_count": 20}
DRAW = {"outcome": "draw"}
GIN = {"knocker": "box", "knocker_hand": {"cards": GIN_34[0].split()}, "defender_hand": {"cards": GIN_34[1].split()}}


class Seeder:
    """Builds the data through the API, as a client would, keeping the keys."""

    def __init__(self, base: str) -> None:
        import requests

        self.http = requests.Session()
        self.api = base + "/api/v1"
        self.keys: dict[tuple[str, int], str] = {}
        self.cards_hands: list[list[int]] = []  # [game, number] of the hands recorded by cards
        self.disputes: list[list[int]] = []  # [game, number, dispute] of the disputes left open
        self.share_keys: list[list[Any]] = []  # [scope, owner, share key id] to revoke
        self.games: list[list[Any]] = []  # [game, league or None]: whose key writes (and reads) it

    def _post(self, path: str, body: Any, key: str | None = None, etag: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        if etag:
            headers["If-Match"] = etag
        response = self.http.post(self.api + path, json=body, headers=headers, timeout=20)
        assert response.status_code == 201, (path, body, response.status_code, response.text)
        return response

    def player(self, name: str) -> int:
        return int(self._post("/players", {"name": name}).json()["id"])

    def league(self, name: str, members: list[int]) -> int:
        body = self._post("/leagues", {"name": name, "members": members}).json()
        self.keys[("league", body["id"])] = body["key"]
        self.share(f"/leagues/{body['id']}", "league", int(body["id"]), body["key"])
        return int(body["id"])

    def share(self, path: str, scope: str, owner: int, key: str) -> None:
        for label in ("board", "phone", "club room"):
            share = self._post(f"{path}/share-key", {"label": label}, key).json()
            self.share_keys.append([scope, owner, int(share["id"])])

    def game(
        self, players: list[int], league: int | None, *, cut: bool, rules: dict[str, int], hands: list[dict[str, Any]]
    ) -> int:
        body: dict[str, Any] = {"players": players, "rules": rules}
        if cut:
            body["cut"] = {str(players[0]): "KS", str(players[1]): "7H", str(players[2]): "2D"}
        else:
            body["roles"] = {"box": players[1], "captain": players[2], "sitter": players[0]}
        key = None
        if league is not None:
            body["league_id"] = league
            key = self.keys[("league", league)]
        response = self._post("/games", body, key)
        game = response.json()
        self.games.append([int(game["id"]), league])
        if league is None:
            key = self.keys[("game", game["id"])] = game["key"]
            self.share(f"/games/{game['id']}", "game", int(game["id"]), key)
        etag = response.headers["ETag"]
        for number, hand in enumerate(hands, start=1):
            etag = self._post(f"/games/{game['id']}/hands", hand, key, etag).headers["ETag"]
            if "knocker_hand" in hand:
                self.cards_hands.append([int(game["id"]), number])
                for _ in range(2):  # open disputes, for the fuzzed resolutions to resolve
                    body = {"by": "captain", "claim": "a dispute to resolve"}
                    opened = self._post(f"/games/{game['id']}/hands/{number}/disputes", body, key)
                    etag = opened.headers["ETag"]  # a dispute is a change to the game
                    self.disputes.append([int(game["id"]), number, int(opened.json()["id"])])
        return int(game["id"])

    def export(self, league: int) -> Any:
        response = self.http.get(f"{self.api}/leagues/{league}/export", timeout=20)
        assert response.status_code == 200, response.text
        return response.json()


def seed(base: str) -> dict[str, Any]:
    """Players 1-12; leagues 1-4; games 1-49 of every kind, ids interleaved."""
    s = Seeder(base)
    p = [s.player(name) for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou")]
    leagues = [
        s.league("Thursday club", p[:6]),
        s.league("Pairs", p[:3]),
        s.league("Cafe", p[3:]),
        s.league("Everyone", p),
    ]
    tables = {
        None: [p[0], p[1], p[2]],
        leagues[0]: [p[3], p[4], p[5]],
        leagues[2]: [p[6], p[7], p[8]],
        leagues[3]: [p[9], p[10], p[11]],
    }
    room = {"target_score": 1000}
    kinds: list[tuple[dict[str, int], list[dict[str, Any]]]] = [
        (room, []),  # no hands: its rules can change
        (room, [BY_CARDS, BY_COUNTS, DRAW]),  # hands of every kind, room for many more
        (room, [BY_COUNTS]),
        ({"target_score": 10}, [GIN]),  # finished
        ({"target_score": 1000, "gin_bonus": 20}, [DRAW, BY_CARDS]),
        (room, []),
    ]
    owners = [None, leagues[0], None, leagues[2], None, leagues[3]]
    for i in range(36):
        rules, hands = kinds[i % len(kinds)]
        league = owners[(i // len(kinds) + i) % len(owners)]
        s.game(tables[league], league, cut=i % 2 == 0, rules=rules, hands=hands)
    s.game(tables[None], leagues[1], cut=True, rules=room, hands=[BY_CARDS, DRAW])  # the league to export
    for i in range(12):  # the newest games, listed first, have no hands: their rules can change
        league = owners[i % len(owners)]
        s.game(tables[league], league, cut=i % 2 == 1, rules=room, hands=[])
    return {
        "keys": [[scope, ident, key] for (scope, ident), key in s.keys.items()],
        "imports": [s.export(leagues[1])],
        "cards_hands": s.cards_hands,
        "disputes": s.disputes,
        "share_keys": s.share_keys,
        "games": s.games,
    }


def tally(counts_path: Path) -> dict[str, Counter[str]]:
    by_operation: dict[str, Counter[str]] = defaultdict(Counter)
    if counts_path.exists():
        for line in counts_path.read_text(encoding="utf-8").splitlines():
            label, status = line.rsplit("\t", 1)
            by_operation[label][f"{status[0]}xx"] += 1
    return by_operation


SEEDS = (20261130, 20261201)
MIN_CALLS = 100  # requests per operation, over both seeds


def without_input() -> set[str]:
    """The operations that take no parameter and no body: they have only so
    many distinct requests, however many examples are asked for."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    return {
        f"{method.upper()} {path}"
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict)
        and not operation.get("parameters")
        and not item.get("parameters")
        and "requestBody" not in operation
    }


def report(by_operation: dict[str, Counter[str]], min_calls: int) -> list[str]:
    """Print the table; return what is wrong with it."""
    width = max((len(label) for label in by_operation), default=10)
    print(f"\n{'operation':<{width}}  {'calls':>6}  {'2xx':>5}  {'4xx':>5}  {'5xx':>5}")
    problems = []
    fixed = without_input()
    for label in sorted(by_operation, key=lambda lb: (lb.split(" ", 1)[1], lb)):
        c = by_operation[label]
        print(f"{label:<{width}}  {sum(c.values()):>6}  {c['2xx']:>5}  {c['4xx']:>5}  {c['5xx']:>5}")
        if c["5xx"]:
            problems.append(f"{label}: {c['5xx']} server errors")
        if label.startswith(WRITES) and not c["2xx"]:
            problems.append(f"{label}: no 2xx answer: no request reached its view and was accepted")
        if sum(c.values()) < min_calls and label not in fixed:
            problems.append(f"{label}: {sum(c.values())} requests, fewer than {min_calls}")
    return problems


def main() -> int:
    from tests.live import LiveServer

    max_examples = sys.argv[1] if len(sys.argv) > 1 else "100"
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory() as tmp,
        LiveServer(
            f"sqlite:///{tmp}/fuzz.sqlite3",
            workers=4,
            # a feed's wait (or a stream) is fuzzed for its answers, not its length
            env={"FLASK_RATELIMIT_IMPORTS": IMPORT_LIMIT, "FLASK_FEED_MAX_WAIT": "0.5"},
        ) as server,
    ):
        state_path, counts_path = Path(tmp, "state.json"), Path(tmp, "counts.tsv")
        config_path = Path(tmp, "schemathesis.toml")
        state_path.write_text(json.dumps(seed(server.base)), encoding="utf-8")
        config_path.write_text("[cache]\nenabled = false\n", encoding="utf-8")  # each run starts afresh
        env = {
            **os.environ,
            "SCHEMATHESIS_HOOKS": "tests.schemathesis_hooks",
            "GINREF_FUZZ_BASE": server.base,
            "GINREF_FUZZ_STATE": str(state_path),
            "GINREF_FUZZ_COUNTS": str(counts_path),
        }
        returncode = 0
        for seed_value in SEEDS:  # two seeds: some operations run out of distinct cases under one
            command = [
                str(Path(sys.executable).parent / "schemathesis"),
                "--config-file",
                str(config_path),
                "run",
                f"{server.base}/openapi.json",
                "--checks",
                CHECKS,
                "--phases",
                "examples,coverage,fuzzing,stateful",
                "--max-examples",
                max_examples,
                "--request-timeout",
                "20",
                "--workers",
                "2",
                "--seed",
                str(seed_value),
                "--generation-database",
                "none",
                # this machine is shared and slow at times: a slow generator is not a finding
                "--suppress-health-check",
                "too_slow,filter_too_much",
                "--no-color",
            ]
            try:
                result = subprocess.run(command, cwd=ROOT, env=env, timeout=TIMEOUT)
                returncode = returncode or result.returncode
            except subprocess.TimeoutExpired:
                print(f"schemathesis did not finish within {TIMEOUT} s")
                returncode = 1
        problems = report(tally(counts_path), MIN_CALLS if int(max_examples) >= 100 else 0)
        if returncode != 0 or problems:
            print(server.log()[-5000:])
    for problem in problems:
        print("FAIL:", problem)
    print(f"\nfuzz-live: {time.monotonic() - started:.0f} s wall time")
    return returncode or (1 if problems else 0)


if __name__ == "__main__":
    sys.exit(main())
