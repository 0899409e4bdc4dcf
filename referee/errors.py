"""The referee's errors.

Every error is a :class:`ValueError` that names the kind of wrong, carries the
rule it breaks (``rule``), the input field it concerns where one is known
(``field``, a dotted path such as ``knocker_hand.melds[1]``) and its evidence
as attributes. Syntax errors (bad notation, R3) stay apart from rule errors.
"""

from __future__ import annotations

from typing import Any


class RefereeError(ValueError):
    """Base class: something given to the referee breaks a rule.

    Each subclass declares the evidence it carries as class attributes (None
    when a given error has none of it); an undeclared piece of evidence is a
    ``TypeError`` at once, so what a client may be shown is written here.
    """

    rule: str = ""

    def __init__(self, message: str, *, field: str | None = None, rule: str | None = None, **evidence: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if rule is not None:
            self.rule = rule
        undeclared = sorted(k for k in evidence if k not in _declared(type(self)))
        if undeclared:
            raise TypeError(f"{type(self).__name__} declares no evidence {', '.join(undeclared)}")
        self.evidence: dict[str, Any] = evidence
        for key, value in evidence.items():
            setattr(self, key, value)

    def at(self, field: str) -> RefereeError:
        """Prefix the field path (``cards`` -> ``knocker_hand.cards``)."""
        if self.field is None:
            self.field = field
        elif not self.field.startswith(field):
            self.field = f"{field}.{self.field}" if not self.field.startswith("[") else field + self.field
        return self


def _declared(cls: type) -> set[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        names.update(getattr(klass, "__annotations__", {}))
    return names - {"rule", "message", "field", "evidence"}


class HandError(RefereeError):
    """Wrong number of cards, a duplicate card, a card given twice (R21)."""

    rule = "R21"
    card: str | None = None  # the card given twice
    first: str | None = None  # where it was first given
    count: int | None = None  # how many cards were given
    expected: list[int] | None = None  # how many were wanted


class MeldError(RefereeError):
    """A declared meld that is not a set or run, uses cards not in the hand,
    or shares a card with another meld (R4-R6, R22)."""

    rule = "R22"
    card: str | None = None
    meld: list[str] | None = None  # the meld's cards
    melds: list[int] | None = None  # the two melds that share a card


class IllegalKnockError(RefereeError):
    """A knock over the knock limit (R14): not a hand, nothing is recorded."""

    rule = "R14"
    deadwood: int | None = None  # the deadwood judged
    limit: int | None = None  # the knock limit
    legal_arrangement: Any = None  # a legal arrangement of the same cards, if any
    explanation: tuple[Any, ...] | None = None  # the steps of why (referee.steps.Step)


class LayoffError(RefereeError):
    """A declared layoff that does not fit (R15, R23), or any layoff after gin (R18)."""

    rule = "R23"
    card: str | None = None
    meld: int | None = None  # the knocker's meld it was laid on
    explanation: tuple[Any, ...] | None = None  # the layoffs before it, then why it fails (referee.steps.Step)


class RuleOptionError(RefereeError):
    """An unknown rule option or a value out of range."""

    rule = "options"
    option: str | None = None
    value: Any = None
    minimum: int | None = None
    maximum: int | None = None
    choices: list[Any] | None = None  # the values allowed, for a choice (R27)
    preset: str | None = None  # the preset that has no such option (R27)


class CountError(RefereeError):
    """A quick-entry count outside R25."""

    rule = "R25"
    value: Any = None
    minimum: int | None = None
    maximum: int | None = None


class CutError(RefereeError):
    """A cut that cannot seat the table (R9)."""

    rule = "R9"
    players: list[Any] | None = None  # who must cut (again)
    value: Any = None  # a cut by someone not in the game


class RolesError(RefereeError):
    """Roles that are not three distinct players, or not the game's (R8)."""

    rule = "R8"
    roles: dict[str, Any] | None = None
    players: list[Any] | None = None
    value: Any = None


class GameStateError(RefereeError):
    """A hand after the game is won, or a correction that strands hands (R20, R26)."""

    rule = "R26"
    hands: list[int] | None = None  # the hands that would come after the win
    winner: Any = None
    won_at: int | None = None  # the hand at which the winner reaches the target


class HistoryError(RefereeError):
    """A game's record that its rules refute (R8, R9, R11, R20, R26), or
    that is out of shape: each names where (``field``, a path into the game)
    and keeps the value given there as ``value``. A rule of ``"record"``
    means the record's own shape (numbering, the ids it names), no rule of
    RULES.md."""

    rule = "R26"
    value: Any = None  # the value given where the error is


class NumberingError(HistoryError):
    """Hands, or a hand number's revisions, not numbered 1, 2, ... without gaps."""

    rule = "record"
    expected: int | None = None  # the number wanted there


class SeatingError(HistoryError):
    """A seating that is not the game's three players (R8), not the cut's
    (R9), not the one R11 gives without a correction before it, or not the
    one its hand was played in (R26)."""

    seating: dict[str, Any] | None = None  # the seating wanted there


class ActionError(HistoryError):
    """A revision's action that cannot follow the one before it, or a hand
    number's last that does not match whether it stands (R26)."""

    allowed: tuple[str, ...] | None = None  # what may come there


class OrderError(HistoryError):
    """A revision made when the game's history did not allow it (R26)."""

    made_at: str | None = None  # when it was made (ISO 8601)


class ScoresError(HistoryError):
    """Scores given that the history does not give (R26)."""

    expected: dict[str, int] | None = None  # the scores derived, keyed by player as written


class ResultError(HistoryError):
    """A game's status or winner that its hands do not give (R20)."""

    rule = "R20"
    expected: Any = None  # what the hands give


class HandAfterWinError(HistoryError):
    """Hands after the hand at which a player reached the target (R20)."""

    rule = "R20"
    hands: list[int] | None = None  # the hands that would come after the win
    winner: Any = None
    won_at: int | None = None


class DisputeRecordError(HistoryError):
    """A dispute that the game's record does not bear out (R26): of no hand,
    of no version's result, resolved while open, named by no correction."""
