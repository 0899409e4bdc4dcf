"""two-player presets in leagues (R27-R29): figures by seat and boxes, each game's preset, ratings by preset

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06 17:00:00.000000

"""
import json

import sqlalchemy as sa
from alembic import op


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None

TWO_PLAYER_FIGURES = ['hands_dealer', 'hands_non_dealer', 'hands_won_dealer', 'hands_won_non_dealer', 'boxes']


def _rating_table(*preset):
    op.create_table('league_rating',
    sa.Column('league_id', sa.Integer(), nullable=False),
    *[sa.Column('preset', sa.String(length=20), nullable=False)][:len(preset)],
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('hands_rated', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['league_id'], ['league.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], ),
    sa.PrimaryKeyConstraint('league_id', *preset, 'player_id')
    )


def upgrade():
    for table in ('game_player', 'league_player'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name in TWO_PLAYER_FIGURES:
                batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default='0'))
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name in TWO_PLAYER_FIGURES:
                batch_op.alter_column(name, existing_type=sa.Integer(), server_default=None)
    with op.batch_alter_table('game_player', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('preset', sa.String(length=20), nullable=False, server_default='three_handed')
        )
    # a two-player game (outside a league until now) names its preset in its rules
    conn = op.get_bind()
    for game_id, rules in conn.execute(sa.text("SELECT id, rules FROM game WHERE first_sitter IS NULL")).all():
        preset = (json.loads(rules) if isinstance(rules, str) else rules)["preset"]
        conn.execute(
            sa.text("UPDATE game_player SET preset = :preset WHERE game_id = :id"), {"preset": preset, "id": game_id}
        )
    # every league held three-handed games only: its ratings are those of three_handed;
    # the ratings are derived from the hand logs, so they are recounted at the next read
    op.drop_table('league_rating')
    _rating_table('preset')
    op.execute("UPDATE league SET ratings_stale = true")


def downgrade():
    op.drop_table('league_rating')
    _rating_table()
    op.execute("UPDATE league SET ratings_stale = true")
    with op.batch_alter_table('game_player', schema=None) as batch_op:
        batch_op.drop_column('preset')
    for table in ('game_player', 'league_player'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name in TWO_PLAYER_FIGURES:
                batch_op.drop_column(name)
