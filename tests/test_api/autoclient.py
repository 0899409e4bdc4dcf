"""A test client that sends, for writes that do not set them, the key and the
If-Match a careful phone would send: the key handed out when the league or
game was created (or rotated), and the game's current ETag. Tests of keys and
preconditions themselves (test_auth.py, test_trust.py) set the headers they
mean to send, or leave them out on purpose with ``auto=False``."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from werkzeug.datastructures import Headers

WRITES = {"POST", "PUT", "PATCH", "DELETE"}
GAME_PATH = re.compile(r"^/api/v1/games/(\d+)(/hands(/\d+(/disputes(/\d+/resolution)?)?)?|/key)?/?$")
LEAGUE_PATH = re.compile(r"^/api/v1/leagues/(\d+)/(members|key)/?$")


class AutoClient(FlaskClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.auto = True
        self._keys: dict[tuple[str, int], str] = self.application.extensions.setdefault("test_keys", {})

    def open(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        method = str(kwargs.get("method", "GET")).upper()
        path = args[0] if args and isinstance(args[0], str) else str(kwargs.get("path", ""))
        path = path.split("?", 1)[0]
        if self.auto and method in WRITES:
            headers = Headers(kwargs.get("headers") or {})
            self._fill(method, path, headers, kwargs.get("json"))
            kwargs["headers"] = headers
        response = super().open(*args, **kwargs)
        self._learn(method, path, response)
        return response

    def _fill(self, method: str, path: str, headers: Headers, body: Any) -> None:
        game = GAME_PATH.match(path)
        league = LEAGUE_PATH.match(path)
        key: str | None = None
        if game:
            self.auto = False
            try:
                current = super().open(f"/api/v1/games/{game.group(1)}", method="GET")
            finally:
                self.auto = True
            if current.status_code == 200:
                state = current.get_json()
                lid = state.get("league_id")
                key = self._keys.get(("league", lid)) if lid else self._keys.get(("game", state["id"]))
                if game.group(2) and game.group(2).startswith("/hands") and "If-Match" not in headers:
                    headers["If-Match"] = current.headers["ETag"]
        elif league:
            key = self._keys.get(("league", int(league.group(1))))
        elif path.rstrip("/") == "/api/v1/games" and isinstance(body, dict):
            lid = body.get("league_id")
            if isinstance(lid, int):
                key = self._keys.get(("league", lid))
        if key is not None and "Authorization" not in headers:
            headers["Authorization"] = f"Bearer {key}"

    def _learn(self, method: str, path: str, response: Any) -> None:
        if method != "POST" or response.status_code != 201 or not response.is_json:
            return
        body = response.get_json(silent=True)
        if not isinstance(body, dict) or "key" not in body:
            return
        clean = path.rstrip("/")
        if clean in ("/api/v1/leagues", "/api/v1/leagues/import"):
            self._keys[("league", body["id"])] = body["key"]
        elif clean == "/api/v1/games":
            self._keys[("game", body["id"])] = body["key"]
        elif (m := LEAGUE_PATH.match(path)) and m.group(2) == "key":
            self._keys[("league", int(m.group(1)))] = body["key"]
        elif (m := GAME_PATH.match(path)) and m.group(2) == "/key":
            self._keys[("game", int(m.group(1)))] = body["key"]
