"""Presets and their resolved rules (R27 and the options table)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import RuleOptionError, Rules
from referee.presets import (
    OPTION_RANGES,
    PRESETS,
    Ace,
    NextDealer,
    Preset,
    Shutout,
    SpadesDouble,
    can_resolve_rules,
    resolve_rules,
)
from tests.test_referee.referee_helpers import PROPERTY, card

TWO_PLAYER_DEFAULTS = {
    "next_dealer": "winner",
    "box_bonus": 25,
    "gin_boxes": 1,
    "undercut_boxes": 1,
    "boxes_immediate": False,
    "game_bonus": 100,
    "shutout": "double",
}


def test_r27_three_handed_is_the_default_and_its_hand_rules_are_todays_rules():
    rules = resolve_rules()
    assert rules.preset is Preset.THREE_HANDED
    assert rules.rules == Rules()
    assert rules.as_dict() == {
        "preset": "three_handed",
        "target_score": 100,
        "knock_limit": 10,
        "gin_bonus": 25,
        "undercut_bonus": 10,
        "big_gin_bonus": 0,
    }


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "target_score": st.integers(10, 1000),
            "knock_limit": st.integers(0, 10),
            "gin_bonus": st.integers(0, 100),
            "undercut_bonus": st.integers(0, 100),
        },
    )
)
@PROPERTY
def test_r27_three_handed_with_overrides_equals_rules_from_the_same_options(options):
    resolved = resolve_rules("three_handed", options)
    assert resolved.rules == Rules.from_options(options)
    assert {k: v for k, v in resolved.as_dict().items() if k in Rules().as_dict()} == Rules.from_options(
        options
    ).as_dict()


def test_r27_classic_shows_every_option_with_its_default():
    assert resolve_rules("classic").as_dict() == {
        "preset": "classic",
        "target_score": 100,
        "knock_limit": 10,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "big_gin_bonus": 0,
        **TWO_PLAYER_DEFAULTS,
    }


def test_r35_straight_is_classic_with_knock_limit_0():
    shown = resolve_rules("straight").as_dict()
    assert shown == {**resolve_rules("classic").as_dict(), "preset": "straight", "knock_limit": 0}


def test_r33_oklahoma_has_no_knock_limit_option_a_150_target_and_its_own_options():
    assert resolve_rules("oklahoma").as_dict() == {
        "preset": "oklahoma",
        "target_score": 150,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "big_gin_bonus": 0,
        **TWO_PLAYER_DEFAULTS,
        "ace": "gin_only",
        "spades_double": "points",
    }


def test_r27_overrides_take_the_place_of_the_defaults_and_choices_become_enums():
    rules = resolve_rules(
        "oklahoma",
        {
            "next_dealer": "alternate",
            "shutout": "plus_100",
            "ace": "one",
            "spades_double": "all",
            "boxes_immediate": True,
        },
    )
    assert (rules.next_dealer, rules.shutout, rules.ace, rules.spades_double, rules.boxes_immediate) == (
        NextDealer.ALTERNATE,
        Shutout.PLUS_100,
        Ace.ONE,
        SpadesDouble.ALL,
        True,
    )
    assert rules.as_dict()["spades_double"] == "all"


def test_r34_hollywood_shows_every_option_of_classic_with_its_default():
    rules = resolve_rules("hollywood")
    assert rules.as_dict() == {**resolve_rules("classic").as_dict(), "preset": "hollywood"}
    assert (rules.player_count, rules.terms().limit_rule, rules.terms().knock_boxes) == (2, "R14", 1)


def test_r36_cutthroat_has_no_next_dealer_and_counts_boxes_for_three_players():
    rules = resolve_rules("cutthroat")
    assert rules.as_dict() == {
        "preset": "cutthroat",
        "target_score": 100,
        "knock_limit": 10,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "big_gin_bonus": 0,
        **{k: v for k, v in TWO_PLAYER_DEFAULTS.items() if k != "next_dealer"},
    }
    assert (rules.player_count, rules.terms().knock_boxes, resolve_rules().player_count) == (3, 1, 3)


def test_r27_an_unknown_preset_is_refused_naming_the_presets():
    with pytest.raises(RuleOptionError) as caught:
        resolve_rules("gin_rummy_500")
    err = caught.value
    assert (err.rule, err.field, err.option, err.value) == ("R27", "preset", "preset", "gin_rummy_500")
    assert err.choices == ["three_handed", "classic", "straight", "oklahoma", "hollywood", "cutthroat"]
    assert str(err) == (
        "preset must be one of three_handed, classic, straight, oklahoma, hollywood, cutthroat, not 'gin_rummy_500'"
    )


@pytest.mark.parametrize(
    ("preset", "option", "value"),
    [
        ("three_handed", "box_bonus", 25),
        ("three_handed", "next_dealer", "winner"),
        ("three_handed", "spades_double", "off"),
        ("oklahoma", "knock_limit", 5),
        ("classic", "ace", "one"),
        ("straight", "spades_double", "all"),
        ("classic", "bogus", 1),
    ],
)
def test_r27_an_option_the_preset_does_not_have_is_refused(preset, option, value):
    with pytest.raises(RuleOptionError) as caught:
        resolve_rules(preset, {option: value})
    err = caught.value
    assert (err.rule, err.field, err.option, err.value, err.preset) == ("R27", f"rules.{option}", option, value, preset)
    assert str(err) == f"{option} is not an option of {preset} (R27)"


@pytest.mark.parametrize(
    ("option", "value", "rule", "low", "high"),
    [
        ("target_score", 9, "R20", 10, 1000),
        ("target_score", 1001, "R20", 10, 1000),
        ("knock_limit", 11, "R14", 0, 10),
        ("gin_bonus", -1, "R18", 0, 100),
        ("undercut_bonus", 101, "R17", 0, 100),
        ("big_gin_bonus", 101, "R32", 0, 100),
        ("box_bonus", 101, "R29", 0, 100),
        ("gin_boxes", 0, "R29", 1, 4),
        ("undercut_boxes", 5, "R29", 1, 4),
        ("game_bonus", 501, "R30", 0, 500),
        ("game_bonus", True, "R30", 0, 500),
        ("gin_bonus", "25", "R18", 0, 100),
    ],
)
def test_r27_a_number_out_of_range_names_the_option_the_value_and_the_range(option, value, rule, low, high):
    with pytest.raises(RuleOptionError) as caught:
        resolve_rules("classic", {option: value})
    err = caught.value
    assert (err.rule, err.option, err.value, err.minimum, err.maximum) == (rule, option, value, low, high)
    assert str(err) == f"{option} must be a whole number from {low} to {high}, not {value!r}"


@pytest.mark.parametrize(
    ("option", "value", "rule", "choices"),
    [
        ("next_dealer", "dealer", "R28", ["winner", "loser", "alternate"]),
        ("shutout", "triple", "R31", ["double", "plus_100", "none"]),
        ("shutout", None, "R31", ["double", "plus_100", "none"]),
        ("ace", "eleven", "R33", ["gin_only", "one"]),
        ("spades_double", "ALL", "R33", ["off", "points", "all"]),
    ],
)
def test_r27_a_choice_out_of_range_names_the_choices(option, value, rule, choices):
    with pytest.raises(RuleOptionError) as caught:
        resolve_rules("oklahoma", {option: value})
    err = caught.value
    assert (err.rule, err.option, err.value, err.choices) == (rule, option, value, choices)
    assert str(err) == f"{option} must be one of {', '.join(choices)}, not {value!r}"


@pytest.mark.parametrize("value", ["on", 1, None])
def test_r29_boxes_immediate_is_on_or_off(value):
    with pytest.raises(RuleOptionError) as caught:
        resolve_rules("classic", {"boxes_immediate": value})
    assert (caught.value.rule, caught.value.choices) == ("R29", [True, False])
    assert str(caught.value) == f"boxes_immediate must be on (true) or off (false), not {value!r}"


def test_r27_can_resolve_rules_says_what_resolve_rules_would():
    assert can_resolve_rules("straight", {"knock_limit": 3}) is True
    assert can_resolve_rules("straight", {"knock_limit": 11}) is False
    assert can_resolve_rules("hollywood", {"next_dealer": "loser"}) is True
    assert can_resolve_rules("cutthroat", {"next_dealer": "loser"}) is False


def test_r27_every_option_of_every_preset_has_a_rule_and_a_range():
    for options, defaults in PRESETS.values():
        assert set(options) <= set(OPTION_RANGES)
        assert set(defaults) <= set(options)


@pytest.mark.parametrize(
    ("up", "ace", "limit"),
    [
        ("AH", "gin_only", 0),
        ("AH", "one", 1),
        ("2D", "gin_only", 2),
        ("7C", "one", 7),
        ("10H", "one", 10),
        ("KD", "one", 10),
    ],
)
def test_r33_the_up_cards_value_is_the_knock_limit(up, ace, limit):
    terms = resolve_rules("oklahoma", {"ace": ace}).terms(card(up))
    assert (terms.knock_limit, terms.limit_rule, terms.points_factor, terms.boxes_factor) == (limit, "R33", 1, 1)
    assert terms.up_card == card(up)


@pytest.mark.parametrize(("spades_double", "points", "boxes"), [("off", 1, 1), ("points", 2, 1), ("all", 2, 2)])
def test_r33_a_spade_up_card_doubles_by_spades_double(spades_double, points, boxes):
    terms = resolve_rules("oklahoma", {"spades_double": spades_double}).terms(card("AS"))
    assert (terms.knock_limit, terms.points_factor, terms.boxes_factor) == (0, points, boxes)


def test_r14_r35_the_other_presets_take_their_knock_limit_and_bonuses_from_the_options():
    terms = resolve_rules("straight", {"gin_bonus": 20, "big_gin_bonus": 31}).terms()
    assert (terms.knock_limit, terms.limit_rule, terms.big_gin_bonus) == (0, "R35", 31)
    assert terms.rules == Rules(gin_bonus=20, undercut_bonus=25, knock_limit=0, target_score=100)
    assert resolve_rules("classic", {"knock_limit": 7}).terms().limit_rule == "R14"
