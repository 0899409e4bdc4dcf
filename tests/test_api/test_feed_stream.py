"""A game's feed as a stream (GET /games/{id}/events/stream): Server-Sent
Events, one a change, from one place to wait held for the whole stream."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from models import db
from models.events import VersionWatch, WaitRefused
from tests.test_api.conftest import PROBLEM_JSON, by_counts, seats


def _game(client: FlaskClient, players: list[int], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/v1/games", json={"players": players, "roles": seats(*players), **extra})
    assert r.status_code == 201
    return r.get_json()  # type: ignore[no-any-return]


def _events(text: str) -> list[tuple[int, dict[str, Any]]]:
    """The stream's events: (id, data), after its opening lines."""
    assert text.startswith("retry: 1000\n\n"), text[:40]
    events = []
    for block in text.removeprefix("retry: 1000\n\n").split("\n\n"):
        if not block:
            continue
        fields = dict(line.split(": ", 1) for line in block.split("\n"))
        assert set(fields) == {"id", "data"}, block
        events.append((int(fields["id"]), json.loads(fields["data"])))
    return events


def _stream(app: Flask, url: str, headers: dict[str, str] | None = None) -> tuple[threading.Thread, list[Any]]:
    """Read the stream in a thread: each chunk with when it came, then ("end", status, when)."""
    out: list[Any] = []

    def read() -> None:
        r = app.test_client().get(url, headers=headers or {}, buffered=False)
        out.append(("open", r.status_code, r.mimetype, time.monotonic()))
        for chunk in r.response:
            out.append(("event", chunk.decode() if isinstance(chunk, bytes) else chunk, time.monotonic()))
        r.close()
        out.append(("end", None, time.monotonic()))

    thread = threading.Thread(target=read)
    thread.start()
    return thread, out


def _waiting(watch: VersionWatch, count: int) -> None:
    deadline = time.monotonic() + 5
    while watch.waiting < count:
        assert time.monotonic() < deadline, "the stream did not start waiting"
        time.sleep(0.01)


def _text(out: list[Any]) -> str:
    return "".join(item[1] for item in out if item[0] == "event")


def test_a_stream_sends_what_came_before_then_each_change_as_it_comes_and_ends_after_its_wait(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)["id"]
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    watch: VersionWatch = app.extensions["version_watch"]
    opened = time.monotonic()
    thread, out = _stream(app, f"/api/v1/games/{game}/events/stream?after=1&wait=1.5")
    _waiting(watch, 1)
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("captain", 0, 30)).status_code == 201
    written = time.monotonic()
    assert client.delete(f"/api/v1/games/{game}/hands/2").status_code == 204
    thread.join(timeout=10)
    assert out[0][1:3] == (200, "text/event-stream")
    events = _events(_text(out))
    assert [(i, e["version"], e["kind"], e["hand"]) for i, e in events] == [
        (2, 2, "hand_recorded", 1),
        (3, 3, "hand_recorded", 2),
        (4, 4, "hand_undone", 2),
    ]
    # each event as the plain feed lists it
    assert [e for _, e in events] == client.get(f"/api/v1/games/{game}/events?after=1").get_json()["items"]
    live = [item[2] for item in out if item[0] == "event" and '"version":3' in item[1]]
    assert live and live[0] - written < 1.0  # sent as it came, not at the end
    assert 1.4 < out[-1][2] - opened < 5  # the stream ended once its wait was over
    assert watch.waiting == 0  # and gave its place back


def test_a_stream_without_a_wait_sends_the_changes_there_are_and_ends(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)["id"]
    r = client.get(f"/api/v1/games/{game}/events/stream")
    assert (r.status_code, r.mimetype, r.headers["Cache-Control"]) == (200, "text/event-stream", "no-store")
    assert [(i, e["kind"]) for i, e in _events(r.get_data(as_text=True))] == [(1, "game_started")]
    r = client.get(f"/api/v1/games/{game}/events/stream?after=1")
    assert (r.status_code, r.get_data(as_text=True)) == (200, "retry: 1000\n\n")


def test_last_event_id_replaces_after_and_a_bad_one_or_an_after_past_the_game_is_a_422(
    client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)["id"]
    for hand in (by_counts("box", 4, 24), by_counts("captain", 0, 30)):
        assert client.post(f"/api/v1/games/{game}/hands", json=hand).status_code == 201
    r = client.get(f"/api/v1/games/{game}/events/stream?after=0", headers={"Last-Event-ID": "2"})
    assert [i for i, _ in _events(r.get_data(as_text=True))] == [3]
    for bad, message in (("2x", "Not a valid integer."), ("4", "the game is at version 3, not yet 4")):
        r = client.get(f"/api/v1/games/{game}/events/stream", headers={"Last-Event-ID": bad})
        assert (r.status_code, r.content_type) == (422, PROBLEM_JSON)
        assert r.get_json()["errors"] == {"headers.Last-Event-ID": [message]}
    r = client.get(f"/api/v1/games/{game}/events/stream?after=4")
    assert (r.status_code, r.content_type) == (422, PROBLEM_JSON)
    assert r.get_json()["errors"] == {"query.after": ["the game is at version 3, not yet 4"]}


def test_a_private_games_stream_needs_a_key_and_ends_soon_after_its_key_is_revoked(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:  # N7, for the stream
    created = _game(client, players, visibility="private")
    game, owner = created["id"], {"Authorization": f"Bearer {created['key']}"}
    r = client.get(f"/api/v1/games/{game}/events/stream?wait=10")
    assert (r.status_code, r.content_type) == (404, PROBLEM_JSON)
    share = client.post(f"/api/v1/games/{game}/share-key", json={"label": "board"}, headers=owner).get_json()
    thread, out = _stream(
        app, f"/api/v1/games/{game}/events/stream?after=1&wait=10", {"Authorization": f"Bearer {share['key']}"}
    )
    _waiting(app.extensions["version_watch"], 1)
    assert client.delete(f"/api/v1/games/{game}/share-keys/{share['id']}", headers=owner).status_code == 204
    revoked = time.monotonic()
    thread.join(timeout=10)
    assert out[0][1] == 200 and out[-1][0] == "end"
    assert out[-1][2] - revoked < 1.0
    assert _text(out) == "retry: 1000\n\n"  # nothing after the revocation
    assert (
        client.get(
            f"/api/v1/games/{game}/events/stream", headers={"Authorization": f"Bearer {share['key']}"}
        ).status_code
        == 404
    )


def test_a_stream_keeps_its_place_between_changes_and_past_the_bound_one_more_is_a_429(
    app: Flask, client: FlaskClient, players: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(client, players)["id"]
    with app.app_context():
        watch = VersionWatch(db.engine, 0.02, most=5, per_client=1)
    monkeypatch.setitem(app.extensions, "version_watch", watch)
    thread, out = _stream(app, f"/api/v1/games/{game}/events/stream?after=1&wait=2")
    _waiting(watch, 1)
    for hand in (by_counts("box", 4, 24), by_counts("captain", 0, 30)):
        assert client.post(f"/api/v1/games/{game}/hands", json=hand).status_code == 201
        time.sleep(0.1)
        r = client.get(f"/api/v1/games/{game}/events/stream?after=1&wait=2")  # the same client address
        assert (r.status_code, r.content_type, r.headers["Retry-After"]) == (429, PROBLEM_JSON, "5")
        assert watch.waiting == 1  # the stream held its place through the change
    thread.join(timeout=10)
    assert [i for i, _ in _events(_text(out))] == [2, 3]
    with watch.place(game, 3, client="127.0.0.1"), pytest.raises(WaitRefused):  # the bound, as for a wait
        watch.wait(game, 3, 0.1, client="127.0.0.1")
    assert watch.waiting == 0


def test_streams_on_one_game_are_sent_its_change_from_one_read(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)["id"]
    watch: VersionWatch = app.extensions["version_watch"]
    streams = [_stream(app, f"/api/v1/games/{game}/events/stream?after=1&wait=1") for _ in range(3)]
    _waiting(watch, 3)
    reads = watch.reads["events"]
    assert client.post(f"/api/v1/games/{game}/hands", json=by_counts("box", 4, 24)).status_code == 201
    for thread, _ in streams:
        thread.join(timeout=10)
    texts = {_text(out) for _, out in streams}
    assert len(texts) == 1 and [i for i, _ in _events(texts.pop())] == [2]
    assert watch.reads["events"] == reads + 1


def test_a_stream_closed_by_its_phone_before_its_end_gives_its_place_back(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)["id"]
    watch: VersionWatch = app.extensions["version_watch"]
    started = time.monotonic()
    r = app.test_client().get(f"/api/v1/games/{game}/events/stream?after=1&wait=20", buffered=False)
    assert r.status_code == 200 and watch.waiting == 1  # its place, taken before the answer began
    assert next(r.response) == b"retry: 1000\n\n"  # sent at once, with the headers
    r.close()  # the phone went away: the server closes the answer
    assert watch.waiting == 0 and time.monotonic() - started < 1.0


def test_a_head_of_a_stream_answers_at_once_and_takes_no_place(
    app: Flask, client: FlaskClient, players: list[int]
) -> None:
    game = _game(client, players)["id"]
    started = time.monotonic()
    r = client.head(f"/api/v1/games/{game}/events/stream?after=1&wait=20")
    assert (r.status_code, r.mimetype) == (200, "text/event-stream")
    assert time.monotonic() - started < 1.0 and app.extensions["version_watch"].waiting == 0
