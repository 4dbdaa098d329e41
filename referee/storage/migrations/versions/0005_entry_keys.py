"""A round remembers the key of the entry that saved it, so a resent form saves nothing twice.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    # A column and a unique index, both of which SQLite adds in place: a unique constraint
    # would make Alembic rebuild the table, which the hands' foreign keys forbid.
    op.add_column("round", sa.Column("entry_key", sa.String(64), nullable=True))
    op.create_index("uq_round_game_entry_key", "round", ["game_id", "entry_key"], unique=True)


def downgrade():
    op.drop_index("uq_round_game_entry_key", table_name="round")
    op.drop_column("round", "entry_key")
