"""a hand's change in the feed is its revision, which names the game's version it made

The game's events keep only its other changes. Each hand event is matched to its revision: a hand's events, oldest first,
are the last of its revisions (the first ones of a hand imported with its
game made no event). An event that does not match its revision's action
stays where it is.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07 12:40:00.000000

"""
from collections import defaultdict

import sqlalchemy as sa
from alembic import op


revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None

CONSTRAINT = 'uq_hand_revision_game_version'


def upgrade():
    with op.batch_alter_table('hand_revision', schema=None) as batch_op:
        batch_op.add_column(sa.Column('game_version', sa.Integer(), nullable=True))
        batch_op.create_unique_constraint(CONSTRAINT, ['game_id', 'game_version'])
    conn = op.get_bind()
    events = defaultdict(list)
    for event_id, game_id, version, kind, hand in conn.execute(
        sa.text(
            "SELECT id, game_id, version, kind, hand FROM game_event"
            " WHERE kind IN ('hand_recorded', 'hand_corrected', 'hand_undone') AND hand IS NOT NULL"
            " ORDER BY game_id, hand, version"
        )
    ):
        events[(game_id, hand)].append((event_id, version, kind))
    revisions = defaultdict(list)
    for revision_id, game_id, number, action in conn.execute(
        sa.text("SELECT id, game_id, number, action FROM hand_revision ORDER BY game_id, number, revision")
    ):
        if (game_id, number) in events:
            revisions[(game_id, number)].append((revision_id, action))
    matched, moved = [], []
    for hand, its_events in events.items():
        its_revisions = revisions.get(hand, [])
        if len(its_revisions) < len(its_events):
            continue
        pairs = list(zip(its_events, its_revisions[len(its_revisions) - len(its_events):]))
        if any(kind != 'hand_' + action for (_, _, kind), (_, action) in pairs):
            continue
        for (event_id, version, _), (revision_id, _) in pairs:
            matched.append({'id': revision_id, 'version': version})
            moved.append({'id': event_id})
    if matched:
        conn.execute(sa.text("UPDATE hand_revision SET game_version = :version WHERE id = :id"), matched)
        conn.execute(sa.text("DELETE FROM game_event WHERE id = :id"), moved)


def downgrade():
    conn = op.get_bind()
    conn.execute(
        sa.text(
            "INSERT INTO game_event (game_id, version, kind, hand, at)"
            " SELECT game_id, game_version, 'hand_' || action, number, made_at FROM hand_revision"
            " WHERE game_version IS NOT NULL"
        )
    )
    with op.batch_alter_table('hand_revision', schema=None) as batch_op:
        batch_op.drop_constraint(CONSTRAINT, type_='unique')
        batch_op.drop_column('game_version')
