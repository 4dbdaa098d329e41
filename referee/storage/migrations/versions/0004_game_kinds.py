"""Team dominoes and the draw game: a game's kind, and a hand's blocker and capicu tile.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("game", sa.Column("kind", sa.String(16), nullable=False, server_default="chicken-foot"))
    if op.get_bind().dialect.name == "sqlite":
        # SQLite can add a column with its foreign key in place, but Alembic would try a
        # separate constraint, which SQLite cannot alter in.
        op.execute("ALTER TABLE round ADD COLUMN blocker INTEGER REFERENCES player (id)")
    else:
        op.add_column("round", sa.Column("blocker", sa.Integer, sa.ForeignKey("player.id"), nullable=True))
    op.add_column("round", sa.Column("capicu_tile", sa.String(8), nullable=True))


def downgrade():
    op.drop_column("round", "capicu_tile")
    op.drop_column("round", "blocker")
    op.drop_column("game", "kind")
