"""PostgreSQL connections killed in the middle of writes (pg_terminate_backend,
as a failover or an administrator would): every write is answered with the
truth. A 201 is in the log; a 503 may or may not be, and its retry with the
same Idempotency-Key either replays the 201 (it was) or writes it once (it
was not). Never a 500, never a duplicate, nothing acknowledged lost.
Bounded: a few seconds of writes, then the retries."""

from __future__ import annotations

import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import create_engine, text

from tests.live import LiveServer, database_url

WRITERS = 4
WRITE_SECONDS = 6.0
APP_NAME = "ginref_fault_test"


def _writer(base: str, game: dict[str, Any], log: list[dict[str, Any]], stop: threading.Event) -> None:
    session = requests.Session()
    url = f"{base}/api/v1/games/{game['id']}"
    auth = {"Authorization": f"Bearer {game['key']}"}
    n = 0
    while not stop.is_set():
        n += 1
        body = {
            "knocker": "box" if n % 2 else "captain",
            "knocker_deadwood_count": n % 11,
            "defender_deadwood_count": (n * 7) % 31,
        }
        idem = uuid.uuid4().hex
        answers: list[int] = []
        etag = None
        give_up = time.monotonic() + WRITE_SECONDS + 20
        while time.monotonic() < give_up:  # until the write is known to be in, whatever the kills
            try:
                if etag is None:
                    current = session.get(url, timeout=5)
                    if current.status_code != 200:
                        answers.append(current.status_code)
                        time.sleep(0.05)
                        continue
                    etag = current.headers["ETag"]
                r = session.post(
                    f"{url}/hands", json=body, timeout=10, headers={**auth, "If-Match": etag, "Idempotency-Key": idem}
                )
            except requests.RequestException:
                answers.append(-1)
                time.sleep(0.05)
                continue
            answers.append(r.status_code)
            if r.status_code == 409 and r.json().get("rule") == "R20":
                return  # the game is won (R20): this phone's game is over
            if r.status_code == 201:
                log.append(
                    {
                        "game": game["id"],
                        "key": idem,
                        "body": body,
                        "number": r.json()["number"],
                        "answers": answers,
                        "replayed": r.headers.get("Idempotent-Replayed") == "true",
                    }
                )
                break
            if not (
                r.status_code == 503
                and r.headers["Content-Type"] == "application/problem+json"
                and int(r.headers.get("Retry-After", "0")) >= 1
            ):
                log.append(
                    {"game": game["id"], "key": idem, "body": body, "number": None, "answers": answers, "wrong": r.text}
                )
                return
            time.sleep(0.05)
        else:
            log.append({"game": game["id"], "key": idem, "body": body, "number": None, "answers": answers})
            return


def _killer(url: str, stop: threading.Event, killed: list[int]) -> None:
    engine = create_engine(url)
    with engine.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        while not stop.is_set():
            # a connection in the middle of a transaction: the write it carries is cut short
            rows = conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = :name AND pid <> pg_backend_pid() "
                    "AND state <> 'idle' LIMIT 1"
                ),
                {"name": APP_NAME},
            ).all()
            killed.append(sum(1 for (ok,) in rows if ok))
            time.sleep(0.002 if not rows else 0.05)  # watch closely; after a kill, let writes through
    engine.dispose()


def test_connections_killed_mid_write_are_answered_with_the_truth(tmp_path: Path, backend: str) -> None:
    if backend != "postgresql":
        pytest.skip("terminating a backend's connection is a PostgreSQL fault")
    url = database_url(backend, tmp_path, "ginref_live_connfaults") + f"&application_name={APP_NAME}"
    with LiveServer(url, workers=2) as server:
        ids = [
            requests.post(f"{server.base}/api/v1/players", json={"name": n}, timeout=10).json()["id"]
            for n in ("Ann", "Bob", "Cy")
        ]
        games = [
            requests.post(
                f"{server.base}/api/v1/games",
                timeout=10,
                json={
                    "players": ids,
                    "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]},
                    "rules": {"target_score": 1000},
                },
            ).json()
            for _ in range(WRITERS)
        ]
        assert all("id" in g for g in games), games
        log: list[dict[str, Any]] = []
        stop, stop_killing = threading.Event(), threading.Event()
        killed: list[int] = []
        killer = threading.Thread(target=_killer, args=(url.split("?")[0], stop_killing, killed))
        writers = [threading.Thread(target=_writer, args=(server.base, g, log, stop)) for g in games]
        killer.start()
        for t in writers:
            t.start()
        time.sleep(WRITE_SECONDS)
        stop.set()
        time.sleep(0.5)
        stop_killing.set()  # the writers' last retries go through on a quiet database
        for t in [*writers, killer]:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in [*writers, killer])

        assert sum(killed) >= 3, sum(killed)
        wrong = [(e["answers"], e.get("wrong")) for e in log if e["number"] is None]
        assert not wrong, (wrong, server.log()[-3000:])
        assert all(-1 not in e["answers"] and 500 not in e["answers"] for e in log)
        faulted = [e for e in log if len(e["answers"]) > 1]
        assert faulted, "no write met a killed connection"
        print(
            f"\n{len(log)} hands written, {sum(killed)} connections killed, {len(faulted)} writes answered 503 "
            f"first, {sum(e['replayed'] for e in log)} of them replayed as already in the log"
        )

        for game in games:
            hands = requests.get(f"{server.base}/api/v1/games/{game['id']}/hands", timeout=10).json()["items"]
            mine = sorted((e for e in log if e["game"] == game["id"]), key=lambda e: e["number"])
            assert [h["number"] for h in hands] == [e["number"] for e in mine] == list(range(1, len(hands) + 1))
            assert [h["input"] for h in hands] == [e["body"] for e in mine]  # each write once, in order
            # a retry long after still replays, never writes again
            last = mine[-1]
            again = requests.post(
                f"{server.base}/api/v1/games/{game['id']}/hands",
                json=last["body"],
                timeout=10,
                headers={
                    "Authorization": f"Bearer {game['key']}",
                    "If-Match": '"stale"',
                    "Idempotency-Key": last["key"],
                },
            )
            assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
            assert again.json()["number"] == last["number"]
