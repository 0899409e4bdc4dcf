"""Cards and their notation (R1-R3)."""

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import DECK, Card, CardSyntaxError, RefereeError, parse_card, parse_cards, sort_cards
from tests.test_referee.referee_helpers import PROPERTY, cards, names

CANONICAL = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]
VS16 = "\ufe0f"  # the emoji variation selector phones add after a suit symbol


def test_r1_the_deck_has_52_distinct_cards_in_canonical_order():
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert names(DECK) == CANONICAL
    assert [c.index for c in DECK] == list(range(52))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("AS", 1),
        ("2H", 2),
        ("9D", 9),
        ("10C", 10),
        ("JS", 10),
        ("QH", 10),
        ("KD", 10),
    ],
)
def test_r2_card_values(text, value):
    assert parse_card(text).value == value


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10h", "10H"),
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("T♥", "10H"),
        ("T♥" + VS16, "10H"),
        ("10♥" + VS16, "10H"),
        ("Q♠", "QS"),
        ("q♠", "QS"),
        ("Q♠" + VS16, "QS"),
        ("K♦", "KD"),
        ("k♦" + VS16, "KD"),
        ("7♣", "7C"),
        ("7♣" + VS16, "7C"),
        ("as", "AS"),
        ("aS", "AS"),
        ("A♠", "AS"),
        ("1C", "AC"),
        ("1c", "AC"),
        ("1♥", "AH"),
        ("jd", "JD"),
        ("  KD  ", "KD"),
        ("\tJd\n", "JD"),
        (" 10h ", "10H"),
        (" 2♥" + VS16 + " ", "2H"),
    ],
)
def test_r3_accepted_spellings(text, canonical):
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "A",
        "S",
        "10",
        "♥" + VS16,
        "11H",
        "0S",
        "1OH",
        "01C",
        "H10",
        "SA",
        "AX",
        "KK",
        "10HH",
        "A S",
        "10 H",
        "1 0H",
        "AS 2S",
        "ZS",
        "1.0H",
        "AS,",
        "１０H",
        "AＳ",
        "14C",
        "Joker",
    ],
)
def test_r3_a_string_that_is_not_a_card_is_a_syntax_error_naming_it(text):
    with pytest.raises(CardSyntaxError) as caught:
        parse_card(text)
    err = caught.value
    assert err.text == text
    assert repr(text) in str(err)
    assert err.rule == "R3"
    assert isinstance(err, ValueError)
    assert not isinstance(err, RefereeError)  # syntax errors stay apart from rule errors


@pytest.mark.parametrize("value", [None, 10, 1.5, b"AS", ["AS"]])
def test_r3_a_non_string_is_a_syntax_error(value):
    with pytest.raises(CardSyntaxError) as caught:
        parse_card(value)
    assert caught.value.text == value


@pytest.mark.parametrize("text", ["1" + VS16 + "0H", "A" + VS16 + "S"])
def test_r3_a_variation_selector_is_ignored_only_after_a_suit_symbol(text):
    with pytest.raises(CardSyntaxError):
        parse_card(text)


def test_r3_unicode_case_mapping_does_not_turn_long_s_into_spades():
    with pytest.raises(CardSyntaxError):
        parse_card("a\u017f")


def test_r3_output_is_canonical_and_repr_is_pasteable():
    card = parse_card("th")
    assert str(card) == "10H"
    assert repr(card) == "Card.parse('10H')"
    assert eval(repr(card), {"Card": Card}) == card
    assert Card.parse("q♠") == parse_card("QS")


@pytest.mark.parametrize("card", DECK, ids=CANONICAL)
def test_r3_every_card_round_trips_through_its_canonical_string(card):
    assert parse_card(str(card)) is card
    assert str(parse_card(str(card).lower())) == str(card)


@pytest.mark.parametrize("text", CANONICAL)
def test_r3_every_canonical_string_round_trips_through_its_card(text):
    assert str(parse_card(text)) == text


def test_r3_parse_cards_takes_a_list_or_one_string_separated_by_spaces():
    assert names(parse_cards("AS 2s  3♠ \n th")) == ["AS", "2S", "3S", "10H"]
    assert names(parse_cards(["AS", " 2s ", "3♠"])) == ["AS", "2S", "3S"]
    assert parse_cards("") == []


def test_r3_parse_cards_names_the_bad_string():
    with pytest.raises(CardSyntaxError) as caught:
        parse_cards("AS 2S XX 4S")
    assert caught.value.text == "XX"


def test_r3_canonical_order_is_suit_s_h_d_c_then_rank_ace_low():
    assert names(sort_cards(cards("KC AS 10H 2S AH KS QD AD 3C"))) == [
        "AS",
        "2S",
        "KS",
        "AH",
        "10H",
        "AD",
        "QD",
        "3C",
        "KC",
    ]
    assert parse_card("AS") < parse_card("2S") < parse_card("KS") < parse_card("AH")
    assert sorted(DECK, reverse=True)[0] == parse_card("KC")


def test_r1_a_card_outside_the_deck_cannot_be_built():
    with pytest.raises(CardSyntaxError):
        Card(4, 1)
    with pytest.raises(CardSyntaxError):
        Card(0, 14)
    with pytest.raises(CardSyntaxError):
        Card(0, 0)
    with pytest.raises(CardSyntaxError):
        Card(True, 1)  # equal to 1, but not a card's suit


def test_r1_there_is_one_object_per_card():
    for card in DECK:
        assert Card(card.suit, card.rank) is card
        assert pickle.loads(pickle.dumps(card)) is card
        assert copy.deepcopy(card) is card
        assert dataclasses.replace(card) is card
        assert card.flag == 1 << card.index
        assert card.value == min(card.rank, 10)
    assert {Card(1, 5): "5H"}[parse_card("5h")] == "5H"


CARDISH = "AaTt1234567890JjQqKkSsHhDdCc♠♥♦♣ \t" + VS16


@settings(PROPERTY)
@given(st.one_of(st.text(), st.text(alphabet=CARDISH, max_size=6)))
def test_r3_arbitrary_text_is_a_card_or_a_syntax_error(text):
    try:
        card = parse_card(text)
    except CardSyntaxError as err:
        assert err.text == text
    else:
        assert card in DECK
        assert str(card) in CANONICAL
        assert parse_card(str(card)) == card


RANK_SPELLINGS = {1: ["A", "a", "1"], 10: ["10", "T", "t"], 11: ["J", "j"], 12: ["Q", "q"], 13: ["K", "k"]}
SUIT_SPELLINGS = [
    ["S", "s", "♠", "♠" + VS16],
    ["H", "h", "♥", "♥" + VS16],
    ["D", "d", "♦", "♦" + VS16],
    ["C", "c", "♣", "♣" + VS16],
]


@st.composite
def spellings(draw):
    card = draw(st.sampled_from(DECK))
    rank = draw(st.sampled_from(RANK_SPELLINGS.get(card.rank, [str(card.rank)])))
    suit = draw(st.sampled_from(SUIT_SPELLINGS[card.suit]))
    space = st.sampled_from(["", " ", "  ", "\t", "\n"])
    return card, draw(space) + rank + suit + draw(space)


@settings(PROPERTY)
@given(spellings())
def test_r3_any_spelling_of_a_card_parses_to_it_and_prints_canonically(spelled):
    card, text = spelled
    assert parse_card(text) == card
    assert str(parse_card(text)) == str(card)
    assert parse_card(str(parse_card(text))) == card
