"""A game's owner may choose to keep the hand photos; off for every existing game.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN (SQLite can do it in place); a batch copy would trip the foreign keys.
    op.add_column("game", sa.Column("keep_photos", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade():
    op.drop_column("game", "keep_photos")
