"""Every screen in every language, accessible, at 360x640; screenshots of
each (English and Vietnamese) go to the folder printed (GINREF_SCREENSHOTS)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.test_page.conftest import Api, shot
from tests.test_page.table import SECTIONS, open_section, start_game, tap

pytestmark = pytest.mark.slow

LOCALES = {"en": "en-GB", "ko": "ko-KR", "vi": "vi-VN", "sk": "sk-SK", "mn": "mn-MN"}
MISSING = re.compile(r"\[[a-z_]+\.[a-z_0-9.-]+\]")  # what the page shows for a key no catalog has


def league_with_a_game(api: Api, tag: str) -> tuple[int, int, list[int]]:
    ids = [api.player(f"{n}-{tag}") for n in ("Ann", "Bob", "Cy")]
    league = api.post("/leagues", {"name": f"Club {tag}", "members": ids}).json()
    game = api.post(
        "/games",
        {"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}, "league_id": league["id"]},
        key=league["key"],
    )
    for body in ({"knocker": "box", "knocker_deadwood_count": 4, "defender_deadwood_count": 19}, {"outcome": "draw"}):
        etag = api.get_etag(f"/games/{game.json()['id']}")
        api.post(f"/games/{game.json()['id']}/hands", body, key=league["key"], **{"If-Match": etag})
    return league["id"], game.json()["id"], ids


def private_game(api: Api, tag: str) -> tuple[int, str]:
    ids = [api.player(f"{n}-{tag}") for n in ("Ann", "Bob", "Cy")]
    created = api.post(
        "/games",
        {"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}, "visibility": "private"},
    ).json()
    return created["id"], created["key"]


def no_missing_or_empty_string(page: Page) -> None:
    text = page.locator("body").inner_text()
    assert MISSING.findall(text) == []
    empty = page.evaluate(
        """() => [...document.querySelectorAll('button, label, th, h1, h2, h3, h4, summary, legend, option, a')]
              .filter(e => !(e.textContent || e.getAttribute('aria-label') || '').trim())
              .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert empty == []


def serious(page: Page) -> list[Any]:
    results = Axe().run(page)
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no horizontal scrolling
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, select, input:not([type=checkbox]), summary')]
              .filter(e => e.offsetParent !== null)
              .filter(e => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
              .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert small == []  # every tap target is at least 44 px


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_each_language_renders_the_game_screen_with_no_missing_or_empty_string(phones, api: Api, lang: str) -> None:
    ids = [api.player(f"{n}-lang-{lang}") for n in ("Ann", "Bob", "Cy")]
    created = api.post("/games", {"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}})
    game_id, key = created.json()["id"], created.json()["key"]
    for body in ({"knocker": "box", "knocker_deadwood_count": 4, "defender_deadwood_count": 19}, {"outcome": "draw"}):
        etag = api.get_etag(f"/games/{game_id}")
        api.post(f"/games/{game_id}/hands", body, key=key, **{"If-Match": etag})
    phone = phones(locale=LOCALES[lang])
    page = phone.open(f"game={game_id}&key={key}")
    page.wait_for_selector("li.hand", state="attached")
    assert page.evaluate("document.documentElement.lang") == lang
    for section in reversed(SECTIONS):  # each section's words, the scores last (the record form is there)
        open_section(page, section)
        no_missing_or_empty_string(page)
    page.check("#declare")  # the declaring tools
    page.click(".typing summary")
    no_missing_or_empty_string(page)
    page.click('button[data-mode="counts"]')
    no_missing_or_empty_string(page)
    page.goto(f"{phone.base}/")
    page.wait_for_selector("#start-game")
    no_missing_or_empty_string(page)

    private_id, private_key = private_game(api, f"lang-private-{lang}")
    page.goto(f"{phone.base}/#game={private_id}")
    expect(page.locator(".status .ask-link")).to_be_visible()  # no key yet: not found, or private
    no_missing_or_empty_string(page)
    page.goto(f"{phone.base}/#game={private_id}&key={private_key}")
    open_section(page, "share")
    page.click("#make-spectator-link")
    page.click(".spectator-qr summary")
    expect(page.locator(".spectator-qr svg.qr-code")).to_be_visible()
    no_missing_or_empty_string(page)


def test_the_language_switch_changes_every_word_and_is_remembered(phones, api: Api) -> None:
    phone = phones()
    page = phone.open()
    page.wait_for_selector("#start-game")
    expect(page.locator("h1")).to_have_text("Start a game")
    page.select_option("#language", "vi")
    expect(page.locator("h1")).to_have_text("Bắt đầu ván")
    page.reload()
    expect(page.locator("h1")).to_have_text("Bắt đầu ván")


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_every_screen_fits_a_phone_and_axe_finds_nothing_serious(phones, api: Api, lang: str) -> None:
    league_id, league_game, ids = league_with_a_game(api, f"axe-{lang}")
    phone = phones(locale=LOCALES[lang])
    page = phone.open()
    page.wait_for_selector("#start-game")
    screens: dict[str, list[Any]] = {}
    fits_the_phone(page)
    screens["start"] = serious(page)
    shot(page, f"{lang}-1-start")

    game_id = start_game(page, ids, cut=["KS", "7h", "2d"])
    page.click('button[data-mode="counts"]')
    page.fill("#count-knocker", "3")
    page.fill("#count-defender", "20")
    page.click("#save")
    page.wait_for_selector("li.hand", state="attached")
    page.evaluate("window.scrollTo(0, 0)")
    fits_the_phone(page)
    screens["game"] = serious(page)
    shot(page, f"{lang}-2-game")

    page.click('button[data-mode="cards"]')
    tap(page, "k", "4H 5H 6H 4S 5S 6S 4D 5D 6D KC")
    tap(page, "d", "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")
    page.click("#preview")
    page.wait_for_selector(".ruling")
    fits_the_phone(page)
    screens["record"] = serious(page)
    page.locator("#record-title").scroll_into_view_if_needed()
    shot(page, f"{lang}-3-record-hand")
    page.locator(".ruling").scroll_into_view_if_needed()
    shot(page, f"{lang}-4-preview")

    private_id, private_key = private_game(api, f"axe-private-{lang}")
    page.goto(f"{phone.base}/#game={private_id}&key={private_key}")
    open_section(page, "share")
    page.click("#make-spectator-link")
    page.click(".spectator-qr summary")
    page.locator(".spectator-qr").scroll_into_view_if_needed()
    fits_the_phone(page)
    screens["private-game"] = serious(page)
    shot(page, f"{lang}-2b-private-game-spectator-link")
    page.goto(f"{phone.base}/#game=999999")
    page.wait_for_selector(".status .ask-link")
    fits_the_phone(page)
    screens["not-found"] = serious(page)

    page.goto(f"{phone.base}/#league={league_id}")
    page.wait_for_selector(".standings")
    fits_the_phone(page)
    screens["standings"] = serious(page)
    shot(page, f"{lang}-5-standings")

    page.goto(f"{phone.base}/#knock")
    page.wait_for_selector("#ask-knock")
    for card in ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC", "QC"]:
        page.click(f'.picker button[data-card="{card}"]')
    page.click("#ask-knock")
    expect(page.locator(".verdict")).to_have_attribute("data-valid", "true")
    fits_the_phone(page)
    screens["knock"] = serious(page)
    shot(page, f"{lang}-6-can-i-knock")
    assert game_id and screens == {name: [] for name in screens}
