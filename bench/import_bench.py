"""Time and weigh ``POST /api/v1/leagues/import`` on a large league.

Run from the repository root::

    python bench/import_bench.py                       # 40,000 hands, half by cards, on SQLite
    python bench/import_bench.py --hands 10000 --cards-share 1 --backends sqlite postgresql

The document is generated with the referee, as the API would have recorded
it: 12 players; games of three of them (roles given, default rules) played
to the target; each hand a draw (``--draw-share``), a knock by cards
(``--cards-share``: a deal of ``bench/generators.knock_deals``, from a pool of
``--pool`` deals reused round-robin, the knocker drawn per hand) or else a
knock by counts (knocker 0-10, defender 0-40, R25); every hand's input
loaded by ``schemas.hands.HandInSchema`` and judged by
``api.judging.judge_input``, the game state advanced by the referee, so the
document is what ``GET /leagues/{id}/export`` gives for such a league.

The import itself runs in a fresh child process (``--child``), on a fresh
database (SQLite: a temporary file; PostgreSQL: ``--pg-url``, in a schema
``ginref_bench_import`` created fresh and dropped at the end), through the
Flask test client: the body is read from a file before the request, then
timed. Reported: wall time, the child's CPU time for the request
(``time.process_time``: all of the work on SQLite; PostgreSQL's server time
is not in it), and peak memory: the growth of the child's peak resident set
(``ru_maxrss``) over its resident set just before the request, and, in a
second child, the peak of Python's own allocations during the request
(``tracemalloc``, which slows the request down, so it is not timed).

Results: 40,000 hands (5,786 games), CPython 3.11.7, 2 vCPUs shared with
other work (load average 2-5), SQLite unless noted; CPU and memory of the
fastest of the runs, before the import re-judged its hands (commit
88e13d7) and after (re-judging, bulk inserts, the document held once):

| Document | Body MiB | CPU s before | after | Peak RSS growth MiB before | after | Python peak MiB before | after |
|---|--:|--:|--:|--:|--:|--:|--:|
| counts only (95%), draws | 19.1 | 15.4 | 4.7 | 418 | 85 | 393 | 71 |
| half by cards | 25.7 | 20.0 | 9.1 | 542 | 128 | 504 | 111 |
| half by cards, PostgreSQL | 25.7 | 28.9 | 10.9 | 560 | 128 | 520 | 111 |
| all by cards (95%) | 31.7 | 24.7 | 13.0 | 662 | 167 | 611 | 147 |

Of the time after, loading the inputs (``HandInSchema``) and judging them
(``judge_input``), which recording the same hands costs anyway, take 0.8 s
(counts), 5.0 s (half by cards) and 8.0 s (all by cards).

Since format 2 (``--format``, 2 by default) each game of the document also
has its revisions and disputes: here each hand's one revision, as recorded,
which doubles the body. Half by cards, SQLite, one run each on the same
loaded machine (load average 4-9): format 1, 25.7 MiB, 11.7 s CPU, 129 MiB
peak RSS growth, 111 MiB Python peak; format 2, 54.6 MiB, 16.7 s CPU (19.9 s
when each revision's input was loaded again), 252 MiB and 242 MiB. A
revision given as its hand's input is neither loaded nor judged again; the
rest of the growth is the larger document parsed and its revisions loaded.

Since the games stay as their text until each is judged, and a game of an
export's shape is read by msgspec and loaded in one pass (then by schemas.transfer_fast),
with the cyclic garbage collector paused (runs of 2026-12-02, load average
about 1):

| Document | Body MiB | CPU s | Peak RSS growth MiB | Python peak MiB |
|---|--:|--:|--:|--:|
| format 2, counts only (95%), draws | 42.1 | 5.6 | 128 | 125 |
| format 2, half by cards | 54.6 | 8.9 | 178 | 172 |
| format 2, half by cards, PostgreSQL | 54.6 | 11.9 | 178 | 172 |
| format 1, all by cards (95%) | 31.7 | 10.9 | 158 | 151 |

A run of the half-by-cards document on the final code, the machine slower
by then (load.py's /health ceiling 2,300 requests a second, not 3,400): 9.9 s
of CPU on SQLite, 10.4 s on PostgreSQL, the same memory. Format 2 with 95% by
cards is 66.0 MiB, over the default import limit of 64 MiB.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from typing import Any

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(BENCH_DIR)
sys.path[:0] = [REPO_ROOT, BENCH_DIR]

DEFAULT_PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
PG_SCHEMA = "ginref_bench_import"
N_PLAYERS = 12
START = datetime(2015, 1, 5, 19, 0, tzinfo=UTC)


def build_document(
    n_hands: int, cards_share: float, draw_share: float, pool: int, seed: int, version: int = 2
) -> dict[str, Any]:
    """A valid export document of ``n_hands`` hands (see the module's docstring);
    of format ``version`` 2, each hand has its one revision, as recorded."""
    import generators as gen

    from api.judging import Judged, judge_input
    from referee import HandRecord, Roles, Rules
    from referee.game import advance, new_game
    from schemas.hands import HandInSchema

    rng = random.Random(seed)
    rules = Rules()
    schema = HandInSchema()
    deals = gen.knock_deals(pool, seed=seed)
    judged_deals: dict[tuple[int, str], Judged] = {}

    def judge(body: dict[str, Any]) -> Judged:
        return judge_input(schema.load(body), rules)

    players = [{"id": i + 1, "name": f"Player {i + 1:02d}"} for i in range(N_PLAYERS)]
    games: list[dict[str, Any]] = []
    played_at = START
    hands = 0
    while hands < n_hands:
        seated = rng.sample([p["id"] for p in players], 3)
        first = Roles(box=seated[0], captain=seated[1], sitter=seated[2])
        state = new_game(first)
        recorded_at = played_at
        game_hands = []
        revisions = []
        while not state.finished and hands < n_hands:
            roll = rng.random()
            knocker = rng.choice(("box", "captain"))
            if roll < draw_share:
                judged = judge({"outcome": "draw"})
            elif roll < draw_share + cards_share:
                index = hands % pool
                judged = judged_deals.get((index, knocker))  # type: ignore[assignment]
                if judged is None:
                    k, d = deals[index]
                    judged = judged_deals[(index, knocker)] = judge(
                        {"knocker": knocker, "knocker_hand": {"cards": k}, "defender_hand": {"cards": d}}
                    )
            else:
                judged = judge(
                    {
                        "knocker": knocker,
                        "knocker_deadwood_count": rng.randint(0, 10),
                        "defender_deadwood_count": rng.randint(0, 40),
                    }
                )
            seating = state.roles
            assert seating is not None
            knocker_deadwood = judged.ruling["knocker"]["deadwood_count"] if judged.mode == "cards" else None
            state = advance(rules, state, HandRecord(seating, judged.knocker, judged.score, knocker_deadwood))
            recorded_at += timedelta(minutes=rng.randint(3, 9))
            game_hands.append(
                {
                    "number": state.hands_played,
                    "mode": judged.mode,
                    "seating": seating.as_dict(),
                    "knocker": None if judged.knocker is None else judged.knocker.value,
                    "input": judged.input,
                    "ruling": judged.ruling,
                    "recorded_at": recorded_at.isoformat(),
                    "corrected_at": None,
                }
            )
            scores = {str(p): n for p, n in state.scores.items()}
            revisions.append(
                {
                    **{k: game_hands[-1][k] for k in ("number", "mode", "seating", "knocker", "input", "ruling")},
                    "revision": 1,
                    "action": "recorded",
                    "scores": scores,
                    "game_scores": scores,
                    "made_at": recorded_at.isoformat(),
                    "reason": None,
                    "dispute": None,
                }
            )
            hands += 1
        games.append(
            {
                "id": len(games) + 1,
                "played_at": played_at.isoformat(),
                "players": seated,
                "cut": None,
                "first_roles": first.as_dict(),
                "rules": rules.as_dict(),
                "status": "finished" if state.finished else "in_progress",
                "scores": {str(p): n for p, n in state.scores.items()},
                "winner": state.winner,
                "hands": game_hands,
                **({"revisions": revisions, "disputes": []} if version == 2 else {}),
            }
        )
        played_at += timedelta(minutes=rng.choice((20, 40, 60, 90, 1440, 2880)))
    return {
        "format": "ginref.league",
        "format_version": version,
        "league": {"id": 1, "name": "Bench league"},
        "players": players,
        "games": games,
    }


def _rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def child(path: str, backend: str, pg_url: str, trace: bool) -> dict[str, Any]:
    """Import the document at ``path`` once, in this (fresh) process."""
    from app import create_app
    from models import db

    if backend == "sqlite":
        tmp = tempfile.TemporaryDirectory(prefix="ginref-bench-import-")
        config: dict[str, Any] = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp.name}/ginref.sqlite3"}
    else:
        config = {
            "SQLALCHEMY_DATABASE_URI": pg_url,
            "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"options": f"-csearch_path={PG_SCHEMA}"}},
        }
    app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, **config})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    client.get("/health")  # the first request's one-off setup is not the import's
    with open(path, "rb") as fh:
        body = fh.read()
    rss_before = _rss_kib()
    if trace:
        tracemalloc.start()
    cpu, wall = time.process_time(), time.perf_counter()
    response = client.post("/api/v1/leagues/import", data=body, content_type="application/json")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    traced = tracemalloc.get_traced_memory()[1] if trace else None
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if response.status_code != 201:
        raise SystemExit(f"import refused: {response.status_code} {response.get_data(as_text=True)[:1000]}")
    return {
        "status": response.status_code,
        "cpu_s": cpu,
        "wall_s": wall,
        "rss_before_mib": rss_before / 1024,
        "peak_growth_mib": (maxrss - rss_before) / 1024,
        "traced_peak_mib": None if traced is None else traced / 2**20,
        "body_mib": len(body) / 2**20,
    }


def _admin(pg_url: str, *statements: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def run_child(path: str, backend: str, pg_url: str, trace: bool) -> dict[str, Any]:
    if backend == "postgresql":
        _admin(pg_url, f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE", f"CREATE SCHEMA {PG_SCHEMA}")
    try:
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                path,
                "--backends",
                backend,
                "--pg-url",
                pg_url,
                *(["--trace"] if trace else []),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        if backend == "postgresql":
            _admin(pg_url, f"DROP SCHEMA IF EXISTS {PG_SCHEMA} CASCADE")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=40_000, help="hands in the document (default 40000)")
    ap.add_argument("--cards-share", type=float, default=0.5, help="share of hands by cards (default 0.5)")
    ap.add_argument("--draw-share", type=float, default=0.05, help="share of draws (default 0.05)")
    ap.add_argument("--pool", type=int, default=2_000, help="knock deals reused round-robin (default 2000)")
    ap.add_argument("--backends", nargs="+", choices=["sqlite", "postgresql"], default=["sqlite"])
    ap.add_argument("--pg-url", default=os.environ.get("BENCH_PG_URL", DEFAULT_PG_URL))
    ap.add_argument("--repeat", type=int, default=3, help="timed imports per backend, the fastest reported")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--format", type=int, choices=[1, 2], default=2, help="the document's format_version (default 2)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.backends[0], args.pg_url, args.trace)))
        return 0

    t0 = time.perf_counter()
    doc = build_document(args.hands, args.cards_share, args.draw_share, args.pool, args.seed, args.format)
    n_games = len(doc["games"])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False)
        path = fh.name
    del doc
    print(
        f"# ginref import benchmark: {os.cpu_count()} CPUs, {platform.python_implementation()} "
        f"{platform.python_version()}; {args.hands:,} hands in {n_games:,} games "
        f"({args.cards_share:.0%} by cards, {args.draw_share:.0%} draws), format {args.format}, "
        f"{os.path.getsize(path) / 2**20:.1f} MiB, built in {time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    try:
        print("| Backend | Hands | Body MiB | Wall s | CPU s | Peak RSS growth MiB | Python peak MiB |")
        print("|---|--:|--:|--:|--:|--:|--:|")
        for backend in args.backends:
            runs = [run_child(path, backend, args.pg_url, trace=False) for _ in range(args.repeat)]
            best = min(runs, key=lambda r: r["cpu_s"])
            traced = run_child(path, backend, args.pg_url, trace=True)
            print(
                f"| {backend} | {args.hands:,} | {best['body_mib']:.1f} | {best['wall_s']:.1f} "
                f"| {best['cpu_s']:.1f} | {min(r['peak_growth_mib'] for r in runs):.0f} "
                f"| {traced['traced_peak_mib']:.0f} |",
                flush=True,
            )
    finally:
        os.unlink(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
