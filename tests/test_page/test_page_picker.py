"""The card picker at 360x740, by tapping: what is still to tap, the clear
button and whose each card is, in every mode; "Can I knock?" on the same
picker."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.test_page.conftest import Api, shot
from tests.test_page.table import declare, start_game, tap, taps
from tests.test_page.test_page_screens import LOCALES, fits_the_phone, no_missing_or_empty_string, serious

pytestmark = pytest.mark.slow

TALL = {"width": 360, "height": 740}
KNOCKER = {"background": "rgb(215, 230, 247)", "border": "solid", "mark": "▲"}
DEFENDER = {"background": "rgb(251, 227, 214)", "border": "double", "mark": "■"}
DISCARD = {"background": "rgb(232, 232, 232)", "border": "dashed", "mark": "✕"}


def looks(page: Page, card: str) -> dict[str, str]:
    """A picker card's colour, border pattern and corner mark, as drawn."""
    return page.evaluate(
        """(card) => {
            const b = document.querySelector(`.picker button[data-card="${card}"]`);
            const s = getComputedStyle(b);
            const mark = b.querySelector('.mark:not(.mark-meld)');
            return {background: s.backgroundColor, border: s.borderTopStyle, mark: mark ? mark.textContent : ''};
        }""",
        card,
    )


def game_page(phones, api: Api, tag: str, locale: str = "en-GB") -> Page:
    ids = [api.player(f"{n}-{tag}") for n in ("Ann", "Bob", "Cy")]
    page = phones(locale=locale, viewport=TALL).open()
    start_game(page, ids, roles={"box": ids[0], "captain": ids[1], "sitter": ids[2]})
    return page


def test_r21_the_picker_says_what_is_left_to_tap_and_clears_the_target_it_names(phones, api: Api) -> None:
    page = game_page(phones, api, "pick-left")
    remaining, clear = page.locator(".picker-remaining"), page.locator(".picker-clear")
    expect(remaining).to_have_text("10 more for the knocker")
    expect(clear).to_have_text("Clear the knocker's cards")
    expect(clear).to_be_disabled()
    tap(page, "k", "7H 8H 9H 10H JH 8S 8D")
    expect(remaining).to_have_text("3 more for the knocker")
    page.click('.picker button[data-card="8C"]')
    page.click('.picker button[data-card="AS"]')
    expect(remaining).to_have_text("1 more for the knocker")
    page.click('.picker button[data-card="2C"]')  # the 10th: on to the defender
    expect(page.locator('.targets button[data-target="d"]')).to_have_attribute("aria-pressed", "true")
    expect(remaining).to_have_text("10 more for the defender")
    expect(clear).to_have_text("Clear the defender's cards")
    taps(page, "QH 5S 5D 2H 3H 4D 9C 10C KS")
    expect(remaining).to_have_text("1 more for the defender")
    page.click('.picker button[data-card="KD"]')
    expect(remaining).to_have_text("The discard: tap it, or leave it out")  # R21: it may be left out
    expect(clear).to_have_text("Clear the discard")
    page.click('.picker button[data-card="QC"]')
    expect(remaining).to_have_text("The discard is in")

    # Tapping the discard, both hands keep their colour, pattern and mark (and cannot be tapped).
    assert looks(page, "7H") == KNOCKER
    assert looks(page, "QH") == DEFENDER
    assert looks(page, "QC") == DISCARD
    assert looks(page, "JS") == {"background": "rgb(255, 255, 255)", "border": "solid", "mark": ""}
    expect(page.locator('.picker button[data-card="7H"]')).to_be_disabled()
    expect(page.locator('.picker button[data-card="7H"]')).to_have_attribute("aria-label", "7♥ (knocker)")
    expect(page.locator(".picker-legend li")).to_have_text(["▲knocker", "■defender", "✕discard"])
    fits_the_phone(page)
    assert serious(page) == []

    # Declaring melds (R22): still each hand's colour; the count is of the meld being tapped.
    page.check("#declare")
    expect(remaining).to_have_text("3 more for a meld")
    expect(clear).to_have_text("Clear the tapped cards")
    page.click('.picker button[data-card="7H"]')
    page.click('.picker button[data-card="8H"]')
    expect(remaining).to_have_text("1 more for a meld")
    page.click(".picker-clear")
    expect(page.locator('.picker button[aria-pressed="true"]')).to_have_count(0)
    taps(page, "7H 8H 9H 10H JH")
    expect(remaining).to_have_text("Enough for a meld: add it")
    page.click(".declare button.add-meld")
    assert looks(page, "7H") == KNOCKER
    assert looks(page, "QH") == DEFENDER  # not the knocker's: cannot be tapped for his meld
    expect(page.locator('.picker button[data-card="QH"]')).to_be_disabled()
    expect(page.locator('.picker button[data-card="9H"]')).to_have_attribute(
        "aria-label", "9♥ (knocker, in a declared meld or layoff)"
    )
    expect(page.locator('.picker button[data-card="9H"] .mark-meld')).to_have_text("✓")
    expect(page.locator(".picker-legend li")).to_have_text(
        ["▲knocker", "■defender", "✕discard", "✓in a declared meld or layoff"]
    )
    page.click('.declare button[data-group="d"]')
    assert looks(page, "7H") == KNOCKER and looks(page, "QH") == DEFENDER and looks(page, "QC") == DISCARD
    fits_the_phone(page)
    assert serious(page) == []

    # Clearing the knocker's cards clears them alone, and the melds made of them (R22).
    page.uncheck("#declare")
    page.click('.targets button[data-target="k"]')
    page.click(".picker-clear")
    expect(page.locator(".picker .own-k")).to_have_count(0)
    expect(page.locator(".picker .own-d")).to_have_count(10)
    expect(page.locator(".picker .own-x")).to_have_count(1)
    expect(remaining).to_have_text("10 more for the knocker")
    page.check("#declare")
    expect(page.locator("ul.declared")).to_have_count(0)


def test_r14_can_i_knock_counts_to_ten_and_clears_every_card_and_the_verdict(phones) -> None:
    page = phones(viewport=TALL).open("knock")
    page.wait_for_selector("#ask-knock")
    remaining, clear = page.locator(".picker-remaining"), page.locator(".picker-clear")
    expect(remaining).to_have_text("10 more for 10 cards")
    expect(clear).to_have_text("Clear all cards")
    expect(clear).to_be_disabled()
    taps(page, "AS 2S 3S 4H 5H 6H 7D")
    expect(remaining).to_have_text("3 more for 10 cards")
    expect(page.locator(".count")).to_have_text("7 cards chosen")
    taps(page, "8D 9D KC")
    expect(remaining).to_be_hidden()  # 10: enough (11 before the discard)
    page.click("#ask-knock")
    expect(page.locator(".verdict")).to_have_attribute("data-valid", "true")
    page.click(".picker-clear")
    expect(page.locator(".count")).to_have_text("0 cards chosen")
    expect(page.locator('.picker button[aria-pressed="true"]')).to_have_count(0)
    expect(page.locator(".verdict-box")).to_be_empty()
    fits_the_phone(page)
    assert serious(page) == []


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_picker_in_each_language_has_every_string_and_fits_the_phone(phones, api: Api, lang: str) -> None:
    page = game_page(phones, api, f"pick-{lang}", locale=LOCALES[lang])
    tap(page, "k", "7H 8H 9H 10H JH 8S 8D 8C AS 2C")
    tap(page, "d", "QH 5S 5D 2H 3H 4D 9C 10C")
    tap(page, "x", "QC")
    page.check("#declare")
    taps(page, "7H 8H 9H 10H JH")
    page.click(".declare button.add-meld")
    page.click('.picker button[data-card="8S"]')
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    assert serious(page) == []
    page.evaluate("document.querySelector('.targets').scrollIntoView({block: 'start'})")
    shot(page, f"{lang}-7-picker")


KNOCKER_CARDS = "8H 9H 10H JH QH 8S 8D 8C AS 2C"  # 3 deadwood however he spreads the 8s
DEFENDER_CARDS = "7H 5S 5D 2H 3H 4D 9C 10C KS KD"  # 65 deadwood; 7H fits 8H-QH alone


def test_r24_the_preview_hints_that_the_declared_melds_score_7_less_than_the_referees_with_equal_deadwood(
    phones, api: Api
) -> None:
    page = game_page(phones, api, "pick-hint")
    tap(page, "k", KNOCKER_CARDS)
    tap(page, "d", DEFENDER_CARDS)
    page.check("#declare")
    declare(page, "k", "8H 9H 10H JH QH")  # R22: the run keeps the 8H, so the defender lays off 7H (R15)
    declare(page, "k", "8S 8D 8C")
    page.click("#preview")
    verdict = page.locator(".ruling .verdict")
    expect(verdict).to_have_attribute("data-points", "55")  # R16: 58 - 3, after the layoff of 7H
    expect(verdict).to_contain_text("Ann-pick-hint scores 55")
    hint = page.locator(".preview .arranged-better")
    expect(hint).to_have_attribute("data-points", "7")  # R24: 8S 8H 8D 8C and 9H-QH leave no layoff: 65 - 3 = 62
    expect(hint.locator("p")).to_have_text(
        "Hint: the knocker's declared melds score 7 less than the referee's arrangement with the same deadwood (3):"
    )
    expect(hint.locator(".meld")).to_have_text(["8♠8♥8♦8♣", "9♥10♥J♥Q♥"])
    fits_the_phone(page)
    assert serious(page) == []
    hint.scroll_into_view_if_needed()
    shot(page, "en-8-preview-hint")

    # The referee's own arrangement declared: the same 62, no hint.
    page.click(".declared li:nth-child(2) button")
    page.click(".declared li:nth-child(1) button")
    declare(page, "k", "8S 8H 8D 8C")
    declare(page, "k", "9H 10H JH QH")
    page.click("#preview")
    expect(verdict).to_have_attribute("data-points", "62")
    expect(hint).to_have_count(0)


def test_r22_no_hint_when_the_declared_melds_leave_more_deadwood_than_the_referees(phones, api: Api) -> None:
    page = game_page(phones, api, "pick-nohint")
    tap(page, "k", KNOCKER_CARDS)
    tap(page, "d", DEFENDER_CARDS)
    page.check("#declare")
    declare(page, "k", "8H 9H 10H JH QH")  # the 8s left as deadwood: 27, an illegal knock (R14)
    page.click("#preview")
    expect(page.locator(".preview .problem")).to_contain_text("R14")
    expect(page.locator(".preview .arranged-better")).to_have_count(0)
    declare(page, "k", "8S 8D 8C")
    page.uncheck("#declare")  # nothing declared: the referee arranges (R24), nothing to compare
    page.click("#preview")
    expect(page.locator(".ruling .verdict")).to_have_attribute("data-points", "62")
    expect(page.locator(".preview .arranged-better")).to_have_count(0)
