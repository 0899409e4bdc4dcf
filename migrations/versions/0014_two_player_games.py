"""two-player games (R27-R31): a hand has no sitter, a game keeps its boxes, score sheet and result

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04 21:30:00.000000

"""
import sqlalchemy as sa
from alembic import op


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade():
    # R28: a two-player hand is played by a dealer and a non-dealer, and nobody sits out
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.alter_column('first_sitter', existing_type=sa.Integer(), nullable=True)
        batch_op.add_column(sa.Column('boxes', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('sheet', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('result', sa.JSON(), nullable=True))
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.alter_column('sitter', existing_type=sa.Integer(), nullable=True)
    with op.batch_alter_table('hand_revision', schema=None) as batch_op:
        batch_op.alter_column('sitter', existing_type=sa.Integer(), nullable=True)


def downgrade():
    op.execute(
        "DELETE FROM game WHERE first_sitter IS NULL"
    )
    with op.batch_alter_table('hand_revision', schema=None) as batch_op:
        batch_op.alter_column('sitter', existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.alter_column('sitter', existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('result')
        batch_op.drop_column('sheet')
        batch_op.drop_column('boxes')
        batch_op.alter_column('first_sitter', existing_type=sa.Integer(), nullable=False)
