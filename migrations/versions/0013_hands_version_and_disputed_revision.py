"""what If-Match on a hand's write is checked against, and the revision a dispute disputes

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04 19:00:00.000000

"""
import sqlalchemy as sa
from alembic import op


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hands_version', sa.Integer(), nullable=True))
    # every game's hands are as its version says: the tags given out so far keep guarding them
    op.execute('UPDATE game SET hands_version = version')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.alter_column('hands_version', existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table('dispute', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revision', sa.Integer(), nullable=True))
    # a dispute opened before: the hand's revision that stood when it was opened
    op.execute(
        'UPDATE dispute SET revision = (SELECT max(r.revision) FROM hand_revision r'
        ' WHERE r.game_id = dispute.game_id AND r.number = dispute.number AND r.made_at <= dispute.opened_at)'
    )


def downgrade():
    with op.batch_alter_table('dispute', schema=None) as batch_op:
        batch_op.drop_column('revision')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('hands_version')
