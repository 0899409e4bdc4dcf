"""A game's record judged on its own (R8, R9, R11, R20, R26): no Flask, no
database. A random log of recordings, corrections and undos, made by playing
a random game and replaying it directly after every revision, always passes;
any one change to it is refused with the rule and the path of what changed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.cards import parse_card
from referee.cutthroat import CutthroatHand, CutthroatSeating, advance_cutthroat, new_cutthroat_game
from referee.errors import (
    ActionError,
    CutError,
    DisputeRecordError,
    GameStateError,
    HandAfterWinError,
    HistoryError,
    NumberingError,
    OrderError,
    ScoresError,
    SeatingError,
)
from referee.game import GameState, HandRecord, advance, new_game, replay
from referee.history import (
    NEXT_ACTIONS,
    Dispute,
    Listing,
    Standing,
    Version,
    list_version,
    seat,
    verify_cut,
    verify_history,
    verify_named,
    verify_next_hand,
    verify_players,
    verify_result,
    verify_revisions,
)
from referee.preset_hand import score_preset_counts
from referee.presets import resolve_rules
from referee.roles import Role, Roles
from referee.rules import Rules
from referee.scoring import DRAW, score_counts
from referee.two_player import Seat
from tests.test_referee.referee_helpers import PROPERTY

PLAYERS = [4, 7, 9]
FIRST = Roles(box=4, captain=7, sitter=9)
T0 = datetime(2024, 3, 7, 19, 0, tzinfo=UTC)


# --- a random game, played, corrected and undone: its log as the record keeps it ----------------------------


@dataclass
class Log:
    rules: Rules
    versions: list[Version]  # listed by hand number, then revision
    standing: list[Standing]  # the hands that stand, as their last versions have them
    records: list[HandRecord]  # the same, for a replay
    corrected: list[bool]  # whether each hand that stands was corrected after it was played

    def verify(self) -> None:
        verify_revisions(self.versions, self.standing, self.rules, PLAYERS, FIRST)


def ruling_of(record: HandRecord) -> dict[str, Any]:
    scorer = record.score.scorer
    return {
        "outcome": record.score.outcome.value,
        "scorer": None if scorer is None else scorer.value,
        "points": record.score.points,
    }


@st.composite
def hands(draw: st.DrawFn, rules: Rules, seating: Roles) -> HandRecord:
    knocker = draw(st.sampled_from([Role.BOX, Role.CAPTAIN, None]))
    if knocker is None:
        return HandRecord(seating, None, DRAW)  # R12
    k = draw(st.integers(0, rules.knock_limit))
    d = draw(st.integers(0, 40))
    return HandRecord(seating, knocker, score_counts(k, d, rules))  # R25


def can_replay(rules: Rules, records: list[HandRecord]) -> bool:
    """Whether a correction leaves no hand after the win (R20)."""
    try:
        replay(rules, FIRST, records)
    except GameStateError:
        return False
    return True


@st.composite
def logs(draw: st.DrawFn) -> Log:
    """Play a game at random, one revision at a time: record the next hand
    (seated as R11 gives after the hands that stand), correct a hand that
    stands (in its own seating, R26) or undo the last; after each, the
    scores are those of a direct replay of the hands that then stand."""
    rules = Rules(target_score=draw(st.sampled_from([25, 60, 1000])))
    records: list[HandRecord] = []
    last: list[Version] = []  # the last version of each hand that stands
    corrected: list[bool] = []
    by_number: dict[int, list[Version]] = {}
    for step in range(draw(st.integers(1, 24))):
        before = replay(rules, FIRST, records)
        choices = ["undo", "correct"] if records else []
        if not before.finished:
            choices += ["record", "record"]  # as often as the other two: games are played to the end
        if not choices:
            break
        action = draw(st.sampled_from(choices))
        if action == "record":
            assert before.roles is not None
            record = draw(hands(rules, before.roles))
            records.append(record)
            number = len(records)
            corrected.append(False)
        elif action == "correct":
            number = draw(st.integers(1, len(records)))
            record = draw(hands(rules, records[number - 1].roles))
            if not can_replay(rules, [*records[: number - 1], record, *records[number:]]):
                continue
            records[number - 1] = record
            corrected[number - 1] = True
        else:
            number = len(records)
            record = records.pop()
            corrected.pop()
        after = replay(rules, FIRST, records)
        hand_scores = (before if action == "undo" else after).running[number - 1]
        versions = by_number.setdefault(number, [])
        version = Version(
            number,
            len(versions) + 1,
            {"record": "recorded", "correct": "corrected", "undo": "undone"}[action],
            record.roles,
            record,
            dict(hand_scores),
            dict(after.scores),
            T0 + timedelta(minutes=step),
            {"number": number, "revision": len(versions) + 1} if action != "undo" else last[-1].input,
            ruling_of(record),
        )
        versions.append(version)
        if action == "record":
            last.append(version)
        elif action == "correct":
            last[number - 1] = version
        else:
            last.pop()
    listed = [v for number in sorted(by_number) for v in by_number[number]]
    standing = [Standing(v.seating, v.input, v.ruling) for v in last]
    return Log(rules, listed, standing, records, corrected)


def verify_hands(log: Log) -> GameState:
    """The hands that stand, checked one after another as an import's are (R9, R11, R20, R26)."""
    state = new_game(FIRST)
    for i, record in enumerate(log.records):
        after_correction = i > 0 and log.corrected[i - 1]
        seating = verify_next_hand(
            log.rules,
            PLAYERS,
            state,
            i + 1,
            record.roles.as_dict(),
            total=len(log.records),
            after_correction=after_correction,
        )
        assert seating == record.roles
        state = advance(log.rules, state, record)
    return state


def refused(log: Log, error: type[Exception]) -> Any:
    with pytest.raises(error) as caught:
        log.verify()
    return caught.value


# --- a valid log passes ----------------------------------------------------------------------------------


@settings(PROPERTY, max_examples=150)
@given(logs())
def test_r26_a_game_played_corrected_and_undone_at_random_is_its_own_record(log: Log) -> None:
    """Each version's scores and game_scores come from a direct replay of the
    hands standing just after it; the referee's own replay of the history,
    in made_at order, finds the same at every version, and the hands that
    stand are the last versions."""
    log.verify()
    state = verify_hands(log)
    direct = replay(log.rules, FIRST, log.records)
    assert state.scores == direct.scores
    verify_result(
        log.rules,
        state,
        "finished" if direct.finished else "in_progress",
        direct.winner,
        {str(p): n for p, n in direct.scores.items()},
    )
    if log.versions:
        latest = max(log.versions, key=lambda v: v.made_at)
        assert dict(latest.game_scores) == direct.scores


# --- any one change is refused, with its rule and path ---------------------------------------------------


@settings(PROPERTY, max_examples=100)
@given(logs(), st.data())
def test_r26_a_revision_made_before_the_one_it_follows_is_out_of_order(log: Log, data: st.DataObject) -> None:
    """Swap the made_at of a recording and of the revision made just after
    it that needs it (the next hand recorded, or this hand corrected or
    undone): the latter now comes when the hand did not stand."""
    in_time = sorted(range(len(log.versions)), key=lambda j: log.versions[j].made_at)
    pairs = [
        (a, b)
        for a, b in zip(in_time, in_time[1:], strict=False)
        if log.versions[a].action == "recorded" and log.versions[b].number >= log.versions[a].number
    ]
    assume(pairs)
    a, b = data.draw(st.sampled_from(pairs))
    va, vb = log.versions[a], log.versions[b]
    log.versions[a], log.versions[b] = replace(va, made_at=vb.made_at), replace(vb, made_at=va.made_at)
    err = refused(log, OrderError)
    assert (err.rule, err.field, err.made_at) == ("R26", f"revisions[{b}].made_at", va.made_at.isoformat())
    assert err.message.endswith(": revisions are made in the order of the game's history (R26)")


@settings(PROPERTY, max_examples=100)
@given(logs(), st.data())
def test_r26_an_action_that_cannot_follow_the_one_before_is_refused(log: Log, data: st.DataObject) -> None:
    assume(log.versions)
    j = data.draw(st.integers(0, len(log.versions) - 1))
    version = log.versions[j]
    before = None if version.revision == 1 else log.versions[j - 1].action
    action = data.draw(
        st.sampled_from([a for a in ("recorded", "corrected", "undone") if a not in NEXT_ACTIONS[before]])
    )
    log.versions[j] = replace(version, action=action)
    err = refused(log, ActionError)
    assert (err.rule, err.field, err.value, err.allowed) == (
        "R26",
        f"revisions[{j}].action",
        action,
        NEXT_ACTIONS[before],
    )


@settings(PROPERTY, max_examples=100)
@given(logs(), st.data())
def test_r26_a_correction_or_an_undo_in_another_seating_is_refused(log: Log, data: st.DataObject) -> None:
    revised = [j for j, v in enumerate(log.versions) if v.action != "recorded"]
    assume(revised)
    j = data.draw(st.sampled_from(revised))
    version = log.versions[j]
    seating = data.draw(
        st.permutations(PLAYERS).map(lambda p: Roles(*p)).filter(lambda roles: roles != version.seating)
    )
    log.versions[j] = replace(version, seating=seating)
    err = refused(log, SeatingError)
    assert (err.rule, err.field, err.value, err.seating) == (
        "R26",
        f"revisions[{j}].seating",
        seating.as_dict(),
        version.seating.as_dict(),
    )


@settings(PROPERTY, max_examples=100)
@given(logs(), st.data())
def test_a_revision_number_skipped_is_refused(log: Log, data: st.DataObject) -> None:
    assume(log.versions)
    j = data.draw(st.integers(0, len(log.versions) - 1))
    version = log.versions[j]
    log.versions[j] = replace(version, revision=version.revision + 1)
    err = refused(log, NumberingError)
    assert (err.rule, err.field, err.value, err.expected) == (
        "record",
        f"revisions[{j}].revision",
        version.revision + 1,
        version.revision,
    )


@settings(PROPERTY, max_examples=100)
@given(logs(), st.data())
def test_a_hand_number_skipped_is_refused(log: Log, data: st.DataObject) -> None:
    assume(log.versions)
    numbers = sorted({v.number for v in log.versions})
    skipped = data.draw(st.sampled_from(numbers))
    log.versions = [replace(v, number=v.number + 1) if v.number >= skipped else v for v in log.versions]
    j = next(j for j, v in enumerate(log.versions) if v.number == skipped + 1)
    err = refused(log, NumberingError)
    assert (err.rule, err.field, err.value, err.expected) == ("record", f"revisions[{j}].number", skipped + 1, skipped)


@settings(PROPERTY, max_examples=100)
@given(logs(), st.data())
def test_r26_scores_off_by_one_are_refused(log: Log, data: st.DataObject) -> None:
    assume(log.versions)
    j = data.draw(st.integers(0, len(log.versions) - 1))
    name = data.draw(st.sampled_from(["scores", "game_scores"]))
    player = data.draw(st.sampled_from(PLAYERS))
    version = log.versions[j]
    given_scores = dict(getattr(version, name))
    derived = {str(p): n for p, n in given_scores.items()}
    given_scores[player] += 1
    log.versions[j] = replace(version, **{name: given_scores})
    err = refused(log, ScoresError)
    assert (err.rule, err.field, err.expected) == ("R26", f"revisions[{j}].{name}", derived)
    assert err.value == {str(p): n for p, n in given_scores.items()}


@settings(PROPERTY, max_examples=100)
@given(logs(), st.data())
def test_r26_the_last_version_of_a_hand_that_stands_is_that_hand(log: Log, data: st.DataObject) -> None:
    assume(log.standing)
    n = data.draw(st.integers(1, len(log.standing)))
    log.standing[n - 1] = replace(log.standing[n - 1], input={"number": n, "revision": 0})
    j = max(j for j, v in enumerate(log.versions) if v.number == n)
    err = refused(log, HistoryError)
    assert (type(err), err.rule, err.field) == (HistoryError, "R26", f"revisions[{j}].input")
    assert err.message == f"the last revision of hand {n} is the hand that stands (R26): its input differs"


@settings(PROPERTY, max_examples=100)
@given(logs(), st.data())
def test_r11_a_hand_seated_otherwise_with_no_correction_before_it_is_refused(log: Log, data: st.DataObject) -> None:
    """Only a correction of the hand before lets a hand sit otherwise than
    R11 gives (R26); the first hand sits as the cut or first_roles say (R9)."""
    moved = [i for i in range(len(log.records)) if i == 0 or not log.corrected[i - 1]]
    assume(moved)
    i = data.draw(st.sampled_from(moved))
    record = log.records[i]
    seating = data.draw(st.permutations(PLAYERS).map(lambda p: Roles(*p)).filter(lambda roles: roles != record.roles))
    log.records[i] = replace(record, roles=seating)
    with pytest.raises(SeatingError) as caught:
        verify_hands(log)
    err = caught.value
    assert (err.rule, err.field, err.value, err.seating) == (
        "R9" if i == 0 else "R26",
        f"hands[{i}].seating",
        seating.as_dict(),
        record.roles.as_dict(),
    )


# --- exact examples --------------------------------------------------------------------------------------

BOB_KNOCKS = HandRecord(FIRST, Role.BOX, score_counts(3, 20))  # 17 to the box, 4 (R16)
SEATED = {"box": 4, "captain": 7, "sitter": 9}


def test_r8_a_game_has_three_different_players() -> None:
    with pytest.raises(SeatingError) as caught:
        verify_players([4, 7, 7], {4, 7, 9})
    err = caught.value
    assert (err.message, err.rule, err.field, err.value) == (
        "a game has three different players (R8), not [4, 7, 7]",
        "R8",
        "players",
        [4, 7, 7],
    )


def test_r9_the_cut_seats_the_first_hand() -> None:
    cut = {"4": parse_card("2S"), "7": parse_card("KH"), "9": parse_card("7D")}  # KH > 7D > 2S
    with pytest.raises(SeatingError) as caught:
        verify_cut(PLAYERS, cut, FIRST)
    err = caught.value
    assert err.message == (
        "the cut seats {'box': 7, 'captain': 9, 'sitter': 4} (R9), "
        "not first_roles {'box': 4, 'captain': 7, 'sitter': 9}"
    )
    assert (err.rule, err.field, err.value) == ("R9", "cut", {"4": "2S", "7": "KH", "9": "7D"})
    verify_cut(PLAYERS, cut, Roles(box=7, captain=9, sitter=4))


def test_r9_a_tied_cut_keeps_its_own_error() -> None:
    cut = {"4": parse_card("KS"), "7": parse_card("KH"), "9": parse_card("7D")}
    with pytest.raises(CutError) as caught:
        verify_cut(PLAYERS, cut, FIRST)
    assert (caught.value.rule, caught.value.field, caught.value.players) == ("R9", "cut", [4, 7])


def test_r11_a_hand_sits_as_the_hand_before_leaves_it_unless_that_hand_was_corrected() -> None:
    state = advance(Rules(), new_game(FIRST), BOB_KNOCKS)  # the box won: captain and sitter swap (R11)
    assert state.roles == Roles(box=4, captain=9, sitter=7)
    with pytest.raises(SeatingError) as caught:
        verify_next_hand(Rules(), PLAYERS, state, 2, SEATED, total=2, after_correction=False)
    err = caught.value
    assert err.message == (
        "after hand 1 the seating is {'box': 4, 'captain': 9, 'sitter': 7} (R11), not "
        "{'box': 4, 'captain': 7, 'sitter': 9}; a hand sits otherwise only when the hand before it was corrected (R26)"
    )
    assert (err.rule, err.field, err.value) == ("R26", "hands[1].seating", SEATED)
    # R26: the record stands: hand 1 corrected after hand 2 was played leaves hand 2 as it sat.
    assert verify_next_hand(Rules(), PLAYERS, state, 2, SEATED, total=2, after_correction=True) == FIRST


def test_r20_no_hand_comes_after_the_win() -> None:
    rules = Rules(target_score=10)
    state = advance(rules, new_game(FIRST), BOB_KNOCKS)  # 17 >= 10: player 4 has won
    with pytest.raises(HandAfterWinError) as caught:
        verify_next_hand(rules, PLAYERS, state, 2, SEATED, total=3, after_correction=False)
    err = caught.value
    assert err.message == "player 4 reaches 10 at hand 1: hands 2, 3 would come after the win (R20)"
    assert (err.rule, err.field, err.hands, err.winner, err.won_at) == ("R20", "hands", [2, 3], 4, 1)


def test_r26_a_correction_keeps_its_hands_seating() -> None:
    listing = list_version(Listing(), 1, 1, "recorded", SEATED, PLAYERS)
    moved = {"box": 7, "captain": 4, "sitter": 9}
    with pytest.raises(SeatingError) as caught:
        list_version(listing, 1, 2, "corrected", moved, PLAYERS)
    err = caught.value
    assert err.message == (
        "hand 1 was played in {'box': 4, 'captain': 7, 'sitter': 9}, and a hand keeps its seating (R26), "
        "not {'box': 7, 'captain': 4, 'sitter': 9}"
    )
    assert (err.rule, err.field, err.value) == ("R26", "revisions[1].seating", moved)


def test_r8_a_revision_is_seated_by_the_games_players() -> None:
    with pytest.raises(SeatingError) as caught:
        list_version(Listing(), 1, 1, "recorded", {"box": 4, "captain": 7, "sitter": 5}, PLAYERS)
    err = caught.value
    assert err.message == "box, captain and sitter must be the game's three players [4, 7, 9] (R8)"
    assert (err.rule, err.field) == ("R8", "revisions[0].seating")


def version(number: int, revision: int, action: str, minute: int, game: dict[int, int], **kw: Any) -> Version:
    scores = kw.pop("scores", game)
    return Version(
        number,
        revision,
        action,
        FIRST,
        kw.pop("record", BOB_KNOCKS),
        scores,
        game,
        T0 + timedelta(minutes=minute),
        **kw,
    )


def test_r26_only_the_last_hand_is_undone() -> None:
    second = HandRecord(Roles(box=4, captain=9, sitter=7), None, DRAW)
    log = [
        version(1, 1, "recorded", 0, {4: 17, 7: 0, 9: 0}),
        version(1, 2, "undone", 2, {4: 17, 7: 0, 9: 0}),  # made while hand 2 stood
        version(2, 1, "recorded", 1, {4: 17, 7: 0, 9: 0}, record=second, scores={4: 17, 7: 0, 9: 0}),
    ]
    with pytest.raises(OrderError) as caught:
        verify_history(log, Rules(), FIRST)
    err = caught.value
    assert err.message == (
        "hand 1 is undone at 2024-03-07T19:02:00+00:00, when it was not the last hand: "
        "revisions are made in the order of the game's history (R26)"
    )
    assert (err.rule, err.field) == ("R26", "revisions[1].made_at")


def test_r20_a_hand_recorded_after_the_win_keeps_its_own_error_at_its_revision() -> None:
    rules = Rules(target_score=10)
    after = HandRecord(Roles(box=4, captain=9, sitter=7), None, DRAW)
    log = [
        version(1, 1, "recorded", 0, {4: 17, 7: 0, 9: 0}),
        version(2, 1, "recorded", 1, {4: 17, 7: 0, 9: 0}, record=after),
    ]
    with pytest.raises(GameStateError) as caught:
        verify_history(log, rules, FIRST)
    assert (caught.value.rule, caught.value.field, caught.value.message) == (
        "R20",
        "revisions[1]",
        "the game is over: 4 has won",
    )


def test_r26_an_upheld_dispute_is_carried_out_by_one_correction_of_its_hand() -> None:
    ruling = {"outcome": "knock", "scorer": "knocker", "points": 17}
    dispute = Dispute(1, 1, "upheld", {"in": 1}, ruling)
    log = [
        version(1, 1, "recorded", 0, {4: 17, 7: 0, 9: 0}),
        version(1, 2, "corrected", 1, {4: 17, 7: 0, 9: 0}, input={"in": 1}, ruling=ruling, dispute=1),
    ]
    verify_named(log, [dispute])
    with pytest.raises(DisputeRecordError) as caught:
        verify_named(log[:1], [dispute])
    err = caught.value
    assert (err.message, err.rule, err.field, err.value) == (
        "an upheld dispute corrects its hand (R26): no revision names it",
        "R26",
        "disputes[0].status",
        "upheld",
    )
    with pytest.raises(DisputeRecordError) as caught:
        verify_named(log, [replace(dispute, status="open")])
    assert (caught.value.message, caught.value.field) == (
        "only a correction of hand 1 names dispute 1, once it is upheld (R26)",
        "revisions[1].dispute",
    )


# --- cutthroat (R36): three players, two play each hand while the third sits out ---------------------------

CUTTHROAT = resolve_rules("cutthroat", {"target_score": 20})
CT_FIRST = CutthroatSeating(dealer=4, non_dealer=7, sitter=9)
CT_SEATED = {"dealer": 4, "non_dealer": 7, "sitter": 9}
DEALER_WINS = CutthroatHand(CT_FIRST, Seat.DEALER, score_preset_counts(CUTTHROAT, 2, 12))  # 10 to player 4


def test_r36_a_cutthroat_game_has_three_different_players() -> None:
    verify_players(PLAYERS, {4, 7, 9}, cutthroat=True)
    for players in ([4, 7], [4, 7, 7]):
        with pytest.raises(SeatingError) as caught:
            verify_players(players, {4, 7, 9}, cutthroat=True)
        assert (caught.value.rule, caught.value.field) == ("R36", "players")
        assert caught.value.message == f"a cutthroat game has three different players (R36), not {players}"


@pytest.mark.parametrize(
    "given",
    [
        {"dealer": 4, "non_dealer": 4, "sitter": 9},  # one player in two seats
        {"dealer": 4, "non_dealer": 7, "sitter": 5},  # a sitter who is not in the game
        {"dealer": 4, "non_dealer": 7},  # no sitter
        {"box": 4, "captain": 7, "sitter": 9},  # the three-handed game's roles
    ],
)
def test_r36_a_cutthroat_seating_is_the_games_three_players_as_dealer_non_dealer_and_sitter(
    given: dict[str, int],
) -> None:
    assert seat(PLAYERS, CT_SEATED, "first_roles", cutthroat=True) == CT_FIRST
    with pytest.raises(SeatingError) as caught:
        seat(PLAYERS, given, "hands[0].seating", cutthroat=True)
    assert (caught.value.rule, caught.value.field, caught.value.value) == ("R36", "hands[0].seating", given)


def test_r36_the_cut_seats_a_cutthroat_games_first_hand() -> None:
    cut = {"4": parse_card("KH"), "7": parse_card("7D"), "9": parse_card("2S")}  # the two higher play
    verify_cut(PLAYERS, cut, CT_FIRST)
    with pytest.raises(SeatingError) as caught:
        verify_cut(PLAYERS, cut, CutthroatSeating(dealer=7, non_dealer=4, sitter=9))
    assert (caught.value.rule, caught.value.field) == ("R36", "cut")
    tied = {**cut, "7": parse_card("KD")}
    with pytest.raises(CutError) as tie:
        verify_cut(PLAYERS, tied, CT_FIRST)
    assert (tie.value.rule, tie.value.field, tie.value.players) == ("R36", "cut", [4, 7])


def test_r36_r26_a_cutthroat_hand_sits_as_r36_gives_unless_the_hand_before_was_corrected() -> None:
    state = advance_cutthroat(CUTTHROAT, new_cutthroat_game(CT_FIRST), DEALER_WINS)
    # R36: the loser (7) sits out, the sitter (9) comes in and deals to the winner (4)
    assert state.seating == CutthroatSeating(dealer=9, non_dealer=4, sitter=7)
    with pytest.raises(SeatingError) as caught:
        verify_next_hand(CUTTHROAT, PLAYERS, state, 2, CT_SEATED, total=2, after_correction=False)
    assert caught.value.field == "hands[1].seating" and "(R36)" in caught.value.message
    assert verify_next_hand(CUTTHROAT, PLAYERS, state, 2, CT_SEATED, total=2, after_correction=True) == CT_FIRST
    with pytest.raises(SeatingError) as first:
        seated = {"dealer": 7, "non_dealer": 4, "sitter": 9}
        verify_next_hand(CUTTHROAT, PLAYERS, new_cutthroat_game(CT_FIRST), 1, seated, total=1, after_correction=False)
    assert (first.value.rule, first.value.field) == ("R36", "hands[0].seating")


def test_r36_a_cutthroat_game_ends_at_the_target_and_its_result_cites_r36() -> None:
    state = new_cutthroat_game(CT_FIRST)
    for _ in range(2):
        assert state.seating is not None
        state = advance_cutthroat(CUTTHROAT, state, CutthroatHand(state.seating, Seat.NON_DEALER, DEALER_WINS.score))
    assert state.winner == 7 and state.scores == {4: 0, 7: 20, 9: 0}
    with pytest.raises(HandAfterWinError) as after:
        verify_next_hand(CUTTHROAT, PLAYERS, state, 3, CT_SEATED, total=3, after_correction=False)
    assert (after.value.rule, after.value.hands) == ("R36", [3])
    verify_result(CUTTHROAT, state, "finished", 7, {"4": 0, "7": 20, "9": 0})
    with pytest.raises(HistoryError) as caught:
        verify_result(CUTTHROAT, state, "finished", 4, {"4": 0, "7": 20, "9": 0})
    assert (caught.value.rule, caught.value.field) == ("R36", "winner")
