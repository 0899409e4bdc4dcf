"""Every version of every hand, append-only: the record never forgets.

A hand's first recording, each correction and an undo each add one revision,
in the write's own transaction, holding the hand as it stood then (input,
seating, ruling, running scores), the game's scores just after, when, with
which key (its id, never the key) and why, and the version of the game it
made: a revision is also the game's event of that change in the feed
(``models.events``), which keeps only the game's other changes. A hand
imported with its game made no version of it and is no event. The hand
table holds the hands
that stand; an undone hand stays here as ``undone``, and the next hand
recorded under its number adds its revisions after it. Nothing deletes a
revision: no endpoint does, and a game is never deleted.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, cast

from sqlalchemy import JSON, ForeignKey, Integer, Select, String, UniqueConstraint, bindparam, func, insert, select
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.database import UTCDateTime, db, insert_rows, now
from models.game import Game, Hand, HandRow
from models.statement import ONE, ZERO, Statement
from referee import Roles
from referee.cutthroat import CutthroatSeating
from referee.two_player import Seating

#: What a revision did (schemas.fields.REVISION_ACTIONS lists the same for the API).
RevisionAction = Literal["recorded", "corrected", "undone"]
MAX_REASON = 500


class HandRevision(db.Model):  # type: ignore[name-defined,misc]
    """One version of a hand of a game."""

    __tablename__ = "hand_revision"
    __table_args__ = (
        UniqueConstraint("game_id", "number", "revision"),
        # one change per version (the feed reads by it)
        UniqueConstraint("game_id", "game_version", name="uq_hand_revision_game_version"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer)  # 1, 2, ... under this hand number
    action: Mapped[str] = mapped_column(String(10))
    mode: Mapped[str] = mapped_column(String(10))
    box: Mapped[int] = mapped_column(Integer)
    captain: Mapped[int] = mapped_column(Integer)
    sitter: Mapped[int | None] = mapped_column(Integer, nullable=True)  # none in a two-player game (R28)
    knocker: Mapped[str | None] = mapped_column(String(10), nullable=True)
    input: Mapped[dict[str, Any]] = mapped_column(JSON)
    ruling: Mapped[dict[str, Any]] = mapped_column(JSON)
    scores_after: Mapped[dict[str, int]] = mapped_column(JSON)
    game_scores: Mapped[dict[str, int]] = mapped_column(JSON)
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    key_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str | None] = mapped_column(String(MAX_REASON), nullable=True)
    dispute_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # the game's version this change made (its event in the feed); none for a hand imported with its game
    game_version: Mapped[int | None] = mapped_column(Integer, nullable=True)

    game: Mapped[Game] = relationship(viewonly=True)  # its rules explain the ruling

    @property
    def seating(self) -> Roles:
        return Roles(box=self.box, captain=self.captain, sitter=cast(int, self.sitter))

    @property
    def seats(self) -> Roles | Seating | CutthroatSeating:
        """The hand's roles (R8), or its dealer and non-dealer (R28), and its sitter in cutthroat (R36)."""
        if self.sitter is None:
            return Seating(self.box, self.captain)
        if self.game.cutthroat:
            return CutthroatSeating(self.box, self.captain, self.sitter)
        return self.seating


_REVISIONS = HandRevision.__table__
_NEXT = (
    select(func.coalesce(func.max(_REVISIONS.c.revision), ZERO) + ONE)
    .where(_REVISIONS.c.game_id == bindparam("of_game"), _REVISIONS.c.number == bindparam("of_number"))
    .scalar_subquery()
)
_INSERT = Statement(insert(_REVISIONS).values(revision=_NEXT))


def add_revision(
    game_id: int,
    hand: Hand | HandRow,
    action: RevisionAction,
    game_scores: dict[str, int],
    *,
    version: int,
    key_id: int | None,
    reason: str | None = None,
    dispute_id: int | None = None,
) -> None:
    """Append the hand as it stands now (or stood, when undone) to its
    revisions: the change that brought the game to ``version``."""
    _INSERT.execute(
        {
            "of_game": game_id,
            "of_number": hand.number,
            "game_id": game_id,
            "number": hand.number,
            "action": action,
            "mode": hand.mode,
            "box": hand.box,
            "captain": hand.captain,
            "sitter": hand.sitter,
            "knocker": hand.knocker,
            "input": hand.input,
            "ruling": hand.ruling,
            "scores_after": hand.scores_after,
            "game_scores": game_scores,
            "made_at": now(),
            "key_id": key_id,
            "reason": reason,
            "dispute_id": dispute_id,
            "game_version": version,
        },
    )


def first_revisions(hands: list[dict[str, Any]]) -> None:
    """The first revision of each hand row just inserted (an import's): as
    recorded, by no key."""
    columns = ("game_id", "number", "mode", "box", "captain", "sitter", "knocker", "input", "ruling", "scores_after")
    insert_rows(
        _REVISIONS,
        [
            {
                **{name: hand[name] for name in columns},
                "revision": 1,
                "action": "recorded",
                "game_scores": hand["scores_after"],
                "made_at": hand["recorded_at"],
                "key_id": None,
                "reason": None,
                "dispute_id": None,
                "game_version": None,
            }
            for hand in hands
        ],
    )


def has_revisions(game_id: int) -> bool:
    """Whether any hand of the game was ever recorded (undone ones too)."""
    found = db.session.scalar(select(_REVISIONS.c.game_id).where(_REVISIONS.c.game_id == game_id).limit(1))
    return found is not None


_LATEST = select(func.max(_REVISIONS.c.revision)).where(
    _REVISIONS.c.game_id == bindparam("game_id"), _REVISIONS.c.number == bindparam("number")
)


def latest_revision(game_id: int, number: int) -> int | None:
    """The number of the last revision of hand ``number`` (None: it has none)."""
    value: int | None = db.session.execute(_LATEST, {"game_id": game_id, "number": number}).scalar()
    return value


def revisions_query(game_id: int, number: int) -> Select[tuple[HandRevision]]:
    """Every version of hand ``number`` of the game, oldest first, as a query (to page)."""
    return (
        select(HandRevision)
        .where(HandRevision.game_id == game_id, HandRevision.number == number)
        .order_by(HandRevision.revision)
    )
