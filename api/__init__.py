"""The HTTP shell: one blueprint per resource, errors in api.errors."""

from __future__ import annotations

from flask_smorest import Api

from api.addresses import blp as addresses_blp
from api.disputes import blp as disputes_blp
from api.games import blp as games_blp
from api.hands import blp as hands_blp
from api.leagues import blp as leagues_blp
from api.players import blp as players_blp
from api.referee import blp as referee_blp
from api.sharing import blp as sharing_blp


def register_blueprints(api: Api) -> None:
    for blp in (players_blp, games_blp, hands_blp, disputes_blp, leagues_blp, sharing_blp, referee_blp, addresses_blp):
        api.register_blueprint(blp, url_prefix="/api/v1" + (blp.url_prefix or ""))
