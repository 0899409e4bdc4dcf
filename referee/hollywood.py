"""Hollywood: three games, the columns, scored at once from one run of hands
(R34, on R26 and R28-R31).

The hands are two-player hands (:class:`referee.two_player.TwoPlayerHand`,
seated by R28); what Hollywood adds is where each won hand is entered. A
player's won hand goes into every open column where he has already won a
hand, and into the first open column where he has not. Each column is a
score sheet of its own (:class:`referee.sheet.ScoreSheet`: running scores,
boxes, winner, result by R29-R31); a won column takes no more hands; the
match ends when all three are won. Everything is the fold of the hand log,
so a correction re-derives the columns (R26), and :func:`moved_hands` says
which hands the correction moved to other columns.

>>> from referee.presets import resolve_rules
>>> from referee.preset_hand import score_preset_counts
>>> from referee.two_player import Seat, Seating, TwoPlayerHand
>>> rules = resolve_rules("hollywood")
>>> first = Seating(dealer="ann", non_dealer="bob")
>>> def ann_wins(points):  # ann knocks with 1, and deals again (R28)
...     return TwoPlayerHand(first, Seat.DEALER, score_preset_counts(rules, 1, points + 1))
>>> state = replay_hollywood(rules, first, [ann_wins(30), ann_wins(20), ann_wins(10)])
>>> state.entered
((1,), (1, 2), (1, 2, 3))
>>> [column.scores["ann"] for column in state.columns]
[60, 30, 10]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from referee.errors import GameStateError, RolesError
from referee.presets import PresetRules
from referee.roles import PlayerId
from referee.sheet import GameResult, ScoreSheet, new_sheet
from referee.two_player import Seating, TwoPlayerHand, next_seating

#: R34: a match is three games at once
COLUMNS = 3


@dataclass(frozen=True, slots=True)
class ColumnEntry:
    """One hand entered in a column: its number in the match, who won it, the
    points and boxes it counts (R29), and the column's running scores after it."""

    hand: int
    winner: PlayerId
    points: int
    boxes: int
    scores: dict[PlayerId, int]


@dataclass(frozen=True, slots=True)
class Column:
    """One of the three games (R34): its number (1 to 3), its score sheet,
    the hands entered in it, the hand that won it and its result (R29-R31)."""

    number: int
    sheet: ScoreSheet
    entries: tuple[ColumnEntry, ...] = ()
    won_at: int | None = None
    result: GameResult | None = None

    @property
    def open(self) -> bool:
        """A column that is won takes no more hands (R34)."""
        return self.sheet.winner is None

    @property
    def scores(self) -> dict[PlayerId, int]:
        return self.sheet.scores

    @property
    def boxes(self) -> dict[PlayerId, int]:
        return self.sheet.boxes

    @property
    def winner(self) -> PlayerId | None:
        return self.sheet.winner

    def enter(self, rules: PresetRules, hand: int, winner: PlayerId, points: int, boxes: int) -> Column:
        """The column after a won hand entered in it (R29, R30, R31)."""
        sheet = self.sheet.enter(rules, winner, points, boxes)
        entry = ColumnEntry(hand, winner, points, boxes, sheet.scores)
        if sheet.winner is None:
            return Column(self.number, sheet, self.entries + (entry,))
        return Column(self.number, sheet, self.entries + (entry,), hand, sheet.result(rules))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match (R34): each column's result, each player's total
    (the sum of his column totals), the player ahead (None when the totals
    are equal) and the net, the sum of the column nets from his side."""

    columns: tuple[GameResult, ...]
    totals: dict[PlayerId, int]
    winner: PlayerId | None
    net: int


@dataclass(frozen=True, slots=True)
class HollywoodState:
    """The match after its hands: the three columns, the seating for the next
    hand (None once the match is over), the columns each hand was entered in
    (a draw: none), the hands whose seating did not follow from the hand
    before (R26), and the result once all three columns are won."""

    players: tuple[PlayerId, PlayerId]
    columns: tuple[Column, ...]
    seating: Seating | None
    hands_played: int = 0
    entered: tuple[tuple[int, ...], ...] = ()
    out_of_turn: tuple[int, ...] = field(default=())
    result: MatchResult | None = None
    running: tuple[dict[PlayerId, int], ...] = field(default=())

    @property
    def finished(self) -> bool:
        """R34: the match ends when all three columns are won."""
        return all(not column.open for column in self.columns)

    @property
    def scores(self) -> dict[PlayerId, int]:
        """Each player's running scores summed over the three columns."""
        return {p: sum(column.scores[p] for column in self.columns) for p in self.players}

    @property
    def boxes(self) -> dict[PlayerId, int]:
        """Each player's boxes summed over the three columns (R29)."""
        return {p: sum(column.boxes[p] for column in self.columns) for p in self.players}

    @property
    def winner(self) -> PlayerId | None:
        """The player ahead once the match is over (R34); None before, or when the totals are equal."""
        return None if self.result is None else self.result.winner

    @property
    def open_columns(self) -> tuple[int, ...]:
        return tuple(column.number for column in self.columns if column.open)


def columns_for(columns: Sequence[Column], winner: PlayerId) -> tuple[int, ...]:
    """R34: the columns a hand won by ``winner`` is entered in: every open
    column where he has already won a hand, and the first open column where
    he has not (so a player shut out of a column that closed starts again in
    the next open one). Empty once every column is won.

    >>> empty = new_sheet(("ann", "bob"))
    >>> won_once = empty.enter(PresetRules(), "ann", 10, 1)
    >>> columns_for((Column(1, won_once), Column(2, empty), Column(3, empty)), "ann")
    (1, 2)
    >>> columns_for((Column(1, won_once), Column(2, empty), Column(3, empty)), "bob")
    (1,)
    """
    open_columns = [c for c in columns if c.open]
    chosen = [c.number for c in open_columns if c.sheet.hands_won[winner] > 0]
    first_new = next((c.number for c in open_columns if c.sheet.hands_won[winner] == 0), None)
    return tuple(sorted(chosen + ([] if first_new is None else [first_new])))


def new_hollywood_match(first: Seating) -> HollywoodState:
    """The match before its first hand: three empty columns."""
    players = (first.dealer, first.non_dealer)
    return HollywoodState(players, tuple(Column(n, new_sheet(players)) for n in range(1, COLUMNS + 1)), first)


def verify_can_record_hollywood(state: HollywoodState) -> None:
    """No hand after the match is over: all three columns are won (R34)."""
    if state.finished:
        winners = [column.winner for column in state.columns]
        raise GameStateError(
            f"the match is over: all three columns are won (by {', '.join(map(str, winners))}); "
            "a column that is won takes no more hands (R34)",
            rule="R34",
            winner=winners,
        )


def can_record_hollywood(state: HollywoodState) -> bool:
    """Whether another hand may be recorded (R34).

    >>> can_record_hollywood(new_hollywood_match(Seating(1, 2)))
    True
    """
    return not state.finished


def match_result(columns: Sequence[Column], players: Sequence[PlayerId]) -> MatchResult | None:
    """R34 once all three columns are won: each column's result, each
    player's total over the columns, the player ahead and the net."""
    results = [column.result for column in columns]
    if any(result is None for result in results):
        return None
    finished = tuple(result for result in results if result is not None)
    totals = {p: sum(result.totals[p].total for result in finished) for p in players}
    a, b = players
    if totals[a] == totals[b]:
        return MatchResult(finished, totals, None, 0)
    ahead, behind = (a, b) if totals[a] > totals[b] else (b, a)
    return MatchResult(finished, totals, ahead, totals[ahead] - totals[behind])


def advance_hollywood(rules: PresetRules, state: HollywoodState, hand: TwoPlayerHand) -> HollywoodState:
    """The match after one more hand: a won hand's points and boxes entered
    in the columns R34 names (each by R29-R31), the next seating (R28), the
    R26 mark when the hand was not seated as expected, and the result once
    the third column is won. The hand's players must be the match's (R28)."""
    verify_can_record_hollywood(state)
    if {hand.seating.dealer, hand.seating.non_dealer} != set(state.players):
        raise RolesError(
            "the hand's dealer and non_dealer must be the match's two players",
            field="seating",
            rule="R28",
            roles=hand.seating.as_dict(),
            players=list(state.players),
        )
    number = state.hands_played + 1
    out_of_turn = state.out_of_turn + ((number,) if hand.seating != state.seating else ())
    winner = hand.winner_player
    entered = () if winner is None else columns_for(state.columns, winner)
    columns = state.columns
    if winner is not None:
        points, boxes = hand.score.points, hand.score.boxes
        columns = tuple(
            c.enter(rules, number, winner, points, boxes) if c.number in entered else c for c in state.columns
        )
    result = match_result(columns, state.players)
    seating = None if result is not None else next_seating(rules, hand)
    scores = {p: sum(column.scores[p] for column in columns) for p in state.players}
    running = state.running + (scores,)
    return HollywoodState(
        state.players, columns, seating, number, state.entered + (entered,), out_of_turn, result, running
    )


def replay_hollywood(rules: PresetRules, first: Seating, hands: Sequence[TwoPlayerHand]) -> HollywoodState:
    """Fold the hand log (hands numbered from 1) with :func:`advance_hollywood`.
    Hands recorded after the match is over raise :class:`GameStateError`
    (R34) naming them all (``hands``) and the hand that won the last column
    (``won_at``), as R26 does for a game. ``running`` holds the summed
    scores after each hand."""
    state = new_hollywood_match(first)
    for number, hand in enumerate(hands, start=1):
        if state.finished:
            stranded = list(range(number, len(hands) + 1))
            raise GameStateError(
                f"all three columns are won at hand {number - 1}: hands "
                f"{', '.join(map(str, stranded))} would come after the end of the match (R34)",
                field="hands",
                rule="R34",
                hands=stranded,
                won_at=number - 1,
            )
        state = advance_hollywood(rules, state, hand)
    return state


@dataclass(frozen=True, slots=True)
class MovedHand:
    """A hand whose columns a correction changed (R26, R34): its number, the
    columns it was entered in before and after, and whether the hand itself
    was corrected (else a later hand moved by the corrected one)."""

    hand: int
    before: tuple[int, ...]
    after: tuple[int, ...]
    corrected: bool


def moved_hands(
    before: HollywoodState,
    after: HollywoodState,
    corrected: Sequence[int] = (),
) -> tuple[MovedHand, ...]:
    """R26, R34: the hands, among those both states have, entered in other
    columns after a correction than before; ``corrected`` names the hands
    that were themselves corrected.

    >>> from referee.presets import resolve_rules
    >>> from referee.preset_hand import score_preset_counts
    >>> from referee.two_player import Seat
    >>> rules, first = resolve_rules("hollywood"), Seating("ann", "bob")
    >>> ann = TwoPlayerHand(first, Seat.DEALER, score_preset_counts(rules, 2, 40))
    >>> bob = TwoPlayerHand(first, Seat.NON_DEALER, score_preset_counts(rules, 2, 40))
    >>> moved_hands(replay_hollywood(rules, first, [ann, ann]), replay_hollywood(rules, first, [bob, ann]), [1])
    (MovedHand(hand=2, before=(1, 2), after=(1,), corrected=False),)
    """
    marked = set(corrected)
    return tuple(
        MovedHand(number, old, new, number in marked)
        for number, (old, new) in enumerate(zip(before.entered, after.entered, strict=False), start=1)
        if old != new
    )


@dataclass(frozen=True, slots=True)
class Correction:
    """A corrected match (R26): the state the corrected log gives and the
    hands it entered in other columns (:func:`moved_hands`)."""

    state: HollywoodState
    moved: tuple[MovedHand, ...]


def verify_hollywood_correction(
    rules: PresetRules, first: Seating, hands: Sequence[TwoPlayerHand], corrected: Sequence[TwoPlayerHand]
) -> Correction:
    """R26, R34: replay a corrected hand log against the log as it stood.
    Each hand keeps its seating as played; the columns are re-derived. A
    correction that would win the third column before the last recorded hand
    is refused with :class:`GameStateError` (rule R26) naming the hands that
    would come after the end of the match; nothing is deleted silently."""
    old = replay_hollywood(rules, first, hands)
    try:
        new = replay_hollywood(rules, first, corrected)
    except GameStateError as err:
        stranded = err.hands or []
        raise GameStateError(
            f"the correction ends the match at hand {err.won_at}: hands "
            f"{', '.join(map(str, stranded))} would come after the end of the match (R26, R34)",
            field="hands",
            rule="R26",
            hands=stranded,
            won_at=err.won_at,
        ) from err
    changed = [n for n, (a, b) in enumerate(zip(hands, corrected, strict=False), start=1) if a != b]
    return Correction(new, moved_hands(old, new, changed))


def can_correct_hollywood(
    rules: PresetRules, first: Seating, hands: Sequence[TwoPlayerHand], corrected: Sequence[TwoPlayerHand]
) -> bool:
    """Whether :func:`verify_hollywood_correction` accepts the corrected log
    (R26, R34).

    >>> from referee.presets import resolve_rules
    >>> from referee.preset_hand import score_preset_counts
    >>> from referee.two_player import Seat
    >>> rules, first = resolve_rules("hollywood"), Seating("ann", "bob")
    >>> small = TwoPlayerHand(first, Seat.DEALER, score_preset_counts(rules, 1, 11))
    >>> big = TwoPlayerHand(first, Seat.DEALER, score_preset_counts(rules, 0, 75))
    >>> can_correct_hollywood(rules, first, [big, big, small, small], [big, big, big, small])
    False
    >>> can_correct_hollywood(rules, first, [big, big, small, small], [small, big, small, small])
    True
    """
    try:
        verify_hollywood_correction(rules, first, hands, corrected)
    except GameStateError:
        return False
    return True
