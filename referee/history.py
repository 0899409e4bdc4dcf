"""A game's record judged against the rules (R8, R9, R11, R20, R26, and a
preset's: R28, R30, R34, R36): its
seatings and cut, its hands' order and the win, and its revisions (every
version of every hand number, undone ones too) replayed in the order they
were made, with the scores each gives; and its disputes against them.

Each check raises a :class:`~referee.errors.HistoryError` naming the kind of
wrong, the rule and where (``field``, a path into the game: ``hands[2].seating``,
``revisions[4].made_at``); an error of the hands' own rules (a ruling
refused by :func:`~referee.game.advance`) keeps its type, its field prefixed
with the revision's. Inputs and rulings are opaque JSON values here:
whether two are the same is ``same`` (:func:`same_json` unless given).

>>> from datetime import timezone
>>> from referee.roles import Role
>>> from referee.scoring import score
>>> first = Roles(box=1, captain=2, sitter=3)
>>> hand = HandRecord(first, Role.BOX, score(3, 20))
>>> start = datetime(2024, 3, 7, 19, tzinfo=timezone.utc)
>>> log = [Version(1, 1, "recorded", first, hand, {1: 17, 2: 0, 3: 0}, {1: 17, 2: 0, 3: 0}, start)]
>>> verify_revisions(log, [Standing(first, None, None)], Rules(), [1, 2, 3], first)
>>> undo = Version(1, 2, "undone", first, hand, {1: 17, 2: 0, 3: 0}, {1: 0, 2: 0, 3: 0}, start)
>>> verify_revisions([*log, undo], [Standing(first, None, None)], Rules(), [1, 2, 3], first)
Traceback (most recent call last):
...
referee.errors.ActionError: hand 1 stands: its last revision is not undone
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from referee.cards import Card
from referee.cutthroat import (
    CutthroatHand,
    CutthroatSeating,
    CutthroatState,
    advance_cutthroat,
    new_cutthroat_game,
    verify_cutthroat_seating,
)
from referee.errors import (
    ActionError,
    DisputeRecordError,
    HandAfterWinError,
    HistoryError,
    NumberingError,
    OrderError,
    RefereeError,
    ResultError,
    ScoresError,
    SeatingError,
)
from referee.game import GameState, HandRecord, advance, new_game
from referee.hollywood import HollywoodState, advance_hollywood, new_hollywood_match
from referee.presets import Preset, PresetRules
from referee.roles import PlayerId, Roles, verify_seating
from referee.rules import Rules
from referee.two_player import (
    Seating,
    TwoPlayerHand,
    TwoPlayerState,
    advance_two_player,
    new_two_player_game,
    verify_first_seating,
)

#: a hand's seats: the three-handed game's roles (R8), a two-player game's dealer and
#: non-dealer (R28), or a cutthroat game's dealer, non-dealer and sitter (R36)
Seats = Roles | Seating | CutthroatSeating
#: a hand as its game's fold replays it
Record = HandRecord | TwoPlayerHand | CutthroatHand
#: a game's state after some hands (a Hollywood match's, R34, is its three columns)
State = GameState | TwoPlayerState | HollywoodState | CutthroatState

__all__ = [
    "NEXT_ACTIONS",
    "Action",
    "Dispute",
    "Listing",
    "Standing",
    "Version",
    "can_revise",
    "list_version",
    "results_of",
    "same_json",
    "seat",
    "verify_cut",
    "verify_disputed",
    "verify_history",
    "verify_named",
    "verify_next_hand",
    "verify_players",
    "verify_recorded",
    "verify_resolution",
    "verify_result",
    "verify_revisions",
    "verify_standing",
]


class Action(StrEnum):
    """What a revision did to its hand number (R26)."""

    RECORDED = "recorded"
    CORRECTED = "corrected"
    UNDONE = "undone"


#: what may follow a version of a hand number (None: its first); the next hand recorded takes an undone one's number
NEXT_ACTIONS: dict[str | None, tuple[str, ...]] = {
    None: (Action.RECORDED,),
    Action.RECORDED: (Action.CORRECTED, Action.UNDONE),
    Action.CORRECTED: (Action.CORRECTED, Action.UNDONE),
    Action.UNDONE: (Action.RECORDED,),
}

Same = Callable[[Any, Any], bool]


def same_json(a: Any, b: Any) -> bool:
    """Equal, and of the same JSON types throughout (``1 == 1.0 == True`` in
    Python, not in a ruling).

    >>> same_json({"points": 1}, {"points": 1}), same_json({"points": 1}, {"points": 1.0})
    (True, False)
    """
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if type(b) is dict:
        return bool(a.keys() == b.keys()) and all(same_json(a[k], v) for k, v in b.items())
    if type(b) is list:
        return len(a) == len(b) and all(map(same_json, a, b))
    return bool(a == b)


# --- the game: its players, its first hand's seating, its hands in order -----------------------------------


def verify_players(
    players: Sequence[PlayerId], known: Collection[PlayerId], *, two_player: bool = False, cutthroat: bool = False
) -> None:
    """A game's players are the document's (``known``), three different ones
    (R8; R36 in cutthroat), or two under a two-player preset (R28).

    >>> verify_players([1, 2, 2], {1, 2, 3})
    Traceback (most recent call last):
    ...
    referee.errors.SeatingError: a game has three different players (R8), not [1, 2, 2]
    """
    for p in players:
        if p not in known:
            raise HistoryError(
                f"player {p} is not one of the document's players", field="players", rule="record", value=p
            )
    if two_player:
        if len(players) != 2 or len(set(players)) != 2:
            raise SeatingError(
                f"a two-player game has two different players (R28), not {list(players)}",
                field="players",
                rule="R28",
                value=list(players),
            )
    elif len(players) != 3 or len(set(players)) != 3:
        rule = "R36" if cutthroat else "R8"
        raise SeatingError(
            f"a {'cutthroat ' if cutthroat else ''}game has three different players ({rule}), not {list(players)}",
            field="players",
            rule=rule,
            value=list(players),
        )


def seat(players: Sequence[PlayerId], given: Mapping[str, PlayerId], field: str, *, cutthroat: bool = False) -> Seats:
    """The roles ``given`` at ``field``: the game's three players (R8), its
    two as dealer and non-dealer (R28), or (``cutthroat``) its three as
    dealer, non-dealer and sitter (R36).

    >>> seat([1, 2, 3], {"box": 3, "captain": 1, "sitter": 2}, "first_roles")
    Roles(box=3, captain=1, sitter=2)
    >>> seat([1, 2], {"dealer": 2, "non_dealer": 1}, "first_roles")
    Seating(dealer=2, non_dealer=1)
    >>> seat([1, 2, 3], {"dealer": 2, "non_dealer": 2, "sitter": 3}, "hands[0].seating", cutthroat=True)
    Traceback (most recent call last):
    ...
    referee.errors.SeatingError: dealer, non_dealer and sitter are the game's three players [1, 2, 3] (R36)
    """
    if cutthroat:
        if set(given) != {"dealer", "non_dealer", "sitter"} or sorted(given.values(), key=str) != sorted(
            players, key=str
        ):
            raise SeatingError(
                f"dealer, non_dealer and sitter are the game's three players {list(players)} (R36)",
                field=field,
                rule="R36",
                value=dict(given),
            )
        return CutthroatSeating(given["dealer"], given["non_dealer"], given["sitter"])
    if len(players) == 2:
        if set(given) != {"dealer", "non_dealer"} or sorted(given.values(), key=str) != sorted(players, key=str):
            raise SeatingError(
                f"dealer and non_dealer are the game's two players {list(players)} (R28)",
                field=field,
                rule="R28",
                value=dict(given),
            )
        return Seating(given["dealer"], given["non_dealer"])
    try:
        return verify_seating(players, roles=given)
    except RefereeError as err:
        raise SeatingError(
            f"{err.message} {list(players)} ({err.rule})", field=field, rule=err.rule, value=given
        ) from None


def verify_cut(players: Sequence[PlayerId], cut: Mapping[str, Card] | None, first: Seats) -> None:
    """R9: one card from each of the game's players (a
    :class:`~referee.errors.CutError` at ``cut`` otherwise), and the roles it
    gives are the first hand's (R28: the dealer of a two-player game's; R36:
    the dealer, non-dealer and sitter of a cutthroat game's). No cut (None):
    the roles were given directly."""
    if cut is None:
        return
    roles: Seats
    try:
        if isinstance(first, CutthroatSeating):
            roles = verify_cutthroat_seating(players, cut=cut)
        elif isinstance(first, Seating):
            roles = verify_first_seating(players, cut=cut)
        else:
            roles = verify_seating(players, cut=cut)
    except RefereeError as err:
        raise err.at("cut") from None
    if roles != first:
        rule = _seating_rule(first, first=True)
        raise SeatingError(
            f"the cut seats {roles.as_dict()} ({rule}), not first_roles {first.as_dict()}",
            field="cut",
            rule=rule,
            value={k: str(v) for k, v in cut.items()},
            seating=roles.as_dict(),
        )


def verify_next_hand(
    rules: Rules | PresetRules,
    players: Sequence[PlayerId],
    state: State,
    number: int,
    given: Mapping[str, PlayerId],
    *,
    total: int,
    after_correction: bool,
) -> Seats:
    """The seating of the hand after ``state`` (hand ``state.hands_played + 1``
    of ``total``), numbered ``number`` and seated ``given``: its number is its
    place; no hand comes after the win (R20); it is seated by the game's
    players (R8), as R11 gives after the hand before (R9 for the first),
    unless that hand was corrected after it was played (``after_correction``,
    R26: the record stands). A two-player game's hand is seated by its
    dealer and non-dealer, as R28 gives; a cutthroat game's by its dealer,
    non-dealer and sitter, as R36 gives. Returns the seating.

    >>> first = Roles(box=1, captain=2, sitter=3)
    >>> verify_next_hand(Rules(), [1, 2, 3], new_game(first), 1, first.as_dict(), total=1, after_correction=False)
    Roles(box=1, captain=2, sitter=3)
    """
    i = state.hands_played
    if number != i + 1:
        raise NumberingError(
            f"hands are numbered 1, 2, ...: this is hand {i + 1}, not {number}",
            field=f"hands[{i}].number",
            value=number,
            expected=i + 1,
        )
    if state.finished:
        stranded = list(range(i + 1, total + 1))
        raise HandAfterWinError(
            f"player {state.winner} reaches {rules.target_score} at hand {i}: "
            f"hands {', '.join(map(str, stranded))} would come after the win ({_win_rule(state)})",
            field="hands",
            rule=_win_rule(state),
            hands=stranded,
            winner=state.winner,
            won_at=i,
        )
    field = f"hands[{i}].seating"
    seating = seat(players, given, field, cutthroat=isinstance(state, CutthroatState))
    expected = _next_seats(state)
    if seating == expected:
        return seating
    assert expected is not None
    if i == 0:
        rule = _seating_rule(expected, first=True)
        raise SeatingError(
            f"the first hand is played in first_roles {expected.as_dict()} ({rule}), not {seating.as_dict()}",
            field=field,
            rule=rule,
            value=seating.as_dict(),
            seating=expected.as_dict(),
        )
    if not after_correction:
        raise SeatingError(
            f"after hand {i} the seating is {expected.as_dict()} ({_seating_rule(expected, first=False)}), "
            f"not {seating.as_dict()}; "
            f"a hand sits otherwise only when the hand before it was corrected (R26)",
            field=field,
            value=seating.as_dict(),
            seating=expected.as_dict(),
        )
    return seating


def _next_seats(state: State) -> Seats | None:
    """Who sits where for the hand after ``state`` (None once won)."""
    return state.roles if isinstance(state, GameState) else state.seating


def _seating_rule(seats: Seats, *, first: bool) -> str:
    """The rule that seats a hand: the first (R9, R28, R36) or the next (R11, R28, R36)."""
    if isinstance(seats, CutthroatSeating):
        return "R36"
    if isinstance(seats, Seating):
        return "R28"
    return "R9" if first else "R11"


def _win_rule(state: State) -> str:
    """The rule that ends a game: R20, R30 under a two-player preset, R34 for
    a Hollywood match, R36 for a cutthroat game."""
    if isinstance(state, HollywoodState):
        return "R34"
    if isinstance(state, CutthroatState):
        return "R36"
    return "R30" if isinstance(state, TwoPlayerState) else "R20"


def start(rules: Rules | PresetRules, first: Seats) -> State:
    """A game's state before its first hand: three-handed (R8), two-player
    (R28), a Hollywood match of three columns (R34) or a cutthroat game of
    three (R36)."""
    if isinstance(first, Roles):
        return new_game(first)
    if isinstance(first, CutthroatSeating):
        return new_cutthroat_game(first)
    if isinstance(rules, PresetRules) and rules.preset is Preset.HOLLYWOOD:
        return new_hollywood_match(first)
    return new_two_player_game(first)


def advance_any(rules: Rules | PresetRules, state: State, record: Record) -> State:
    """``state`` after one more hand, by the fold of the game's kind: the
    three-handed game's (:func:`~referee.game.advance`), a two-player
    preset's (:func:`~referee.two_player.advance_two_player`), a
    Hollywood match's (:func:`~referee.hollywood.advance_hollywood`) or a
    cutthroat game's (:func:`~referee.cutthroat.advance_cutthroat`)."""
    if isinstance(state, GameState):
        assert isinstance(rules, Rules) and isinstance(record, HandRecord)
        return advance(rules, state, record)
    if isinstance(state, CutthroatState):
        assert isinstance(rules, PresetRules) and isinstance(record, CutthroatHand)
        return advance_cutthroat(rules, state, record)
    assert isinstance(rules, PresetRules) and isinstance(record, TwoPlayerHand)
    if isinstance(state, HollywoodState):
        return advance_hollywood(rules, state, record)
    return advance_two_player(rules, state, record)


def verify_result(
    rules: Rules | PresetRules, state: State, status: str, winner: PlayerId | None, scores: Mapping[str, int]
) -> None:
    """A game's status, winner and scores (keyed by player as written) are
    those its hands give (``state``, after the last): R20 (R30 under a
    two-player preset, R34 for a Hollywood match, R36 in cutthroat), R26."""
    derived = "finished" if state.finished else "in_progress"
    if status != derived:
        raise ResultError(
            f"the hands leave the game {derived}, not {status} ({_win_rule(state)})",
            field="status",
            rule=_win_rule(state),
            value=status,
            expected=derived,
        )
    if winner != state.winner:
        raise ResultError(
            f"the hands make {state.winner} the winner, not {winner} ({_win_rule(state)})",
            field="winner",
            rule=_win_rule(state),
            value=winner,
            expected=state.winner,
        )
    shown = {str(p): n for p, n in state.scores.items()}
    if scores != shown:
        raise ScoresError(
            f"the hands add up to {shown}, not {scores} (R26)", field="scores", value=scores, expected=shown
        )


# --- the revisions: listed by hand number, each hand keeping its seating -----------------------------------


@dataclass(frozen=True, slots=True)
class Listing:
    """Where a listing of revisions is, after the last one listed: its hand
    number, revision and action, and the seating its hand was recorded in
    (nothing listed yet: number 0)."""

    number: int = 0
    revision: int = 0
    action: str | None = None
    seating: Seats | None = None
    index: int = 0  # how many revisions are listed


def list_version(
    listing: Listing,
    number: int,
    revision: int,
    action: str,
    given: Mapping[str, PlayerId],
    players: Sequence[PlayerId],
    *,
    cutthroat: bool = False,
) -> Listing:
    """The listing after one more revision: listed by hand number, 1, 2, ...
    without gaps, each hand number's revisions numbered 1, 2, ...; its action
    one that may follow the one before (:data:`NEXT_ACTIONS`, R26); its
    seating the game's players (R8; R28 and, ``cutthroat``, R36 as
    :func:`seat`) and, but for a recording, its hand's (R26: a correction
    keeps its seating).

    >>> first = list_version(Listing(), 1, 1, "recorded", {"box": 1, "captain": 2, "sitter": 3}, [1, 2, 3])
    >>> list_version(first, 1, 2, "recorded", {"box": 1, "captain": 2, "sitter": 3}, [1, 2, 3])
    Traceback (most recent call last):
    ...
    referee.errors.ActionError: after recorded comes corrected or undone, not recorded (R26)
    """
    j = listing.index
    rfield = f"revisions[{j}]"
    if j == 0 or number != listing.number:
        expected = 1 if j == 0 else listing.number + 1
        if number != expected:
            raise NumberingError(
                f"revisions are listed by hand number, 1, 2, ... without gaps: {expected} here, not {number}",
                field=f"{rfield}.number",
                value=number,
                expected=expected,
            )
        before = None
    else:
        before = listing.action
    expected = 1 if before is None else listing.revision + 1
    if revision != expected:
        raise NumberingError(
            f"hand {number}'s revisions are numbered 1, 2, ... without gaps: {expected} here, not {revision}",
            field=f"{rfield}.revision",
            value=revision,
            expected=expected,
        )
    allowed = NEXT_ACTIONS[before]
    if action not in allowed:
        raise ActionError(
            f"after {before or 'nothing'} comes {' or '.join(allowed)}, not {action} (R26)",
            field=f"{rfield}.action",
            value=action,
            allowed=allowed,
        )
    roles = seat(players, given, f"{rfield}.seating", cutthroat=cutthroat)
    if action != "recorded" and roles != listing.seating:
        assert listing.seating is not None
        raise SeatingError(
            f"hand {number} was played in {listing.seating.as_dict()}, and a hand keeps its seating (R26), "
            f"not {roles.as_dict()}",
            field=f"{rfield}.seating",
            value=roles.as_dict(),
            seating=listing.seating.as_dict(),
        )
    return Listing(number, revision, action, roles if action == "recorded" else listing.seating, j + 1)


@dataclass(frozen=True, slots=True)
class Version:
    """One revision of a hand number as the record lists it: the hand as
    this version has it (``record``, for the replay; ``input`` and
    ``ruling``, opaque), the running scores of its hand (``scores``) and the
    game's (``game_scores``) just after it, and when it was made. An upheld
    dispute it carries out is ``dispute``."""

    number: int
    revision: int
    action: str
    seating: Seats
    record: Record
    scores: Mapping[Any, int]  # keyed by player (Mapping's keys are invariant: a game's ids are of one type)
    game_scores: Mapping[Any, int]
    made_at: datetime
    input: Any = None
    ruling: Any = None
    dispute: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A hand that stands (in the game's hands), as its last version must have it."""

    seating: Seats
    input: Any
    ruling: Any


def verify_standing(versions: Sequence[Version], standing: Sequence[Standing], same: Same = same_json) -> None:
    """R26, the record stands: the last version of each hand that stands
    (hand ``n`` is ``standing[n - 1]``) is that hand, with its input,
    seating and ruling, and every other hand number's last is undone."""
    last: dict[int, int] = {}  # hand number -> index of its last version
    for j, v in enumerate(versions):
        last[v.number] = j
    for number, hand in enumerate(standing, start=1):
        if number not in last:
            raise ActionError(f"hand {number} stands but has no revisions (R26)", field="revisions", value=None)
        j = last[number]
        version, vfield = versions[j], f"revisions[{j}]"
        if version.action == "undone":
            raise ActionError(
                f"hand {number} stands: its last revision is not undone",
                field=f"{vfield}.action",
                rule="record",
                value="undone",
            )
        for name, same_value in (
            ("input", same(version.input, hand.input)),
            ("seating", version.seating == hand.seating),
            ("ruling", same(version.ruling, hand.ruling)),
        ):
            if not same_value:
                raise HistoryError(
                    f"the last revision of hand {number} is the hand that stands (R26): its {name} differs",
                    field=f"{vfield}.{name}",
                )
    for number, j in last.items():
        if number > len(standing) and versions[j].action != "undone":
            raise ActionError(
                f"no hand {number} stands: its last revision is undone, not {versions[j].action} (R26)",
                field=f"revisions[{j}].action",
                value=versions[j].action,
            )


def can_revise(standing: int, number: int, action: str) -> bool:
    """Whether hand ``number`` may be ``action`` when ``standing`` hands
    stand (R26): recorded next, corrected while it stands, undone while it
    is the last.

    >>> can_revise(3, 4, "recorded"), can_revise(3, 2, "corrected"), can_revise(3, 2, "undone")
    (True, True, False)
    """
    if action == "recorded":
        return number == standing + 1
    if action == "corrected":
        return number <= standing
    return number == standing


_WHEN = {
    "recorded": "hand {n} is recorded at {when}, when {standing} hands stood",
    "corrected": "hand {n} is corrected at {when}, when it did not stand",
    "undone": "hand {n} is undone at {when}, when it was not the last hand",
}


def verify_history(versions: Sequence[Version], rules: Rules | PresetRules, first: Seats) -> None:
    """The versions, in the order they were made (``made_at``; one made at
    the same moment as another keeps its place in the list), are the game's
    history (R26): each hand is recorded when the hands before it stand,
    corrected while it stands and undone while it is the last
    (:func:`can_revise`); and each version's ``scores`` (its hand's running
    scores) and ``game_scores`` (the game's) are those that history gives
    just after it. A hand the rules refuse there (:func:`~referee.game.advance`)
    raises its own error, at the version."""
    states = [start(rules, first)]  # the state after each hand that stands, then: states[n] after hand n
    standing: list[Record] = []
    for j in sorted(range(len(versions)), key=lambda j: versions[j].made_at):
        r, rfield = versions[j], f"revisions[{j}]"
        n = r.number
        if not can_revise(len(standing), n, r.action):
            when = r.made_at.isoformat()
            raise OrderError(
                _WHEN[r.action].format(n=n, when=when, standing=len(standing))
                + ": revisions are made in the order of the game's history (R26)",
                field=f"{rfield}.made_at",
                made_at=when,
            )
        try:
            hand_scores = _revise(rules, states, standing, r)
        except RefereeError as err:
            raise err.at(rfield) from None
        for name, derived, given in (
            ("scores", hand_scores, r.scores),
            ("game_scores", states[-1].scores, r.game_scores),
        ):
            if dict(derived) != given:
                shown = {str(p): v for p, v in derived.items()}
                offending = {str(p): v for p, v in given.items()}
                raise ScoresError(
                    f"the {'game' if name == 'game_scores' else f'hand {n}'}'s scores just after this revision "
                    f"are {shown}, not {offending} (R26)",
                    field=f"{rfield}.{name}",
                    value=offending,
                    expected=shown,
                )


def _revise(rules: Rules | PresetRules, states: list[State], standing: list[Record], r: Version) -> dict[PlayerId, int]:
    """Apply one version to the hands that stand and the states after them;
    the running scores of its hand just after it."""
    n = r.number
    if r.action == "undone":
        hand_scores = states[n].scores
        standing.pop()
        states.pop()
        return hand_scores
    if r.action == "recorded":
        standing.append(r.record)
    else:
        standing[n - 1] = r.record
        del states[n:]
    while len(states) <= len(standing):
        states.append(advance_any(rules, states[-1], standing[len(states) - 1]))
    return states[n].scores


def verify_revisions(
    versions: Sequence[Version],
    standing: Sequence[Standing],
    rules: Rules | PresetRules,
    players: Sequence[PlayerId],
    first: Seats,
    same: Same = same_json,
) -> None:
    """A game's whole record (R26): listed in order (:func:`list_version`),
    the hands that stand its last versions (:func:`verify_standing`), made
    in the order of its history (:func:`verify_history`)."""
    listing = Listing()
    cutthroat = isinstance(first, CutthroatSeating)
    for v in versions:
        listing = list_version(
            listing, v.number, v.revision, v.action, v.seating.as_dict(), players, cutthroat=cutthroat
        )
    verify_standing(versions, standing, same)
    verify_history(versions, rules, first)


# --- disputes -----------------------------------------------------------------------------------------------


def results_of(versions: Sequence[Version]) -> dict[int, list[dict[str, Any]]]:
    """The outcome, scorer and points of each version of each hand number
    that is not an undo, by hand number (what a dispute may say was recorded).
    Each version's ``ruling`` is a ruling as JSON."""
    results: dict[int, list[dict[str, Any]]] = {}
    for r in versions:
        if r.action != "undone":
            results.setdefault(r.number, []).append(
                {name: r.ruling.get(name) for name in ("outcome", "scorer", "points")}
            )
    return results


def verify_disputed(k: int, dispute_id: int, number: int, ids: Collection[int], numbers: Collection[int]) -> None:
    """Dispute ``k`` (``disputes[k]``) has an id no dispute before it has
    (``ids``), of a hand number the record has (``numbers``)."""
    field = f"disputes[{k}]"
    if dispute_id in ids:
        raise DisputeRecordError(
            f"dispute {dispute_id} appears twice in this game", field=f"{field}.id", rule="record", value=dispute_id
        )
    if number not in numbers:
        raise DisputeRecordError(
            f"this game has no hand {number}", field=f"{field}.number", rule="record", value=number
        )


def verify_recorded(
    k: int, number: int, recorded: Any, results: Mapping[int, Sequence[Any]], same: Same = same_json
) -> None:
    """What dispute ``k`` says was recorded is the result of a version of its hand (:func:`results_of`)."""
    if not any(same(recorded, result) for result in results[number]):
        raise DisputeRecordError(
            f"not the outcome, scorer and points of any version of hand {number}",
            field=f"disputes[{k}].recorded",
            rule="record",
            value=recorded,
        )


def verify_resolution(k: int, status: str, resolved_at: Any, reason: str | None) -> None:
    """An open dispute is not resolved (no ``resolved_at``, None), nor has it
    a decision's reason; a decided one has a ``resolved_at``."""
    field = f"disputes[{k}]"
    if (status == "open") != (resolved_at is None):
        raise DisputeRecordError(
            f"a dispute {status} has {'no' if status == 'open' else 'a'} resolved_at",
            field=f"{field}.resolved_at",
            rule="record",
            value=resolved_at,
        )
    if status == "open" and reason is not None:
        raise DisputeRecordError(
            "an open dispute has no decision, nor its reason", field=f"{field}.reason", rule="record", value=reason
        )


@dataclass(frozen=True, slots=True)
class Dispute:
    """A dispute of a game (its id the record's), as the record has it."""

    id: int
    number: int
    status: str
    input: Any
    ruling: Any


def verify_named(versions: Sequence[Version], disputes: Sequence[Dispute], same: Same = same_json) -> None:
    """R26: each upheld dispute is carried out by exactly one correction of
    its hand, which names it and is the hand as the dispute has it; no
    version names another dispute."""
    by_id = {d.id: k for k, d in enumerate(disputes)}
    named: dict[int, int] = {}
    for j, r in enumerate(versions):
        if r.dispute is None:
            continue
        rfield = f"revisions[{j}].dispute"
        if r.dispute not in by_id:
            raise DisputeRecordError(
                f"there is no dispute {r.dispute} in this game", field=rfield, rule="record", value=r.dispute
            )
        if r.dispute in named:
            raise DisputeRecordError(
                f"dispute {r.dispute} is named by revision {named[r.dispute]} already",
                field=rfield,
                rule="record",
                value=r.dispute,
            )
        named[r.dispute] = j
        dispute = disputes[by_id[r.dispute]]
        if r.action != "corrected" or dispute.status != "upheld" or dispute.number != r.number:
            raise DisputeRecordError(
                f"only a correction of hand {dispute.number} names dispute {r.dispute}, once it is upheld (R26)",
                field=rfield,
                value=r.dispute,
            )
        if not (same(r.input, dispute.input) and same(r.ruling, dispute.ruling)):
            raise DisputeRecordError(
                f"the hand as dispute {r.dispute} has it is not this revision's",
                field=rfield,
                rule="record",
                value=r.dispute,
            )
    for k, dispute in enumerate(disputes):
        if dispute.status == "upheld" and dispute.id not in named:
            raise DisputeRecordError(
                "an upheld dispute corrects its hand (R26): no revision names it",
                field=f"disputes[{k}].status",
                value="upheld",
            )
