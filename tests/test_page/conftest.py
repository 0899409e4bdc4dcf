"""The table page in a real browser: Chromium (Debian's /usr/bin/chromium)
driven by Playwright, against a real gunicorn server on 127.0.0.1.

Without Chromium or Playwright the browser tests are skipped, loudly (and
``make test`` says so on its last lines); ``GINREF_REQUIRE_BROWSER=1``
(set by ``.ci/run``) makes a missing browser a failure instead."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from werkzeug.serving import make_server

from app import create_app
from models import db

CHROMIUM = os.environ.get("GINREF_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 640}
SHOTS = Path(os.environ.get("GINREF_SCREENSHOTS", Path(os.environ.get("TMPDIR", "/tmp")) / "ginref-screens"))

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ImportError:  # pragma: no cover - reported by the browser fixture
    sync_playwright = None


def browser_missing() -> str | None:
    if sync_playwright is None:
        return "Playwright is not installed (requirements-dev.txt)"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    missing = browser_missing()
    if missing:
        if os.environ.get("GINREF_REQUIRE_BROWSER") == "1":
            pytest.fail(f"the browser tests must run here (GINREF_REQUIRE_BROWSER=1): {missing}")
        pytest.skip(f"BROWSER TESTS SKIPPED: {missing}")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class ThreadServer:
    """The real app on 127.0.0.1, served by werkzeug from a thread: it starts
    in a fraction of a second (SQLite; the database tests cover PostgreSQL)."""

    def __init__(self, path: Path) -> None:
        self.app = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "RATELIMIT_ENABLED": False, "TESTING": True}
        )
        with self.app.app_context():
            db.create_all()
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.port = int(self.server.server_port)
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    if browser_missing() and os.environ.get("GINREF_REQUIRE_BROWSER") != "1":
        pytest.skip(f"BROWSER TESTS SKIPPED: {browser_missing()}")
    with ThreadServer(tmp_path_factory.mktemp("page") / "page.sqlite3") as server:
        yield server


class Phone:
    """A browser context as one phone at the table: every request it makes is
    recorded, and any to another origin is refused and reported."""

    def __init__(
        self,
        browser: Browser,
        base: str,
        *,
        locale: str = "en-US",
        viewport: dict[str, int] = PHONE,
        service_workers: str = "block",  # else the worker's fetches would pass by the recording
    ) -> None:
        self.base = base
        self.context: BrowserContext = browser.new_context(
            viewport=viewport, locale=locale, has_touch=True, service_workers=service_workers
        )
        self.requests: list[str] = []
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page: Page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def _route(self, route: Any) -> None:
        url = route.request.url
        self.requests.append(url)
        if url.startswith(self.base + "/") or url == self.base:
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort()

    def open(self, fragment: str = "") -> Page:
        self.page.goto(f"{self.base}/{'#' + fragment if fragment else ''}")
        return self.page

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def phones(browser: Browser, live: ThreadServer) -> Iterator[Callable[..., Phone]]:
    """Phones for one test; on the way out, none may have asked another origin."""
    made: list[Phone] = []

    def phone(**kwargs: Any) -> Phone:
        made.append(Phone(browser, live.base, **kwargs))
        return made[-1]

    yield phone
    for p in made:
        p.close()
    assert [url for p in made for url in p.foreign] == []
    assert [e for p in made for e in p.errors if "Failed to load resource" not in e] == []


class Api:
    """The public API, as a test's own client (to set up and to check)."""

    def __init__(self, base: str) -> None:
        self.base = base + "/api/v1"

    def post(self, path: str, body: dict[str, Any], key: str | None = None, **headers: str) -> Any:
        """POST ``body`` as the page sends it: JSON.stringify's bytes (an
        Idempotency-Key replays only the very same body)."""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        headers["Content-Type"] = "application/json"
        data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
        r = requests.post(self.base + path, data=data, headers=headers, timeout=10)
        r.raise_for_status()
        return r

    def get(self, path: str) -> Any:
        r = requests.get(self.base + path, timeout=10)
        r.raise_for_status()
        return r.json()

    def get_etag(self, path: str) -> str:
        r = requests.get(self.base + path, timeout=10)
        r.raise_for_status()
        return str(r.headers["ETag"])

    def player(self, name: str) -> int:
        return int(self.post("/players", {"name": name}).json()["id"])


@pytest.fixture
def api(live: ThreadServer) -> Api:
    return Api(live.base)


STARTED = time.time()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say where this run's screenshots are (written by the xdist workers too)."""
    if SHOTS.is_dir() and any(p.stat().st_mtime >= STARTED for p in SHOTS.glob("*.png")):
        terminalreporter.write_line(f"screenshots of the table page at 360x640: {SHOTS}")


def shot(page: Page, name: str) -> Path:
    """A screenshot of the screen as a phone shows it, into SHOTS (printed)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    print(f"screenshot: {path}")
    return path
