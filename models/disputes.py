"""Disputes: a recorded hand contested, with the referee's ruling on the
cards as the disputing side gives them, kept beside the ruling recorded, and
the table's decision on it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

from sqlalchemy import JSON, ForeignKey, Integer, Select, String, select
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.database import UTCDateTime, db, now
from models.game import Game, ruled_score
from referee import Outcome, Role, Score, Side
from referee.preset_hand import HandScore
from referee.two_player import Seat

#: A dispute's state (schemas.fields.DISPUTE_STATUSES lists the same for the API).
DisputeStatus = Literal["open", "upheld", "rejected"]
COMPARED = ("outcome", "scorer", "points")  # what tells a ruling's result apart
MAX_CLAIM = 2000


_Knocker = TypeVar("_Knocker", Role, Seat)
_Score = TypeVar("_Score", Score, HandScore)


@dataclass(frozen=True, slots=True)
class Ruled(Generic[_Knocker, _Score]):
    """A hand as a ruling stored with a dispute says it was (services.Judged,
    or services.PresetJudged for a two-player hand: a seat knocked, R28)."""

    mode: str
    knocker: _Knocker | None
    score: _Score
    ruling: dict[str, Any]
    input: dict[str, Any]


class Dispute(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "dispute"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # the hand disputed
    # the hand's revision disputed (None: a dispute from before disputes kept it, with no revision before it)
    revision: Mapped[int | None] = mapped_column(Integer, nullable=True)
    by: Mapped[str] = mapped_column(String(10))  # box, captain or sitter (R8: the sitter may advise)
    claim: Mapped[str] = mapped_column(String(MAX_CLAIM))
    mode: Mapped[str] = mapped_column(String(10))
    knocker: Mapped[str | None] = mapped_column(String(10), nullable=True)
    input: Mapped[dict[str, Any]] = mapped_column(JSON)
    ruling: Mapped[dict[str, Any]] = mapped_column(JSON)  # the referee's, on the dispute's cards
    recorded: Mapped[dict[str, Any]] = mapped_column(JSON)  # the recorded ruling's outcome, scorer, points
    differences: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10), default="open")
    reason: Mapped[str | None] = mapped_column(String(500), nullable=True)  # the decision's
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    opened_key_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    resolved_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    resolved_key_id: Mapped[int | None] = mapped_column(Integer, nullable=True)

    game: Mapped[Game] = relationship(viewonly=True)  # its rules explain the ruling

    @property
    def differs(self) -> bool:
        return bool(self.differences)

    def ruled(self) -> Ruled[Role, Score]:
        """The hand as this dispute's ruling has it, to correct the hand with (R26)."""
        scorer = self.ruling["scorer"]
        return Ruled(
            self.mode,
            None if self.knocker is None else Role(self.knocker),
            Score(Outcome(self.ruling["outcome"]), None if scorer is None else Side(scorer), self.ruling["points"]),
            self.ruling,
            self.input,
        )

    def preset_ruled(self) -> Ruled[Seat, HandScore]:
        """A two-player hand as this dispute's ruling has it (R26, R28), to correct the hand with."""
        knocker = None if self.knocker is None else Seat(self.knocker)
        return Ruled(self.mode, knocker, ruled_score(self.ruling), self.ruling, self.input)


def compare(recorded: dict[str, Any], disputed: dict[str, Any]) -> list[dict[str, Any]]:
    """How two rulings' results differ: one entry per member of COMPARED that does."""
    return [
        {"field": name, "recorded": recorded[name], "disputed": disputed[name]}
        for name in COMPARED
        if recorded[name] != disputed[name]
    ]


def disputes_query(game_id: int, number: int | None = None, status: str | None = None) -> Select[tuple[Dispute]]:
    """A game's disputes (of one hand, given ``number``; with this ``status``), oldest first."""
    query = select(Dispute).where(Dispute.game_id == game_id)
    if number is not None:
        query = query.where(Dispute.number == number)
    if status is not None:
        query = query.where(Dispute.status == status)
    return query.order_by(Dispute.id)
