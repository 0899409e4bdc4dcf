"""Presets and their resolved rules (R27, the options table of RULES.md).

A game is played under one preset; its rules are the preset's defaults, then
the table's overrides, validated once. :func:`resolve_rules` is the front door:
an unknown preset, an option the preset does not have or a value out of range
is a :class:`RuleOptionError` naming the option, the value and what is allowed.
``three_handed`` is the default and its hand rules are exactly :class:`Rules`.
What a hand is judged by (its knock limit and bonuses, R14, R32, R33) is asked
of the rules with :meth:`PresetRules.terms`, never decided by the preset's name
elsewhere.

>>> rules = resolve_rules("oklahoma", {"spades_double": "all"})
>>> rules.as_dict()["target_score"], rules.as_dict()["spades_double"], "knock_limit" in rules.as_dict()
(150, 'all', False)
>>> resolve_rules().rules == Rules()
True
>>> resolve_rules("straight", {"ace": "one"})
Traceback (most recent call last):
...
referee.errors.RuleOptionError: ace is not an option of straight (R27)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

from referee.cards import Card
from referee.errors import RuleOptionError
from referee.rules import Rules


class Preset(StrEnum):
    THREE_HANDED = "three_handed"
    CLASSIC = "classic"
    STRAIGHT = "straight"
    OKLAHOMA = "oklahoma"
    HOLLYWOOD = "hollywood"
    CUTTHROAT = "cutthroat"


class NextDealer(StrEnum):
    """R28: who deals the hand after one that someone won."""

    WINNER = "winner"
    LOSER = "loser"
    ALTERNATE = "alternate"


class Shutout(StrEnum):
    """R31: what a shutout pays."""

    DOUBLE = "double"
    PLUS_100 = "plus_100"
    NONE = "none"


class Ace(StrEnum):
    """R33: the knock limit when the up-card is an ace."""

    GIN_ONLY = "gin_only"
    ONE = "one"


class SpadesDouble(StrEnum):
    """R33: what a spade up-card doubles."""

    OFF = "off"
    POINTS = "points"
    ALL = "all"


#: option -> (rule, allowed): a whole-number range (least, most), an enum, or bool (on/off)
OPTION_RANGES: dict[str, tuple[str, tuple[int, int] | type[StrEnum] | type[bool]]] = {
    "target_score": ("R20", (10, 1000)),
    "knock_limit": ("R14", (0, 10)),
    "gin_bonus": ("R18", (0, 100)),
    "undercut_bonus": ("R17", (0, 100)),
    "big_gin_bonus": ("R32", (0, 100)),
    "next_dealer": ("R28", NextDealer),
    "box_bonus": ("R29", (0, 100)),
    "gin_boxes": ("R29", (1, 4)),
    "undercut_boxes": ("R29", (1, 4)),
    "boxes_immediate": ("R29", bool),
    "game_bonus": ("R30", (0, 500)),
    "shutout": ("R31", Shutout),
    "ace": ("R33", Ace),
    "spades_double": ("R33", SpadesDouble),
}

_HAND = ("target_score", "knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus")
_TWO_PLAYER = ("next_dealer", "box_bonus", "gin_boxes", "undercut_boxes", "boxes_immediate", "game_bonus", "shutout")
_CUTTHROAT = tuple(o for o in _TWO_PLAYER if o != "next_dealer")  # R36 seats the next hand itself

#: preset -> its options, in the order shown, and the defaults that differ from the fields'
PRESETS: dict[Preset, tuple[tuple[str, ...], dict[str, Any]]] = {
    Preset.THREE_HANDED: (_HAND, {"undercut_bonus": 10}),
    Preset.CLASSIC: (_HAND + _TWO_PLAYER, {}),
    Preset.STRAIGHT: (_HAND + _TWO_PLAYER, {"knock_limit": 0}),
    Preset.OKLAHOMA: (
        tuple(o for o in _HAND if o != "knock_limit") + _TWO_PLAYER + ("ace", "spades_double"),
        {"target_score": 150},
    ),
    Preset.HOLLYWOOD: (_HAND + _TWO_PLAYER, {}),  # R34: three columns of classic games
    Preset.CUTTHROAT: (_HAND + _CUTTHROAT, {}),  # R36
}

#: preset -> the rule that sets its knock limit, cited when a knock is over it
LIMIT_RULES = {
    Preset.THREE_HANDED: "R14",
    Preset.CLASSIC: "R14",
    Preset.STRAIGHT: "R35",
    Preset.OKLAHOMA: "R33",
    Preset.HOLLYWOOD: "R14",
    Preset.CUTTHROAT: "R14",
}


@dataclass(frozen=True, slots=True)
class HandTerms:
    """What one hand is judged by: the :class:`Rules` handed to ``judge_hand``
    (its knock limit and bonuses), the rule that set the limit, the big gin
    bonus (0: off, R32), the spade double of R33 on points and on boxes, and
    the boxes a won hand counts by its outcome (R29, doubled already; none in
    ``three_handed``)."""

    rules: Rules
    limit_rule: str
    big_gin_bonus: int
    points_factor: int = 1
    boxes_factor: int = 1
    up_card: Card | None = None
    knock_boxes: int = 0
    gin_boxes: int = 0
    undercut_boxes: int = 0

    @property
    def knock_limit(self) -> int:
        return self.rules.knock_limit


@dataclass(frozen=True, slots=True)
class PresetRules:
    """A game's resolved rules (R27): the preset and every option's value.
    Options the preset does not have keep the fields' neutral defaults and are
    not shown. Build it with :func:`resolve_rules`."""

    preset: Preset = Preset.THREE_HANDED
    target_score: int = 100
    knock_limit: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int = 0
    next_dealer: NextDealer = NextDealer.WINNER
    box_bonus: int = 25
    gin_boxes: int = 1
    undercut_boxes: int = 1
    boxes_immediate: bool = False
    game_bonus: int = 100
    shutout: Shutout = Shutout.DOUBLE
    ace: Ace = Ace.GIN_ONLY
    spades_double: SpadesDouble = SpadesDouble.POINTS

    @property
    def options(self) -> tuple[str, ...]:
        """The preset's options, in the order shown."""
        return PRESETS[self.preset][0]

    @property
    def two_player(self) -> bool:
        """R28: each hand played by a dealer and a non-dealer, with boxes
        (R29); true of ``cutthroat`` too (R36), whose three players are
        told apart by :attr:`player_count`."""
        return self.preset is not Preset.THREE_HANDED

    @property
    def player_count(self) -> int:
        """The game's players: three in ``three_handed`` (R8) and ``cutthroat``
        (R36), two in the others (R28)."""
        return 3 if self.preset in (Preset.THREE_HANDED, Preset.CUTTHROAT) else 2

    @property
    def up_card_limit(self) -> bool:
        """R33: each hand records its up-card, which sets the knock limit."""
        return self.preset is Preset.OKLAHOMA

    @property
    def rules(self) -> Rules:
        """The hand rules of R14-R20 (for ``three_handed``, the game's :class:`Rules`)."""
        limit = 10 if self.up_card_limit else self.knock_limit
        return Rules(self.gin_bonus, self.undercut_bonus, limit, self.target_score)

    def as_dict(self) -> dict[str, Any]:
        """The preset's name and every option's value, as the API shows them."""
        shown: dict[str, Any] = {"preset": str(self.preset)}
        for name in self.options:
            value = getattr(self, name)
            shown[name] = str(value) if isinstance(value, StrEnum) else value
        return shown

    def terms(self, up_card: Card | None = None) -> HandTerms:
        """What a hand is judged by (R14, R32, R33); in Oklahoma ``up_card``
        is the hand's up-card (checked by ``verify_up_card``)."""
        return _terms(self, up_card)


@lru_cache(maxsize=4096)
def _terms(rules: PresetRules, up_card: Card | None) -> HandTerms:
    limit, points, boxes = rules.rules.knock_limit, 1, 1
    if up_card is not None:
        rank, spade = up_card.rank, up_card.suit == 0
        limit = min(rank, 10) if rank != 1 else (1 if rules.ace is Ace.ONE else 0)  # R2, R33
        points = 2 if spade and rules.spades_double is not SpadesDouble.OFF else 1
        boxes = 2 if spade and rules.spades_double is SpadesDouble.ALL else 1
    hand_rules = rules.rules if limit == rules.rules.knock_limit else replace(rules.rules, knock_limit=limit)
    won = boxes if rules.two_player else 0  # R29
    return HandTerms(
        hand_rules,
        LIMIT_RULES[rules.preset],
        rules.big_gin_bonus,
        points,
        boxes,
        up_card,
        won,
        won * rules.gin_boxes,
        won * rules.undercut_boxes,
    )


def verify_rule_option(preset: Preset, name: str, value: Any) -> Any:
    """R27: ``name`` is an option of ``preset`` and ``value`` is in its range;
    returns the value as the rules hold it (an enum member for a choice)."""
    if name not in PRESETS[preset][0]:
        raise RuleOptionError(
            f"{name} is not an option of {preset} (R27)",
            field=f"rules.{name}",
            rule="R27",
            option=name,
            value=value,
            preset=str(preset),
        )
    rule, allowed = OPTION_RANGES[name]
    if allowed is bool:
        if not isinstance(value, bool):
            raise RuleOptionError(
                f"{name} must be on (true) or off (false), not {value!r}",
                field=f"rules.{name}",
                rule=rule,
                option=name,
                value=value,
                choices=[True, False],
            )
        return value
    if isinstance(allowed, tuple):
        low, high = allowed
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RuleOptionError(
                f"{name} must be a whole number from {low} to {high}, not {value!r}",
                field=f"rules.{name}",
                rule=rule,
                option=name,
                value=value,
                minimum=low,
                maximum=high,
            )
        return value
    assert isinstance(allowed, type) and issubclass(allowed, StrEnum)
    choices = [m.value for m in allowed]
    if not isinstance(value, str) or value not in choices:
        raise RuleOptionError(
            f"{name} must be one of {', '.join(choices)}, not {value!r}",
            field=f"rules.{name}",
            rule=rule,
            option=name,
            value=value,
            choices=choices,
        )
    return allowed(value)


def resolve_rules(preset: str = "three_handed", options: Mapping[str, Any] | None = None) -> PresetRules:
    """R27: the preset's defaults, then the table's ``options``, each verified
    (:func:`verify_rule_option`). Raises :class:`RuleOptionError` for an
    unknown preset, an option the preset does not have, or a value out of
    range; nothing is quietly fixed.

    >>> resolve_rules("classic", {"next_dealer": "loser"}).as_dict()["next_dealer"]
    'loser'
    >>> resolve_rules("classic", {"gin_boxes": 5})
    Traceback (most recent call last):
    ...
    referee.errors.RuleOptionError: gin_boxes must be a whole number from 1 to 4, not 5
    """
    choices = [p.value for p in Preset]
    if not isinstance(preset, str) or preset not in choices:
        raise RuleOptionError(
            f"preset must be one of {', '.join(choices)}, not {preset!r}",
            field="preset",
            rule="R27",
            option="preset",
            value=preset,
            choices=choices,
        )
    chosen = Preset(preset)
    values = dict(PRESETS[chosen][1])
    for name, value in (options or {}).items():
        values[name] = verify_rule_option(chosen, name, value)
    return PresetRules(chosen, **values)


def can_resolve_rules(preset: str = "three_handed", options: Mapping[str, Any] | None = None) -> bool:
    """Whether :func:`resolve_rules` accepts the preset and options.

    >>> can_resolve_rules("oklahoma", {"ace": "one"}), can_resolve_rules("oklahoma", {"knock_limit": 5})
    (True, False)
    """
    try:
        resolve_rules(preset, options)
    except RuleOptionError:
        return False
    return True
