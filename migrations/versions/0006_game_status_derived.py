"""a game's status is derived from its winner (R20), not stored beside it

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 15:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('status')


def downgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('status', sa.String(length=20), nullable=False, server_default='in_progress'))
    op.execute("UPDATE game SET status = 'finished' WHERE winner IS NOT NULL")
