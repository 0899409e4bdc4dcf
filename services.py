"""The use cases: each changes a game through the models, then brings its
league's books along, in the request's one transaction (committed by the app
once the answer is built). The views check access and input; the referee
decides; these only record.

The game model knows nothing of leagues: this is the one place where a
change to a game's hands reaches the league's totals, streaks and ratings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar, cast

from sqlalchemy import select

from models import ApiKey, Game, Hand, League, LeagueMember, Player, db, security
from models import books as league_books
from models.database import now
from models.disputes import Dispute, compare
from models.events import add_event
from models.game import GameRow, GameView, Recorded, RecordedTwoPlayer, record_hand
from models.game import record_hollywood_hand as record_hollywood
from models.game import record_two_player_hand as record_two_player
from models.league import PUBLIC
from models.revisions import add_revision, latest_revision
from models.security import KeyRow
from models.transfer import ImportedLeague, ImportedPlayer
from models.transfer import import_league as write_imported_league
from referee import GameState, Role, Roles, Rules, Score, replay, verify_can_record
from referee.cutthroat import CutthroatSeating, CutthroatState, verify_can_record_cutthroat
from referee.hollywood import (
    MovedHand,
    verify_hollywood_correction,
)
from referee.preset_hand import HandScore
from referee.presets import PresetRules
from referee.roles import PlayerId
from referee.two_player import Seat, Seating, TwoPlayerHand

_Knocker = TypeVar("_Knocker", covariant=True)
_Score = TypeVar("_Score", covariant=True)


class JudgedHand(Protocol[_Knocker, _Score]):
    """A hand in any of its three forms, as the referee ruled it: who knocked
    and its score, a three-handed hand's (``Judged``) or a two-player hand's
    under the game's preset (``PresetJudged``)."""

    @property
    def mode(self) -> str: ...  # cards, counts, draw
    @property
    def knocker(self) -> _Knocker | None: ...
    @property
    def score(self) -> _Score: ...
    @property
    def ruling(self) -> dict[str, Any]: ...
    @property
    def input(self) -> dict[str, Any]: ...


#: a hand of a three-handed game, as the referee ruled it
Judged = JudgedHand[Role, Score]
#: a two-player hand, as the referee ruled it under the game's preset (a knocker's seat, R28)
PresetJudged = JudgedHand[Seat, HandScore]


def create_player(name: str) -> Player:
    """A new player."""
    player = Player(name=name)
    db.session.add(player)
    db.session.flush()
    return player


def create_league(name: str, members: list[int], visibility: str = PUBLIC) -> tuple[League, str]:
    """A new league with its members, and its key (shown once)."""
    league = League(name=name, ratings_stale=False, streaks_stale=False, history_version=0, visibility=visibility)
    db.session.add(league)
    db.session.flush()
    add_members(league, members)
    return league, ApiKey.issue(league_id=league.id)[1]


def add_members(league: League, players: list[int]) -> None:
    """Players join the league (those already in it stay as they are)."""
    present = set(db.session.scalars(select(LeagueMember.player_id).where(LeagueMember.league_id == league.id)))
    new = [p for p in dict.fromkeys(players) if p not in present]
    db.session.add_all(LeagueMember(league_id=league.id, player_id=p) for p in new)
    league_books.refresh_totals(league.id, new)


def _books(game: Game, *, history: bool, result_was: tuple[str, int | None] | None = None) -> None:
    """The league's books after ``game`` was replayed; ``result_was``: its
    status and winner before (a league's streaks move only when those do)."""
    if game.league_id is not None:
        league_books.game_rewritten(game, history=history, result_changed=result_was != _result(game))


def _result(game: Game) -> tuple[str, int | None]:
    """What a league's streaks of games won see of a game: finished or not, and by whom."""
    return game.status, game.winner


@dataclass(frozen=True, slots=True)
class Placement:
    """Where and when a new game is played, besides its players, seating
    and rules: its league (or none), the time (now, if not given), the cut
    that seated it (R9, R36) and its visibility outside a league (one in a
    league follows its league's)."""

    league_id: int | None = None
    played_at: datetime | None = None
    cut: dict[str, str] | None = field(default=None, hash=False)
    visibility: str = PUBLIC


def _new_game(
    players: list[int],
    rules: Rules | PresetRules,
    box: PlayerId,
    captain: PlayerId,
    sitter: PlayerId | None,
    placement: Placement,
) -> Game:
    """A new game's row at version 0, in the session, seated first as
    ``box``, ``captain`` and ``sitter`` (a two-player game's dealer,
    non-dealer and, in cutthroat, sitter), its state not yet derived."""
    league_id = placement.league_id
    game = Game(
        visibility=None if league_id is not None else placement.visibility,
        players=players,
        rules=rules.as_dict(),
        league_id=league_id,
        played_at=placement.played_at or now(),
        cut=placement.cut,
        first_box=box,
        first_captain=captain,
        first_sitter=sitter,
        version=0,
    )
    db.session.add(game)
    return game


def _started(game: Game) -> tuple[Game, str | None]:
    """A new game, its state derived, written with its league's books and
    its event; and its own key when it is outside a league (shown once)."""
    db.session.flush()
    if game.league_id is not None:
        league_books.game_started(game)
    add_event(game.id, game.version, "game_started")
    key = None if game.league_id is not None else ApiKey.issue(game_id=game.id)[1]
    return game, key


def start_game(
    players: list[int],
    roles: Roles,
    rules: Rules,
    placement: Placement,
) -> tuple[Game, str | None]:
    """A new game, and its own key when it is outside a league (shown once)."""
    game = _new_game(players, rules, roles.box, roles.captain, roles.sitter, placement)
    game.apply(replay(rules, roles, []))
    return _started(game)


def start_two_player_game(
    players: list[int],
    seating: Seating | CutthroatSeating,
    rules: PresetRules,
    placement: Placement,
) -> tuple[Game, str | None]:
    """A new game under a two-player preset (R27, R28) or cutthroat (R36, its
    sitter seated too), and its own key when it is outside a league (shown once). ``visibility`` is a game's outside
    a league; one in a league follows its league's."""
    sitter = int(seating.sitter) if isinstance(seating, CutthroatSeating) else None
    game = _new_game(players, rules, int(seating.dealer), int(seating.non_dealer), sitter, placement)
    game.apply_two_player(game.replay_two_player())
    return _started(game)


_R = TypeVar("_R", Recorded, RecordedTwoPlayer)


def _appended(game: GameRow, recorded: _R, by: int | None) -> _R:
    """A hand just written as the next of ``game``: its league's books
    brought along, its revision kept (the change's event, too)."""
    if game.league_id is not None:
        league_books.hand_appended(recorded)
    add_revision(game.id, recorded.hand, "recorded", recorded.game.scores, version=recorded.game.version, key_id=by)
    return recorded


def record_two_player_hand(game: GameRow, judged: PresetJudged, *, by: int | None) -> RecordedTwoPlayer:
    """The next hand of a two-player game, in the seating the game expects
    (R28); none after the win (R30). ``by``: the id of the key that records it."""
    recorded = record_two_player(game, judged.knocker, judged.score, judged.input, judged.ruling, judged.mode)
    return _appended(game, recorded, by)


def record_hollywood_hand(game: GameRow, judged: PresetJudged, *, by: int | None) -> RecordedTwoPlayer:
    """The next hand of a Hollywood match (R34), in the seating the match
    expects (R28); none once its three columns are won. The match's stored
    state advanced by this hand: a won hand entered in the columns R34
    names. ``by``: the id of the key that records it."""
    recorded = record_hollywood(game, judged.knocker, judged.score, judged.input, judged.ruling, judged.mode)
    return _appended(game, recorded, by)


def record_cutthroat_hand(game: Game, judged: PresetJudged, *, by: int | None) -> Hand:
    """The next hand of a cutthroat game (R36), in the seating the game
    expects: the dealer and non-dealer play, the sitter sits out; none after
    the win. The game is the fold of its log, with this hand. ``by``:
    the id of the key that records it."""
    state = cast(CutthroatState, game.replay_two_player())
    verify_can_record_cutthroat(state)  # R36: a 409 naming the winner
    seating = state.seating
    assert seating is not None
    hand = Hand(
        number=state.hands_played + 1,
        box=int(seating.dealer),
        captain=int(seating.non_dealer),
        sitter=int(seating.sitter),
        scores_after={},
        seating_follows=True,
        recorded_at=now(),
    )
    hand.set_result(judged.knocker, judged.score, judged.input, judged.ruling, judged.mode)
    before = league_books.figures_of(game) if game.league_id is not None else None
    game.hands.append(hand)
    game.apply_two_player(game.replay_two_player())  # its running scores, each hand's, with it
    db.session.flush()
    if before is not None:  # the league's books move by this one hand, as a two-player hand's do
        league_books.hand_added(game, hand.number, hand.two_player_record(), league_books.figures_moved(before, game))
    add_revision(game.id, hand, "recorded", game.scores, version=game.version, key_id=by)
    return hand


def change_preset_rules(game: Game, rules: PresetRules) -> None:
    """New rules of a two-player game, before the first hand (the view checks that)."""
    game.rules = rules.as_dict()
    game.apply_two_player(game.replay_two_player())
    _books(game, history=False)
    add_event(game.id, game.version, "rules_changed")


def change_rules(game: Game, rules: Rules) -> None:
    """New rule options, before the first hand (the view checks that)."""
    game.rules = rules.as_dict()
    game.apply(replay(rules, game.first_roles, []))
    _books(game, history=False)
    add_event(game.id, game.version, "rules_changed")


def set_game_visibility(game: Game, visibility: str) -> None:
    """Make a game outside a league public or private (the view checks that
    it is outside one). Its answers change, so its version (ETag) does."""
    if game.visibility != visibility:
        game.visibility = visibility
        game.version += 1
        add_event(game.id, game.version, "visibility_changed")


def set_league_visibility(league: League, visibility: str) -> None:
    """Make a league, and with it every game in it, public or private."""
    league.visibility = visibility


def record_next_hand(game: GameRow, judged: Judged, *, by: int | None) -> Recorded:
    """The next hand, in the seating the game expects (R11); none after the win (R20).
    ``by``: the id of the key that records it."""
    verify_can_record(game.state())
    recorded = record_hand(game, judged.knocker, judged.score, judged.input, judged.ruling, judged.mode)
    return _appended(game, recorded, by)


def _replayed(game: Game) -> GameState:
    return replay(game.rule_options, game.first_roles, game.records())


def _rederive(game: Game) -> None:
    """R26: the game is the fold of its log again (raises GameStateError when
    the log strands hands after a win)."""
    if game.two_player:
        game.apply_two_player(game.replay_two_player())
    else:
        game.apply(_replayed(game))


def correct_hand(
    game: Game,
    hand: Hand,
    judged: Judged | PresetJudged,
    *,
    by: int | None,
    reason: str | None = None,
    dispute_id: int | None = None,
) -> None:
    """Re-judge a past hand with the seating it was played in (R26): later
    hands stand, and the game is the fold of its log again. The hand's new
    version joins its revisions, with the key, the reason and the dispute
    that led to it."""
    result_was = _result(game)
    if game.hollywood:
        before = cast(list[TwoPlayerHand], game.two_player_records())
        hand.set_result(judged.knocker, judged.score, judged.input, judged.ruling, judged.mode)
        # R26, R34: refused when it would end the match before its last hand; says which hands moved
        after = cast(list[TwoPlayerHand], game.two_player_records())
        correction = verify_hollywood_correction(game.preset_rules, cast(Seating, game.first_seating), before, after)
        hand.corrected_at = now()
        game.apply_two_player(correction.state)
        game.sheet = {**(game.sheet or {}), "moved": [moved_dict(m) for m in correction.moved]}
    elif game.two_player:
        hand.set_result(judged.knocker, judged.score, judged.input, judged.ruling, judged.mode)
        state = game.replay_two_player()  # raises GameStateError when the correction strands later hands
        hand.corrected_at = now()
        game.apply_two_player(state)
    else:
        hand.set_result(judged.knocker, judged.score, judged.input, judged.ruling, judged.mode)
        replayed = _replayed(game)  # raises GameStateError when the correction strands later hands
        hand.corrected_at = now()
        game.apply(replayed)
    _books(game, history=True, result_was=result_was)
    add_revision(
        game.id, hand, "corrected", game.scores, version=game.version, key_id=by, reason=reason, dispute_id=dispute_id
    )


def undo_last_hand(game: Game, *, by: int | None, reason: str | None = None) -> None:
    """Take back the last hand: it leaves the hands that stand, and stays in
    its revisions as undone."""
    result_was = _result(game)
    undone = game.hands.pop()
    _rederive(game)
    _books(game, history=True, result_was=result_was)
    add_revision(game.id, undone, "undone", game.scores, version=game.version, key_id=by, reason=reason)


def open_dispute(
    game: Game, hand: Hand, by: str, claim: str, judged: Judged | PresetJudged, *, key_id: int | None
) -> Dispute:
    """Contest a recorded hand: the referee's ruling on the cards given (or on
    the hand's own) is kept beside the one recorded, with how they differ.
    The hand stays as it is until the dispute is upheld."""
    recorded = {name: hand.ruling[name] for name in ("outcome", "scorer", "points")}
    dispute = Dispute(
        game_id=game.id,
        number=hand.number,
        revision=latest_revision(game.id, hand.number),
        by=by,
        claim=claim,
        mode=judged.mode,
        knocker=None if judged.knocker is None else judged.knocker.value,
        input=judged.input,
        ruling=judged.ruling,
        recorded=recorded,
        differences=compare(recorded, judged.ruling),
        status="open",
        opened_at=now(),
        opened_key_id=key_id,
    )
    db.session.add(dispute)
    db.session.flush()
    game.version += 1  # the feed's and the read's; the hands' stays (GameView.guards)
    add_event(game.id, game.version, "dispute_opened", hand.number)
    return dispute


def resolve_dispute(
    game: Game, dispute: Dispute, decision: str, reason: str | None, *, hand: Hand | None, key_id: int | None
) -> None:
    """The table's decision: upheld corrects the hand with the dispute's ruling,
    exactly as a correction would (R26), its revision naming the dispute;
    rejected leaves the hand as it is."""
    if decision == "upheld":
        assert hand is not None and hand.number == dispute.number  # the view checks it still stands
        ruled = dispute.preset_ruled() if game.two_player else dispute.ruled()
        correct_hand(game, hand, ruled, by=key_id, reason=reason, dispute_id=dispute.id)
    dispute.status = decision
    dispute.reason = reason
    dispute.resolved_at = now()
    dispute.resolved_key_id = key_id
    game.version += 1
    add_event(game.id, game.version, "dispute_resolved", dispute.number)


def moved_dict(moved: MovedHand) -> dict[str, Any]:
    """R26, R34: a hand a correction entered in other columns, as the match keeps it."""
    return {"hand": moved.hand, "before": list(moved.before), "after": list(moved.after), "corrected": moved.corrected}


def import_league(judged: ImportedLeague, mapping: dict[int, int]) -> tuple[League, list[ImportedPlayer], str]:
    """A league rebuilt from a judged export (all of it or nothing), onto
    the existing players ``mapping`` names; what each of the document's
    players became, and the new league's key (shown once)."""
    league, players = write_imported_league(judged, mapping)
    return league, players, ApiKey.issue(league_id=league.id)[1]


def rotate_league_key(league_id: int, *, by: KeyRow) -> str:
    """The league's new key: every write key of it, and of its games (their
    scorer keys), is revoked, the one presented (``by``) among them."""
    return security.rotate_key(league_id=league_id, by=by.id)


def rotate_game_key(game: GameView, *, by: KeyRow) -> str:
    """The new key of a game outside a league (the view checks that it is)."""
    return security.rotate_key(game_id=game.id, by=by.id)


def issue_scorer_key(game: GameView) -> str:
    """A key that records one game of a league and reads it, nothing else
    (the view checks that it is in a league)."""
    return security.issue_scorer_key(game.id)


def issue_share_key(label: str, *, league_id: int | None = None, game_id: int | None = None) -> tuple[ApiKey, str]:
    """A share key to the league (or the game outside a league) with this
    label, and the key itself (shown once); the active one with the same
    label, if any, is revoked."""
    return security.issue_share_key(label, league_id=league_id, game_id=game_id)


def revoke_share_key(key_id: int, *, league_id: int | None = None, game_id: int | None = None) -> bool:
    """Revoke one active share key of the league (or game); False if it has none with this id."""
    return security.revoke_share_key(key_id, league_id=league_id, game_id=game_id)
