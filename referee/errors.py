"""The referee's errors.

Every error is a :class:`ValueError` that names the kind of wrong, carries the
rule it breaks (``rule``), the input field it concerns where one is known
(``field``, a dotted path such as ``knocker_hand.melds[1]``) and its evidence
as attributes. Syntax errors (bad notation, R3) stay apart from rule errors.
"""

from __future__ import annotations

from typing import Any


class RefereeError(ValueError):
    """Base class: something given to the referee breaks a rule."""

    rule: str = ""

    def __init__(self, message: str, *, field: str | None = None, rule: str | None = None,
                 **evidence: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if rule is not None:
            self.rule = rule
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


class HandError(RefereeError):
    """Wrong number of cards, a duplicate card, a card given twice (R21)."""

    rule = "R21"


class MeldError(RefereeError):
    """A declared meld that is not a set or run, uses cards not in the hand,
    or shares a card with another meld (R4-R6, R22)."""

    rule = "R22"


class IllegalKnockError(RefereeError):
    """A knock over the knock limit (R14): not a hand, nothing is recorded."""

    rule = "R14"


class LayoffError(RefereeError):
    """A declared layoff that does not fit (R15, R23), or any layoff after gin (R18)."""

    rule = "R23"


class RuleOptionError(RefereeError):
    """An unknown rule option or a value out of range."""

    rule = "options"


class CountError(RefereeError):
    """A quick-entry count outside R25."""

    rule = "R25"


class CutError(RefereeError):
    """A cut that cannot seat the table (R9)."""

    rule = "R9"


class RolesError(RefereeError):
    """Roles that are not three distinct players (R8)."""

    rule = "R8"


class GameStateError(RefereeError):
    """A hand after the game is won, or a correction that strands hands (R20, R26)."""

    rule = "R26"
