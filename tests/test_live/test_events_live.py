"""Phones following a game through a real gunicorn server (4 workers, gevent):
a change made through one worker wakes the phones waiting on the others, and
phones waiting on events do not stop hands from being recorded. Bounded: each
wait is at most 10 s, each test a minute at most."""

from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.live import LiveServer, database_url

pytestmark = pytest.mark.slow


def _players(base: str) -> list[int]:
    return [
        requests.post(f"{base}/api/v1/players", json={"name": n}, timeout=10).json()["id"] for n in ("Ann", "Bob", "Cy")
    ]


def _game(base: str, ids: list[int]) -> dict[str, Any]:
    r = requests.post(
        f"{base}/api/v1/games",
        json={
            "players": ids,
            "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]},
            "rules": {"target_score": 1000},
        },
        timeout=10,
    )
    assert r.status_code == 201
    return r.json()


def _record(session: requests.Session, base: str, game: dict[str, Any]) -> requests.Response:
    """The next hand, the knocker 1 point ahead (R16): no game reaches its target here."""
    url = f"{base}/api/v1/games/{game['id']}"
    etag = session.get(url, timeout=10).headers["ETag"]
    return session.post(
        f"{url}/hands",
        json={"knocker": "box", "knocker_deadwood_count": 9, "defender_deadwood_count": 10},
        headers={"Authorization": f"Bearer {game['key']}", "If-Match": etag},
        timeout=20,
    )


def test_two_waiting_phones_get_a_hand_recorded_by_a_third_within_a_second(backend: str, tmp_path: Path) -> None:
    with LiveServer(database_url(backend, tmp_path, "ginref_live_events_two"), workers=4) as server:
        game = _game(server.base, _players(server.base))
        answers: list[dict[str, Any]] = []

        def follow() -> None:
            started = time.monotonic()
            r = requests.get(f"{server.base}/api/v1/games/{game['id']}/events?after=1&wait=10", timeout=20)
            answers.append({"at": time.monotonic(), "waited": time.monotonic() - started, "body": r.json()})

        phones = [threading.Thread(target=follow) for _ in range(2)]
        for phone in phones:
            phone.start()
        time.sleep(1.0)  # both are waiting by now
        r = _record(requests.Session(), server.base, game)
        recorded = time.monotonic()
        assert r.status_code == 201
        for phone in phones:
            phone.join(timeout=15)
        assert len(answers) == 2
        for answer in answers:
            assert [(e["version"], e["kind"], e["hand"]) for e in answer["body"]["items"]] == [(2, "hand_recorded", 1)]
            assert answer["waited"] >= 0.9  # it did wait for the hand
            assert answer["at"] - recorded < 1.0, answers
        slowest = max(a["at"] - recorded for a in answers)
        print(f"\n[{backend}] both phones had the hand {slowest * 1000:.0f} ms after its 201")


WAITERS, WRITERS, HANDS_EACH = 50, 8, 25


def test_fifty_waiting_phones_do_not_stop_eight_others_recording_two_hundred_hands(
    backend: str, tmp_path: Path
) -> None:
    with LiveServer(database_url(backend, tmp_path, "ginref_live_events_load"), workers=4) as server:
        ids = _players(server.base)
        games = [_game(server.base, ids) for _ in range(WRITERS)]
        seen: dict[int, list[int]] = {}  # waiter -> the versions it was told of, in order
        errors: list[str] = []

        def follow(waiter: int) -> None:
            game = games[waiter % WRITERS]
            session = requests.Session()
            after, versions = 1, seen.setdefault(waiter, [])
            deadline = time.monotonic() + 90
            while after < 1 + HANDS_EACH and time.monotonic() < deadline:  # until its game's last hand
                r = session.get(
                    f"{server.base}/api/v1/games/{game['id']}/events", params={"after": after, "wait": 5}, timeout=20
                )
                if r.status_code != 200:
                    errors.append(f"events {r.status_code}")
                    return
                versions += [e["version"] for e in r.json()["items"]]
                after = versions[-1] if versions else after

        latencies: list[float] = []

        def write(game: dict[str, Any]) -> None:
            session = requests.Session()
            for _ in range(HANDS_EACH):
                started = time.monotonic()
                r = _record(session, server.base, game)
                latencies.append(time.monotonic() - started)
                if r.status_code != 201:
                    errors.append(f"write {r.status_code} {r.text[:200]}")

        followers = [threading.Thread(target=follow, args=(i,)) for i in range(WAITERS)]
        for t in followers:
            t.start()
        time.sleep(1.0)
        started = time.monotonic()
        writers = [threading.Thread(target=write, args=(g,)) for g in games]
        for t in writers:
            t.start()
        for t in writers:
            t.join(timeout=60)
        elapsed = time.monotonic() - started
        for t in followers:
            t.join(timeout=30)
        assert not any(t.is_alive() for t in writers + followers)
        assert errors == []

        for game in games:
            hands = requests.get(f"{server.base}/api/v1/games/{game['id']}/hands", timeout=10).json()["items"]
            assert [h["number"] for h in hands] == list(range(1, HANDS_EACH + 1))
        for versions in seen.values():  # every phone was told of every hand of its game, once, in order
            assert versions == list(range(2, 2 + HANDS_EACH))
        cuts = statistics.quantiles(latencies, n=100)
        print(
            f"\n[{backend}] {WAITERS} phones waiting on events, {WRITERS} recording: "
            f"{len(latencies)} hands in {elapsed:.1f} s; write p50 {cuts[49] * 1000:.0f} ms, "
            f"p99 {cuts[98] * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms (GET + POST)"
        )
        assert cuts[98] < 5.0
