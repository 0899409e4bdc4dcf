"""The offline queue: hands queued with no signal move the seats on (R11), are
sent with the seats they were played in, and are credited to the player who
really knocked; a page reloaded with no signal shows the game as last seen."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.test_page.conftest import Api
from tests.test_page.table import by_counts, check_board, recorded, start_game, tap, wait_hands

pytestmark = pytest.mark.slow

VIEW = {"width": 360, "height": 740}


def table(api: Api, tag: str, names: tuple[str, str, str]) -> tuple[list[int], dict[str, str]]:
    ids = [api.player(f"{n}-{tag}") for n in names]
    return ids, {f"{n}": f"{n}-{tag}" for n in names}


def seats(box: int, captain: int, sitter: int) -> dict[str, int]:
    return {"box": box, "captain": captain, "sitter": sitter}


def test_r11_hands_queued_offline_move_the_seats_on_and_each_is_credited_to_who_really_knocked(
    phones, api: Api
) -> None:
    (ann, tom, cy), n = table(api, "moved", ("Ann", "Tom", "Cy"))
    phone = phones(viewport=VIEW)
    page = phone.open()
    game_id = start_game(page, [ann, tom, cy], roles=seats(ann, tom, cy))
    knocked = page.locator(".knocker button")
    queued = page.locator(".queue li.queued")
    expect(knocked).to_have_text([f"Box ({n['Ann']}) knocked", f"Captain ({n['Tom']}) knocked"])

    phone.context.set_offline(True)
    by_counts(page, "captain", 2, 12)  # Tom knocks and wins 10 (R16)
    page.click("#save")
    expect(queued).to_have_count(1)
    # R11, the box lost: Tom goes into the box, Cy becomes captain, Ann sits out
    expect(knocked).to_have_text([f"Box ({n['Tom']}) knocked", f"Captain ({n['Cy']}) knocked"])
    expect(page.locator("#record-title")).to_have_text("Record hand 2")
    by_counts(page, "box", 3, 20)  # Tom's next knock: he wins 17
    page.click("#save")
    expect(queued).to_have_text(
        [
            f"Queued, sent when the connection returns: {n['Tom']} (captain) knocked, counts 2 and 12",
            f"Queued, sent when the connection returns: {n['Tom']} (box) knocked, counts 3 and 20",
        ]
    )
    # R11, the box won: Tom stays in the box, captain and sitter swap
    expect(knocked).to_have_text([f"Box ({n['Tom']}) knocked", f"Captain ({n['Ann']}) knocked"])
    expect(page.locator("#record-title")).to_have_text("Record hand 3")
    hand1, hand2 = (ann, tom, cy), (tom, cy, ann)
    bodies = [q["body"] for q in page.evaluate("JSON.parse(localStorage.getItem('ginref.queue'))")]
    assert bodies == [
        {"knocker": "captain", "knocker_deadwood_count": 2, "defender_deadwood_count": 12, "seating": seats(*hand1)},
        {"knocker": "box", "knocker_deadwood_count": 3, "defender_deadwood_count": 20, "seating": seats(*hand2)},
    ]
    assert api.get(f"/games/{game_id}")["hands_played"] == 0

    phone.context.set_offline(False)
    game = check_board(page, api, game_id, 2)
    expect(queued).to_have_count(0)
    assert recorded(api, game_id) == [
        {"seating": seats(ann, tom, cy), "knocker": tom, "scorer": tom, "points": 10},
        {"seating": seats(tom, cy, ann), "knocker": tom, "scorer": tom, "points": 17},
    ]
    assert game["scores"] == {str(ann): 0, str(tom): 27, str(cy): 0}
    assert game["roles"] == seats(tom, ann, cy)
    expect(knocked).to_have_text([f"Box ({n['Tom']}) knocked", f"Captain ({n['Ann']}) knocked"])


def test_r11_a_refused_hand_is_sent_again_by_the_player_who_really_knocked_in_the_seats_as_they_are_now(
    phones, api: Api
) -> None:
    (ann, bob, cy), n = table(api, "refused", ("Ann", "Bob", "Cy"))
    phone = phones(viewport=VIEW)
    page = phone.open()
    game_id = start_game(page, [ann, bob, cy], roles=seats(ann, bob, cy))
    key = page.locator(".scorer-link").get_attribute("href").split("key=")[1]  # type: ignore[union-attr]
    phone.context.set_offline(True)
    by_counts(page, "box", 3, 9)
    page.click("#save")
    expect(page.locator(".queue li.queued")).to_have_count(1)
    # Meanwhile another phone records a hand that Bob (captain) wins: R11 puts him in the box.
    etag = api.get_etag(f"/games/{game_id}")
    body = {"knocker": "captain", "knocker_deadwood_count": 2, "defender_deadwood_count": 30}
    api.post(f"/games/{game_id}/hands", body, key=key, **{"If-Match": etag})

    phone.context.set_offline(False)
    refused = page.locator(".queue li.queued.refused")
    expect(refused).to_contain_text(
        f"Refused by the server, kept here: {n['Ann']} (box) knocked, counts 3 and 9", timeout=8000
    )
    expect(refused.locator(".problem-words")).to_have_text("Another phone recorded first: the game has been reloaded.")
    wait_hands(page, 1)
    refused.locator("button.retry").click()
    expect(refused.locator(".really-knocked > p").first).to_have_text("Who really knocked? The seats as they are now:")
    choices = refused.locator(".really-knocked button[data-knocker]")
    expect(choices).to_have_text([f"{n['Bob']} (box) knocked", f"{n['Cy']} (captain) knocked"])
    choices.nth(1).click()  # it was Cy's knock (he is captain now)

    game = check_board(page, api, game_id, 2)
    expect(page.locator(".queue li.queued")).to_have_count(0)
    assert recorded(api, game_id) == [
        {"seating": seats(ann, bob, cy), "knocker": bob, "scorer": bob, "points": 28},
        {"seating": seats(bob, cy, ann), "knocker": cy, "scorer": cy, "points": 6},
    ]
    assert game["scores"] == {str(ann): 0, str(bob): 28, str(cy): 6}


def test_r11_a_hand_by_cards_queued_unjudged_asks_who_won_and_a_wrong_answer_is_refused_not_credited(
    phones, api: Api
) -> None:
    (ann, bob, cy), n = table(api, "unjudged", ("Ann", "Bob", "Cy"))
    phone = phones(viewport=VIEW)
    page = phone.open()
    game_id = start_game(page, [ann, bob, cy], roles=seats(ann, bob, cy))
    phone.context.set_offline(True)
    # Ann (box) knocks with 10 deadwood (KC); Bob keeps 25 (QH QD 2C 3C): Ann scores 15 (R16).
    tap(page, "k", "AS 2S 3S 4H 5H 6H 7D 8D 9D KC")
    tap(page, "d", "JH JD JC 8S 9S 10S QH QD 2C 3C")
    page.click("#save")
    expect(page.locator(".queue li.queued")).to_have_text(
        [f"Queued, sent when the connection returns: {n['Ann']} (box) knocked, by cards"]
    )
    # The referee has not judged it: the page does not guess the seats (R11), it asks.
    expect(page.locator(".record .seats-unknown")).to_have_text(
        "Hand 1 was entered by cards without a connection: the referee judges it when it is sent, "
        "so this phone does not know who sits where now."
    )
    expect(page.locator(".record .knocker")).to_have_count(0)
    won = page.locator(".record .who-won button")
    expect(won).to_have_text([f"{n['Ann']} (box) won", f"{n['Bob']} (captain) won"])
    won.nth(1).click()  # the table answers wrongly
    expect(page.locator(".knocker button")).to_have_text([f"Box ({n['Bob']}) knocked", f"Captain ({n['Cy']}) knocked"])
    by_counts(page, "box", 4, 14)
    page.click("#save")
    expect(page.locator(".queue li.queued")).to_have_count(2)

    phone.context.set_offline(False)
    refused = page.locator(".queue li.queued.refused")
    expect(refused.locator(".problem-words")).to_have_text(
        "The seats have moved (R11): another hand was recorded meanwhile, so nothing was saved.", timeout=8000
    )
    wait_hands(page, 1)
    assert recorded(api, game_id) == [{"seating": seats(ann, bob, cy), "knocker": ann, "scorer": ann, "points": 15}]
    refused.locator("button.retry").click()
    choices = refused.locator(".really-knocked button[data-knocker]")
    expect(choices).to_have_text([f"{n['Ann']} (box) knocked", f"{n['Cy']} (captain) knocked"])
    choices.nth(0).click()
    game = check_board(page, api, game_id, 2)
    assert recorded(api, game_id)[1] == {"seating": seats(ann, cy, bob), "knocker": ann, "scorer": ann, "points": 10}
    assert game["scores"] == {str(ann): 25, str(bob): 0, str(cy): 0}


def test_a_page_reloaded_with_no_signal_shows_the_game_as_last_seen_and_queues_a_hand_recorded_once_back(
    browser: Any, live: Any, api: Api
) -> None:
    (ann, bob, cy), n = table(api, "reload", ("Ann", "Bob", "Cy"))
    context = browser.new_context(viewport=VIEW, timezone_id="UTC", locale="en-US")
    try:
        page = context.new_page()
        knocked = page.locator(".knocker button")
        page.goto(live.base + "/")
        game_id = start_game(page, [ann, bob, cy], roles=seats(ann, bob, cy))
        by_counts(page, "box", 5, 25)  # Ann wins 20 and stays in the box (R11)
        page.click("#save")
        wait_hands(page, 1)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now under the worker, which keeps every file of the page
        expect(knocked).to_have_text([f"Box ({n['Ann']}) knocked", f"Captain ({n['Cy']}) knocked"])

        context.set_offline(True)
        page.reload()
        seen = page.evaluate(f"JSON.parse(localStorage.getItem('ginref.seen.game.{game_id}')).seenAt")
        at = datetime.fromisoformat(seen.replace("Z", "+00:00")).astimezone(UTC)
        expect(page.locator(".status .offline-copy")).to_have_text(
            f"Offline: as last seen at {at:%H:%M}. Hands saved now wait on this phone."
        )
        expect(page.locator(f'.scores tr[data-player="{ann}"] .points')).to_have_text("20")
        wait_hands(page, 1)
        expect(knocked).to_have_text([f"Box ({n['Ann']}) knocked", f"Captain ({n['Cy']}) knocked"])
        by_counts(page, "captain", 1, 11)  # Cy wins 10
        page.click("#save")
        expect(page.locator(".queue li.queued")).to_have_text(
            [f"Queued, sent when the connection returns: {n['Cy']} (captain) knocked, counts 1 and 11"]
        )
        assert api.get(f"/games/{game_id}")["hands_played"] == 1

        context.set_offline(False)
        expect(page.locator("li.hand")).to_have_count(2, timeout=8000)
        expect(page.locator(".queue li.queued")).to_have_count(0)
        expect(page.locator(".status")).to_be_hidden()
        assert recorded(api, game_id) == [
            {"seating": seats(ann, bob, cy), "knocker": ann, "scorer": ann, "points": 20},
            {"seating": seats(ann, cy, bob), "knocker": cy, "scorer": cy, "points": 10},
        ]
        game = api.get(f"/games/{game_id}")
        assert game["scores"] == {str(ann): 20, str(bob): 0, str(cy): 10}
        assert game["roles"] == seats(cy, bob, ann)
    finally:
        context.close()


def test_r11_after_a_save_the_confirmation_the_new_roles_and_the_scores_are_on_screen_without_scrolling(
    phones, api: Api
) -> None:
    (ann, bob, cy), n = table(api, "onscreen", ("Ann", "Bob", "Cy"))
    phone = phones(viewport=VIEW)
    page = phone.open()
    game_id = start_game(page, [ann, bob, cy], roles=seats(ann, bob, cy))
    by_counts(page, "captain", 4, 24)  # Bob wins 20: he goes into the box (R11)
    page.locator("#save").scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0  # the save button is below the first screen
    page.click("#save")
    check_board(page, api, game_id, 1)
    expect(page.locator(".status")).to_have_text("Hand 1 recorded.")
    expect(page.locator(f'.scores tr[data-player="{bob}"] .points')).to_have_text("20")
    expect(page.locator(f'.scores tr[data-player="{bob}"]')).to_have_attribute("data-role", "box")
    for selector in (".status", ".scores thead", *(f'.scores tr[data-player="{p}"]' for p in (ann, bob, cy))):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEW["height"], (selector, box)
