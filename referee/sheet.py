"""A score sheet with boxes (R29-R31): the running scores, the hand points,
the boxes and the hands won of each player, the winner, and the result.

A sheet knows nothing of who deals or sits out: a game's fold enters each
won hand into it (the two-player game into one sheet; Hollywood, R34, into
each open column's; cutthroat, R36, into one of three players).

>>> from referee.presets import resolve_rules
>>> rules = resolve_rules("classic", {"target_score": 50})
>>> sheet = new_sheet(("ann", "bob")).enter(rules, "ann", 30, 1).enter(rules, "ann", 25, 2)
>>> sheet.scores, sheet.boxes, sheet.winner
({'ann': 55, 'bob': 0}, {'ann': 3, 'bob': 0}, 'ann')
>>> result = sheet.result(rules)
>>> result.totals["ann"]
PlayerTotal(hand_points=55, box_bonus=75, game_bonus=100, shutout=155, total=385)
>>> result.net, result.shutout
(385, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.presets import PresetRules, Shutout
from referee.roles import PlayerId
from referee.steps import SheetCode, Step


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    """A player's total at the end of a game (R31) and its parts: his hand
    points, his box bonuses (R29), the game bonus (R30, the winner's) and
    what a shutout adds (R31, the winner's)."""

    hand_points: int
    box_bonus: int
    game_bonus: int
    shutout: int
    total: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game (R31): each player's total, the winner, the loser,
    whether he was shut out, and the net (the winner's total minus the loser's)."""

    winner: PlayerId
    loser: PlayerId
    totals: dict[PlayerId, PlayerTotal]
    shutout: bool

    @property
    def net(self) -> int:
        return self.totals[self.winner].total - self.totals[self.loser].total


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Per player: ``scores`` (what counts toward the target, R30: hand points,
    and box bonuses with ``boxes_immediate``), ``hand_points``, ``boxes`` and
    ``hands_won``; the ``winner`` once someone reaches the target."""

    players: tuple[PlayerId, ...]
    scores: dict[PlayerId, int]
    hand_points: dict[PlayerId, int]
    boxes: dict[PlayerId, int]
    hands_won: dict[PlayerId, int]
    winner: PlayerId | None = None

    def enter(self, rules: PresetRules, winner: PlayerId, points: int, boxes: int) -> ScoreSheet:
        """A hand won by ``winner``: his points and boxes (R29); with
        ``boxes_immediate`` each box's bonus counts at once; the first to
        reach the target wins (R30)."""
        scores, hand_points, won, hands_won = (
            dict(self.scores),
            dict(self.hand_points),
            dict(self.boxes),
            dict(self.hands_won),
        )
        hand_points[winner] += points
        won[winner] += boxes
        hands_won[winner] += 1
        scores[winner] += points + (boxes * rules.box_bonus if rules.boxes_immediate else 0)
        reached = winner if self.winner is None and scores[winner] >= rules.target_score else self.winner
        return ScoreSheet(self.players, scores, hand_points, won, hands_won, reached)

    def result(self, rules: PresetRules) -> GameResult | None:
        """R31 once the game is won (None before): each player's hand points
        plus his box bonuses, the game bonus to the winner, and the shutout of
        a loser who won no hand: ``double`` doubles the winner's hand points
        and game bonus (not his box bonuses), ``plus_100`` adds 100 to the
        game bonus, ``none`` nothing."""
        totals = self.totals(rules)
        if self.winner is None or totals is None:
            return None
        loser = next(p for p in self.players if p != self.winner)
        return GameResult(self.winner, loser, totals, self.hands_won[loser] == 0)

    @property
    def shut_out(self) -> tuple[PlayerId, ...]:
        """R31, R36: the players who won no hand, in the sheet's order."""
        return tuple(p for p in self.players if self.hands_won[p] == 0)

    def totals(self, rules: PresetRules) -> dict[PlayerId, PlayerTotal] | None:
        """Each player's total once the game is won (None before), for two
        players (R31) or three (R36): his hand points plus his box bonuses,
        the game bonus to the winner; with anyone shut out, ``double``
        doubles the winner's hand points and game bonus once, ``plus_100``
        adds 100 to his game bonus for each player shut out.

        >>> from referee.presets import resolve_rules
        >>> rules = resolve_rules("cutthroat", {"target_score": 10, "shutout": "plus_100"})
        >>> new_sheet(("ann", "bob", "cy")).enter(rules, "ann", 12, 1).totals(rules)["ann"]
        PlayerTotal(hand_points=12, box_bonus=25, game_bonus=100, shutout=200, total=337)
        """
        winner = self.winner
        if winner is None:
            return None
        shut_out = len(self.shut_out)
        totals = {}
        for player in self.players:
            points, box_bonus = self.hand_points[player], self.boxes[player] * rules.box_bonus
            game_bonus = rules.game_bonus if player == winner else 0
            extra = 0
            if player == winner and shut_out:
                if rules.shutout is Shutout.DOUBLE:
                    extra = points + game_bonus
                elif rules.shutout is Shutout.PLUS_100:
                    extra = 100 * shut_out
            totals[player] = PlayerTotal(points, box_bonus, game_bonus, extra, points + box_bonus + game_bonus + extra)
        return totals


def new_sheet(players: Sequence[PlayerId]) -> ScoreSheet:
    """An empty sheet for ``players``."""
    zero = {p: 0 for p in players}
    return ScoreSheet(tuple(players), dict(zero), dict(zero), dict(zero), dict(zero))


def explain_result(rules: PresetRules, result: GameResult) -> tuple[Step, ...]:
    """The steps of a result (R29-R31): each player's box bonuses, the game
    bonus to the winner, the shutout, each total, and the net.

    >>> from referee.presets import resolve_rules
    >>> rules = resolve_rules("classic", {"target_score": 50})
    >>> sheet = new_sheet(("ann", "bob")).enter(rules, "ann", 60, 1)
    >>> for step in explain_result(rules, sheet.result(rules))[-2:]:
    ...     print(step.text)
    Player bob: 0 in hands + 0 in boxes + 0 game bonus + 0 shutout = 0 (R31)
    The net to player ann: 345 - 0 = 345 (R31)
    """
    winner, loser = result.winner, result.loser
    won = result.totals[winner]
    steps: list[Step] = box_bonus_steps(rules, result.totals)
    steps.append(Step.of(SheetCode.GAME_BONUS, player=winner, game_bonus=won.game_bonus))
    if result.shutout and won.shutout:
        code = SheetCode.SHUTOUT_DOUBLE if rules.shutout is Shutout.DOUBLE else SheetCode.SHUTOUT_PLUS_100
        steps.append(Step.of(code, player=winner, loser=loser, shutout_points=won.shutout))
    steps += total_steps(result.totals)
    steps.append(
        Step.of(SheetCode.NET, player=winner, total=won.total, loser_total=result.totals[loser].total, net=result.net)
    )
    return tuple(steps)


def box_bonus_steps(rules: PresetRules, totals: Mapping[PlayerId, PlayerTotal]) -> list[Step]:
    """R29: each player's box bonuses, for those who have any."""
    return [
        Step.of(
            SheetCode.BOX_BONUS,
            player=player,
            boxes=total.box_bonus // rules.box_bonus,
            box_bonus=rules.box_bonus,
            box_points=total.box_bonus,
        )
        for player, total in totals.items()
        if total.box_bonus
    ]


def total_steps(totals: Mapping[PlayerId, PlayerTotal]) -> list[Step]:
    """R31: each player's total, by its parts."""
    return [
        Step.of(
            SheetCode.TOTAL,
            player=player,
            hand_points=total.hand_points,
            box_points=total.box_bonus,
            game_bonus=total.game_bonus,
            shutout_points=total.shutout,
            total=total.total,
        )
        for player, total in totals.items()
    ]


def explain_hand_boxes(boxes: int) -> tuple[Step, ...]:
    """R29: the boxes a won hand counts for its winner (none for a draw)."""
    return (Step.of(SheetCode.HAND_BOXES, boxes=boxes),) if boxes else ()
