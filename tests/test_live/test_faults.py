"""A server killed with SIGKILL in the middle of a stream of writes loses no
acknowledged hand and leaves no half-written one. Bounded: a few seconds of
writes, one kill, one restart."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import requests

from tests.live import LiveServer, database_url

WRITERS = 6
WRITE_SECONDS = 3.0


def _writer(base: str, game: dict[str, Any], acked: list[dict[str, Any]], stop: threading.Event) -> None:
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
        try:
            etag = session.get(url, timeout=5).headers["ETag"]
            r = session.post(f"{url}/hands", json=body, headers={**auth, "If-Match": etag}, timeout=5)
        except (requests.RequestException, KeyError):
            return  # the server is gone
        if r.status_code == 201:
            acked.append({"game": game["id"], "number": r.json()["number"], "body": body, "ruling": r.json()["ruling"]})


def test_sigkill_mid_stream_loses_no_acknowledged_hand(backend: str, tmp_path: Path) -> None:
    server = LiveServer(database_url(backend, tmp_path, "ginref_live_faults"), workers=2)
    server.init_db()
    server.start()
    try:
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
        acked: list[dict[str, Any]] = []
        stop = threading.Event()
        threads = [threading.Thread(target=_writer, args=(server.base, g, acked, stop)) for g in games]
        for t in threads:
            t.start()
        time.sleep(WRITE_SECONDS)
        server.kill()  # master and workers, mid-write
        stop.set()
        for t in threads:
            t.join(timeout=15)
        assert not any(t.is_alive() for t in threads)
        assert len(acked) >= 5, len(acked)

        server.start()
        for game in games:
            url = f"{server.base}/api/v1/games/{game['id']}"
            state = requests.get(url, timeout=10).json()
            hands = requests.get(f"{url}/hands", timeout=10).json()["items"]
            assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
            assert state["hands_played"] == len(hands)
            by_number = {h["number"]: h for h in hands}
            for a in (a for a in acked if a["game"] == game["id"]):
                assert by_number[a["number"]]["input"] == a["body"]
                assert by_number[a["number"]]["ruling"] == a["ruling"]
            totals = {str(p): 0 for p in game["players"]}
            for h in hands:
                scorer = h["ruling"]["scorer"]
                role = h["knocker"] if scorer == "knocker" else ("captain" if h["knocker"] == "box" else "box")
                totals[str(h["seating"][role])] += h["ruling"]["points"]
                assert h["scores"] == (totals | {})  # running totals stored with each hand
            assert totals == state["scores"]
            # the game is still writable where the log ends
            etag = requests.get(url, timeout=10).headers["ETag"]
            r = requests.post(
                f"{url}/hands",
                timeout=10,
                json={"outcome": "draw"},
                headers={"Authorization": f"Bearer {game['key']}", "If-Match": etag},
            )
            if state["status"] == "finished":  # a winner already (R20): no hand after him
                assert r.status_code == 409, r.json()
            else:
                assert r.status_code == 201 and r.json()["number"] == len(hands) + 1, r.json()
    finally:
        server.stop()
