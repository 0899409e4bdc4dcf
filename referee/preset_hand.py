"""A hand judged under a preset (R14, R25, R29, R32, R33, R35): the hand's
terms come from the rules (:meth:`PresetRules.terms`), the ruling from
:func:`referee.judge.judge_hand`, and on top of it the spade double (R33), a
big gin (R32) and the boxes the hand counts for its winner (R29).

>>> from referee.cards import parse_card, parse_cards
>>> from referee.presets import resolve_rules
>>> rules = resolve_rules("oklahoma")
>>> hand = judge_preset_hand(rules, parse_cards("4H 5H 6H 4S 5S 6S 4D 5D 6D 3C"),
...                          parse_cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"), up_card=parse_card("3S"))
>>> hand.score.outcome, hand.score.points, hand.score.boxes
(<Outcome.KNOCK: 'knock'>, 34, 1)
>>> steps = explain_preset_hand(hand)
>>> for step in steps[:1] + steps[-1:]:
...     print(step.text)
The up-card is 3S: its value, 3, is the knock limit (R33)
The up-card 3S is a spade: the hand's points are doubled, 17 x 2 = 34 (R33)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.cards import Card
from referee.deadwood import arrangements
from referee.errors import CountError, HandError, IllegalKnockError, LayoffError, RefereeError
from referee.explain import explain_counts, explain_draw, explain_hand
from referee.judge import KnockerPlay, Ruling, judge_hand, verify_cards, verify_melds
from referee.layoff import Layoff, play_without_layoffs
from referee.melds import Arrangement
from referee.presets import HandTerms, PresetRules
from referee.scoring import Outcome, Score, Side, verify_counts
from referee.steps import Code, PresetCode, Step, card_names, meld_names, spread


@dataclass(frozen=True, slots=True)
class HandScore:
    """A hand's score under a preset: outcome, who scores, the points (after
    the spade double, R33), the boxes for the hand's winner (R29), whether it
    was a big gin (R32), and the points before the double."""

    outcome: Outcome
    scorer: Side | None
    points: int
    boxes: int = 0
    big_gin: bool = False
    base_points: int = 0

    @property
    def winner(self) -> Side | None:
        """R11: the knocker, unless undercut; None for a draw. Points a rule
        option makes 0 still decide it."""
        return self.scorer


DRAW_SCORE = HandScore(Outcome.DRAW, None, 0)  # R12: nobody scores, no box


@dataclass(frozen=True, slots=True)
class PresetRuling:
    """A hand by cards under a preset: its :class:`HandScore`, the plays
    (``ruling``, whose ``points`` are before the spade double) and the terms
    it was judged by."""

    score: HandScore
    ruling: Ruling
    terms: HandTerms


def hand_score(terms: HandTerms, score: Score | Ruling, *, big_gin: bool = False) -> HandScore:
    """The spade double (R33) and the boxes (R29) applied to a scored knock."""
    if score.outcome is Outcome.DRAW:
        return DRAW_SCORE
    if score.outcome is Outcome.GIN:
        boxes = terms.gin_boxes
    elif score.outcome is Outcome.UNDERCUT:
        boxes = terms.undercut_boxes
    else:
        boxes = terms.knock_boxes
    return HandScore(score.outcome, score.scorer, score.points * terms.points_factor, boxes, big_gin, score.points)


def verify_up_card(rules: PresetRules, up_card: Card | None) -> HandTerms:
    """R33: a hand in Oklahoma gives its up-card, and no other preset takes
    one. Returns the hand's terms. The up-card may be in either hand (the
    non-dealer may take it, R13), so it is not checked against them."""
    if rules.up_card_limit and up_card is None:
        raise HandError(f"a hand of {rules.preset} gives its up-card", field="up_card", rule="R33")
    if not rules.up_card_limit and up_card is not None:
        raise HandError(
            f"only oklahoma records an up-card, not {rules.preset}", field="up_card", rule="R33", card=str(up_card)
        )
    return rules.terms(up_card)


def _limit_steps(terms: HandTerms) -> tuple[Step, ...]:
    up = terms.up_card
    if up is None:
        return ()
    code = PresetCode.UP_CARD_ACE if up.rank == 1 else PresetCode.UP_CARD_LIMIT
    return (Step.of(code, up_card=str(up), limit=terms.knock_limit),)


def _big_gin(
    terms: HandTerms,
    knocker_cards: Sequence[Card],
    defender_cards: Sequence[Card],
    knocker_melds: Sequence[Sequence[Card]] | None,
    defender_melds: Sequence[Sequence[Card]] | None,
    layoffs: Sequence[Layoff] | None,
    discard: Card | None,
) -> Ruling:
    """R32: eleven knocker cards, all melded, no discard, no layoffs."""
    if terms.big_gin_bonus == 0:
        raise HandError(
            "knocker_hand.cards has 11 cards: a big gin, which these rules do not play (big_gin_bonus is 0)",
            field="knocker_hand.cards",
            rule="R32",
            count=11,
            expected=[10],
        )
    if discard is not None:
        raise HandError("a big gin has no discard", field="knocker_hand.discard", rule="R32", card=str(discard))
    seen: dict[Card, str] = {}
    verify_cards(knocker_cards, "knocker_hand.cards", (11,), seen)
    verify_cards(defender_cards, "defender_hand.cards", (10,), seen)
    d_melds = None if defender_melds is None else verify_melds(defender_melds, defender_cards, "defender_hand.melds")
    if knocker_melds is None:
        arrangement = arrangements(knocker_cards, splits=False)[0]
    else:
        melds = verify_melds(knocker_melds, knocker_cards, "knocker_hand.melds")
        used = {c for m in melds for c in m.cards}
        arrangement = Arrangement(tuple(melds), tuple(sorted(c for c in knocker_cards if c not in used)))
    if arrangement.deadwood_count:
        field = "knocker_hand.cards" if knocker_melds is None else "knocker_hand.melds"
        raise IllegalKnockError(
            f"11 cards are a big gin only when all of them meld: {arrangement.deadwood_count} deadwood",
            field=field,
            rule="R32",
            deadwood=arrangement.deadwood_count,
            limit=0,
        )
    if layoffs:
        raise LayoffError(
            f"the knocker went big gin, so the defender may not lay off {layoffs[0].card}",
            field="defender_hand.layoffs[0]",
            rule="R32",
            card=str(layoffs[0].card),
            meld=layoffs[0].meld,
        )
    play = play_without_layoffs(defender_cards, d_melds)
    better = None
    if d_melds is not None:
        ideal = play_without_layoffs(defender_cards)
        if ideal.deadwood_count < play.deadwood_count:
            better = ideal
    if better is not None:
        play = type(play)(play.melds, play.layoffs, play.deadwood, better)
    points = play.deadwood_count + terms.big_gin_bonus
    return Ruling(Outcome.GIN, Side.KNOCKER, points, KnockerPlay(arrangement.melds, ()), play)


def judge_preset_hand(
    rules: PresetRules,
    knocker_cards: Sequence[Card],
    defender_cards: Sequence[Card],
    *,
    up_card: Card | None = None,
    knocker_melds: Sequence[Sequence[Card]] | None = None,
    defender_melds: Sequence[Sequence[Card]] | None = None,
    layoffs: Sequence[Layoff] | None = None,
    discard: Card | None = None,
) -> PresetRuling:
    """Rule on a knock under ``rules`` (R14-R18, R21-R24 by :func:`judge_hand`
    with the hand's terms): the knock limit is the preset's, or in Oklahoma
    the up-card's (R33), and a knock over it raises :class:`IllegalKnockError`
    citing the rule that set the limit (R14, R33, R35), its explanation
    starting with the up-card; eleven knocker cards are a big gin (R32); a
    spade up-card doubles by ``spades_double`` (R33)."""
    terms = verify_up_card(rules, up_card)
    if len(knocker_cards) == 11:
        ruling = _big_gin(terms, knocker_cards, defender_cards, knocker_melds, defender_melds, layoffs, discard)
        return PresetRuling(hand_score(terms, ruling, big_gin=True), ruling, terms)
    try:
        ruling = judge_hand(
            knocker_cards,
            defender_cards,
            knocker_melds=knocker_melds,
            defender_melds=defender_melds,
            layoffs=layoffs,
            discard=discard,
            rules=terms.rules,
        )
    except IllegalKnockError as err:
        err.rule = terms.limit_rule
        err.explanation = _limit_steps(terms) + (err.explanation or ())
        raise
    return PresetRuling(hand_score(terms, ruling), ruling, terms)


def score_preset_counts(
    rules: PresetRules,
    knocker_count: int,
    defender_count: int,
    *,
    up_card: Card | None = None,
    big_gin: bool = False,
) -> HandScore:
    """Quick entry (R25) under a preset: the counts (the knocker's 0 to the
    hand's knock limit, R33), the up-card in Oklahoma, and ``big_gin`` for a
    knocker who melded all 11 cards (R32: his count is 0)."""
    terms = verify_up_card(rules, up_card)
    if big_gin:
        if terms.big_gin_bonus == 0:
            raise CountError(
                "a big gin is not played by these rules (big_gin_bonus is 0)", field="big_gin", rule="R32", value=True
            )
        if knocker_count != 0:
            raise CountError(
                f"a big gin melds all 11 cards: the knocker's count is 0, not {knocker_count!r}",
                field="knocker_deadwood_count",
                rule="R32",
                value=knocker_count,
                minimum=0,
                maximum=0,
            )
    try:
        verify_counts(knocker_count, defender_count, terms.rules)
    except CountError as err:
        over = err.field == "knocker_deadwood_count" and isinstance(knocker_count, int) and knocker_count > 0
        if over and terms.limit_rule != "R14":
            err.rule = terms.limit_rule
        raise
    if big_gin:
        base = Score(Outcome.GIN, Side.KNOCKER, defender_count + terms.big_gin_bonus)
    elif knocker_count == 0:  # R18
        base = Score(Outcome.GIN, Side.KNOCKER, defender_count + terms.rules.gin_bonus)
    elif knocker_count < defender_count:  # R16
        base = Score(Outcome.KNOCK, Side.KNOCKER, defender_count - knocker_count)
    else:  # R17
        base = Score(Outcome.UNDERCUT, Side.DEFENDER, terms.rules.undercut_bonus + knocker_count - defender_count)
    return hand_score(terms, base, big_gin=big_gin)


def _double_steps(terms: HandTerms, score: HandScore) -> tuple[Step, ...]:
    if terms.up_card is None or score.outcome is Outcome.DRAW:
        return ()
    steps: tuple[Step, ...] = ()
    up = str(terms.up_card)
    if terms.points_factor == 2:
        steps += (Step.of(PresetCode.SPADE_DOUBLE, up_card=up, base_points=score.base_points, points=score.points),)
    if terms.boxes_factor == 2:
        steps += (Step.of(PresetCode.SPADE_DOUBLE_BOXES, up_card=up, base_boxes=score.boxes // 2, boxes=score.boxes),)
    return steps


def explain_preset_hand(hand: PresetRuling) -> tuple[Step, ...]:
    """The steps of a hand by cards under a preset: the up-card's knock limit
    (R33), then the ruling's steps (R14-R18, R22; for a big gin: the spreads
    and the big gin, R32), then the spade double (R33)."""
    terms, ruling, score = hand.terms, hand.ruling, hand.score
    if score.big_gin:
        knocker, defender = ruling.knocker, ruling.defender
        body: tuple[Step, ...] = (
            spread(Code.KNOCKER_SPREAD, meld_names(knocker.melds), (), 0),
            spread(
                Code.DEFENDER_SPREAD, meld_names(defender.melds), card_names(defender.deadwood), defender.deadwood_count
            ),
            Step.of(
                PresetCode.BIG_GIN,
                defender_count=defender.deadwood_count,
                big_gin_bonus=terms.big_gin_bonus,
                points=ruling.points,
            ),
        )
    else:
        body = explain_hand(ruling, terms.rules)
    return _limit_steps(terms) + body + _double_steps(terms, score)


def explain_preset_counts(
    rules: PresetRules, score: HandScore, knocker_count: int, defender_count: int, *, up_card: Card | None = None
) -> tuple[Step, ...]:
    """The steps of a hand by counts under a preset (R25): the up-card's knock
    limit (R33), the counts and the score (or the big gin, R32), the spade
    double (R33); a draw is its one step (R12)."""
    if score.outcome is Outcome.DRAW:
        return explain_draw()
    terms = rules.terms(up_card)
    if score.big_gin:
        body: tuple[Step, ...] = (
            Step.of(Code.COUNTS, knocker_count=0, defender_count=defender_count),
            Step.of(
                PresetCode.BIG_GIN,
                defender_count=defender_count,
                big_gin_bonus=terms.big_gin_bonus,
                points=score.base_points,
            ),
        )
    else:
        body = explain_counts(score.outcome, score.base_points, knocker_count, defender_count, terms.rules)
    return _limit_steps(terms) + body + _double_steps(terms, score)


def can_judge_preset_hand(
    rules: PresetRules, knocker_cards: Sequence[Card], defender_cards: Sequence[Card], *, up_card: Card | None = None
) -> bool:
    """Whether :func:`judge_preset_hand` rules on these cards, nothing declared.

    >>> from referee.cards import parse_cards
    >>> from referee.presets import resolve_rules
    >>> knocker = parse_cards("4H 5H 6H 4S 5S 6S 4D 5D 6D 3C")
    >>> defender = parse_cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S")
    >>> can_judge_preset_hand(resolve_rules("classic"), knocker, defender)
    True
    >>> can_judge_preset_hand(resolve_rules("straight"), knocker, defender)
    False
    """
    try:
        judge_preset_hand(rules, knocker_cards, defender_cards, up_card=up_card)
    except RefereeError:
        return False
    return True
