"""JSON written and read by orjson, with the standard library behind it for
what orjson refuses: JSON columns (models.database), response bodies
(api.body.BoundedJSONProvider) and request bodies (schemas.numbers.loads)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import create_app
from models.database import dumps_json, loads_json
from schemas.numbers import NotUtf8Error, NumberOutOfRangeError, check_utf8, loads

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


# --- request bodies: schemas.numbers.loads -------------------------------------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30) + 1, max_value=10**30 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_DOCUMENTS = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=12
)


@settings(max_examples=400, deadline=None)
@given(_DOCUMENTS, st.booleans())
def test_a_body_reads_as_the_standard_library_reads_it(document: Any, as_bytes: bool) -> None:
    """orjson reads a body first, only where it gives what json.loads gives:
    integers past 64 bits and every float, exactly (its type too)."""
    text = json.dumps(document, ensure_ascii=False)
    data = text.encode() if as_bytes else text
    got, expected = loads(data), json.loads(data)
    assert got == expected
    assert json.dumps(got) == json.dumps(expected)  # the same types: 1 is no 1.0


def test_a_body_orjson_refuses_is_read_or_refused_as_before() -> None:
    assert loads(b'{"n": 123456789012345678901234567890}') == {"n": 123456789012345678901234567890}
    assert loads(b"[18446744073709551616, -9223372036854775809]") == [18446744073709551616, -9223372036854775809]
    assert loads('["\\ud800"]') == ["\ud800"]  # a lone surrogate: orjson refuses it, json reads it
    with pytest.raises(NotUtf8Error, match=r"^it starts with a byte order mark \(UTF-8\)$"):
        loads(b"\xef\xbb\xbf[1]")  # RFC 8259: no byte order mark
    for body, path in (
        (b'{"n": 1e400}', "n"),
        (b"[NaN]", "[0]"),
        (b'{"a": [1, 1234567890123456789012345678901]}', "a[1]"),
    ):
        with pytest.raises(NumberOutOfRangeError) as err:
            loads(body)
        assert err.value.path == path


def test_a_large_body_is_checked_as_utf8_across_its_megabytes() -> None:
    """check_utf8 reads a megabyte at a time: a character cut in two by a
    megabyte's end is read whole, and a wrong byte is named where it is in
    the whole body."""
    body = b'["' + b"a" * ((1 << 20) - 3) + "\u00eb\u20ac".encode() + b'"]'
    assert body[(1 << 20) - 1 : (1 << 20) + 1] == "\u00eb".encode()  # across the first megabyte's end
    check_utf8(body)
    with pytest.raises(NotUtf8Error, match=r"^byte 1048577 \(0xe2\) is not UTF-8$"):
        check_utf8(body[:-4] + b'"]')  # the euro sign cut short
    for data, reason in (
        (b"\xff\xfe\x00\x00[\x00\x00\x00]\x00\x00\x00", "it starts with a byte order mark (UTF-32)"),
        ("[1]".encode("utf-16-be"), "it holds NUL bytes, as UTF-16 and UTF-32 text does and JSON text never"),
    ):
        with pytest.raises(NotUtf8Error) as err:
            check_utf8(data)
        assert err.value.reason == reason
