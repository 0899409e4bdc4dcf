"""The two-player presets on the page (R27-R35): a whole classic game and a
whole Oklahoma game started with the preset picker and played by tapping, at
360x740; what the scoreboard shows (the dealer, the boxes, the scores against
the target, the result with its parts) is checked against the exact values
worked out by hand from the rules, and against the API. Then every new screen
in every language: no missing string, axe clean, a screenshot of each."""

from __future__ import annotations

import re
from typing import Any

import pytest
import requests
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.test_page.conftest import Api, shot
from tests.test_page.table import open_section, tap, taps, wait_hands

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}
LOCALES = {"en": "en-GB", "ko": "ko-KR", "vi": "vi-VN", "sk": "sk-SK", "mn": "mn-MN"}
MISSING = re.compile(r"\[[a-z_]+\.[a-z_0-9.-]+\]")  # what the page shows for a key no catalog has


def start_two(
    page: Page,
    preset: str,
    players: list[int],
    *,
    cut: list[str] | None = None,
    roles: dict[str, int] | None = None,
    options: dict[str, str] | None = None,
) -> int:
    """Tap a preset, pick two players, the cut or the roles (R28) and the options; returns the game's id."""
    page.wait_for_selector("#start-game")
    page.click(f'.preset-choice button[data-preset="{preset}"]')
    expect(page.locator("#player-2")).to_have_count(0)  # two players
    for i, pid in enumerate(players):
        page.select_option(f"#player-{i}", str(pid))
    if roles:
        page.click('button[data-how="roles"]')
        for seat, pid in roles.items():
            page.select_option(f"#role-{seat}", str(pid))
    else:
        for i, card in enumerate(cut or []):
            page.fill(f"#cut-{i}", card)
    for name, value in (options or {}).items():
        if page.locator(f"select#rule-{name}").count():
            page.select_option(f"#rule-{name}", value)
        else:
            page.fill(f"#rule-{name}", value)
    page.click("#start-game")
    page.wait_for_selector(".scores.two-player tbody tr")
    return int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]


def board(page: Page, api: Api, game_id: int, hands: int) -> dict[str, Any]:
    """Once the page shows ``hands`` hands: each player's score, boxes and seat as the API holds them."""
    wait_hands(page, hands)
    game = api.get(f"/games/{game_id}")
    assert game["hands_played"] == hands
    for pid in game["players"]:
        row = page.locator(f'.scores tr[data-player="{pid}"]')
        expect(row.locator(".points")).to_have_text(str(game["scores"][str(pid)]))
        expect(row.locator(".boxes")).to_have_attribute("data-boxes", str(game["boxes"][str(pid)]))
        seat = next((s for s, p in (game["roles"] or {}).items() if p == pid), "")
        expect(row).to_have_attribute("data-role", seat)
    if game["roles"]:
        expect(page.locator(f'.scores tr[data-player="{game["roles"]["dealer"]}"] .dealer')).to_be_visible()
        expect(page.locator(".scores .dealer")).to_have_count(1)
    return game


def knocker(page: Page, seat: str) -> None:
    page.click(f'.knocker button[data-knocker="{seat}"]')


def counts(page: Page, seat: str, k: int, d: int) -> None:
    page.click('button[data-mode="counts"]')
    knocker(page, seat)
    page.fill("#count-knocker", str(k))
    page.fill("#count-defender", str(d))


def serious(page: Page) -> list[Any]:
    results = Axe().run(page)
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_r28_r32_a_whole_classic_game_by_tapping_with_a_big_gin_and_the_undercutter_taking_the_game_bonus(
    phones, api: Api
) -> None:
    ann, bob = api.player("Ann-c2"), api.player("Bob-c2")
    page = phones(viewport=PHONE).open()
    page.wait_for_selector("#start-game")
    # the default is the three-handed game, as before presets (R27)
    expect(page.locator('.preset-choice button[data-preset="three_handed"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#player-2")).to_have_count(1)
    # R28: the lower cut deals (Ann's 3 against Bob's king); big gin on at 31 (R32)
    game_id = start_two(page, "classic", [ann, bob], cut=["3H", "KS"], options={"big_gin_bonus": "31"})
    game = board(page, api, game_id, 0)
    assert game["rules"]["preset"] == "classic" and game["rules"]["big_gin_bonus"] == 31
    assert game["roles"] == {"dealer": ann, "non_dealer": bob}
    expect(page.locator(".scores .of").first).to_have_text(" / 100")
    expect(page.locator(f'.scores tr[data-player="{ann}"] .to-go')).to_contain_text("100")

    # 1. Bob (non-dealer) knocks by cards, nothing declared (R24): 20 - 10 = 10, one box (R29).
    knocker(page, "non_dealer")
    tap(page, "k", "4H 5H 6H 4S 5S 6S 4D 5D 6D KC")
    tap(page, "d", "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")
    tap(page, "x", "QC")
    page.click("#preview")
    verdict = page.locator(".ruling .verdict")
    expect(verdict).to_have_attribute("data-points", "10")
    expect(verdict.locator(".hand-boxes")).to_have_attribute("data-boxes", "1")
    page.click("#save")
    game = board(page, api, game_id, 1)
    assert game["scores"] == {str(ann): 0, str(bob): 10}
    assert game["boxes"] == {str(ann): 0, str(bob): 1}
    assert game["roles"] == {"dealer": bob, "non_dealer": ann}  # R28: the winner deals

    # 2. A draw (R12): no points, no box, the same dealer (R28).
    page.click('button[data-mode="draw"]')
    page.click("#save")
    game = board(page, api, game_id, 2)
    assert game["roles"] == {"dealer": bob, "non_dealer": ann}

    # 3. Ann (non-dealer) goes big gin (R32): 11 cards melded, no discard; Bob's 64 + 31 = 95.
    page.click('button[data-mode="cards"]')
    knocker(page, "non_dealer")
    page.check("#big-gin")
    expect(page.locator('.targets button[data-target="x"]')).to_have_count(0)  # no discard
    tap(page, "k", "AH 2H 3H 4H 5S 6S 7S QD QC QH QS")
    expect(page.locator('.targets button[data-target="k"]')).to_contain_text("11/11")
    tap(page, "d", "2C 4C 6C 8C 10C 3D 5D 7D 9D JD")
    page.click("#preview")
    expect(verdict).to_have_attribute("data-points", "95")
    expect(verdict).to_contain_text("Big gin")
    page.click("#save")
    game = board(page, api, game_id, 3)
    assert game["scores"] == {str(ann): 95, str(bob): 10}
    assert game["boxes"] == {str(ann): 1, str(bob): 1}
    assert game["roles"] == {"dealer": ann, "non_dealer": bob}
    hand = api.get(f"/games/{game_id}/hands/3")
    assert len(hand["input"]["knocker_hand"]["cards"]) == 11 and hand["input"]["knocker_hand"].get("discard") is None

    # 4. Bob (non-dealer) knocks by counts with 5 against Ann's 3: undercut (R17), 25 + 2 = 27 to
    # Ann, who crosses 100 as the defender and takes the game bonus (R30).
    counts(page, "non_dealer", 5, 3)
    expect(page.locator(".preview .verdict")).to_have_attribute("data-outcome", "undercut")
    expect(page.locator(".preview .verdict")).to_have_attribute("data-points", "27")
    page.click("#save")
    game = board(page, api, game_id, 4)
    assert game["status"] == "finished" and game["winner"] == ann
    assert game["scores"] == {str(ann): 122, str(bob): 10}
    assert game["boxes"] == {str(ann): 2, str(bob): 1}

    # R31: Ann 122 + 2 boxes x 25 + 100 = 272; Bob 10 + 25 = 35; no shutout (Bob won a hand); net 237.
    result = page.locator(".result")
    expect(result).to_have_attribute("data-winner", str(ann))
    expect(result).to_have_attribute("data-net", "237")
    shown = {
        part: [result.locator(f'tr[data-part="{part}"] td[data-player="{p}"]').inner_text() for p in (ann, bob)]
        for part in ("hand_points", "box_bonus", "game_bonus", "shutout", "total")
    }
    assert shown == {
        "hand_points": ["122", "10"],
        "box_bonus": ["50", "25"],
        "game_bonus": ["100", "0"],
        "shutout": ["0", "0"],
        "total": ["272", "35"],
    }
    expect(result.locator(".shutout-mark")).to_have_count(0)
    result.locator(".result-how summary").click()  # the result in words, step by step (R29-R31)
    how = result.locator(".explanation")
    expect(how.locator('li[data-code="game_bonus"]')).to_have_text(
        "Ann-c2 reached the target first and wins the game: the game bonus, 100 (R30)"
    )
    expect(how.locator('li[data-code="net"]')).to_have_text("The net to Ann-c2: 272 − 35 = 237 (R31)")
    expect(how.locator('li[data-code="shutout_double"]')).to_have_count(0)
    expect(result.locator(".net")).to_contain_text("237")
    assert game["result"]["net"] == 237 and game["result"]["winner"] == ann
    assert game["result"]["totals"][str(ann)]["total"] == 272 and game["result"]["totals"][str(bob)]["total"] == 35
    expect(page.locator(".winner")).to_have_attribute("data-winner", str(ann))

    # A rematch: the same two, the same preset and options, seated by a new cut (R28).
    page.fill("#rematch-cut-0", "QD")
    page.fill("#rematch-cut-1", "2C")
    page.click("#rematch-start")
    page.wait_for_url(re.compile(rf"#game=(?!{game_id}\b)\d+"))
    page.wait_for_selector(".scores.two-player tbody tr")
    again_id = int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    again = api.get(f"/games/{again_id}")
    assert again["rules"] == game["rules"] and again["roles"] == {"dealer": bob, "non_dealer": ann}


def test_r33_r31_a_whole_oklahoma_game_by_tapping_the_up_card_a_spade_double_and_a_shutout(phones, api: Api) -> None:
    cy, dee = api.player("Cy-o2"), api.player("Dee-o2")
    page = phones(viewport=PHONE).open()
    game_id = start_two(page, "oklahoma", [cy, dee], roles={"dealer": cy, "non_dealer": dee})
    game = board(page, api, game_id, 0)
    assert game["rules"]["preset"] == "oklahoma" and game["rules"]["target_score"] == 150  # R33's default
    assert game["roles"] == {"dealer": cy, "non_dealer": dee}
    expect(page.locator(".scores .of").first).to_have_text(" / 150")

    # 1. The up-card first (R33): 7♠, so the knock limit is 7 and the points double.
    knocker(page, "non_dealer")
    expect(page.locator('.targets button[data-target="u"]')).to_have_attribute("aria-pressed", "true")
    taps(page, "7S")
    expect(page.locator(".upcard-limit")).to_have_attribute("data-limit", "7")
    expect(page.locator('.targets button[data-target="u"]')).to_contain_text("7♠")
    expect(page.locator('.picker button[data-card="7S"]')).to_have_class(re.compile("is-upcard"))
    tap(page, "k", "4H 5H 6H 4S 5S 6S 4D 5D 6D 2C")
    tap(page, "d", "AH 2H 3H 7H 8H 9H 2S 3S 8S 9S")
    tap(page, "x", "QC")
    page.click("#preview")
    verdict = page.locator(".ruling .verdict")
    expect(verdict).to_have_attribute("data-points", "40")  # (22 - 2) x 2
    expect(page.locator(".ruling .doubled")).to_contain_text("20")
    page.click("#save")
    game = board(page, api, game_id, 1)
    assert game["scores"] == {str(cy): 0, str(dee): 40}
    assert game["boxes"] == {str(cy): 0, str(dee): 1}  # spades_double "points": boxes stay single
    assert game["roles"] == {"dealer": dee, "non_dealer": cy}
    assert api.get(f"/games/{game_id}/hands/1")["input"]["upcard"] == "7S"

    # A correction keeps the hand's seats and re-judges it (R26): the up-card was 7♥, not 7♠, so no
    # double: 20, and the same dealer next (Dee won it either way).
    open_section(page, "hands")
    page.click('li.hand[data-number="1"] .actions button.secondary >> nth=0')
    expect(page.locator("#record-title")).to_contain_text("1")
    expect(page.locator('.targets button[data-target="u"]')).to_contain_text("7♠")
    page.click('.targets button[data-target="u"]')
    taps(page, "7H")
    page.click("#save")
    expect(page.locator(f'.scores tr[data-player="{dee}"] .points')).to_have_text("20")
    game = board(page, api, game_id, 1)
    assert game["scores"] == {str(cy): 0, str(dee): 20}
    assert api.get(f"/games/{game_id}/hands/1")["input"]["upcard"] == "7H"

    # 2. By counts, up-card A♦: an ace is gin only (ace "gin_only", R33), so the knocker's count is 0 at most.
    counts(page, "dealer", 0, 30)
    expect(page.locator(".preview")).to_contain_text("R33")  # no up-card yet
    taps(page, "AD")
    expect(page.locator("#count-knocker")).to_have_attribute("max", "0")
    expect(page.locator(".preview .verdict")).to_have_attribute("data-points", "55")  # 30 + 25
    page.click("#save")
    game = board(page, api, game_id, 2)
    assert game["scores"] == {str(cy): 0, str(dee): 75}
    assert game["boxes"] == {str(cy): 0, str(dee): 2}
    assert game["roles"] == {"dealer": dee, "non_dealer": cy}

    # 3. By counts, up-card K♠: gin, 40 + 25 = 65, doubled to 130: Dee reaches 205 and wins.
    counts(page, "dealer", 0, 40)
    taps(page, "KS")
    expect(page.locator(".preview .verdict")).to_have_attribute("data-points", "130")
    page.click("#save")
    game = board(page, api, game_id, 3)
    assert game["status"] == "finished" and game["winner"] == dee
    assert game["scores"] == {str(cy): 0, str(dee): 205}
    assert game["boxes"] == {str(cy): 0, str(dee): 3}

    # R31: Cy won no hand, a shutout ("double"): hand points and game bonus doubled, box bonuses not:
    # 205 + 3 x 25 + 100 + (205 + 100) = 685; net 685.
    result = page.locator(".result")
    expect(result).to_have_attribute("data-net", "685")
    shown = {
        part: [result.locator(f'tr[data-part="{part}"] td[data-player="{p}"]').inner_text() for p in (dee, cy)]
        for part in ("hand_points", "box_bonus", "game_bonus", "shutout", "total")
    }
    assert shown == {
        "hand_points": ["205", "0"],
        "box_bonus": ["75", "0"],
        "game_bonus": ["100", "0"],
        "shutout": ["305", "0"],
        "total": ["685", "0"],
    }
    expect(result.locator(".shutout-mark")).to_be_visible()
    result.locator(".result-how summary").click()
    expect(result.locator('.explanation li[data-code="shutout_double"]')).to_have_text(
        "Cy-o2 won no hand, a shutout: Dee-o2's hand points and game bonus are doubled, +305 (R31)"
    )
    assert game["result"]["shutout"] is True and game["result"]["net"] == 685


def test_r33_a_knock_over_the_up_cards_limit_is_refused_on_the_page_and_nothing_is_recorded(phones, api: Api) -> None:
    cy, dee = api.player("Cy-o3"), api.player("Dee-o3")
    page = phones(viewport=PHONE).open()
    game_id = start_two(page, "oklahoma", [cy, dee], roles={"dealer": cy, "non_dealer": dee})
    knocker(page, "non_dealer")
    taps(page, "3C")  # the knock limit is 3
    tap(page, "k", "4H 5H 6H 4S 5S 6S 4D 5D 6D 9C")  # 9 deadwood
    tap(page, "d", "AH 2H 3H 7H 8H 9H 2S 3S 8S 9S")
    page.click("#save")
    expect(page.locator(".preview .problem")).to_have_attribute("data-kind", "R33")
    assert api.get(f"/games/{game_id}")["hands_played"] == 0


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_each_language_shows_the_preset_screens_with_no_missing_string_and_no_serious_axe_violation(
    phones, api: Api, lang: str
) -> None:
    a, b = api.player(f"Ann-p-{lang}"), api.player(f"Bob-p-{lang}")
    page = phones(viewport=PHONE, locale=LOCALES[lang]).open()
    page.wait_for_selector("#start-game")
    page.click('.preset-choice button[data-preset="oklahoma"]')
    page.select_option("#player-0", str(a))
    page.select_option("#player-1", str(b))
    checks = []

    def look(name: str) -> None:
        shot(page, f"presets-{name}-{lang}")
        text = page.locator("body").inner_text()
        assert MISSING.findall(text) == [], name
        wide = page.evaluate(
            """(width) => [...document.querySelectorAll('body *')]
                  .filter(e => e instanceof HTMLElement)
                  .filter(e => { const r = e.getBoundingClientRect();
                    return r.right > width + 0.5
                      || (r.left + e.scrollWidth > width + 0.5 && getComputedStyle(e).overflowX === "visible"); })
                  .map(e => e.outerHTML.slice(0, 100))""",
            PHONE["width"],
        )
        assert wide == [], (name, wide[-3:])
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (name, wide)
        small = page.evaluate(
            """() => [...document.querySelectorAll('button, select, input:not([type=checkbox]), summary')]
                  .filter(e => e.offsetParent !== null)
                  .filter(e => e instanceof HTMLElement)
                  .filter(e => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
                  .map(e => e.outerHTML.slice(0, 80))"""
        )
        assert small == [], name  # every tap target is at least 44 px
        checks.append((name, serious(page)))

    look("start")
    page.locator(".rule-options summary").scroll_into_view_if_needed()
    look("options")
    page.click('button[data-how="roles"]')
    page.select_option("#role-dealer", str(a))
    page.select_option("#role-non_dealer", str(b))
    page.fill("#rule-target_score", "30")
    page.select_option("#rule-spades_double", "all")
    page.fill("#rule-big_gin_bonus", "31")
    page.click("#start-game")
    page.wait_for_selector(".scores.two-player tbody tr")
    game_id = int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    look("board")
    page.locator(".record").scroll_into_view_if_needed()
    look("upcard")
    taps(page, "5S")
    page.check("#big-gin")
    look("big-gin")
    page.uncheck("#big-gin")
    counts(page, "dealer", 2, 30)
    look("counts")
    page.click("#save")  # (28 x 2) = 56 >= 30: the game is won at once, a shutout
    wait_hands(page, 1)
    expect(page.locator(".result")).to_be_visible()
    page.locator(".result-how summary").click()
    expect(page.locator('.result .explanation li[data-code="total"]')).to_have_count(2)
    page.locator(".result").scroll_into_view_if_needed()
    look("result")
    open_section(page, "hands")
    expect(page.locator("li.hand .hand-title")).to_contain_text("5♠")  # the hand's up-card
    look("hands")
    page.click("li.hand details summary")
    steps = page.locator("li.hand .explanation")
    expect(steps.locator('li[data-code="up_card_limit"]')).to_contain_text("5♠")  # R33, in the page's words
    expect(steps.locator('li[data-code="spade_double"]')).to_be_visible()
    expect(steps.locator('li[data-code="spade_double_boxes"]')).to_be_visible()
    expect(steps.locator('li[data-code="hand_boxes"]')).to_contain_text("2")  # R29, doubled by the spade
    steps.scroll_into_view_if_needed()
    look("detail")
    game = api.get(f"/games/{game_id}")
    assert game["winner"] == a and game["result"]["shutout"] is True
    assert [(name, found) for name, found in checks if found] == []


def test_r28_a_two_player_hand_refused_because_the_seats_moved_says_who_deals_now_by_name(phones, api: Api) -> None:
    ann, bob = api.player("Ann-s2"), api.player("Bob-s2")
    created = api.post(
        "/games", {"players": [ann, bob], "roles": {"dealer": ann, "non_dealer": bob}, "rules": {"preset": "classic"}}
    ).json()
    game_id, key = created["id"], created["key"]
    first = {"dealer": ann, "non_dealer": bob}
    body = {"knocker": "non_dealer", "knocker_deadwood_count": 2, "defender_deadwood_count": 9, "seating": first}
    api.post(f"/games/{game_id}/hands", body, key=key, **{"If-Match": api.get_etag(f"/games/{game_id}")})
    # the API's own answer to a hand that names the seats as they were before hand 1 (R28: Bob won, Bob deals)
    moved = requests.post(
        f"{api.base}/games/{game_id}/hands",
        json={"outcome": "draw", "seating": first},
        headers={"Authorization": f"Bearer {key}", "If-Match": api.get_etag(f"/games/{game_id}")},
        timeout=10,
    )
    assert (moved.status_code, moved.json()["type"]) == (409, "https://ginref.org/problems/seating-moved")
    page = phones(viewport=PHONE).open(f"game={game_id}&key={key}")
    page.wait_for_selector("li.hand", state="attached")
    expect(page.locator(f'.scores tr[data-player="{bob}"] .dealer')).to_be_visible()
    page.route(
        f"**/api/v1/games/{game_id}/hands",
        lambda route: (
            route.fulfill(status=409, content_type="application/problem+json", body=moved.text)
            if route.request.method == "POST"
            else route.fallback()
        ),
    )
    page.click('button[data-mode="draw"]')
    page.click("#save")
    problem = page.locator(".status .problem")
    expect(problem).to_have_attribute("data-kind", "seating-moved")
    expect(problem.locator(".problem-seating")).to_have_text("Now: Dealer: Bob-s2 · Non-dealer: Ann-s2.")
    assert api.get(f"/games/{game_id}")["hands_played"] == 1


def test_r28_hands_queued_offline_move_the_deal_on_by_next_dealer_and_are_sent_in_their_seats(phones, api: Api) -> None:
    ann, bob = api.player("Ann-q2"), api.player("Bob-q2")
    phone = phones(viewport=PHONE)
    page = phone.open()
    # next_dealer "loser" (R28): the loser of a hand deals the next
    game_id = start_two(
        page, "classic", [ann, bob], roles={"dealer": ann, "non_dealer": bob}, options={"next_dealer": "loser"}
    )
    knocked = page.locator(".knocker button")
    queued = page.locator(".queue li.queued")
    expect(knocked).to_have_text(["Dealer (Ann-q2) knocked", "Non-dealer (Bob-q2) knocked"])

    phone.context.set_offline(True)
    counts(page, "dealer", 2, 12)  # Ann knocks and wins 10: Bob, who lost, deals the next
    page.click("#save")
    expect(queued).to_have_count(1)
    expect(knocked).to_have_text(["Dealer (Bob-q2) knocked", "Non-dealer (Ann-q2) knocked"])
    counts(page, "dealer", 4, 3)  # Bob knocks and is undercut: Ann scores 25 + 1, Bob lost, deals again
    expect(page.locator(".preview .verdict")).to_have_attribute("data-points", "26")
    page.click("#save")
    expect(queued).to_have_count(2)
    expect(knocked).to_have_text(["Dealer (Bob-q2) knocked", "Non-dealer (Ann-q2) knocked"])
    bodies = [q["body"] for q in page.evaluate("JSON.parse(localStorage.getItem('ginref.queue'))")]
    assert [b["seating"] for b in bodies] == [
        {"dealer": ann, "non_dealer": bob},
        {"dealer": bob, "non_dealer": ann},
    ]
    assert api.get(f"/games/{game_id}")["hands_played"] == 0

    phone.context.set_offline(False)
    game = board(page, api, game_id, 2)
    expect(queued).to_have_count(0)
    assert game["scores"] == {str(ann): 36, str(bob): 0}
    assert game["boxes"] == {str(ann): 2, str(bob): 0}
    assert game["roles"] == {"dealer": bob, "non_dealer": ann}


def test_r27_a_classic_game_in_a_league_on_the_page_and_its_standings_by_preset_in_every_language(
    phones, api: Api
) -> None:
    ann, bob, cy = (api.player(f"{n}-lg") for n in ("Ann", "Bob", "Cy"))
    league = api.post("/leagues", {"name": "Two-table club", "members": [ann, bob, cy]}).json()
    phone = phones(viewport=PHONE)
    page = phone.open()
    page.wait_for_selector("#start-game")
    page.click('.preset-choice button[data-preset="classic"]')
    page.select_option("#player-0", str(ann))
    page.select_option("#player-1", str(bob))
    page.click('button[data-how="roles"]')
    page.select_option("#role-dealer", str(ann))
    page.select_option("#role-non_dealer", str(bob))
    page.click("details:has(#league) summary")  # a league holds games of every preset (R27)
    page.select_option("#league", str(league["id"]))
    page.fill("#league-key", league["key"])
    page.click("#start-game")
    page.wait_for_selector(".scores.two-player tbody tr")
    game_id = int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    counts(page, "non_dealer", 0, 30)  # R18: Bob's gin, 30 + 25 = 55, one box (R29)
    page.click("#save")
    game = board(page, api, game_id, 1)
    assert game["league_id"] == league["id"] and game["scores"] == {str(ann): 0, str(bob): 55}

    page.goto(f"{phone.base}/#league={league['id']}")
    page.wait_for_selector(".standings")
    expect(page.locator("#rating-note")).to_be_visible()
    page.select_option("#preset-filter", "classic")
    page.wait_for_url("**preset=classic**")
    standings = api.get(f"/leagues/{league['id']}/standings?preset=classic")
    expect(page.locator(".standings tbody tr")).to_have_count(3)
    shown = page.locator(".standings tbody tr").evaluate_all("rows => rows.map(r => Number(r.dataset.player))")
    assert shown == [s["player_id"] for s in standings["items"]]
    bobs = page.locator(f'.standings tr[data-player="{bob}"] td')
    expect(bobs.last).to_have_text("1")  # R29: his box, in the boxes column
    expect(page.locator(".standings thead th").last).to_have_text("Boxes")
    page.select_option("#sort", "boxes")
    page.wait_for_url("**sort=boxes**preset=classic**")
    expect(page.locator(".standings tbody tr").first).to_have_attribute("data-player", str(bob))
    page.select_option("#preset-filter", "three_handed")  # no three-handed game: no boxes, nothing won
    page.wait_for_url("**preset=three_handed**")
    expect(page.locator(".standings thead th").last).not_to_have_text("Boxes")
    assert serious(page) == []
    for lang, locale in LOCALES.items():
        fragment = f"league={league['id']}&sort=boxes&order=desc&preset=classic"
        other = phones(viewport=PHONE, locale=locale).open(fragment)
        other.wait_for_selector(".standings")
        expect(other.locator("#preset-filter")).to_have_value("classic")
        assert MISSING.findall(other.locator("body").inner_text()) == [], lang
        assert serious(other) == [], lang
        shot(other, f"league-preset-{lang}")


HOLLYWOOD_HANDS = [  # the golden match "r34_one_hand_wins_two_columns_and_the_third_is_played_out"
    ("dealer", 2, 32),
    ("dealer", 2, 32),
    ("non_dealer", 4, 14),
    ("non_dealer", 2, 32),
    ("dealer", 0, 20),
    ("non_dealer", 5, 30),
    ("dealer", 0, 10),
    ("dealer", 8, 5),
]


def columns_shown(page: Page, api: Api, game_id: int, hands: int) -> dict[str, Any]:
    """Once the page shows ``hands`` hands: each column's score and boxes of each player as the API holds them."""
    wait_hands(page, hands)
    game = api.get(f"/games/{game_id}")
    assert game["hands_played"] == hands
    for column in game["columns"]:
        for pid in game["players"]:
            cell = page.locator(f'.scores.columns tr[data-player="{pid}"] td[data-column="{column["number"]}"]')
            expect(cell).to_have_attribute("data-score", str(column["scores"][str(pid)]))
            expect(cell).to_have_attribute("data-boxes", str(column["boxes"][str(pid)]))
    return game


def test_r34_a_whole_hollywood_match_by_tapping_three_columns_on_a_phone_in_every_language(phones, api: Api) -> None:
    ann, bob = api.player("Ann-hw"), api.player("Bob-hw")
    phone = phones(viewport=PHONE)
    page = phone.open()
    game_id = start_two(page, "hollywood", [ann, bob], roles={"dealer": ann, "non_dealer": bob})
    expect(page.locator(".scores.columns thead th[data-column]")).to_have_count(3)
    for n, (seat, k, d) in enumerate(HOLLYWOOD_HANDS, start=1):
        counts(page, seat, k, d)
        page.click("#save")
        game = columns_shown(page, api, game_id, n)
        served = api.get(f"/games/{game_id}/hands/{n}")
        expected = ", ".join(map(str, served["columns"]))
        open_section(page, "hands")
        title = page.locator(f'li.hand[data-number="{n}"] .hand-title')
        expect(title).to_contain_text(f"columns: {expected}" if expected else "in no column")
        open_section(page, "scores")
    # R34: all three columns won; the match's totals and net (the golden file's: 1098 to 145, net 953)
    assert game["status"] == "finished" and game["match"] == {
        "totals": {str(ann): 1098, str(bob): 145},
        "winner": ann,
        "net": 953,
    }
    match = page.locator("section.match")
    expect(match).to_have_attribute("data-net", "953")
    expect(match.locator(".net")).to_have_text("Ann-hw wins the match by 953 (net).")
    expect(page.locator("section.result[data-column]")).to_have_count(3)
    expect(page.locator(".column-won")).to_have_count(3)
    assert serious(page) == []
    wide = page.evaluate("() => document.querySelector('.scores.columns').getBoundingClientRect().right")
    assert wide <= PHONE["width"], wide  # the three columns fit a phone's width
    shot(page, "hollywood-en")
    for lang, locale in LOCALES.items():
        if lang == "en":
            continue
        other = phones(viewport=PHONE, locale=locale).open(f"game={game_id}")
        other.wait_for_selector(".scores.columns tbody tr")
        assert MISSING.findall(other.locator("body").inner_text()) == [], lang
        assert serious(other) == [], lang
        shot(other, f"hollywood-{lang}")
