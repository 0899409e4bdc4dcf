"""Players, games and hands.

A hand row keeps everything needed to show its ruling again exactly as made:
the canonical input, the seating as played and the ruling. A game's scores,
roles and winner are the fold of its hands' stored rulings (referee.replay),
kept on the game row in the same transaction as every change to its hands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, UniqueConstraint, bindparam, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.database import UTCDateTime, db, now
from models.figures import FIGURE_FIELDS, GamePlayer, add_figures, kept_figures
from models.statement import Statement
from referee import GameState, HandRecord, Outcome, Role, Roles, Rules, Score, Side
from referee.cutthroat import (
    CutthroatHand,
    CutthroatResult,
    CutthroatSeating,
    CutthroatState,
    explain_cutthroat_result,
    replay_cutthroat,
)
from referee.game import advance
from referee.hollywood import (
    Column,
    HollywoodState,
    advance_hollywood,
    match_result,
    replay_hollywood,
    verify_can_record_hollywood,
)
from referee.preset_hand import DRAW_SCORE, HandScore
from referee.presets import Preset, PresetRules, resolve_rules
from referee.roles import PlayerId
from referee.sheet import GameResult, PlayerTotal, ScoreSheet, explain_result
from referee.stats import Figures, add_hand, add_two_player_hand, finish, two_player_game_figures
from referee.steps import Step
from referee.two_player import (
    Seat,
    Seating,
    TwoPlayerHand,
    TwoPlayerState,
    advance_two_player,
    replay_two_player,
    verify_can_record_two_player,
)

HOLLYWOOD = Preset.HOLLYWOOD.value
CUTTHROAT = Preset.CUTTHROAT.value

#: a game's fold under a preset (R28-R36), and a hand of it as the fold replays it
PresetState = TwoPlayerState | HollywoodState | CutthroatState
PresetHand = TwoPlayerHand | CutthroatHand


def game_etag(game_id: int, version: int) -> str:
    """A game's ETag at ``version``: any change to it moves the version."""
    return f'"g{game_id}v{version}"'


class Player(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "player"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


_ETAG = re.compile(r"g(?P<game>[0-9]{1,10})v(?P<version>[0-9]{1,10})")


class GameView:
    """What a game row says, for a :class:`Game` and a :class:`GameRow` alike."""

    if TYPE_CHECKING:
        id: int
        players: list[int]
        rules: dict[str, int]
        cut: dict[str, str] | None
        league_id: int | None
        played_at: datetime
        created_at: datetime
        first_box: int
        first_captain: int
        first_sitter: int | None
        scores: dict[str, int]
        roles: dict[str, int] | None
        winner: int | None
        hands_played: int
        out_of_turn: list[int]
        version: int
        hands_version: int
        visibility: str | None
        boxes: dict[str, int] | None
        sheet: dict[str, Any] | None
        result: dict[str, Any] | None

    @property
    def two_player(self) -> bool:
        """R27, R28: a game under a two-player preset (its stored rules name
        the preset; a three-handed game's never do, as before presets)."""
        return "preset" in self.rules

    @property
    def hollywood(self) -> bool:
        """R34: a Hollywood match, three columns scored from one run of hands."""
        return self.rules.get("preset") == HOLLYWOOD

    @property
    def cutthroat(self) -> bool:
        """R36: three players, two of whom play each hand while the third sits out."""
        return self.rules.get("preset") == CUTTHROAT

    @property
    def match_columns(self) -> list[dict[str, Any]] | None:
        """R34: a Hollywood match's three columns as its row keeps them (None for any other game)."""
        if not self.hollywood or self.sheet is None:
            return None
        return [{name: column[name] for name in SHOWN_COLUMN_KEYS} for column in self.sheet["columns"]]

    @property
    def match_result(self) -> dict[str, Any] | None:
        """R34: a Hollywood match's result once its three columns are won."""
        return self.result if self.hollywood else None

    @property
    def game_result(self) -> dict[str, Any] | None:
        """R31: a two-player game's result once won (a Hollywood match's columns have theirs)."""
        return None if self.hollywood else self.result

    @property
    def moved(self) -> list[dict[str, Any]] | None:
        """R26, R34: the hands the last correction of a Hollywood match entered in other columns."""
        return None if not self.hollywood else list((self.sheet or {}).get("moved", []))

    @property
    def preset_rules(self) -> PresetRules:
        """The game's resolved rules (R27), of any preset."""
        return stored_rules(self.rules)

    @property
    def first_seats(self) -> Roles | Seating | CutthroatSeating:
        """The first hand's roles (R8), or its dealer and non-dealer (R28), and its sitter in cutthroat (R36)."""
        return self.first_seating if self.two_player else self.first_roles

    @property
    def first_seating(self) -> Seating | CutthroatSeating:
        """R28: who dealt the first hand of a two-player game; R36: and who sat it out, in cutthroat."""
        if self.first_sitter is not None:
            return CutthroatSeating(self.first_box, self.first_captain, self.first_sitter)
        return Seating(self.first_box, self.first_captain)

    @property
    def status(self) -> str:
        """R20: finished once someone has won; a Hollywood match once its three
        columns are won, with its result, though its totals may be equal (R34)."""
        if self.hollywood:
            return "in_progress" if self.result is None else "finished"
        return "in_progress" if self.winner is None else "finished"

    @property
    def first_roles(self) -> Roles:
        """The first hand's roles of a three-handed game (R8)."""
        return Roles(box=self.first_box, captain=self.first_captain, sitter=cast(int, self.first_sitter))

    @property
    def next_roles(self) -> Roles | None:
        return None if self.roles is None else Roles(**self.roles)

    @property
    def rule_options(self) -> Rules:
        return Rules(**self.rules)

    @property
    def etag(self) -> str:
        return game_etag(self.id, self.version)

    def guards(self, tag: str) -> bool:
        """Whether an ETag of this game still guards a write to its hands or
        rules: it names a version at or after the last change to them (a
        dispute opened or rejected, or the visibility changed, moves the
        version and the read's ETag, not what a hand's write is checked
        against)."""
        match = _ETAG.fullmatch(tag)
        return (
            match is not None
            and int(match["game"]) == self.id
            and self.hands_version <= int(match["version"]) <= self.version
        )

    def state(self) -> GameState:
        """The stored state (what :func:`referee.replay` of the hands gave)."""
        return GameState(
            {int(p): n for p, n in self.scores.items()},
            self.next_roles,
            self.winner,
            self.hands_played,
            tuple(self.out_of_turn),
        )


def stored_rules(stored: Mapping[str, Any]) -> PresetRules:
    """A game's stored rules, resolved again (R27): the preset and its options
    (made once for each set of rules: a hand's write reads them twice)."""
    return _resolved(tuple(stored.items()))


@lru_cache(maxsize=256)
def _resolved(items: tuple[tuple[str, Any], ...]) -> PresetRules:
    stored = dict(items)
    options = {k: v for k, v in stored.items() if k != "preset"}
    return resolve_rules(stored.get("preset", "three_handed"), options)


def _steps_list(steps: Iterable[Step]) -> list[dict[str, Any]]:
    """A result's explanation as the game row keeps it: each step's rule, code, params and text."""
    return [{"rule": s.rule, "code": s.code.value, "params": dict(s.params), "text": s.text} for s in steps]


def _totals_dict(totals: Mapping[PlayerId, PlayerTotal]) -> dict[str, dict[str, Any]]:
    """R31: each player's total and its parts, as a finished game's row keeps them."""
    return {
        str(p): {
            "hand_points": t.hand_points,
            "box_bonus": t.box_bonus,
            "game_bonus": t.game_bonus,
            "shutout": t.shutout,
            "total": t.total,
        }
        for p, t in totals.items()
    }


def result_dict(rules: PresetRules, result: GameResult | None) -> dict[str, Any] | None:
    """R31: a finished two-player game's result as the game row keeps it, with its explanation."""
    if result is None:
        return None
    steps = _steps_list(explain_result(rules, result))
    return {
        "winner": int(result.winner),
        "loser": int(result.loser),
        "shutout": result.shutout,
        "net": result.net,
        "totals": _totals_dict(result.totals),
        "explanation": steps,
    }


def cutthroat_result_dict(rules: PresetRules, result: CutthroatResult | None) -> dict[str, Any] | None:
    """R36: a finished cutthroat game's result as the game row keeps it: the
    winner, the players shut out, each player's total with its parts, each
    pair's net (the one ahead first), and its explanation."""
    if result is None:
        return None
    steps = _steps_list(explain_cutthroat_result(rules, result))
    return {
        "winner": int(result.winner),
        "shut_out": [int(p) for p in result.shut_out],
        "totals": _totals_dict(result.totals),
        "nets": [{"ahead": int(n.ahead), "behind": int(n.behind), "net": n.net} for n in result.nets],
        "explanation": steps,
    }


def _seated_columns(state: PresetState) -> dict[str, Any]:
    """What every two-player game row keeps of its state (R28): scores, the next
    seating, winner, hands played, R26 marks and boxes (R29)."""
    seating = state.seating
    return {
        "scores": {str(p): n for p, n in state.scores.items()},
        "roles": None if seating is None else {k: int(v) for k, v in seating.as_dict().items()},
        "winner": None if state.winner is None else int(state.winner),
        "hands_played": state.hands_played,
        "out_of_turn": list(state.out_of_turn),
        "boxes": {str(p): n for p, n in state.boxes.items()},
    }


def two_player_columns(rules: PresetRules, state: TwoPlayerState | CutthroatState) -> dict[str, Any]:
    """A two-player game row's columns derived from its hands (R28-R31), or a cutthroat game's (R36)."""
    return {
        **_seated_columns(state),
        "result": cutthroat_result_dict(rules, state.result)
        if isinstance(state, CutthroatState)
        else result_dict(rules, state.result),
        "sheet": {
            "hand_points": {str(p): n for p, n in state.sheet.hand_points.items()},
            "hands_won": {str(p): n for p, n in state.sheet.hands_won.items()},
        },
    }


#: R34: what a column of a match shows (GameView.match_columns); the rest of a
#: stored column is the rest of its score sheet, kept for the next hand's write
SHOWN_COLUMN_KEYS = ("number", "scores", "boxes", "hands", "winner", "won_at", "result")


def column_dict(rules: PresetRules, column: Column) -> dict[str, Any]:
    """R34: one column of a Hollywood match as the game row keeps it: its
    running scores, boxes, the hands entered in it, its winner and the hand
    that won it, and its result (R29-R31) once won; and, not shown
    (:attr:`GameView.match_columns`), the rest of its score sheet for the
    next hand's write: each player's hand points and hands won."""
    return {
        "number": column.number,
        "scores": {str(p): n for p, n in column.scores.items()},
        "boxes": {str(p): n for p, n in column.boxes.items()},
        "hands": [entry.hand for entry in column.entries],
        "winner": None if column.winner is None else int(column.winner),
        "won_at": column.won_at,
        "result": result_dict(rules, column.result),
        "hand_points": {str(p): n for p, n in column.sheet.hand_points.items()},
        "hands_won": {str(p): n for p, n in column.sheet.hands_won.items()},
    }


def hollywood_columns(
    rules: PresetRules, state: HollywoodState, columns: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """A Hollywood match's game row columns derived from its hands (R34): the
    summed scores and boxes, the next seating, the player ahead once it is
    over, its three columns (in ``sheet``: ``columns`` when given, else each
    :func:`column_dict`) and the match's result."""
    result = state.result
    return {
        **_seated_columns(state),
        "result": None
        if result is None
        else {
            "totals": {str(p): n for p, n in result.totals.items()},
            "winner": None if result.winner is None else int(result.winner),
            "net": result.net,
        },
        "sheet": {"columns": [column_dict(rules, column) for column in state.columns] if columns is None else columns},
    }


def replay_preset(rules: PresetRules, first: Seating | CutthroatSeating, hands: Sequence[PresetHand]) -> PresetState:
    """R26: a preset game's fold: a Hollywood match's three columns (R34), a
    cutthroat game of three (R36), or one game of two (R28-R31)."""
    if isinstance(first, CutthroatSeating):
        return replay_cutthroat(rules, first, cast(Sequence[CutthroatHand], hands))
    two = cast(Sequence[TwoPlayerHand], hands)
    if rules.preset is Preset.HOLLYWOOD:
        return replay_hollywood(rules, first, two)
    return replay_two_player(rules, first, two)


def preset_columns(rules: PresetRules, state: PresetState) -> dict[str, Any]:
    """A two-player game row's derived columns, for either fold (:func:`replay_preset`)."""
    if isinstance(state, HollywoodState):
        return hollywood_columns(rules, state)
    return two_player_columns(rules, state)


def stored_two_player_state(game: GameView) -> TwoPlayerState:
    """The stored state of a two-player game (what :func:`replay_two_player`
    of its hands gave), to advance by one hand without reading them."""
    players = tuple(game.players)
    sheet = game.sheet
    assert game.boxes is not None and sheet is not None  # a two-player game's row keeps them
    by_player = {str(p): p for p in players}

    def of(values: Mapping[str, int]) -> dict[PlayerId, int]:
        return {by_player[k]: n for k, n in values.items()}

    score_sheet = ScoreSheet(
        players,
        of(game.scores),
        of(sheet["hand_points"]),
        of(game.boxes),
        of(sheet["hands_won"]),
        game.winner,
    )
    roles = game.roles
    seating = None if roles is None else Seating(roles["dealer"], roles["non_dealer"])
    return TwoPlayerState(score_sheet, seating, game.hands_played, tuple(game.out_of_turn))


def stored_hollywood_state(game: GameView) -> HollywoodState:
    """The stored state of a Hollywood match (R34), rebuilt from its row to
    advance by one hand without reading its hands: each column's score sheet
    (with its winner, the hand that won it and its result), the seating for
    the next hand, the hands played, the R26 marks and the match's result,
    as :func:`replay_hollywood` of its hands gives them. What is each hand's
    own is not in it: its columns hold no entries, and it has no ``entered``
    and no ``running`` (each hand's row keeps the columns it was entered in
    and the scores after it; each column's row keeps its hands' numbers)."""
    sheet = game.sheet
    assert sheet is not None  # a Hollywood match's row keeps its columns
    players = (game.first_box, game.first_captain)  # R28: as new_hollywood_match seats them
    by_player = {str(p): p for p in players}
    rules = game.preset_rules

    def of(values: Mapping[str, int]) -> dict[PlayerId, int]:
        return {by_player[k]: n for k, n in values.items()}

    columns: list[Column] = []
    for stored in sheet["columns"]:
        won_at = stored["won_at"]
        score_sheet = ScoreSheet(
            players,
            of(stored["scores"]),
            of(stored["hand_points"]),
            of(stored["boxes"]),
            of(stored["hands_won"]),
            stored["winner"],
        )
        result = None if won_at is None else score_sheet.result(rules)
        columns.append(Column(stored["number"], score_sheet, (), won_at, result))
    roles = game.roles
    return HollywoodState(
        players,
        tuple(columns),
        None if roles is None else Seating(roles["dealer"], roles["non_dealer"]),
        game.hands_played,
        (),
        tuple(game.out_of_turn),
        match_result(columns, players),
    )


def state_columns(state: GameState) -> dict[str, Any]:
    """The game row's columns derived from its hands."""
    return {
        "scores": {str(p): n for p, n in state.scores.items()},
        "roles": None if state.roles is None else {k: int(v) for k, v in state.roles.as_dict().items()},
        "winner": None if state.winner is None else int(state.winner),
        "hands_played": state.hands_played,
        "out_of_turn": list(state.out_of_turn),
    }


class Game(GameView, db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "game"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[list[int]] = mapped_column(JSON)
    rules: Mapped[dict[str, int]] = mapped_column(JSON)
    cut: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    first_box: Mapped[int] = mapped_column(ForeignKey("player.id"))
    first_captain: Mapped[int] = mapped_column(ForeignKey("player.id"))
    first_sitter: Mapped[int | None] = mapped_column(ForeignKey("player.id"), nullable=True)  # none: two players
    # Derived from the hands (referee.replay), kept in step in each write:
    scores: Mapped[dict[str, int]] = mapped_column(JSON)
    roles: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True)
    winner: Mapped[int | None] = mapped_column(ForeignKey("player.id"), nullable=True)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    out_of_turn: Mapped[list[int]] = mapped_column(JSON, default=list)
    # A two-player game's boxes (R29), its players' hand points and hands won (the rest of its
    # score sheet, R31) and, once won, its result (R31); null in a three-handed one.
    boxes: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True)
    sheet: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    # The version of the last change to the hands or the rules: what If-Match
    # on a write to them is checked against (GameView.guards).
    hands_version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    league_id: Mapped[int | None] = mapped_column(ForeignKey("league.id"), nullable=True, index=True)
    played_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now, index=True)
    # A game outside a league: "public" or "private" (its reads need one of its
    # keys). A game in a league has none (null): it follows its league's.
    visibility: Mapped[str | None] = mapped_column(String(10), nullable=True)

    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )
    figures: Mapped[list[GamePlayer]] = relationship(cascade="all, delete-orphan")

    def records(self) -> list[HandRecord]:
        return [hand.record() for hand in self.hands]

    def _store_state(self, state: GameState) -> None:
        for name, value in state_columns(state).items():
            setattr(self, name, value)
        self.version = (self.version or 0) + 1
        self.hands_version = self.version

    def apply(self, state: GameState) -> None:
        """Store a full replay: the state on the game, the running scores and
        R26 marks on its hands, and its players' figures recomputed. (A
        league's books follow in services, which call this.)"""
        self._store_state(state)
        for hand, running in zip(self.hands, state.running, strict=True):
            hand.scores_after = {str(p): n for p, n in running.items()}
            hand.seating_follows = hand.number not in state.out_of_turn
        self._store_figures(state)

    def two_player_records(self) -> list[PresetHand]:
        return [hand.two_player_record() for hand in self.hands]

    def replay_two_player(self) -> PresetState:
        """R26: the two-player game's state, the fold of its hands' stored rulings."""
        return replay_preset(self.preset_rules, self.first_seating, self.two_player_records())

    def apply_two_player(self, state: PresetState) -> None:
        """Store a two-player game's full replay: the state on the game (with its
        boxes and result, or a Hollywood match's columns), the running scores,
        R26 marks and (R34) the columns each hand was entered in on its hands.
        A game outside a league keeps no figures of its hands."""
        for name, value in preset_columns(self.preset_rules, state).items():
            setattr(self, name, value)
        self.version = (self.version or 0) + 1
        self.hands_version = self.version
        entered = state.entered if isinstance(state, HollywoodState) else None
        for i, (hand, running) in enumerate(zip(self.hands, state.running, strict=True)):
            hand.scores_after = {str(p): n for p, n in running.items()}
            hand.seating_follows = hand.number not in state.out_of_turn
            hand.columns = None if entered is None else list(entered[i])
        if self.league_id is None:  # a game outside a league keeps no figures of its hands:
            if not self.hands:  # its rows, written when it starts, say only whose game it is
                self._write_figures(kept_figures(None, [], self.players, None))
        else:
            log = [(hand.two_player_record(), hand.knocker_deadwood) for hand in self.hands]
            self._write_figures(two_player_game_figures(log, self.players, state.winner, finished=state.finished))

    def _store_figures(self, state: GameState) -> None:
        """Rewrite this game's per-player figures (models.figures.kept_figures)."""
        self._write_figures(kept_figures(self.league_id, self.records(), self.players, state.winner))

    def _write_figures(self, figures: Mapping[PlayerId, Figures]) -> None:
        rows = {row.player_id: row for row in self.figures}
        for player, f in figures.items():
            row = rows.get(int(player))
            if row is None:
                row = GamePlayer(player_id=int(player))
                self.figures.append(row)
            row.league_id = self.league_id
            row.played_at = self.played_at
            row.preset = self.preset_rules.preset.value
            for name in FIGURE_FIELDS:
                setattr(row, name, getattr(f, name))

    @classmethod
    def locked(cls, game_id: int) -> Game | None:
        """The game, its row locked for update where the database supports it."""
        return db.session.execute(select(cls).where(cls.id == game_id).with_for_update()).scalar()


class GameRow(GameView):
    """A game's row as plain values: what a table's phone reads and writes
    most (the game, its next hand), without the ORM's unit of work. Its
    fields are the game table's columns (declared once, on :class:`Game`;
    :class:`GameView` says their types)."""

    __slots__ = ("_values", "_rules", "_state")
    _values: Mapping[str, Any]
    _rules: Rules | None
    _state: GameState | None

    def __init__(self, values: Mapping[str, Any], rules: Rules | None = None) -> None:
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_state", None)

    @property
    def rule_options(self) -> Rules:
        """The game's rules, made (and checked) once for the row: a hand's
        write reads them to judge, to advance the game and to explain."""
        rules = self._rules
        if rules is None:
            rules = Rules(**self.rules)
            object.__setattr__(self, "_rules", rules)
        return rules

    def state(self) -> GameState:
        """The stored state, made once for the row (a row is read-only)."""
        state = self._state
        if state is None:
            state = super().state()
            object.__setattr__(self, "_state", state)
        return state

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a GameRow is read-only: use replace() for {name}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameRow) and self._values == other._values

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"GameRow({self._values!r})"

    def replace(self, **changes: Any) -> GameRow:
        unknown = set(changes) - set(self._values)
        if unknown:
            raise AttributeError(f"a game has no column {sorted(unknown)}")
        rules = None if "rules" in changes else self._rules
        return GameRow({**self._values, **changes}, rules)

    @classmethod
    def read(cls, game_id: int, *, lock: bool = False) -> GameRow | None:
        """The game's row; ``lock``: locked for this write where the database
        supports it (SQLite's writer holds the whole database already)."""
        connection = db.session.connection()
        row = connection.execute(_LOCK_GAME if lock else _READ_GAME, {"id": game_id}).mappings().one_or_none()
        return None if row is None else cls.of(row)

    @classmethod
    def of(cls, row: Any) -> GameRow:
        """From a result row's mapping that holds (at least) the game's columns."""
        return cls({name: row[name] for name in _GAME_COLUMNS})


@dataclass(frozen=True, slots=True)
class HandRow:
    """A hand as just recorded (the values of its new row)."""

    number: int
    mode: str
    box: int
    captain: int
    sitter: int | None  # none in a two-player game (R28): its box is the dealer, its captain the non-dealer
    knocker: str | None
    input: dict[str, Any]
    ruling: dict[str, Any]
    scores_after: dict[str, int]
    seating_follows: bool
    recorded_at: datetime
    corrected_at: datetime | None = None
    columns: list[int] | None = None  # R34: the columns of a Hollywood match it was entered in

    @property
    def seating(self) -> Roles:
        return Roles(box=self.box, captain=self.captain, sitter=cast(int, self.sitter))

    @property
    def seats(self) -> Roles | Seating:
        return Seating(self.box, self.captain) if self.sitter is None else self.seating


class StaleGameError(Exception):
    """The game's row changed under a write that held its lock: never expected."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """A hand just recorded: the game's row after it, the hand's row, and
    what it adds to its players' figures (for the league's books)."""

    game: GameRow
    hand: HandRow
    record: HandRecord
    delta: dict[PlayerId, Figures]


def _write_hand(
    game: GameRow,
    hand: HandRow,
    score: Score | HandScore,
    knocker_deadwood: int | None,
    update: Statement,
    columns: dict[str, Any],
) -> GameRow:
    """Insert ``hand``, the next of ``game`` (``score`` as ruled), and update
    the game's row by ``update`` to its new ``columns`` at the next version,
    its hands' too: two statements, the game's row after them."""
    row = {
        "game_id": game.id,
        "number": hand.number,
        "mode": hand.mode,
        "box": hand.box,
        "captain": hand.captain,
        "sitter": hand.sitter,
        "knocker": hand.knocker,
        "outcome": score.outcome.value,
        "scorer": None if score.scorer is None else score.scorer.value,
        "points": score.points,
        "input": hand.input,
        "ruling": hand.ruling,
        "scores_after": hand.scores_after,
        "seating_follows": hand.seating_follows,
        "knocker_deadwood": knocker_deadwood,
        "recorded_at": hand.recorded_at,
        "corrected_at": None,
    }
    if hand.columns is not None:  # R34; any other hand leaves the column NULL (a None here would store JSON null)
        row["columns"] = hand.columns
    _INSERT_HAND.execute(row)
    version = game.version + 1
    changed = update.execute(
        {
            **{"new_" + k: v for k, v in columns.items()},
            "game_id": game.id,
            "old_version": game.version,
            "new_version": version,
            "new_hands_version": version,
        },
    )
    if changed != 1:
        raise StaleGameError(f"game {game.id} is no longer at version {game.version}")
    return game.replace(**columns, version=version, hands_version=version)


def record_hand(
    game: GameRow, knocker: Role | None, score: Score, hand_input: dict[str, Any], ruling: dict[str, Any], mode: str
) -> Recorded:
    """Record the next hand of ``game`` (read with ``lock=True`` in this
    transaction) in the seating the game expects: the stored state advanced
    by it (no hand after the win, R20), the hand inserted, the game's row
    updated and (in a league) its players' figures increased, without loading the game's
    other hands."""
    seating = game.next_roles
    assert seating is not None  # a finished game has no next hand (R20)
    knocker_deadwood = _knocker_deadwood(ruling, mode)
    record = HandRecord(seating, knocker, score, knocker_deadwood)
    state = advance(game.rule_options, game.state(), record)
    hand = HandRow(
        number=state.hands_played,
        mode=mode,
        box=int(seating.box),
        captain=int(seating.captain),
        sitter=int(seating.sitter),
        knocker=None if knocker is None else knocker.value,
        input=hand_input,
        ruling=ruling,
        scores_after={str(p): n for p, n in state.scores.items()},
        seating_follows=state.hands_played not in state.out_of_turn,
        recorded_at=now(),
    )
    after = _write_hand(game, hand, score, knocker_deadwood, _UPDATE_GAME, state_columns(state))
    delta: dict[PlayerId, Figures] = {p: Figures(games_played=0) for p in game.players}
    add_hand(delta, record)
    if state.winner is not None:
        finish(delta, state.winner)
    if game.league_id is not None:  # a game outside a league keeps no figures of its hands
        add_figures("game_player", game.id, delta)
    return Recorded(after, hand, record, delta)


@dataclass(frozen=True, slots=True)
class RecordedTwoPlayer:
    """A two-player hand just recorded: the game's row after it, the hand's
    row, the hand as its game's fold replays it, and what it adds to its
    players' figures (for the league's books; none outside a league)."""

    game: GameRow
    hand: HandRow
    record: TwoPlayerHand
    delta: dict[PlayerId, Figures] | None


def _record_two_player(
    game: GameRow,
    record: TwoPlayerHand,
    after: TwoPlayerState | HollywoodState,
    columns: dict[str, Any],
    hand_input: dict[str, Any],
    ruling: dict[str, Any],
    mode: str,
    entered: list[int] | None = None,
) -> RecordedTwoPlayer:
    """Write the next hand of a two-player game or a Hollywood match,
    ``record`` as played: ``after``, the game's state with it, whose row's
    ``columns`` the game's row takes; ``entered``, the columns of a match the
    hand was entered in (R34). In a league, what it adds to its players'
    figures."""
    seating, knocker = record.seating, record.knocker
    hand = HandRow(
        number=after.hands_played,
        mode=mode,
        box=int(seating.dealer),
        captain=int(seating.non_dealer),
        sitter=None,
        knocker=None if knocker is None else knocker.value,
        input=hand_input,
        ruling=ruling,
        scores_after=columns["scores"],
        seating_follows=True,
        recorded_at=now(),
        columns=entered,
    )
    knocker_deadwood = _knocker_deadwood(ruling, mode)
    row = _write_hand(game, hand, record.score, knocker_deadwood, _UPDATE_TWO_PLAYER_GAME, columns)
    delta: dict[PlayerId, Figures] | None = None
    if game.league_id is not None:  # a game outside a league keeps no figures of its hands
        delta = {p: Figures(games_played=0) for p in game.players}
        add_two_player_hand(delta, record, knocker_deadwood)
        if after.finished:  # R30: won; R34: all three columns won, with equal totals won by none
            finish(delta, after.winner)
        add_figures("game_player", game.id, delta)
    return RecordedTwoPlayer(row, hand, record, delta)


def record_two_player_hand(
    game: GameRow, knocker: Seat | None, score: HandScore, hand_input: dict[str, Any], ruling: dict[str, Any], mode: str
) -> RecordedTwoPlayer:
    """Record the next hand of a two-player ``game`` (read with ``lock=True``
    in this transaction) in the seating it expects (R28): its stored state
    advanced by the hand (none after the win, R30), the hand inserted and
    the game's row updated, without loading its other hands."""
    rules = game.preset_rules
    state = stored_two_player_state(game)
    verify_can_record_two_player(state)  # R30: a 409 naming the winner
    seating = state.seating
    assert seating is not None
    record = TwoPlayerHand(seating, knocker, score)
    after = advance_two_player(rules, state, record)
    return _record_two_player(game, record, after, two_player_columns(rules, after), hand_input, ruling, mode)


def _entered(rules: PresetRules, column: Column, stored: dict[str, Any]) -> dict[str, Any]:
    """A stored column after the hand just entered in it: ``column`` is its
    sheet after the hand, with that one entry (:func:`stored_hollywood_state`
    keeps no entries), after the hands stored before it."""
    after = column_dict(rules, column)
    after["hands"] = stored["hands"] + after["hands"]
    return after


def record_hollywood_hand(
    game: GameRow, knocker: Seat | None, score: HandScore, hand_input: dict[str, Any], ruling: dict[str, Any], mode: str
) -> RecordedTwoPlayer:
    """Record the next hand of a Hollywood match (R34; ``game`` read with
    ``lock=True`` in this transaction) in the seating it expects (R28): its
    stored state (:func:`stored_hollywood_state`) advanced by the hand, a won
    hand entered in the columns R34 names (none once all three are won), the
    hand inserted with those columns and the game's row updated, without
    loading its other hands."""
    rules = game.preset_rules
    state = stored_hollywood_state(game)
    verify_can_record_hollywood(state)  # R34: a 409 once all three columns are won
    seating = state.seating
    assert seating is not None
    record = TwoPlayerHand(seating, knocker, score)
    after = advance_hollywood(rules, state, record)
    entered = after.entered[-1]
    stored = cast(dict[str, Any], game.sheet)["columns"]
    columns = hollywood_columns(
        rules,
        after,
        [_entered(rules, c, s) if c.number in entered else s for c, s in zip(after.columns, stored, strict=True)],
    )
    return _record_two_player(game, record, after, columns, hand_input, ruling, mode, list(entered))


class Hand(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "hand"
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        # A league's whole log in rating order, read from this index alone (models.standings:
        # a re-rating reads 100,000 hands' seatings and results without a row of the table,
        # whose rulings make them wide); it serves the lookups of a game's hands too.
        Index("ix_hand_rating_log", "game_id", "number", "box", "captain", "sitter", "knocker", "scorer"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(10))  # cards, counts, draw
    box: Mapped[int] = mapped_column(ForeignKey("player.id"))
    captain: Mapped[int] = mapped_column(ForeignKey("player.id"))
    sitter: Mapped[int | None] = mapped_column(ForeignKey("player.id"), nullable=True)  # none: two players (R28)
    knocker: Mapped[str | None] = mapped_column(String(10), nullable=True)
    # outcome, scorer, points and knocker_deadwood repeat what the ruling says, on
    # purpose: replays and ratings read a league's whole log through them, and
    # decoding each ruling's JSON instead costs 0.27 s of CPU per 100,000 hands.
    outcome: Mapped[str] = mapped_column(String(10))
    scorer: Mapped[str | None] = mapped_column(String(10), nullable=True)
    points: Mapped[int] = mapped_column(Integer)
    input: Mapped[dict[str, Any]] = mapped_column(JSON)
    ruling: Mapped[dict[str, Any]] = mapped_column(JSON)
    scores_after: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    seating_follows: Mapped[bool] = mapped_column(default=True)
    knocker_deadwood: Mapped[int | None] = mapped_column(Integer, nullable=True)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    corrected_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # R34: the columns of a Hollywood match this hand was entered in (derived, kept in step); null elsewhere
    columns: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)

    game: Mapped[Game] = relationship(back_populates="hands")

    @property
    def seating(self) -> Roles:
        """The roles of a three-handed hand (R8)."""
        return Roles(box=self.box, captain=self.captain, sitter=cast(int, self.sitter))

    @property
    def seats(self) -> Roles | Seating | CutthroatSeating:
        """The hand's roles (R8), or its dealer and non-dealer (R28), and its sitter in cutthroat (R36)."""
        if self.sitter is None or self.game.cutthroat:
            return self.two_player_seating
        return self.seating

    @property
    def two_player_seating(self) -> Seating | CutthroatSeating:
        """R28: a two-player hand's dealer (kept as its box) and non-dealer (its
        captain); R36: in cutthroat, the player who sat it out (its sitter)."""
        if self.sitter is not None:
            return CutthroatSeating(self.box, self.captain, self.sitter)
        return Seating(self.box, self.captain)

    def two_player_record(self) -> PresetHand:
        """A two-player (or cutthroat) hand as its game's fold replays it: stored seating and ruling."""
        knocker = None if self.knocker is None else Seat(self.knocker)
        seating = self.two_player_seating
        if isinstance(seating, CutthroatSeating):
            return CutthroatHand(seating, knocker, ruled_score(self.ruling))
        return TwoPlayerHand(seating, knocker, ruled_score(self.ruling))

    def record(self) -> HandRecord:
        """The hand as the referee replays it: stored seating and ruling, never re-judged."""
        scorer = None if self.scorer is None else Side(self.scorer)
        knocker = None if self.knocker is None else Role(self.knocker)
        return HandRecord(
            self.seating, knocker, Score(Outcome(self.outcome), scorer, self.points), self.knocker_deadwood
        )

    def set_result(
        self,
        knocker: Role | Seat | None,
        score: Score | HandScore,
        hand_input: dict[str, Any],
        ruling: dict[str, Any],
        mode: str,
    ) -> None:
        """The hand's columns for what it was and how it was ruled (a two-player hand's knocker is a seat, R28)."""
        for name, value in result_columns(knocker, score, hand_input, ruling, mode).items():
            setattr(self, name, value)


def ruled_score(ruling: Mapping[str, Any]) -> HandScore:
    """A two-player hand's score as its stored ruling says: its outcome,
    scorer and points, its boxes (R29), big gin (R32) and points before a
    spade double (R33); the draw's (R12) when nobody scored."""
    scorer = ruling["scorer"]
    if scorer is None:
        return DRAW_SCORE
    return HandScore(
        Outcome(ruling["outcome"]),
        Side(scorer),
        ruling["points"],
        ruling["boxes"],
        ruling["big_gin"],
        ruling["base_points"],
    )


def result_columns(
    knocker: Role | Seat | None,
    score: Score | HandScore,
    hand_input: dict[str, Any],
    ruling: dict[str, Any],
    mode: str,
) -> dict[str, Any]:
    """A hand's columns for what it was and how it was ruled (a two-player
    hand's knocker is a seat, R28)."""
    return {
        "mode": mode,
        "knocker": None if knocker is None else knocker.value,
        "outcome": score.outcome.value,
        "scorer": None if score.scorer is None else score.scorer.value,
        "points": score.points,
        "input": hand_input,
        "ruling": ruling,
        "knocker_deadwood": _knocker_deadwood(ruling, mode),
    }


def _knocker_deadwood(ruling: dict[str, Any], mode: str) -> int | None:
    """The knocker's deadwood as the ruling of a hand entered by its cards counts it; None otherwise."""
    return ruling["knocker"]["deadwood_count"] if mode == "cards" else None


_GAMES = Game.__table__
_HANDS = Hand.__table__
_GAME_COLUMNS = [column.key for column in _GAMES.columns]


def _column(name: str) -> property:
    def value(row: GameRow) -> Any:
        return row._values[name]

    return property(value, doc=f"The game's {name} column")


# Each column of a GameRow is a property of its class: a __getattr__ ran only
# after the attribute's ordinary lookup had failed and raised (and formatted)
# an AttributeError, thirty times a hand's write.
for _name in _GAME_COLUMNS:
    setattr(GameRow, _name, _column(_name))
_READ_GAME = select(_GAMES).where(_GAMES.c.id == bindparam("id"))
_LOCK_GAME = _READ_GAME.with_for_update()
_INSERT_HAND = Statement(insert(_HANDS))
_UPDATE_GAME = Statement(
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("old_version"))
    .values(
        {
            name: bindparam("new_" + name, type_=_GAMES.c[name].type)
            for name in ("scores", "roles", "winner", "hands_played", "out_of_turn", "version", "hands_version")
        }
    )
)

# A two-player hand's write (record_two_player_hand) inserts its hand as _INSERT_HAND does.
_UPDATE_TWO_PLAYER_GAME = Statement(
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("old_version"))
    .values(
        {
            name: bindparam("new_" + name, type_=_GAMES.c[name].type)
            for name in (
                "scores",
                "roles",
                "winner",
                "hands_played",
                "out_of_turn",
                "boxes",
                "sheet",
                "result",
                "version",
                "hands_version",
            )
        }
    )
)
