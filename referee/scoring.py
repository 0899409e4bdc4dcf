"""Scoring a knock from the two deadwood counts (R16-R18, R25).

>>> score(5, 5)
Score(outcome=<Outcome.UNDERCUT: 'undercut'>, scorer=<Side.DEFENDER: 'defender'>, points=10)
>>> score(0, 12).points, score(3, 12).points
(37, 9)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.errors import CountError
from referee.rules import Rules


class Outcome(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    UNDERCUT = "undercut"
    DRAW = "draw"


class Side(StrEnum):
    KNOCKER = "knocker"
    DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class Score:
    outcome: Outcome
    scorer: Side | None
    points: int


DRAW = Score(Outcome.DRAW, None, 0)  # R12: nobody scores


def score(knocker_count: int, defender_count: int, rules: Rules = Rules(), *, gin: bool | None = None) -> Score:
    """Score a knock. ``gin`` defaults to a knocker count of 0 (R18); a knocker
    who declared deadwood worth 0 cannot hold 0 deadwood, so the default is
    exact for counts. ``defender_count`` is after layoffs (none after gin)."""
    if gin is None:
        gin = knocker_count == 0
    if gin:  # R18: the defender cannot score, even with no deadwood
        return Score(Outcome.GIN, Side.KNOCKER, defender_count + rules.gin_bonus)
    if knocker_count < defender_count:  # R16
        return Score(Outcome.KNOCK, Side.KNOCKER, defender_count - knocker_count)
    # R17: equal or higher is an undercut
    return Score(Outcome.UNDERCUT, Side.DEFENDER, rules.undercut_bonus + knocker_count - defender_count)


def verify_counts(knocker_count: object, defender_count: object, rules: Rules = Rules()) -> None:
    """R25: whole numbers, the knocker's 0 to the knock limit, the defender's 0 to 100."""
    for field, value, high in (
        ("knocker_deadwood_count", knocker_count, rules.knock_limit),
        ("defender_deadwood_count", defender_count, 100),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
            raise CountError(
                f"{field} must be a whole number from 0 to {high}, not {value!r}",
                field=field,
                value=value,
                minimum=0,
                maximum=high,
            )


def can_count(knocker_count: object, defender_count: object, rules: Rules = Rules()) -> bool:
    """Whether :func:`verify_counts` accepts these counts (R25).

    >>> can_count(4, 30), can_count(11, 30)
    (True, False)
    """
    try:
        verify_counts(knocker_count, defender_count, rules)
    except CountError:
        return False
    return True


def score_counts(knocker_count: int, defender_count: int, rules: Rules = Rules()) -> Score:
    """Quick entry (R25): verify the counts, then score them (R16-R18)."""
    verify_counts(knocker_count, defender_count, rules)
    return score(knocker_count, defender_count, rules)
