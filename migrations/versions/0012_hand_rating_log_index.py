"""a league's log of seatings and results read from one index of the hand table

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 08:30:00.000000

"""
from alembic import op


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

COLUMNS = ['game_id', 'number', 'box', 'captain', 'sitter', 'knocker', 'scorer']


def upgrade():
    # the new index leads with game_id: it takes the place of the one on game_id alone
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.create_index('ix_hand_rating_log', COLUMNS, unique=False)
        batch_op.drop_index('ix_hand_game_id')


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.create_index('ix_hand_game_id', ['game_id'], unique=False)
        batch_op.drop_index('ix_hand_rating_log')
