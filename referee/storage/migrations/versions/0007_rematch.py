"""A finished game remembers the game started as its rematch.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("game", sa.Column("rematch", sa.String(16), nullable=True))


def downgrade():
    op.drop_column("game", "rematch")
