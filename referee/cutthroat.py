"""Cutthroat: three players, no advice, as a fold over the hand log (R36, on
R12, R26 and R29-R31).

Two players play each hand, the dealer and the non-dealer, and the third
sits out. The first hand is seated by a cut of three cards (the two higher
play, the higher deals) or by the roles given. After a won hand the loser
sits out, the player who sat out comes in and deals, and the winner is the
non-dealer; after a draw the same two play again and the same player deals.
Each player has his own running score, boxes and total on one score sheet
(:class:`referee.sheet.ScoreSheet`); the first to reach the target wins the
game bonus; every player who won no hand is shut out. The result shows each
player's total and each pair's net.

>>> from referee.presets import resolve_rules
>>> from referee.preset_hand import score_preset_counts
>>> from referee.two_player import Seat
>>> rules = resolve_rules("cutthroat")
>>> seating = CutthroatSeating(dealer="ann", non_dealer="bob", sitter="cy")
>>> hand = CutthroatHand(seating, Seat.NON_DEALER, score_preset_counts(rules, 3, 60))
>>> state = replay_cutthroat(rules, seating, [hand])
>>> state.scores, state.seating
({'ann': 0, 'bob': 57, 'cy': 0}, CutthroatSeating(dealer='cy', non_dealer='bob', sitter='ann'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations

from referee.cards import Card
from referee.errors import CutError, GameStateError, RolesError
from referee.preset_hand import HandScore
from referee.presets import PresetRules, Shutout
from referee.roles import PlayerId
from referee.scoring import Outcome, Side
from referee.sheet import PlayerTotal, ScoreSheet, box_bonus_steps, new_sheet, total_steps
from referee.steps import SheetCode, Step
from referee.two_player import Seat


class CutthroatSeat(StrEnum):
    """R36: the two who play a hand and the one who sits it out."""

    DEALER = "dealer"
    NON_DEALER = "non_dealer"
    SITTER = "sitter"


@dataclass(frozen=True, slots=True)
class CutthroatSeating:
    """Who deals a hand, who does not, and who sits it out (R36)."""

    dealer: PlayerId
    non_dealer: PlayerId
    sitter: PlayerId

    def __post_init__(self) -> None:
        if len({self.dealer, self.non_dealer, self.sitter}) != 3:
            raise RolesError(
                "dealer, non_dealer and sitter must be three different players",
                field="seating",
                rule="R36",
                roles=self.as_dict(),
            )

    def of(self, seat: CutthroatSeat | Seat) -> PlayerId:
        return {"dealer": self.dealer, "non_dealer": self.non_dealer, "sitter": self.sitter}[str(seat)]

    def as_dict(self) -> dict[str, PlayerId]:
        return {"dealer": self.dealer, "non_dealer": self.non_dealer, "sitter": self.sitter}


@dataclass(frozen=True, slots=True)
class CutthroatHand:
    """One recorded hand: its seating as played, who knocked (None for a
    draw, R12) and its score."""

    seating: CutthroatSeating
    knocker: Seat | None
    score: HandScore

    def __post_init__(self) -> None:
        if (self.knocker is None) != (self.score.outcome is Outcome.DRAW):
            raise RolesError("a hand has a knocker unless it is a draw", field="knocker", rule="R12")

    @property
    def winner(self) -> Seat | None:
        """R11, R36: the knocker, unless undercut; None for a draw."""
        if self.knocker is None or self.score.scorer is None:
            return None
        if self.score.scorer is Side.KNOCKER:
            return self.knocker
        return Seat.NON_DEALER if self.knocker is Seat.DEALER else Seat.DEALER

    @property
    def winner_player(self) -> PlayerId | None:
        winner = self.winner
        return None if winner is None else self.seating.of(winner)

    @property
    def loser_player(self) -> PlayerId | None:
        winner = self.winner
        if winner is None:
            return None
        return self.seating.of(Seat.NON_DEALER if winner is Seat.DEALER else Seat.DEALER)


def seating_from_cut(cut: Mapping[PlayerId, Card]) -> CutthroatSeating:
    """R36: each of the three players cuts; the two higher play and the
    higher of them deals; the lowest sits out (Ace low). Tied ranks raise
    :class:`CutError` naming the players who must cut again, as R9 does.

    >>> from referee.cards import parse_card
    >>> seating_from_cut({"ann": parse_card("2S"), "bob": parse_card("KH"), "cy": parse_card("7D")})
    CutthroatSeating(dealer='bob', non_dealer='cy', sitter='ann')
    """
    if len(cut) != 3:
        raise CutError(
            f"a cut needs one card from each of 3 players, not {len(cut)}",
            field="cut",
            rule="R36",
            players=sorted(cut, key=str),
        )
    cards = list(cut.values())
    if len(set(cards)) != 3:
        raise CutError("the three cut cards must be distinct cards", field="cut", rule="R36", players=list(cut))
    by_rank: dict[int, list[PlayerId]] = {}
    for player, card in cut.items():
        by_rank.setdefault(card.rank, []).append(player)
    tied = [p for players in by_rank.values() if len(players) > 1 for p in players]
    if tied:
        names = ", ".join(str(p) for p in tied)
        raise CutError(
            f"tied ranks: {names} must cut again (the whole cut is resubmitted)", field="cut", rule="R36", players=tied
        )
    high, middle, low = sorted(cut, key=lambda p: cut[p].rank, reverse=True)
    return CutthroatSeating(dealer=high, non_dealer=middle, sitter=low)


def verify_cutthroat_seating(
    players: Sequence[PlayerId], *, roles: Mapping[str, PlayerId] | None = None, cut: Mapping[str, Card] | None = None
) -> CutthroatSeating:
    """The seating of a cutthroat game's first hand (R36): three different
    players, seated by the ``roles`` given (``dealer``, ``non_dealer``,
    ``sitter``: the game's three players) or by a ``cut`` keyed by each
    player's id as written in decimal, one card each."""
    if len(players) != 3 or len(set(players)) != 3:
        raise RolesError(
            f"three different players are needed, not {list(players)}",
            field="players",
            rule="R36",
            players=list(players),
        )
    if roles is not None:
        if set(roles) != {"dealer", "non_dealer", "sitter"}:
            raise RolesError(
                "the roles are dealer, non_dealer and sitter", field="roles", rule="R36", value=dict(roles)
            )
        if sorted(roles.values(), key=str) != sorted(players, key=str):
            raise RolesError(
                "dealer, non_dealer and sitter must be the game's three players",
                field="roles",
                rule="R36",
                value=dict(roles),
            )
        return CutthroatSeating(roles["dealer"], roles["non_dealer"], roles["sitter"])
    if cut is None:
        raise CutError("a game is seated by a cut or by roles", field="cut", rule="R36", players=list(players))
    by_name = {str(p): p for p in players}
    by_player: dict[PlayerId, Card] = {}
    for key, card in cut.items():
        if key not in by_name:
            raise CutError(f"{key!r} is not one of the game's players", field=f"cut.{key}", rule="R36", value=key)
        by_player[by_name[key]] = card
    missing = [p for p in players if p not in by_player]
    if missing:
        raise CutError(f"each player cuts one card: missing {missing}", field="cut", rule="R36", players=missing)
    return seating_from_cut({p: by_player[p] for p in players})


def next_cutthroat_seating(hand: CutthroatHand) -> CutthroatSeating:
    """R36: the loser of the hand sits out, the player who sat out comes in
    and deals, the winner is the non-dealer; after a draw (R12) the same two
    play again and the same player deals."""
    winner, loser = hand.winner_player, hand.loser_player
    if winner is None or loser is None:
        return hand.seating
    return CutthroatSeating(dealer=hand.seating.sitter, non_dealer=winner, sitter=loser)


@dataclass(frozen=True, slots=True)
class PairNet:
    """R36: the net of two players, the one ahead (the first of the game's
    order when they are level) minus the one behind."""

    ahead: PlayerId
    behind: PlayerId
    net: int


@dataclass(frozen=True, slots=True)
class CutthroatResult:
    """A finished cutthroat game (R36): the winner, each player's total with
    its parts (R31), the players shut out (who won no hand) and each pair's net."""

    winner: PlayerId
    totals: dict[PlayerId, PlayerTotal]
    shut_out: tuple[PlayerId, ...]
    nets: tuple[PairNet, ...]


def cutthroat_result(rules: PresetRules, sheet: ScoreSheet) -> CutthroatResult | None:
    """R36 once someone has reached the target (None before): the totals by
    R29-R31 with every player shut out who won no hand (``double`` once,
    ``plus_100`` for each), and the net of each pair in the game's order."""
    totals = sheet.totals(rules)
    if sheet.winner is None or totals is None:
        return None
    nets = []
    for a, b in combinations(sheet.players, 2):
        ahead, behind = (a, b) if totals[a].total >= totals[b].total else (b, a)
        nets.append(PairNet(ahead, behind, totals[ahead].total - totals[behind].total))
    return CutthroatResult(sheet.winner, totals, sheet.shut_out, tuple(nets))


def explain_cutthroat_result(rules: PresetRules, result: CutthroatResult) -> tuple[Step, ...]:
    """The steps of a cutthroat result (R29-R31, R36): each player's box
    bonuses, the game bonus to the winner, the shutouts (``double`` once,
    ``plus_100`` for each player shut out), each total, and each pair's net.

    >>> from referee.presets import resolve_rules
    >>> rules = resolve_rules("cutthroat", {"target_score": 10, "shutout": "plus_100"})
    >>> sheet = new_sheet(("ann", "bob", "cy")).enter(rules, "ann", 12, 1)
    >>> for step in explain_cutthroat_result(rules, cutthroat_result(rules, sheet))[2:4]:
    ...     print(step.text)
    Player bob won no hand, a shutout: player ann's game bonus is increased by 100 (R31)
    Player cy won no hand, a shutout: player ann's game bonus is increased by 100 (R31)
    """
    winner = result.winner
    won = result.totals[winner]
    steps = box_bonus_steps(rules, result.totals)
    steps.append(Step.of(SheetCode.GAME_BONUS, player=winner, game_bonus=won.game_bonus))
    shut_out = result.shut_out
    if won.shutout and rules.shutout is Shutout.DOUBLE:
        if len(shut_out) == 1:
            step = Step.of(SheetCode.SHUTOUT_DOUBLE, player=winner, loser=shut_out[0], shutout_points=won.shutout)
        else:
            first, other = shut_out
            step = Step.of(
                SheetCode.SHUTOUT_DOUBLE_TWO, player=winner, loser=first, other=other, shutout_points=won.shutout
            )
        steps.append(step)
    elif won.shutout:
        for player in shut_out:
            steps.append(Step.of(SheetCode.SHUTOUT_PLUS_100, player=winner, loser=player, shutout_points=100))
    steps += total_steps(result.totals)
    for pair in result.nets:
        steps.append(
            Step.of(
                SheetCode.PAIR_NET,
                player=pair.ahead,
                loser=pair.behind,
                total=result.totals[pair.ahead].total,
                loser_total=result.totals[pair.behind].total,
                net=pair.net,
            )
        )
    return tuple(steps)


@dataclass(frozen=True, slots=True)
class CutthroatState:
    """The game after its hands: the score sheet (running scores, boxes,
    hands won, winner), the seating for the next hand (None once won), the
    hands whose seating did not follow from the hand before (R26), the
    running scores after each hand, and the result once won (R36)."""

    sheet: ScoreSheet
    seating: CutthroatSeating | None
    hands_played: int
    out_of_turn: tuple[int, ...] = field(default=())
    running: tuple[dict[PlayerId, int], ...] = field(default=())
    result: CutthroatResult | None = None

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


def new_cutthroat_game(first: CutthroatSeating) -> CutthroatState:
    """The state before the first hand."""
    return CutthroatState(new_sheet((first.dealer, first.non_dealer, first.sitter)), first, 0)


def verify_can_record_cutthroat(state: CutthroatState) -> None:
    """No hand after the game is won (R36, as R30)."""
    if state.finished:
        raise GameStateError(f"the game is over: {state.winner} has won", rule="R36", winner=state.winner)


def can_record_cutthroat(state: CutthroatState) -> bool:
    """Whether another hand may be recorded (R36).

    >>> can_record_cutthroat(new_cutthroat_game(CutthroatSeating(1, 2, 3)))
    True
    """
    return not state.finished


def advance_cutthroat(rules: PresetRules, state: CutthroatState, hand: CutthroatHand) -> CutthroatState:
    """The state after one more hand: its points and boxes to its winner
    (R29), the win at the target (R30) with the result (R36), the next
    seating (R36), and the R26 mark when the hand was not seated as expected.
    The hand's three players must be the game's. ``running`` is not
    carried: see :func:`replay_cutthroat`."""
    verify_can_record_cutthroat(state)
    if set(hand.seating.as_dict().values()) != set(state.sheet.players):
        raise RolesError(
            "the hand's dealer, non_dealer and sitter must be the game's three players",
            field="seating",
            rule="R36",
            roles=hand.seating.as_dict(),
            players=list(state.sheet.players),
        )
    number = state.hands_played + 1
    out_of_turn = state.out_of_turn + ((number,) if hand.seating != state.seating else ())
    winner = hand.winner_player
    sheet = state.sheet if winner is None else state.sheet.enter(rules, winner, hand.score.points, hand.score.boxes)
    if sheet.winner is not None:
        return CutthroatState(sheet, None, number, out_of_turn, result=cutthroat_result(rules, sheet))
    return CutthroatState(sheet, next_cutthroat_seating(hand), number, out_of_turn)


def replay_cutthroat(rules: PresetRules, first: CutthroatSeating, hands: Sequence[CutthroatHand]) -> CutthroatState:
    """Fold the hand log (hands numbered from 1) with
    :func:`advance_cutthroat`. The winner is the first player whose running
    score reaches the target, in hand order (R26, R30); hands recorded after
    that raise :class:`GameStateError` naming them all."""
    state = new_cutthroat_game(first)
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
        state = advance_cutthroat(rules, state, hand)
        running.append(state.scores)
    return CutthroatState(
        state.sheet, state.seating, state.hands_played, state.out_of_turn, tuple(running), state.result
    )
