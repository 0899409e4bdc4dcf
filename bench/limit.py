"""How close a hand write is to the least Flask can do: ginref's
``POST /games/{game_id}/hands`` (by cards, nothing declared) beside a minimal
Flask app and a bare WSGI function doing the same work (parse the 20 cards,
``judge_hand``, one INSERT, commit, return the ruling as JSON; on SQLite in
WAL mode with ``synchronous=NORMAL``, as ginref's, so that each commit is as
durable), and ``judge_hand`` alone; the same hand written to a two-player
game (the classic preset) beside the three-handed one, with their ratio; the
write a club makes (a game in a league) and the write as the page sends it
(with an ``Idempotency-Key``), with the rate limits in memory and in Redis
(as a server of several workers counts them; left out without Redis); and
ginref's ``GET /games/{game_id}`` (200 and 304) beside its ``/health``.

    python bench/limit.py [--n 300] [--rounds 5] [--instructions [--instruction-calls 100]]

Every variant is called in this process through the same WSGI call (an
environ built once per request shape, no test client, no sockets), on a
SQLite file. Each round runs every variant ``--n`` times, in an order rotated
from round to round; the CPU time per request (``time.process_time``) is the
median over rounds, with the range. ``--instructions`` also counts
instructions per request with callgrind (valgrind), which this noisy machine
cannot disturb: each variant runs in a child process under callgrind with
twice ``--instruction-calls`` calls and with that many, and the difference
is divided by their number (so what happens once, early, cancels out).
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask, Response, request  # noqa: E402
from werkzeug.test import EnvironBuilder  # noqa: E402

from app import create_app  # noqa: E402
from models import db  # noqa: E402
from referee import judge_hand, parse_card  # noqa: E402
from schemas.rulings import ruling_dict  # noqa: E402

# R15/R16: the knocker keeps AS (1), the defender lays 8H and 9H off and keeps 7: 6 points.
KNOCKER = ["5H", "6H", "7H", "2S", "2D", "2C", "JS", "JD", "JC", "AS"]
DEFENDER = ["8H", "9H", "3D", "4D", "5D", "8C", "9C", "10C", "3S", "4C"]
HAND = {"knocker": "box", "knocker_hand": {"cards": KNOCKER}, "defender_hand": {"cards": DEFENDER}}
# R28: the same hand in a two-player game; the dealer knocks, wins and deals again (R28, classic).
TWO_PLAYER_HAND = {**HAND, "knocker": "dealer"}
# 6 points a hand: far from the target of 1000 (a Hollywood match's column 1, which the dealer's every
# win enters, too); each kind of game is replaced as often, so that its start weighs alike in each row
HANDS_PER_GAME = 100
THREE_HANDED, TWO_PLAYER, HOLLYWOOD = "three-handed", "two-player", "hollywood"
# a three-handed game in a league: the write that a club makes (books, figures, ratings)
LEAGUE = "league"
REDIS = "redis://127.0.0.1:6379/0"


def _environ(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    builder = EnvironBuilder(
        path=path, method=method, data=data, headers=headers or {}, content_type="application/json" if data else None
    )
    try:
        return dict(builder.get_environ())
    finally:
        builder.close()


def _call(app: Callable[..., Iterable[bytes]], environ: dict[str, Any]) -> tuple[str, bytes]:
    environ = dict(environ)
    body = environ.get("wsgi.input")
    if body is not None:
        environ["wsgi.input"] = io.BytesIO(body.getvalue() if hasattr(body, "getvalue") else b"")
    status: list[str] = []

    def start_response(s: str, _headers: list[tuple[str, str]], _exc: Any = None) -> Callable[[bytes], None]:
        status.append(s)
        return lambda _b: None

    result = app(environ, start_response)
    try:
        out = b"".join(result)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    return status[0], out


# --- the least work: the same hand judged and stored, in Flask and in bare WSGI ---------------------------


def _store(db: sqlite3.Connection) -> None:
    """The hand table, on a connection set up as ginref's (models.sqlite): WAL,
    and ``synchronous=NORMAL``, so that a commit is as durable as ginref's, and
    as costly (SQLite's default, FULL, syncs the file on every commit)."""
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS hand (id INTEGER PRIMARY KEY, input TEXT, ruling TEXT)")
    db.commit()


def _judge(data: dict[str, Any]) -> dict[str, Any]:
    knocker = [parse_card(c) for c in data["knocker_hand"]["cards"]]
    defender = [parse_card(c) for c in data["defender_hand"]["cards"]]
    return ruling_dict(judge_hand(knocker, defender))


def minimal_flask(path: str) -> Flask:
    app = Flask("minimal")
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    _store(db)

    @app.post("/hands")
    def record() -> Response:
        data = request.get_json()
        ruling = _judge(data)
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO hand (input, ruling) VALUES (?, ?)", (json.dumps(data), json.dumps(ruling)))
        db.execute("COMMIT")
        return app.response_class(json.dumps(ruling), status=201, mimetype="application/json")

    return app


def bare_wsgi(path: str) -> Callable[..., Iterable[bytes]]:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    _store(db)

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        data = json.loads(environ["wsgi.input"].read(length))
        ruling = _judge(data)
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO hand (input, ruling) VALUES (?, ?)", (json.dumps(data), json.dumps(ruling)))
        db.execute("COMMIT")
        body = json.dumps(ruling).encode()
        start_response("201 Created", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]

    return app


# --- ginref itself ----------------------------------------------------------------------------------------


class Ginref:
    """ginref's app on a SQLite file, with games to record hands into: a
    three-handed one, and (once asked for) a two-player one of the classic
    preset, a Hollywood match and a three-handed game in a league, each
    replaced by a new game every HANDS_PER_GAME hands. ``limits`` is where
    the rate limits are counted: in memory (one process) or in Redis, as
    a server of several workers or instances counts them."""

    def __init__(self, path: str, limits: str = "memory://") -> None:
        self.app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
                "RATELIMIT_WRITES": "100000000 per minute",  # counted as in production, never reached
                "RATELIMIT_STORAGE_URI": limits,
                "RATELIMIT_KEY_PREFIX": f"ginref-bench-{os.getpid()}-{id(self)}",
            }
        )
        with self.app.app_context():
            db.create_all()
        players = [self._post("/api/v1/players", {"name": n})["id"] for n in ("Ann", "Bob", "Cy")]
        self.players = players
        self.league: dict[str, Any] | None = None
        self.sent = 0
        self.hands: dict[str, int] = {}
        self.games: dict[str, dict[str, Any]] = {}
        self.writes: dict[str, dict[str, Any]] = {}
        self._new_game(THREE_HANDED)
        self.game = self.games[THREE_HANDED]
        self.read = _environ("GET", f"/api/v1/games/{self.game['id']}")

    def _post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
        status, out = _call(self.app, _environ("POST", path, body, headers))
        assert status.startswith("201"), (status, out[:300])
        return json.loads(out)

    def _new_game(self, kind: str) -> None:
        p = self.players
        if kind in (TWO_PLAYER, HOLLYWOOD):
            body: dict[str, Any] = {
                "players": p[:2],
                "roles": {"dealer": p[0], "non_dealer": p[1]},
                "rules": {"preset": "classic" if kind == TWO_PLAYER else "hollywood", "target_score": 1000},
            }
            hand = TWO_PLAYER_HAND
        else:
            body = {
                "players": p,
                "roles": {"box": p[0], "captain": p[1], "sitter": p[2]},
                "rules": {"target_score": 1000},
            }
            hand = HAND
        headers: dict[str, str] = {}
        if kind == LEAGUE:
            if self.league is None:
                self.league = self._post("/api/v1/leagues", {"name": "Club", "members": p})
            body["league_id"] = self.league["id"]
            headers["Authorization"] = f"Bearer {self.league['key']}"
        game = self.games[kind] = self._post("/api/v1/games", body, headers)
        key = self.league["key"] if kind == LEAGUE and self.league else game["key"]
        self.writes[kind] = _environ(
            "POST",
            f"/api/v1/games/{game['id']}/hands",
            hand,
            {"Authorization": f"Bearer {key}", "If-Match": "*"},
        )
        self.hands[kind] = 0

    def next_write(self, kind: str = THREE_HANDED, idempotent: bool = False) -> dict[str, Any]:
        """The request for the next hand of a game of ``kind`` (a new game at
        first and every HANDS_PER_GAME hands, its start counted in the call
        that makes it); ``idempotent``: with an ``Idempotency-Key`` of its
        own, as the page sends every hand."""
        if self.hands.get(kind, HANDS_PER_GAME) == HANDS_PER_GAME:
            self._new_game(kind)
        self.hands[kind] += 1
        if not idempotent:
            return self.writes[kind]
        self.sent += 1
        return {**self.writes[kind], "HTTP_IDEMPOTENCY_KEY": f"{os.getpid()}-{id(self)}-{self.sent}"}

    def not_modified(self) -> dict[str, Any]:
        """A read of the game with its current ETag (a 304 while no hand is recorded)."""
        etag = f'"g{self.game["id"]}v{self.game["version"]}"'
        return _environ("GET", f"/api/v1/games/{self.game['id']}", headers={"If-None-Match": etag})


WRITE = "ginref POST /games/{game_id}/hands"
TWO_PLAYER_WRITE = "ginref POST /games/{game_id}/hands, classic"
# R34: the same hand in a Hollywood match (each hand entered in the columns R34 names)
HOLLYWOOD_WRITE = "ginref POST /games/{game_id}/hands, hollywood"
KEYED = ", Idempotency-Key"
IN_REDIS = ", limits in Redis"
WRITE_KEYED = WRITE + KEYED
LEAGUE_WRITE = "ginref POST /games/{game_id}/hands, league"
LEAGUE_WRITE_KEYED = LEAGUE_WRITE + KEYED
WRITE_REDIS = WRITE_KEYED + IN_REDIS
LEAGUE_WRITE_REDIS = LEAGUE_WRITE_KEYED + IN_REDIS
MINIMAL = "minimal Flask app, same work"


def redis_reachable() -> bool:
    """Whether Redis answers on 127.0.0.1:6379 (the rows with the limits in Redis need it)."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


def variants(tmp: str, only: str | None = None) -> dict[str, Callable[[], Any]]:
    """Every variant by name, or (``only``) just that one, with nothing else built."""
    built: dict[str, Any] = {}

    def ginref(limits: str = "memory://") -> Ginref:
        if limits not in built:
            built[limits] = Ginref(os.path.join(tmp, f"ginref-{len(built)}.sqlite3"), limits)
        return built[limits]  # type: ignore[no-any-return]

    def minimal() -> Callable[[], Any]:
        app, write = minimal_flask(os.path.join(tmp, "minimal.sqlite3")), _environ("POST", "/hands", HAND)
        return lambda: _call(app, write)

    def bare() -> Callable[[], Any]:
        app, write = bare_wsgi(os.path.join(tmp, "bare.sqlite3")), _environ("POST", "/hands", HAND)
        return lambda: _call(app, write)

    def judge() -> Callable[[], Any]:
        cards_k, cards_d = [parse_card(c) for c in KNOCKER], [parse_card(c) for c in DEFENDER]
        return lambda: judge_hand(cards_k, cards_d)

    def ginref_write(kind: str, idempotent: bool = False, limits: str = "memory://") -> Callable[[], Callable[[], Any]]:
        def make() -> Callable[[], Any]:
            app = ginref(limits)

            def write() -> None:
                status, out = _call(app.app, app.next_write(kind, idempotent))
                assert status.startswith("201"), (status, out[:300])

            return write

        return make

    def ginref_read() -> Callable[[], Any]:
        app = ginref()

        def read() -> None:
            status, _ = _call(app.app, app.read)
            assert status.startswith("200"), status

        return read

    def ginref_304() -> Callable[[], Any]:
        still = Ginref(os.path.join(tmp, "still.sqlite3"))  # a game no one writes to
        not_modified = still.not_modified()

        def read() -> None:
            status, _ = _call(still.app, not_modified)
            assert status.startswith("304"), status

        return read

    def health() -> Callable[[], Any]:
        app, request = ginref(), _environ("GET", "/health")
        return lambda: _call(app.app, request)

    factories: dict[str, Callable[[], Callable[[], Any]]] = {
        WRITE: ginref_write(THREE_HANDED),
        WRITE_KEYED: ginref_write(THREE_HANDED, idempotent=True),
        LEAGUE_WRITE: ginref_write(LEAGUE),
        LEAGUE_WRITE_KEYED: ginref_write(LEAGUE, idempotent=True),
        WRITE_REDIS: ginref_write(THREE_HANDED, idempotent=True, limits=REDIS),
        LEAGUE_WRITE_REDIS: ginref_write(LEAGUE, idempotent=True, limits=REDIS),
        TWO_PLAYER_WRITE: ginref_write(TWO_PLAYER),
        HOLLYWOOD_WRITE: ginref_write(HOLLYWOOD),
        MINIMAL: minimal,
        "bare WSGI function, same work": bare,
        "judge_hand alone": judge,
        "ginref GET /games/{game_id}": ginref_read,
        "ginref GET /games/{game_id}, 304": ginref_304,
        "ginref GET /health": health,
    }
    if not redis_reachable():  # the rows in Redis are left out, and the table says so
        del factories[WRITE_REDIS], factories[LEAGUE_WRITE_REDIS]
    calls = {name: make() for name, make in factories.items() if only is None or name == only}
    # As a server's worker does once the app is built (gunicorn.conf.py): what the
    # setup made stays out of the garbage collector's full collections.
    gc.collect()
    gc.freeze()
    return calls


def measure(n: int, rounds: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        calls = variants(tmp)
        names = list(calls)
        for name in names:  # warm up: schemas built, statements compiled, pages cached
            for _ in range(20):
                calls[name]()
        per_round: dict[str, list[float]] = {name: [] for name in names}
        for r in range(rounds):
            order = names[r % len(names) :] + names[: r % len(names)]
            for name in order:
                call = calls[name]
                started = time.process_time()
                for _ in range(n):
                    call()
                per_round[name].append((time.process_time() - started) / n)
        return per_round


def instructions(name: str, n: int) -> float | None:
    """Instructions per call of variant ``name`` under callgrind, or None
    without valgrind: a run of ``2 * n`` calls less one of ``n``, over ``n``.
    What happens once, early (the first full collection of the garbage
    collector after the setup), falls in both runs and cancels out; against
    a run of no calls, it moved ``/health``'s count by half over 40 calls."""
    if shutil.which("valgrind") is None:
        return None
    counts = []
    for calls in (2 * n, n):
        result = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                __file__,
                "--only",
                name,
                "--n",
                str(calls),
            ],
            capture_output=True,
            text=True,
            timeout=3600,
        )
        line = next((ln for ln in result.stderr.splitlines() if "Collected :" in ln), None)
        if line is None:
            return None
        counts.append(int(line.rsplit(":", 1)[1].strip()))
    return (counts[0] - counts[1]) / n


def _only(name: str, n: int) -> None:
    """One variant, ``n`` times, after its setup and warm-up (a child of --instructions)."""
    with tempfile.TemporaryDirectory() as tmp:
        call = variants(tmp, only=name)[name]
        for _ in range(20):
            call()
        for _ in range(n):
            call()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=300, help="calls per variant per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", action="store_true", help="also count instructions with callgrind")
    parser.add_argument(
        "--instruction-calls", type=int, default=100, help="calls per counted run (--instructions; default 100)"
    )
    parser.add_argument("--only", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:
        _only(args.only, args.n)
        return 0
    started = time.monotonic()
    results = measure(args.n, args.rounds)
    load = os.getloadavg()[0]
    base = statistics.median(results[MINIMAL])
    health = statistics.median(results["ginref GET /health"])
    print(f"\n{args.rounds} rounds x {args.n} calls, CPU time per call; load average {load:.1f}")
    if WRITE_REDIS not in results:
        print("(no Redis on 127.0.0.1:6379: the rows with the limits in Redis are left out)")
    print()
    width = max(len(name) for name in results)
    header = f"| {'variant':<{width}} | {'CPU median':>10} | {'range':>17} "
    header += f"| {'x minimal Flask':>15} | {'x /health':>9} |"
    if args.instructions:
        header += f" {'instructions':>12} |"
    print(header)
    print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    counts: dict[str, float | None] = {}
    for name, times in results.items():
        median = statistics.median(times)
        row = (
            f"| {name:<{width}} | {median * 1e3:>7.3f} ms | {min(times) * 1e3:>6.3f}-{max(times) * 1e3:.3f} ms "
            f"| {median / base:>15.2f} | {median / health:>9.2f} |"
        )
        if args.instructions:
            count = counts[name] = instructions(name, args.instruction_calls)
            row += f" {'n/a' if count is None else f'{count / 1e6:.2f} M':>12} |"
        print(row, flush=True)
    minimal = counts.get(MINIMAL)
    if minimal:
        print("\ninstructions x minimal Flask app:")
        for name in (WRITE, WRITE_KEYED, WRITE_REDIS, LEAGUE_WRITE, LEAGUE_WRITE_KEYED, LEAGUE_WRITE_REDIS):
            count = counts.get(name)
            if count:
                print(f"  {name}: {count / minimal:.2f}")
    # R27, R28: a two-player hand's write against the three-handed one's, the same hand by cards
    ratio = statistics.median(results[TWO_PLAYER_WRITE]) / statistics.median(results[WRITE])
    line = f"\ntwo-player write x three-handed write: CPU {ratio:.2f}"
    three, two = counts.get(WRITE), counts.get(TWO_PLAYER_WRITE)
    if three and two:
        line += f", instructions {two / three:.2f}"
    print(line)
    # R34: a Hollywood match's write against a classic game's, the same hand
    ratio = statistics.median(results[HOLLYWOOD_WRITE]) / statistics.median(results[TWO_PLAYER_WRITE])
    line = f"hollywood write x classic write: CPU {ratio:.2f}"
    hollywood = counts.get(HOLLYWOOD_WRITE)
    if two and hollywood:
        line += f", instructions {hollywood / two:.2f}"
    print(line)
    print(f"\n{time.monotonic() - started:.0f} s wall time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
