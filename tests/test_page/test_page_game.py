"""One whole game to 100 scored on the page by tapping, a correction and an
undo: what the page shows is what the API holds."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.test_page.conftest import Api
from tests.test_page.table import check_board, declare, open_section, start_game, tap, wait_hands

pytestmark = pytest.mark.slow


def test_r20_a_whole_game_to_100_by_tapping_matches_the_api_at_every_hand(phones, api: Api) -> None:
    ann, bob, cy = (api.player(n) for n in ("Ann-g", "Bob-g", "Cy-g"))
    page = phones().open()
    game_id = start_game(page, [ann, bob, cy], cut=["KS", "7h", "2♦"])  # R9: Ann box, Bob captain, Cy sits out
    game = check_board(page, api, game_id, 0)
    assert game["roles"] == {"box": ann, "captain": bob, "sitter": cy}

    # 1. Cards, nothing declared (R24): Ann's 10 as three sets beat Bob's 20.
    tap(page, "k", "4H 5H 6H 4S 5S 6S 4D 5D 6D KC")
    tap(page, "d", "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")
    expect(page.locator('.picker button[data-card="4H"]')).to_be_disabled()  # taken by the knocker
    tap(page, "x", "QC")
    page.click("#preview")
    expect(page.locator(".ruling .verdict")).to_have_attribute("data-points", "10")
    expect(page.locator(".ruling .verdict")).to_have_attribute("data-outcome", "knock")
    expect(page.locator(".ruling .meld")).to_have_count(5)
    page.click("#save")
    game = check_board(page, api, game_id, 1)
    assert game["scores"] == {str(ann): 10, str(bob): 0, str(cy): 0}
    assert game["roles"] == {"box": ann, "captain": cy, "sitter": bob}  # R11: the box won

    # 2. An illegal knock (R14): shown with why and a legal arrangement; nothing recorded.
    tap(page, "k", "AS 3S 5S 7S 9S JH QH KH 2D 4D")
    tap(page, "d", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C")
    page.click("#save")
    expect(page.locator(".preview .problem")).to_contain_text("R14")
    expect(page.locator(".preview .illegal")).to_contain_text("31")
    assert api.get(f"/games/{game_id}")["hands_played"] == 1
    page.reload()

    # 3. Declared melds and a layoff (R22, R23): equal counts after the layoff is an undercut (R17).
    page.wait_for_selector(".picker")
    tap(page, "k", "5H 6H 7H QS QD QC 2S 3S 4S 6D")
    tap(page, "d", "JH JD JC 8S 9S 10S 8H 4C AD AC")
    page.check("#declare")
    declare(page, "k", "5H 6H 7H")
    declare(page, "k", "QS QD QC")
    declare(page, "k", "2S 3S 4S")
    declare(page, "d", "JH JD JC")
    declare(page, "d", "8S 9S 10S")
    declare(page, "l", "8H", meld=0)
    page.click("#preview")
    verdict = page.locator(".ruling .verdict")
    expect(verdict).to_have_attribute("data-outcome", "undercut")
    expect(verdict).to_have_attribute("data-points", "10")
    expect(page.locator(".ruling .meld").first.locator(".layoff")).to_have_text("8♥")
    page.click("#save")
    game = check_board(page, api, game_id, 2)
    assert game["scores"] == {str(ann): 10, str(bob): 0, str(cy): 10}
    assert game["roles"] == {"box": cy, "captain": bob, "sitter": ann}  # R11: the box lost

    # 4. Counts (R25): the captain knocks with 3 against 20.
    page.click('button[data-mode="counts"]')
    page.click('button[data-knocker="captain"]')
    page.fill("#count-knocker", "3")
    page.fill("#count-defender", "20")
    expect(page.locator(".preview .verdict")).to_have_attribute("data-points", "17")
    page.click("#save")
    game = check_board(page, api, game_id, 3)
    assert game["scores"] == {str(ann): 10, str(bob): 17, str(cy): 10}
    assert game["roles"] == {"box": bob, "captain": ann, "sitter": cy}

    # 5. A draw (R12): nobody scores, the roles stay.
    page.click('button[data-mode="draw"]')
    page.click("#save")
    game = check_board(page, api, game_id, 4)
    assert game["hands_played"] == 4
    assert game["roles"] == {"box": bob, "captain": ann, "sitter": cy}

    # 6. Gin by cards (R18): 69 + 25 takes Bob past 100 (R20).
    page.click('button[data-mode="cards"]')
    tap(page, "k", "AS 2S 3S 4H 5H 6H 7D 8D 9D 10D")
    tap(page, "d", "KS KH QH JC 9C 7C 5C 3C 2H 3H")
    page.click("#preview")
    expect(page.locator(".ruling .verdict")).to_have_attribute("data-outcome", "gin")
    expect(page.locator(".ruling .verdict")).to_have_attribute("data-points", "94")
    page.click("#save")
    game = check_board(page, api, game_id, 5)
    assert game["winner"] == bob and game["status"] == "finished"
    assert game["scores"] == {str(ann): 10, str(bob): 111, str(cy): 10}
    expect(page.locator(".winner")).to_contain_text("Bob-g")
    outcomes = page.locator("li.hand").evaluate_all("els => els.map(e => e.dataset.outcome)")
    assert outcomes == ["gin", "draw", "knock", "undercut", "knock"]


def test_r26_a_correction_and_an_undo_on_the_page_agree_with_the_api(phones, api: Api) -> None:
    ann, bob, cy = (api.player(n) for n in ("Ann-c", "Bob-c", "Cy-c"))
    page = phones().open()
    game_id = start_game(page, [ann, bob, cy], roles={"box": ann, "captain": bob, "sitter": cy})
    for _ in range(2):  # Ann knocks with 5 against 10, twice
        page.click('button[data-mode="counts"]')
        page.fill("#count-knocker", "5")
        page.fill("#count-defender", "10")
        page.click("#save")
        wait_hands(page, _ + 1)
    check_board(page, api, game_id, 2)

    # A correction that would win the game before the last hand is refused, naming it (R26).
    open_section(page, "hands")
    page.click('li.hand[data-number="1"] button:has-text("Correct")')  # back to the record form, on the scores
    expect(page.locator("#record-title")).to_have_text("Correct hand 1")
    page.fill("#count-knocker", "0")
    page.fill("#count-defender", "100")
    page.click("#save")
    expect(page.locator(".status .problem")).to_contain_text("hands 2 would come after the win")
    assert api.get(f"/games/{game_id}")["scores"][str(ann)] == 10

    # Corrected to an undercut (R17): the box lost hand 1, so hand 2 no longer follows by R11,
    # and stands as played (R26), marked in words.
    page.fill("#count-knocker", "7")
    page.fill("#count-defender", "5")
    page.click("#save")
    expect(page.locator('li.hand[data-number="1"]')).to_have_attribute("data-outcome", "undercut")
    expect(page.locator('li.hand[data-number="1"]')).to_have_attribute("data-points", "12")
    game = check_board(page, api, game_id, 2)
    assert game["scores"] == {str(ann): 5, str(bob): 12, str(cy): 0}
    assert game["out_of_turn"] == [2]
    expect(page.locator('li.hand[data-number="2"] .mark').first).to_contain_text("Seated as played")

    open_section(page, "hands")
    undo = page.locator('li.hand[data-number="2"] button.danger')
    undo.click()
    expect(undo).to_have_text("Tap again to undo hand 2")  # one slip of the thumb undoes nothing
    assert api.get(f"/games/{game_id}")["hands_played"] == 2
    undo.click()
    wait_hands(page, 1)
    game = check_board(page, api, game_id, 1)
    assert game["scores"] == {str(ann): 0, str(bob): 12, str(cy): 0}
    assert game["roles"] == {"box": bob, "captain": cy, "sitter": ann}  # R11 after the corrected hand 1
    assert [h["number"] for h in api.get(f"/games/{game_id}/hands")["items"]] == [1]


def test_r3_cards_typed_in_any_spelling_fill_the_picker_and_are_judged_as_tapped(phones, api: Api) -> None:
    ids = [api.player(f"{n}-typed") for n in ("Ann", "Bob", "Cy")]
    page = phones().open()
    start_game(page, ids, roles={"box": ids[0], "captain": ids[1], "sitter": ids[2]})
    page.click(".typing summary")
    page.fill("#typed-k", "4h 5♥️ 6H, 4s 5S 6♠ 4d 5D 6♦ kc")
    page.click(".typed:has(#typed-k) button")
    page.fill("#typed-d", "AH 2h 3H 7H 8H 9H 2S 3S 7S 8S")
    page.click(".typed:has(#typed-d) button")
    page.fill("#typed-x", "qc")
    page.click(".typed:has(#typed-x) button")
    expect(page.locator('.picker button[data-card="5H"]')).to_have_class(re.compile("own-k"))
    expect(page.locator('.picker button[data-card="QC"]')).to_have_class(re.compile("own-x"))
    page.click("#preview")
    expect(page.locator(".ruling .verdict")).to_have_attribute("data-points", "10")
    page.fill("#typed-d", "ZZ 2H")
    page.click(".typed:has(#typed-d) button")
    expect(page.locator(".status")).to_contain_text("Not cards: ZZ")


def test_r14_can_i_knock_says_no_with_the_rule_and_yes_with_the_best_discard(phones) -> None:
    phone = phones()
    page = phone.open("knock")
    page.wait_for_selector("#ask-knock")
    for card in ["AS", "3S", "5S", "7S", "9S", "JH", "QH", "KH", "2D", "4D"]:
        page.click(f'.picker button[data-card="{card}"]')
    page.click("#ask-knock")
    expect(page.locator(".verdict")).to_have_attribute("data-valid", "false")
    expect(page.locator(".verdict-box")).to_contain_text("(R14)")
    page.click('button:has-text("Clear")')
    for card in ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC", "QC"]:
        page.click(f'.picker button[data-card="{card}"]')
    page.click("#ask-knock")
    expect(page.locator(".verdict")).to_have_attribute("data-valid", "true")
    expect(page.locator(".verdict-box")).to_contain_text("Discard: Q♣")
