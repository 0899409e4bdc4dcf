"""A ruling explained (R12, R14-R18, R22, R25): the steps that lead to it, in
order, each with its rule, code and params (:mod:`referee.steps`).

A ruling is explained from the ruling itself and the rules it was made by,
never by judging the hand again, so a stored ruling is explained the same
way later (:func:`explain_spreads` takes the spreads in canonical notation,
as a stored ruling holds them). Every number in the steps is the ruling's own.

>>> from referee.cards import parse_cards
>>> from referee.judge import judge_hand
>>> ruling = judge_hand(parse_cards("5H 6H 7H 2S 2D 2C JS JD JC AS"),
...                     parse_cards("8H 9H 3D 4D 5D 8C 9C 10C KH QS"))
>>> for step in explain_hand(ruling):
...     print(step.text)
The knocker melds 2S 2D 2C | JS JD JC | 5H 6H 7H and keeps AS: 1 deadwood (R7)
Knock stands: 1 deadwood, within the limit of 10 (R14)
The defender lays off 8H on 5H 6H 7H (R15)
The defender lays off 9H on 5H 6H 7H 8H (R15)
The defender melds 3D 4D 5D | 8C 9C 10C and keeps QS KH: 20 deadwood (R16)
Knock: the knocker's 1 is lower than the defender's 20, so the knocker scores 20 - 1 = 19 (R16)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.judge import Ruling
from referee.layoff import DefenderPlay
from referee.melds import Arrangement
from referee.rules import Rules
from referee.scoring import Outcome
from referee.steps import Code, Step, better_arrangement, card_names, layoff_steps, meld_names, spread


@dataclass(frozen=True, slots=True)
class Spread:
    """One side's play in canonical notation (R3): melds, deadwood and its
    count, and (the defender's) layoffs as (card, knocker meld number)."""

    melds: Sequence[Sequence[str]]
    deadwood: Sequence[str]
    deadwood_count: int
    layoffs: Sequence[tuple[str, int]] = ()

    @classmethod
    def of(cls, play: Arrangement | DefenderPlay) -> Spread:
        layoffs = [(str(lo.card), lo.meld) for lo in play.layoffs] if isinstance(play, DefenderPlay) else []
        return cls(meld_names(play.melds), card_names(play.deadwood), play.deadwood_count, layoffs)


def outcome_step(outcome: Outcome, knocker_count: int, defender_count: int, points: int, rules: Rules) -> Step:
    """The scoring step of a knock (R16), an undercut (R17) or gin (R18)."""
    if outcome is Outcome.GIN:
        return Step.of(Code.GIN, defender_count=defender_count, gin_bonus=rules.gin_bonus, points=points)
    if outcome is Outcome.UNDERCUT:
        return Step.of(
            Code.UNDERCUT,
            knocker_count=knocker_count,
            defender_count=defender_count,
            undercut_bonus=rules.undercut_bonus,
            difference=knocker_count - defender_count,
            points=points,
        )
    return Step.of(Code.KNOCK, knocker_count=knocker_count, defender_count=defender_count, points=points)


def explain_spreads(
    outcome: Outcome,
    points: int,
    knocker: Spread,
    defender: Spread,
    rules: Rules = Rules(),
    *,
    knocker_better: Spread | None = None,
    defender_better: Spread | None = None,
) -> tuple[Step, ...]:
    """A hand judged by cards: the knocker's spread, the knock standing (R14,
    not for gin), each layoff in the order played (R15), the defender's
    spread after them, the score (R16-R18), then what would have been better
    than what was declared (R22)."""
    steps = [spread(Code.KNOCKER_SPREAD, knocker.melds, knocker.deadwood, knocker.deadwood_count)]
    if outcome is not Outcome.GIN:
        steps.append(Step.of(Code.KNOCK_VALID, deadwood_count=knocker.deadwood_count, limit=rules.knock_limit))
    if defender.layoffs:
        steps += layoff_steps(defender.layoffs, knocker.melds)
    steps.append(spread(Code.DEFENDER_SPREAD, defender.melds, defender.deadwood, defender.deadwood_count))
    steps.append(outcome_step(outcome, knocker.deadwood_count, defender.deadwood_count, points, rules))
    if knocker_better is not None:
        steps.append(
            better_arrangement(
                knocker_better.melds, knocker_better.deadwood, knocker_better.deadwood_count, knocker.deadwood_count
            )
        )
    if defender_better is not None:
        steps.append(
            Step.of(
                Code.BETTER_PLAY,
                melds=tuple(map(tuple, defender_better.melds)),
                layoffs=tuple(_layoff(card, meld) for card, meld in defender_better.layoffs),
                deadwood=tuple(defender_better.deadwood),
                deadwood_count=defender_better.deadwood_count,
                declared_count=defender.deadwood_count,
            )
        )
    return tuple(steps)


def _layoff(card: str, meld: int) -> Mapping[str, int | str]:
    return {"card": card, "meld": meld}


def explain_hand(ruling: Ruling, rules: Rules = Rules()) -> tuple[Step, ...]:
    """The steps of a ruling by cards (:func:`explain_spreads`)."""
    knocker, defender = ruling.knocker, ruling.defender
    return explain_spreads(
        ruling.outcome,
        ruling.points,
        Spread(meld_names(knocker.melds), card_names(knocker.deadwood), knocker.deadwood_count),
        Spread.of(defender),
        rules,
        knocker_better=None if knocker.better is None else Spread.of(knocker.better),
        defender_better=None if defender.better is None else Spread.of(defender.better),
    )


def explain_counts(
    outcome: Outcome, points: int, knocker_count: int, defender_count: int, rules: Rules = Rules()
) -> tuple[Step, ...]:
    """A hand entered by counts alone (R25), as scored (``outcome``,
    ``points``): the counts, the knock standing (R14, not for gin) and the
    score (R16-R18).

    >>> [s.text for s in explain_counts(Outcome.UNDERCUT, 12, 7, 5)][-1]
    "Undercut: the knocker's 7 is not lower than the defender's 5, so the defender scores 10 + 2 = 12 (R17)"
    """
    steps = [Step.of(Code.COUNTS, knocker_count=knocker_count, defender_count=defender_count)]
    if outcome is not Outcome.GIN:
        steps.append(Step.of(Code.KNOCK_VALID, deadwood_count=knocker_count, limit=rules.knock_limit))
    steps.append(outcome_step(outcome, knocker_count, defender_count, points, rules))
    return tuple(steps)


DRAW_STEPS = (Step.of(Code.DRAW),)


def explain_draw() -> tuple[Step, ...]:
    """A draw (R12): nobody scores."""
    return DRAW_STEPS
