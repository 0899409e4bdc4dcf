"""Several phones on one game, and a phone without signal."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Route, expect

from tests.test_page.conftest import Api
from tests.test_page.table import check_board, open_section, start_game, wait_hands

pytestmark = pytest.mark.slow


def counts(page: Any, knocker: int, defender: int) -> None:
    page.click('button[data-mode="counts"]')
    page.fill("#count-knocker", str(knocker))
    page.fill("#count-defender", str(defender))


def new_game(phones: Any, api: Api, tag: str) -> tuple[Any, int, list[int], str]:
    ids = [api.player(f"{n}-{tag}") for n in ("Ann", "Bob", "Cy")]
    first = phones()
    page = first.open()
    game_id = start_game(page, ids, roles={"box": ids[0], "captain": ids[1], "sitter": ids[2]})
    scorer = page.locator(".scorer-link").get_attribute("href")
    assert scorer is not None and re.search(r"#game=\d+&key=grk_", scorer)
    return first, game_id, ids, scorer


def test_r26_a_hand_recorded_on_one_phone_shows_on_the_other_within_5_s(phones, api: Api) -> None:
    first, game_id, ids, scorer = new_game(phones, api, "two")
    second = phones()
    page2 = second.open(scorer.split("#", 1)[1])
    page2.wait_for_selector("#save")
    assert "key=" not in page2.url  # the key stays on the phone, out of the address
    watcher = phones().open(f"game={game_id}")  # a spectator: no key, read only
    watcher.wait_for_selector(".readonly-note", state="attached")
    expect(watcher.locator("#save")).to_have_count(0)

    counts(page2, 4, 20)
    page2.click("#save")
    wait_hands(page2, 1)
    expect(first.page.locator("li.hand")).to_have_count(1, timeout=5000)
    expect(watcher.locator("li.hand")).to_have_count(1, timeout=5000)
    check_board(first.page, api, game_id, 1)
    check_board(watcher, api, game_id, 1)


def test_a_stale_phone_gets_the_412_reloads_the_game_and_keeps_the_hand_being_entered(phones, api: Api) -> None:
    first, game_id, ids, scorer = new_game(phones, api, "stale")
    key = scorer.split("key=")[1]
    held = {"on": True}

    def hold_polls(route: Route) -> None:
        # Until the stale phone saves, its polls hear "nothing changed".
        if held["on"] and route.request.headers.get("if-none-match"):
            route.fulfill(status=304, headers={"ETag": route.request.headers["if-none-match"]})
        else:
            route.fallback()

    first.context.route(f"**/api/v1/games/{game_id}", hold_polls)
    counts(first.page, 6, 30)
    etag = api.get_etag(f"/games/{game_id}")
    api.post(f"/games/{game_id}/hands", {"outcome": "draw"}, key=key, **{"If-Match": etag})  # another phone
    first.page.click("#save")
    expect(first.page.locator(".status .problem")).to_contain_text("Another phone recorded first")
    wait_hands(first.page, 1)
    expect(first.page.locator("#count-knocker")).to_have_value("6")  # nothing lost
    expect(first.page.locator("#count-defender")).to_have_value("30")
    held["on"] = False
    first.page.click("#save")
    game = check_board(first.page, api, game_id, 2)
    assert game["scores"][str(ids[0])] == 24
    hands = api.get(f"/games/{game_id}/hands")["items"]
    assert [h["mode"] for h in hands] == ["draw", "counts"]


def test_a_hand_saved_offline_is_queued_and_recorded_exactly_once_when_back_online(phones, api: Api) -> None:
    first, game_id, ids, scorer = new_game(phones, api, "offline")
    page = first.page
    counts(page, 2, 12)
    first.context.set_offline(True)
    page.click("#save")
    expect(page.locator(".queue li.queued")).to_have_count(1)
    expect(page.locator(".status")).to_contain_text("queued")
    queued = page.evaluate("JSON.parse(localStorage.getItem('ginref.queue'))")
    seating = {"box": ids[0], "captain": ids[1], "sitter": ids[2]}  # the seats it is played in (R11)
    body = {"knocker": "box", "knocker_deadwood_count": 2, "defender_deadwood_count": 12, "seating": seating}
    assert [q["body"] for q in queued] == [body]
    assert api.get(f"/games/{game_id}")["hands_played"] == 0

    first.context.set_offline(False)
    check_board(page, api, game_id, 1)
    expect(page.locator(".queue li.queued")).to_have_count(0)
    # Sent twice (the answer lost on the way back), recorded once: the Idempotency-Key replays it.
    key = scorer.split("key=")[1]
    again = api.post(
        f"/games/{game_id}/hands",
        queued[0]["body"],
        key=key,
        **{"If-Match": queued[0]["ifMatch"], "Idempotency-Key": queued[0]["idempotencyKey"]},
    )
    assert again.headers["Idempotent-Replayed"] == "true"
    page.wait_for_timeout(2500)
    assert api.get(f"/games/{game_id}")["hands_played"] == 1
    assert page.locator("li.hand").count() == 1


def test_a_queued_hand_the_server_refuses_is_kept_with_the_reason_never_dropped(phones, api: Api) -> None:
    first, game_id, ids, scorer = new_game(phones, api, "refused")
    page = first.page
    counts(page, 3, 9)
    first.context.set_offline(True)
    page.click("#save")
    expect(page.locator(".queue li.queued")).to_have_count(1)
    key = scorer.split("key=")[1]
    etag = api.get_etag(f"/games/{game_id}")
    api.post(f"/games/{game_id}/hands", {"outcome": "draw"}, key=key, **{"If-Match": etag})  # recorded elsewhere
    first.context.set_offline(False)
    refused = page.locator(".queue li.queued.refused")
    expect(refused).to_contain_text("Another phone recorded first", timeout=8000)
    assert api.get(f"/games/{game_id}")["hands_played"] == 1
    page.reload()
    expect(page.locator(".queue li.queued.refused")).to_have_count(1)  # kept on the phone
    page.click('.queue button:has-text("Send as the next hand")')
    page.click('.queue .really-knocked button[data-knocker="box"]')  # who really knocked, in the seats now
    check_board(page, api, game_id, 2)
    expect(page.locator(".queue li.queued")).to_have_count(0)


def test_a_game_that_does_not_exist_says_so(phones) -> None:
    page = phones().open("game=999999")
    expect(page.locator(".status .problem")).to_contain_text("Not found.")


def test_the_scorer_link_is_also_a_qr_code_drawn_on_the_phone(phones, api: Api) -> None:
    first, game_id, ids, scorer = new_game(phones, api, "qr")
    page = first.page
    open_section(page, "share")
    page.click(".qr summary")
    qr = page.locator("svg.qr-code")
    expect(qr).to_be_visible()
    assert len(qr.locator("path").get_attribute("d") or "") > 1000
    assert not [url for url in first.requests if "key=" in url]  # the key never went to the server in a URL


def test_the_page_opens_again_with_no_signal_from_the_copy_its_service_worker_keeps(browser, live, api: Api) -> None:
    ids = [api.player(f"{n}-sw") for n in ("Ann", "Bob", "Cy")]
    game = api.post("/games", {"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}}).json()
    context = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        page = context.new_page()
        page.goto(live.base + "/")
        page.wait_for_selector("#start-game")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now under the worker, which keeps every file of the page
        page.wait_for_selector("#start-game")
        context.set_offline(True)
        page.reload()
        expect(page.locator("h1")).to_have_text("Start a game")
        expect(page.locator(".status .problem")).to_contain_text("No connection to the server.")
        page.goto(f"{live.base}/#game={game['id']}")  # the game screen waits for the signal...
        expect(page.locator(".status .problem")).to_contain_text("No connection to the server.")
        context.set_offline(False)
        expect(page.locator(".scores tbody tr")).to_have_count(3, timeout=5000)  # ...and shows the game
        expect(page.locator(".status")).to_be_hidden()
    finally:
        context.close()


def test_a_phone_on_a_plain_http_lan_address_records_with_its_own_idempotency_keys(phones, api: Api) -> None:
    """On http://192.168.x.y the page is no secure context: no crypto.randomUUID
    and no service worker. Its Idempotency-Keys then come from getRandomValues."""
    phone = phones()
    phone.context.add_init_script("delete Crypto.prototype.randomUUID; delete Navigator.prototype.serviceWorker;")
    sent: list[str] = []
    phone.page.on("request", lambda r: r.method == "POST" and sent.append(r.headers.get("idempotency-key", "")))
    ids = [api.player(f"{n}-lan") for n in ("Ann", "Bob", "Cy")]
    page = phone.open()
    game_id = start_game(page, ids, roles={"box": ids[0], "captain": ids[1], "sitter": ids[2]})
    counts(page, 5, 15)
    page.click("#save")
    check_board(page, api, game_id, 1)
    assert len(sent) == 2 and all(re.fullmatch(r"[0-9a-f]{32}", key) for key in sent)


def test_a_phone_waits_on_the_change_feed_and_stops_following_when_the_screen_is_left(phones, api: Api) -> None:
    first, game_id, ids, scorer = new_game(phones, api, "feed")
    page = first.page
    feed = f"/api/v1/games/{game_id}/events/stream?after=1&wait=25"
    for _ in range(50):  # the first stream, after the game's version 1
        if any(feed in url for url in first.requests):
            break
        page.wait_for_timeout(100)
    assert any(feed in url for url in first.requests)
    page.click('nav a[href="#knock"]')
    page.wait_for_selector("h1")
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if f"/games/{game_id}" in r.url else None)
    key = scorer.split("key=")[1]
    etag = api.get_etag(f"/games/{game_id}")
    api.post(f"/games/{game_id}/hands", {"outcome": "draw"}, key=key, **{"If-Match": etag})  # wakes any waiting poll
    page.wait_for_timeout(3000)
    assert seen == []  # the screen left, the game is no longer followed


def test_when_the_change_feed_fails_the_phone_polls_with_if_none_match_and_tries_the_feed_less_often(
    phones, api: Api
) -> None:
    first, game_id, ids, scorer = new_game(phones, api, "nofeed")
    second = phones()
    tries: list[float] = []
    polls: list[str] = []

    def no_feed(route: Route) -> None:
        tries.append(time.monotonic())
        route.abort()

    second.context.route(re.compile(rf"/api/v1/games/{game_id}/events/stream\?"), no_feed)
    second.page.on(
        "request", lambda r: polls.append(r.url) if r.headers.get("if-none-match") and "/events" not in r.url else None
    )
    watcher = second.open(f"game={game_id}")
    watcher.wait_for_selector(".readonly-note", state="attached")
    key = scorer.split("key=")[1]
    etag = api.get_etag(f"/games/{game_id}")
    api.post(f"/games/{game_id}/hands", {"outcome": "draw"}, key=key, **{"If-Match": etag})
    expect(watcher.locator("li.hand")).to_have_count(1, timeout=5000)  # by the conditional poll
    watcher.wait_for_timeout(6000)
    assert polls  # a 304 when nothing changed
    assert 2 <= len(tries) <= 4  # backing off: 4 s, then 8 s, ...
    assert all(b - a >= 3.5 for a, b in zip(tries, tries[1:], strict=False))


def test_a_304_that_comes_after_a_fresher_answer_does_not_take_its_etag_back(phones, api: Api) -> None:
    """A slow poll, sent before another phone's write, answers after the
    page has read the game afresh: it confirms the old ETag, which the page
    must not remember again (its next save would be a 412)."""
    first, game_id, ids, scorer = new_game(phones, api, "late304")
    page = first.page
    old = api.get_etag(f"/games/{game_id}")
    page.wait_for_function(f"() => import('/web/api.js').then((m) => m.etagOf({game_id}) === {old!r})")
    key = scorer.split("key=")[1]
    api.post(f"/games/{game_id}/hands", {"outcome": "draw"}, key=key, **{"If-Match": old})
    new = api.get_etag(f"/games/{game_id}")
    assert new != old
    state = page.evaluate(
        """async ([gameId, old]) => {
            const m = await import('/web/api.js');
            await m.api.game(gameId, { fresh: true });  // the fresh read: the new ETag
            const fresh = m.etagOf(gameId);
            const late = await fetch(`/api/v1/games/${gameId}`, { headers: { 'If-None-Match': old } });
            return { fresh, lateStatus: late.status };
        }""",
        [game_id, old],
    )
    assert state == {"fresh": new, "lateStatus": 200}
    page.route(
        f"**/api/v1/games/{game_id}",
        lambda route: route.fulfill(status=304, headers={"ETag": old}),  # the slow poll's answer, about the old one
    )
    after = page.evaluate(
        """async ([gameId]) => {
            const m = await import('/web/api.js');
            await m.api.game(gameId);  // with If-None-Match: the old ETag comes back in a 304
            return m.etagOf(gameId);
        }""",
        [game_id],
    )
    assert after == new
