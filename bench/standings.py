"""Time a league's standings request at scale, on SQLite and PostgreSQL.

Run from the repository root::

    python bench/standings.py                                  # 1k, 10k, 100k hands, both backends
    python bench/standings.py --sizes 1000 10000 --backends sqlite --repeat 15
    python bench/standings.py --sizes 100000 --baseline ../main  # and main's read after a correction

For each backend and size: a fresh database (SQLite: a temporary file;
PostgreSQL: ``--pg-url``, in a fresh schema ``ginref_bench`` that is dropped
at the end), ``create_app`` on it and ``db.create_all()``; 12 players and a
league with all 12 as members; then games of three random members, each
started as ``POST /games`` starts one and with ``played_at`` increasing, and
hands recorded by cards as ``POST /games/{id}/hands`` records them
(``api.judging.judge_cards``, then ``services.record_next_hand``, which keeps
the league's books in step), until the league has the wanted number of hands
(the last game may be left unfinished). The league is built directly through
the services the views call, one commit per ``--batch`` games.

Judging is not what is measured, so a pool of ``--pool`` knock deals
(``bench/generators.knock_deals``) is judged at the start of each run (not
part of the build time) and reused round-robin; the knocker (box or captain)
is drawn per hand; every hand row gets the deal's real input and ruling. Games are played to
``--target-score`` (a rule option, default 190: with these deals, about 10
hands a game; the mean is reported).

Then, through the Flask test client, ``GET /api/v1/leagues/{id}/standings``
(no date range): one cold call (the first after the build), then ``--repeat`` warm calls,
each timed on its own (``time.perf_counter``; each request in its own app
context and session, as in production; garbage collector on, with the judged
pool dropped and one full collection before the cold call, so the heap is the
app's and no request pays for the build's garbage). Reported: build time,
cold ms, warm median and p95 ms (wall clock), the median CPU time of this
process per warm call (all of the work on SQLite; PostgreSQL's server time is
not in it: a check on how much other load on the machine inflated the wall
clock), rows returned, and the growth of the warm median from one size to the
next. PostgreSQL gets ``VACUUM ANALYZE`` after the build (what autovacuum
would do shortly after such a load; done explicitly so runs do not depend on
its timing); SQLite gets nothing.

Then the read after a correction: hand 1 of the league's first game (in
played_at order) is corrected as ``PUT /games/{id}/hands/1`` does
(``services.correct_hand``), to a draw and back again, ``--corrections``
times; after each, the standings are read and timed (wall and CPU of the
process). A correction of the first hand changes every later rating, so the
read re-rates the whole history. Each round runs in a fresh process (one
warm read first); with ``--baseline DIR`` a process importing the ginref at
``DIR`` (another checkout, same schema) takes its turn before each of this
checkout's, on the same database, so both see the same moments of the
machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(BENCH_DIR)
#: the ginref whose standings are timed: this checkout, or another (--baseline) in a child process
CODE_ROOT = os.environ.get("GINREF_BENCH_CODE", REPO_ROOT)
sys.path[:0] = [CODE_ROOT, BENCH_DIR]

import generators as gen  # noqa: E402  (bench/generators.py)
from sqlalchemy import create_engine, func, select, text  # noqa: E402

import services  # noqa: E402
from api.judging import Judged, judge_cards, judge_input  # noqa: E402
from app import create_app  # noqa: E402
from models import Game, GamePlayer, Hand, League, LeagueMember, Player, db, write_transaction  # noqa: E402
from models.books import refresh_totals  # noqa: E402
from models.game import GameRow  # noqa: E402
from referee import Outcome, Role, Roles, Rules, Score, Side, parse_cards  # noqa: E402

DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
PG_SCHEMA = "ginref_bench"
N_PLAYERS = 12
#: POST /games/{id}/hands records a hand with ``Game.append`` where the models have it
START = datetime(2015, 1, 5, 19, 0, tzinfo=UTC)


@dataclass
class Correction:
    """The standings read after each correction of an early hand, by one code."""

    code: str  # "current", or "baseline" (--baseline)
    read_ms: list[float]
    read_cpu_ms: list[float]
    write_ms: list[float]
    write_cpu_ms: list[float]


@dataclass
class Result:
    backend: str
    hands: int
    games: int
    finished_games: int
    game_player_rows: int
    mean_hands_per_game: float
    pool_s: float
    build_s: float
    cold_ms: float
    warm_median_ms: float
    warm_p95_ms: float
    warm_min_ms: float
    warm_cpu_median_ms: float
    rows: int
    repeat: int
    corrections: list[Correction]


# --- the pool of judged deals ---------------------------------------------------------


def judged_pool(size: int, seed: int, rules: Rules) -> dict[Role, list[Judged]]:
    """``size`` knock deals judged once, for each knocker role (the ruling does
    not depend on the role; the stored input names it)."""
    pool: dict[Role, list[Judged]] = {Role.BOX: [], Role.CAPTAIN: []}
    for knocker, defender in gen.knock_deals(size, seed=seed):
        for role in pool:
            # The body as HandInSchema loads it (cards parsed, undeclared parts None).
            data = {
                "knocker": role.value,
                "knocker_hand": {"cards": parse_cards(knocker), "melds": None, "discard": None},
                "defender_hand": {"cards": parse_cards(defender), "melds": None, "layoffs": None},
            }
            pool[role].append(judge_cards(data, rules))
    return pool


# --- building a league ----------------------------------------------------------------


def build_league(n_hands: int, pool: dict[Role, list[Judged]], rules: Rules, seed: int, batch: int) -> tuple[int, int]:
    """A league of ``N_PLAYERS`` members and ``n_hands`` hands; returns (league id, games)."""
    rng = random.Random(seed)
    with write_transaction():
        players = [Player(name=f"Player {i + 1:02d}") for i in range(N_PLAYERS)]
        league = League(
            name=f"Bench league ({n_hands:,} hands)", ratings_stale=False, streaks_stale=False, history_version=0
        )  # as POST /leagues makes one
        db.session.add_all([league, *players])
        db.session.flush()
        db.session.add_all(LeagueMember(league_id=league.id, player_id=p.id) for p in players)
        refresh_totals(league.id, [p.id for p in players])
        db.session.commit()
        league_id = league.id
    member_ids = [p.id for p in players]
    n_pool = len(pool[Role.BOX])
    hands = games = 0
    played_at = START
    while hands < n_hands:
        with write_transaction():
            for _ in range(batch):
                if hands >= n_hands:
                    break
                # A game, as POST /games starts one (roles given).
                seated = rng.sample(member_ids, 3)
                roles = Roles(box=seated[0], captain=seated[1], sitter=seated[2])
                placement = services.Placement(league_id=league_id, played_at=played_at)
                game, _key = services.start_game(seated, roles, rules, placement)
                games += 1
                played_at += timedelta(minutes=rng.choice((20, 40, 60, 90, 1440, 2880)))
                # Its hands, as POST /games/{id}/hands records each one (services.record_next_hand).
                row = GameRow.read(game.id, lock=True)
                assert row is not None
                while row.status != "finished" and hands < n_hands:
                    judged = pool[rng.choice((Role.BOX, Role.CAPTAIN))][hands % n_pool]
                    row = services.record_next_hand(row, judged, by=None).game
                    hands += 1
            db.session.commit()
    return league_id, games


def league_counts(league_id: int) -> dict[str, int]:
    games = db.session.scalar(select(func.count()).select_from(Game).where(Game.league_id == league_id)) or 0
    finished = (
        db.session.scalar(
            select(func.count()).select_from(Game).where(Game.league_id == league_id, Game.winner.is_not(None))
        )
        or 0
    )
    hands = (
        db.session.scalar(
            select(func.count())
            .select_from(Hand)
            .join(Game, Game.id == Hand.game_id)
            .where(Game.league_id == league_id)
        )
        or 0
    )
    gp = db.session.scalar(select(func.count()).select_from(GamePlayer).where(GamePlayer.league_id == league_id)) or 0
    return {"games": games, "finished": finished, "hands": hands, "game_player": gp}


# --- databases ------------------------------------------------------------------------


class Database:
    """A fresh database for one run: ``config`` for create_app, ``settle`` after
    the build, ``close`` to remove it."""

    def __init__(self, backend: str, pg_url: str) -> None:
        self.backend = backend
        self.pg_url = pg_url
        self.tmp: tempfile.TemporaryDirectory[str] | None = None
        if backend == "sqlite":
            self.tmp = tempfile.TemporaryDirectory(prefix="ginref-bench-")
            self.config: dict[str, Any] = {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{os.path.join(self.tmp.name, 'ginref.sqlite3')}"
            }
        else:
            self._admin(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE", f"CREATE SCHEMA {PG_SCHEMA}")
            self.config = {
                "SQLALCHEMY_DATABASE_URI": pg_url,
                "SQLALCHEMY_ENGINE_OPTIONS": {
                    "connect_args": {"options": f"-csearch_path={PG_SCHEMA}"},
                    "pool_pre_ping": True,
                },
            }

    def _admin(self, *statements: str) -> None:
        engine = create_engine(
            self.pg_url, isolation_level="AUTOCOMMIT", connect_args={"options": f"-csearch_path={PG_SCHEMA}"}
        )
        try:
            with engine.connect() as conn:
                for statement in statements:
                    conn.execute(text(statement))
        finally:
            engine.dispose()

    def settle(self) -> None:
        if self.backend == "postgresql":
            self._admin("VACUUM ANALYZE")

    def close(self) -> None:
        if self.backend == "postgresql":
            self._admin(f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE")
        if self.tmp is not None:
            self.tmp.cleanup()


def server_version(backend: str, pg_url: str) -> str:
    if backend == "sqlite":
        return f"SQLite {sqlite3.sqlite_version}"
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            return "PostgreSQL " + str(conn.execute(text("SHOW server_version")).scalar()).split()[0]
    finally:
        engine.dispose()


# --- one run --------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def run_one(backend: str, n_hands: int, args: argparse.Namespace, rules: Rules) -> Result:
    database = Database(backend, args.pg_url)
    try:
        app = create_app({"TESTING": True, **database.config})
        t0 = time.perf_counter()
        pool = judged_pool(args.pool, args.seed, rules)
        pool_s = time.perf_counter() - t0
        with app.app_context():
            db.create_all()
            t0 = time.perf_counter()
            league_id, games = build_league(n_hands, pool, rules, args.seed + n_hands, args.batch)
            build_s = time.perf_counter() - t0
            counts = league_counts(league_id)
            db.session.remove()
        assert counts["hands"] == n_hands and counts["games"] == games, counts
        database.settle()
        # The process's heap while timing: the app, not the bench's judged pool
        # nor the build's leftovers (the collector's full passes scan the heap).
        del pool
        gc.collect()

        client = app.test_client()
        url = f"/api/v1/leagues/{league_id}/standings"

        def call() -> tuple[float, float, dict[str, Any]]:
            cpu, t = time.process_time(), time.perf_counter()
            response = client.get(url)
            ms, cpu_ms = (time.perf_counter() - t) * 1000, (time.process_time() - cpu) * 1000
            assert response.status_code == 200, (response.status_code, response.get_data(as_text=True)[:500])
            return ms, cpu_ms, response.get_json()

        cold_ms, _cpu, body = call()
        items = body["items"]
        # Every hand is played by two players and sat out by one (R8), every game is played by three.
        assert sum(r["hands_played"] for r in items) == 2 * n_hands, "standings miss hands"
        assert sum(r["hands_sat_out"] for r in items) == n_hands, "standings miss hands sat out"
        assert sum(r["games_played"] for r in items) == 3 * games, "standings miss games"
        assert sum(r["rating"]["hands_rated"] for r in items) == 3 * n_hands, "ratings miss hands"
        calls = [call()[:2] for _ in range(args.repeat)]
        warm = [ms for ms, _cpu in calls]
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        # Corrections, each code in its own process on this league, alternating round by round.
        codes = [("baseline", args.baseline)] if args.baseline else []
        codes.append(("current", REPO_ROOT))
        runs = [
            corrections_in_child(code, root, database.config, league_id, args.corrections, n_hands)
            for _ in range(args.rounds if args.corrections else 0)
            for code, root in codes
        ]
        return Result(
            backend=backend,
            hands=n_hands,
            games=games,
            finished_games=counts["finished"],
            game_player_rows=counts["game_player"],
            mean_hands_per_game=n_hands / games,
            pool_s=pool_s,
            build_s=build_s,
            cold_ms=cold_ms,
            warm_median_ms=statistics.median(warm),
            warm_p95_ms=percentile(warm, 95),
            warm_min_ms=min(warm),
            warm_cpu_median_ms=statistics.median(cpu for _ms, cpu in calls),
            rows=len(items),
            repeat=args.repeat,
            corrections=merge(runs),
        )
    finally:
        database.close()


# --- after a correction ---------------------------------------------------------------


def early_hand(league_id: int) -> tuple[int, Judged]:
    """The league's first game (in played_at order) and its hand 1 as recorded."""
    game_id = db.session.scalar(
        select(Game.id).where(Game.league_id == league_id).order_by(Game.played_at, Game.id).limit(1)
    )
    assert game_id is not None
    hand = db.session.scalars(select(Hand).where(Hand.game_id == game_id, Hand.number == 1)).one()
    assert hand.knocker is not None and hand.scorer is not None, "hand 1 of the first game is a draw already"
    score = Score(Outcome(hand.outcome), Side(hand.scorer), hand.points)
    return game_id, Judged(hand.mode, Role(hand.knocker), score, hand.ruling, hand.input)


def time_corrections(config: dict[str, Any], league_id: int, corrections: int, rated: int) -> dict[str, Any]:
    """Correct hand 1 of the league's first game ``corrections`` times (a draw,
    then back to what it was, and so on: an even number leaves the league as
    it was), as ``PUT /games/{id}/hands/1`` does (``services.correct_hand``),
    and time the standings read that follows each, with the code this
    process imported (``GINREF_BENCH_CODE``)."""
    app = create_app({"TESTING": True, **config})
    client = app.test_client()
    url = f"/api/v1/leagues/{league_id}/standings"
    assert client.get(url).status_code == 200  # warm: statements compiled, ratings current
    with app.app_context():
        game_id, original = early_hand(league_id)
        game = db.session.get(Game, game_id)
        assert game is not None
        draw = judge_input({"outcome": "draw"}, game.rule_options)  # R12
        db.session.remove()
    times: dict[str, list[float]] = {"read_ms": [], "read_cpu_ms": [], "write_ms": [], "write_cpu_ms": []}
    for i in range(corrections):
        judged = draw if i % 2 == 0 else original
        with app.app_context():
            cpu, t = time.process_time(), time.perf_counter()
            with write_transaction():
                locked = Game.locked(game_id)
                assert locked is not None
                services.correct_hand(locked, locked.hands[0], judged, by=None)
                db.session.commit()
            times["write_ms"].append((time.perf_counter() - t) * 1000)
            times["write_cpu_ms"].append((time.process_time() - cpu) * 1000)
            db.session.remove()
        gc.collect()  # the correction's garbage is not the read's
        cpu, t = time.process_time(), time.perf_counter()
        response = client.get(url)
        times["read_ms"].append((time.perf_counter() - t) * 1000)
        times["read_cpu_ms"].append((time.process_time() - cpu) * 1000)
        assert response.status_code == 200, (response.status_code, response.get_data(as_text=True)[:500])
        hands_rated = sum(r["rating"]["hands_rated"] for r in response.get_json()["items"])
        assert hands_rated == 3 * (rated - (judged is draw)), "ratings miss hands after the correction"
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    return times


def corrections_in_child(
    code: str, root: str, config: dict[str, Any], league_id: int, corrections: int, rated: int
) -> Correction:
    """``time_corrections`` in a fresh process that imports ginref from ``root``."""
    job = {"config": config, "league_id": league_id, "corrections": corrections, "rated": rated}
    done = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--correction-child", json.dumps(job)],
        env={**os.environ, "GINREF_BENCH_CODE": root},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the {code} code's corrections failed:\n{done.stderr[-3000:]}")
    return Correction(code=code, **json.loads(done.stdout.splitlines()[-1]))


def merge(runs: list[Correction]) -> list[Correction]:
    """One Correction per code, its rounds' times together."""
    merged: dict[str, Correction] = {}
    for run in runs:
        into = merged.setdefault(run.code, Correction(run.code, [], [], [], []))
        for name in ("read_ms", "read_cpu_ms", "write_ms", "write_cpu_ms"):
            getattr(into, name).extend(getattr(run, name))
    return list(merged.values())


# --- report ---------------------------------------------------------------------------


def markdown(results: list[Result]) -> str:
    lines = [
        "| Backend | Hands | Games (finished) | Hands/game | `game_player` rows | Build s | Cold ms "
        "| Warm median ms | Warm p95 ms | Warm median CPU ms | Rows |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for r in results:
        lines.append(
            f"| {r.backend} | {r.hands:,} | {r.games:,} ({r.finished_games:,}) "
            f"| {r.mean_hands_per_game:.1f} | {r.game_player_rows:,} | {r.build_s:.1f} "
            f"| {r.cold_ms:,.0f} | {r.warm_median_ms:.1f} | {r.warm_p95_ms:.1f} "
            f"| {r.warm_cpu_median_ms:.1f} | {r.rows} |"
        )
    corrected = [(r, c) for r in results for c in r.corrections]
    if corrected:
        lines += [
            "",
            "| Backend | Hands | Code | Corrections | Read after: median ms | median CPU ms | min CPU ms "
            "| Correction write: median ms | median CPU ms |",
            "|---|--:|---|--:|--:|--:|--:|--:|--:|",
        ]
        for r, c in corrected:
            lines.append(
                f"| {r.backend} | {r.hands:,} | {c.code} | {len(c.read_ms)} | {statistics.median(c.read_ms):,.0f} "
                f"| {statistics.median(c.read_cpu_ms):,.0f} | {min(c.read_cpu_ms):,.0f} "
                f"| {statistics.median(c.write_ms):,.0f} | {statistics.median(c.write_cpu_ms):,.0f} |"
            )
    growth = growth_rows(results)
    if growth:
        lines += ["", "| Backend | Hands | Warm median growth |", "|---|---|--:|"]
        for backend, a, b, ratio in growth:
            lines.append(f"| {backend} | {a:,} -> {b:,} ({b / a:g}x hands) | {ratio:.2f}x |")
    return "\n".join(lines)


def growth_rows(results: list[Result]) -> list[tuple[str, int, int, float]]:
    out = []
    for backend in dict.fromkeys(r.backend for r in results):
        mine = sorted((r for r in results if r.backend == backend), key=lambda r: r.hands)
        for a, b in zip(mine, mine[1:], strict=False):
            out.append((backend, a.hands, b.hands, b.warm_median_ms / a.warm_median_ms))
    return out


def load_average() -> str:
    """1, 5 and 15 minute load averages: the timings are wall clock, so other work on the machine shows."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--correction-child"]:  # corrections_in_child's process
        job = json.loads(argv[1])
        print(json.dumps(time_corrections(job["config"], job["league_id"], job["corrections"], job["rated"])))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[1_000, 10_000, 100_000],
        help="hands per league (default 1000 10000 100000)",
    )
    ap.add_argument("--backends", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite", "postgresql"])
    ap.add_argument("--repeat", type=int, default=15, help="warm calls timed (default 15)")
    ap.add_argument(
        "--pg-url",
        default=os.environ.get("BENCH_PG_URL", DEFAULT_PG_URL),
        help=f"PostgreSQL URL (default {DEFAULT_PG_URL}); schema {PG_SCHEMA} is created and dropped",
    )
    ap.add_argument("--pool", type=int, default=2_000, help="judged knock deals reused round-robin (default 2000)")
    ap.add_argument(
        "--target-score",
        type=int,
        default=190,
        help="game target (rule option; default 190, about 10 hands a game with these deals)",
    )
    ap.add_argument("--batch", type=int, default=50, help="games per commit while building (default 50)")
    ap.add_argument(
        "--corrections",
        type=int,
        default=4,
        help="corrections of an early hand per round, each followed by a timed read (even; default 4; 0: none)",
    )
    ap.add_argument("--rounds", type=int, default=1, help="rounds of corrections per code (default 1)")
    ap.add_argument(
        "--baseline",
        metavar="DIR",
        help="another ginref checkout (e.g. `git worktree add` of main) whose read after a correction is "
        "timed too, alternating with this one's, on the same league",
    )
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--json", help="also write the results as JSON to this path")
    args = ap.parse_args(argv)
    if args.corrections % 2:
        ap.error("--corrections must be even: each pair leaves the league as it was")

    rules = Rules(target_score=args.target_score)
    versions = {b: server_version(b, args.pg_url) for b in args.backends}
    print(
        f"# ginref standings benchmark: {os.cpu_count()} CPUs, {platform.python_implementation()} "
        f"{platform.python_version()}, {', '.join(versions.values())}",
        flush=True,
    )
    print(
        f"# pool: {args.pool:,} judged knock deals; target score {args.target_score}; {args.repeat} warm calls; "
        f"load average {load_average()}",
        flush=True,
    )

    results: list[Result] = []
    for backend in args.backends:
        for size in args.sizes:
            print(f"{backend} {size:,} hands ...", end=" ", flush=True)
            r = run_one(backend, size, args, rules)
            results.append(r)
            print(
                f"pool judged in {r.pool_s:.1f} s, built in {r.build_s:.1f} s "
                f"({r.games:,} games, {r.mean_hands_per_game:.1f} hands/game); cold {r.cold_ms:,.0f} ms; "
                f"warm median {r.warm_median_ms:.1f} ms, p95 {r.warm_p95_ms:.1f} ms",
                flush=True,
            )
            for c in r.corrections:
                print(
                    f"  after a correction ({c.code}): read median {statistics.median(c.read_ms):,.0f} ms, "
                    f"CPU {statistics.median(c.read_cpu_ms):,.0f} ms (load average {load_average()})",
                    flush=True,
                )

    print(f"# load average at the end: {load_average()}")
    print()
    print(markdown(results))
    if args.json:
        doc = {
            "environment": {
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                **versions,
                "load_average_at_end": load_average(),
            },
            "pool": args.pool,
            "target_score": args.target_score,
            "seed": args.seed,
            "batch": args.batch,
            "results": [asdict(r) for r in results],
            "growth": [
                {"backend": b, "from_hands": a, "to_hands": c, "warm_median_ratio": x}
                for b, a, c, x in growth_rows(results)
            ],
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=2)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
