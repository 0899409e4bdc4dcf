"""The game screen in sections (the scores with the record form, the hands,
the other phones), each one tap away."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.test_page.conftest import Api
from tests.test_page.table import SECTIONS

pytestmark = pytest.mark.slow

VIEW = {"width": 360, "height": 740}
KNOCKER = "4H 5H 6H 4S 5S 6S 4D 5D 6D KC"  # three sets and the king: 10 deadwood (R7)
DEFENDER = "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"  # two runs, 2 3 7 8 of spades: 20 deadwood (R16)


def game_by_cards(api: Api, tag: str) -> tuple[int, str, list[int]]:
    """Ann box, Bob captain, Cy sitter; hand 1 by cards (Ann knocks, 10 against 20: R16), hand 2 a draw (R12)."""
    ids = [api.player(f"{n}-{tag}") for n in ("Ann", "Bob", "Cy")]
    created = api.post("/games", {"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}}).json()
    for body in (
        {"knocker": "box", "knocker_hand": {"cards": KNOCKER.split()}, "defender_hand": {"cards": DEFENDER.split()}},
        {"outcome": "draw"},
    ):
        etag = api.get_etag(f"/games/{created['id']}")
        api.post(f"/games/{created['id']}/hands", body, key=created["key"], **{"If-Match": etag})
    return created["id"], created["key"], ids


def panel_of(page: Page, selector: str) -> str | None:
    """The section (tab panel) an element is in; None when it is outside them all."""
    return page.locator(selector).first.evaluate("e => (e.closest('[role=tabpanel]') || {dataset: {}}).dataset.panel")


def selected(page: Page) -> list[str]:
    return page.locator('[role="tab"][aria-selected="true"]').evaluate_all("ts => ts.map(t => t.dataset.tab)")


def on_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEW["height"]


def test_the_game_screen_opens_on_the_scores_and_the_hands_and_other_phones_are_one_tap_away(phones, api: Api) -> None:
    game_id, key, (ann, _, _) = game_by_cards(api, "tabs")
    phone = phones(viewport=VIEW)
    page = phone.open(f"game={game_id}&key={key}")
    page.wait_for_selector(".scores tbody tr")
    tablist = page.locator('[role="tablist"]')
    expect(tablist).to_have_attribute("aria-label", "Sections of the game")
    expect(tablist.locator('[role="tab"]')).to_have_text(["Scores", "Hands (2)", "Other phones"])
    assert selected(page) == ["scores"]
    for name in SECTIONS:
        tab = page.locator(f'[role="tab"][data-tab="{name}"]')
        panel = page.locator(f"#{tab.get_attribute('aria-controls')}")
        expect(panel).to_have_attribute("role", "tabpanel")
        expect(panel).to_have_attribute("aria-labelledby", tab.get_attribute("id") or "")
        expect(tab).to_have_attribute("tabindex", "0" if name == "scores" else "-1")  # one tab stop for the bar
    # what sits where: the queue and the record form beside the scores; the status above every section
    where = {
        s: panel_of(page, s) for s in (".scores", ".queue", ".record", ".history", ".chart", ".disputes-part", ".share")
    }
    assert list(where.values()) == ["scores", "scores", "scores", "hands", "hands", "hands", "share"]
    assert panel_of(page, ".status") is None
    expect(page.locator(".history")).to_be_hidden()
    expect(page.locator(".share")).to_be_hidden()

    # far down the record form, the bar is still on screen: one tap to the hands, shown from their start
    page.locator("#save").scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 300
    assert on_screen(page, '[role="tablist"]')
    page.click('[role="tab"][data-tab="hands"]')
    assert selected(page) == ["hands"]
    expect(page.locator(".history")).to_be_visible()
    expect(page.locator(".scores")).to_be_hidden()
    assert on_screen(page, "#history-title") and on_screen(page, '[role="tablist"]')
    expect(page.locator("li.hand")).to_have_count(2)
    page.click('[role="tab"][data-tab="share"]')
    assert selected(page) == ["share"]
    expect(page.locator(".scorer-link")).to_have_attribute("href", f"{phone.base}/#game={game_id}&key={key}")

    # the keyboard: arrows move along the bar (and round it), Home and End go to its ends, focus follows
    page.focus('[role="tab"][data-tab="share"]')
    for key_name, now in (
        ("ArrowRight", "scores"),
        ("ArrowRight", "hands"),
        ("ArrowLeft", "scores"),
        ("ArrowLeft", "share"),
        ("Home", "scores"),
        ("End", "share"),
    ):
        page.keyboard.press(key_name)
        assert selected(page) == [now], key_name
        assert page.evaluate("document.activeElement.dataset.tab") == now
        expect(page.locator(f'[role="tabpanel"][data-panel="{now}"]')).to_be_visible()
        expect(page.locator(f'[role="tab"][data-tab="{now}"]')).to_have_attribute("tabindex", "0")

    # "Correct" on a hand opens the record form, on the scores
    page.keyboard.press("ArrowLeft")
    page.click('li.hand[data-number="1"] button:has-text("Correct")')
    assert selected(page) == ["scores"]
    expect(page.locator("#record-title")).to_have_text("Correct hand 1")
    assert on_screen(page, "#record-title")
    bar, title = page.locator('[role="tablist"]').bounding_box(), page.locator("#record-title").bounding_box()
    assert bar and title and bar["y"] == 0 and title["y"] >= bar["height"], (bar, title)  # below the bar, not under it
    expect(page.locator(f'.scores tr[data-player="{ann}"] .points')).to_have_text("10")


def test_a_hand_saved_on_the_scores_counts_on_the_hands_tab_and_a_queued_one_shows_beside_the_scores(
    phones, api: Api
) -> None:
    game_id, key, _ = game_by_cards(api, "tabcount")
    phone = phones(viewport=VIEW)
    page = phone.open(f"game={game_id}&key={key}")
    page.wait_for_selector(".scores tbody tr")
    page.context.set_offline(True)
    page.click('button[data-mode="draw"]')
    page.click("#save")
    expect(page.locator(".queue li.queued")).to_have_count(1)
    assert panel_of(page, ".queue li.queued") == "scores" and selected(page) == ["scores"]
    expect(page.locator(".status")).to_be_visible()
    page.context.set_offline(False)
    expect(page.locator('[role="tab"][data-tab="hands"]')).to_have_text("Hands (3)", timeout=15000)
    expect(page.locator(".queue li.queued")).to_have_count(0)
