"""A real ginref server (gunicorn, several workers) for tests that need one.

Bounded: it starts within 30 s or fails, and is always stopped (SIGTERM to its
process group, then SIGKILL)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def redis_up() -> bool:
    """Does a Redis answer on 127.0.0.1:6379?"""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def postgres_up() -> bool:
    """Is TEST_DATABASE_URL set, and does its server answer?"""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        return False
    try:
        engine = create_engine(url, connect_args={"connect_timeout": 2})
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url(backend: str, tmp_path: Path, name: str) -> str:
    """A fresh database: a SQLite file, or a PostgreSQL schema named ``name``."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / (name + '.sqlite3')}"
    url = os.environ["TEST_DATABASE_URL"]
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA IF EXISTS {name} CASCADE"))
        conn.execute(text(f"CREATE SCHEMA {name}"))
    engine.dispose()
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{name}"


@dataclass
class RawResponse:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes
    seconds: float

    def json(self) -> Any:
        return json.loads(self.body)


def raw_request(port: int, data: bytes, timeout: float = 10) -> RawResponse:
    """Send ``data`` as is (no client in between to tidy it up) and read one
    response, framed by its Content-Length."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError(f"connection closed after {received!r}")
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {
            name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])
        }
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = s.recv(65536)
            if not chunk:
                break
            body += chunk
    return RawResponse(int(lines[0].split()[1]), headers, body, time.monotonic() - started)


class BlackHole:
    """A listener on 127.0.0.1 that accepts connections and never answers: a
    store or database that hangs. ``close()`` (or the block's end) closes every
    socket: connections to the port are refused from then on."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=64)
        self.listener.settimeout(0.2)
        self.port = int(self.listener.getsockname()[1])
        self.accepted: list[socket.socket] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                self.accepted.append(self.listener.accept()[0])
            except OSError:  # timeout: look at stopped again
                continue

    def __enter__(self) -> BlackHole:
        self.thread.start()
        return self

    def close(self) -> None:
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join(timeout=5)
        for s in [*self.accepted, self.listener]:
            s.close()

    def __exit__(self, *exc: object) -> None:
        self.close()


class LiveServer:
    def __init__(self, db_url: str, *, workers: int = 4, env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.workers = workers
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "GINREF_BIND": f"127.0.0.1:{self.port}",
            "GINREF_WORKERS": str(workers),
            "FLASK_RATELIMIT_WRITES": '"1000000 per minute"',
            **(env or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"ginref-live-{self.port}.log"

    def init_db(self) -> None:
        subprocess.run(
            [str(BIN / "flask"), "--app", "app", "init-db"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            timeout=120,
        )

    def start(self) -> LiveServer:
        self.process = subprocess.Popen(
            [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "app:create_app()"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self.log_path.open("ab"),
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
            if self.process.poll() is not None:
                raise RuntimeError("gunicorn exited at start")
        self.stop()
        raise RuntimeError("gunicorn did not start within 30 s")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: no clean shutdown."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=15)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None

    def __enter__(self) -> LiveServer:
        self.init_db()
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
