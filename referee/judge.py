"""The referee's entry points: judge a knock (R14) and rule on a whole hand
(R14-R18, R21-R24).

>>> from referee.cards import parse_cards
>>> ruling = judge_hand(parse_cards("4H 5H 6H 4S 5S 6S 4D 5D 6D KC"),
...                     parse_cards("AH 2H 3H 7H 8H 9H 2S 3S 7S 8S"))
>>> ruling.outcome, ruling.scorer, ruling.points
(<Outcome.KNOCK: 'knock'>, <Side.KNOCKER: 'knocker'>, 10)
>>> [str(m) for m in ruling.knocker.melds]
['4S 4H 4D', '5S 5H 5D', '6S 6H 6D']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from referee.cards import Card
from referee.deadwood import arrangements, best_discard, least_deadwood
from referee.errors import HandError, IllegalKnockError, LayoffError, MeldError, RefereeError
from referee.layoff import (
    DefenderPlay,
    Layoff,
    best_play,
    play_with_layoffs,
    play_without_layoffs,
    verify_layoffs,
)
from referee.melds import Arrangement, Meld, verify_meld
from referee.rules import Rules
from referee.scoring import Outcome, Score, Side, score
from referee.steps import Code, Step, better_arrangement, card_names, illegal_knock_steps, meld_names, spread


@dataclass(frozen=True, slots=True)
class KnockVerdict:
    """Whether a knock stands (R14), with the arrangement it is judged on,
    and its ``explanation``: the steps of why, in order."""

    valid: bool
    arrangement: Arrangement
    discard: Card | None = None
    reason: str | None = None
    rule: str | None = None
    legal_arrangement: Arrangement | None = None
    better: Arrangement | None = None
    explanation: tuple[Step, ...] = ()

    @property
    def deadwood_count(self) -> int:
        return self.arrangement.deadwood_count


@dataclass(frozen=True, slots=True)
class KnockerPlay:
    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    better: Arrangement | None = None

    @property
    def deadwood_count(self) -> int:
        return sum(c.value for c in self.deadwood)


@dataclass(frozen=True, slots=True)
class Ruling:
    """A hand's ruling: outcome, who scores, the points, and both spreads."""

    outcome: Outcome
    scorer: Side | None
    points: int
    knocker: KnockerPlay
    defender: DefenderPlay

    @property
    def defender_better(self) -> DefenderPlay | None:
        """The defender's best play, when what he declared was worse (R22)."""
        return self.defender.better


def verify_cards(
    cards: Sequence[Card], field: str, sizes: tuple[int, ...] = (10,), seen: dict[Card, str] | None = None
) -> None:
    """R21: the right number of cards, all distinct (also across ``seen``)."""
    if len(cards) not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise HandError(
            f"{field} has {len(cards)} cards, not {wanted}", field=field, count=len(cards), expected=list(sizes)
        )
    seen = {} if seen is None else seen
    for i, card in enumerate(cards):
        if card in seen:
            raise HandError(
                f"{card} appears twice ({seen[card]} and {field}[{i}])",
                field=f"{field}[{i}]",
                card=str(card),
                first=seen[card],
            )
        seen[card] = f"{field}[{i}]"


def verify_melds(melds: Sequence[Sequence[Card]], hand: Sequence[Card], field: str) -> list[Meld]:
    """R22: declared melds are valid (R4, R5), use only the hand's cards and
    no card twice (R6). Returns them as :class:`Meld`, in the order declared."""
    held = set(hand)
    owner: dict[Card, int] = {}
    out = []
    for i, cards in enumerate(melds):
        for card in cards:
            if card not in held:
                raise MeldError(f"{card} is not in the hand", field=f"{field}[{i}]", card=str(card))
            if card in owner:
                raise MeldError(
                    f"{card} is in melds {owner[card]} and {i}",
                    rule="R6",
                    field=f"{field}[{i}]",
                    card=str(card),
                    melds=[owner[card], i],
                )
            owner[card] = i
        try:
            out.append(verify_meld(cards))
        except RefereeError as err:
            raise err.at(f"{field}[{i}]") from None
    return out


def _arrangement_of(hand: Sequence[Card], melds: Sequence[Meld]) -> Arrangement:
    """The declared melds in the declared order (R22 numbers them so)."""
    used = {c for m in melds for c in m.cards}
    return Arrangement(tuple(melds), tuple(sorted(c for c in hand if c not in used)))


def judge_knock(
    cards: Sequence[Card],
    melds: Sequence[Sequence[Card]] | None = None,
    discard: Card | None = None,
    rules: Rules = Rules(),
) -> KnockVerdict:
    """Can a player knock with these cards (R14)? Ten cards after the discard,
    or eleven before it (the discard given, or else the best one). With melds
    declared the knock is judged on them; an illegal knock is a verdict, not an
    error. Bad input (R21, R22) raises."""
    verify_cards(cards, "cards", (10, 11))
    hand = list(cards)
    if len(hand) == 11:
        if discard is None:
            if melds is not None:
                in_melds = {c for m in melds for c in m}
                free = [c for c in hand if c not in in_melds]
                if not free:
                    raise MeldError("the declared melds use all 11 cards: name the discard", field="melds")
                discard = min(free, key=lambda c: (-c.value, c.index))
            else:
                discard = best_discard(hand)[0]
        elif discard not in hand:
            raise HandError(f"the discard {discard} is not one of the 11 cards", field="discard", card=str(discard))
        hand.remove(discard)
    elif discard is not None and discard in hand:
        raise HandError(f"{discard} appears twice (cards and discard)", field="discard", card=str(discard))
    best = arrangements(hand, splits=False)[0]
    legal = best if best.deadwood_count <= rules.knock_limit else None
    if melds is None:
        arrangement = best
    else:
        arrangement = _arrangement_of(hand, verify_melds(melds, hand, "melds"))
    better = best if arrangement.deadwood_count > best.deadwood_count else None
    steps: tuple[Step, ...] = () if discard is None else (Step.of(Code.DISCARD, card=str(discard)),)
    if arrangement.deadwood_count > rules.knock_limit:
        reason = (
            f"{'the declared melds leave' if melds is not None else 'the least'} deadwood "
            f"{arrangement.deadwood_count}, over the knock limit of {rules.knock_limit}"
        )
        steps += illegal_knock_steps(arrangement, melds is not None, best.deadwood_count, legal, rules.knock_limit)
        return KnockVerdict(False, arrangement, discard, reason, "R14", legal, better, steps)
    steps += (
        spread(
            Code.KNOCKER_SPREAD,
            meld_names(arrangement.melds),
            card_names(arrangement.deadwood),
            arrangement.deadwood_count,
        ),
        Step.of(Code.KNOCK_VALID, deadwood_count=arrangement.deadwood_count, limit=rules.knock_limit),
    )
    if better is not None:
        steps += (
            better_arrangement(
                meld_names(better.melds), card_names(better.deadwood), better.deadwood_count, arrangement.deadwood_count
            ),
        )
    return KnockVerdict(True, arrangement, discard, better=better, explanation=steps)


def _defender_play(
    defender: Sequence[Card],
    knocker_melds: Sequence[Meld],
    gin: bool,
    defender_melds: Sequence[Meld] | None,
    layoffs: Sequence[Layoff] | None,
) -> DefenderPlay:
    if gin:  # R18: no layoffs after gin
        return play_without_layoffs(defender, defender_melds)
    if layoffs is not None:
        return play_with_layoffs(defender, layoffs, defender_melds)
    return best_play(defender, knocker_melds, defender_melds=defender_melds)


def judge_hand(
    knocker_cards: Sequence[Card],
    defender_cards: Sequence[Card],
    *,
    knocker_melds: Sequence[Sequence[Card]] | None = None,
    defender_melds: Sequence[Sequence[Card]] | None = None,
    layoffs: Sequence[Layoff] | None = None,
    discard: Card | None = None,
    rules: Rules = Rules(),
) -> Ruling:
    """Rule on a knock: both hands' 10 cards, with whatever was declared
    (``None``: undeclared, R22-R24). Raises :class:`HandError`,
    :class:`MeldError`, :class:`LayoffError` for bad input and
    :class:`IllegalKnockError` for a knock that cannot be scored (R14)."""
    seen: dict[Card, str] = {}
    verify_cards(knocker_cards, "knocker_hand.cards", (10,), seen)
    verify_cards(defender_cards, "defender_hand.cards", (10,), seen)
    if discard is not None and discard in seen:
        raise HandError(
            f"{discard} appears twice ({seen[discard]} and knocker_hand.discard)",
            field="knocker_hand.discard",
            card=str(discard),
            first=seen[discard],
        )
    k_melds = None if knocker_melds is None else verify_melds(knocker_melds, knocker_cards, "knocker_hand.melds")
    d_melds = None if defender_melds is None else verify_melds(defender_melds, defender_cards, "defender_hand.melds")
    if layoffs is not None and k_melds is None:
        raise LayoffError(
            "layoffs name the knocker's melds by number, so they can be declared only with the knocker's melds",
            field="defender_hand.layoffs",
            explanation=(Step.of(Code.LAYOFFS_WITHOUT_MELDS),),
        )

    least = least_deadwood(knocker_cards)
    if k_melds is None:
        if least > rules.knock_limit:
            best_spread = arrangements(knocker_cards, splits=False)[0]
            raise IllegalKnockError(
                f"the least deadwood is {least}, over the knock limit of {rules.knock_limit}",
                field="knocker_hand.cards",
                deadwood=least,
                limit=rules.knock_limit,
                legal_arrangement=None,
                explanation=illegal_knock_steps(best_spread, False, least, None, rules.knock_limit),
            )
        candidates = arrangements(knocker_cards, splits=False)
    else:
        declared = _arrangement_of(knocker_cards, k_melds)
        if declared.deadwood_count > rules.knock_limit:
            legal = arrangements(knocker_cards, splits=False)[0] if least <= rules.knock_limit else None
            raise IllegalKnockError(
                f"the declared melds leave deadwood {declared.deadwood_count}, over the knock "
                f"limit of {rules.knock_limit}",
                field="knocker_hand.melds",
                deadwood=declared.deadwood_count,
                limit=rules.knock_limit,
                legal_arrangement=legal,
                explanation=illegal_knock_steps(declared, True, least, legal, rules.knock_limit),
            )
        candidates = [declared]

    if layoffs is not None:
        assert k_melds is not None
        in_melds = {c for m in d_melds or () for c in m.cards}
        try:
            verify_layoffs(
                layoffs,
                k_melds,
                [c for c in defender_cards if c not in in_melds],
                gin=candidates[0].deadwood_count == 0,
            )
        except RefereeError as err:
            raise err.at("defender_hand") from None

    best: tuple[int, Arrangement, DefenderPlay, Score] | None = None
    for arrangement in candidates:  # R24: the knocker's best against the defender's best reply
        gin = arrangement.deadwood_count == 0
        play = _defender_play(defender_cards, arrangement.melds, gin, d_melds, layoffs)
        result = score(arrangement.deadwood_count, play.deadwood_count, rules, gin=gin)
        net = result.points if result.scorer is Side.KNOCKER else -result.points
        if best is None or net > best[0]:
            best = (net, arrangement, play, result)
    assert best is not None
    _, arrangement, play, result = best

    knocker_better = None
    if k_melds is not None and arrangement.deadwood_count > least:
        knocker_better = arrangements(knocker_cards, splits=False)[0]
    defender_better = None
    if (d_melds is not None or layoffs is not None) and arrangement.deadwood_count > 0:
        ideal = best_play(defender_cards, arrangement.melds)
        if ideal.deadwood_count < play.deadwood_count:
            defender_better = ideal
    elif d_melds is not None and arrangement.deadwood_count == 0:
        ideal = play_without_layoffs(defender_cards)
        if ideal.deadwood_count < play.deadwood_count:
            defender_better = ideal
    return Ruling(
        result.outcome,
        result.scorer,
        result.points,
        KnockerPlay(arrangement.melds, arrangement.deadwood, knocker_better),
        replace(play, better=defender_better),
    )
