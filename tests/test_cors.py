"""app.remembered_cors: every response carries the CORS headers flask-cors
itself would give it, for any path, method, Origin and private-network
header, with the origins open (the default) or listed; a preflight is
answered by flask-cors as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

import app as app_module
from app import create_app
from models import db

ORIGINS = [None, "https://club.example", "https://other.example", "null", "https://club.example:8443"]
PATHS = ["/api/v1/players", "/api/v1/games/1", "/api/v1/nothing-here", "/apix", "/health", "/", "/docs"]
KEPT = {
    "Access-Control-Allow-Origin",
    "Access-Control-Expose-Headers",
    "Access-Control-Allow-Credentials",
    "Access-Control-Allow-Private-Network",
    "Access-Control-Allow-Headers",
    "Access-Control-Allow-Methods",
    "Access-Control-Max-Age",
    "Vary",
}


def _app(tmp: Path, origins: Any, remembered: bool, monkeypatch: pytest.MonkeyPatch) -> Flask:
    with monkeypatch.context() as m:
        if not remembered:
            m.setattr(app_module, "remembered_cors", lambda cors: cors)
        config = {"TESTING": True, "RATELIMIT_ENABLED": False, "CORS_ORIGINS": origins}
        built = create_app({**config, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/{remembered}.sqlite3"})
    with built.app_context():
        db.create_all()
    return built


def _cors(response: Any) -> list[tuple[str, str]]:
    return sorted((k, v) for k, v in response.headers.items() if k in KEPT)


@pytest.mark.parametrize("origins", ["*", ["https://club.example", "https://other.example"]])
def test_every_answer_has_the_cors_headers_flask_cors_gives_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, origins: Any
) -> None:
    fast = _app(tmp_path, origins, True, monkeypatch).test_client()
    plain = _app(tmp_path, origins, False, monkeypatch).test_client()
    seen = set()
    for _ in range(2):  # the second time round, every answer is a remembered one
        for path in PATHS:
            for origin in ORIGINS:
                for private in (None, "true"):
                    for method in ("GET", "POST", "OPTIONS"):
                        headers = {} if origin is None else {"Origin": origin}
                        if private:
                            headers["Access-Control-Request-Private-Network"] = private
                        if method == "OPTIONS":
                            headers["Access-Control-Request-Method"] = "POST"
                        a = fast.open(path, method=method, headers=headers)
                        b = plain.open(path, method=method, headers=headers)
                        assert (a.status_code, _cors(a)) == (b.status_code, _cors(b)), (path, origin, method)
                        seen.add(tuple(_cors(a)))
    assert len(seen) > 3  # the cases give different answers, and each is flask-cors's
