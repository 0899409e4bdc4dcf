"""every version of every hand, append-only; each existing hand becomes its first revision

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 19:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'hand_revision',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('action', sa.String(length=10), nullable=False),
        sa.Column('mode', sa.String(length=10), nullable=False),
        sa.Column('box', sa.Integer(), nullable=False),
        sa.Column('captain', sa.Integer(), nullable=False),
        sa.Column('sitter', sa.Integer(), nullable=False),
        sa.Column('knocker', sa.String(length=10), nullable=True),
        sa.Column('input', sa.JSON(), nullable=False),
        sa.Column('ruling', sa.JSON(), nullable=False),
        sa.Column('scores_after', sa.JSON(), nullable=False),
        sa.Column('game_scores', sa.JSON(), nullable=False),
        sa.Column('made_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('key_id', sa.Integer(), nullable=True),
        sa.Column('reason', sa.String(length=500), nullable=True),
        sa.Column('dispute_id', sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'number', 'revision'),
    )
    # Each hand that stands is its own first revision, as it is now (what it was
    # before a correction was not kept); when it was recorded it was the last
    # hand, so the game's scores just after it were its running scores.
    op.execute(
        """
        INSERT INTO hand_revision (game_id, number, revision, action, mode, box, captain, sitter, knocker,
                                   input, ruling, scores_after, game_scores, made_at)
        SELECT hand.game_id, hand.number, 1, 'recorded', hand.mode, hand.box, hand.captain, hand.sitter,
               hand.knocker, hand.input, hand.ruling, hand.scores_after, hand.scores_after, hand.recorded_at
        FROM hand
        """
    )


def downgrade():
    op.drop_table('hand_revision')
