"""What a score-pad user keeps on the page: a hand's detail, disputes,
a rematch, leagues made on the page, the share block, the games on this
phone, and every message in the page's own words."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import requests
from playwright.sync_api import Locator, Page, expect

from tests.test_page.conftest import Api, shot
from tests.test_page.table import open_section
from tests.test_page.test_page_screens import LOCALES, fits_the_phone, no_missing_or_empty_string, serious

pytestmark = pytest.mark.slow

KNOCKER = "4H 5H 6H 4S 5S 6S 4D 5D 6D KC"  # three sets and the king: 10 deadwood (R7)
DEFENDER = "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"  # two runs, 2 3 7 8 of spades: 20 deadwood
DEFENDER_AS_SAID = "AH 2H 3H 7H 8H 9H 2S 3S 7S 9S"  # the 9 of spades for the 8: 21 deadwood
VIEWPORT = {"width": 360, "height": 740}


def game_with_a_hand(api: Api, tag: str) -> tuple[int, str, list[int]]:
    """Ann box, Bob captain, Cy sitter; hand 1 by cards: Ann knocks with 10 against 20 (R16)."""
    ids = [api.player(f"{n}-{tag}") for n in ("Ann", "Bob", "Cy")]
    created = api.post("/games", {"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}}).json()
    body = {
        "knocker": "box",
        "knocker_hand": {"cards": KNOCKER.split()},
        "defender_hand": {"cards": DEFENDER.split()},
    }
    etag = api.get_etag(f"/games/{created['id']}")
    api.post(f"/games/{created['id']}/hands", body, key=created["key"], **{"If-Match": etag})
    return created["id"], created["key"], ids


def tap_in(form: Locator, target: str, cards: str) -> None:
    """Tap ``cards`` on the picker inside ``form``, for the knocker (k), the defender (d) or the discard (x)."""
    form.locator(f'.targets button[data-target="{target}"]').click()
    for card in cards.split():
        form.locator(f'.picker button[data-card="{card}"]').click()


def rows(dispute: Locator) -> list[list[str]]:
    table = dispute.locator("table.rulings tbody tr")
    return [[c.strip() for c in table.nth(i).locator("th, td").all_inner_texts()] for i in range(table.count())]


def test_r16_a_recorded_hand_opens_to_its_cards_spreads_and_explanation(phones, api: Api) -> None:
    game_id, key, _ = game_with_a_hand(api, "detail")
    page = phones(viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    open_section(page, "hands")
    detail = page.locator('li.hand[data-number="1"] .hand-detail')
    detail.locator("summary").click()
    expect(detail.locator(".explanation li")).to_have_count(4)
    assert " ".join(detail.locator(".knocker-cards .card").all_inner_texts()) == "4♥ 5♥ 6♥ 4♠ 5♠ 6♠ 4♦ 5♦ 6♦ K♣"
    assert " ".join(detail.locator(".defender-cards .card").all_inner_texts()) == "A♥ 2♥ 3♥ 7♥ 8♥ 9♥ 2♠ 3♠ 7♠ 8♠"
    expect(detail.locator(".knocker-deadwood")).to_have_text("Deadwood: 10")
    expect(detail.locator(".defender-deadwood")).to_have_text("Deadwood: 20")
    expect(detail.locator(".spread .meld")).to_have_count(5)  # Ann's three sets, Bob's two runs
    assert detail.locator(".explanation li").all_inner_texts() == [
        "The knocker melds [4♠ 4♥ 4♦] [5♠ 5♥ 5♦] [6♠ 6♥ 6♦] and keeps K♣: 10 deadwood (R7)",
        "The knock stands: 10 deadwood, within the limit of 10 (R14)",
        "The defender melds [A♥ 2♥ 3♥] [7♥ 8♥ 9♥] and keeps 2♠ 3♠ 7♠ 8♠: 20 deadwood (R16)",
        "Knock: the knocker's 10 is lower than the defender's 20, so the knocker scores 20 − 10 = 10 (R16)",
    ]
    expect(detail.locator(".verdict")).to_have_text("Knock · Ann-detail scores 10")


def test_r26_a_dispute_with_the_cards_as_said_shows_both_rulings_and_upheld_corrects_the_hand(phones, api: Api) -> None:
    game_id, key, (ann, bob, cy) = game_with_a_hand(api, "dispute")
    page = phones(viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    open_section(page, "hands")
    expect(page.locator(".disputes-part")).to_be_hidden()  # no dispute yet
    page.click('li.hand[data-number="1"] .dispute-hand')
    form = page.locator(".dispute-form")
    expect(form.locator("h3")).to_have_text("Dispute hand 1")
    assert form.locator("#dispute-by option").all_inner_texts() == [
        "Ann-dispute (Box)",
        "Bob-dispute (Captain)",
        "Cy-dispute (Sitter)",
    ]
    page.click("#dispute-send")
    expect(page.locator(".dispute-status .problem")).to_have_text("Say what is disputed.")
    page.select_option("#dispute-by", "captain")
    page.fill("#dispute-claim", "I held the nine of spades, not the eight.")
    page.check("#dispute-with-cards")
    tap_in(form, "k", KNOCKER + " " + DEFENDER_AS_SAID)  # after 10 cards the picker moves on to the defender
    expect(form.locator('.targets button[data-target="d"]')).to_have_text("Defender Bob-dispute: 10/10")
    page.click("#dispute-send")

    dispute = page.locator("li.dispute")
    expect(dispute).to_have_attribute("data-status", "open")
    expect(page.locator(".dispute-status")).to_have_text("Bob-dispute disputes hand 1.")
    expect(dispute.locator(".dispute-by")).to_have_text("Bob-dispute (Captain) says:")
    expect(dispute.locator(".claim")).to_have_text("I held the nine of spades, not the eight.")
    assert rows(dispute) == [
        ["Outcome", "Knock", "Knock"],
        ["Scores", "Ann-dispute", "Ann-dispute"],
        ["Points", "10", "11"],
        ["Knocker's deadwood", "10", "10"],
        ["Defender's deadwood", "20", "21"],
    ]
    assert dispute.locator("tr.differs").evaluate_all("rs => rs.map(r => r.dataset.field)") == [
        "points",
        "defender_deadwood",
    ]
    expect(dispute.locator(".differs-line")).to_have_text("The referee's ruling differs from the one recorded.")
    [listed] = api.get(f"/games/{game_id}/disputes")["items"]
    assert (listed["by"], listed["status"], listed["ruling"]["points"]) == ("captain", "open", 11)

    page.fill(f"#reason-{listed['id']}", "Bob showed the nine.")
    page.click("li.dispute .uphold")
    expect(page.locator(".dispute-status")).to_have_text(
        "Dispute upheld: hand 1 is corrected with the referee's ruling (R26)."
    )
    expect(page.locator("li.dispute")).to_have_attribute("data-status", "upheld")
    expect(page.locator("li.dispute .dispute-reason-shown")).to_have_text("Reason: Bob showed the nine.")
    expect(page.locator('li.hand[data-number="1"]')).to_have_attribute("data-points", "11")
    open_section(page, "scores")
    expect(page.locator(f'.scores tr[data-player="{ann}"] .points')).to_have_text("11")
    assert api.get(f"/games/{game_id}")["scores"] == {str(ann): 11, str(bob): 0, str(cy): 0}
    expect(page.locator("li.dispute .resolve")).to_have_count(0)  # resolved: no more buttons


def test_a_dispute_rejected_leaves_the_hand_and_a_stale_phones_uphold_is_told_in_words(phones, api: Api) -> None:
    game_id, key, (ann, _, _) = game_with_a_hand(api, "reject")
    first = phones(viewport=VIEWPORT)
    page = first.open(f"game={game_id}&key={key}")
    open_section(page, "hands")
    page.click('li.hand[data-number="1"] .dispute-hand')
    page.select_option("#dispute-by", "sitter")  # the sitter may advise (R8)
    page.fill("#dispute-claim", "Count again.")
    page.click("#dispute-send")
    expect(page.locator("li.dispute")).to_have_attribute("data-status", "open")
    expect(page.locator("li.dispute .differs-line")).to_have_text("The referee's ruling is the one recorded.")
    expect(page.locator("li.dispute .dispute-by")).to_have_text("Cy-reject (Sitter) says:")

    # the first phone loses its reads (a tunnel): it does not see the other phone's answer
    page.route("**/api/v1/games/**", lambda route: route.abort() if route.request.method == "GET" else route.fallback())
    other = phones(viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    open_section(other, "hands")
    other.click("li.dispute .reject")
    expect(other.locator(".dispute-status")).to_have_text("Dispute rejected: hand 1 stands as recorded.")
    expect(other.locator("li.dispute")).to_have_attribute("data-status", "rejected")

    page.click("li.dispute .uphold")
    problem = page.locator(".dispute-status .problem")
    expect(problem.locator(".problem-words")).to_have_text("This cannot be done in the game as it is now.")
    expect(problem.locator("p").nth(1)).to_have_text("Another phone has already resolved this dispute of hand 1.")
    expect(problem.locator(".problem-detail")).to_be_hidden()  # the API's English, behind "Details"
    problem.locator("summary").click()
    expect(problem.locator(".problem-detail")).to_be_visible()
    page.unroute("**/api/v1/games/**")
    expect(page.locator("li.dispute")).to_have_attribute("data-status", "rejected", timeout=8000)
    assert api.get(f"/games/{game_id}")["scores"][str(ann)] == 10
    assert [d["status"] for d in api.get(f"/games/{game_id}/disputes")["items"]] == ["rejected"]


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_detail_and_dispute_screens_fit_a_phone_in_each_language_and_axe_finds_nothing_serious(
    phones, api: Api, lang: str
) -> None:
    game_id, key, _ = game_with_a_hand(api, f"shots-{lang}")
    page = phones(locale=LOCALES[lang], viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    screens: dict[str, list[Any]] = {}
    open_section(page, "hands")
    page.locator(".chart").scroll_into_view_if_needed()
    shot(page, f"{lang}-features-0-chart")
    detail = page.locator('li.hand[data-number="1"] .hand-detail')
    detail.locator("summary").click()
    expect(detail.locator(".explanation li")).to_have_count(4)
    detail.scroll_into_view_if_needed()
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["detail"] = serious(page)
    shot(page, f"{lang}-features-1-hand-detail")

    page.click('li.hand[data-number="1"] .dispute-hand')
    page.check("#dispute-with-cards")
    tap_in(page.locator(".dispute-form"), "k", KNOCKER)
    tap_in(page.locator(".dispute-form"), "d", DEFENDER_AS_SAID)
    page.fill("#dispute-claim", "9♠")
    page.locator(".dispute-form h3").scroll_into_view_if_needed()
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["dispute-form"] = serious(page)
    shot(page, f"{lang}-features-2-dispute-form")

    page.click("#dispute-send")
    expect(page.locator("li.dispute")).to_have_attribute("data-status", "open")
    page.locator("li.dispute").scroll_into_view_if_needed()
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["dispute"] = serious(page)
    shot(page, f"{lang}-features-3-dispute")
    assert screens == {name: [] for name in screens}


def finished_game(api: Api, tag: str, league: bool = False) -> tuple[int, str, list[int], int | None]:
    """Game to 10 (R20): Ann (box) knocks with 4 against 19 and wins it with 15 (R16)."""
    ids = [api.player(f"{n}-{tag}") for n in ("Ann", "Bob", "Cy")]
    body: dict[str, Any] = {
        "players": ids,
        "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]},
        "rules": {"target_score": 10, "knock_limit": 7, "gin_bonus": 30, "undercut_bonus": 15},
    }
    league_id, key = None, None
    if league:
        created_league = api.post("/leagues", {"name": f"Club {tag}", "members": ids}).json()
        league_id, key = created_league["id"], created_league["key"]
        body["league_id"] = league_id
    created = api.post("/games", body, key=key).json()
    key = key or created["key"]
    etag = api.get_etag(f"/games/{created['id']}")
    hand = {"knocker": "box", "knocker_deadwood_count": 4, "defender_deadwood_count": 19}
    api.post(f"/games/{created['id']}/hands", hand, key=key, **{"If-Match": etag})
    return created["id"], key, ids, league_id


def test_r9_a_rematch_of_a_finished_game_cuts_again_with_the_same_three_and_the_same_rules(phones, api: Api) -> None:
    game_id, key, (ann, bob, cy), _ = finished_game(api, "again")
    page = phones(viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    expect(page.locator(".winner")).to_have_text("Ann-again wins the game!")
    rematch = page.locator("details.rematch")
    expect(rematch).to_have_attribute("open", "")  # the game is over: offered at once
    expect(rematch.locator(".hint").first).to_have_text("The same three players, the same rules.")
    page.fill("#rematch-cut-0", "2d")
    page.fill("#rematch-cut-1", "ks")
    page.fill("#rematch-cut-2", "X")
    page.click("#rematch-start")
    expect(page.locator(".rematch-status .problem")).to_have_text('Cy-again\'s cut "X" is not a card.')
    page.fill("#rematch-cut-2", "7h")
    page.click("#rematch-start")
    page.wait_for_url(lambda url: f"game={game_id}" not in url and "game=" in url)
    new_id = int(page.url.split("game=")[1])
    expect(page.locator(".scores tbody tr")).to_have_count(3)
    new = api.get(f"/games/{new_id}")
    assert new["players"] == [ann, bob, cy]
    assert new["roles"] == {"box": bob, "captain": cy, "sitter": ann}  # R9: king, seven, two
    assert new["rules"] == {"target_score": 10, "knock_limit": 7, "gin_bonus": 30, "undercut_bonus": 15}
    assert (new["league_id"], new["hands_played"]) == (None, 0)


def test_r11_a_rematch_of_a_league_game_gives_the_roles_and_stays_in_the_league(phones, api: Api) -> None:
    game_id, key, (ann, bob, cy), league_id = finished_game(api, "league-again", league=True)
    page = phones(viewport=VIEWPORT).open(f"league={league_id}&key={key}")
    page.wait_for_selector(".standings")
    page.goto(f"{page.url.split('#')[0]}#game={game_id}")
    rematch = page.locator("details.rematch")
    expect(rematch.locator(".hint").first).to_have_text(
        "The same three players, the same rules and the same league (Club league-again)."
    )
    rematch.locator('button[data-how="roles"]').click()
    assert [page.locator(f"#rematch-role-{r}").input_value() for r in ("box", "captain", "sitter")] == [
        str(ann),
        str(bob),
        str(cy),  # prefilled with the roles the game began with
    ]
    page.select_option("#rematch-role-box", str(cy))
    page.select_option("#rematch-role-sitter", str(ann))
    page.click("#rematch-start")
    page.wait_for_url(lambda url: f"game={game_id}" not in url and "game=" in url)
    new = api.get(f"/games/{int(page.url.split('game=')[1])}")
    assert new["roles"] == {"box": cy, "captain": bob, "sitter": ann}
    assert new["league_id"] == league_id


def test_the_scorer_and_spectator_links_copy_to_the_clipboard_and_go_to_the_share_sheet(phones, api: Api) -> None:
    game_id, key, _ = game_with_a_hand(api, "share")
    phone = phones(viewport=VIEWPORT)
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.context.add_init_script("navigator.share = (data) => { window.shared = data; return Promise.resolve(); };")
    page = phone.open(f"game={game_id}&key={key}")
    open_section(page, "share")
    scorer = page.locator(".share .share-link").filter(has=page.locator(".scorer-link"))
    href = scorer.locator(".scorer-link").get_attribute("href")
    assert href == f"{phone.base}/#game={game_id}&key={key}"
    scorer.locator(".copy-button").click()
    expect(scorer.locator(".share-said")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == href
    scorer.locator(".share-button").click()
    assert page.evaluate("window.shared") == {"title": "ginref – the table", "url": href}

    spectator = page.locator(".share .share-link").filter(has=page.locator(".spectator-link"))
    expect(spectator.locator(".spectator-link")).to_have_text(f"{phone.base}/#game={game_id}")
    spectator.locator(".copy-button").click()
    expect(spectator.locator(".share-said")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == f"{phone.base}/#game={game_id}"


def test_a_browser_without_the_web_share_api_offers_copy_alone(phones, api: Api) -> None:
    game_id, key, _ = game_with_a_hand(api, "noshare")
    phone = phones(viewport=VIEWPORT)
    phone.context.add_init_script("delete Navigator.prototype.share;")
    page = phone.open(f"game={game_id}&key={key}")
    expect(page.locator(".share .copy-button")).to_have_count(2)  # the spectator link, the scorer link
    expect(page.locator(".share .share-button")).to_have_count(0)


def test_r26_a_dispute_of_a_hand_undone_and_replaced_since_is_stale_and_can_only_be_rejected(phones, api: Api) -> None:
    game_id, key, (ann, bob, cy) = game_with_a_hand(api, "stale")
    page = phones(viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    open_section(page, "hands")
    page.click('li.hand[data-number="1"] .dispute-hand')
    page.select_option("#dispute-by", "captain")
    page.fill("#dispute-claim", "I held the nine of spades.")
    page.check("#dispute-with-cards")
    tap_in(page.locator(".dispute-form"), "k", KNOCKER + " " + DEFENDER_AS_SAID)
    page.click("#dispute-send")
    expect(page.locator("li.dispute")).to_have_attribute("data-status", "open")
    [opened] = api.get(f"/games/{game_id}/disputes")["items"]
    assert opened["revision"] == 1

    # meanwhile another phone undoes hand 1 and records another in its place: Bob (captain) knocks, 2 against 9
    etag = api.get_etag(f"/games/{game_id}")
    gone = requests.delete(
        f"{api.base}/games/{game_id}/hands/1", headers={"Authorization": f"Bearer {key}", "If-Match": etag}, timeout=10
    )
    assert gone.status_code == 204
    etag = api.get_etag(f"/games/{game_id}")
    body = {"knocker": "captain", "knocker_deadwood_count": 2, "defender_deadwood_count": 9}
    api.post(f"/games/{game_id}/hands", body, key=key, **{"If-Match": etag})
    expect(page.locator('li.hand[data-number="1"]')).to_have_attribute("data-points", "7")
    expect(page.locator("li.dispute tr[data-field=knocker_deadwood] td.recorded")).to_have_text("–")

    page.click("li.dispute .uphold")
    problem = page.locator(".dispute-status .problem")
    expect(problem.locator(".problem-words")).to_have_text(
        "The hand has changed since this dispute was opened (corrected, undone or replaced): "
        "the dispute can no longer be upheld, only rejected (R26)."
    )
    expect(problem.locator("p").nth(1)).to_have_text("Hand 1 is no longer the hand that was disputed.")
    assert api.get(f"/games/{game_id}")["scores"][str(bob)] == 7  # nothing changed
    page.click("li.dispute .reject")
    expect(page.locator("li.dispute")).to_have_attribute("data-status", "rejected")
    assert api.get(f"/games/{game_id}")["scores"] == {str(ann): 0, str(bob): 7, str(cy): 0}


def test_r26_the_game_and_its_hands_are_read_of_one_moment_when_another_phone_writes_between_the_reads(
    phones, api: Api
) -> None:
    """Another phone undoes hand 1, and records another in its place just
    between this phone's read of the game and its read of the hands: the page
    reads both again, so the uphold it sends carries the game's ETag of the
    hands it shows and gets the stale-dispute answer, not a 412."""
    game_id, key, (ann, bob, cy) = game_with_a_hand(api, "between")
    disputed = api.post(
        f"/games/{game_id}/hands/1/disputes",
        {"by": "captain", "claim": "I held the nine of spades."},
        key=key,
        **{"If-Match": api.get_etag(f"/games/{game_id}")},
    )
    assert disputed.status_code == 201
    page = phones(viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    open_section(page, "hands")
    expect(page.locator("li.dispute")).to_have_attribute("data-status", "open")

    replaced: list[int] = []

    def between(route: Any) -> None:  # the page's read of the hands, once the game is read
        if not replaced:
            body = {"knocker": "captain", "knocker_deadwood_count": 2, "defender_deadwood_count": 9}
            api.post(f"/games/{game_id}/hands", body, key=key, **{"If-Match": api.get_etag(f"/games/{game_id}")})
            replaced.append(1)
        route.continue_()

    held: list[Any] = []  # the feed's next asks, left unanswered: the page hears of no change but by its reads
    page.route(f"**/api/v1/games/{game_id}/hands", between)
    page.route(
        f"**/api/v1/games/{game_id}/events/stream?after=*",
        lambda route: held.append(route) if replaced else route.continue_(),
    )
    etag = api.get_etag(f"/games/{game_id}")
    gone = requests.delete(
        f"{api.base}/games/{game_id}/hands/1", headers={"Authorization": f"Bearer {key}", "If-Match": etag}, timeout=10
    )
    assert gone.status_code == 204
    expect(page.locator('li.hand[data-number="1"]')).to_have_attribute("data-points", "7")
    assert replaced == [1]
    page.click("li.dispute .uphold")
    expect(page.locator(".dispute-status .problem .problem-words")).to_have_text(
        "The hand has changed since this dispute was opened (corrected, undone or replaced): "
        "the dispute can no longer be upheld, only rejected (R26)."
    )
    assert api.get(f"/games/{game_id}")["scores"] == {str(ann): 0, str(bob): 7, str(cy): 0}


def test_a_private_league_made_on_the_page_shows_its_key_once_keeps_it_on_the_phone_and_adds_members(
    phones, api: Api
) -> None:
    ann, bob, cy, dee = (api.player(f"{n}-made") for n in ("Ann", "Bob", "Cy", "Dee"))
    phone = phones(viewport=VIEWPORT)
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = phone.open("league")
    page.click("#create-league")
    expect(page.locator(".league-new-status .problem")).to_have_text("Give the league a name.")
    page.fill("#league-name", "Thursday club")
    for pid in (ann, bob, cy):
        page.check(f'.members-choice input[data-player="{pid}"]')
    page.check("#league-private")
    page.click("#create-league")
    expect(page.locator(".league-created .created")).to_have_text("League Thursday club created.")
    key = page.locator("input.league-key").input_value()
    league_id = int((page.locator(".open-league").get_attribute("href") or "").split("=")[1])
    r = requests.get(f"{api.base}/leagues/{league_id}", headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert (r.status_code, r.json()["visibility"], r.json()["members"]) == (200, "private", [ann, bob, cy])
    assert requests.get(f"{api.base}/leagues/{league_id}", timeout=10).status_code == 404  # private
    assert page.evaluate(f"localStorage.getItem('ginref.key.league.{league_id}')") == f'"{key}"'
    page.locator(".league-created .copy-button").click()
    expect(page.locator(".league-created .share-said")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == key

    page.click(".open-league")
    page.wait_for_selector(".standings")
    expect(page.locator(".member-names")).to_have_text("Members: Ann-made, Bob-made, Cy-made")
    page.select_option("#add-member", str(dee))
    page.click("#add-member-button")
    expect(page.locator(".members-status")).to_have_text("Added: Dee-made.")
    expect(page.locator(".member-names")).to_have_text("Members: Ann-made, Bob-made, Cy-made, Dee-made")
    r = requests.get(f"{api.base}/leagues/{league_id}", headers={"Authorization": f"Bearer {key}"}, timeout=10)
    assert r.json()["members"] == [ann, bob, cy, dee]
    assert [u for u in phone.requests if key in u] == []  # the key travels in no address
    assert key not in page.url


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_rematch_and_new_league_screens_fit_a_phone_in_each_language_and_axe_finds_nothing_serious(
    phones, api: Api, lang: str
) -> None:
    game_id, key, _, _ = finished_game(api, f"screens-{lang}")
    page = phones(locale=LOCALES[lang], viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    screens: dict[str, list[Any]] = {}
    page.locator("details.rematch").scroll_into_view_if_needed()
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["rematch"] = serious(page)
    shot(page, f"{lang}-features-4-rematch")
    page.locator("details.rematch button[data-how=roles]").click()
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["rematch-roles"] = serious(page)

    page.goto(f"{page.url.split('#')[0]}#league")
    page.wait_for_selector(".members-choice input")
    page.locator(".league-new").scroll_into_view_if_needed()
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["new-league"] = serious(page)
    shot(page, f"{lang}-features-5-new-league")
    page.fill("#league-name", f"Club {lang}")
    page.click("#create-league")
    page.wait_for_selector(".league-created")
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["league-created"] = serious(page)
    shot(page, f"{lang}-features-6-league-created")
    page.click(".open-league")
    page.wait_for_selector(".members #add-member option", state="attached")
    page.locator(".members").scroll_into_view_if_needed()
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["members"] = serious(page)
    shot(page, f"{lang}-features-7-add-members")
    assert screens == {name: [] for name in screens}


def test_a_league_games_scorer_link_carries_a_key_of_that_game_only_and_scores_from_another_phone(
    phones, api: Api
) -> None:
    game_id, league_key, (ann, _, _), league_id = finished_game(api, "scorer-key", league=True)
    ids = api.get(f"/games/{game_id}")["players"]
    created = api.post(
        "/games",
        {"players": ids, "roles": {"box": ids[0], "captain": ids[1], "sitter": ids[2]}, "league_id": league_id},
        key=league_key,
    ).json()
    phone = phones(viewport=VIEWPORT)
    page = phone.open(f"league={league_id}&key={league_key}")
    page.wait_for_selector(".standings")
    page.goto(f"{phone.base}/#game={created['id']}")
    expect(page.locator(".scorer-link")).to_have_count(0)  # not until it is asked for
    open_section(page, "share")
    page.click("#make-scorer-link")
    link = page.locator(".scorer-link").get_attribute("href") or ""
    scorer_key = link.split("&key=")[1]
    assert link == f"{phone.base}/#game={created['id']}&key={scorer_key}" and scorer_key != league_key
    page.reload()
    expect(page.locator(".scorer-link")).to_have_attribute("href", link)  # issued once, kept on this phone

    other = phones(viewport=VIEWPORT)
    scorer = other.open(link.split("#", 1)[1])
    scorer.click('button[data-mode="counts"]')
    scorer.fill("#count-knocker", "3")
    scorer.fill("#count-defender", "9")
    scorer.click("#save")
    expect(scorer.locator("li.hand")).to_have_count(1)
    assert api.get(f"/games/{created['id']}")["scores"][str(ann)] == 6
    # the scorer key writes that game only: not the league's other game, nor the league
    etag = api.get_etag(f"/games/{game_id}")
    refused = requests.post(
        f"{api.base}/games/{game_id}/hands",
        json={"outcome": "draw"},
        headers={"Authorization": f"Bearer {scorer_key}", "If-Match": etag},
        timeout=10,
    )
    assert refused.status_code == 403
    assert [u for u in phone.requests + other.requests if league_key in u] == []


def test_links_are_built_on_the_servers_network_address_and_warn_when_it_has_none(phones, api: Api) -> None:
    game_id, key, _ = game_with_a_hand(api, "addresses")
    phone = phones(viewport=VIEWPORT)
    phone.page.route(
        "**/api/v1/addresses",
        lambda route: route.fulfill(json={"addresses": ["http://192.168.1.20:5000/", "http://10.0.0.7:5000/"]}),
    )
    page = phone.open(f"game={game_id}&key={key}")
    expect(page.locator(".scorer-link")).to_have_attribute(
        "href", f"http://192.168.1.20:5000/#game={game_id}&key={key}"
    )
    expect(page.locator(".spectator-link")).to_have_text(f"http://192.168.1.20:5000/#game={game_id}")
    expect(page.locator(".loopback-only")).to_have_count(0)

    lonely = phones(viewport=VIEWPORT)
    lonely.page.route("**/api/v1/addresses", lambda route: route.fulfill(json={"addresses": []}))
    page = lonely.open(f"game={game_id}&key={key}")
    expect(page.locator(".scorer-link")).to_have_attribute("href", f"{lonely.base}/#game={game_id}&key={key}")
    expect(page.locator(".share .loopback-only")).to_have_text(  # once, above the links
        "Other phones cannot open these links: the server listens only on this machine."
    )


def test_the_games_on_this_phone_show_names_date_scores_and_status(phones, api: Api) -> None:
    played, key, _ = game_with_a_hand(api, "recent")
    won, won_key, _, _ = finished_game(api, "recent-won")
    phone = phones(viewport=VIEWPORT)
    page = phone.open(f"game={played}&key={key}")
    page.wait_for_selector("li.hand", state="attached")
    page.goto(f"{phone.base}/#game={won}&key={won_key}")
    page.wait_for_selector(".winner")
    page.goto(f"{phone.base}/")
    day = datetime.fromisoformat(api.get(f"/games/{won}")["played_at"]).astimezone(UTC)
    date = f"{day:%b} {day.day}, {day.year}"
    newest = page.locator(f'.recent li[data-game="{won}"]')
    expect(newest.locator(".recent-line")).to_have_text(f"Ann-recent-won, Bob-recent-won, Cy-recent-won · {date}")
    expect(newest.locator(".recent-scores")).to_have_text(
        "Ann-recent-won 15 · Bob-recent-won 0 · Cy-recent-won 0 · won by Ann-recent-won"
    )
    older = page.locator(f'.recent li[data-game="{played}"]')
    expect(older.locator(".recent-scores")).to_have_text("Ann-recent 10 · Bob-recent 0 · Cy-recent 0 · in play")
    assert page.locator(".recent li").evaluate_all("items => items.map(i => Number(i.dataset.game))") == [won, played]


def named(api: Api, name: str) -> list[str]:
    """Every player's name that is ``name`` in any case, in the order made."""
    found, page = [], 1
    while True:
        items = api.get(f"/players?page={page}&per_page=100")["items"]
        found += [p["name"] for p in items if p["name"].lower() == name.lower()]
        if len(items) < 100:
            return found
        page += 1


def test_a_second_player_of_the_same_name_is_made_only_after_a_warning(phones, api: Api) -> None:
    api.player("Marta-twice")
    page = phones(viewport=VIEWPORT).open()
    page.wait_for_selector("#start-game")
    page.fill("#new-player", "marta-twice")
    page.click("#add-player")
    expect(page.locator(".status .same-name")).to_have_text(
        "There is already a player named Marta-twice. Choose them in the list, "
        "or tap Add again to make a second player of that name."
    )
    assert named(api, "marta-twice") == ["Marta-twice"]
    page.click("#add-player")
    expect(page.locator(".status")).to_have_text("marta-twice added.")
    assert named(api, "marta-twice") == ["Marta-twice", "marta-twice"]


def test_the_running_score_chart_numbers_its_hands_under_their_points_and_has_a_score_axis(phones, api: Api) -> None:
    game_id, key, (ann, _, _) = game_with_a_hand(api, "chart")
    etag = api.get_etag(f"/games/{game_id}")
    api.post(f"/games/{game_id}/hands", {"outcome": "draw"}, key=key, **{"If-Match": etag})  # R12
    page = phones(viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    open_section(page, "hands")
    chart = page.locator(".chart svg")
    expect(chart.locator(".hand-axis text[data-hand]")).to_have_count(2)
    texts = "els => els.map(e => e.textContent)"
    assert chart.locator(".hand-axis text").evaluate_all(texts) == ["1", "2", "Hand"]
    assert chart.locator(".score-axis text").evaluate_all(texts) == ["0", "25", "50", "75", "100", "Score"]
    # each hand's number stands under that hand's point of the line, each score beside its height
    ann_points = [
        [float(v) for v in p.split(",")]
        for p in (chart.locator(f'polyline[data-player="{ann}"]').get_attribute("points") or "").split()
    ]
    assert [p[1] for p in ann_points] == [156.0, 142.2, 142.2]  # 0, 10 after hand 1, 10 after the draw
    for i in (1, 2):
        label = chart.locator(f'.hand-axis text[data-hand="{i}"]')
        assert float(label.get_attribute("x") or "") == ann_points[i][0]
    zero = chart.locator('.score-axis text[data-score="0"]')
    hundred = chart.locator('.score-axis text[data-score="100"]')
    assert float(zero.get_attribute("y") or "") - 3.5 == ann_points[0][1]
    assert float(hundred.get_attribute("y") or "") - 3.5 == 18.0  # the top of the plot: the target is 100


def record_by_counts(page: Page, knocker: int, defender: int) -> None:
    page.click('button[data-mode="counts"]')
    page.fill("#count-knocker", str(knocker))
    page.fill("#count-defender", str(defender))
    page.click("#save")


def test_r11_a_hand_refused_because_the_seats_moved_says_who_sits_where_by_name(phones, api: Api) -> None:
    game_id, key, (ann, bob, cy) = game_with_a_hand(api, "seats")
    # the API's own answer to a hand that names the seats as they were before hand 1 (R11: Cy is captain now)
    etag = api.get_etag(f"/games/{game_id}")
    moved = requests.post(
        f"{api.base}/games/{game_id}/hands",
        json={"outcome": "draw", "seating": {"box": ann, "captain": bob, "sitter": cy}},
        headers={"Authorization": f"Bearer {key}", "If-Match": etag},
        timeout=10,
    )
    assert (moved.status_code, moved.json()["type"]) == (409, "https://ginref.org/problems/seating-moved")
    phone = phones(viewport=VIEWPORT)
    page = phone.open(f"game={game_id}&key={key}")
    page.wait_for_selector("li.hand", state="attached")
    page.route(
        f"**/api/v1/games/{game_id}/hands",
        lambda route: (
            route.fulfill(status=409, content_type="application/problem+json", body=moved.text)
            if route.request.method == "POST"
            else route.fallback()
        ),
    )
    record_by_counts(page, 3, 9)
    problem = page.locator(".status .problem")
    expect(problem.locator(".problem-words")).to_have_text(
        "The seats have moved (R11): another hand was recorded meanwhile, so nothing was saved."
    )
    expect(problem.locator(".problem-seating")).to_have_text(
        "Now: Box: Ann-seats · Captain: Cy-seats · Sitter: Bob-seats."
    )
    expect(problem.locator(".problem-detail")).to_be_hidden()
    assert api.get(f"/games/{game_id}")["hands_played"] == 1


@pytest.mark.parametrize(
    ("status", "kind", "words"),
    [
        (429, "rate-limited", "Too many writes: wait a moment."),
        (503, "unavailable", "The server is busy: nothing was saved, try again."),
        (500, "server-error", "The server failed."),
        (502, None, "The server failed (502): nothing was saved, try again."),
        (404, "not-found", "Not found."),
        (422, "rules#R25", "Counts out of bounds (R25)"),
    ],
)
def test_a_refused_write_is_told_in_the_pages_words_with_the_apis_detail_behind_details(
    phones, api: Api, status: int, kind: str | None, words: str
) -> None:
    game_id, key, _ = game_with_a_hand(api, f"words-{status}")
    page = phones(viewport=VIEWPORT).open(f"game={game_id}&key={key}")
    page.wait_for_selector("li.hand", state="attached")
    if kind:
        base = "https://ginref.org/" + ("" if kind.startswith("rules") else "problems/")
        body = f'{{"type": "{base}{kind}", "title": "T", "status": {status}, "detail": "in English"}}'
        content_type = "application/problem+json"
    else:  # a proxy's own page, not a problem
        body, content_type = "<html>Bad Gateway</html>", "text/html"
    page.route(
        f"**/api/v1/games/{game_id}/hands",
        lambda route: (
            route.fulfill(status=status, content_type=content_type, body=body)
            if route.request.method == "POST"
            else route.fallback()
        ),
    )
    record_by_counts(page, 3, 9)
    problem = page.locator(".status .problem")
    expect(problem.locator(".problem-words")).to_have_text(words)
    problem.locator(".problem-more summary").click()
    expect(problem.locator(".problem-detail")).to_have_text("in English" if kind else "<html>Bad Gateway</html>")


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_share_blocks_and_the_games_on_this_phone_fit_a_phone_in_each_language_and_axe_finds_nothing_serious(
    phones, api: Api, lang: str
) -> None:
    game_id, league_key, _, league_id = finished_game(api, f"share-{lang}", league=True)
    phone = phones(locale=LOCALES[lang], viewport=VIEWPORT)
    phone.context.add_init_script("navigator.share = () => Promise.resolve();")
    page = phone.open(f"league={league_id}&key={league_key}")
    page.wait_for_selector(".standings")
    page.goto(f"{phone.base}/#game={game_id}")
    screens: dict[str, list[Any]] = {}
    open_section(page, "share")
    page.click("#make-scorer-link")
    page.locator(".scorer-qr summary").click()
    page.locator(".share").scroll_into_view_if_needed()
    expect(page.locator(".share .share-button")).to_have_count(2)
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["share"] = serious(page)
    shot(page, f"{lang}-features-8-share")

    page.goto(f"{phone.base}/")
    expect(page.locator(f'.recent li[data-game="{game_id}"] .recent-scores')).to_have_attribute(
        "data-status", "finished"
    )
    page.fill("#new-player", f"Ann-share-{lang}")
    page.click("#add-player")
    expect(page.locator(".status .same-name")).to_be_visible()
    no_missing_or_empty_string(page)
    fits_the_phone(page)
    screens["start"] = serious(page)
    shot(page, f"{lang}-features-9-games-on-this-phone")
    assert screens == {name: [] for name in screens}
