"""private leagues and games; share keys (read-only, labelled) beside write keys

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 19:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.add_column(sa.Column('visibility', sa.String(length=10), nullable=False, server_default='public'))
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('visibility', sa.String(length=10), nullable=True))
    # every game there was is public; one in a league follows its league (null)
    op.execute("UPDATE game SET visibility = 'public' WHERE league_id IS NULL")
    with op.batch_alter_table('api_key', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sa.String(length=10), nullable=False, server_default='write'))
        batch_op.add_column(sa.Column('label', sa.String(length=60), nullable=True))


def downgrade():
    # share keys read only what was private: with it gone, they go too
    op.execute("DELETE FROM api_key WHERE kind = 'share'")
    with op.batch_alter_table('api_key', schema=None) as batch_op:
        batch_op.drop_column('label')
        batch_op.drop_column('kind')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('visibility')
    with op.batch_alter_table('league', schema=None) as batch_op:
        batch_op.drop_column('visibility')
