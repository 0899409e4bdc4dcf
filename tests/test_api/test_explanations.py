"""Every ruling the API serves carries its explanation: the referee endpoints,
each recorded hand (by cards, by counts R25, a draw R12), and the 422s of an
illegal knock (R14) and an illegal layoff (R15, R18, R23). The explanation is
rebuilt from the stored ruling and the game's rules, never stored."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import Rules, explain_hand, judge_hand
from schemas.rulings import explained, ruling_dict, ruling_steps, step_dicts
from tests.test_api.conftest import (
    DRAW,
    GIN_34,
    KNOCK_6,
    KNOCK_10,
    RULES_TYPE,
    by_cards,
    by_counts,
    melds,
    problem,
    seats,
    without_explanation,
)
from tests.test_referee.referee_helpers import PROPERTY, deals


def step(rule: str, code: str, text: str, **params):
    return {"rule": rule, "code": code, "params": params, "text": text}


def m(text: str) -> list[list[str]]:
    return [part.split() for part in text.split("|") if part.strip()]


# KNOCK_10 undeclared: the knocker spreads the three sets (R24), nothing fits them.
KNOCK_10_STEPS = [
    step(
        "R7",
        "knocker_spread",
        "The knocker melds 4S 4H 4D | 5S 5H 5D | 6S 6H 6D and keeps KC: 10 deadwood (R7)",
        melds=m("4S 4H 4D | 5S 5H 5D | 6S 6H 6D"),
        deadwood=["KC"],
        deadwood_count=10,
    ),
    step("R14", "knock_valid", "Knock stands: 10 deadwood, within the limit of 10 (R14)", deadwood_count=10, limit=10),
    step(
        "R16",
        "defender_spread",
        "The defender melds AH 2H 3H | 7H 8H 9H and keeps 2S 3S 7S 8S: 20 deadwood (R16)",
        melds=m("AH 2H 3H | 7H 8H 9H"),
        deadwood=["2S", "3S", "7S", "8S"],
        deadwood_count=20,
    ),
    step(
        "R16",
        "knock",
        "Knock: the knocker's 10 is lower than the defender's 20, so the knocker scores 20 - 10 = 10 (R16)",
        knocker_count=10,
        defender_count=20,
        points=10,
    ),
]
# KNOCK_6: 8H then 9H go onto the knocker's third meld, 5H 6H 7H (R15).
KNOCK_6_LAYOFFS = [
    step("R15", "layoff", "The defender lays off 8H on 5H 6H 7H (R15)", card="8H", meld=2, onto=["5H", "6H", "7H"]),
    step(
        "R15",
        "layoff",
        "The defender lays off 9H on 5H 6H 7H 8H (R15)",
        card="9H",
        meld=2,
        onto=["5H", "6H", "7H", "8H"],
    ),
]


def test_r16_post_referee_hand_carries_the_explanation(api):
    response = api.post("/referee/hand", by_cards("box", *KNOCK_10))
    assert response.status_code == 200
    assert response.get_json()["explanation"] == KNOCK_10_STEPS


def test_r18_post_referee_hand_explains_by_the_rule_options_given(api):
    ruling = api.post("/referee/hand", {**by_cards("box", *GIN_34), "rules": {"gin_bonus": 20}}).get_json()
    assert ruling["explanation"][-1] == step(
        "R18",
        "gin",
        "Gin: the knocker has no deadwood, so the defender may not lay off and cannot score; "
        "the knocker scores the defender's 9 + 20 = 29 (R18)",
        defender_count=9,
        gin_bonus=20,
        points=29,
    )


def test_r14_post_referee_knock_carries_the_explanation(api):
    response = api.post("/referee/knock", {"cards": KNOCK_10[0].split(), "discard": "QD", "rules": {"knock_limit": 5}})
    assert response.status_code == 200
    verdict = response.get_json()
    assert (verdict["valid"], verdict["rule"]) == (False, "R14")
    assert verdict["explanation"] == [
        step("R14", "discard", "QD is the discard: the knock is judged on the other 10 cards (R14)", card="QD"),
        step(
            "R7",
            "knocker_spread",
            "The knocker melds 4S 5S 6S | 4H 5H 6H | 4D 5D 6D and keeps KC: 10 deadwood (R7)",
            melds=m("4S 5S 6S | 4H 5H 6H | 4D 5D 6D"),
            deadwood=["KC"],
            deadwood_count=10,
        ),
        step(
            "R14",
            "knock_over_limit",
            "Knock does not stand: the least deadwood of these cards is 10, over the limit of 5 (R14)",
            deadwood_count=10,
            limit=5,
        ),
    ]


def _game(api, table, **body) -> int:
    return api.new_game(table.ids, roles=seats(table.ann, table.bob, table.cy), **body)["id"]


def test_r15_a_recorded_hand_carries_its_explanation_when_recorded_read_and_listed(api, table):
    g = _game(api, table)
    recorded = api.record(g, by_cards("box", *KNOCK_6))
    codes = [s["code"] for s in recorded["ruling"]["explanation"]]
    assert codes == ["knocker_spread", "knock_valid", "layoff", "layoff", "defender_spread", "knock"]
    assert recorded["ruling"]["explanation"][2:4] == KNOCK_6_LAYOFFS
    assert recorded["ruling"]["explanation"][-1]["text"] == (
        "Knock: the knocker's 1 is lower than the defender's 7, so the knocker scores 7 - 1 = 6 (R16)"
    )
    assert api.hand(g, 1)["ruling"] == recorded["ruling"]
    assert api.hands(g)[0]["ruling"] == recorded["ruling"]


def test_r14_r17_a_recorded_hand_is_explained_by_its_games_rules(api, table):
    g = _game(api, table, rules={"knock_limit": 7, "undercut_bonus": 25})
    api.record(g, by_counts("box", 6, 2))
    explanation = api.hand(g, 1)["ruling"]["explanation"]
    assert explanation == [
        step(
            "R25",
            "counts",
            "Entered by counts: the knocker's deadwood is 6, the defender's 2 after layoffs (R25)",
            knocker_count=6,
            defender_count=2,
        ),
        step("R14", "knock_valid", "Knock stands: 6 deadwood, within the limit of 7 (R14)", deadwood_count=6, limit=7),
        step(
            "R17",
            "undercut",
            "Undercut: the knocker's 6 is not lower than the defender's 2, so the defender scores 25 + 4 = 29 (R17)",
            knocker_count=6,
            defender_count=2,
            undercut_bonus=25,
            difference=4,
            points=29,
        ),
    ]


def test_r12_a_recorded_draw_is_explained(api, table):
    g = _game(api, table)
    api.record(g, DRAW)
    assert api.hand(g, 1)["ruling"]["explanation"] == [
        step(
            "R12",
            "draw",
            "Draw: only two cards are left in the stock and nobody knocked, so nobody scores and the roles stay (R12)",
        )
    ]


def test_r26_a_corrected_hand_is_explained_as_corrected(api, table):
    g = _game(api, table)
    api.record(g, by_counts("box", 3, 12))
    corrected = api.correct(g, 1, by_cards("box", *KNOCK_10))
    assert corrected["ruling"]["explanation"] == KNOCK_10_STEPS
    assert api.hand(g, 1)["ruling"]["explanation"] == KNOCK_10_STEPS


def test_the_stored_ruling_is_exported_without_its_explanation(api, table):
    league = api.post("/leagues", {"name": "Thursday", "members": table.ids}).get_json()
    g = _game(api, table, league_id=league["id"])
    served = api.record(g, by_cards("box", *KNOCK_10))["ruling"]
    exported = api.client.get(f"/api/v1/leagues/{league['id']}/export").get_json()
    stored = exported["games"][0]["hands"][0]["ruling"]
    assert "explanation" not in stored
    assert stored == without_explanation(served)


def test_r14_an_illegal_declared_knock_422_carries_its_steps(api, table):
    g = _game(api, table)
    body = by_cards("box", *KNOCK_10, knocker_melds=melds("4H 5H 6H"))
    details = problem(api.post(f"/games/{g}/hands", body), 422, RULES_TYPE + "R14")
    assert details["explanation"] == [
        step(
            "R7",
            "knocker_spread",
            "The knocker melds 4H 5H 6H and keeps 4S 5S 6S 4D 5D 6D KC: 40 deadwood (R7)",
            melds=m("4H 5H 6H"),
            deadwood=["4S", "5S", "6S", "4D", "5D", "6D", "KC"],
            deadwood_count=40,
        ),
        step(
            "R14",
            "declared_over_limit",
            "Knock does not stand: the declared melds leave 40 deadwood, over the limit of 10 (R14)",
            deadwood_count=40,
            limit=10,
        ),
        step(
            "R14",
            "legal_arrangement",
            "The knock would stand melded 4S 5S 6S | 4H 5H 6H | 4D 5D 6D, keeping KC: "
            "10 deadwood, within the limit of 10 (R14)",
            melds=m("4S 5S 6S | 4H 5H 6H | 4D 5D 6D"),
            deadwood=["KC"],
            deadwood_count=10,
            limit=10,
        ),
    ]
    assert api.game(g)["hands_played"] == 0


def test_r14_an_illegal_undeclared_knock_422_carries_its_steps(api):
    details = problem(
        api.post("/referee/hand", {**by_cards("box", *KNOCK_6), "rules": {"knock_limit": 0}}), 422, RULES_TYPE + "R14"
    )
    assert [s["code"] for s in details["explanation"]] == ["knocker_spread", "knock_over_limit"]
    assert details["explanation"][-1] == step(
        "R14",
        "knock_over_limit",
        "Knock does not stand: the least deadwood of these cards is 1, over the limit of 0 (R14)",
        deadwood_count=1,
        limit=0,
    )


def test_r15_an_illegal_layoff_422_carries_the_layoffs_before_it_and_why(api, table):
    g = _game(api, table)
    body = by_cards(
        "box",
        *KNOCK_6,
        knocker_melds=melds("5H 6H 7H | 2S 2D 2C | JS JD JC"),
        layoffs=[{"card": "8H", "meld": 0}, {"card": "9H", "meld": 0}, {"card": "10C", "meld": 0}],
    )
    details = problem(api.post(f"/games/{g}/hands", body), 422, RULES_TYPE + "R23")
    assert list(details["errors"]) == ["defender_hand.layoffs[2]"]
    assert details["explanation"] == [
        step("R15", "layoff", "The defender lays off 8H on 5H 6H 7H (R15)", card="8H", meld=0, onto=["5H", "6H", "7H"]),
        step(
            "R15",
            "layoff",
            "The defender lays off 9H on 5H 6H 7H 8H (R15)",
            card="9H",
            meld=0,
            onto=["5H", "6H", "7H", "8H"],
        ),
        step(
            "R15",
            "layoff_does_not_fit",
            "10C does not fit the knocker's meld 0, 5H 6H 7H 8H 9H (R15)",
            card="10C",
            meld=0,
            onto=["5H", "6H", "7H", "8H", "9H"],
        ),
    ]
    assert api.game(g)["hands_played"] == 0


def test_r18_a_layoff_after_gin_422_carries_its_step(api):
    body = by_cards(
        "box",
        GIN_34[0],
        "JS AH 2H 3H 4D 5D 6D JC QC KC",
        knocker_melds=melds(GIN_34[0]),
        layoffs=[{"card": "JS", "meld": 0}],
    )
    details = problem(api.post("/referee/hand", body), 422, RULES_TYPE + "R18")
    assert details["explanation"] == [
        step("R18", "layoff_after_gin", "The knocker went gin, so the defender may not lay off JS (R18)", card="JS")
    ]


def test_a_problem_without_steps_has_no_explanation(api):
    details = problem(api.post("/referee/hand", by_cards("box", *KNOCK_10, knocker_melds=melds("4H 5H KC"))), 422)
    assert "explanation" not in details


@settings(PROPERTY, max_examples=100)
@given(deals(), st.integers(0, 100), st.integers(0, 100))
def test_a_stored_ruling_is_explained_exactly_as_the_ruling_it_was_dumped_from(deal, gin_bonus, undercut_bonus):
    rules = Rules(gin_bonus=gin_bonus, undercut_bonus=undercut_bonus)
    ruling = judge_hand(*deal, rules=rules)
    stored = ruling_dict(ruling)
    assert "explanation" not in stored
    assert ruling_steps(stored, rules) == explain_hand(ruling, rules)
    served = explained(stored, rules)
    assert without_explanation(served) == stored
    assert served["explanation"] == step_dicts(explain_hand(ruling, rules))
