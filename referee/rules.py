"""Rule options (per game) and their bounds.

>>> Rules.from_options({"gin_bonus": 20})
Rules(gin_bonus=20, undercut_bonus=10, knock_limit=10, target_score=100)
>>> Rules.from_options({"gin_bonus": 200})
Traceback (most recent call last):
...
referee.errors.RuleOptionError: gin_bonus must be a whole number from 0 to 100, not 200
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from referee.errors import RuleOptionError

#: option -> (default, least, most, rule)
OPTIONS: dict[str, tuple[int, int, int, str]] = {
    "gin_bonus": (25, 0, 100, "R18"),
    "undercut_bonus": (10, 0, 100, "R17"),
    "knock_limit": (10, 0, 10, "R14"),
    "target_score": (100, 10, 1000, "R20"),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The options a game plays by; the defaults are RULES.md's."""

    gin_bonus: int = 25
    undercut_bonus: int = 10
    knock_limit: int = 10
    target_score: int = 100

    def __post_init__(self) -> None:
        for name in OPTIONS:
            verify_option(name, getattr(self, name))

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None) -> Rules:
        """Rules from a mapping: omitted options take their defaults; an
        unknown option or a value out of range raises :class:`RuleOptionError`."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise RuleOptionError(
                f"unknown rule option {unknown[0]!r}",
                field=f"rules.{unknown[0]}",
                option=unknown[0],
                value=options[unknown[0]],
            )
        return cls(**options)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def verify_option(name: str, value: Any) -> None:
    default, low, high, rule = OPTIONS[name]
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


def can_set_option(name: str, value: Any) -> bool:
    """Whether :func:`verify_option` accepts ``value`` for the option ``name``.

    >>> can_set_option("knock_limit", 7), can_set_option("knock_limit", 11)
    (True, False)
    """
    if name not in OPTIONS:
        return False
    try:
        verify_option(name, value)
    except RuleOptionError:
        return False
    return True
