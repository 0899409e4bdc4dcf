"""The two-player game as a fold over its hand log (R12, R26, R28-R31).

Each hand keeps who dealt and who did not when it was played, who knocked
and its score (:class:`referee.preset_hand.HandScore`); the game's state (the
running scores, the boxes, the next dealer, the winner and the result) is
recomputed from them, so a correction re-derives everything (R26).

>>> from referee.presets import resolve_rules
>>> from referee.preset_hand import score_preset_counts
>>> rules = resolve_rules("classic")
>>> seating = Seating(dealer="ann", non_dealer="bob")
>>> hand = TwoPlayerHand(seating, Seat.NON_DEALER, score_preset_counts(rules, 3, 60))
>>> state = replay_two_player(rules, seating, [hand])
>>> state.scores, state.boxes, state.seating, state.winner
({'ann': 0, 'bob': 57}, {'ann': 0, 'bob': 1}, Seating(dealer='bob', non_dealer='ann'), None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from referee.cards import Card
from referee.errors import CutError, GameStateError, RolesError
from referee.preset_hand import HandScore
from referee.presets import NextDealer, PresetRules
from referee.roles import PlayerId
from referee.scoring import Outcome, Side
from referee.sheet import GameResult, ScoreSheet, new_sheet


class Seat(StrEnum):
    """R28: the two who play a hand."""

    DEALER = "dealer"
    NON_DEALER = "non_dealer"


@dataclass(frozen=True, slots=True)
class Seating:
    """Who deals a hand and who does not (R28)."""

    dealer: PlayerId
    non_dealer: PlayerId

    def __post_init__(self) -> None:
        if self.dealer == self.non_dealer:
            raise RolesError(
                "dealer and non_dealer must be two different players", field="seating", rule="R28", roles=self.as_dict()
            )

    def of(self, seat: Seat) -> PlayerId:
        return self.dealer if seat is Seat.DEALER else self.non_dealer

    def as_dict(self) -> dict[str, PlayerId]:
        return {"dealer": self.dealer, "non_dealer": self.non_dealer}


@dataclass(frozen=True, slots=True)
class TwoPlayerHand:
    """One recorded hand: its seating as played, who knocked (None for a
    draw, R12) and its score."""

    seating: Seating
    knocker: Seat | None
    score: HandScore

    def __post_init__(self) -> None:
        if (self.knocker is None) != (self.score.outcome is Outcome.DRAW):
            raise RolesError("a hand has a knocker unless it is a draw", field="knocker", rule="R12")

    @property
    def winner(self) -> Seat | None:
        """R11, R28: the knocker, unless undercut; None for a draw."""
        if self.knocker is None or self.score.scorer is None:
            return None
        if self.score.scorer is Side.KNOCKER:
            return self.knocker
        return Seat.NON_DEALER if self.knocker is Seat.DEALER else Seat.DEALER

    @property
    def winner_player(self) -> PlayerId | None:
        winner = self.winner
        return None if winner is None else self.seating.of(winner)


@dataclass(frozen=True, slots=True)
class TwoPlayerState:
    """The game after its hands: the score sheet (running scores, boxes, hands
    won, winner), the seating for the next hand (None once won), the hands
    whose seating did not follow from the hand before (R26), the running
    scores after each hand, and the result once won (R31)."""

    sheet: ScoreSheet
    seating: Seating | None
    hands_played: int
    out_of_turn: tuple[int, ...] = field(default=())
    running: tuple[dict[PlayerId, int], ...] = field(default=())
    result: GameResult | None = None

    @property
    def scores(self) -> dict[PlayerId, int]:
        return self.sheet.scores

    @property
    def boxes(self) -> dict[PlayerId, int]:
        return self.sheet.boxes

    @property
    def winner(self) -> PlayerId | None:
        return self.sheet.winner

    @property
    def finished(self) -> bool:
        return self.sheet.winner is not None


def dealer_from_cut(cut: Mapping[PlayerId, Card]) -> Seating:
    """R28: each of the two players cuts; the lower rank deals (Ace low).
    Tied ranks raise :class:`CutError` naming both players, as R9 does.

    >>> from referee.cards import parse_card
    >>> dealer_from_cut({"ann": parse_card("QS"), "bob": parse_card("4H")})
    Seating(dealer='bob', non_dealer='ann')
    """
    if len(cut) != 2:
        raise CutError(
            f"a cut needs one card from each of 2 players, not {len(cut)}",
            field="cut",
            rule="R28",
            players=sorted(cut, key=str),
        )
    (a, card_a), (b, card_b) = cut.items()
    if card_a == card_b:
        raise CutError("the two cut cards must be distinct cards", field="cut", rule="R28", players=[a, b])
    if card_a.rank == card_b.rank:
        raise CutError(
            f"tied ranks: {a}, {b} must cut again (the whole cut is resubmitted)",
            field="cut",
            rule="R28",
            players=[a, b],
        )
    return Seating(a, b) if card_a.rank < card_b.rank else Seating(b, a)


def verify_first_seating(
    players: Sequence[PlayerId], *, dealer: PlayerId | None = None, cut: Mapping[str, Card] | None = None
) -> Seating:
    """The seating of a two-player game's first hand (R28): two different
    players, the ``dealer`` given directly, or a ``cut`` keyed by each
    player's id as written in decimal, as :func:`referee.roles.verify_seating`."""
    if len(players) != 2 or players[0] == players[1]:
        raise RolesError(
            f"two different players are needed, not {list(players)}", field="players", rule="R28", players=list(players)
        )
    if dealer is not None:
        if dealer not in players:
            raise RolesError("the dealer must be one of the game's players", field="dealer", rule="R28", value=dealer)
        return Seating(dealer, players[1] if dealer == players[0] else players[0])
    if cut is None:
        raise CutError("a game is seated by a cut or by its dealer", field="cut", rule="R28", players=list(players))
    by_name = {str(p): p for p in players}
    by_player: dict[PlayerId, Card] = {}
    for key, card in cut.items():
        if key not in by_name:
            raise CutError(f"{key!r} is not one of the game's players", field=f"cut.{key}", rule="R28", value=key)
        by_player[by_name[key]] = card
    missing = [p for p in players if p not in by_player]
    if missing:
        raise CutError(f"each player cuts one card: missing {missing}", field="cut", rule="R28", players=missing)
    return dealer_from_cut({p: by_player[p] for p in players})


def next_seating(rules: PresetRules, hand: TwoPlayerHand) -> Seating:
    """R28: who deals the next hand, by ``next_dealer`` (``winner``,
    ``loser`` or ``alternate``); after a draw the same player deals again."""
    winner, seating = hand.winner, hand.seating
    if winner is None:
        return seating
    if rules.next_dealer is NextDealer.ALTERNATE:
        deals = Seat.NON_DEALER
    elif rules.next_dealer is NextDealer.WINNER:
        deals = winner
    else:
        deals = Seat.NON_DEALER if winner is Seat.DEALER else Seat.DEALER
    return seating if deals is Seat.DEALER else Seating(seating.non_dealer, seating.dealer)


def new_two_player_game(first: Seating) -> TwoPlayerState:
    """The state before the first hand."""
    return TwoPlayerState(new_sheet((first.dealer, first.non_dealer)), first, 0)


def verify_can_record_two_player(state: TwoPlayerState) -> None:
    """No hand after the game is won (R30, as R20)."""
    if state.finished:
        raise GameStateError(f"the game is over: {state.winner} has won", rule="R30", winner=state.winner)


def can_record_two_player(state: TwoPlayerState) -> bool:
    """Whether another hand may be recorded (R30).

    >>> can_record_two_player(new_two_player_game(Seating(1, 2)))
    True
    """
    return not state.finished


def advance_two_player(rules: PresetRules, state: TwoPlayerState, hand: TwoPlayerHand) -> TwoPlayerState:
    """The state after one more hand: its points and boxes to its winner
    (R29), the win at the target (R30) with the result (R31), the next
    seating (R28), and the R26 mark when the hand was not seated as expected.
    The hand's players must be the game's (R28). ``running`` is not carried:
    see :func:`replay_two_player`."""
    verify_can_record_two_player(state)
    if {hand.seating.dealer, hand.seating.non_dealer} != set(state.sheet.players):
        raise RolesError(
            "the hand's dealer and non_dealer must be the game's two players",
            field="seating",
            rule="R28",
            roles=hand.seating.as_dict(),
            players=list(state.sheet.players),
        )
    number = state.hands_played + 1
    out_of_turn = state.out_of_turn + ((number,) if hand.seating != state.seating else ())
    winner = hand.winner_player
    sheet = state.sheet if winner is None else state.sheet.enter(rules, winner, hand.score.points, hand.score.boxes)
    if sheet.winner is not None:
        return TwoPlayerState(sheet, None, number, out_of_turn, result=sheet.result(rules))
    return TwoPlayerState(sheet, next_seating(rules, hand), number, out_of_turn)


def replay_two_player(rules: PresetRules, first: Seating, hands: Sequence[TwoPlayerHand]) -> TwoPlayerState:
    """Fold the hand log (hands numbered from 1) with
    :func:`advance_two_player`. The winner is the first player whose running
    score reaches the target, in hand order (R26, R30); hands recorded after
    that raise :class:`GameStateError` naming them all."""
    state = new_two_player_game(first)
    running = []
    for number, hand in enumerate(hands, start=1):
        if state.winner is not None:
            stranded = list(range(number, len(hands) + 1))
            raise GameStateError(
                f"{state.winner} reaches {rules.target_score} at hand {number - 1}: hands "
                f"{', '.join(map(str, stranded))} would come after the win",
                field="hands",
                hands=stranded,
                winner=state.winner,
                won_at=number - 1,
            )
        state = advance_two_player(rules, state, hand)
        running.append(state.scores)
    return TwoPlayerState(
        state.sheet, state.seating, state.hands_played, state.out_of_turn, tuple(running), state.result
    )
