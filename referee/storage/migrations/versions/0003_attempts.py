"""Failed token guesses and photo uploads per client, for rate limiting across processes.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "attempt",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_attempt_client", "attempt", ["client"])
    op.create_index("ix_attempt_at", "attempt", ["at"])


def downgrade():
    op.drop_table("attempt")
