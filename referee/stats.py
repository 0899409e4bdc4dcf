"""League figures from hand logs: per player, what the standings show.

>>> from referee.scoring import score
>>> roles = Roles(box=1, captain=2, sitter=3)
>>> hands = [HandRecord(roles, Role.BOX, score(0, 20), knocker_deadwood=0),
...          HandRecord(Roles(box=1, captain=3, sitter=2), Role.BOX, score(8, 5))]
>>> figures = game_figures(hands, [1, 2, 3], winner=None)
>>> f = figures[1]
>>> f.hands_box, f.hands_won_box, f.gins, f.knocks, f.undercuts_suffered, f.points
(2, 1, 1, 2, 1, 45)
>>> figures[3].undercuts_made, figures[3].points, figures[3].hands_sitter
(1, 13, 1)
>>> streaks([True, True, False, True])
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from referee.game import HandRecord
from referee.roles import PlayerId, Role, Roles
from referee.scoring import Outcome


@dataclass(slots=True)
class Figures:
    """Counts for one player over some games; all additive."""

    games_played: int = 0
    games_finished: int = 0
    games_won: int = 0
    points: int = 0
    hands: int = 0
    hands_box: int = 0
    hands_captain: int = 0
    hands_sitter: int = 0
    hands_won_box: int = 0
    hands_won_captain: int = 0
    gins: int = 0
    undercuts_made: int = 0
    undercuts_suffered: int = 0
    knocks: int = 0
    knocker_deadwood_total: int = 0
    knocker_deadwood_hands: int = 0

    def add(self, other: Figures) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @property
    def hands_played(self) -> int:
        """Hands he played, in the box or as captain (R8): sitting out is not playing."""
        return self.hands_box + self.hands_captain

    @property
    def hands_sat_out(self) -> int:
        return self.hands_sitter

    @property
    def hands_won(self) -> int:
        return self.hands_won_box + self.hands_won_captain

    @property
    def win_rate(self) -> float | None:
        """Games won over finished games played."""
        return None if not self.games_finished else self.games_won / self.games_finished

    @property
    def average_knocker_deadwood(self) -> float | None:
        """Over the hands he knocked that were entered by cards."""
        if not self.knocker_deadwood_hands:
            return None
        return self.knocker_deadwood_total / self.knocker_deadwood_hands

    @property
    def average_points_per_hand_won(self) -> float | None:
        return None if not self.hands_won else self.points / self.hands_won


def game_figures(
    hands: Sequence[HandRecord], players: Iterable[PlayerId], winner: PlayerId | None
) -> dict[PlayerId, Figures]:
    """Each player's figures for one game (finished when it has a winner, R20):
    the sum of :func:`hand_figures` over its hands, plus the game's result."""
    out = {p: Figures(games_played=1) for p in players}
    for hand in hands:
        add_hand(out, hand)
    if winner is not None:
        finish(out, winner)
    return out


def finish(out: dict[PlayerId, Figures], winner: PlayerId) -> None:
    """The game is won (R20): finished for all three, won for one."""
    for figures in out.values():
        figures.games_finished = 1
    out[winner].games_won = 1


def add_hand(out: dict[PlayerId, Figures], hand: HandRecord) -> None:
    """Add one hand's counts to the players' figures."""
    roles: Roles = hand.roles
    for role, attr in ((Role.BOX, "hands_box"), (Role.CAPTAIN, "hands_captain"), (Role.SITTER, "hands_sitter")):
        f = out[roles.of(role)]
        f.hands += 1
        setattr(f, attr, getattr(f, attr) + 1)
    winner = hand.winner
    if winner is not None:
        f = out[roles.of(winner)]
        f.points += hand.score.points  # R19: only the winner of the hand scores
        if winner is Role.BOX:
            f.hands_won_box += 1
        else:
            f.hands_won_captain += 1
    knocker = hand.knocker_player
    if knocker is None:
        return
    k = out[knocker]
    k.knocks += 1
    if hand.score.outcome is Outcome.GIN:
        k.gins += 1
    if hand.score.outcome is Outcome.UNDERCUT:
        k.undercuts_suffered += 1
        defender = Role.CAPTAIN if hand.knocker is Role.BOX else Role.BOX
        out[roles.of(defender)].undercuts_made += 1
    if hand.knocker_deadwood is not None:
        k.knocker_deadwood_total += hand.knocker_deadwood
        k.knocker_deadwood_hands += 1


def streaks(results: Iterable[bool]) -> tuple[int, int]:
    """(current, longest) run of games won, from finished games in order."""
    current = longest = 0
    for won in results:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest
