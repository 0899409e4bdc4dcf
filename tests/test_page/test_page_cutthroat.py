"""Cutthroat on the page (R36): a whole game of three started by a cut of
three cards and played by tapping at 360x740, the seats shown after each
hand checked against R36 worked out here and against the API, the result's
totals, shutout and each pair's net; two hands queued offline moving the
seats on by R36; the seats' rule in queue.js for every preset; and the
cutthroat screens in every language (no missing string, axe clean, within
360 px, a screenshot of each)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.test_page.conftest import Api, shot
from tests.test_page.table import open_section, wait_hands
from tests.test_page.test_page_presets import LOCALES, MISSING, PHONE, counts, serious

pytestmark = pytest.mark.slow

SEATS = ("dealer", "non_dealer", "sitter")


def r36_next(seats: dict[str, int], winner: str | None) -> dict[str, int]:
    """R36, worked out apart from the page: after a won hand the loser sits out, the player who
    sat out comes in and deals, the winner is the non-dealer; after a draw the seats stay."""
    if winner is None:
        return seats
    loser = "non_dealer" if winner == "dealer" else "dealer"
    return {"dealer": seats["sitter"], "non_dealer": seats[winner], "sitter": seats[loser]}


def winner_of(knocker: str, k: int, d: int) -> str:
    """R16-R18: the knocker wins with a gin or a lower count, else the defender undercuts (R17)."""
    return knocker if k == 0 or k < d else ("non_dealer" if knocker == "dealer" else "dealer")


def start_cutthroat(
    page: Page,
    players: list[int],
    *,
    cut: list[str] | None = None,
    roles: dict[str, int] | None = None,
    options: dict[str, str] | None = None,
) -> int:
    """Tap cutthroat, pick three players, the cut of three or the three seats (R36), the options."""
    page.wait_for_selector("#start-game")
    page.click('.preset-choice button[data-preset="cutthroat"]')
    expect(page.locator("#player-2")).to_have_count(1)  # three players
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
        page.fill(f"#rule-{name}", value)
    page.click("#start-game")
    expect(page.locator(".scores.two-player tbody tr")).to_have_count(3)
    return int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]


def seats_shown(page: Page, api: Api, game_id: int, hands: int, want: dict[str, int] | None) -> dict[str, Any]:
    """Once the page shows ``hands`` hands: the API's seats are ``want``, and the board shows
    them: each row's seat, the dealer marked, the sitter marked as sitting out; the scores and
    boxes as the API holds them."""
    wait_hands(page, hands)
    game = api.get(f"/games/{game_id}")
    assert game["hands_played"] == hands
    assert game["roles"] == want
    for pid in game["players"]:
        row = page.locator(f'.scores tr[data-player="{pid}"]')
        expect(row.locator(".points")).to_have_text(str(game["scores"][str(pid)]))
        expect(row.locator(".boxes")).to_have_attribute("data-boxes", str(game["boxes"][str(pid)]))
        seat = next((s for s, p in (want or {}).items() if p == pid), "")
        expect(row).to_have_attribute("data-role", seat)
    if want:
        order = page.locator(".scores tbody tr").evaluate_all("rows => rows.map(r => Number(r.dataset.player))")
        assert order == [want[s] for s in SEATS]  # the dealer, the non-dealer, then who sits out
        expect(page.locator(f'.scores tr[data-player="{want["dealer"]}"] .dealer')).to_have_text(" · deals")
        expect(page.locator(f'.scores tr[data-player="{want["sitter"]}"] .sits-out')).to_have_text(" · sits out")
        expect(page.locator(".scores .dealer")).to_have_count(1)
        expect(page.locator(".scores .sits-out")).to_have_count(1)
        expect(page.locator(".seats-rule")).to_contain_text("R36")
    else:
        expect(page.locator(".scores .sits-out")).to_have_count(0)
    return game


def form_names(page: Page, names: dict[int, str], seats: dict[str, int]) -> None:
    """The hand's form names the dealer and the non-dealer on the knocker buttons, and the sitter apart."""
    expect(page.locator(".knocker button")).to_have_text(
        [f"Dealer ({names[seats['dealer']]}) knocked", f"Non-dealer ({names[seats['non_dealer']]}) knocked"]
    )
    expect(page.locator(".sitter-line")).to_have_text(f"{names[seats['sitter']]} sits out this hand (R36).")


# The golden game "r36_a_cutthroat_game_with_one_player_shut_out_under_shutout_double": who knocked
# and the counts, a draw as None.
GOLDEN_HANDS: list[tuple[str, int, int] | None] = [
    ("dealer", 4, 34),  # Bob knocks, 30
    ("non_dealer", 0, 20),  # Bob's gin, 45
    None,  # a draw: the same seats
    ("dealer", 2, 17),  # Ann knocks, 15
    ("dealer", 9, 6),  # Cy is undercut by Ann, 25 + 3 = 28
    ("dealer", 3, 33),  # Bob knocks, 30: 105, the game
]


def test_r36_a_whole_cutthroat_game_by_tapping_from_the_cut_to_the_result(phones, api: Api) -> None:
    ann, bob, cy = api.player("Ann-ct"), api.player("Bob-ct"), api.player("Cy-ct")
    names = {ann: "Ann-ct", bob: "Bob-ct", cy: "Cy-ct"}
    page = phones(viewport=PHONE).open()
    page.wait_for_selector("#start-game")
    page.click('.preset-choice button[data-preset="cutthroat"]')
    expect(page.locator("fieldset legend", has_text="The cut")).to_have_text("The cut (R36)")
    expect(page.locator("#rule-next_dealer")).to_have_count(0)  # R36 seats the next hand, no option
    # R36: Bob's king and Ann's nine play, Bob (the higher) deals; Cy's four sits out
    game_id = start_cutthroat(page, [ann, bob, cy], cut=["9H", "KS", "4D"])
    seats = {"dealer": bob, "non_dealer": ann, "sitter": cy}
    game = seats_shown(page, api, game_id, 0, seats)
    assert game["rules"]["preset"] == "cutthroat" and game["first_roles"] == seats
    expect(page.locator(".preset-line")).to_have_text("Cutthroat")
    expect(page.locator(".scores .of").first).to_have_text(" / 100")

    for n, hand in enumerate(GOLDEN_HANDS, start=1):
        if hand is None:
            page.click('button[data-mode="draw"]')
            expect(page.locator(".sitter-line")).to_have_text(f"{names[seats['sitter']]} sits out this hand (R36).")
            winner = None
        else:
            seat, k, d = hand
            page.click('button[data-mode="counts"]')
            form_names(page, names, seats)
            counts(page, seat, k, d)
            winner = winner_of(seat, k, d)
        page.click("#save")
        played = seats
        seats = r36_next(seats, winner)
        last = n == len(GOLDEN_HANDS)
        game = seats_shown(page, api, game_id, n, None if last else seats)
        served = api.get(f"/games/{game_id}/hands/{n}")
        assert served["seating"] == played  # the hand is recorded in the seats it was played in
        open_section(page, "hands")
        expect(page.locator(f'li.hand[data-number="{n}"] .seating')).to_have_text(
            " · ".join(
                f"{word}: {names[played[s]]}" for s, word in zip(SEATS, ("Dealer", "Non-dealer", "Sitter"), strict=True)
            )
        )
        open_section(page, "scores")

    # R29-R31, R36: Bob 105 + 3 boxes x 25 + 100 game bonus, doubled once for Cy's shutout (+205) = 485;
    # Ann 43 + 2 x 25 = 93; Cy 0. The nets: Bob-Ann 392, Bob-Cy 485, Ann-Cy 93.
    assert game["status"] == "finished" and game["winner"] == bob
    result = game["result"]
    assert {int(p): t["total"] for p, t in result["totals"].items()} == {bob: 485, ann: 93, cy: 0}
    assert result["shut_out"] == [cy]
    assert [(n["ahead"], n["behind"], n["net"]) for n in result["nets"]] == [
        (bob, ann, 392),
        (bob, cy, 485),
        (ann, cy, 93),
    ]
    board_result = page.locator("section.cutthroat-result")
    expect(board_result).to_have_attribute("data-winner", str(bob))
    expect(board_result.locator("thead th")).to_have_text([names[bob], names[ann], names[cy]])
    parts = ("hand_points", "box_bonus", "game_bonus", "shutout", "total")
    shown = {
        part: [
            board_result.locator(f'tr[data-part="{part}"] td[data-player="{p}"]').inner_text() for p in (bob, ann, cy)
        ]
        for part in parts
    }
    assert shown == {part: [str(result["totals"][str(p)][part]) for p in (bob, ann, cy)] for part in parts}
    assert shown == {
        "hand_points": ["105", "43", "0"],
        "box_bonus": ["75", "50", "0"],
        "game_bonus": ["100", "0", "0"],
        "shutout": ["205", "0", "0"],
        "total": ["485", "93", "0"],
    }
    expect(board_result.locator(".shutout-mark")).to_have_text("Cy-ct won no hand: a shutout (R36).")
    expect(board_result.locator(".shutout-mark")).to_have_attribute("data-players", str(cy))
    expect(board_result.locator("li.pair-net")).to_have_text(
        [
            "Bob-ct is ahead of Ann-ct by 392 (net).",
            "Bob-ct is ahead of Cy-ct by 485 (net).",
            "Ann-ct is ahead of Cy-ct by 93 (net).",
        ]
    )
    nets = board_result.locator("li.pair-net").evaluate_all(
        "items => items.map(i => [Number(i.dataset.ahead), Number(i.dataset.behind), Number(i.dataset.net)])"
    )
    assert nets == [[n["ahead"], n["behind"], n["net"]] for n in result["nets"]]
    board_result.locator(".result-how summary").click()
    expect(board_result.locator('.explanation li[data-code="pair_net"]')).to_have_text(
        [
            "Between Bob-ct and Ann-ct: 485 − 93 = 392 (R36)",
            "Between Bob-ct and Cy-ct: 485 − 0 = 485 (R36)",
            "Between Ann-ct and Cy-ct: 93 − 0 = 93 (R36)",
        ]
    )
    expect(page.locator(".winner")).to_have_attribute("data-winner", str(bob))
    expect(page.locator(".seats-rule")).to_have_count(0)
    assert serious(page) == []

    # The hands: each names who sat it out, in its detail and when it is disputed (by a player of it only).
    open_section(page, "hands")
    page.click('li.hand[data-number="2"] details.hand-detail summary')
    expect(page.locator('li.hand[data-number="2"] .sat-out')).to_have_text("Ann-ct sat this hand out (R36).")
    page.click('li.hand[data-number="2"] .dispute-hand')
    expect(page.locator("#dispute-by option")).to_have_text(["Cy-ct (Dealer)", "Bob-ct (Non-dealer)"])
    expect(page.locator(".dispute-form .sat-out")).to_have_text("Ann-ct sat this hand out (R36).")
    page.click("#dispute-cancel")

    # A rematch: the same three, the same rules, a new cut (R36): Ann's queen deals to Cy's seven, Bob's two sits out.
    open_section(page, "scores")
    expect(page.locator(".rematch legend", has_text="The cut")).to_have_text("The cut (R36)")
    page.fill("#rematch-cut-0", "QD")
    page.fill("#rematch-cut-1", "2C")
    page.fill("#rematch-cut-2", "7H")
    page.click("#rematch-start")
    page.wait_for_url(re.compile(rf"#game=(?!{game_id}\b)\d+"))
    again_id = int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    again = seats_shown(page, api, again_id, 0, {"dealer": ann, "non_dealer": cy, "sitter": bob})
    assert again["rules"] == game["rules"] and again["players"] == game["players"]


def test_r36_two_cutthroat_hands_queued_offline_move_the_seats_on_and_are_recorded_in_their_seats(
    phones, api: Api
) -> None:
    ann, bob, cy = api.player("Ann-cq"), api.player("Bob-cq"), api.player("Cy-cq")
    names = {ann: "Ann-cq", bob: "Bob-cq", cy: "Cy-cq"}
    phone = phones(viewport=PHONE)
    page = phone.open()
    first = {"dealer": ann, "non_dealer": bob, "sitter": cy}
    game_id = start_cutthroat(page, [ann, bob, cy], roles=first)
    seats_shown(page, api, game_id, 0, first)
    queued = page.locator(".queue li.queued")
    page.click('button[data-mode="counts"]')
    form_names(page, names, first)

    phone.context.set_offline(True)
    counts(page, "dealer", 2, 12)  # Ann knocks and wins 10: Bob sits out, Cy comes in and deals to Ann
    page.click("#save")
    expect(queued).to_have_count(1)
    second = {"dealer": cy, "non_dealer": ann, "sitter": bob}
    assert r36_next(first, "dealer") == second
    form_names(page, names, second)
    expect(page.locator("#record-title")).to_have_text("Record hand 2")
    counts(page, "non_dealer", 4, 3)  # Ann knocks and Cy undercuts her, 25 + 1: Ann sits out, Bob deals to Cy
    expect(page.locator(".preview .verdict")).to_have_attribute("data-points", "26")
    page.click("#save")
    expect(queued).to_have_text(
        [
            "Queued, sent when the connection returns: Ann-cq (dealer) knocked, counts 2 and 12",
            "Queued, sent when the connection returns: Ann-cq (non-dealer) knocked, counts 4 and 3",
        ]
    )
    third = {"dealer": bob, "non_dealer": cy, "sitter": ann}
    assert r36_next(second, "dealer") == third
    form_names(page, names, third)
    expect(page.locator("#record-title")).to_have_text("Record hand 3")
    bodies = [q["body"] for q in page.evaluate("JSON.parse(localStorage.getItem('ginref.queue'))")]
    assert [b["seating"] for b in bodies] == [first, second]
    assert api.get(f"/games/{game_id}")["hands_played"] == 0

    phone.context.set_offline(False)
    game = seats_shown(page, api, game_id, 2, third)
    expect(queued).to_have_count(0)
    hands = api.get(f"/games/{game_id}/hands")["items"]
    assert [h["seating"] for h in hands] == [first, second]
    assert [(h["ruling"]["winner"], h["ruling"]["points"]) for h in hands] == [("dealer", 10), ("dealer", 26)]
    assert [h["seating"][h["ruling"]["winner"]] for h in hands] == [ann, cy]  # credited to Ann, then to Cy
    assert game["scores"] == {str(ann): 10, str(bob): 0, str(cy): 26}
    assert game["boxes"] == {str(ann): 1, str(bob): 0, str(cy): 1}


def test_r11_r28_r36_queue_next_seats_moves_each_presets_seats_on(phones) -> None:
    page = phones(viewport=PHONE).open()
    page.wait_for_selector("#start-game")
    moved = page.evaluate(
        """async () => {
            const { nextSeats } = await import('/web/queue.js');
            const three = { box: 1, captain: 2, sitter: 3 };
            const two = { dealer: 1, non_dealer: 2 };
            const cut = { dealer: 1, non_dealer: 2, sitter: 3 };
            return {
                r11_box: nextSeats(three, "box"),
                r11_captain: nextSeats(three, "captain"),
                r28_winner: nextSeats(two, "non_dealer", { next_dealer: "winner" }),
                r28_loser: nextSeats(two, "non_dealer", { next_dealer: "loser" }),
                r36_dealer: nextSeats(cut, "dealer", { preset: "cutthroat" }),
                r36_non_dealer: nextSeats(cut, "non_dealer", { preset: "cutthroat" }),
                r36_draw: nextSeats(cut, null, { preset: "cutthroat" }),
            };
        }"""
    )
    assert moved == {
        "r11_box": {"box": 1, "captain": 3, "sitter": 2},
        "r11_captain": {"box": 2, "captain": 3, "sitter": 1},
        "r28_winner": {"dealer": 2, "non_dealer": 1},
        "r28_loser": {"dealer": 1, "non_dealer": 2},
        # R36: the loser sits out, the sitter comes in and deals, the winner is the non-dealer
        "r36_dealer": {"dealer": 3, "non_dealer": 1, "sitter": 2},
        "r36_non_dealer": {"dealer": 3, "non_dealer": 2, "sitter": 1},
        "r36_draw": {"dealer": 1, "non_dealer": 2, "sitter": 3},
    }
    cut = {"dealer": 1, "non_dealer": 2, "sitter": 3}
    assert moved["r36_dealer"] == r36_next(cut, "dealer")
    assert moved["r36_non_dealer"] == r36_next(cut, "non_dealer")


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_each_language_shows_the_cutthroat_screens_with_no_missing_string_and_no_serious_axe_violation(
    phones, api: Api, lang: str
) -> None:
    a, b, c = api.player(f"Ann-ct-{lang}"), api.player(f"Bob-ct-{lang}"), api.player(f"Cy-ct-{lang}")
    page = phones(viewport=PHONE, locale=LOCALES[lang]).open()
    page.wait_for_selector("#start-game")
    checks = []

    def look(screen: str) -> None:
        shot(page, f"cutthroat-{lang}-{screen}")
        text = page.locator("body").inner_text()
        assert MISSING.findall(text) == [], screen
        wide = page.evaluate(
            """(width) => [...document.querySelectorAll('body *')]
                  .filter(e => e instanceof HTMLElement)
                  .filter(e => { const r = e.getBoundingClientRect();
                    return r.right > width + 0.5
                      || (r.left + e.scrollWidth > width + 0.5 && getComputedStyle(e).overflowX === "visible"); })
                  .map(e => e.outerHTML.slice(0, 100))""",
            PHONE["width"],
        )
        assert wide == [], (screen, wide[-3:])
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], screen
        checks.append((screen, serious(page)))

    page.click('.preset-choice button[data-preset="cutthroat"]')
    for i, pid in enumerate((a, b, c)):
        page.select_option(f"#player-{i}", str(pid))
    page.fill("#cut-0", "KS")
    page.fill("#cut-1", "9H")
    page.fill("#cut-2", "4D")
    page.fill("#rule-target_score", "10")
    page.locator(".presets").scroll_into_view_if_needed()
    look("start")
    page.locator("#cut-0").scroll_into_view_if_needed()
    look("start-cut")
    page.click("#start-game")
    expect(page.locator(".scores.two-player tbody tr")).to_have_count(3)
    game_id = int(re.search(r"game=(\d+)", page.url).group(1))  # type: ignore[union-attr]
    expect(page.locator(f'.scores tr[data-player="{c}"] .sits-out')).to_be_visible()
    expect(page.locator(".sitter-line")).to_be_visible()
    look("board")
    counts(page, "dealer", 2, 12)  # 10 of 10: the game at once, Bob and Cy shut out
    page.click("#save")
    wait_hands(page, 1)
    result = page.locator("section.cutthroat-result")
    expect(result).to_be_visible()
    expect(result.locator("li.pair-net")).to_have_count(3)
    shut_out = api.get(f"/games/{game_id}")["result"]["shut_out"]
    assert sorted(shut_out) == sorted([b, c])
    expect(result.locator(".shutout-mark")).to_have_attribute("data-players", " ".join(map(str, shut_out)))
    result.locator(".result-how summary").click()
    expect(result.locator('.explanation li[data-code="shutout_double_two"]')).to_be_visible()
    result.locator("h3").evaluate("e => e.scrollIntoView()")
    look("result")
    result.locator(".nets").scroll_into_view_if_needed()
    look("result-nets")
    result.locator(".explanation").scroll_into_view_if_needed()
    look("result-how")
    open_section(page, "hands")
    page.click("li.hand details.hand-detail summary")
    expect(page.locator("li.hand .sat-out")).to_be_visible()
    look("hands")
    game = api.get(f"/games/{game_id}")
    assert game["winner"] == a
    assert [(screen, found) for screen, found in checks if found] == []


def test_r36_a_leagues_standings_narrowed_to_cutthroat_show_the_hands_each_player_sat_out(phones, api: Api) -> None:
    ann, bob, cy = (api.player(f"{n}-lc") for n in ("Ann", "Bob", "Cy"))
    league = api.post("/leagues", {"name": "Cutthroat club", "members": [ann, bob, cy]}).json()
    roles = {"dealer": ann, "non_dealer": bob, "sitter": cy}
    body = {"players": [ann, bob, cy], "league_id": league["id"], "rules": {"preset": "cutthroat"}, "roles": roles}
    game = api.post("/games", body, league["key"]).json()
    path = f"/games/{game['id']}"
    dealer_20 = {"knocker": "dealer", "knocker_deadwood_count": 2, "defender_deadwood_count": 22}
    api.post(f"{path}/hands", dealer_20, league["key"], **{"If-Match": api.get_etag(path)})  # Cy sits out
    api.post(f"{path}/hands", {"outcome": "draw"}, league["key"], **{"If-Match": api.get_etag(path)})  # Bob does
    page = phones(viewport=PHONE).open(f"league={league['id']}")
    page.wait_for_selector(".standings")
    options = page.locator("#preset-filter option").evaluate_all("os => os.map(o => o.value)")
    assert options == ["", "three_handed", "classic", "straight", "oklahoma", "hollywood", "cutthroat"]
    page.select_option("#preset-filter", "cutthroat")
    page.wait_for_url("**preset=cutthroat**")
    expect(page.locator(".standings thead th").last).to_have_text("Hands sat out")
    for player, sat_out in ((ann, "0"), (bob, "1"), (cy, "1")):
        expect(page.locator(f'.standings tr[data-player="{player}"] td').last).to_have_text(sat_out)
    assert serious(page) == []
    shot(page, "league-cutthroat-en")
