"""The steps of a ruling's explanation: what the referee saw and applied, in
order, each citing its rule.

A :class:`Step` is a rule, a stable ``code`` and the ``params`` that fill it
(cards in canonical notation, counts, meld numbers, points); its English
``text`` is always built from one table, :data:`STEPS` (code -> rule, params,
template), so a client may say the same in any language from the code and
the params alone. Params with the same name mean the same thing in every
code (:data:`PARAMS`).

>>> step = Step.of(Code.KNOCK_VALID, deadwood_count=7, limit=10)
>>> step.rule, step.text
('R14', 'Knock stands: 7 deadwood, within the limit of 10 (R14)')
>>> Step.of(Code.LAYOFF, card="8H", meld=0, onto=("5H", "6H", "7H")).text
'The defender lays off 8H on 5H 6H 7H (R15)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from string import Formatter
from typing import cast

from referee.cards import DECK, Card
from referee.melds import Arrangement, Meld

#: A param's value: a count or number, a card, cards, melds (each its cards),
#: or layoffs (each ``{"card", "meld"}``).
Param = int | str | tuple[str, ...] | tuple[tuple[str, ...], ...] | tuple[Mapping[str, int | str], ...]


class Code(StrEnum):
    DISCARD = "discard"
    KNOCKER_SPREAD = "knocker_spread"
    KNOCK_VALID = "knock_valid"
    KNOCK_OVER_LIMIT = "knock_over_limit"
    DECLARED_OVER_LIMIT = "declared_over_limit"
    LEGAL_ARRANGEMENT = "legal_arrangement"
    LAYOFF = "layoff"
    DEFENDER_SPREAD = "defender_spread"
    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BETTER_ARRANGEMENT = "better_arrangement"
    BETTER_PLAY = "better_play"
    COUNTS = "counts"
    DRAW = "draw"
    LAYOFFS_WITHOUT_MELDS = "layoffs_without_melds"
    LAYOFF_AFTER_GIN = "layoff_after_gin"
    LAYOFF_NO_MELD = "layoff_no_meld"
    LAYOFF_TWICE = "layoff_twice"
    LAYOFF_NOT_FREE = "layoff_not_free"
    LAYOFF_DOES_NOT_FIT = "layoff_does_not_fit"


#: Every param, by name: (kind, what it is). Kinds: count (a whole number),
#: card, cards, melds, layoffs.
PARAMS: dict[str, tuple[str, str]] = {
    "card": ("card", "the card concerned"),
    "meld": ("count", "the knocker's meld, by its number from 0 in the ruling's knocker melds (R22)"),
    "meld_count": ("count", "how many melds the knocker spread"),
    "onto": ("cards", "the knocker's meld as it stands, with the layoffs before"),
    "melds": ("melds", "the melds of the spread or arrangement concerned"),
    "deadwood": ("cards", "its deadwood cards (R7)"),
    "deadwood_count": ("count", "its deadwood count (R7)"),
    "layoffs": ("layoffs", "layoffs in the order played: the card and the knocker's meld number"),
    "declared_count": ("count", "the deadwood count of what was declared"),
    "limit": ("count", "the knock limit (R14)"),
    "knocker_count": ("count", "the knocker's deadwood count"),
    "defender_count": ("count", "the defender's deadwood count, after layoffs"),
    "difference": ("count", "the knocker's count minus the defender's"),
    "undercut_bonus": ("count", "the undercut bonus (R17)"),
    "gin_bonus": ("count", "the gin bonus (R18)"),
    "points": ("count", "the points scored"),
    "up_card": ("card", "the hand's up-card, the first card turned face up (R33)"),
    "big_gin_bonus": ("count", "the big gin bonus (R32)"),
    "base_points": ("count", "the hand's points before the spade double (R33)"),
    "base_boxes": ("count", "the hand's boxes before the spade double (R29, R33)"),
    "boxes": ("count", "the boxes the hand counts for its winner (R29)"),
    "player": ("count", "a player of the game, by his id"),
    "loser": ("count", "the player who lost the game (R31), or the one behind in a pair (R36), by his id"),
    "other": ("count", "another player of the game, by his id"),
    "box_bonus": ("count", "the box bonus, per box (R29)"),
    "box_points": ("count", "a player's box bonuses: his boxes times the box bonus (R29)"),
    "game_bonus": ("count", "the game bonus (R30)"),
    "hand_points": ("count", "a player's hand points in the game"),
    "shutout_points": ("count", "what a shutout adds to the winner's total (R31)"),
    "total": ("count", "a player's total at the end of the game (R31)"),
    "loser_total": ("count", "the loser's total (R31), or the total of the one behind in a pair (R36)"),
    "net": ("count", "the winner's total minus the loser's (R31), or a pair's (R36)"),
}

#: code -> (rule, params, English template). The text is the template filled
#: with the params, then the rule in parentheses.
STEPS: dict[Code, tuple[str, tuple[str, ...], str]] = {
    Code.DISCARD: ("R14", ("card",), "{card} is the discard: the knock is judged on the other 10 cards"),
    Code.KNOCKER_SPREAD: (
        "R7",
        ("melds", "deadwood", "deadwood_count"),
        "The knocker melds {melds} and keeps {deadwood}: {deadwood_count} deadwood",
    ),
    Code.KNOCK_VALID: (
        "R14",
        ("deadwood_count", "limit"),
        "Knock stands: {deadwood_count} deadwood, within the limit of {limit}",
    ),
    Code.KNOCK_OVER_LIMIT: (
        "R14",
        ("deadwood_count", "limit"),
        "Knock does not stand: the least deadwood of these cards is {deadwood_count}, over the limit of {limit}",
    ),
    Code.DECLARED_OVER_LIMIT: (
        "R14",
        ("deadwood_count", "limit"),
        "Knock does not stand: the declared melds leave {deadwood_count} deadwood, over the limit of {limit}",
    ),
    Code.LEGAL_ARRANGEMENT: (
        "R14",
        ("melds", "deadwood", "deadwood_count", "limit"),
        "The knock would stand melded {melds}, keeping {deadwood}: "
        "{deadwood_count} deadwood, within the limit of {limit}",
    ),
    Code.LAYOFF: ("R15", ("card", "meld", "onto"), "The defender lays off {card} on {onto}"),
    Code.DEFENDER_SPREAD: (
        "R16",
        ("melds", "deadwood", "deadwood_count"),
        "The defender melds {melds} and keeps {deadwood}: {deadwood_count} deadwood",
    ),
    Code.KNOCK: (
        "R16",
        ("knocker_count", "defender_count", "points"),
        "Knock: the knocker's {knocker_count} is lower than the defender's {defender_count}, "
        "so the knocker scores {defender_count} - {knocker_count} = {points}",
    ),
    Code.UNDERCUT: (
        "R17",
        ("knocker_count", "defender_count", "undercut_bonus", "difference", "points"),
        "Undercut: the knocker's {knocker_count} is not lower than the defender's {defender_count}, "
        "so the defender scores {undercut_bonus} + {difference} = {points}",
    ),
    Code.GIN: (
        "R18",
        ("defender_count", "gin_bonus", "points"),
        "Gin: the knocker has no deadwood, so the defender may not lay off and cannot score; "
        "the knocker scores the defender's {defender_count} + {gin_bonus} = {points}",
    ),
    Code.BETTER_ARRANGEMENT: (
        "R22",
        ("melds", "deadwood", "deadwood_count", "declared_count"),
        "The knocker could have melded {melds} and kept {deadwood}: "
        "{deadwood_count} deadwood instead of {declared_count}",
    ),
    Code.BETTER_PLAY: (
        "R22",
        ("melds", "layoffs", "deadwood", "deadwood_count", "declared_count"),
        "The defender could have melded {melds}, laid off {layoffs} and kept {deadwood}: "
        "{deadwood_count} deadwood instead of {declared_count}",
    ),
    Code.COUNTS: (
        "R25",
        ("knocker_count", "defender_count"),
        "Entered by counts: the knocker's deadwood is {knocker_count}, the defender's {defender_count} after layoffs",
    ),
    Code.DRAW: (
        "R12",
        (),
        "Draw: only two cards are left in the stock and nobody knocked, so nobody scores and the roles stay",
    ),
    Code.LAYOFFS_WITHOUT_MELDS: (
        "R23",
        (),
        "Layoffs name the knocker's melds by number, so they may be declared only with the knocker's melds",
    ),
    Code.LAYOFF_AFTER_GIN: ("R18", ("card",), "The knocker went gin, so the defender may not lay off {card}"),
    Code.LAYOFF_NO_MELD: (
        "R23",
        ("card", "meld", "meld_count"),
        "{card} cannot be laid off on knocker meld {meld}: the knocker spread {meld_count} melds, numbered from 0",
    ),
    Code.LAYOFF_TWICE: ("R6", ("card",), "{card} is laid off twice: a card goes into one meld only"),
    Code.LAYOFF_NOT_FREE: (
        "R23",
        ("card",),
        "{card} is not a free card of the defender: he does not hold it, or it is in one of his declared melds",
    ),
    Code.LAYOFF_DOES_NOT_FIT: (
        "R15",
        ("card", "meld", "onto"),
        "{card} does not fit the knocker's meld {meld}, {onto}",
    ),
}


class PresetCode(StrEnum):
    """The steps only the presets take (R32, R33): a table of their own
    (:data:`PRESET_STEPS`), built and shown exactly as :class:`Code`'s."""

    UP_CARD_LIMIT = "up_card_limit"
    UP_CARD_ACE = "up_card_ace"
    BIG_GIN = "big_gin"
    SPADE_DOUBLE = "spade_double"
    SPADE_DOUBLE_BOXES = "spade_double_boxes"


PRESET_STEPS: dict[PresetCode, tuple[str, tuple[str, ...], str]] = {
    PresetCode.UP_CARD_LIMIT: (
        "R33",
        ("up_card", "limit"),
        "The up-card is {up_card}: its value, {limit}, is the knock limit",
    ),
    PresetCode.UP_CARD_ACE: (
        "R33",
        ("up_card", "limit"),
        "The up-card is the ace {up_card}: by option ace the knock limit is {limit}",
    ),
    PresetCode.BIG_GIN: (
        "R32",
        ("defender_count", "big_gin_bonus", "points"),
        "Big gin: the knocker melds all 11 cards, so the defender may not lay off and cannot score; "
        "the knocker scores the defender's {defender_count} + {big_gin_bonus} = {points}",
    ),
    PresetCode.SPADE_DOUBLE: (
        "R33",
        ("up_card", "base_points", "points"),
        "The up-card {up_card} is a spade: the hand's points are doubled, {base_points} x 2 = {points}",
    ),
    PresetCode.SPADE_DOUBLE_BOXES: (
        "R33",
        ("up_card", "base_boxes", "boxes"),
        "The up-card {up_card} is a spade: the hand's boxes are doubled too, {base_boxes} x 2 = {boxes}",
    ),
}


class SheetCode(StrEnum):
    """The steps of a two-player game's score sheet (R29-R31): the boxes a
    hand counts, and how the result is made. A table of their own
    (:data:`SHEET_STEPS`), built and shown exactly as :class:`Code`'s."""

    HAND_BOXES = "hand_boxes"
    BOX_BONUS = "box_bonus"
    GAME_BONUS = "game_bonus"
    SHUTOUT_DOUBLE = "shutout_double"
    SHUTOUT_PLUS_100 = "shutout_plus_100"
    TOTAL = "total"
    NET = "net"
    SHUTOUT_DOUBLE_TWO = "shutout_double_two"
    PAIR_NET = "pair_net"


SHEET_STEPS: dict[SheetCode, tuple[str, tuple[str, ...], str]] = {
    SheetCode.HAND_BOXES: ("R29", ("boxes",), "The winner of the hand counts {boxes} box(es)"),
    SheetCode.BOX_BONUS: (
        "R29",
        ("player", "boxes", "box_bonus", "box_points"),
        "Player {player} has {boxes} box(es) at {box_bonus} each: {box_points}",
    ),
    SheetCode.GAME_BONUS: (
        "R30",
        ("player", "game_bonus"),
        "Player {player} reached the target first and wins the game: the game bonus, {game_bonus}",
    ),
    SheetCode.SHUTOUT_DOUBLE: (
        "R31",
        ("player", "loser", "shutout_points"),
        "Player {loser} won no hand, a shutout: player {player}'s hand points and game bonus are doubled, "
        "+{shutout_points}",
    ),
    SheetCode.SHUTOUT_PLUS_100: (
        "R31",
        ("player", "loser", "shutout_points"),
        "Player {loser} won no hand, a shutout: player {player}'s game bonus is increased by {shutout_points}",
    ),
    SheetCode.TOTAL: (
        "R31",
        ("player", "hand_points", "box_points", "game_bonus", "shutout_points", "total"),
        "Player {player}: {hand_points} in hands + {box_points} in boxes + {game_bonus} game bonus "
        "+ {shutout_points} shutout = {total}",
    ),
    SheetCode.NET: (
        "R31",
        ("player", "total", "loser_total", "net"),
        "The net to player {player}: {total} - {loser_total} = {net}",
    ),
    SheetCode.SHUTOUT_DOUBLE_TWO: (
        "R36",
        ("player", "loser", "other", "shutout_points"),
        "Players {loser} and {other} won no hand, shutouts: player {player}'s hand points and game bonus are "
        "doubled once, +{shutout_points}",
    ),
    SheetCode.PAIR_NET: (
        "R36",
        ("player", "loser", "total", "loser_total", "net"),
        "Between player {player} and player {loser}: {total} - {loser_total} = {net}",
    ),
}


def _cards(cards: tuple[str, ...]) -> str:
    return " ".join(cards) or "nothing"


def _melds(melds: tuple[tuple[str, ...], ...]) -> str:
    return " | ".join([" ".join(m) for m in melds]) or "nothing"


def _layoffs(layoffs: tuple[Mapping[str, int | str], ...]) -> str:
    return " then ".join([f"{lo['card']} on meld {lo['meld']}" for lo in layoffs]) or "nothing"


#: how a param of each kind shows in a text (a count or a card: as it is)
_SHOWN = {"cards": _cards, "melds": _melds, "layoffs": _layoffs}


def _renderer(code: Code | PresetCode | SheetCode) -> Callable[[Mapping[str, Param]], str]:
    """The English text of a step ``code``, as a function of its params: its
    template (:data:`STEPS`) made once into the joining of its pieces, each
    param shown as its kind is, then the rule. A step's text is built for
    every hand served; filling the template anew each time (a copy of the
    params, the template parsed, each param's kind looked up) cost twice as
    much. The function's source holds nothing but the table's own texts, as
    Python literals."""
    if isinstance(code, Code):
        rule, names, template = STEPS[code]
    elif isinstance(code, PresetCode):
        rule, names, template = PRESET_STEPS[code]
    else:
        rule, names, template = SHEET_STEPS[code]
    pieces, shown = [], dict(_SHOWN)
    for literal, name, spec, conversion in Formatter().parse(template):
        if literal:
            pieces.append(repr(literal))
        if name is None:
            continue
        if name not in names or spec or conversion:
            raise ValueError(f"{code}: the template's {{{name}}} is not one of its params, as it is")
        kind = PARAMS[name][0]
        pieces.append(f"_{kind}(p[{name!r}])" if kind in shown else f"str(p[{name!r}])")
    pieces.append(repr(f" ({rule})"))
    namespace = {f"_{kind}": show for kind, show in shown.items()}
    exec(f"def render(p):\n    return ''.join(({', '.join(pieces)},))", namespace)  # noqa: S102
    return cast(Callable[[Mapping[str, Param]], str], namespace["render"])


#: code's value -> (its rule, its text's renderer); by the plain string, as an
#: enum member hashes in Python
_BY_VALUE = {code._value_: (STEPS[code][0], _renderer(code)) for code in STEPS}
_BY_VALUE.update({code._value_: (PRESET_STEPS[code][0], _renderer(code)) for code in PRESET_STEPS})
_BY_VALUE.update({code._value_: (SHEET_STEPS[code][0], _renderer(code)) for code in SHEET_STEPS})


@dataclass(frozen=True, slots=True)
class Step:
    """One step of an explanation: ``rule``, ``code`` and the ``params`` that fill its text."""

    rule: str
    code: Code | PresetCode | SheetCode
    params: Mapping[str, Param]

    @classmethod
    def of(cls, code: Code | PresetCode | SheetCode, **params: Param) -> Step:
        """The step ``code`` with its rule from :data:`STEPS`. Its params are
        the table's, in the table's order (the tests hold every builder to it;
        not checked here, as steps are built for every hand served)."""
        return cls(_BY_VALUE[code._value_][0], code, params)

    @property
    def text(self) -> str:
        """The English text: the code's template filled with the params, and the rule."""
        return _BY_VALUE[self.code._value_][1](self.params)


# --- builders shared by the explanations and the errors that carry them ---
# They take cards by their canonical names (R3), as a ruling shows them.

#: canonical name -> position in the canonical order (R3)
POSITION = {str(c): c.index for c in DECK}


def card_names(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(map(str, cards))


def meld_names(melds: Sequence[Meld]) -> tuple[tuple[str, ...], ...]:
    return tuple([tuple(map(str, m.cards)) for m in melds])


def spread(code: Code, melds: Sequence[Sequence[str]], deadwood: Sequence[str], deadwood_count: int) -> Step:
    """A side's spread (``knocker_spread``, ``defender_spread``): melds, deadwood and its count."""
    return Step.of(code, melds=tuple(map(tuple, melds)), deadwood=tuple(deadwood), deadwood_count=deadwood_count)


def layoff_steps(layoffs: Iterable[tuple[str, int]], knocker_melds: Sequence[Sequence[str]]) -> list[Step]:
    """``layoff`` steps: each card onto the knocker's meld as the layoffs before
    it have extended it (R15). The layoffs must fit (verified already)."""
    extended = [list(m) for m in knocker_melds]
    steps = []
    for card, meld in layoffs:
        onto = extended[meld]
        steps.append(Step.of(Code.LAYOFF, card=card, meld=meld, onto=tuple(onto)))
        onto.append(card)
        onto.sort(key=POSITION.__getitem__)
    return steps


def illegal_knock_steps(
    arrangement: Arrangement, declared: bool, least: int, legal: Arrangement | None, limit: int
) -> tuple[Step, ...]:
    """Why a knock does not stand (R14): the arrangement judged, over the
    limit; for declared melds, the legal arrangement or that none is legal."""
    steps = [
        spread(
            Code.KNOCKER_SPREAD,
            meld_names(arrangement.melds),
            card_names(arrangement.deadwood),
            arrangement.deadwood_count,
        )
    ]
    if not declared:
        steps.append(Step.of(Code.KNOCK_OVER_LIMIT, deadwood_count=least, limit=limit))
        return tuple(steps)
    steps.append(Step.of(Code.DECLARED_OVER_LIMIT, deadwood_count=arrangement.deadwood_count, limit=limit))
    if legal is None:
        steps.append(Step.of(Code.KNOCK_OVER_LIMIT, deadwood_count=least, limit=limit))
    else:
        steps.append(
            Step.of(
                Code.LEGAL_ARRANGEMENT,
                melds=meld_names(legal.melds),
                deadwood=card_names(legal.deadwood),
                deadwood_count=legal.deadwood_count,
                limit=limit,
            )
        )
    return tuple(steps)


def better_arrangement(
    melds: Sequence[Sequence[str]], deadwood: Sequence[str], deadwood_count: int, declared_count: int
) -> Step:
    """R22: the knocker's least-deadwood arrangement, against what he declared."""
    return Step.of(
        Code.BETTER_ARRANGEMENT,
        melds=tuple(map(tuple, melds)),
        deadwood=tuple(deadwood),
        deadwood_count=deadwood_count,
        declared_count=declared_count,
    )
