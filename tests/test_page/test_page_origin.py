"""The page asks nothing of any other origin, and a page from another origin
may still use the API from a browser (CORS)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser

from tests.test_page.conftest import Api, ThreadServer
from tests.test_page.table import start_game

pytestmark = pytest.mark.slow


def test_every_request_the_page_makes_goes_to_its_own_origin(phones, api: Api) -> None:
    ids = [api.player(f"{n}-origin") for n in ("Ann", "Bob", "Cy")]
    phone = phones()
    page = phone.open()
    game_id = start_game(page, ids, cut=["QS", "9h", "3c"])
    page.click('button[data-mode="counts"]')
    page.fill("#count-knocker", "1")
    page.fill("#count-defender", "11")
    page.click("#save")
    page.wait_for_selector("li.hand", state="attached")
    for fragment in ("knock", "league", f"game={game_id}"):
        page.goto(f"{phone.base}/#{fragment}")
        page.wait_for_load_state("networkidle")
    assert len(phone.requests) > 20
    assert [url for url in phone.requests if not url.startswith(phone.base + "/")] == []
    assert phone.foreign == []


OTHER_PAGE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>another origin</title></head>
<body><p>another origin</p></body></html>"""


@pytest.fixture
def other_origin() -> Iterator[str]:
    """A second tiny server, on another port of 127.0.0.1: another origin."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(OTHER_PAGE)))
            self.end_headers()
            self.wfile.write(OTHER_PAGE)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=10)


WRITE_FROM_ANOTHER_ORIGIN = """async (api) => {
  const json = {"Content-Type": "application/json"};
  const ids = [];
  for (const name of ["Ann-cors", "Bob-cors", "Cy-cors"]) {
    const r = await fetch(api + "/players", {method: "POST", headers: json, body: JSON.stringify({name})});
    ids.push((await r.json()).id);
  }
  const created = await fetch(api + "/games", {method: "POST", headers: json,
    body: JSON.stringify({players: ids, roles: {box: ids[0], captain: ids[1], sitter: ids[2]}})});
  const game = await created.json();
  const write = await fetch(api + "/games/" + game.id + "/hands", {
    method: "POST",
    headers: {...json, "Authorization": "Bearer " + game.key, "If-Match": created.headers.get("ETag"),
              "Idempotency-Key": crypto.randomUUID()},
    body: JSON.stringify({outcome: "draw"}),
  });
  return {status: write.status, etag: write.headers.get("ETag"), location: write.headers.get("Location"),
          created_etag: created.headers.get("ETag"), game: game.id};
}"""


def test_a_page_from_another_origin_makes_a_preflighted_keyed_write_and_reads_the_etag(
    browser: Browser, live: ThreadServer, other_origin: str, api: Api
) -> None:
    context = browser.new_context()  # not a Phone: this page belongs to the other origin
    try:
        page = context.new_page()
        page.goto(other_origin + "/")
        result = page.evaluate(WRITE_FROM_ANOTHER_ORIGIN, live.base + "/api/v1")
    finally:
        context.close()
    game_id = result["game"]
    assert result["status"] == 201
    assert result["created_etag"] == f'"g{game_id}v1"'
    assert result["etag"] == f'"g{game_id}v2"'  # the ETag header is readable from script (exposed)
    assert result["location"] == f"/api/v1/games/{game_id}/hands/1"
    assert api.get(f"/games/{game_id}")["hands_played"] == 1
