"""Time a league's standings request at scale, on SQLite and PostgreSQL.

Run from the repository root::

    python bench/standings.py                                  # 1k, 10k, 100k hands, both backends
    python bench/standings.py --sizes 1000 10000 --backends sqlite --repeat 15

For each backend and size: a fresh database (SQLite: a temporary file;
PostgreSQL: ``--pg-url``, in a fresh schema ``ginref_bench`` that is dropped
at the end), ``create_app`` on it and ``db.create_all()``; 12 players and a
league with all 12 as members; then games of three random members, each
started as ``POST /games`` starts one and with ``played_at`` increasing, and
hands recorded by cards as ``POST /games/{id}/hands`` records them
(``api.judging.judge_cards``, then ``models.game.record_hand``), until the league has the
wanted number of hands (the last game may be left unfinished). The league is
built directly through the models, one commit per ``--batch`` games.

Judging is not what is measured, so a pool of ``--pool`` knock deals
(``bench/generators.knock_deals``) is judged at the start of each run (not
part of the build time) and reused round-robin; the knocker (box or captain)
is drawn per hand; every hand row gets the deal's real input and ruling. Games are played to
``--target-score`` (a rule option, default 190: with these deals, about 10
hands a game; the mean is reported).

Then, through the Flask test client, ``GET /api/v1/leagues/{id}/standings``
(no date range): one cold call (the first after the build: it recomputes the
league's openskill ratings from every hand), then ``--repeat`` warm calls,
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
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(BENCH_DIR)
sys.path[:0] = [REPO_ROOT, BENCH_DIR]

import generators as gen  # noqa: E402  (bench/generators.py)
from sqlalchemy import create_engine, func, select, text  # noqa: E402

from api.judging import Judged, judge_cards  # noqa: E402
from app import create_app  # noqa: E402
from models import Game, GamePlayer, Hand, League, LeagueMember, Player, db, write_transaction  # noqa: E402
from models.books import refresh_totals  # noqa: E402
from models.game import GameRow, record_hand  # noqa: E402
from referee import Role, Roles, Rules, parse_cards, replay  # noqa: E402

DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
PG_SCHEMA = "ginref_bench"
N_PLAYERS = 12
#: POST /games/{id}/hands records a hand with ``Game.append`` where the models have it
START = datetime(2015, 1, 5, 19, 0, tzinfo=UTC)


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
    rules_dict = rules.as_dict()
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
                game = Game(
                    players=seated,
                    rules=rules_dict,
                    league_id=league_id,
                    played_at=played_at,
                    first_box=roles.box,
                    first_captain=roles.captain,
                    first_sitter=roles.sitter,
                    version=0,
                )
                db.session.add(game)
                game.apply(replay(rules, roles, []), history=False)
                db.session.flush()
                games += 1
                played_at += timedelta(minutes=rng.choice((20, 40, 60, 90, 1440, 2880)))
                # Its hands, as POST /games/{id}/hands records each one (models.game.record_hand).
                row = GameRow.of({c: getattr(game, c) for c in GameRow.__dataclass_fields__})
                while row.status != "finished" and hands < n_hands:
                    judged = pool[rng.choice((Role.BOX, Role.CAPTAIN))][hands % n_pool]
                    row, _ = record_hand(row, judged.knocker, judged.score, judged.input, judged.ruling, judged.mode)
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
        # Every hand is played by three players, every game by three.
        assert sum(r["hands_played"] for r in items) == 3 * n_hands, "standings miss hands"
        assert sum(r["games_played"] for r in items) == 3 * games, "standings miss games"
        assert sum(r["rating"]["hands_rated"] for r in items) == 3 * n_hands, "ratings miss hands"
        calls = [call()[:2] for _ in range(args.repeat)]
        warm = [ms for ms, _cpu in calls]
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
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
        )
    finally:
        database.close()


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
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--json", help="also write the results as JSON to this path")
    args = ap.parse_args(argv)

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
            "results": [vars(r) for r in results],
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
