"""JSON written and read by orjson, with the standard library behind it for
what orjson refuses: JSON columns (models.database) and response bodies
(api.body.BoundedJSONProvider)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from app import create_app
from models.database import dumps_json, loads_json

BIG = 2**70  # past orjson's 64 bits


def test_a_json_column_round_trips_what_orjson_writes_and_what_it_cannot() -> None:
    for value in ({"1": 26, "2": 0}, [1, 2, 3], {"name": "김민준 Nguyễn"}, {"n": BIG}, None, {3: "x"}):
        text = dumps_json(value)
        assert isinstance(text, str)
        expected = json.loads(json.dumps(value))  # int keys become strings, as json writes them
        assert loads_json(text) == expected
    assert loads_json('{"n": 1e999999}') == {"n": float("inf")}  # written by another writer: still read


@dataclass
class _Point:
    x: int


def test_a_response_body_is_compact_utf8_and_falls_back_for_what_orjson_cannot_write() -> None:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    body = {"name": "Hà Nội", "n": 1, "at": datetime(2026, 12, 1, tzinfo=UTC), "p": _Point(2)}
    with app.app_context():
        text = app.json.response(body).get_data(as_text=True)
        # members sorted, as the standard library wrote them (the provider's sort_keys)
        assert text == '{"at":"Tue, 01 Dec 2026 00:00:00 GMT","n":1,"name":"Hà Nội","p":{"x":2}}\n'
        big = app.json.response({"n": BIG}).get_data(as_text=True)
        assert json.loads(big) == {"n": BIG}
        assert app.json.dumps({"a": 1}) == '{"a": 1}'  # any other layout: the standard library's
