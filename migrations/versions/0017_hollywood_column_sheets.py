"""Hollywood (R34): each column of a match keeps the rest of its score sheet

A match's row keeps, in each column of its sheet, the hand points and hands
won of each player (the rest of the column's score sheet), so that the next
hand is entered from the row without replaying the match's hands. Existing
matches get them from their hand logs.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06 19:00:00.000000

"""
import json

import sqlalchemy as sa
from alembic import op

from referee.hollywood import replay_hollywood
from referee.preset_hand import DRAW_SCORE, HandScore
from referee.presets import resolve_rules
from referee.scoring import Outcome, Side
from referee.two_player import Seat, Seating, TwoPlayerHand


revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None

SHEET_KEYS = ('hand_points', 'hands_won')


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def _score(ruling):
    """A two-player hand's score as its stored ruling says (models.game.ruled_score)."""
    if ruling['scorer'] is None:
        return DRAW_SCORE
    return HandScore(Outcome(ruling['outcome']), Side(ruling['scorer']), ruling['points'], ruling['boxes'],
                     ruling['big_gin'], ruling['base_points'])


def _hollywood_games(conn):
    for game_id, rules, first_box, first_captain, sheet in conn.execute(
            sa.text("SELECT id, rules, first_box, first_captain, sheet FROM game WHERE first_sitter IS NULL")).all():
        rules, sheet = _json(rules), _json(sheet)
        if rules.get('preset') == 'hollywood' and sheet is not None:
            yield game_id, rules, first_box, first_captain, sheet


def _write(conn, game_id, sheet):
    update = sa.text("UPDATE game SET sheet = :sheet WHERE id = :id").bindparams(sa.bindparam('sheet', type_=sa.JSON))
    conn.execute(update, {"sheet": sheet, "id": game_id})


def upgrade():
    conn = op.get_bind()
    for game_id, rules, first_box, first_captain, sheet in list(_hollywood_games(conn)):
        hands = [
            TwoPlayerHand(Seating(box, captain), None if knocker is None else Seat(knocker), _score(_json(ruling)))
            for box, captain, knocker, ruling in conn.execute(
                sa.text("SELECT box, captain, knocker, ruling FROM hand WHERE game_id = :id ORDER BY number"),
                {"id": game_id},
            ).all()
        ]
        options = {k: v for k, v in rules.items() if k != 'preset'}
        try:
            state = replay_hollywood(resolve_rules('hollywood', options), Seating(first_box, first_captain), hands)
        except ValueError:  # a log that cannot be replayed: `flask books verify` names it
            continue
        by_number = {column.number: column for column in state.columns}
        for stored in sheet['columns']:
            column = by_number[stored['number']]
            stored['hand_points'] = {str(p): n for p, n in column.sheet.hand_points.items()}
            stored['hands_won'] = {str(p): n for p, n in column.sheet.hands_won.items()}
        _write(conn, game_id, sheet)


def downgrade():
    conn = op.get_bind()
    for game_id, _rules, _box, _captain, sheet in list(_hollywood_games(conn)):
        for stored in sheet['columns']:
            for key in SHEET_KEYS:
                stored.pop(key, None)
        _write(conn, game_id, sheet)
