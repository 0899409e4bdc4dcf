"""Leagues on the page: a game started in a league with its key, the
standings as the API sorts them, head to head, a player's history, exports."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from tests.test_page.conftest import Api
from tests.test_page.table import check_board, open_section

pytestmark = pytest.mark.slow


def test_r9_a_tied_cut_names_the_players_who_must_cut_again(phones, api: Api) -> None:
    ids = [api.player(f"{n}-tie") for n in ("Ann", "Bob", "Cy")]
    page = phones().open()
    page.wait_for_selector("#start-game")
    for i, pid in enumerate(ids):
        page.select_option(f"#player-{i}", str(pid))
    for i, card in enumerate(["KS", "KH", "2D"]):
        page.fill(f"#cut-{i}", card)
    page.click("#start-game")
    problem = page.locator(".status .problem")
    expect(problem).to_contain_text("R9")
    expect(problem).to_contain_text("Must cut again: Ann-tie, Bob-tie.")
    assert "game=" not in page.url


def test_a_league_game_started_on_the_page_shows_in_the_standings_head_to_head_and_history(phones, api: Api) -> None:
    ids = [api.player(f"{n}-league") for n in ("Ann", "Bob", "Cy")]
    league = api.post("/leagues", {"name": "Thursday club", "members": ids}).json()
    phone = phones()
    page = phone.open()
    page.wait_for_selector("#start-game")
    for i, pid in enumerate(ids):
        page.select_option(f"#player-{i}", str(pid))
    for i, card in enumerate(["9S", "5H", "AC"]):
        page.fill(f"#cut-{i}", card)
    page.click("details:has(#league) summary")
    page.select_option("#league", str(league["id"]))
    page.fill("#league-key", league["key"])
    page.click("#start-game")
    page.wait_for_selector("#save")
    game_id = int(page.url.split("game=")[1])
    page.click('button[data-mode="counts"]')
    page.fill("#count-knocker", "0")
    page.fill("#count-defender", "30")
    page.click("#save")
    game = check_board(page, api, game_id, 1)
    assert game["league_id"] == league["id"] and game["scores"][str(ids[0])] == 55  # R18: 30 + 25

    page.goto(f"{phone.base}/#league={league['id']}")
    page.wait_for_selector(".standings")
    shown = page.locator(".standings tbody tr").evaluate_all("rows => rows.map(r => Number(r.dataset.player))")
    standings = api.get(f"/leagues/{league['id']}/standings")
    assert shown == [s["player_id"] for s in standings["items"]]
    page.select_option("#sort", "name")
    page.wait_for_url("**sort=name**")
    page.select_option("#order", "asc")
    expect(page.locator(".standings tbody tr").first).to_have_attribute("data-player", str(ids[0]))
    by_name = api.get(f"/leagues/{league['id']}/standings?sort=name&order=asc")
    shown = page.locator(".standings tbody tr").evaluate_all("rows => rows.map(r => Number(r.dataset.player))")
    assert shown == [s["player_id"] for s in by_name["items"]]

    page.select_option("#h2h-a", str(ids[0]))
    page.select_option("#h2h-b", str(ids[1]))
    page.click('button:has-text("Compare")')
    expect(page.locator(".h2h")).to_contain_text("1 games played together.")

    json_href = page.locator('a:has-text("(JSON)")').get_attribute("href")
    csv_href = page.locator('a:has-text("(CSV)")').get_attribute("href")
    assert json_href == f"/api/v1/leagues/{league['id']}/export"
    assert csv_href == f"/api/v1/leagues/{league['id']}/export.csv"
    assert requests.get(phone.base + csv_href, timeout=10).status_code == 200

    page.click(f'.standings tr[data-player="{ids[0]}"] a')
    # The league's view (three headings) stays until the history has loaded: wait for the history first.
    expect(page.locator(f'.history-games a[href="#game={game_id}"]')).to_be_visible()
    expect(page.locator("h3")).to_have_text("Ann-league's games")


def test_a_private_league_from_its_link_starts_a_game_watched_with_a_league_share_key(phones, api: Api) -> None:
    ids = [api.player(f"{n}-quiet") for n in ("Ann", "Bob", "Cy")]
    league = api.post("/leagues", {"name": "Quiet club", "members": ids, "visibility": "private"}).json()
    lid, key = league["id"], league["key"]
    first = phones()
    page = first.open(f"league={lid}&key={key}")  # in no list: reached by its link
    page.wait_for_selector(".standings")
    assert "key=" not in page.url
    page.goto(f"{first.base}/")
    page.wait_for_selector("#start-game")
    for i, pid in enumerate(ids):
        page.select_option(f"#player-{i}", str(pid))
    page.click('button[data-how="roles"]')
    for role, pid in zip(("box", "captain", "sitter"), ids, strict=True):
        page.select_option(f"#role-{role}", str(pid))
    page.click("details:has(#league) summary")
    page.select_option("#league", str(lid))  # listed: this phone holds its key
    page.click("#start-game")
    page.wait_for_selector("#save")
    game_id = int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    assert requests.get(f"{api.base}/games/{game_id}", timeout=10).status_code == 404  # private, as its league

    open_section(page, "share")
    page.click("#make-spectator-link")
    spectator = page.locator(".spectator-link").get_attribute("href") or ""
    share = re.search(rf"#game={game_id}&league={lid}&share=([^&]+)$", spectator)
    assert share, spectator
    keyed = {"Authorization": f"Bearer {key}"}
    issued = requests.get(f"{api.base}/leagues/{lid}/share-keys", headers=keyed, timeout=10)
    assert [k["label"] for k in issued.json()["items"]] == ["spectators"]

    second = phones()
    watcher = second.open(spectator.split("#", 1)[1])
    watcher.wait_for_selector(".readonly-note", state="attached")
    assert watcher.url.endswith(f"#game={game_id}")  # the share key and the league out of the address
    expect(watcher.locator(".readonly-note")).to_have_text("Watching: read-only.")  # the league's share key
    open_section(page, "scores")
    page.click('button[data-mode="counts"]')
    page.fill("#count-knocker", "5")
    page.fill("#count-defender", "25")
    page.click("#save")
    expect(watcher.locator("li.hand")).to_have_count(1, timeout=5000)
    watcher.goto(f"{second.base}/#league={lid}&player={ids[0]}")  # the league's games, read with the share key
    expect(watcher.locator(f'.history-games a[href="#game={game_id}"]')).to_be_visible()

    stranger = phones().open(f"game={game_id}")
    expect(stranger.locator(".status .ask-link")).to_be_visible()
    for phone in (first, second):
        assert [u for u in phone.requests if key in u or share.group(1) in u] == []


def test_a_private_leagues_json_export_downloads_from_the_page_with_the_phones_key(phones, api: Api) -> None:
    ids = [api.player(f"{n}-export") for n in ("Ann", "Bob", "Cy")]
    league = api.post("/leagues", {"name": "Closed club", "members": ids, "visibility": "private"}).json()
    lid, key = league["id"], league["key"]
    assert requests.get(f"{api.base}/leagues/{lid}/export", timeout=10).status_code == 404  # no key, no export
    phone = phones()
    page = phone.open(f"league={lid}&key={key}")
    page.wait_for_selector(".standings")
    with page.expect_download() as info:
        page.click("a.export-json")
    download = info.value
    assert download.suggested_filename == f"league-{lid}.json"
    doc = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert doc["league"] == {"id": lid, "name": "Closed club", "visibility": "private"}
    with page.expect_download() as info:
        page.click("a.export-csv")
    assert info.value.suggested_filename == f"league-{lid}.csv"
    assert [u for u in phone.requests if key in u or "key=" in u] == []  # in the header only


def test_a_private_leagues_spectator_link_is_issued_once_and_shows_the_standings_on_another_phone(
    phones, api: Api
) -> None:
    ids = [api.player(f"{n}-watched") for n in ("Ann", "Bob", "Cy")]
    league = api.post("/leagues", {"name": "Watched club", "members": ids, "visibility": "private"}).json()
    lid, key = league["id"], league["key"]
    first = phones()
    page = first.open(f"league={lid}&key={key}")
    page.wait_for_selector(".standings")
    expect(page.locator(".spectator-link")).to_have_count(0)  # no share key until it is asked for
    page.click("#make-spectator-link")
    link = page.locator(".spectator-link")
    expect(link).to_have_count(1)
    spectator = link.get_attribute("href") or ""
    share = re.search(rf"/#league={lid}&share=([^&]+)$", spectator)  # the share key in the fragment only
    assert share and share.group(1) != key, spectator
    expect(page.locator(".spectator-qr svg.qr-code")).to_have_count(1)
    page.reload()  # kept: the same link, no new key
    expect(page.locator(".spectator-link")).to_have_attribute("href", spectator)
    keyed = {"Authorization": f"Bearer {key}"}
    issued = requests.get(f"{api.base}/leagues/{lid}/share-keys", headers=keyed, timeout=10).json()["items"]
    assert [k["label"] for k in issued] == ["spectators"]

    second = phones()
    watcher = second.open(spectator.split("#", 1)[1])
    expect(watcher.locator(".standings tbody tr")).to_have_count(3)
    expect(watcher.locator("h2")).to_have_text("Watched club")
    assert "share=" not in watcher.url  # the share key stays on the phone, out of the address
    expect(watcher.locator("#make-spectator-link")).to_have_count(0)
    expect(watcher.locator(".spectator-link")).to_have_attribute("href", spectator)
    for phone in (first, second):
        assert [u for u in phone.requests if key in u or share.group(1) in u or "key=" in u or "share=" in u] == []
