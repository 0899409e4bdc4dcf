"""idempotency records keep no secret: found by a hash, bodies encrypted

The old records kept the Idempotency-Key and the response (a new key
included) in plaintext; they cannot be converted (their keys are what the
new bodies are encrypted with), so they are dropped: they lived 24 hours.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 15:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('idempotency_record', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_idempotency_record_created_at'))
    op.drop_table('idempotency_record')
    op.create_table('idempotency_record',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('lookup', sa.String(length=64), nullable=False),
    sa.Column('body_hash', sa.String(length=64), nullable=False),
    sa.Column('status', sa.Integer(), nullable=False),
    sa.Column('headers', sa.JSON(), nullable=False),
    sa.Column('body', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('lookup')
    )
    with op.batch_alter_table('idempotency_record', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_idempotency_record_created_at'), ['created_at'], unique=False)


def downgrade():
    with op.batch_alter_table('idempotency_record', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_idempotency_record_created_at'))
    op.drop_table('idempotency_record')
    op.create_table('idempotency_record',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('scope', sa.String(length=80), nullable=False),
    sa.Column('method', sa.String(length=10), nullable=False),
    sa.Column('path', sa.String(length=300), nullable=False),
    sa.Column('key', sa.String(length=255), nullable=False),
    sa.Column('body_hash', sa.String(length=64), nullable=False),
    sa.Column('status', sa.Integer(), nullable=True),
    sa.Column('headers', sa.JSON(), nullable=True),
    sa.Column('body', sa.LargeBinary(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('scope', 'method', 'path', 'key')
    )
    with op.batch_alter_table('idempotency_record', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_idempotency_record_created_at'), ['created_at'], unique=False)
