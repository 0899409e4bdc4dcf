"""What the response schemas dump, besides the models themselves: a created
resource with its key, a hand with its game's state, a page of a list. The
schemas (schemas/) are the one description of each shape; nothing here
builds a response dict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, func, select

from models import db
from models.game import GameView


@dataclass(frozen=True, slots=True)
class WithKey:
    """A resource just created (or re-keyed), with its key, shown only now."""

    resource: Any
    key: str | None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.resource, name)


@dataclass(frozen=True, slots=True)
class Imported:
    """A league just imported, with what each player of its document became."""

    league: Any
    players: list[Any]  # models.transfer.ImportedPlayer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.league, name)


@dataclass(frozen=True, slots=True)
class HandInGame:
    """A hand as played (seating, ruling, running scores after it), with its
    game's state now: the roles for the next hand, the status and the winner."""

    hand: Any  # models.game.Hand or HandRow
    game: GameView

    def __getattr__(self, name: str) -> Any:
        return getattr(self.hand, name)

    @property
    def roles(self) -> dict[str, int] | None:
        return self.game.roles

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def winner(self) -> int | None:
        return self.game.winner

    @property
    def discard(self) -> str | None:
        discard: str | None = self.hand.input.get("knocker_hand", {}).get("discard")
        return discard


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a list, numbered from 1."""

    items: list[Any]
    total: int
    page: int
    per_page: int


def page_of(query: Select[Any], args: dict[str, Any]) -> Page:
    """The page ``args["page"]`` of ``args["per_page"]`` rows of ``query`` (ordered)."""
    page, per_page = args["page"], args["per_page"]
    total = db.session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0
    items = list(db.session.scalars(query.offset((page - 1) * per_page).limit(per_page)))
    return Page(items, total, page, per_page)
