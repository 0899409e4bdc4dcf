"""Hollywood (R34): the columns each hand of a match was entered in

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06 17:10:00.000000

"""
import sqlalchemy as sa
from alembic import op


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('columns', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_column('columns')
