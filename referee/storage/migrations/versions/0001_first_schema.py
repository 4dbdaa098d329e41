"""The first schema: players, games and their seats, rounds, hands, history and rulings.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade():
    op.create_table(
        "game",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("edit_token", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("overrides", sa.JSON, nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("updated", WHEN, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
    )
    op.create_table(
        "player",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_index("ix_player_name", "player", ["name"], unique=True)
    op.create_table(
        "round",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("went_out", sa.Integer, sa.ForeignKey("player.id")),
        sa.Column("blocked", sa.Boolean, nullable=False),
        sa.Column("out_on_double", sa.Boolean, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("updated", WHEN, nullable=False),
        sa.UniqueConstraint("game_id", "number", name="uq_round_game_number"),
    )
    op.create_index("ix_round_game_id", "round", ["game_id"])
    op.create_table(
        "roundchange",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_index("ix_roundchange_game_id", "roundchange", ["game_id"])
    op.create_table(
        "ruling",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("round_number", sa.Integer),
        sa.Column("at", WHEN, nullable=False),
        sa.Column("question", sa.String(32), nullable=False),
        sa.Column("foot", sa.JSON),
        sa.Column("outcome", sa.String(32), nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("rule", sa.Text, nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
    )
    op.create_index("ix_ruling_game_id", "ruling", ["game_id"])
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.String, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("player.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.UniqueConstraint("game_id", "seat", name="uq_seat_game_seat"),
        sa.UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),
    )
    op.create_index("ix_seat_game_id", "seat", ["game_id"])
    op.create_index("ix_seat_player_id", "seat", ["player_id"])
    op.create_table(
        "hand",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("round.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("player.id"), nullable=False),
        sa.Column("tiles", sa.String(2000)),
        sa.Column("pips", sa.Integer),
        sa.Column("points", sa.Integer, nullable=False),
        sa.UniqueConstraint("round_id", "player_id", name="uq_hand_round_player"),
    )
    op.create_index("ix_hand_round_id", "hand", ["round_id"])
    op.create_index("ix_hand_player_id", "hand", ["player_id"])


def downgrade():
    for table in ("hand", "seat", "ruling", "roundchange", "round", "player", "game"):
        op.drop_table(table)
