"""disputes of recorded hands, with the referee's ruling on the cards given

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 19:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'dispute',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('by', sa.String(length=10), nullable=False),
        sa.Column('claim', sa.String(length=2000), nullable=False),
        sa.Column('mode', sa.String(length=10), nullable=False),
        sa.Column('knocker', sa.String(length=10), nullable=True),
        sa.Column('input', sa.JSON(), nullable=False),
        sa.Column('ruling', sa.JSON(), nullable=False),
        sa.Column('recorded', sa.JSON(), nullable=False),
        sa.Column('differences', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('reason', sa.String(length=500), nullable=True),
        sa.Column('opened_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('opened_key_id', sa.Integer(), nullable=True),
        sa.Column('resolved_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('resolved_key_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('dispute', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_dispute_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('dispute', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_dispute_game_id'))
    op.drop_table('dispute')
