"""A league's whole history as JSON (and CSV), and back.

The JSON holds every game with its ``played_at``, cut, rules and every hand
with its seating, input (canonical cards) and ruling exactly as stored, and
its whole record: every revision of every hand number (undone ones too) and
every dispute. So an import rebuilds the same league: exporting it again
gives the same document apart from ids. Key ids are this server's own and
stay out of the document; a dispute's ``id`` there is its place among its
game's disputes (1, 2, ...), which a revision names as its ``dispute``. An
import is judged before anything is written
(``api.judging.judge_league``: every hand's ruling re-derived from its input,
every game replayed, R26); this module writes what was judged, in bulk.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import insert, select
from sqlalchemy.orm import selectinload

from models.books import refresh_totals
from models.database import db, insert_rows
from models.disputes import Dispute
from models.figures import FIGURE_FIELDS, THREE_HANDED, GamePlayer
from models.game import Game, Hand, Player, preset_columns, replay_preset, result_columns, state_columns
from models.league import PUBLIC, League, LeagueMember
from models.revisions import HandRevision, first_revisions
from referee import GameState, Role, Roles, Rules, Score
from referee.cutthroat import CutthroatHand, CutthroatSeating, CutthroatState
from referee.hollywood import HollywoodState
from referee.preset_hand import HandScore
from referee.presets import Preset, PresetRules
from referee.stats import Figures
from referee.two_player import Seat, Seating, TwoPlayerHand, TwoPlayerState

FORMAT = "ginref.league"
#: 2 adds each game's ``revisions`` and ``disputes``; an import reads 1 too (each hand recorded once)
FORMAT_VERSION = 2
#: 3 adds the games of the presets (R27: the two-player presets, R28, and cutthroat's
#: three players, R36): a league that holds one is exported as 3, any other as 2,
#: which every reader of 2 still reads
TWO_PLAYER_FORMAT_VERSION = 3


#: a dispute's members in an export document, as its columns hold them (its times are written apart)
DISPUTE_FIELDS = (
    "number",
    "by",
    "claim",
    "mode",
    "knocker",
    "input",
    "ruling",
    "recorded",
    "differences",
    "status",
    "reason",
)


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def league_games(league_id: int) -> list[Game]:
    return list(
        db.session.scalars(
            select(Game)
            .where(Game.league_id == league_id)
            .order_by(Game.played_at, Game.id)
            .options(selectinload(Game.hands))
        )
    )


def _record(league_id: int) -> tuple[dict[int, list[dict[str, Any]]], dict[int, list[dict[str, Any]]]]:
    """The league's revisions and disputes as the document has them, by game id."""
    in_league = select(Game.id).where(Game.league_id == league_id)
    disputes: dict[int, list[dict[str, Any]]] = {}
    local: dict[int, int] = {}  # dispute id -> its id in the document
    for d in db.session.scalars(select(Dispute).where(Dispute.game_id.in_(in_league)).order_by(Dispute.id)):
        of_game = disputes.setdefault(d.game_id, [])
        local[d.id] = len(of_game) + 1
        of_game.append(
            {
                "id": local[d.id],
                **{name: getattr(d, name) for name in DISPUTE_FIELDS},
                "opened_at": _iso(d.opened_at),
                "resolved_at": _iso(d.resolved_at),
            }
        )
    revisions: dict[int, list[dict[str, Any]]] = {}
    query = (
        select(HandRevision)
        .where(HandRevision.game_id.in_(in_league))
        .order_by(HandRevision.game_id, HandRevision.number, HandRevision.revision)
    )
    for r in db.session.scalars(query):
        revisions.setdefault(r.game_id, []).append(
            {
                "number": r.number,
                "revision": r.revision,
                "action": r.action,
                "mode": r.mode,
                "seating": r.seats.as_dict(),
                "knocker": r.knocker,
                "input": r.input,
                "ruling": r.ruling,
                "scores": r.scores_after,
                "game_scores": r.game_scores,
                "made_at": _iso(r.made_at),
                "reason": r.reason,
                "dispute": None if r.dispute_id is None else local.get(r.dispute_id),
            }
        )
    return revisions, disputes


def export_league(league: League) -> dict[str, Any]:
    members = db.session.execute(
        select(Player.id, Player.name)
        .join(LeagueMember, LeagueMember.player_id == Player.id)
        .where(LeagueMember.league_id == league.id)
        .order_by(Player.id)
    ).all()
    games = []
    revisions, disputes = _record(league.id)
    two_player = False
    for game in league_games(league.id):
        two_player = two_player or game.two_player
        games.append(
            {
                "id": game.id,
                "played_at": _iso(game.played_at),
                "players": game.players,
                "cut": game.cut,
                "first_roles": game.first_seats.as_dict(),
                "rules": game.rules,
                "status": game.status,
                "scores": game.scores,
                "winner": game.winner,
                "hands": [
                    {
                        "number": h.number,
                        "mode": h.mode,
                        "seating": h.seats.as_dict(),
                        "knocker": h.knocker,
                        "input": h.input,
                        "ruling": h.ruling,
                        "recorded_at": _iso(h.recorded_at),
                        "corrected_at": _iso(h.corrected_at),
                    }
                    for h in game.hands
                ],
                "revisions": revisions.get(game.id, []),
                "disputes": disputes.get(game.id, []),
            }
        )
    return {
        "format": FORMAT,
        "format_version": TWO_PLAYER_FORMAT_VERSION if two_player else FORMAT_VERSION,
        "league": {"id": league.id, "name": league.name, "visibility": league.visibility},
        "players": [{"id": pid, "name": name} for pid, name in members],
        "games": games,
    }


CSV_COLUMNS = [
    "game_id",
    "played_at",
    "hand",
    "mode",
    "box_id",
    "box",
    "captain_id",
    "captain",
    "sitter_id",
    "sitter",
    "knocker",
    "outcome",
    "scorer_id",
    "scorer",
    "points",
    "box_score",
    "captain_score",
    "sitter_score",
    "seating_follows",
]


#: what a spreadsheet reads as the start of a formula (OWASP, "CSV Injection")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """A cell of free text (a player's name) as a spreadsheet shows it and
    runs none of it: one starting with a formula's character gets a leading
    ``'``, OWASP's advice. Numbers are written as numbers, never through here.

    >>> csv_text("=HYPERLINK(0)"), csv_text("Ann")
    ("'=HYPERLINK(0)", 'Ann')
    """
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def export_csv(league: League) -> str:
    """One row per hand: roles, outcome, points and running scores. A
    two-player hand's dealer and non-dealer stand in the box's and the
    captain's columns, its sitter's are empty and its knocker says ``dealer``
    or ``non_dealer`` (R28); a cutthroat hand's are the same, and its sitter's
    columns name the player who sat it out (R36). A preset's hand is scored
    by its winner (R11), never its sitter. Names are :func:`csv_text`: the
    export's reader opens it in a spreadsheet."""
    names = {
        player_id: csv_text(name)
        for player_id, name in db.session.execute(
            select(Player.id, Player.name)
            .join(LeagueMember, LeagueMember.player_id == Player.id)
            .where(LeagueMember.league_id == league.id)
        ).all()
    }
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in league_games(league.id):
        for h in game.hands:
            scored_by = h.two_player_record().winner_player if game.two_player else h.record().scorer
            scorer = None if scored_by is None else int(scored_by)
            scores = h.scores_after
            writer.writerow(
                [
                    game.id,
                    _iso(game.played_at),
                    h.number,
                    h.mode,
                    h.box,
                    names.get(h.box),
                    h.captain,
                    names.get(h.captain),
                    h.sitter,
                    names.get(cast(int, h.sitter), ""),  # a two-player hand has no sitter (R28), cutthroat's has (R36)
                    h.knocker or "",
                    h.outcome,
                    scorer if scorer is not None else "",
                    names.get(scorer) if scorer is not None else "",
                    h.points,
                    scores.get(str(h.box)),
                    scores.get(str(h.captain)),
                    scores.get(str(h.sitter)),
                    "true" if h.seating_follows else "false",
                ]
            )
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class ImportedHand:
    """A hand of an import as the referee judged it again from its input (in
    the document's player ids): the ruling is the referee's, the input its
    canonical form. A two-player game's (R28) is seated by its dealer and
    non-dealer (and a cutthroat game's, R36, by its sitter too), its knocker
    a seat and its score a preset's."""

    number: int
    seating: Roles | Seating | CutthroatSeating
    knocker: Role | Seat | None
    score: Score | HandScore
    mode: str
    input: dict[str, Any]
    ruling: dict[str, Any]
    recorded_at: datetime
    corrected_at: datetime | None


@dataclass(frozen=True, slots=True)
class ImportedRevision:
    """A version of a hand of an import, judged again (in the document's
    player ids); ``dispute`` is the document's id of the dispute upheld."""

    number: int
    revision: int
    action: str
    mode: str
    seating: Roles | Seating | CutthroatSeating
    knocker: str | None
    input: dict[str, Any]
    ruling: dict[str, Any]
    scores: dict[int, int]
    game_scores: dict[int, int]
    made_at: datetime
    reason: str | None
    dispute: int | None


@dataclass(frozen=True, slots=True)
class ImportedDispute:
    """A dispute of an import, its ruling the referee's on its input; ``id``
    is the document's."""

    id: int
    number: int
    by: str
    claim: str
    mode: str
    knocker: str | None
    input: dict[str, Any]
    ruling: dict[str, Any]
    recorded: dict[str, Any]
    differences: list[dict[str, Any]]
    status: str
    reason: str | None
    opened_at: datetime
    resolved_at: datetime | None


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A game of an import: its hands, and the replay of them (``state``,
    with the running scores) and its players' figures; its revisions
    (``None`` for a document of format 1: each hand then has one, as
    recorded) and disputes."""

    played_at: datetime
    players: list[int]
    rules: Rules | PresetRules
    cut: dict[int, str] | None
    first_roles: Roles | Seating | CutthroatSeating
    hands: list[ImportedHand]
    state: GameState | TwoPlayerState | HollywoodState | CutthroatState
    figures: dict[int, Figures]
    revisions: list[ImportedRevision] | None = None
    disputes: list[ImportedDispute] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ImportedLeague:
    """A whole import document, judged: the league's name, its players
    (document id, name), games and visibility."""

    name: str
    players: list[tuple[int, str]]
    games: list[ImportedGame]
    visibility: str = PUBLIC


@dataclass(frozen=True, slots=True)
class ImportedPlayer:
    """A player of an import document and the player it became: an existing
    one (``created`` false: it keeps its name) or one made for the import."""

    document_id: int
    id: int
    name: str
    created: bool


#: games (with their hands and figures) per batch of INSERTs: the rows of one batch are held at once
GAME_BATCH = 100


def import_league(doc: ImportedLeague, mapped: Mapping[int, int] | None = None) -> tuple[League, list[ImportedPlayer]]:
    """Write a judged import (see ``api.judging.judge_league``) as a new
    league with new ids for its games. Its players are the existing players
    ``mapped`` names (document id -> player id, each an existing player, two
    document players never onto one: the caller checks) and new players for
    the others. A few bulk inserts, no object per hand. Adds to the session;
    the caller commits (or rolls back). Returns the league and, in the
    document's order, what each of its players became."""
    mapped = dict(mapped or {})
    league = League(name=doc.name, history_version=1, ratings_stale=True, streaks_stale=True, visibility=doc.visibility)
    db.session.add(league)
    db.session.flush()
    connection = db.session.connection()
    now = datetime.now(UTC)
    names: dict[int, str] = {}
    if mapped:
        names = dict(
            db.session.execute(select(Player.id, Player.name).where(Player.id.in_(list(mapped.values())))).all()
        )
    created = [(pid, name) for pid, name in doc.players if pid not in mapped]
    new_ids: dict[int, int] = {}
    if created:
        new = (
            connection.execute(
                insert(_PLAYERS).returning(_PLAYERS.c.id, sort_by_parameter_order=True),
                [{"name": name, "created_at": now} for _, name in created],
            )
            .scalars()
            .all()
        )
        new_ids = dict(zip((pid for pid, _ in created), new, strict=True))
    players = [
        ImportedPlayer(pid, mapped[pid], names[mapped[pid]], False)
        if pid in mapped
        else ImportedPlayer(pid, new_ids[pid], name, True)
        for pid, name in doc.players
    ]
    ids = {p.document_id: p.id for p in players}
    if ids:
        connection.execute(
            insert(_MEMBERS), [{"league_id": league.id, "player_id": p, "joined_at": now} for p in ids.values()]
        )
    for start in range(0, len(doc.games), GAME_BATCH):
        games = doc.games[start : start + GAME_BATCH]
        game_ids = (
            connection.execute(
                insert(_GAMES).returning(_GAMES.c.id, sort_by_parameter_order=True),
                [_game_row(game, ids, league.id, now) for game in games],
            )
            .scalars()
            .all()
        )
        figures: list[dict[str, Any]] = []
        hands: list[dict[str, Any]] = []
        recorded_once: list[dict[str, Any]] = []  # the hands of games of format 1
        revisions: list[dict[str, Any]] = []
        disputes = _dispute_ids(connection, games, game_ids)
        for game, game_id in zip(games, game_ids, strict=True):
            for player, f in game.figures.items():
                figures.append(
                    {
                        "game_id": game_id,
                        "player_id": ids[player],
                        "league_id": league.id,
                        "played_at": game.played_at,
                        "preset": game.rules.preset.value if isinstance(game.rules, PresetRules) else THREE_HANDED,
                        **{n: getattr(f, n) for n in FIGURE_FIELDS},
                    }
                )
            out_of_turn = set(game.state.out_of_turn)
            entered = game.state.entered if isinstance(game.state, HollywoodState) else None
            rows = [
                _hand_row(hand, running, ids, game_id, hand.number not in out_of_turn)
                | {"columns": None if entered is None else list(entered[i])}  # R34
                for i, (hand, running) in enumerate(zip(game.hands, game.state.running, strict=True))
            ]
            hands.extend(rows)
            if game.revisions is None:
                recorded_once.extend(rows)
            else:
                revisions.extend(_revision_row(r, ids, game_id, disputes) for r in game.revisions)
        insert_rows(_GAME_PLAYERS, figures)
        insert_rows(_HANDS, hands)
        if recorded_once:
            first_revisions(recorded_once)
        insert_rows(_REVISIONS, revisions)
    refresh_totals(league.id, ids.values())
    return league, players


def _mapped(roles: Roles | Seating | CutthroatSeating, ids: dict[int, int]) -> dict[str, int | None]:
    """A hand's seats as the hand table's columns, in the new ids (a two-player
    hand's dealer as its box, its non-dealer as its captain, R28; a cutthroat
    hand's sitter as its sitter, R36)."""
    if isinstance(roles, CutthroatSeating):
        return {"box": ids[int(roles.dealer)], "captain": ids[int(roles.non_dealer)], "sitter": ids[int(roles.sitter)]}
    if isinstance(roles, Seating):
        return {"box": ids[int(roles.dealer)], "captain": ids[int(roles.non_dealer)], "sitter": None}
    return {"box": ids[int(roles.box)], "captain": ids[int(roles.captain)], "sitter": ids[int(roles.sitter)]}


def _two_player_columns(game: ImportedGame, ids: dict[int, int]) -> dict[str, Any]:
    """A two-player game's derived columns (R28-R31), or a cutthroat game's
    (R36), its fold replayed in the new ids."""
    rules = game.rules
    assert isinstance(rules, PresetRules) and not isinstance(game.first_roles, Roles)
    if rules.preset is Preset.CUTTHROAT:
        assert isinstance(game.first_roles, CutthroatSeating)

        def seated(seating: CutthroatSeating) -> CutthroatSeating:
            return CutthroatSeating(ids[int(seating.dealer)], ids[int(seating.non_dealer)], ids[int(seating.sitter)])

        played = [
            CutthroatHand(
                seated(cast(CutthroatSeating, h.seating)), cast(Seat | None, h.knocker), cast(HandScore, h.score)
            )
            for h in game.hands
        ]
        return preset_columns(rules, replay_preset(rules, seated(game.first_roles), played))
    assert isinstance(game.first_roles, Seating)

    def moved(seating: Seating) -> Seating:
        return Seating(ids[int(seating.dealer)], ids[int(seating.non_dealer)])

    hands = [
        TwoPlayerHand(moved(cast(Seating, h.seating)), cast(Seat | None, h.knocker), cast(HandScore, h.score))
        for h in game.hands
    ]
    return preset_columns(rules, replay_preset(rules, moved(game.first_roles), hands))


def _game_row(game: ImportedGame, ids: dict[int, int], league_id: int, now: datetime) -> dict[str, Any]:
    state = game.state
    first = _mapped(game.first_roles, ids)
    if isinstance(state, TwoPlayerState | HollywoodState | CutthroatState):
        columns = _two_player_columns(game, ids)
    else:
        columns = state_columns(
            GameState(
                {ids[int(p)]: n for p, n in state.scores.items()},
                None if state.roles is None else Roles(**cast(dict[str, int], _mapped(state.roles, ids))),
                None if state.winner is None else ids[int(state.winner)],
                state.hands_played,
                state.out_of_turn,
            )
        )
        columns.update(boxes=None, sheet=None, result=None)  # a three-handed game's (every row of a batch has them)
    return {
        **columns,
        "players": [ids[p] for p in game.players],
        "rules": game.rules.as_dict(),
        "cut": None if game.cut is None else {str(ids[p]): card for p, card in game.cut.items()},
        "first_box": first["box"],
        "first_captain": first["captain"],
        "first_sitter": first["sitter"],
        "version": 1,
        "hands_version": 1,
        "created_at": now,
        "league_id": league_id,
        "played_at": game.played_at,
    }


def _hand_row(
    hand: ImportedHand, running: dict[Any, int], ids: dict[int, int], game_id: int, follows: bool
) -> dict[str, Any]:
    return {
        **result_columns(hand.knocker, hand.score, hand.input, hand.ruling, hand.mode),
        **_mapped(hand.seating, ids),
        "game_id": game_id,
        "number": hand.number,
        "scores_after": {str(ids[int(p)]): n for p, n in running.items()},
        "seating_follows": follows,
        "recorded_at": hand.recorded_at,
        "corrected_at": hand.corrected_at,
    }


def _dispute_ids(connection: Any, games: list[ImportedGame], game_ids: Sequence[int]) -> dict[tuple[int, int], int]:
    """Insert the disputes of a batch of games: (game id, document id) -> new id."""
    rows = [(game, game_id, d) for game, game_id in zip(games, game_ids, strict=True) for d in game.disputes]
    if not rows:
        return {}
    new = (
        connection.execute(
            insert(_DISPUTES).returning(_DISPUTES.c.id, sort_by_parameter_order=True),
            [
                {
                    "game_id": game_id,
                    **{name: getattr(d, name) for name in DISPUTE_FIELDS},
                    "revision": _disputed_revision(game, d),
                    "opened_at": d.opened_at,
                    "opened_key_id": None,
                    "resolved_at": d.resolved_at,
                    "resolved_key_id": None,
                }
                for game, game_id, d in rows
            ],
        )
        .scalars()
        .all()
    )
    return {(game_id, d.id): n for (_, game_id, d), n in zip(rows, new, strict=True)}


def _disputed_revision(game: ImportedGame, dispute: ImportedDispute) -> int | None:
    """The revision of its hand that stood when the dispute was opened (a
    document keeps no more than when each was made)."""
    made = [r.revision for r in game.revisions or () if r.number == dispute.number and r.made_at <= dispute.opened_at]
    return max(made, default=None)


def _revision_row(
    r: ImportedRevision, ids: dict[int, int], game_id: int, disputes: dict[tuple[int, int], int]
) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "number": r.number,
        "revision": r.revision,
        "action": r.action,
        "mode": r.mode,
        **_mapped(r.seating, ids),
        "knocker": r.knocker,
        "input": r.input,
        "ruling": r.ruling,
        "scores_after": {str(ids[p]): n for p, n in r.scores.items()},
        "game_scores": {str(ids[p]): n for p, n in r.game_scores.items()},
        "made_at": r.made_at,
        "key_id": None,
        "reason": r.reason,
        "dispute_id": None if r.dispute is None else disputes[(game_id, r.dispute)],
    }


_PLAYERS = Player.__table__
_MEMBERS = LeagueMember.__table__
_GAMES = Game.__table__
_HANDS = Hand.__table__
_GAME_PLAYERS = GamePlayer.__table__
_REVISIONS = HandRevision.__table__
_DISPUTES = Dispute.__table__
