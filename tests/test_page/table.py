"""What a table does on the page, step by step (helpers for the browser tests)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.test_page.conftest import Api


def start_game(
    page: Page, players: list[int], cut: list[str] | None = None, roles: dict[str, int] | None = None
) -> int:
    """Pick three players and enter the cut (R9) or give the roles; returns the game's id."""
    page.wait_for_selector("#start-game")
    for i, pid in enumerate(players):
        page.select_option(f"#player-{i}", str(pid))
    if roles:
        page.click('button[data-how="roles"]')
        for role, pid in roles.items():
            page.select_option(f"#role-{role}", str(pid))
    else:
        for i, card in enumerate(cut or []):
            page.fill(f"#cut-{i}", card)
    page.click("#start-game")
    page.wait_for_selector(".scores tbody tr")
    return int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]


SECTIONS = ("scores", "hands", "share")  # the game screen's tabs: the scores open first


def open_section(page: Page, name: str) -> None:
    """Open one section of the game screen by its tab (one tap), as a player does."""
    page.click(f'[role="tab"][data-tab="{name}"]')
    expect(page.locator(f'[role="tabpanel"][data-panel="{name}"]')).to_be_visible()


def tap(page: Page, target: str, cards: str) -> None:
    """Tap ``cards`` on the picker for the knocker (k), the defender (d) or the discard (x)."""
    page.click(f'.targets button[data-target="{target}"]')
    for card in cards.split():
        page.click(f'.picker button[data-card="{card}"]')


def declare(page: Page, group: str, cards: str, meld: int | None = None) -> None:
    """Group tapped cards into a declared meld (k, d) or layoffs (l) onto knocker's meld ``meld``."""
    page.click(f'.declare button[data-group="{group}"]')
    if meld is not None:
        page.select_option("#layoff-meld", str(meld))
    for card in cards.split():
        page.click(f'.picker button[data-card="{card}"]')
    page.click(".declare button.add-meld")


def wait_hands(page: Page, count: int) -> None:
    expect(page.locator("li.hand")).to_have_count(count, timeout=8000)


def check_board(page: Page, api: Api, game_id: int, hands: int) -> dict[str, Any]:
    """Once the page shows ``hands`` hands, every score and role it shows is the API's."""
    wait_hands(page, hands)
    if page.locator('[role="tabpanel"][data-panel="scores"]').is_hidden():
        open_section(page, "scores")  # only then: a test of where a save leaves the page must see it unmoved
    game = api.get(f"/games/{game_id}")
    assert game["hands_played"] == hands
    for pid in game["players"]:
        row = page.locator(f'.scores tr[data-player="{pid}"]')
        expect(row.locator(".points")).to_have_text(str(game["scores"][str(pid)]))
        role = next((r for r, p in (game["roles"] or {}).items() if p == pid), "")
        expect(row).to_have_attribute("data-role", role)
    if game["roles"]:
        box = page.locator(f'.scores tr[data-player="{game["roles"]["box"]}"] .dealer')
        expect(box).to_be_visible()
    return game


def by_counts(page: Page, knocker: str, knocker_count: int, defender_count: int) -> None:
    """Enter a hand by counts (R25): who knocked (box or captain) and both counts; not saved yet."""
    page.click('button[data-mode="counts"]')
    page.click(f'.knocker button[data-knocker="{knocker}"]')
    page.fill("#count-knocker", str(knocker_count))
    page.fill("#count-defender", str(defender_count))


def recorded(api: Api, game_id: int) -> list[dict[str, Any]]:
    """Each recorded hand as who sat where, who knocked and who scored what (R11, R19, R26)."""
    rows = []
    for hand in api.get(f"/games/{game_id}/hands")["items"]:
        seating, ruling = hand["seating"], hand["ruling"]
        scorer = None
        if hand["knocker"] is not None:
            defender = "captain" if hand["knocker"] == "box" else "box"
            scorer = seating[hand["knocker"] if ruling["scorer"] == "knocker" else defender]
        knocker = seating[hand["knocker"]] if hand["knocker"] else None
        rows.append({"seating": seating, "knocker": knocker, "scorer": scorer, "points": ruling["points"]})
    return rows


def taps(page: Page, cards: str) -> None:
    """Tap ``cards`` on the picker, for whatever is being tapped (a target, a meld, "Can I knock?")."""
    for card in cards.split():
        page.click(f'.picker button[data-card="{card}"]')
