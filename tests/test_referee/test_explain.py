"""Rulings that explain themselves: every outcome and rule path gives its steps,
each with its rule, code, params and English text (R12, R14-R18, R22-R25)."""

from __future__ import annotations

import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import (
    DECK,
    PARAMS,
    STEPS,
    Code,
    IllegalKnockError,
    LayoffError,
    Outcome,
    Rules,
    Side,
    Step,
    explain_counts,
    explain_draw,
    explain_hand,
    judge_hand,
    judge_knock,
    score,
    score_counts,
)
from tests.test_referee.referee_helpers import PROPERTY, cards, deals, layoffs, melds


def steps(explanation):
    """Steps as (rule, code, params, text), params with lists for tuples; and
    every step has exactly its code's params, in the table's order."""
    for s in explanation:
        assert tuple(s.params) == STEPS[s.code][1], s
    return [(s.rule, str(s.code), _plain(dict(s.params)), s.text) for s in explanation]


def _plain(value):
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def m(text: str) -> list[list[str]]:
    """Melds as params: ``m("4S 5S 6S | KC QC JC")``."""
    return [part.split() for part in text.split("|") if part.strip()]


def c(text: str) -> list[str]:
    return text.split()


def spread_step(side: str, meld_text: str, deadwood: str, count: int, text: str):
    code, rule = ("knocker_spread", "R7") if side == "knocker" else ("defender_spread", "R16")
    return (rule, code, {"melds": m(meld_text), "deadwood": c(deadwood), "deadwood_count": count}, text)


def valid(count: int, limit: int = 10):
    return (
        "R14",
        "knock_valid",
        {"deadwood_count": count, "limit": limit},
        f"Knock stands: {count} deadwood, within the limit of {limit} (R14)",
    )


def layoff_step(card: str, meld: int, onto: str):
    return (
        "R15",
        "layoff",
        {"card": card, "meld": meld, "onto": c(onto)},
        f"The defender lays off {card} on {onto} (R15)",
    )


# --- the table ---------------------------------------------------------------------------


def test_every_code_has_one_rule_params_and_a_template_filled_only_by_its_params():
    assert set(STEPS) == set(Code)
    for code, (rule, names, template) in STEPS.items():
        assert rule.startswith("R"), code
        assert set(names) <= set(PARAMS), code
        placeholders = {field for _, field, _, _ in string.Formatter().parse(template) if field}
        assert placeholders <= set(names), code
        assert not template.endswith((".", ")")), code  # the rule is appended: "... (R14)"


_NAMES = st.sampled_from([str(c) for c in DECK])
_PARAM_VALUES = {
    "count": st.integers(min_value=0, max_value=500),
    "card": _NAMES,
    "cards": st.lists(_NAMES, max_size=4).map(tuple),
    "melds": st.lists(st.lists(_NAMES, min_size=3, max_size=4).map(tuple), max_size=3).map(tuple),
    "layoffs": st.lists(
        st.fixed_dictionaries({"card": _NAMES, "meld": st.integers(min_value=0, max_value=3)}), max_size=3
    ).map(tuple),
}


def _filled(code: Code, params: dict[str, Any]) -> str:
    """The reference: the template filled by ``str.format_map``, each param shown as its kind reads."""
    rule, _, template = STEPS[code]
    shown: dict[str, Any] = {}
    for name, value in params.items():
        kind = PARAMS[name][0]
        if kind == "cards":
            value = " ".join(value) or "nothing"
        elif kind == "melds":
            value = " | ".join(" ".join(m) for m in value) or "nothing"
        elif kind == "layoffs":
            value = " then ".join(f"{lo['card']} on meld {lo['meld']}" for lo in value) or "nothing"
        shown[name] = value
    return f"{template.format_map(shown)} ({rule})"


@st.composite
def _steps(draw: st.DrawFn) -> tuple[Code, dict[str, Any]]:
    code = draw(st.sampled_from(list(Code)))
    return code, {name: draw(_PARAM_VALUES[PARAMS[name][0]]) for name in STEPS[code][1]}


@PROPERTY
@given(_steps())
def test_every_steps_text_is_its_template_filled_with_its_params(step: tuple[Code, dict[str, Any]]):
    code, params = step
    assert Step.of(code, **params).text == _filled(code, params)


def test_a_step_takes_its_rule_from_the_table():
    step = Step.of(Code.KNOCK_VALID, deadwood_count=3, limit=10)
    assert (step.rule, step.params) == ("R14", {"deadwood_count": 3, "limit": 10})


def test_r3_empty_cards_and_melds_read_as_nothing_and_melds_are_parted_by_bars():
    step = Step.of(Code.DEFENDER_SPREAD, melds=(("AS", "2S", "3S"), ("7H", "7D", "7C")), deadwood=(), deadwood_count=0)
    assert step.text == "The defender melds AS 2S 3S | 7H 7D 7C and keeps nothing: 0 deadwood (R16)"
    step = Step.of(Code.KNOCKER_SPREAD, melds=(), deadwood=("KS",), deadwood_count=10)
    assert step.text == "The knocker melds nothing and keeps KS: 10 deadwood (R7)"


# --- hands by cards ----------------------------------------------------------------------

# R15, R16: the knocker keeps AS (1); the defender lays 8H and then 9H off onto 5H 6H 7H,
# keeps 3D 4D 5D and 8C 9C 10C, and QS KH = 20: the knocker scores 20 - 1 = 19.
KNOCK_19 = ("5H 6H 7H 2S 2D 2C JS JD JC AS", "8H 9H 3D 4D 5D 8C 9C 10C KH QS")


def test_r16_a_knock_is_explained_spread_by_spread_with_chained_layoffs_onto_a_run():
    ruling = judge_hand(cards(KNOCK_19[0]), cards(KNOCK_19[1]))
    assert steps(explain_hand(ruling)) == [
        spread_step(
            "knocker",
            "2S 2D 2C | JS JD JC | 5H 6H 7H",
            "AS",
            1,
            "The knocker melds 2S 2D 2C | JS JD JC | 5H 6H 7H and keeps AS: 1 deadwood (R7)",
        ),
        valid(1),
        layoff_step("8H", 2, "5H 6H 7H"),
        layoff_step("9H", 2, "5H 6H 7H 8H"),  # R15: one after another, onto the run as extended
        spread_step(
            "defender",
            "3D 4D 5D | 8C 9C 10C",
            "QS KH",
            20,
            "The defender melds 3D 4D 5D | 8C 9C 10C and keeps QS KH: 20 deadwood (R16)",
        ),
        (
            "R16",
            "knock",
            {"knocker_count": 1, "defender_count": 20, "points": 19},
            "Knock: the knocker's 1 is lower than the defender's 20, so the knocker scores 20 - 1 = 19 (R16)",
        ),
    ]


def test_r15_a_layoff_onto_a_set_of_three_is_a_step():
    # The knocker keeps AS (1); the defender lays 7C off onto 7S 7H 7D, keeps 9S 9H 9D and
    # 4D 5D 6D, and QS KS 2H = 22: 22 - 1 = 21.
    ruling = judge_hand(cards("7S 7H 7D 2C 3C 4C JH QH KH AS"), cards("7C 9D 9S 9H 4D 5D 6D KS QS 2H"))
    assert steps(explain_hand(ruling))[2:] == [
        layoff_step("7C", 0, "7S 7H 7D"),
        spread_step(
            "defender",
            "9S 9H 9D | 4D 5D 6D",
            "QS KS 2H",
            22,
            "The defender melds 9S 9H 9D | 4D 5D 6D and keeps QS KS 2H: 22 deadwood (R16)",
        ),
        (
            "R16",
            "knock",
            {"knocker_count": 1, "defender_count": 22, "points": 21},
            "Knock: the knocker's 1 is lower than the defender's 22, so the knocker scores 22 - 1 = 21 (R16)",
        ),
    ]


def test_r17_an_undercut_with_a_greater_count_after_layoffs_at_both_ends_of_a_run():
    # R24's example with the runs declared: 3S, 7S, 2S, 8S go onto 4S 5S 6S below and
    # above it in turn; the defender keeps no deadwood: 10 + (10 - 0) = 20.
    ruling = judge_hand(
        cards("4H 5H 6H 4S 5S 6S 4D 5D 6D KC"),
        cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"),
        knocker_melds=melds("4S 5S 6S | 4H 5H 6H | 4D 5D 6D"),
    )
    assert steps(explain_hand(ruling)) == [
        spread_step(
            "knocker",
            "4S 5S 6S | 4H 5H 6H | 4D 5D 6D",
            "KC",
            10,
            "The knocker melds 4S 5S 6S | 4H 5H 6H | 4D 5D 6D and keeps KC: 10 deadwood (R7)",
        ),
        valid(10),
        layoff_step("3S", 0, "4S 5S 6S"),
        layoff_step("7S", 0, "3S 4S 5S 6S"),
        layoff_step("2S", 0, "3S 4S 5S 6S 7S"),
        layoff_step("8S", 0, "2S 3S 4S 5S 6S 7S"),
        spread_step(
            "defender",
            "AH 2H 3H | 7H 8H 9H",
            "",
            0,
            "The defender melds AH 2H 3H | 7H 8H 9H and keeps nothing: 0 deadwood (R16)",
        ),
        (
            "R17",
            "undercut",
            {"knocker_count": 10, "defender_count": 0, "undercut_bonus": 10, "difference": 10, "points": 20},
            "Undercut: the knocker's 10 is not lower than the defender's 0, so the defender scores 10 + 10 = 20 (R17)",
        ),
    ]


def test_r17_equal_counts_are_an_undercut_and_the_bonus_is_the_rules():
    # The golden hand: both 6 after 8H goes onto 5H 6H 7H; the undercut bonus set to 15.
    ruling = judge_hand(
        cards("5H 6H 7H QS QD QC 2S 3S 4S 6D"), cards("JH JD JC 8S 9S 10S 8H 4C AD AC"), rules=Rules(undercut_bonus=15)
    )
    assert steps(explain_hand(ruling, Rules(undercut_bonus=15)))[2:] == [
        layoff_step("8H", 2, "5H 6H 7H"),
        spread_step(
            "defender",
            "8S 9S 10S | JH JD JC",
            "AD AC 4C",
            6,
            "The defender melds 8S 9S 10S | JH JD JC and keeps AD AC 4C: 6 deadwood (R16)",
        ),
        (
            "R17",
            "undercut",
            {"knocker_count": 6, "defender_count": 6, "undercut_bonus": 15, "difference": 0, "points": 15},
            "Undercut: the knocker's 6 is not lower than the defender's 6, so the defender scores 15 + 0 = 15 (R17)",
        ),
    ]


def test_r18_gin_has_no_knock_step_and_no_layoffs():
    ruling = judge_hand(cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"), cards("AH 2H 3H 4D 5D 6D JC QC KC 9H"))
    assert steps(explain_hand(ruling, Rules(gin_bonus=20))) == [
        spread_step(
            "knocker",
            "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
            "",
            0,
            "The knocker melds AS 2S 3S 4S 5S 6S 7S 8S 9S 10S and keeps nothing: 0 deadwood (R7)",
        ),
        spread_step(
            "defender",
            "AH 2H 3H | 4D 5D 6D | JC QC KC",
            "9H",
            9,
            "The defender melds AH 2H 3H | 4D 5D 6D | JC QC KC and keeps 9H: 9 deadwood (R16)",
        ),
        (
            "R18",
            "gin",
            {"defender_count": 9, "gin_bonus": 20, "points": 34},
            "Gin: the knocker has no deadwood, so the defender may not lay off and cannot score; "
            "the knocker scores the defender's 9 + 20 = 34 (R18)",
        ),
    ]


def test_r22_a_worse_declared_knocker_arrangement_ends_with_the_better_one():
    ruling = judge_hand(
        cards("2S 3S 4S 4H 4D 8C 9C 10C JC AH"),
        cards("5S 6S 7C QC KH 10D 9H 3C 2C 5D"),
        knocker_melds=melds("2S 3S 4S | 8C 9C 10C JC"),
    )
    explanation = steps(explain_hand(ruling))
    assert explanation[0][3] == "The knocker melds 2S 3S 4S | 8C 9C 10C JC and keeps AH 4H 4D: 9 deadwood (R7)"
    assert [s[2]["card"] for s in explanation if s[1] == "layoff"] == ["5S", "6S", "7C", "QC"]
    assert explanation[-1] == (
        "R22",
        "better_arrangement",
        {"melds": m("4S 4H 4D | 8C 9C 10C JC"), "deadwood": c("2S 3S AH"), "deadwood_count": 6, "declared_count": 9},
        "The knocker could have melded 4S 4H 4D | 8C 9C 10C JC and kept 2S 3S AH: 6 deadwood instead of 9 (R22)",
    )


def test_r22_worse_declared_layoffs_end_with_the_defenders_better_play():
    ruling = judge_hand(
        cards("5H 6H 7H 2S 2D 2C JC QC KC 4D"),
        cards("8H 9H AS 3S KD 10D 6C 7S 4C QS"),
        knocker_melds=melds("5H 6H 7H | 2S 2D 2C | JC QC KC"),
        layoffs=[],
    )
    explanation = steps(explain_hand(ruling))
    assert [s[1] for s in explanation] == ["knocker_spread", "knock_valid", "defender_spread", "knock", "better_play"]
    assert explanation[-1] == (
        "R22",
        "better_play",
        {
            "melds": [],
            "layoffs": [{"card": "8H", "meld": 0}, {"card": "9H", "meld": 0}],
            "deadwood": c("AS 3S 7S QS 10D KD 4C 6C"),
            "deadwood_count": 51,
            "declared_count": 68,
        },
        "The defender could have melded nothing, laid off 8H on meld 0 then 9H on meld 0 "
        "and kept AS 3S 7S QS 10D KD 4C 6C: 51 deadwood instead of 68 (R22)",
    )


def test_r18_r22_declared_defender_melds_against_gin_end_with_the_better_play_without_layoffs():
    ruling = judge_hand(
        cards("3H 4H 5H 6H 9S 9D 9C QS QD QC"), cards("7H 8H 9H 10H 2S 2D 2C JS JD JC"), defender_melds=[]
    )
    assert steps(explain_hand(ruling))[-1] == (
        "R22",
        "better_play",
        {
            "melds": m("2S 2D 2C | JS JD JC | 7H 8H 9H 10H"),
            "layoffs": [],
            "deadwood": [],
            "deadwood_count": 0,
            "declared_count": 70,
        },
        "The defender could have melded 2S 2D 2C | JS JD JC | 7H 8H 9H 10H, laid off nothing "
        "and kept nothing: 0 deadwood instead of 70 (R22)",
    )


# --- counts and draws --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "d", "rules", "last"),
    [
        (
            3,
            12,
            Rules(),
            (
                "R16",
                "knock",
                {"knocker_count": 3, "defender_count": 12, "points": 9},
                "Knock: the knocker's 3 is lower than the defender's 12, so the knocker scores 12 - 3 = 9 (R16)",
            ),
        ),
        (
            7,
            5,
            Rules(),
            (
                "R17",
                "undercut",
                {"knocker_count": 7, "defender_count": 5, "undercut_bonus": 10, "difference": 2, "points": 12},
                "Undercut: the knocker's 7 is not lower than the defender's 5, "
                "so the defender scores 10 + 2 = 12 (R17)",
            ),
        ),
        (
            5,
            5,
            Rules(undercut_bonus=0),
            (
                "R17",
                "undercut",
                {"knocker_count": 5, "defender_count": 5, "undercut_bonus": 0, "difference": 0, "points": 0},
                "Undercut: the knocker's 5 is not lower than the defender's 5, so the defender scores 0 + 0 = 0 (R17)",
            ),
        ),
    ],
)
def test_r25_counts_alone_are_explained_from_the_counts(k, d, rules, last):
    result = score_counts(k, d, rules)
    assert steps(explain_counts(result.outcome, result.points, k, d, rules)) == [
        (
            "R25",
            "counts",
            {"knocker_count": k, "defender_count": d},
            f"Entered by counts: the knocker's deadwood is {k}, the defender's {d} after layoffs (R25)",
        ),
        valid(k, rules.knock_limit),
        last,
    ]


def test_r25_r18_gin_by_counts_has_no_knock_step():
    result = score_counts(0, 12)
    assert result.outcome is Outcome.GIN
    assert steps(explain_counts(result.outcome, result.points, 0, 12))[1:] == [
        (
            "R18",
            "gin",
            {"defender_count": 12, "gin_bonus": 25, "points": 37},
            "Gin: the knocker has no deadwood, so the defender may not lay off and cannot score; "
            "the knocker scores the defender's 12 + 25 = 37 (R18)",
        )
    ]


def test_r12_a_draw_is_one_step():
    assert steps(explain_draw()) == [
        (
            "R12",
            "draw",
            {},
            "Draw: only two cards are left in the stock and nobody knocked, so nobody scores and the roles stay (R12)",
        )
    ]


# --- knocks judged alone -----------------------------------------------------------------


def test_r14_a_knock_verdict_explains_the_discard_the_spread_and_the_limit():
    verdict = judge_knock(cards("3S 4S 5S 6S 2H 4H 5H 6H 2D 5D 6C"))
    assert steps(verdict.explanation) == [
        ("R14", "discard", {"card": "6C"}, "6C is the discard: the knock is judged on the other 10 cards (R14)"),
        spread_step(
            "knocker",
            "3S 4S 5S 6S | 4H 5H 6H",
            "2H 2D 5D",
            9,
            "The knocker melds 3S 4S 5S 6S | 4H 5H 6H and keeps 2H 2D 5D: 9 deadwood (R7)",
        ),
        valid(9),
    ]


def test_r22_a_valid_verdict_on_worse_declared_melds_ends_with_the_better_arrangement():
    verdict = judge_knock(cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"), melds("AS 2S 3S 4S 5S 6S 7S 8S 9S"))
    assert steps(verdict.explanation)[1:] == [
        valid(10),
        (
            "R22",
            "better_arrangement",
            {"melds": m("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"), "deadwood": [], "deadwood_count": 0, "declared_count": 10},
            "The knocker could have melded AS 2S 3S 4S 5S 6S 7S 8S 9S 10S and kept nothing: "
            "0 deadwood instead of 10 (R22)",
        ),
    ]


# --- illegal knocks (R14) ----------------------------------------------------------------

NO_MELDS = "KS QH JD 10C 9S 8H 7D 6C 5S 4H"  # no meld at all: 79
GIN_DEFENDER = "AH 2H 3H 4D 5D 6D JC QC KC 9H"
OVER_LIMIT = (
    "R14",
    "knock_over_limit",
    {"deadwood_count": 79, "limit": 10},
    "Knock does not stand: the least deadwood of these cards is 79, over the limit of 10 (R14)",
)


def test_r14_an_undeclared_knock_over_the_limit_explains_the_least_deadwood():
    with pytest.raises(IllegalKnockError) as caught:
        judge_hand(cards(NO_MELDS), cards(GIN_DEFENDER))
    assert steps(caught.value.explanation) == [
        spread_step(
            "knocker",
            "",
            "5S 9S KS 4H 8H QH 7D JD 6C 10C",
            79,
            "The knocker melds nothing and keeps 5S 9S KS 4H 8H QH 7D JD 6C 10C: 79 deadwood (R7)",
        ),
        OVER_LIMIT,
    ]
    assert steps(judge_knock(cards(NO_MELDS)).explanation) == steps(caught.value.explanation)


def test_r14_declared_melds_over_the_limit_explain_the_legal_arrangement():
    knocker = cards("4H 5H 6H 4S 5S 6S 4D 5D 6D KC")
    expected = [
        spread_step(
            "knocker",
            "4H 5H 6H",
            "4S 5S 6S 4D 5D 6D KC",
            40,
            "The knocker melds 4H 5H 6H and keeps 4S 5S 6S 4D 5D 6D KC: 40 deadwood (R7)",
        ),
        (
            "R14",
            "declared_over_limit",
            {"deadwood_count": 40, "limit": 10},
            "Knock does not stand: the declared melds leave 40 deadwood, over the limit of 10 (R14)",
        ),
        (
            "R14",
            "legal_arrangement",
            {"melds": m("4S 5S 6S | 4H 5H 6H | 4D 5D 6D"), "deadwood": ["KC"], "deadwood_count": 10, "limit": 10},
            "The knock would stand melded 4S 5S 6S | 4H 5H 6H | 4D 5D 6D, keeping KC: "
            "10 deadwood, within the limit of 10 (R14)",
        ),
    ]
    with pytest.raises(IllegalKnockError) as caught:
        judge_hand(knocker, cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"), knocker_melds=melds("4H 5H 6H"))
    assert steps(caught.value.explanation) == expected
    assert steps(judge_knock(knocker, melds("4H 5H 6H")).explanation) == expected


def test_r14_declared_melds_over_the_limit_with_no_legal_arrangement_say_the_least():
    # AS 2S 3S declared leaves 9H 10H JH 5D 8D 7C KC = 59; melding 9H 10H JH too leaves 30.
    with pytest.raises(IllegalKnockError) as caught:
        judge_hand(
            cards("AS 2S 3S 9H 10H JH 5D 7C 8D KC"),
            cards("AH 2H 3H 4D 6D JC QC 9C 9S 4S"),
            knocker_melds=melds("AS 2S 3S"),
        )
    assert [s[1:3] for s in steps(caught.value.explanation)[1:]] == [
        ("declared_over_limit", {"deadwood_count": 59, "limit": 10}),
        ("knock_over_limit", {"deadwood_count": 30, "limit": 10}),
    ]


def test_r14_a_lowered_knock_limit_is_the_limit_explained():
    with pytest.raises(IllegalKnockError) as caught:
        judge_hand(cards(KNOCK_19[0]), cards(KNOCK_19[1]), rules=Rules(knock_limit=0))
    assert steps(caught.value.explanation)[-1][3] == (
        "Knock does not stand: the least deadwood of these cards is 1, over the limit of 0 (R14)"
    )


# --- illegal layoffs (R15, R18, R23) -----------------------------------------------------

SPREAD = melds("5H 6H 7H | 2S 2D 2C | JS JD JC")
DEFENDER = "8H 9H 3D 4D 5D 8C 9C 10C 3S 4C"


def layoff_error(text: str, **declared) -> LayoffError:
    with pytest.raises(LayoffError) as caught:
        judge_hand(cards(KNOCK_19[0]), cards(DEFENDER), knocker_melds=SPREAD, layoffs=layoffs(text), **declared)
    return caught.value


def test_r15_a_layoff_that_does_not_fit_follows_the_layoffs_before_it():
    error = layoff_error("8H>0 10C>0")
    assert (error.rule, error.field) == ("R23", "defender_hand.layoffs[1]")
    assert steps(error.explanation) == [
        layoff_step("8H", 0, "5H 6H 7H"),
        (
            "R15",
            "layoff_does_not_fit",
            {"card": "10C", "meld": 0, "onto": c("5H 6H 7H 8H")},
            "10C does not fit the knocker's meld 0, 5H 6H 7H 8H (R15)",
        ),
    ]


def test_r23_a_layoff_onto_no_meld_says_how_many_there_are():
    assert steps(layoff_error("8H>3").explanation) == [
        (
            "R23",
            "layoff_no_meld",
            {"card": "8H", "meld": 3, "meld_count": 3},
            "8H cannot be laid off on knocker meld 3: the knocker spread 3 melds, numbered from 0 (R23)",
        )
    ]


def test_r6_a_card_laid_off_twice():
    assert steps(layoff_error("8H>0 8H>0").explanation)[1] == (
        "R6",
        "layoff_twice",
        {"card": "8H"},
        "8H is laid off twice: a card goes into one meld only (R6)",
    )


def test_r23_a_layoff_of_a_card_not_free():
    error = layoff_error("8H>0 9H>0 10H>0", defender_melds=melds("8C 9C 10C"))
    assert [s[1] for s in steps(error.explanation)] == ["layoff", "layoff", "layoff_not_free"]
    assert steps(error.explanation)[-1] == (
        "R23",
        "layoff_not_free",
        {"card": "10H"},
        "10H is not a free card of the defender: he does not hold it, or it is in one of his declared melds (R23)",
    )


def test_r18_a_layoff_after_gin():
    with pytest.raises(LayoffError) as caught:
        judge_hand(
            cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"),
            cards("JS AH 2H 3H 4D 5D 6D JC QC KC"),
            knocker_melds=melds("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"),
            layoffs=layoffs("JS>0"),
        )
    assert steps(caught.value.explanation) == [
        ("R18", "layoff_after_gin", {"card": "JS"}, "The knocker went gin, so the defender may not lay off JS (R18)")
    ]


def test_r23_layoffs_without_the_knockers_melds():
    with pytest.raises(LayoffError) as caught:
        judge_hand(cards(KNOCK_19[0]), cards(DEFENDER), layoffs=layoffs("8H>0"))
    assert steps(caught.value.explanation) == [
        (
            "R23",
            "layoffs_without_melds",
            {},
            "Layoffs name the knocker's melds by number, so they may be declared only with the knocker's melds (R23)",
        )
    ]


# --- the explanation's numbers are the ruling's ------------------------------------------

SCORER = {"knock": Side.KNOCKER, "gin": Side.KNOCKER, "undercut": Side.DEFENDER}


@settings(PROPERTY, max_examples=150)
@given(
    deals(),
    st.integers(0, 100),
    st.integers(0, 100),
    st.sampled_from(["undeclared", "melds", "melds and layoffs"]),
)
def test_the_explanations_numbers_are_always_the_rulings(deal, gin_bonus, undercut_bonus, declared):
    knocker, defender = deal
    rules = Rules(gin_bonus=gin_bonus, undercut_bonus=undercut_bonus)
    ruling = judge_hand(knocker, defender, rules=rules)
    if declared != "undeclared":  # the knocker declares what he spread; the defender lays nothing off
        spread = [list(mm.cards) for mm in ruling.knocker.melds]
        ruling = judge_hand(
            knocker,
            defender,
            knocker_melds=spread,
            layoffs=[] if declared == "melds and layoffs" else None,
            rules=rules,
        )
    explanation = list(explain_hand(ruling, rules))
    codes = [str(s.code) for s in explanation]
    for step in explanation:
        assert tuple(step.params) == STEPS[step.code][1]
        assert step.text.endswith(f" ({step.rule})")
    first = explanation[0].params
    assert (first["deadwood_count"], first["deadwood"]) == (
        ruling.knocker.deadwood_count,
        tuple(str(x) for x in ruling.knocker.deadwood),
    )
    assert first["melds"] == tuple(tuple(str(x) for x in mm.cards) for mm in ruling.knocker.melds)
    assert ("knock_valid" in codes) == (str(ruling.outcome) != "gin")
    laid = [(s.params["card"], s.params["meld"]) for s in explanation if s.code is Code.LAYOFF]
    assert laid == [(str(lo.card), lo.meld) for lo in ruling.defender.layoffs]
    defender_step = next(s for s in explanation if s.code is Code.DEFENDER_SPREAD).params
    assert defender_step["deadwood_count"] == ruling.defender.deadwood_count
    assert defender_step["deadwood"] == tuple(str(x) for x in ruling.defender.deadwood)
    outcome = next(s for s in explanation if str(s.code) in SCORER)
    assert (str(outcome.code), SCORER[str(outcome.code)], outcome.params["points"]) == (
        str(ruling.outcome),
        ruling.scorer,
        ruling.points,
    )
    p = outcome.params
    if outcome.code is Code.GIN:
        assert (p["defender_count"], p["gin_bonus"] + p["defender_count"]) == (
            ruling.defender.deadwood_count,
            p["points"],
        )
    else:
        assert (p["knocker_count"], p["defender_count"]) == (
            ruling.knocker.deadwood_count,
            ruling.defender.deadwood_count,
        )
        if outcome.code is Code.KNOCK:
            assert p["defender_count"] - p["knocker_count"] == p["points"]
        else:
            assert (p["difference"], p["undercut_bonus"] + p["difference"]) == (
                p["knocker_count"] - p["defender_count"],
                p["points"],
            )
    assert ("better_arrangement" in codes) == (ruling.knocker.better is not None)
    assert ("better_play" in codes) == (ruling.defender_better is not None)
    if ruling.defender_better is not None:
        better = next(s for s in explanation if s.code is Code.BETTER_PLAY).params
        assert (better["deadwood_count"], better["declared_count"]) == (
            ruling.defender_better.deadwood_count,
            ruling.defender.deadwood_count,
        )


@settings(PROPERTY, max_examples=200)
@given(st.integers(0, 10), st.integers(0, 100), st.integers(0, 100), st.integers(0, 100))
def test_r25_counts_explanations_numbers_are_always_the_scores(k, d, gin_bonus, undercut_bonus):
    rules = Rules(gin_bonus=gin_bonus, undercut_bonus=undercut_bonus)
    result = score(k, d, rules)
    explanation = explain_counts(result.outcome, result.points, k, d, rules)
    assert explanation[0].params == {"knocker_count": k, "defender_count": d}
    last = explanation[-1]
    assert (str(last.code), SCORER[str(last.code)], last.params["points"]) == (
        str(result.outcome),
        result.scorer,
        result.points,
    )
    assert len(explanation) == (2 if result.outcome == "gin" else 3)
