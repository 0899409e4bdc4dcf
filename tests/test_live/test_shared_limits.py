"""Rate limits shared by several workers through Redis (when Redis answers on
127.0.0.1:6379; the default in-memory storage is per process)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import requests

from tests.live import LiveServer, redis_up


@pytest.mark.skipif(not redis_up(), reason="no Redis on 127.0.0.1:6379")
def test_four_workers_share_one_write_budget_through_redis(tmp_path: Path) -> None:
    prefix = f"ginref-test-{uuid.uuid4().hex}"
    env = {
        "FLASK_RATELIMIT_WRITES": '"5 per minute"',
        "FLASK_RATELIMIT_STORAGE_URI": '"redis://127.0.0.1:6379/0"',
        "FLASK_RATELIMIT_KEY_PREFIX": f'"{prefix}"',
    }
    with LiveServer(f"sqlite:///{tmp_path / 'limits.sqlite3'}", workers=4, env=env) as server:
        statuses = []
        for i in range(12):  # new connections: spread over the workers
            r = requests.post(
                f"{server.base}/api/v1/players", json={"name": f"P{i}"}, timeout=10, headers={"Connection": "close"}
            )
            statuses.append(r.status_code)
            if r.status_code == 429:
                assert r.headers["Content-Type"] == "application/problem+json"
                assert int(r.headers["Retry-After"]) > 0
        assert statuses == [201] * 5 + [429] * 7
        assert requests.get(f"{server.base}/api/v1/players", timeout=10).status_code == 200
