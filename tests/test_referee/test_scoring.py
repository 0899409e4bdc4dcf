"""Scoring a knock (R16-R18), quick entry by counts (R25) and the rule options."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import DRAW, CountError, Outcome, RuleOptionError, Rules, Score, Side, score, score_counts
from tests import reference
from tests.test_referee.referee_helpers import PROPERTY


def as_tuple(result):
    return str(result.outcome), None if result.scorer is None else str(result.scorer), result.points


def test_r16_a_lower_knocker_count_scores_the_difference():
    assert score(5, 67) == Score(Outcome.KNOCK, Side.KNOCKER, 62)
    assert as_tuple(score(7, 8)) == ("knock", "knocker", 1)


def test_r17_equal_counts_is_an_undercut():
    # OpenSpiel scores equal deadwood as 0; RULES.md R17 says undercut.
    assert score(8, 8) == Score(Outcome.UNDERCUT, Side.DEFENDER, 10)


def test_r17_a_higher_knocker_count_is_an_undercut_of_bonus_plus_difference():
    assert as_tuple(score(9, 0)) == ("undercut", "defender", 19)
    assert as_tuple(score(10, 4)) == ("undercut", "defender", 16)


def test_r17_the_undercut_bonus_option():
    assert as_tuple(score(8, 8, Rules(undercut_bonus=20))) == ("undercut", "defender", 20)
    assert as_tuple(score(9, 5, Rules(undercut_bonus=20))) == ("undercut", "defender", 24)


def test_r17_an_undercut_bonus_of_zero_is_still_an_undercut():
    assert score(9, 9, Rules(undercut_bonus=0)) == Score(Outcome.UNDERCUT, Side.DEFENDER, 0)


def test_r18_gin_scores_the_defenders_deadwood_plus_the_gin_bonus():
    assert score(0, 61) == Score(Outcome.GIN, Side.KNOCKER, 86)


def test_r18_the_gin_bonus_option():
    assert as_tuple(score(0, 74, Rules(gin_bonus=20))) == ("gin", "knocker", 94)
    assert as_tuple(score(0, 74, Rules(gin_bonus=0))) == ("gin", "knocker", 74)


def test_r18_a_defender_with_no_deadwood_against_gin_scores_nothing():
    assert score(0, 0) == Score(Outcome.GIN, Side.KNOCKER, 25)


def test_r22_a_knocker_who_declared_deadwood_is_not_gin_even_at_zero_count():
    assert as_tuple(score(0, 5, gin=False)) == ("knock", "knocker", 5)
    assert as_tuple(score(0, 0, gin=False)) == ("undercut", "defender", 10)


def test_r12_a_draw_scores_nothing():
    assert Score(Outcome.DRAW, None, 0) == DRAW


def test_the_enums_carry_the_strings_the_api_emits():
    assert [str(o) for o in Outcome] == ["knock", "gin", "undercut", "draw"]
    assert [str(s) for s in Side] == ["knocker", "defender"]


@settings(PROPERTY)
@given(st.integers(0, 10), st.integers(0, 100), st.integers(0, 100), st.integers(0, 100))
def test_r16_r17_r18_score_equals_the_reference(knocker, defender, gin_bonus, undercut_bonus):
    result = score(knocker, defender, Rules(gin_bonus=gin_bonus, undercut_bonus=undercut_bonus))
    expected = reference.score(knocker, defender, gin_bonus, undercut_bonus)
    assert as_tuple(result) == (expected["outcome"], expected["scorer"], expected["points"])
    assert result.points >= 0


# --- rule options ------------------------------------------------------------------------


def test_rule_options_default_to_the_rules():
    assert Rules() == Rules.from_options(None) == Rules.from_options({})
    assert Rules().as_dict() == {"gin_bonus": 25, "undercut_bonus": 10, "knock_limit": 10, "target_score": 100}


def test_rule_options_left_out_take_their_defaults():
    assert Rules.from_options({"gin_bonus": 20}) == Rules(
        gin_bonus=20, undercut_bonus=10, knock_limit=10, target_score=100
    )


def test_rule_options_an_unknown_option_is_refused():
    with pytest.raises(RuleOptionError) as caught:
        Rules.from_options({"gin_bonus": 20, "big_gin_bonus": 31})
    err = caught.value
    assert str(err) == "unknown rule option 'big_gin_bonus'"
    assert (err.rule, err.field, err.option, err.value) == ("options", "rules.big_gin_bonus", "big_gin_bonus", 31)


@pytest.mark.parametrize(
    ("option", "value", "low", "high", "rule"),
    [
        ("gin_bonus", -1, 0, 100, "R18"),
        ("gin_bonus", 101, 0, 100, "R18"),
        ("undercut_bonus", -1, 0, 100, "R17"),
        ("undercut_bonus", 101, 0, 100, "R17"),
        ("knock_limit", -1, 0, 10, "R14"),
        ("knock_limit", 11, 0, 10, "R14"),
        ("target_score", 9, 10, 1000, "R20"),
        ("target_score", 1001, 10, 1000, "R20"),
    ],
)
def test_rule_options_out_of_range_are_refused(option, value, low, high, rule):
    with pytest.raises(RuleOptionError) as caught:
        Rules.from_options({option: value})
    err = caught.value
    assert str(err) == f"{option} must be a whole number from {low} to {high}, not {value}"
    assert (err.rule, err.field, err.option, err.value) == (rule, f"rules.{option}", option, value)
    assert (err.minimum, err.maximum) == (low, high)


@pytest.mark.parametrize("value", [True, False, 10.0, "10", None, [10]])
def test_rule_options_must_be_whole_numbers_not_bools_floats_or_strings(value):
    with pytest.raises(RuleOptionError) as caught:
        Rules.from_options({"knock_limit": value})
    assert caught.value.option == "knock_limit"
    assert caught.value.value == value
    with pytest.raises(RuleOptionError):
        Rules(knock_limit=value)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("gin_bonus", 0),
        ("gin_bonus", 100),
        ("undercut_bonus", 0),
        ("undercut_bonus", 100),
        ("knock_limit", 0),
        ("knock_limit", 10),
        ("target_score", 10),
        ("target_score", 1000),
    ],
)
def test_rule_options_the_bounds_themselves_are_accepted(option, value):
    assert getattr(Rules.from_options({option: value}), option) == value


# --- quick entry by counts (R25) -------------------------------------------------------


@pytest.mark.parametrize(
    ("knocker", "defender", "expected"),
    [
        (0, 0, ("gin", "knocker", 25)),
        (0, 100, ("gin", "knocker", 125)),
        (10, 100, ("knock", "knocker", 90)),
        (3, 12, ("knock", "knocker", 9)),
        (7, 7, ("undercut", "defender", 10)),
        (10, 0, ("undercut", "defender", 20)),
    ],
)
def test_r25_counts_are_scored_by_r16_to_r18(knocker, defender, expected):
    assert as_tuple(score_counts(knocker, defender)) == expected


def test_r25_the_knockers_count_is_bounded_by_the_knock_limit_option():
    assert as_tuple(score_counts(5, 9, Rules(knock_limit=5))) == ("knock", "knocker", 4)
    with pytest.raises(CountError) as caught:
        score_counts(6, 9, Rules(knock_limit=5))
    err = caught.value
    assert (err.rule, err.field, err.value, err.minimum, err.maximum) == ("R25", "knocker_deadwood_count", 6, 0, 5)


@pytest.mark.parametrize(
    ("knocker", "defender", "field", "high"),
    [
        (11, 20, "knocker_deadwood_count", 10),
        (-1, 20, "knocker_deadwood_count", 10),
        (5, 101, "defender_deadwood_count", 100),
        (5, -1, "defender_deadwood_count", 100),
    ],
)
def test_r25_counts_out_of_range_are_refused(knocker, defender, field, high):
    with pytest.raises(CountError) as caught:
        score_counts(knocker, defender)
    err = caught.value
    value = knocker if field.startswith("knocker") else defender
    assert str(err) == f"{field} must be a whole number from 0 to {high}, not {value}"
    assert (err.rule, err.field, err.value, err.minimum, err.maximum) == ("R25", field, value, 0, high)


@pytest.mark.parametrize("value", [3.0, 3.5, "3", True, False, None])
def test_r25_counts_must_be_whole_numbers(value):
    with pytest.raises(CountError) as caught:
        score_counts(value, 20)
    assert (caught.value.field, caught.value.value) == ("knocker_deadwood_count", value)
    with pytest.raises(CountError) as caught:
        score_counts(3, value)
    assert (caught.value.field, caught.value.value) == ("defender_deadwood_count", value)
