"""A game as a fold over its hand log (R11, R12, R19, R20, R26).

Each recorded hand keeps the players who sat in each role when it was played
and its score; a game's state is recomputed from them, so scores, roles and
winner never drift from the hands.

>>> from referee.scoring import score
>>> first = Roles(box="ann", captain="bob", sitter="cy")
>>> hand = HandRecord(first, Role.BOX, score(3, 60))
>>> state = replay(Rules(), first, [hand])
>>> state.scores, state.roles, state.winner
({'ann': 57, 'bob': 0, 'cy': 0}, Roles(box='ann', captain='cy', sitter='bob'), None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.errors import GameStateError, RolesError
from referee.roles import PlayerId, Role, Roles, next_roles
from referee.rules import Rules
from referee.scoring import Score, Side


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One recorded hand: seating as played, who knocked (None for a draw), its score."""

    roles: Roles
    knocker: Role | None
    score: Score
    knocker_deadwood: int | None = None  # known for hands entered by cards

    def __post_init__(self) -> None:
        if self.knocker is Role.SITTER:
            raise RolesError("the sitter never knocks", field="knocker")

    @property
    def winner(self) -> Role | None:
        """R11: the knocker, unless undercut; None for a draw (R12)."""
        if self.knocker is None or self.score.scorer is None:
            return None
        defender = Role.CAPTAIN if self.knocker is Role.BOX else Role.BOX
        return self.knocker if self.score.scorer is Side.KNOCKER else defender

    @property
    def knocker_player(self) -> PlayerId | None:
        return None if self.knocker is None else self.roles.of(self.knocker)

    @property
    def scorer(self) -> PlayerId | None:
        """The player who scores; never the sitter (R19)."""
        winner = self.winner
        return None if winner is None else self.roles.of(winner)


@dataclass(frozen=True, slots=True)
class GameState:
    """Scores, the roles for the next hand (None once won), the winner, and the
    hands whose seating no longer follows from the hand before (R26)."""

    scores: dict[PlayerId, int]
    roles: Roles | None
    winner: PlayerId | None
    hands_played: int
    out_of_turn: tuple[int, ...] = field(default=())
    running: tuple[dict[PlayerId, int], ...] = field(default=())

    @property
    def finished(self) -> bool:
        return self.winner is not None


def new_game(first_roles: Roles) -> GameState:
    """The state before the first hand."""
    players = (first_roles.box, first_roles.captain, first_roles.sitter)
    return GameState({p: 0 for p in players}, first_roles, None, 0)


def advance(rules: Rules, state: GameState, hand: HandRecord) -> GameState:
    """The state after one more hand: its points to its scorer (R19), the win
    at the target (R20), the roles for the next hand (R11, R12), and the R26
    mark when the hand was not seated as the state expected. No hand may come
    after the winner (R20). ``running`` is not carried: see :func:`replay`."""
    verify_can_record(state)
    number = state.hands_played + 1
    out_of_turn = state.out_of_turn + ((number,) if hand.roles != state.roles else ())
    scores = dict(state.scores)
    winner = None
    scorer = hand.scorer
    if scorer is not None:
        scores[scorer] += hand.score.points
        if scores[scorer] >= rules.target_score:
            winner = scorer
    roles = None if winner is not None else next_roles(hand.roles, hand.winner)
    return GameState(scores, roles, winner, number, out_of_turn)


def replay(rules: Rules, first_roles: Roles, hands: Sequence[HandRecord]) -> GameState:
    """Fold the hand log (hands numbered from 1) with :func:`advance`. The
    winner is the first player whose running total reaches the target, in hand
    order (R20, R26); hands recorded after that raise :class:`GameStateError`
    naming them all."""
    state = new_game(first_roles)
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
        state = advance(rules, state, hand)
        running.append(state.scores)
    return GameState(state.scores, state.roles, state.winner, state.hands_played, state.out_of_turn, tuple(running))


def verify_can_record(state: GameState) -> None:
    """No hands after the winner (R20)."""
    if state.finished:
        raise GameStateError(f"the game is over: {state.winner} has won", rule="R20", winner=state.winner)


def can_record(state: GameState) -> bool:
    """Whether another hand may be recorded (R20).

    >>> can_record(new_game(Roles(box=1, captain=2, sitter=3)))
    True
    """
    return not state.finished
