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

from referee.cutthroat import CutthroatHand, CutthroatSeating
from referee.game import HandRecord
from referee.roles import PlayerId, Role, Roles
from referee.scoring import Outcome
from referee.two_player import Seat, TwoPlayerHand


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
    # two-player presets (R28, R29): the hands he dealt or did not, those he won in each seat, his boxes
    hands_dealer: int = 0
    hands_non_dealer: int = 0
    hands_won_dealer: int = 0
    hands_won_non_dealer: int = 0
    boxes: int = 0

    def add(self, other: Figures) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @property
    def hands_played(self) -> int:
        """Hands he played, in the box or as captain (R8), or in either seat
        of a two-player game (R28): sitting out is not playing."""
        return self.hands - self.hands_sitter

    @property
    def hands_sat_out(self) -> int:
        return self.hands_sitter

    @property
    def hands_won(self) -> int:
        return self.hands_won_box + self.hands_won_captain + self.hands_won_dealer + self.hands_won_non_dealer

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


def finish(out: dict[PlayerId, Figures], winner: PlayerId | None) -> None:
    """The game is won (R20): finished for all its players, won for one; a
    Hollywood match that ends with equal totals (R34) is won by none."""
    for figures in out.values():
        figures.games_finished = 1
    if winner is not None:
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


def two_player_game_figures(
    hands: Sequence[tuple[TwoPlayerHand | CutthroatHand, int | None]],
    players: Iterable[PlayerId],
    winner: PlayerId | None,
    *,
    finished: bool | None = None,
) -> dict[PlayerId, Figures]:
    """Each player's figures for one two-player game (R28-R30): the sum of
    :func:`add_two_player_hand` over its hands (each with the knocker's
    deadwood when entered by cards), plus the game's result. ``finished``
    (by default: whether it has a winner) counts a Hollywood match that
    ended with equal totals, which none won (R34).

    >>> from referee.preset_hand import HandScore
    >>> from referee.scoring import Side
    >>> from referee.two_player import Seating
    >>> seating = Seating(dealer=1, non_dealer=2)
    >>> gin = HandScore(Outcome.GIN, Side.KNOCKER, 45, boxes=2)
    >>> undercut = HandScore(Outcome.UNDERCUT, Side.DEFENDER, 30, boxes=1)
    >>> hands = [(TwoPlayerHand(seating, Seat.NON_DEALER, gin), 0),
    ...          (TwoPlayerHand(Seating(2, 1), Seat.DEALER, undercut), 4)]
    >>> f = two_player_game_figures(hands, [1, 2], winner=None)
    >>> f[2].hands_played, f[2].hands_won_non_dealer, f[2].boxes, f[2].points, f[2].undercuts_suffered
    (2, 1, 2, 45, 1)
    >>> f[1].hands_won_non_dealer, f[1].undercuts_made, f[1].points, f[1].hands_sat_out
    (1, 1, 30, 0)
    >>> even = two_player_game_figures(hands, [1, 2], winner=None, finished=True)
    >>> [(even[p].games_finished, even[p].games_won) for p in (1, 2)]
    [(1, 0), (1, 0)]
    """
    out = {p: Figures(games_played=1) for p in players}
    for hand, knocker_deadwood in hands:
        add_two_player_hand(out, hand, knocker_deadwood)
    if winner is not None if finished is None else finished:
        finish(out, winner)
    return out


def add_two_player_hand(
    out: dict[PlayerId, Figures], hand: TwoPlayerHand | CutthroatHand, knocker_deadwood: int | None
) -> None:
    """Add one two-player hand's counts (R28, R29) to its players' figures;
    in cutthroat (R36) the hand the third player sat out counts for him too."""
    seating = hand.seating
    if isinstance(seating, CutthroatSeating):
        sitter = out[seating.sitter]
        sitter.hands += 1
        sitter.hands_sitter += 1
    dealer, non_dealer = out[seating.dealer], out[seating.non_dealer]
    dealer.hands += 1
    dealer.hands_dealer += 1
    non_dealer.hands += 1
    non_dealer.hands_non_dealer += 1
    winner = hand.winner
    if winner is not None:
        f = out[seating.of(winner)]
        f.points += hand.score.points  # the hand's points (R16-R18, R32, R33), not the end-of-game bonuses
        f.boxes += hand.score.boxes  # R29
        if winner is Seat.DEALER:
            f.hands_won_dealer += 1
        else:
            f.hands_won_non_dealer += 1
    if hand.knocker is None:
        return
    k = out[seating.of(hand.knocker)]
    k.knocks += 1
    if hand.score.outcome is Outcome.GIN:
        k.gins += 1
    if hand.score.outcome is Outcome.UNDERCUT:
        k.undercuts_suffered += 1
        defender = Seat.NON_DEALER if hand.knocker is Seat.DEALER else Seat.DEALER
        out[seating.of(defender)].undercuts_made += 1
    if knocker_deadwood is not None:
        k.knocker_deadwood_total += knocker_deadwood
        k.knocker_deadwood_hands += 1


def streaks(results: Iterable[bool]) -> tuple[int, int]:
    """(current, longest) run of games won, from finished games in order."""
    current = longest = 0
    for won in results:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest
