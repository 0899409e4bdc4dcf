"""a game outside a league keeps no figures of its hands in game_player

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 22:30:00.000000

"""
from alembic import op


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None

FIGURES = (
    'games_finished', 'games_won', 'points', 'hands', 'hands_box', 'hands_captain', 'hands_sitter',
    'hands_won_box', 'hands_won_captain', 'gins', 'undercuts_made', 'undercuts_suffered', 'knocks',
    'knocker_deadwood_total', 'knocker_deadwood_hands',
)


def upgrade():
    # only a league's books and standings read them: outside a league, the rows
    # keep whose game it is, with the figures of a game not yet begun
    zeros = ', '.join(f'{name} = 0' for name in FIGURES)
    op.execute(f'UPDATE game_player SET games_played = 1, {zeros} WHERE league_id IS NULL')


def downgrade():
    # the figures are not recounted: nothing but `flask books verify` read them,
    # which, on the code of 0010, names each game outside a league that has hands
    pass
