"""Hollywood and cutthroat (R34, R36) read from RULES.md alone, used by tests
to check the referee's folds.

Deliberately simple and independent: nothing from `referee`; a hand's figures
(who won it, its points and boxes) come from :func:`tests.reference.two_player_hand`
and each Hollywood column is a :class:`tests.reference.TwoPlayerGame` of its
own, since R34 makes each column a game by R29-R31. Players are strings, hands
are dicts: ``dealer``, ``non_dealer`` (and ``sitter`` in cutthroat) as seated,
``knocker`` ("dealer", "non_dealer" or None for a draw), ``knocker_count``,
``defender_count``, ``big_gin``.

>>> match = HollywoodMatch({}, "ann", "bob")
>>> hand = {"dealer": "ann", "non_dealer": "bob", "knocker": "dealer", "knocker_count": 2, "defender_count": 40}
>>> [match.play(hand)["columns"] for _ in range(3)]
[(1,), (1, 2), (1, 2, 3)]
>>> game = CutthroatGame({}, "ann", "bob", "cy")
>>> game.play({**hand, "sitter": "cy", "knocker": "non_dealer"})["next"]
{'dealer': 'cy', 'non_dealer': 'bob', 'sitter': 'ann'}
"""

from __future__ import annotations

from typing import Any

from tests.reference import PRESET_DEFAULTS, RANKS, TwoPlayerGame, two_player_hand

#: R27, R34, R36 and the options table: Hollywood has the options of classic,
#: cutthroat all of them but next_dealer (R36 says who deals)
HOLLYWOOD_DEFAULTS: dict[str, Any] = dict(PRESET_DEFAULTS["classic"])
CUTTHROAT_DEFAULTS: dict[str, Any] = {k: v for k, v in PRESET_DEFAULTS["classic"].items() if k != "next_dealer"}


class HollywoodMatch:
    """Three columns from one run of hands (R34): :meth:`play` a hand and get
    the columns it went into and the next dealer (R28); :meth:`result` once
    all three columns are won."""

    def __init__(self, overrides: dict[str, Any], dealer: str, non_dealer: str) -> None:
        self.options = {**HOLLYWOOD_DEFAULTS, **overrides}
        self.players = (dealer, non_dealer)
        # each column a classic game with the match's options
        self.columns = [TwoPlayerGame("classic", self.options, dealer, non_dealer) for _ in range(3)]
        self.entries: list[list[int]] = [[], [], []]  # the hand numbers entered in each column
        self.won_at: list[int | None] = [None, None, None]
        self.entered: list[tuple[int, ...]] = []
        self.out_of_turn: list[int] = []
        self.next_dealer: str | None = dealer

    @property
    def over(self) -> bool:
        return all(column.winner is not None for column in self.columns)

    def play(self, hand: dict[str, Any]) -> dict[str, Any]:
        if self.over:
            raise ValueError("the match is over")  # R34
        number = len(self.entered) + 1
        if hand["dealer"] != self.next_dealer:  # R26: seated otherwise than R28 says
            self.out_of_turn.append(number)
        figures = two_player_hand(self.options, hand)
        scorer = None if figures["winner"] is None else hand[figures["winner"]]
        chosen: list[int] = []
        if scorer is not None:
            still_open = [i for i in range(3) if self.columns[i].winner is None]
            # R34: every open column where he has already won, and the first where he has not
            chosen = [i for i in still_open if self.columns[i].won[scorer] > 0]
            fresh = [i for i in still_open if self.columns[i].won[scorer] == 0]
            if fresh:
                chosen.append(fresh[0])
            chosen.sort()
            for i in chosen:
                self.columns[i].play(hand)
                self.entries[i].append(number)
                if self.columns[i].winner is not None:
                    self.won_at[i] = number
        self.entered.append(tuple(i + 1 for i in chosen))
        if self.over:
            self.next_dealer = None
        elif scorer is None:  # R12
            self.next_dealer = hand["dealer"]
        elif self.options["next_dealer"] == "winner":
            self.next_dealer = scorer
        elif self.options["next_dealer"] == "loser":
            self.next_dealer = hand["dealer"] if scorer == hand["non_dealer"] else hand["non_dealer"]
        else:
            self.next_dealer = hand["non_dealer"]
        return {**figures, "scorer": scorer, "columns": self.entered[-1], "next_dealer": self.next_dealer}

    def column(self, i: int) -> dict[str, Any]:
        """Column ``i`` (0 to 2): the hands entered, the running scores after
        each, its boxes, its winner, the hand that won it and its result."""
        game = self.columns[i]
        return {
            "entries": list(self.entries[i]),
            "running": [h["running"] for h in game.hands],
            "boxes": dict(game.boxes),
            "winner": game.winner,
            "won_at": self.won_at[i],
            "result": game.result(),
        }

    def result(self) -> dict[str, Any] | None:
        """R34: each column's result and, over the columns, each player's
        total, the one ahead and the net."""
        if not self.over:
            return None
        results = [column.result() for column in self.columns]
        totals = {p: sum(r["totals"][p]["total"] for r in results if r) for p in self.players}
        a, b = self.players
        ahead = None if totals[a] == totals[b] else (a if totals[a] > totals[b] else b)
        return {"columns": results, "totals": totals, "winner": ahead, "net": abs(totals[a] - totals[b])}


def hollywood_match(overrides: dict[str, Any], dealer: str, non_dealer: str, hands: list[dict[str, Any]]) -> Any:
    """The match after ``hands``, or the hand numbers that would come after
    its end (a list) when the log goes on past it (R26, R34)."""
    match = HollywoodMatch(overrides, dealer, non_dealer)
    for number, hand in enumerate(hands, start=1):
        if match.over:
            return list(range(number, len(hands) + 1))
        match.play(hand)
    return match


def cutthroat_cut(cut: dict[str, str]) -> dict[str, str] | None:
    """R36: the two higher cuts play, the higher deals, the lowest sits out;
    None when two ranks tie (they cut again, as R9)."""
    ranks = {p: RANKS.index(card[:-1]) for p, card in cut.items()}
    if len(set(ranks.values())) != 3:
        return None
    high, middle, low = sorted(cut, key=lambda p: -ranks[p])
    return {"dealer": high, "non_dealer": middle, "sitter": low}


class CutthroatGame:
    """Three players, two at a time (R36): :meth:`play` a hand (seated as it
    was played) and get its figures and the next seats; :meth:`result` once
    someone has reached the target."""

    def __init__(self, overrides: dict[str, Any], dealer: str, non_dealer: str, sitter: str) -> None:
        self.options = {**CUTTHROAT_DEFAULTS, **overrides}
        self.players = (dealer, non_dealer, sitter)
        self.running = {p: 0 for p in self.players}
        self.hand_points = {p: 0 for p in self.players}
        self.boxes = {p: 0 for p in self.players}
        self.won = {p: 0 for p in self.players}
        self.winner: str | None = None
        self.seats: dict[str, str] | None = {"dealer": dealer, "non_dealer": non_dealer, "sitter": sitter}
        self.out_of_turn: list[int] = []
        self.hands: list[dict[str, Any]] = []

    def play(self, hand: dict[str, Any]) -> dict[str, Any]:
        if self.winner is not None:
            raise ValueError("the game is over")
        number = len(self.hands) + 1
        seats = {"dealer": hand["dealer"], "non_dealer": hand["non_dealer"], "sitter": hand["sitter"]}
        if seats != self.seats:  # R26
            self.out_of_turn.append(number)
        figures = two_player_hand(self.options, hand)
        scorer = None if figures["winner"] is None else seats[figures["winner"]]
        if scorer is None:  # R12: the same two again, the same dealer
            following: dict[str, str] | None = seats
        else:
            self.hand_points[scorer] += figures["points"]
            self.boxes[scorer] += figures["boxes"]
            self.won[scorer] += 1
            self.running[scorer] += figures["points"]
            if self.options["boxes_immediate"]:  # R29
                self.running[scorer] += figures["boxes"] * self.options["box_bonus"]
            loser = seats["dealer"] if scorer == seats["non_dealer"] else seats["non_dealer"]
            # R36: the loser sits out, the sitter comes in and deals
            following = {"dealer": seats["sitter"], "non_dealer": scorer, "sitter": loser}
            if self.running[scorer] >= self.options["target_score"]:  # R30
                self.winner = scorer
                following = None
        self.seats = following
        out = {**figures, "scorer": scorer, "running": dict(self.running), "next": following}
        self.hands.append(out)
        return out

    def result(self) -> dict[str, Any] | None:
        """R36: each player's total (R29-R31), every player who won no hand
        shut out (``double`` once, ``plus_100`` per player), each pair's net."""
        winner = self.winner
        if winner is None:
            return None
        options = self.options
        shut_out = [p for p in self.players if self.won[p] == 0]
        totals = {}
        for p in self.players:
            points = self.hand_points[p]
            box_points = self.boxes[p] * options["box_bonus"]
            game = options["game_bonus"] if p == winner else 0
            extra = 0
            if p == winner and shut_out:
                if options["shutout"] == "double":
                    extra = points + game
                elif options["shutout"] == "plus_100":
                    extra = 100 * len(shut_out)
            totals[p] = {
                "hand_points": points,
                "box_bonus": box_points,
                "game_bonus": game,
                "shutout": extra,
                "total": points + box_points + game + extra,
            }
        nets = []
        for i, a in enumerate(self.players):
            for b in self.players[i + 1 :]:
                ahead, behind = (a, b) if totals[a]["total"] >= totals[b]["total"] else (b, a)
                nets.append([ahead, behind, totals[ahead]["total"] - totals[behind]["total"]])
        return {"winner": winner, "shut_out": shut_out, "totals": totals, "nets": nets}
