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

from referee.errors import GameStateError
from referee.roles import PlayerId, Role, Roles, next_roles
from referee.rules import Rules
from referee.scoring import Score, Side


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One recorded hand: seating as played, who knocked (None for a draw), its score."""

    roles: Roles
    knocker: Role | None
    score: Score

    def __post_init__(self) -> None:
        if self.knocker is Role.SITTER:
            raise ValueError("the sitter never knocks (R8)")

    @property
    def winner(self) -> Role | None:
        """R11: the knocker, unless undercut; None for a draw (R12)."""
        if self.knocker is None or self.score.scorer is None:
            return None
        defender = Role.CAPTAIN if self.knocker is Role.BOX else Role.BOX
        return self.knocker if self.score.scorer is Side.KNOCKER else defender

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


def replay(rules: Rules, first_roles: Roles, hands: Sequence[HandRecord]) -> GameState:
    """Fold the hand log (hands numbered from 1). The winner is the first player
    whose running total reaches the target, in hand order (R20, R26); hands
    recorded after that raise :class:`GameStateError` naming them."""
    scores: dict[PlayerId, int] = {p: 0 for p in (first_roles.box, first_roles.captain, first_roles.sitter)}
    expected = first_roles
    out_of_turn = []
    running = []
    winner: PlayerId | None = None
    for number, hand in enumerate(hands, start=1):
        if winner is not None:
            stranded = list(range(number, len(hands) + 1))
            raise GameStateError(
                f"{winner} reaches {rules.target_score} at hand {number - 1}: hands "
                f"{', '.join(map(str, stranded))} would come after the win", field="hands",
                hands=stranded, winner=winner, won_at=number - 1)
        if hand.roles != expected:
            out_of_turn.append(number)  # R26: kept as played, marked
        scorer = hand.scorer
        if scorer is not None:
            scores[scorer] += hand.score.points
            if scores[scorer] >= rules.target_score:
                winner = scorer
        running.append(dict(scores))
        expected = next_roles(hand.roles, hand.winner)
    return GameState(scores, None if winner is not None else expected, winner, len(hands),
                     tuple(out_of_turn), tuple(running))


def verify_can_record(state: GameState) -> None:
    """No hands after the winner (R20)."""
    if state.finished:
        raise GameStateError(f"the game is over: {state.winner} has won", rule="R20",
                             winner=state.winner)
