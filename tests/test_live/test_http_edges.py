"""Requests gunicorn refuses before the app sees them are problem+json too
(serving.py), and a long bearer token is not one of them: it reaches the app.
Raw bytes over a socket, to a real server with four workers."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.live import LiveServer, raw_request

PROBLEMS = "https://ginref.org/problems/"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite:///{tmp_path_factory.mktemp('edges') / 'edges.sqlite3'}", workers=4) as live:
        yield live


@pytest.fixture(scope="module")
def game(server: LiveServer) -> dict[str, Any]:
    ids = [
        requests.post(f"{server.base}/api/v1/players", json={"name": n}, timeout=10).json()["id"]
        for n in ("Ann", "Bob", "Cy")
    ]
    response = requests.post(
        f"{server.base}/api/v1/games",
        timeout=10,
        json={"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}},
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def assert_problem(response: Any, status: int, type_: str) -> dict[str, Any]:
    assert response.status == status, response
    assert response.headers["content-type"] == "application/problem+json", response.headers
    body = response.json()
    assert body["status"] == status and body["type"] == type_, body
    assert body["title"] and body["detail"], body
    return dict(body)


def post_players(head: str, body: bytes = b"") -> bytes:
    return (
        f"POST /api/v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{head}\r\n\r\n".encode()
        + body
    )


@pytest.mark.parametrize("value", ["abc", "-1", "1 2", "0x10"])
def test_a_content_length_that_is_not_a_non_negative_integer_is_a_400_problem(server: LiveServer, value: str) -> None:
    response = raw_request(server.port, post_players(f"Content-Length: {value}", b'{"name": "Di"}'))
    body = assert_problem(response, 400, PROBLEMS + "malformed-request")
    assert "Content-Length" in body["detail"]
    assert response.headers["connection"] == "close"


def test_two_content_lengths_are_a_400_problem(server: LiveServer) -> None:
    response = raw_request(server.port, post_players("Content-Length: 2\r\nContent-Length: 2", b"{}"))
    assert_problem(response, 400, PROBLEMS + "malformed-request")


def test_a_20000_character_bearer_token_reaches_the_app_and_gets_its_401(
    server: LiveServer, game: dict[str, Any]
) -> None:
    body = b'{"outcome": "draw"}'
    request = (
        f"POST /api/v1/games/{game['id']}/hands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        f"Authorization: Bearer {'k' * 20000}\r\n\r\n"
    ).encode() + body
    response = raw_request(server.port, request)
    assert_problem(response, 401, PROBLEMS + "unauthorized")
    assert response.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "header", ["X-Control: a\x01b", "No colon here", "Bad Name: x", "X-Folded: a\r\n b", "X-Bare: a\nX-Other: b"]
)
def test_a_malformed_header_is_a_400_problem(server: LiveServer, header: str) -> None:
    request = f"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n{header}\r\n\r\n".encode()
    assert_problem(raw_request(server.port, request), 400, PROBLEMS + "malformed-request")


def test_a_header_over_32_kib_is_a_431_problem(server: LiveServer) -> None:
    request = f"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: {'p' * 40000}\r\n\r\n".encode()
    body = assert_problem(raw_request(server.port, request), 431, PROBLEMS + "header-too-large")
    assert "32768 bytes" in body["detail"]


def test_more_than_50_header_fields_are_a_431_problem(server: LiveServer) -> None:
    fields = "".join(f"X-Field-{i}: {i}\r\n" for i in range(60))
    request = f"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n{fields}\r\n".encode()
    assert_problem(raw_request(server.port, request), 431, PROBLEMS + "header-too-large")


@pytest.mark.parametrize(
    "line", ["GARBAGE", "GET /health", "GET /health HTTP/1.1 extra", "get /health HTTP/1.1", "GET /health HTTP/2.7"]
)
def test_a_bad_request_line_is_a_400_problem(server: LiveServer, line: str) -> None:
    response = raw_request(server.port, f"{line}\r\nHost: 127.0.0.1\r\n\r\n".encode())
    assert_problem(response, 400, PROBLEMS + "malformed-request")
    assert response.headers["connection"] == "close"


def test_a_request_line_over_8190_bytes_is_a_414_problem(server: LiveServer) -> None:
    response = raw_request(server.port, f"GET /health?{'q' * 9000} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    assert_problem(response, 414, PROBLEMS + "uri-too-long")


def test_a_malformed_chunked_body_is_a_400_problem_not_a_500(server: LiveServer) -> None:
    request = post_players("Transfer-Encoding: chunked", b'zz\r\n{"name": "Di"}\r\n0\r\n\r\n')
    body = assert_problem(raw_request(server.port, request), 400, PROBLEMS + "malformed-request")
    assert "chunk" in body["detail"]


def test_an_unknown_transfer_coding_is_a_501_problem(server: LiveServer) -> None:
    request = post_players("Transfer-Encoding: rot13", b"{}")
    assert_problem(raw_request(server.port, request), 501, PROBLEMS + "unsupported-transfer-coding")


def test_a_client_that_stalls_mid_body_holds_up_no_other_connection(server: LiveServer) -> None:
    # Its worker's one thread waits for the rest of the body; new connections go to the others.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as stalled:
        stalled.sendall(post_players("Content-Length: 100", b'{"name": '))
        time.sleep(0.3)
        seconds = [
            raw_request(
                server.port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeout=10
            ).seconds
            for _ in range(20)
        ]
    print(f"\n/health beside a stalled client: slowest {max(seconds):.3f} s of {len(seconds)}")
    assert max(seconds) < 1.0, seconds


def test_the_server_still_answers_after_the_bad_requests(server: LiveServer) -> None:
    response = raw_request(server.port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert response.status == 200 and response.json() == {"status": "ok"}
    assert "Traceback" not in server.log()
