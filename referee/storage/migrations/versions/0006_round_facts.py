"""A round keeps the double it really started on, and a typed hand whether it holds the [0-0].

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("round", sa.Column("started_on", sa.String(8), nullable=True))
    op.add_column("hand", sa.Column("double_blank", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade():
    op.drop_column("hand", "double_blank")
    op.drop_column("round", "started_on")
