"""Players, games and hands.

A hand row keeps everything needed to show its ruling again exactly as made:
the canonical input, the seating as played and the ruling. A game's scores,
roles and winner are the fold of its hands' stored rulings (referee.replay),
kept on the game row in the same transaction as every change to its hands.
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.database import UTCDateTime, db
from referee import GameState, HandRecord, Outcome, Role, Roles, Rules, Score, Side
from referee.game import advance
from referee.stats import Figures, add_hand, finish, game_figures

if TYPE_CHECKING:
    from models.league import GamePlayer

FIGURE_FIELDS = [f.name for f in dataclass_fields(Figures)]


def _now() -> datetime:
    return datetime.now(UTC)


class Player(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "player"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)


class Game(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "game"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[list[int]] = mapped_column(JSON)
    rules: Mapped[dict[str, int]] = mapped_column(JSON)
    cut: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    first_box: Mapped[int] = mapped_column(ForeignKey("player.id"))
    first_captain: Mapped[int] = mapped_column(ForeignKey("player.id"))
    first_sitter: Mapped[int] = mapped_column(ForeignKey("player.id"))
    # Derived from the hands (referee.replay), kept in step in each write:
    status: Mapped[str] = mapped_column(String(20), default="in_progress")
    scores: Mapped[dict[str, int]] = mapped_column(JSON)
    roles: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True)
    winner: Mapped[int | None] = mapped_column(ForeignKey("player.id"), nullable=True)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    out_of_turn: Mapped[list[int]] = mapped_column(JSON, default=list)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)
    league_id: Mapped[int | None] = mapped_column(ForeignKey("league.id"), nullable=True, index=True)
    played_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now, index=True)

    hands: Mapped[list[Hand]] = relationship(back_populates="game", order_by="Hand.number",
                                             cascade="all, delete-orphan")
    figures: Mapped[list[GamePlayer]] = relationship(cascade="all, delete-orphan")

    @property
    def first_roles(self) -> Roles:
        return Roles(box=self.first_box, captain=self.first_captain, sitter=self.first_sitter)

    @property
    def next_roles(self) -> Roles | None:
        return None if self.roles is None else Roles(**self.roles)

    @property
    def rule_options(self) -> Rules:
        return Rules(**self.rules)

    def records(self) -> list[HandRecord]:
        return [hand.record() for hand in self.hands]

    def state(self) -> GameState:
        """The stored state (what :func:`referee.replay` of the hands gave)."""
        return GameState({int(p): n for p, n in self.scores.items()}, self.next_roles, self.winner,
                         self.hands_played, tuple(self.out_of_turn))

    def _store_state(self, state: GameState) -> None:
        self.scores = {str(p): n for p, n in state.scores.items()}
        self.roles = None if state.roles is None else {k: int(v) for k, v in state.roles.as_dict().items()}
        self.winner = None if state.winner is None else int(state.winner)
        self.status = "finished" if state.finished else "in_progress"
        self.hands_played = state.hands_played
        self.out_of_turn = list(state.out_of_turn)
        self.version = (self.version or 0) + 1

    def append(self, hand: Hand) -> GameState:
        """Record the next hand: the stored state advanced by it (no hand after
        the win, R20) and the three players' figures increased by its counts,
        without reloading the game's other hands."""
        record = hand.record()
        state = advance(self.rule_options, self.state(), record)
        hand.game_id = self.id
        hand.number = state.hands_played
        hand.scores_after = {str(p): n for p, n in state.scores.items()}
        hand.seating_follows = hand.number not in state.out_of_turn
        db.session.add(hand)
        self._store_state(state)
        delta = {p: Figures(games_played=0) for p in self.players}
        add_hand(delta, record)
        if state.winner is not None:
            finish(delta, state.winner)
        from models import books

        books.add_figures("game_player", self.id, delta)
        if self.league_id is not None:
            books.hand_appended(self, record, hand.number, delta, state.winner)
        return state

    def apply(self, state: GameState, *, history: bool = True, books: bool = True) -> None:
        """Store a full replay: the state on the game, the running scores and
        R26 marks on its hands, and every figure recomputed. ``history``:
        the hands changed (not so for a new game or new rules); ``books``:
        bring the league's books up to date now (an import does it once, at
        the end)."""
        self._store_state(state)
        for hand, running in zip(self.hands, state.running, strict=True):
            hand.scores_after = {str(p): n for p, n in running.items()}
            hand.seating_follows = hand.number not in state.out_of_turn
        self._store_figures(state)
        if self.league_id is not None and books:
            from models import books as league_books

            league_books.game_rewritten(self, history=history)

    def _store_figures(self, state: GameState) -> None:
        """Rewrite this game's per-player figures."""
        from models.league import GamePlayer

        figures = game_figures(self.records(), self.players, state.winner)
        rows = {row.player_id: row for row in self.figures}
        for player, f in figures.items():
            row = rows.get(int(player))
            if row is None:
                row = GamePlayer(player_id=int(player))
                self.figures.append(row)
            row.league_id = self.league_id
            row.played_at = self.played_at
            for name in FIGURE_FIELDS:
                setattr(row, name, getattr(f, name))

    @classmethod
    def locked(cls, game_id: int) -> Game | None:
        """The game, its row locked for update where the database supports it."""
        return db.session.execute(select(cls).where(cls.id == game_id).with_for_update()).scalar()


class Hand(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "hand"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(10))  # cards, counts, draw
    box: Mapped[int] = mapped_column(ForeignKey("player.id"))
    captain: Mapped[int] = mapped_column(ForeignKey("player.id"))
    sitter: Mapped[int] = mapped_column(ForeignKey("player.id"))
    knocker: Mapped[str | None] = mapped_column(String(10), nullable=True)
    outcome: Mapped[str] = mapped_column(String(10))
    scorer: Mapped[str | None] = mapped_column(String(10), nullable=True)
    points: Mapped[int] = mapped_column(Integer)
    input: Mapped[dict[str, Any]] = mapped_column(JSON)
    ruling: Mapped[dict[str, Any]] = mapped_column(JSON)
    scores_after: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    seating_follows: Mapped[bool] = mapped_column(default=True)
    knocker_deadwood: Mapped[int | None] = mapped_column(Integer, nullable=True)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=_now)
    corrected_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    game: Mapped[Game] = relationship(back_populates="hands")

    @property
    def seating(self) -> Roles:
        return Roles(box=self.box, captain=self.captain, sitter=self.sitter)

    def record(self) -> HandRecord:
        """The hand as the referee replays it: stored seating and ruling, never re-judged."""
        scorer = None if self.scorer is None else Side(self.scorer)
        knocker = None if self.knocker is None else Role(self.knocker)
        return HandRecord(self.seating, knocker, Score(Outcome(self.outcome), scorer, self.points),
                          self.knocker_deadwood)

    def set_result(self, knocker: Role | None, score: Score, input: dict[str, Any],
                   ruling: dict[str, Any], mode: str) -> None:
        self.mode = mode
        self.knocker = None if knocker is None else knocker.value
        self.outcome = score.outcome.value
        self.scorer = None if score.scorer is None else score.scorer.value
        self.points = score.points
        self.input = input
        self.ruling = ruling
        self.knocker_deadwood = ruling["knocker"]["deadwood_count"] if mode == "cards" else None
