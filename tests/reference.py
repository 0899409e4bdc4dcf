"""A brute-force reading of RULES.md, used by tests to check the fast engine.

Deliberately simple and independent: standard library only, nothing from
`referee`. Cards are canonical strings ("AS", "10H", "KC"). Every answer comes
from enumerating all possibilities, so it is slow but easy to believe.

>>> least_deadwood("AS 2S 3S 7H 7D 7C 9C 10C JC KD".split())
10
>>> adjudicate("4H 5H 6H 4S 5S 6S 4D 5D 6D KC".split(),
...            "AH 2H 3H 7H 8H 9H 2S 3S 7S 8S".split())["points"]
10
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(r + s for s in SUITS for r in RANKS)  # canonical order (R3)

Meld = frozenset[str]


def rank(card: str) -> int:
    """1 for Ace up to 13 for King: Ace is always low (R1)."""
    return RANKS.index(card[:-1]) + 1


def suit(card: str) -> str:
    return card[-1]


def sort_key(card: str) -> tuple[int, int]:
    """Canonical order: suit S, H, D, C, then rank A to K (R3)."""
    return SUITS.index(suit(card)), rank(card)


def value(card: str) -> int:
    """A = 1, 2-10 face value, J Q K = 10 (R2)."""
    return min(rank(card), 10)


def count(cards: Iterable[str]) -> int:
    """Deadwood count of some cards (R7)."""
    return sum(value(c) for c in cards)


def is_meld(cards: Iterable[str]) -> bool:
    """A set of 3 or 4 of a rank (R4) or a same-suit run of 3+ (R5)."""
    cards = list(cards)
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    if any(c not in DECK for c in cards):
        return False
    ranks = sorted(rank(c) for c in cards)
    if len(set(ranks)) == 1:  # R4 (four suits, so never more than 4)
        return True
    # R5: one suit, consecutive ranks; Ace is 1 only, so Q-K-A and K-A-2 fail.
    return len({suit(c) for c in cards}) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def all_melds(cards: Iterable[str]) -> list[Meld]:
    """Every meld inside `cards`: each 3- and 4-subset of a rank, each run segment."""
    hand = set(cards)
    melds: list[Meld] = []
    for r in RANKS:  # R4, R6: every 3-subset of a 4-set too
        same = [r + s for s in SUITS if r + s in hand]
        for left_out in [None, *same] if len(same) == 4 else [None]:
            kept = [c for c in same if c != left_out]
            if len(kept) >= 3:
                melds.append(frozenset(kept))
    for s in SUITS:  # R5: every consecutive segment of length >= 3
        for lo in range(1, 12):
            for hi in range(lo + 2, 14):
                run = [RANKS[k - 1] + s for k in range(lo, hi + 1)]
                if not hand.issuperset(run):
                    break
                melds.append(frozenset(run))
    return melds


def arrangements(cards: Iterable[str]) -> Iterator[tuple[Meld, ...]]:
    """Every collection of pairwise disjoint melds (R6), the empty one included."""
    melds = all_melds(cards)

    def grow(start: int, used: frozenset[str], chosen: tuple[Meld, ...]) -> Iterator[tuple[Meld, ...]]:
        yield chosen
        for i in range(start, len(melds)):
            if used.isdisjoint(melds[i]):
                yield from grow(i + 1, used | melds[i], chosen + (melds[i],))

    yield from grow(0, frozenset(), ())


def deadwood(cards: Iterable[str], melds: Iterable[Iterable[str]]) -> int:
    """Count of the cards in no meld (R7)."""
    melded = {c for m in melds for c in m}
    return count(c for c in cards if c not in melded)


def least_deadwood(cards: Iterable[str]) -> int:
    """Least deadwood over all arrangements of 10 or 11 cards (R7)."""
    cards = list(cards)
    return min(deadwood(cards, arr) for arr in arrangements(cards))


def best_discard_deadwood(cards11: Iterable[str]) -> int:
    """Least deadwood after the best of the 11 possible discards (R13, R14)."""
    cards = list(cards11)
    return min(least_deadwood(cards[:i] + cards[i + 1 :]) for i in range(len(cards)))


# R15: a knocker meld as the defender sees it while laying off:
# ("set", rank, size) for a set, (suit, low rank, high rank) for a run.
Target = tuple[str, int, int]


def layoff_target(meld: Iterable[str]) -> Target:
    meld = list(meld)
    ranks = sorted(rank(c) for c in meld)
    if ranks[0] == ranks[-1]:
        return ("set", ranks[0], len(meld))
    return (suit(meld[0]), ranks[0], ranks[-1])


def fits(card: str, target: Target) -> list[Target]:
    """The ways `card` can be laid off onto `target`, as the extended target (R15)."""
    kind, a, b = target
    if kind == "set":  # R15: only the fourth card onto a set of three, never onto four
        return [("set", a, 4)] if b == 3 and rank(card) == a else []
    if suit(card) != kind:
        return []
    # R15: one end or the other; card ranks are 1..13, so never past Ace or King.
    low = [(kind, a - 1, b)] if rank(card) == a - 1 else []
    high = [(kind, a, b + 1)] if rank(card) == b + 1 else []
    return low + high


def layoff_value(cards: Iterable[str], knocker_melds: Iterable[Iterable[str]]) -> int:
    """Most deadwood `cards` can shed onto the knocker's melds, in any order (R15).

    Tries every card on every meld it fits as already extended, so chains
    (8H then 9H onto 5H 6H 7H) and competing uses of a card are all explored.
    """
    memo: dict[tuple[frozenset[str], tuple[Target, ...]], int] = {}

    def shed(left: frozenset[str], targets: tuple[Target, ...]) -> int:
        key = (left, targets)
        if key not in memo:
            best = 0
            for card in left:
                for i, target in enumerate(targets):
                    for grown in fits(card, target):
                        after = targets[:i] + (grown,) + targets[i + 1 :]
                        best = max(best, value(card) + shed(left - {card}, after))
            memo[key] = best
        return memo[key]

    return shed(frozenset(cards), tuple(layoff_target(m) for m in knocker_melds))


def defender_best(defender_cards: Iterable[str], knocker_melds: list[list[str]]) -> int:
    """Defender's least deadwood with his own melds and layoffs (R15, R16, R24).

    A card goes into one of his melds or is laid off, never both; layoffs go
    only onto the knocker's melds.
    """
    cards = frozenset(defender_cards)
    best = count(cards)
    for arr in arrangements(cards):
        rest = cards.difference(*arr)
        best = min(best, count(rest) - layoff_value(rest, knocker_melds))
    return best


def score(
    knocker_deadwood: int, defender_deadwood: int, gin_bonus: int = 25, undercut_bonus: int = 10
) -> dict[str, Any]:
    """Score a hand from the two counts (R16-R18, R25); a knocker count of 0 is gin."""
    if knocker_deadwood == 0:  # R18: the defender scores nothing even with 0
        outcome, scorer, points = "gin", "knocker", defender_deadwood + gin_bonus
    elif knocker_deadwood < defender_deadwood:  # R16
        outcome, scorer, points = "knock", "knocker", defender_deadwood - knocker_deadwood
    else:  # R17: equal or greater is an undercut
        outcome, scorer, points = "undercut", "defender", undercut_bonus + knocker_deadwood - defender_deadwood
    return {
        "outcome": outcome,
        "scorer": scorer,
        "points": points,
        "knocker_deadwood": knocker_deadwood,
        "defender_deadwood": defender_deadwood,
    }


def adjudicate(
    knocker_cards: Iterable[str],
    defender_cards: Iterable[str],
    gin_bonus: int = 25,
    undercut_bonus: int = 10,
    knock_limit: int = 10,
) -> dict[str, Any] | None:
    """Rule a knock with nothing declared (R24); None when the knock is illegal (R14).

    The knocker takes a least-deadwood arrangement, choosing among those the
    one best for him against the defender's best reply (R24).
    """
    knocker_cards, defender_cards = list(knocker_cards), list(defender_cards)
    arrs = list(arrangements(knocker_cards))
    least = min(deadwood(knocker_cards, arr) for arr in arrs)
    if least > knock_limit:  # R14
        return None
    best: dict[str, Any] | None = None
    best_net = 0
    for arr in arrs:
        if deadwood(knocker_cards, arr) != least:
            continue
        if least == 0:  # R18: gin, no layoffs
            defender = least_deadwood(defender_cards)
        else:  # R15, R24: the defender's best reply to this spread
            defender = defender_best(defender_cards, [list(m) for m in arr])
        result = score(least, defender, gin_bonus, undercut_bonus)
        net = result["points"] if result["scorer"] == "knocker" else -result["points"]
        if best is None or net > best_net:
            best, best_net = result, net
    return best


def roles_after(roles: dict[str, str], winner_role: str | None) -> dict[str, str]:
    """Roles for the next hand (R11); a draw (None) leaves them as they are (R12)."""
    box, captain, sitter = roles["box"], roles["captain"], roles["sitter"]
    if winner_role is None:  # R12
        return {"box": box, "captain": captain, "sitter": sitter}
    if winner_role == "box":  # R11: box stays, captain and sitter swap
        return {"box": box, "captain": sitter, "sitter": captain}
    if winner_role == "captain":  # R11: box sits out, captain to the box, sitter captains
        return {"box": captain, "captain": sitter, "sitter": box}
    raise ValueError(f"winner_role must be 'box', 'captain' or None, not {winner_role!r}")


# --- the two-player presets (R27-R33, R35), read from RULES.md alone -------------------

#: R27 and the options table: each preset's options and their defaults
PRESET_DEFAULTS: dict[str, dict[str, Any]] = {
    "classic": {
        "target_score": 100,
        "knock_limit": 10,
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "big_gin_bonus": 0,
        "next_dealer": "winner",
        "box_bonus": 25,
        "gin_boxes": 1,
        "undercut_boxes": 1,
        "boxes_immediate": False,
        "game_bonus": 100,
        "shutout": "double",
    },
}
PRESET_DEFAULTS["straight"] = {**PRESET_DEFAULTS["classic"], "knock_limit": 0}  # R35
PRESET_DEFAULTS["oklahoma"] = {  # R33: the up-card sets the limit, so no knock_limit
    **{k: v for k, v in PRESET_DEFAULTS["classic"].items() if k != "knock_limit"},
    "target_score": 150,
    "ace": "gin_only",
    "spades_double": "points",
}


def two_player_limit(options: dict[str, Any], up_card: str | None) -> int:
    """The knock limit of a hand: the option, or the up-card's value (R2, R33)."""
    if up_card is None:
        return options["knock_limit"]
    if rank(up_card) == 1:
        return 1 if options["ace"] == "one" else 0
    return value(up_card)


def two_player_hand(options: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    """One hand by counts: who won it (as a seat), his points and boxes.

    ``hand``: ``knocker`` ("dealer", "non_dealer" or None for a draw),
    ``knocker_count``, ``defender_count``, ``up_card`` (Oklahoma), ``big_gin``.
    """
    if hand["knocker"] is None:  # R12
        return {"winner": None, "points": 0, "boxes": 0}
    other = "non_dealer" if hand["knocker"] == "dealer" else "dealer"
    k, d = hand["knocker_count"], hand["defender_count"]
    if hand.get("big_gin"):  # R32
        winner, points, boxes = hand["knocker"], d + options["big_gin_bonus"], options["gin_boxes"]
    elif k == 0:  # R18
        winner, points, boxes = hand["knocker"], d + options["gin_bonus"], options["gin_boxes"]
    elif k < d:  # R16
        winner, points, boxes = hand["knocker"], d - k, 1
    else:  # R17
        winner, points, boxes = other, options["undercut_bonus"] + k - d, options["undercut_boxes"]
    up = hand.get("up_card")
    if up is not None and suit(up) == "S":  # R33
        if options["spades_double"] in ("points", "all"):
            points *= 2
        if options["spades_double"] == "all":
            boxes *= 2
    return {"winner": winner, "points": points, "boxes": boxes}


class TwoPlayerGame:
    """A two-player game played hand by hand (R28-R31): :meth:`play` a hand
    (by counts, also naming its ``dealer`` and ``non_dealer`` as seated) and
    get its figures (scorer, points, boxes, running scores, next dealer);
    :meth:`result` once someone has won."""

    def __init__(self, preset: str, overrides: dict[str, Any], dealer: str, non_dealer: str) -> None:
        self.options = {**PRESET_DEFAULTS[preset], **overrides}
        self.players = (dealer, non_dealer)
        self.running = {p: 0 for p in self.players}
        self.hand_points = {p: 0 for p in self.players}
        self.boxes = {p: 0 for p in self.players}
        self.won = {p: 0 for p in self.players}
        self.winner: str | None = None
        self.hands: list[dict[str, Any]] = []

    def play(self, hand: dict[str, Any]) -> dict[str, Any]:
        if self.winner is not None:
            raise ValueError("the game is over")  # R30
        options = self.options
        seats = {"dealer": hand["dealer"], "non_dealer": hand["non_dealer"]}
        figures = two_player_hand(options, hand)
        scorer = None if figures["winner"] is None else seats[figures["winner"]]
        if scorer is not None:
            self.hand_points[scorer] += figures["points"]
            self.boxes[scorer] += figures["boxes"]
            self.won[scorer] += 1
            self.running[scorer] += figures["points"]
            if options["boxes_immediate"]:  # R29
                self.running[scorer] += figures["boxes"] * options["box_bonus"]
        if scorer is None:  # R12: the same player deals again
            next_dealer: str | None = hand["dealer"]
        elif options["next_dealer"] == "winner":
            next_dealer = scorer
        elif options["next_dealer"] == "loser":
            next_dealer = seats["dealer"] if scorer == seats["non_dealer"] else seats["non_dealer"]
        else:  # alternate
            next_dealer = hand["non_dealer"]
        if scorer is not None and self.running[scorer] >= options["target_score"]:  # R30
            self.winner = scorer
            next_dealer = None
        out = {**figures, "scorer": scorer, "running": dict(self.running), "next_dealer": next_dealer}
        self.hands.append(out)
        return out

    def result(self) -> dict[str, Any] | None:
        """R31: totals with their parts, the shutout and the net."""
        winner = self.winner
        if winner is None:
            return None
        options = self.options
        loser = self.players[1] if winner == self.players[0] else self.players[0]
        shutout = self.won[loser] == 0
        totals = {}
        for p in self.players:
            points = self.hand_points[p]
            box_points = self.boxes[p] * options["box_bonus"]
            game = options["game_bonus"] if p == winner else 0
            extra = 0
            if p == winner and shutout:
                if options["shutout"] == "double":
                    extra = points + game  # the hand points and the game bonus, doubled
                elif options["shutout"] == "plus_100":
                    extra = 100
            totals[p] = {
                "hand_points": points,
                "box_bonus": box_points,
                "game_bonus": game,
                "shutout": extra,
                "total": points + box_points + game + extra,
            }
        return {
            "winner": winner,
            "loser": loser,
            "shutout": shutout,
            "totals": totals,
            "net": totals[winner]["total"] - totals[loser]["total"],
        }


def two_player_game(
    preset: str, overrides: dict[str, Any], dealer: str, non_dealer: str, hands: list[dict[str, Any]]
) -> dict[str, Any]:
    """A whole game (:class:`TwoPlayerGame`): each hand's figures, the boxes,
    the winner and the result; hands after the win are not played."""
    game = TwoPlayerGame(preset, overrides, dealer, non_dealer)
    for hand in hands:
        if game.winner is not None:
            break
        game.play(hand)
    return {"hands": game.hands, "winner": game.winner, "boxes": game.boxes, "result": game.result()}
