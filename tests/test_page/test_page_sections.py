"""The game screen in sections (the scores with the record form, the hands,
the other phones), each one tap away, and every screen of the page at 360 px
in every language: nothing scrolls sideways but a table that says so, axe
finds nothing serious, and a screenshot of each (GINREF_SCREENSHOTS)."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.test_page.conftest import Api, shot
from tests.test_page.table import SECTIONS, open_section, tap
from tests.test_page.test_page_features import DEFENDER_AS_SAID, tap_in
from tests.test_page.test_page_screens import LOCALES, league_with_a_game, no_missing_or_empty_string, serious

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


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # a box that scrolls sideways inside the page is a table that says so: focusable, named, and shaded
    wide = page.evaluate(
        """() => [...document.querySelectorAll('main *')]
              .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
              .filter(e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
              .map(e => [e.className, e.tabIndex, e.getAttribute('aria-label') !== null,
                         getComputedStyle(e).backgroundImage.includes('radial-gradient')])"""
    )
    assert [w for w in wide if w[1:] != [0, True, True]] == []


def edge_shade(box: Locator, side: str) -> float:
    """The mean brightness (0-255) of the 3 px at one edge of ``box``, as the phone draws it."""
    png = base64.b64encode(box.screenshot()).decode()
    return float(
        box.page.evaluate(
            """async ([png, side]) => {
                 const img = new Image();
                 img.src = `data:image/png;base64,${png}`;
                 await img.decode();
                 const canvas = document.createElement('canvas');
                 canvas.width = img.width;
                 canvas.height = img.height;
                 const g = canvas.getContext('2d');
                 g.drawImage(img, 0, 0);
                 const x = side === 'left' ? 0 : img.width - 3;
                 const d = g.getImageData(x, 0, 3, img.height).data;
                 let sum = 0;
                 for (let i = 0; i < d.length; i += 4) sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
                 return sum / (d.length / 4);
               }""",
            [png, side],
        )
    )


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


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_every_screen_and_section_fits_360_px_in_each_language_and_axe_finds_nothing_serious(
    phones, api: Api, lang: str
) -> None:
    league_id, _, _ = league_with_a_game(api, f"sections-{lang}")
    game_id, key, _ = game_by_cards(api, f"sec-{lang}")
    phone = phones(locale=LOCALES[lang], viewport=VIEW)
    phone.context.add_init_script("navigator.share = () => Promise.resolve();")
    page = phone.open()
    screens: dict[str, list[Any]] = {}

    def check(name: str) -> None:
        no_missing_or_empty_string(page)
        no_sideways_scroll(page)
        screens[name] = serious(page)
        shot(page, f"{lang}-sections-{len(screens)}-{name}")

    page.wait_for_selector("#start-game")
    check("start")

    page.goto(f"{phone.base}/#game={game_id}&key={key}")
    page.wait_for_selector(".scores tbody tr")
    check("game-scores")
    open_section(page, "hands")
    check("game-hands")
    detail = page.locator('li.hand[data-number="1"] .hand-detail')
    detail.locator("summary").click()
    expect(detail.locator(".explanation li")).to_have_count(4)
    detail.scroll_into_view_if_needed()
    check("hand-detail")
    page.click('li.hand[data-number="1"] .dispute-hand')
    page.check("#dispute-with-cards")
    tap_in(page.locator(".dispute-form"), "k", KNOCKER + " " + DEFENDER_AS_SAID)
    page.fill("#dispute-claim", "9♠")
    page.locator(".dispute-form h3").scroll_into_view_if_needed()
    check("dispute-form")
    page.click("#dispute-send")
    expect(page.locator("li.dispute")).to_have_attribute("data-status", "open")
    page.locator("li.dispute").scroll_into_view_if_needed()
    check("dispute")
    open_section(page, "share")
    page.click(".scorer-qr summary")
    expect(page.locator(".scorer-qr svg.qr-code")).to_be_visible()
    check("game-share")

    open_section(page, "scores")
    tap(page, "k", KNOCKER)
    tap(page, "d", DEFENDER)
    page.click("#preview")
    page.wait_for_selector(".ruling")
    page.locator(".picker").first.scroll_into_view_if_needed()
    check("picker")
    page.locator(".ruling").scroll_into_view_if_needed()
    check("preview")

    page.goto(f"{phone.base}/#league={league_id}")
    page.wait_for_selector(".standings")
    check("standings")
    standings = page.locator(".wide")
    scrolls = standings.evaluate("e => e.scrollWidth > e.clientWidth")
    assert scrolls or lang != "en"  # English's column heads make it wider than the phone
    standings.scroll_into_view_if_needed()
    start = (edge_shade(standings, "left"), edge_shade(standings, "right"))
    if scrolls:  # the shade is on the side with more to see
        standings.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        end = (edge_shade(standings, "left"), edge_shade(standings, "right"))
        assert start[0] > end[0] + 8 and start[1] + 8 < end[1], (start, end)
    else:  # nothing hidden, no shade
        assert abs(start[0] - start[1]) < 8, start
    page.goto(f"{phone.base}/#league")
    page.wait_for_selector(".league-new")
    check("leagues")

    page.goto(f"{phone.base}/#knock")
    page.wait_for_selector("#ask-knock")
    for card in ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC", "QC"]:
        page.click(f'.picker button[data-card="{card}"]')
    page.click("#ask-knock")
    expect(page.locator(".verdict")).to_have_attribute("data-valid", "true")
    check("knock")
    assert screens == {name: [] for name in screens}
