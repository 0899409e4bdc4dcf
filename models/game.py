"""Players, games and hands.

A hand row keeps everything needed to show its ruling again exactly as made:
the canonical input, the seating as played and the ruling. A game's scores,
roles and winner are the fold of its hands' stored rulings (referee.replay),
kept on the game row in the same transaction as every change to its hands.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.database import db
from referee import GameState, HandRecord, Outcome, Role, Roles, Rules, Score, Side


def _now() -> datetime:
    return datetime.now(UTC)


class Player(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "player"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    hands: Mapped[list[Hand]] = relationship(back_populates="game", order_by="Hand.number",
                                             cascade="all, delete-orphan")

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

    def apply(self, state: GameState) -> None:
        """Store the replayed state on the game and the R26 marks on its hands."""
        self.scores = {str(p): n for p, n in state.scores.items()}
        self.roles = None if state.roles is None else {k: int(v) for k, v in state.roles.as_dict().items()}
        self.winner = None if state.winner is None else int(state.winner)
        self.status = "finished" if state.finished else "in_progress"
        self.hands_played = state.hands_played
        self.out_of_turn = list(state.out_of_turn)
        for hand, running in zip(self.hands, state.running, strict=True):
            hand.scores_after = {str(p): n for p, n in running.items()}
            hand.seating_follows = hand.number not in state.out_of_turn
        self.version = (self.version or 0) + 1

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
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    corrected_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    game: Mapped[Game] = relationship(back_populates="hands")

    @property
    def seating(self) -> Roles:
        return Roles(box=self.box, captain=self.captain, sitter=self.sitter)

    def record(self) -> HandRecord:
        """The hand as the referee replays it: stored seating and ruling, never re-judged."""
        scorer = None if self.scorer is None else Side(self.scorer)
        knocker = None if self.knocker is None else Role(self.knocker)
        return HandRecord(self.seating, knocker, Score(Outcome(self.outcome), scorer, self.points))

    def set_result(self, knocker: Role | None, score: Score, input: dict[str, Any],
                   ruling: dict[str, Any], mode: str) -> None:
        self.mode = mode
        self.knocker = None if knocker is None else knocker.value
        self.outcome = score.outcome.value
        self.scorer = None if score.scorer is None else score.scorer.value
        self.points = score.points
        self.input = input
        self.ruling = ruling
