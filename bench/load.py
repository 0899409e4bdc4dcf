"""Load test: gunicorn (4 workers) on SQLite and PostgreSQL, 16 and 64
concurrent clients. Each client records counts-mode hands into its own game
with If-Match (a new game when one finishes) and reads GET /games/{game_id};
the same clients on GET /health (no database) give the server's ceiling.

    python bench/load.py [--clients 16 64] [--backends sqlite postgresql] [--seconds 10] [--repeat 3]

Each server runs --repeat rounds of (ceiling phase, recording phase), so that
both see the same moments of the machine; throughputs are the median round,
latencies are over all rounds. The rate limits are raised through config
(FLASK_RATELIMIT_WRITES), not counted as errors; they are kept in Redis as
in production (several workers share them) when it answers on
127.0.0.1:6379, else in each worker's memory (--limit-store). The server's
CPU time per request (its whole process group, from /proc) is reported too.

The waiters phase (--waiters 2000 10000) follows a club night: that many
phones wait on the feeds of --waiter-games games (a long poll each,
``?after=<version>&wait=25``, asked again at once when answered; with
--feed stream, a stream of /events/stream each, of 25 s, opened again from
its last event when it ends, the first ending at a random moment) while
--scorers clients record hands into some of those games (back to back, or
one every --hand-every seconds each) and /health is asked all along. It
reports /health and write latencies (beside the same scorers with no
waiter), how soon each waiting phone had a hand after its 201 (the wake
latency), the server's memory per waiting phone, its CPU time per hand
with no one waiting and, with them, per phone woken (the hands' own taken
off: the answer, the phone's next ask and the watch's reads), the load
average before (the machine is shared) and every error. The scorers start
once the server has taken every phone's first ask (its CPU quiet again). The
phones are greenlets in one client process (gevent), so that the client holds
ten thousand connections on this machine.

Bounded: every phase runs for --seconds and stops.
"""

import sys as _sys

if "--waiter-child" in _sys.argv:  # the phones' process: gevent's sockets before anything imports them
    from gevent import monkey

    monkey.patch_all()

import argparse
import json
import multiprocessing
import os
import random
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.live import LiveServer, redis_up  # noqa: E402

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
#: seconds of scoring before the waiters phase is measured, not counted
WARM_UP = 3.0


class Client:
    """A lean HTTP/1.1 client on one keep-alive connection: the load generator
    shares the machine's cores with the server, so it spends as little of them
    as it can (http.client parses every response's headers with email.parser)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = b""

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.buffer = sock, b""
        return sock

    def _read_response(self, sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
        while b"\r\n\r\n" not in self.buffer:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            self.buffer += chunk
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed")
            rest += chunk
        self.buffer = rest[length:]
        if headers.get("connection", "").lower() == "close":
            sock.close()
            self.sock = None
        return status, headers, rest[:length]

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any, float]:
        """(status, headers with lower-case names, decoded JSON body, seconds)."""
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(data)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data
        start = time.perf_counter()
        for attempt in (1, 2):  # a keep-alive connection the server closed: once more on a new one
            sock = self.sock or self._connect()
            try:
                sock.sendall(request)
                status, response_headers, raw = self._read_response(sock)
                break
            except (ConnectionError, OSError):
                sock.close()
                self.sock = None
                if attempt == 2:
                    raise
        elapsed = time.perf_counter() - start
        return status, response_headers, (json.loads(raw) if raw else None), elapsed


def _new_game(client: Client, players: list[int]) -> tuple[int, str, str]:
    status, headers, body, _ = client.call(
        "POST",
        "/api/v1/games",
        {"players": players, "roles": {"box": players[0], "captain": players[1], "sitter": players[2]}},
    )
    assert status == 201, body
    return body["id"], body["key"], headers["etag"]


def _recorder(port: int, players: list[int], seed: int, until: float, out: dict[str, list[Any]]) -> None:
    rng = random.Random(seed)
    client = Client(port)
    game, key, etag = _new_game(client, players)
    writes, reads, errors = [], [], 0
    while time.perf_counter() < until:
        body = {
            "knocker": rng.choice(["box", "captain"]),
            "knocker_deadwood_count": rng.randint(0, 10),
            "defender_deadwood_count": rng.randint(0, 40),
        }
        status, headers, result, elapsed = client.call(
            "POST", f"/api/v1/games/{game}/hands", body, {"Authorization": f"Bearer {key}", "If-Match": etag}
        )
        if status != 201:
            errors += 1
            continue
        writes.append(elapsed)
        etag = headers["etag"]
        status, headers, state, elapsed = client.call("GET", f"/api/v1/games/{game}")
        if status != 200:
            errors += 1
        reads.append(elapsed)
        if state["status"] == "finished":
            game, key, etag = _new_game(client, players)
    out["writes"].extend(writes)
    out["reads"].extend(reads)
    out["errors"].append(errors)


def _ceiling(port: int, until: float, out: dict[str, list[Any]]) -> None:
    client = Client(port)
    times, errors = [], 0
    while time.perf_counter() < until:
        status, _, _, elapsed = client.call("GET", "/health")
        if status != 200:
            errors += 1
        times.append(elapsed)
    out["health"].extend(times)
    out["health_errors"].append(errors)


def _threads(target: Any, args: list[tuple[Any, ...]], until: float) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {"writes": [], "reads": [], "errors": [], "health": [], "health_errors": []}
    threads = [threading.Thread(target=target, args=(*a, until, out)) for a in args]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=until - time.perf_counter() + 60)
    return out


def _process(job: tuple[str, list[tuple[Any, ...]], float]) -> dict[str, list[Any]]:
    name, args, seconds = job
    target = {"ceiling": _ceiling, "recorder": _recorder}[name]
    return _threads(target, args, time.perf_counter() + seconds)


def _run_phase(
    name: str, args_for: Any, clients: int, seconds: float, processes: int
) -> tuple[dict[str, list[Any]], float]:
    """``clients`` concurrent clients, as threads spread over ``processes``
    processes (one Python process alone would queue them on its GIL and time
    its own waiting)."""
    jobs = [(name, [args_for(i) for i in range(p, clients, processes)], seconds) for p in range(processes)]
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        parts = pool.map(_process, jobs)
    elapsed = time.perf_counter() - start - 0.0
    out: dict[str, list[Any]] = {k: [v for part in parts for v in part[k]] for k in parts[0]}
    return out, min(elapsed, seconds + 0.5)


def _ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _server_cpu(pgid: int) -> float:
    """CPU seconds used so far by the processes of a process group (Linux /proc)."""
    total = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def run(
    backend: str, clients: int, seconds: float, tmp: Path, processes: int, repeat: int, limit_store: str
) -> dict[str, Any]:
    from tests.live import database_url

    if backend == "sqlite":
        url = f"sqlite:///{tmp / f'load-{clients}.sqlite3'}"
    else:
        os.environ.setdefault("TEST_DATABASE_URL", PG_URL)
        url = database_url("postgresql", tmp, f"ginref_load_{clients}")
    env = {
        "FLASK_RATELIMIT_STORAGE_URI": json.dumps(limit_store),
        "FLASK_RATELIMIT_KEY_PREFIX": json.dumps(f"ginref-load-{os.getpid()}-{backend}-{clients}"),
    }
    ceiling_rounds: list[tuple[dict[str, list[Any]], float, float]] = []
    load_rounds: list[tuple[dict[str, list[Any]], float, float]] = []
    with LiveServer(url, workers=4, env=env) as server:
        assert server.process is not None
        setup = Client(server.port)
        players = [setup.call("POST", "/api/v1/players", {"name": n})[2]["id"] for n in ("Ann", "Bob", "Cy")]
        for _ in range(repeat):
            for name, args_for, rounds in (
                ("ceiling", lambda i: (server.port,), ceiling_rounds),
                ("recorder", lambda i: (server.port, players, i), load_rounds),
            ):
                cpu = _server_cpu(server.process.pid)
                out, elapsed = _run_phase(name, args_for, clients, seconds, processes)
                rounds.append((out, elapsed, _server_cpu(server.process.pid) - cpu))

    def rate(round_: tuple[dict[str, list[Any]], float, float], *keys: str) -> float:
        return sum(len(round_[0][k]) for k in keys) / round_[1]

    ceiling = sorted(ceiling_rounds, key=lambda r: rate(r, "health"))[len(ceiling_rounds) // 2]
    load = sorted(load_rounds, key=lambda r: rate(r, "writes"))[len(load_rounds) // 2]
    health = [t for r in ceiling_rounds for t in r[0]["health"]]
    writes = [t for r in load_rounds for t in r[0]["writes"]]
    reads = [t for r in load_rounds for t in r[0]["reads"]]
    health_rps, write_rps = rate(ceiling, "health"), rate(load, "writes")
    requests_rps = rate(load, "writes", "reads")
    return {
        "backend": backend,
        "clients": clients,
        "rounds": repeat,
        "limit_store": limit_store.split(":")[0],
        "ceiling_rps": health_rps,
        "ceiling_p50": _ms(health, 0.5),
        "ceiling_p99": _ms(health, 0.99),
        "ceiling_errors": sum(e for r in ceiling_rounds for e in r[0]["health_errors"]),
        "ceiling_cpu_ms": ceiling[2] * 1000 / max(1, len(ceiling[0]["health"])),
        "hands_per_s": write_rps,
        "requests_per_s": requests_rps,
        "write_p50": _ms(writes, 0.5),
        "write_p99": _ms(writes, 0.99),
        "read_p50": _ms(reads, 0.5),
        "read_p99": _ms(reads, 0.99),
        "errors": sum(e for r in load_rounds for e in r[0]["errors"]),
        "load_cpu_ms": load[2] * 1000 / max(1, len(load[0]["writes"]) + len(load[0]["reads"])),
        "ratio": write_rps / health_rps,
        "request_ratio": requests_rps / health_rps,
    }


# --- the waiters phase ---------------------------------------------------------------------------------


def _rss_kib(pgid: int) -> int:
    """Resident memory of a process group's processes (Linux /proc), KiB."""
    total = 0
    page_kib = os.sysconf("SC_PAGE_SIZE") // 1024
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == pgid:
                    total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * page_kib
            except OSError:
                continue
    return total


def _settle(pgid: int, *, idle: float = 0.25, most: float = 90.0) -> float:
    """Wait until the server has taken every phone's first ask (its CPU use
    falls below ``idle`` of a core over half a second), ``most`` seconds at
    most; how long that took. The scorers start after it: otherwise they
    measure the storm of the first asks (ten thousand at once), not phones
    that wait."""
    started = time.monotonic()
    while time.monotonic() - started < most:
        before = _server_cpu(pgid)
        time.sleep(0.5)
        if _server_cpu(pgid) - before < idle * 0.5:
            break
    return time.monotonic() - started


def _waiter_child(args: argparse.Namespace) -> int:
    """The waiting phones, one greenlet each: connect, wait on the game's feed,
    note when each change arrived (monotonic clock, shared by the processes
    of this machine), wait again; until ``--seconds`` after all are connected."""
    import gevent

    spec = json.loads(sys.stdin.read())
    port, games, count = spec["port"], spec["games"], spec["waiters"]
    woken: list[tuple[int, int, float]] = []  # (game, version, when)
    errors: list[str] = []
    connected = [0]
    from gevent.event import Event

    go, stop = Event(), Event()

    def phone(i: int) -> None:
        game_id, after = games[i % len(games)]
        client = Client(port)
        try:
            client._connect()
        except OSError as err:
            errors.append(f"connect: {err}")
            return
        connected[0] += 1
        go.wait()
        while not stop.is_set():
            try:
                status, _, body, _ = client.call("GET", f"/api/v1/games/{game_id}/events?after={after}&wait=25")
            except (OSError, ConnectionError) as err:
                if not stop.is_set():
                    errors.append(f"feed: {type(err).__name__}")
                return
            when = time.monotonic()
            if status != 200:
                errors.append(f"feed {status}")
                gevent.sleep(1)
                continue
            for item in body["items"]:
                woken.append((game_id, item["version"], when))
            after = body["version"]

    def streaming_phone(i: int) -> None:
        """A phone on the game's stream: one request a stream (25 s), opened
        again from the last event's id when it ends."""
        game_id, after = games[i % len(games)]
        client = Client(port)
        try:
            sock = client._connect()
        except OSError as err:
            errors.append(f"connect: {err}")
            return
        connected[0] += 1
        go.wait()
        # the phones' streams end (and are opened again) at random moments, as a room's do, not all at once
        wait = random.Random(i).uniform(1, 25)
        while not stop.is_set():
            try:
                after = _read_stream(
                    client, sock, f"/api/v1/games/{game_id}/events/stream?after={after}&wait={wait:.2f}", game_id, woken
                )
                wait = 25
            except (OSError, ConnectionError, ValueError) as err:
                if not stop.is_set():
                    errors.append(f"stream: {type(err).__name__} {err}"[:80])
                return
            if after is None:
                errors.append("stream refused")
                gevent.sleep(1)
                after = games[i % len(games)][1]

    greenlets = [gevent.spawn(streaming_phone if spec["stream"] else phone, i) for i in range(count)]
    deadline = time.monotonic() + 120
    while connected[0] + len(errors) < count and time.monotonic() < deadline:
        gevent.sleep(0.1)
    go.set()
    gevent.sleep(1.0)  # every phone has asked
    # and the server has taken every ask (time.sleep is gevent's here); streams keep ending and opening
    # again (a tenth of the phones' every 2.5 s), which a quiet server still does
    settled = 1.0 + _settle(spec["pgid"], idle=0.5 if spec["stream"] else 0.25)
    print(json.dumps({"connected": connected[0], "settle_s": settled}), flush=True)  # the scorers start now
    gevent.sleep(spec["seconds"] + 2)
    stop.set()
    gevent.killall(greenlets, timeout=5)
    print(json.dumps({"woken": woken, "errors": errors}), flush=True)
    return 0


def _read_stream(
    client: Client, sock: socket.socket, path: str, game_id: int, woken: list[tuple[int, int, float]]
) -> int | None:
    """Ask for a stream and read it to its end (chunked, as gunicorn sends
    it), noting when each event came; the last event's id (None: refused)."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode("latin-1"))
    buffer = client.buffer
    while b"\r\n\r\n" not in buffer:
        buffer += _recv(sock)
    head, _, buffer = buffer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if status != 200:  # a problem, with its Content-Length
        length = int(head.lower().split(b"content-length:", 1)[1].split(b"\r\n", 1)[0])
        while len(buffer) < length:
            buffer += _recv(sock)
        client.buffer = buffer[length:]
        return None
    last, text = int(path.rsplit("after=", 1)[1].split("&", 1)[0]), b""
    while True:  # chunks: a size line, the data, CRLF; a 0 ends the stream
        while b"\r\n" not in buffer:
            buffer += _recv(sock)
        size_line, _, buffer = buffer.partition(b"\r\n")
        size = int(size_line, 16)
        while len(buffer) < size + 2:
            buffer += _recv(sock)
        data, buffer = buffer[:size], buffer[size + 2 :]
        if size == 0:
            client.buffer = buffer
            return last
        text += data
        when = time.monotonic()
        *blocks, text = text.split(b"\n\n")
        for block in blocks:
            if block.startswith(b"id: "):  # not the stream's opening lines
                last = int(block.split(b"\n", 1)[0].removeprefix(b"id: "))
                woken.append((game_id, last, when))


def _recv(sock: socket.socket) -> bytes:
    chunk = sock.recv(65536)
    if not chunk:
        raise ConnectionError("connection closed")
    return chunk


def _scorer(port: int, game: tuple[int, str], seed: int, until: float, every: float, out: dict[str, list[Any]]) -> None:
    """Record hands into a game that phones wait on, noting when each 201 came:
    back to back (``every`` 0), or one every ``every`` seconds, on a schedule
    that does not wait for the server (a late answer is followed by the next
    hand at once)."""
    rng = random.Random(seed)
    client = Client(port)
    game_id, key = game
    status, headers, _, _ = client.call("GET", f"/api/v1/games/{game_id}")
    etag, errors = headers["etag"], 0
    due = time.perf_counter() + rng.uniform(0, every)  # the scorers' hands spread over the period
    while time.perf_counter() < until:
        if every:
            time.sleep(max(0.0, due - time.perf_counter()))
            due += every
        body = {"knocker": rng.choice(["box", "captain"]), "knocker_deadwood_count": 9, "defender_deadwood_count": 10}
        status, headers, result, elapsed = client.call(
            "POST", f"/api/v1/games/{game_id}/hands", body, {"Authorization": f"Bearer {key}", "If-Match": etag}
        )
        if status != 201:
            errors += 1
            status, headers, _, _ = client.call("GET", f"/api/v1/games/{game_id}")
            etag = headers["etag"]
            continue
        out["writes"].append(elapsed)
        out["recorded"].append((game_id, int(etag_version(headers["etag"])), time.monotonic()))
        etag = headers["etag"]
    out["errors"].append(errors)


def etag_version(etag: str) -> int:
    return int(etag.strip('"').split("v", 1)[1])


def _prober(port: int, until: float, out: dict[str, list[Any]]) -> None:
    """/health asked all along, as a monitor would (every 20 ms)."""
    client, errors = Client(port), 0
    while time.perf_counter() < until:
        status, _, _, elapsed = client.call("GET", "/health")
        if status != 200:
            errors += 1
        out["health"].append(elapsed)
        time.sleep(0.02)
    out["health_errors"].append(errors)


def _scoring_process(job: tuple[int, list[tuple[int, str]], int, float, float]) -> dict[str, list[Any]]:
    port, games, seed, seconds, every = job
    out: dict[str, list[Any]] = {"writes": [], "recorded": [], "errors": [], "health": [], "health_errors": []}
    until = time.perf_counter() + seconds
    threads = [
        threading.Thread(target=_scorer, args=(port, g, seed + i, until, every, out)) for i, g in enumerate(games)
    ]
    threads.append(threading.Thread(target=_prober, args=(port, until, out)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    return out


def _scoring(
    port: int, games: list[tuple[int, str]], seconds: float, processes: int, every: float
) -> dict[str, list[Any]]:
    jobs = [(port, games[p::processes], 1000 * p, seconds, every) for p in range(processes)]
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        parts = pool.map(_scoring_process, jobs)
    return {k: [v for part in parts for v in part[k]] for k in parts[0]}


def run_waiters(
    backend: str,
    waiters: int,
    game_count: int,
    scorers: int,
    every: float,
    seconds: float,
    tmp: Path,
    processes: int,
    limit_store: str,
    stream: bool = False,
) -> dict[str, Any]:
    import subprocess

    from tests.live import database_url

    if backend == "sqlite":
        url = f"sqlite:///{tmp / f'waiters-{waiters}.sqlite3'}"
    else:
        os.environ.setdefault("TEST_DATABASE_URL", PG_URL)
        url = database_url("postgresql", tmp, f"ginref_waiters_{waiters}")
    # connections are not spread evenly over the workers: each may take them all
    env = {
        "FLASK_RATELIMIT_STORAGE_URI": json.dumps(limit_store),
        "FLASK_RATELIMIT_KEY_PREFIX": json.dumps(f"ginref-waiters-{os.getpid()}-{backend}-{waiters}"),
        "FLASK_FEED_WAITERS": str(waiters + 100),
        "FLASK_FEED_WAITERS_PER_CLIENT": "0",
        "GINREF_WORKER_CONNECTIONS": str(waiters + 1000),
    }
    with LiveServer(url, workers=4, env=env) as server:
        assert server.process is not None
        setup = Client(server.port)
        players = [setup.call("POST", "/api/v1/players", {"name": n})[2]["id"] for n in ("Ann", "Bob", "Cy")]
        games: list[tuple[int, str]] = []
        for _ in range(game_count):
            status, _, body, _ = setup.call(
                "POST",
                "/api/v1/games",
                {
                    "players": players,
                    "roles": {"box": players[0], "captain": players[1], "sitter": players[2]},
                    "rules": {"target_score": 1000},
                },
            )
            assert status == 201, body
            games.append((body["id"], body["key"]))
        scored = games[:scorers]
        # warmed first (each worker's pool filled, its statements compiled and prepared), so that
        # the phase without phones, the baseline, is not slowed by a start that the other skips
        _scoring(server.port, scored, WARM_UP, processes, every)
        load_before = os.getloadavg()[0]
        cpu = _server_cpu(server.process.pid)
        quiet = _scoring(server.port, scored, seconds, processes, every)  # the same scorers, no one waiting
        quiet_cpu = _server_cpu(server.process.pid) - cpu
        versions = [(g, etag_version(setup.call("GET", f"/api/v1/games/{g}")[1]["etag"])) for g, _ in games]
        rss_before = _rss_kib(server.process.pid)
        child = subprocess.Popen(
            [sys.executable, __file__, "--waiter-child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(
            json.dumps(
                {
                    "port": server.port,
                    "pgid": server.process.pid,
                    "games": versions,
                    "waiters": waiters,
                    "seconds": seconds,
                    "stream": stream,
                }
            )
        )
        child.stdin.close()
        ready = json.loads(child.stdout.readline())
        connected, settled = ready["connected"], ready["settle_s"]
        rss_waiting = _rss_kib(server.process.pid)
        cpu = _server_cpu(server.process.pid)
        busy = _scoring(server.port, scored, seconds, processes, every)
        busy_cpu = _server_cpu(server.process.pid) - cpu
        woken_out = json.loads(child.stdout.readline())
        child.wait(timeout=60)
    recorded = {(g, v): at for g, v, at in busy["recorded"]}
    watched = {g for g, _ in versions[:game_count]}
    phones_per_game = {g: sum(1 for i in range(waiters) if versions[i % game_count][0] == g) for g in watched}
    wakes = [at - recorded[(g, v)] for g, v, at in woken_out["woken"] if (g, v) in recorded]
    expected = sum(phones_per_game[g] for g, _ in recorded)
    cpu_per_hand = quiet_cpu / max(1, len(quiet["writes"]))
    return {
        "load_before": load_before,
        "settle_s": settled,
        "backend": backend,
        "feed": "stream" if stream else "long poll",
        "waiters": waiters,
        "connected": connected,
        "games": game_count,
        "scorers": scorers,
        "every": every,
        "health_p50": _ms(busy["health"], 0.5),
        "health_p99": _ms(busy["health"], 0.99),
        "write_p50_quiet": _ms(quiet["writes"], 0.5),
        "write_p99_quiet": _ms(quiet["writes"], 0.99),
        "write_p50": _ms(busy["writes"], 0.5),
        "write_p99": _ms(busy["writes"], 0.99),
        "hands_per_s_quiet": len(quiet["writes"]) / seconds,
        "hands_per_s": len(busy["writes"]) / seconds,
        "wakes": len(wakes),
        "wakes_expected": expected,
        "wake_p50": _ms(wakes, 0.5),
        "wake_p99": _ms(wakes, 0.99),
        "wake_max": max(wakes, default=float("nan")) * 1000,
        "rss_per_waiter_kib": (rss_waiting - rss_before) / max(1, connected),
        # the server's CPU time per hand with no one waiting, and what the phones added, per phone woken
        "cpu_ms_per_hand_quiet": cpu_per_hand * 1000,
        "cpu_ms_per_wake": (busy_cpu - cpu_per_hand * len(busy["writes"])) * 1000 / max(1, len(wakes)),
        "errors": sum(busy["errors"]) + sum(busy["health_errors"]) + len(woken_out["errors"]),
        "error_kinds": sorted(set(woken_out["errors"]))[:5],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--backends", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--processes", type=int, default=4, help="load generator processes (default 4)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of both phases per server (default 3)")
    parser.add_argument(
        "--limit-store",
        default=None,
        help="rate-limit storage URI (default: Redis on 127.0.0.1:6379 if it answers, else memory)",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--waiters", type=int, nargs="*", default=[], help="the waiters phase: this many phones waiting"
    )
    parser.add_argument("--waiter-games", type=int, default=700, help="the games they wait on (default 700)")
    parser.add_argument("--scorers", type=int, default=64, help="clients recording hands meanwhile (default 64)")
    parser.add_argument(
        "--hand-every",
        type=float,
        default=0.0,
        help="seconds between two hands of a scorer (default 0: back to back, as many as the server takes)",
    )
    parser.add_argument(
        "--feed",
        choices=["poll", "stream"],
        default="poll",
        help="how the phones follow their games: long polls on /events (default), or /events/stream",
    )
    parser.add_argument("--waiter-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.waiter_child:
        return _waiter_child(args)
    if args.waiters:
        return _main_waiters(args)
    limit_store = args.limit_store or ("redis://127.0.0.1:6379/0" if redis_up() else "memory://")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends:
            for clients in args.clients:
                r = run(backend, clients, args.seconds, Path(tmp), args.processes, args.repeat, limit_store)
                results.append(r)
                print(json.dumps(r), file=sys.stderr)
    print(
        f"limits kept in {limit_store}; {args.repeat} rounds of {args.seconds:g} s per phase; "
        f"{args.processes} load generator processes"
    )
    print(
        "| Backend | Clients | `/health` req/s | Hands/s | Hand + read req/s | Hands/s ÷ ceiling | "
        "Req/s ÷ ceiling | Write p50 / p99 ms | Read p50 / p99 ms | Server CPU ms/req (health / hands) "
        "| Errors |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in results:
        print(
            f"| {r['backend']} | {r['clients']} | {r['ceiling_rps']:,.0f} | {r['hands_per_s']:,.0f} | "
            f"{r['requests_per_s']:,.0f} | {r['ratio']:.0%} | {r['request_ratio']:.0%} | "
            f"{r['write_p50']:.0f} / {r['write_p99']:.0f} | {r['read_p50']:.0f} / {r['read_p99']:.0f} | "
            f"{r['ceiling_cpu_ms']:.2f} / {r['load_cpu_ms']:.2f} | {r['errors']} |"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 1 if any(r["errors"] or r["ceiling_errors"] for r in results) else 0


def _pace(every: float) -> str:
    return f"a hand each {every:g} s" if every else "back to back"


def _main_waiters(args: argparse.Namespace) -> int:
    limit_store = args.limit_store or ("redis://127.0.0.1:6379/0" if redis_up() else "memory://")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for backend in args.backends:
            for waiters in args.waiters:
                r = run_waiters(
                    backend,
                    waiters,
                    args.waiter_games,
                    args.scorers,
                    args.hand_every,
                    args.seconds,
                    Path(tmp),
                    args.processes,
                    limit_store,
                    args.feed == "stream",
                )
                results.append(r)
                print(json.dumps(r), file=sys.stderr)
    print(f"limits kept in {limit_store}; {args.seconds:g} s of scoring with and without the waiters")
    print(
        "| Backend | Feed | Waiting phones (connected) | Games | Scorers, pace | `/health` p50 / p99 ms | "
        "Write p50 / p99 ms, no waiter | Write p50 / p99 ms | Hands/s (no waiter) | Woken / expected | "
        "Wake p50 / p99 / max ms | Server RSS per waiter | Server CPU ms per hand (no waiter) / per wake | "
        "Load before | First asks taken, s | Errors |"
    )
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in results:
        print(
            f"| {r['backend']} | {r['feed']} | {r['waiters']:,} ({r['connected']:,}) | {r['games']} | {r['scorers']}, "
            f"{_pace(r['every'])} | "
            f"{r['health_p50']:.0f} / {r['health_p99']:.0f} | "
            f"{r['write_p50_quiet']:.0f} / {r['write_p99_quiet']:.0f} | "
            f"{r['write_p50']:.0f} / {r['write_p99']:.0f} | {r['hands_per_s']:.0f} ({r['hands_per_s_quiet']:.0f}) | "
            f"{r['wakes']:,} / {r['wakes_expected']:,} | "
            f"{r['wake_p50']:.0f} / {r['wake_p99']:.0f} / {r['wake_max']:.0f} | "
            f"{r['rss_per_waiter_kib']:.0f} KiB | {r['cpu_ms_per_hand_quiet']:.1f} / {r['cpu_ms_per_wake']:.1f} | "
            f"{r['load_before']:.1f} | {r['settle_s']:.0f} | {r['errors']} {' '.join(r['error_kinds'])} |"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
