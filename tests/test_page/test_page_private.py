"""A private game: started on the page, watched from its spectator link
(which carries a read-only share key in the fragment), and a 404 that asks
for a link on a phone with no key. Keys travel in headers, never in a URL."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.test_page.conftest import Api
from tests.test_page.table import check_board, open_section, start_game, wait_hands

pytestmark = pytest.mark.slow


def keyed_get(api: Api, path: str, key: str | None) -> requests.Response:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return requests.get(api.base + path, headers=headers, timeout=10)


class KeyedApi(Api):
    """The test's client, reading with a key."""

    def __init__(self, api: Api, key: str) -> None:
        self.base = api.base
        self.key = key

    def get(self, path: str) -> Any:
        r = keyed_get(self, path, self.key)
        r.raise_for_status()
        return r.json()


def start_private(phones: Any, api: Api, tag: str) -> tuple[Any, int, str]:
    ids = [api.player(f"{n}-{tag}") for n in ("Ann", "Bob", "Cy")]
    first = phones()
    page = first.open()
    page.wait_for_selector("#start-game")
    page.check("#private")
    game_id = start_game(page, ids, roles={"box": ids[0], "captain": ids[1], "sitter": ids[2]})
    scorer = page.locator(".scorer-link").get_attribute("href") or ""
    key = scorer.split("key=")[1]
    return first, game_id, key


def test_a_private_game_is_watched_from_its_spectator_link_and_sees_a_hand_within_5_s(phones, api: Api) -> None:
    first, game_id, key = start_private(phones, api, "private")
    assert keyed_get(api, f"/games/{game_id}", None).status_code == 404  # private indeed
    game = keyed_get(api, f"/games/{game_id}", key).json()
    assert game["visibility"] == "private"

    page = first.page
    expect(page.locator(".spectator-link")).to_have_count(0)  # no share key until it is asked for
    open_section(page, "share")
    page.click("#make-spectator-link")
    link = page.locator(".spectator-link")
    expect(link).to_have_count(1)
    spectator = link.get_attribute("href") or ""
    match = re.search(rf"#game={game_id}&share=([^&]+)$", spectator)
    assert match, spectator
    share = match.group(1)
    assert share != key
    page.reload()  # the share key is kept: the same link, no new key
    expect(page.locator(".spectator-link")).to_have_attribute("href", spectator)
    issued = keyed_get(api, f"/games/{game_id}/share-keys", key).json()["items"]
    assert [k["label"] for k in issued] == ["spectators"]

    second = phones()
    watcher = second.open(spectator.split("#", 1)[1])
    watcher.wait_for_selector(".readonly-note", state="attached")
    assert "share=" not in watcher.url  # the share key stays on the phone, out of the address
    expect(watcher.locator(".readonly-note")).to_have_text("Watching: read-only.")  # it holds a key: a reading one
    expect(watcher.locator(".scores tbody tr")).to_have_count(3)
    expect(watcher.locator("#save")).to_have_count(0)
    expect(watcher.locator(".spectator-link")).to_have_attribute("href", re.compile("&share="))

    page.click('button[data-mode="counts"]')
    page.fill("#count-knocker", "4")
    page.fill("#count-defender", "20")
    page.click("#save")
    wait_hands(page, 1)
    expect(watcher.locator("li.hand")).to_have_count(1, timeout=5000)
    for phone in (first, second):
        assert [u for u in phone.requests if f"/games/{game_id}/events/stream?after=" in u]  # the change feed
        assert [u for u in phone.requests if key in u or share in u or "key=" in u or "share=" in u] == []
    assert check_board(page, KeyedApi(api, key), game_id, 1)["hands_played"] == 1


def test_a_private_game_opened_with_no_key_says_not_found_or_private(phones, api: Api) -> None:
    first, game_id, key = start_private(phones, api, "nokey")
    stranger = phones()
    page = stranger.open(f"game={game_id}")
    problem = page.locator(".status .problem")
    expect(problem).to_contain_text("Not found.")
    expect(problem).to_contain_text("or it is private: ask the table for a link")
    expect(page.locator(".scores")).to_have_count(0)
    assert [u for u in first.requests + stranger.requests if key in u or "key=" in u] == []
