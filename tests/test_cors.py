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


def _answer(client: Any, origin: str, preflight: bool = False) -> list[tuple[str, str]]:
    headers = {"Origin": origin}
    if preflight:
        headers["Access-Control-Request-Method"] = "POST"
    response = client.open("/api/v1/players", method="OPTIONS" if preflight else "GET", headers=headers)
    assert response.status_code == 200
    return [(k, v) for k, v in _cors(response) if k in ("Access-Control-Allow-Origin", "Vary")]


@pytest.mark.parametrize("preflight", [False, True], ids=["read", "preflight"])
def test_any_origin_is_allowed_by_default_but_the_null_origin_never(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, preflight: bool
) -> None:
    """A sandboxed frame, a file: page or a redirect sends ``Origin: null``:
    no page of any site can be told apart by it, so it is never allowed."""
    monkeypatch.delenv("GINREF_CORS_ORIGINS", raising=False)
    client = _app(tmp_path, "*", True, monkeypatch).test_client()
    for _ in range(2):  # and again, remembered
        assert _answer(client, "https://club.example", preflight) == [
            ("Access-Control-Allow-Origin", "https://club.example"),
            ("Vary", "Origin"),
        ]
        assert _answer(client, "null", preflight) == []
        assert _answer(client, "NULL", preflight) == []


def test_ginref_cors_origins_lists_the_origins_allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINREF_CORS_ORIGINS", " https://club.example, https://other.example:8443 ,")
    database = f"sqlite:///{tmp_path}/listed.sqlite3"
    built = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "SQLALCHEMY_DATABASE_URI": database})
    assert app_module.cors_origins(built.config["CORS_ORIGINS"]) == [
        "https://club.example",
        "https://other.example:8443",
    ]
    with built.app_context():
        db.create_all()
    client = built.test_client()
    for origin in ("https://club.example", "https://other.example:8443"):
        assert _answer(client, origin) == [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
        assert _answer(client, origin, preflight=True) == [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
    for origin in ("https://other.example", "https://club.example.evil", "null"):
        assert _answer(client, origin) == [] and _answer(client, origin, preflight=True) == []


@pytest.mark.parametrize("given", [None, "*", " * "])
def test_ginref_cors_origins_star_is_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: Any) -> None:
    if given is None:
        monkeypatch.delenv("GINREF_CORS_ORIGINS", raising=False)
    else:
        monkeypatch.setenv("GINREF_CORS_ORIGINS", given)
    built = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/star.sqlite3"})
    assert app_module.cors_origins(built.config["CORS_ORIGINS"]) == app_module.ANY_ORIGIN_BUT_NULL


@pytest.mark.parametrize("origins", ["null", "https://club.example, null", ["https://club.example", "NULL"], "", " , "])
def test_the_null_origin_or_no_origin_at_all_cannot_be_configured(tmp_path: Path, origins: Any) -> None:
    database = f"sqlite:///{tmp_path}/null.sqlite3"
    with pytest.raises(ValueError, match="CORS_ORIGINS") as err:
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database, "CORS_ORIGINS": origins})
    assert str(err.value) == (
        "CORS_ORIGINS: the null origin is never allowed (any page can send it)"
        if "null" in str(origins).lower()
        else "CORS_ORIGINS: give * or at least one origin (e.g. https://club.example)"
    )
