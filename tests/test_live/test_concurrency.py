"""Many phones, one table: 32 concurrent clients record hands into the same
few games through a real gunicorn server with 4 workers, with If-Match,
retries and duplicate idempotency keys. Bounded: 40 attempts per client,
30 seconds at most."""

from __future__ import annotations

import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import requests

from tests.live import LiveServer, database_url

CLIENTS = 32
GAMES = 4
ATTEMPTS = 40
DEADLINE = 30.0


def _setup(base: str) -> list[dict[str, Any]]:
    ids = [
        requests.post(f"{base}/api/v1/players", json={"name": n}, timeout=10).json()["id"] for n in ("Ann", "Bob", "Cy")
    ]
    games = []
    for _ in range(GAMES):
        r = requests.post(
            f"{base}/api/v1/games",
            timeout=10,
            json={
                "players": ids,
                "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]},
                "rules": {"target_score": 1000},
            },
        )
        assert r.status_code == 201
        games.append(r.json())
    return games


def _send(url: str, body: dict[str, Any], headers: dict[str, str], out: dict[str, Any]) -> None:
    r = requests.post(url, json=body, headers=headers, timeout=20)
    out.update(status=r.status_code, response=r.json())


def _client(base: str, game: dict[str, Any], seed: int, log: list[dict[str, Any]], stop: float) -> None:
    rng = random.Random(seed)
    session = requests.Session()
    auth = {"Authorization": f"Bearer {game['key']}"}
    url = f"{base}/api/v1/games/{game['id']}"
    for _ in range(ATTEMPTS):
        if time.monotonic() > stop:
            return
        current = session.get(url, timeout=10)
        etag = current.headers["ETag"]
        body = {
            "knocker": rng.choice(["box", "captain"]),
            "knocker_deadwood_count": rng.randint(0, 10),
            "defender_deadwood_count": rng.randint(0, 30),
        }
        headers = {**auth, "If-Match": etag, "Idempotency-Key": str(uuid.uuid4())}
        twin: dict[str, Any] = {}
        double = None
        if rng.random() < 0.2:  # the same request sent twice at once (a double tap, a proxy retry)
            double = threading.Thread(target=_send, args=(f"{url}/hands", body, headers, twin))
            double.start()
        first = session.post(f"{url}/hands", json=body, headers=headers, timeout=20)
        entry = {
            "game": game["id"],
            "etag": etag,
            "version": current.json()["version"],
            "body": body,
            "status": first.status_code,
            "response": first.json(),
        }
        if double is not None:
            double.join(timeout=30)
            entry["twin"] = twin
        log.append(entry)
        if rng.random() < 0.3:  # the phone lost signal and retries with the same key
            again = session.post(f"{url}/hands", json=body, headers=headers, timeout=20)
            entry["retry_status"] = again.status_code
            entry["retry_response"] = again.json()


def _check_answers(log: list[dict[str, Any]], server: LiveServer) -> set[int]:
    """Every answer is a recorded hand, its replay, or a refusal; the games
    that refused hands because they were won."""
    # a twin waits for its double and gets the same answer replayed; a refusal (412, or 409
    # once the game is won, R20) is not stored, so a refused twin is refused on its own account
    for e in log:
        if "twin" in e:
            if e["status"] == 201 or e["twin"]["status"] == 201:
                assert e["twin"] == {"status": e["status"], "response": e["response"]}, repr(e)
            else:
                assert e["status"] in (409, 412) and e["twin"]["status"] in (409, 412), repr(e)
    assert any("twin" in e for e in log)
    statuses = {e["status"] for e in log}
    assert statuses <= {201, 409, 412}, (statuses, server.log()[-3000:])
    won = {e["game"] for e in log if e["status"] == 409}
    for e in log:  # a game can reach its target (1000) under this load: then every hand is refused
        for status, response in (
            (e["status"], e["response"]),
            (e.get("twin", {}).get("status"), e.get("twin", {}).get("response")),
        ):
            if status == 409:
                assert response["rule"] == "R20" and "the game is over" in response["detail"], repr(e)
    accepted = [e for e in log if e["status"] == 201]
    assert accepted and any(e["status"] == 412 for e in log)
    for e in log:
        if "retry_status" in e:  # a retry replays a recorded hand; a refused one is refused again
            assert e["retry_status"] == e["status"]
            if e["status"] == 201:
                assert e["retry_response"] == e["response"]
        if e["status"] == 412:  # a real conflict: the game had moved on from the ETag sent
            assert e["response"]["game"]["version"] != e["version"]
    return won


def _run(backend: str, tmp_path: Path) -> None:
    with LiveServer(database_url(backend, tmp_path, "ginref_live_concurrency"), workers=4) as server:
        games = _setup(server.base)
        log: list[dict[str, Any]] = []
        stop = time.monotonic() + DEADLINE
        threads = [
            threading.Thread(target=_client, args=(server.base, games[i % GAMES], i, log, stop)) for i in range(CLIENTS)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=DEADLINE + 30)
        assert not any(t.is_alive() for t in threads)

        won = _check_answers(log, server)
        accepted = [e for e in log if e["status"] == 201]

        for game in games:
            url = f"{server.base}/api/v1/games/{game['id']}"
            state = requests.get(url, timeout=10).json()
            hands = requests.get(f"{url}/hands", timeout=10).json()["items"]
            numbers = [h["number"] for h in hands]
            assert numbers == list(range(1, len(hands) + 1))  # gapless, no duplicates
            assert game["id"] not in won or state["winner"] is not None  # refused only once won
            assert state["hands_played"] == len(hands)
            mine = [e for e in accepted if e["game"] == game["id"]]
            assert len(mine) == len(hands)  # every accepted write is one hand, and every hand was accepted
            by_number = {h["number"]: h for h in hands}
            for e in mine:
                stored = by_number[e["response"]["number"]]
                assert stored["input"] == {**e["body"]}
                assert stored["ruling"] == e["response"]["ruling"]
            totals = {str(p): 0 for p in game["players"]}
            for h in hands:
                ruling = h["ruling"]
                if ruling["scorer"] is not None:
                    role = (
                        h["knocker"]
                        if ruling["scorer"] == "knocker"
                        else ("captain" if h["knocker"] == "box" else "box")
                    )
                    totals[str(h["seating"][role])] += ruling["points"]
            assert totals == state["scores"]


def test_concurrent_phones_never_lose_or_duplicate_a_hand(backend: str, tmp_path: Path) -> None:
    _run(backend, tmp_path)
