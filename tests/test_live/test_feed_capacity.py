"""The feed on a real gunicorn server (the gevent worker): phones waiting on
their games' events hold no thread, so many more of them than the old
threaded worker had threads leave /health, reads and writes answered at once;
one client, or all of them, can open only so many waits before the feed
answers at once with a 429; and a wait opened with a key ends when the key
is revoked. Bounded: every wait is at most 20 s, every test well under a
minute."""

from __future__ import annotations

import json
import os
import re
import selectors
import socket
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.live import LiveServer, database_url

pytestmark = pytest.mark.slow

THREADS_BEFORE = 64  # 4 gthread workers x 16 threads: as many waits as stopped the whole server


def _game(base: str, **body: Any) -> dict[str, Any]:
    ids = [requests.post(f"{base}/api/v1/players", json={"name": n}, timeout=10).json()["id"] for n in ("A", "B", "C")]
    r = requests.post(
        f"{base}/api/v1/games",
        json={"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}, **body},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    return r.json()


def _open_wait(port: int, path: str, *, source: str = "127.0.0.1", key: str | None = None) -> socket.socket:
    """A phone's long poll, sent and left waiting: a socket, no thread."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    auth = f"Authorization: Bearer {key}\r\n" if key else ""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Connection: close\r\n\r\n".encode())
    return sock


def _answer(sock: socket.socket, timeout: float) -> tuple[int, dict[str, str], Any, float]:
    """The status, headers and JSON body of the answer on ``sock``, and how long it took to come."""
    started = time.monotonic()
    sock.settimeout(timeout)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    finally:
        sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body or b"null"), time.monotonic() - started


def _first_bytes(socks: list[socket.socket], timeout: float) -> list[float]:
    """When data first arrived on each socket (monotonic), waiting on them all at once."""
    selector = selectors.DefaultSelector()
    for sock in socks:
        selector.register(sock, selectors.EVENT_READ)
    arrived: dict[socket.socket, float] = {}
    deadline = time.monotonic() + timeout
    while len(arrived) < len(socks) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            arrived[key.fileobj] = time.monotonic()  # type: ignore[index]
            selector.unregister(key.fileobj)
    selector.close()
    assert len(arrived) == len(socks), f"{len(socks) - len(arrived)} waits had no answer"
    return list(arrived.values())


def _cpu(pgid: int) -> float:
    """CPU seconds used so far by a process group (Linux /proc)."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _settle(server: LiveServer, timeout: float = 30) -> None:
    """Until the server spends (almost) no CPU for half a second: every request sent has reached its wait."""
    assert server.process is not None
    deadline, last = time.monotonic() + timeout, _cpu(server.process.pid)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = _cpu(server.process.pid)
        if now - last < 0.05:
            return
        last = now
    raise AssertionError("the server did not settle")


def _timed(call: Any) -> tuple[Any, float]:
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def test_more_waiting_phones_than_the_old_threads_leave_health_reads_and_writes_answered_at_once(
    backend: str, tmp_path: Path
) -> None:
    # every phone here is one client address, and a worker may take most of the connections: no per-client bound
    env = {"FLASK_FEED_WAITERS_PER_CLIENT": "0"}
    with LiveServer(database_url(backend, tmp_path, "ginref_live_feed_many"), workers=2, env=env) as server:
        game = _game(server.base, rules={"target_score": 1000})
        other = _game(server.base)
        waiting = [
            _open_wait(server.port, f"/api/v1/games/{game['id']}/events?after=1&wait=20")
            for _ in range(5 * THREADS_BEFORE)
        ]
        _settle(server)  # all of them are waiting by now: the server is idle again
        health, health_s = _timed(lambda: requests.get(f"{server.base}/health", timeout=5))
        read, read_s = _timed(lambda: requests.get(f"{server.base}/api/v1/games/{other['id']}", timeout=5))
        url = f"{server.base}/api/v1/games/{other['id']}"
        write, write_s = _timed(
            lambda: requests.post(
                f"{url}/hands",
                json={"outcome": "draw"},
                headers={"Authorization": f"Bearer {other['key']}", "If-Match": read.headers["ETag"]},
                timeout=5,
            )
        )
        assert (health.status_code, read.status_code, write.status_code) == (200, 200, 201)
        assert max(health_s, read_s, write_s) < 1.0, (health_s, read_s, write_s)
        # and a hand in the game they wait on wakes every one of them within a second
        etag = requests.get(f"{server.base}/api/v1/games/{game['id']}", timeout=5).headers["ETag"]
        r = requests.post(
            f"{server.base}/api/v1/games/{game['id']}/hands",
            json={"outcome": "draw"},
            headers={"Authorization": f"Bearer {game['key']}", "If-Match": etag},
            timeout=5,
        )
        assert r.status_code == 201
        recorded = time.monotonic()
        arrived = _first_bytes(waiting, 10)  # when each answer began to arrive, all read at once
        answers = [_answer(sock, 10) for sock in waiting]
        assert {status for status, _, _, _ in answers} == {200}, [
            body for status, _, body, _ in answers if status != 200
        ][:3]
        assert {(status, tuple(e["kind"] for e in body["items"])) for status, _, body, _ in answers} == {
            (200, ("hand_recorded",))
        }
        slowest = max(arrived) - recorded
        assert slowest < 2.0, slowest  # the watch's tick (0.1 s), then 320 reads of the game and its events
        print(
            f"\n[{backend}] {len(waiting)} waiting: /health {health_s * 1000:.0f} ms, read {read_s * 1000:.0f} ms, "
            f"write {write_s * 1000:.0f} ms"
        )


def test_one_client_and_all_of_them_can_open_only_so_many_waits_then_the_feed_answers_429_at_once(
    backend: str, tmp_path: Path
) -> None:
    env = {"FLASK_FEED_WAITERS_PER_CLIENT": "5", "FLASK_FEED_WAITERS": "8"}
    with LiveServer(database_url(backend, tmp_path, "ginref_live_feed_caps"), workers=1, env=env) as server:
        game = _game(server.base)
        path = f"/api/v1/games/{game['id']}/events?after=1&wait=15"
        mine = [_open_wait(server.port, path) for _ in range(5)]
        time.sleep(0.5)
        status, headers, body, seconds = _answer(_open_wait(server.port, path), 5)
        assert (status, headers["retry-after"], body["type"]) == (429, "5", "https://ginref.org/problems/rate-limited")
        assert "127.0.0.1" in body["detail"] and seconds < 1.0
        # others still wait, up to the server's bound
        theirs = [_open_wait(server.port, path, source="127.0.0.2") for _ in range(3)]
        time.sleep(0.5)
        status, _, body, seconds = _answer(_open_wait(server.port, path, source="127.0.0.3"), 5)
        assert (status, seconds < 1.0) == (429, True)
        assert body["detail"].startswith("8 requests wait")
        # a read without wait, /health and a write are answered as ever
        assert requests.get(f"{server.base}{path.replace('wait=15', 'wait=0')}", timeout=5).status_code == 200
        assert requests.get(f"{server.base}/health", timeout=5).status_code == 200
        # a wait that ends frees its place
        etag = requests.get(f"{server.base}/api/v1/games/{game['id']}", timeout=5).headers["ETag"]
        r = requests.post(
            f"{server.base}/api/v1/games/{game['id']}/hands",
            json={"outcome": "draw"},
            headers={"Authorization": f"Bearer {game['key']}", "If-Match": etag},
            timeout=5,
        )
        assert r.status_code == 201
        assert [_answer(sock, 10)[0] for sock in mine + theirs] == [200] * 8
        again = _open_wait(server.port, f"/api/v1/games/{game['id']}/events?after=1&wait=5")
        status, _, body, _ = _answer(again, 10)
        assert (status, [e["kind"] for e in body["items"]]) == (200, ["hand_recorded"])


def test_a_wait_opened_with_a_share_key_ends_when_the_key_is_revoked(backend: str, tmp_path: Path) -> None:
    with LiveServer(database_url(backend, tmp_path, "ginref_live_feed_revoked"), workers=2) as server:
        game = _game(server.base, visibility="private")
        owner = {"Authorization": f"Bearer {game['key']}"}
        url = f"{server.base}/api/v1/games/{game['id']}"
        share = requests.post(f"{url}/share-key", json={"label": "board"}, headers=owner, timeout=5).json()
        waiting = _open_wait(server.port, f"/api/v1/games/{game['id']}/events?after=1&wait=15", key=share["key"])
        time.sleep(0.5)
        assert requests.delete(f"{url}/share-keys/{share['id']}", headers=owner, timeout=5).status_code == 204
        revoked = time.monotonic()
        status, _, body, _ = _answer(waiting, 10)
        assert (status, body["type"]) == (404, "https://ginref.org/problems/not-found")
        assert time.monotonic() - revoked < 1.0


def test_streams_hold_no_thread_and_each_is_sent_every_change_of_its_game_as_it_comes(
    backend: str, tmp_path: Path
) -> None:
    env = {"FLASK_FEED_WAITERS_PER_CLIENT": "0"}
    with LiveServer(database_url(backend, tmp_path, "ginref_live_streams"), workers=2, env=env) as server:
        game = _game(server.base, rules={"target_score": 1000})
        other = _game(server.base)
        streams = [
            _open_wait(server.port, f"/api/v1/games/{game['id']}/events/stream?after=1&wait=20")
            for _ in range(5 * THREADS_BEFORE)
        ]
        _settle(server)
        health, health_s = _timed(lambda: requests.get(f"{server.base}/health", timeout=5))
        read, read_s = _timed(lambda: requests.get(f"{server.base}/api/v1/games/{other['id']}", timeout=5))
        assert (health.status_code, read.status_code) == (200, 200)
        assert max(health_s, read_s) < 1.0, (health_s, read_s)
        url = f"{server.base}/api/v1/games/{game['id']}"
        received = {sock: b"" for sock in streams}
        for version in (2, 3, 4):  # three hands, each sent to every stream, which stays open
            etag = requests.get(url, timeout=5).headers["ETag"]
            r = requests.post(
                f"{url}/hands",
                json={"outcome": "draw"},
                headers={"Authorization": f"Bearer {game['key']}", "If-Match": etag},
                timeout=5,
            )
            assert r.status_code == 201
            recorded, marker = time.monotonic(), f"id: {version}\n".encode()
            selector = selectors.DefaultSelector()
            for sock in streams:
                if marker not in received[sock]:
                    selector.register(sock, selectors.EVENT_READ)
            while selector.get_map() and time.monotonic() - recorded < 10:
                for key, _ in selector.select(timeout=0.5):
                    sock = key.fileobj
                    received[sock] += sock.recv(65536)  # type: ignore[union-attr]
                    if marker in received[sock]:  # type: ignore[index]
                        selector.unregister(sock)
            late = len(selector.get_map())
            selector.close()
            assert late == 0, f"{late} streams were not sent version {version}"
            assert time.monotonic() - recorded < 2.0
        for sock in streams:
            head, _, body = received[sock].partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head
            assert [int(v) for v in re.findall(rb"id: (\d+)\n", body)] == [2, 3, 4]
            sock.close()
