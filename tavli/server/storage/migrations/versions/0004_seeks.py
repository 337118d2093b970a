"""The lobby: the seeks, the people just paired, and who is on the start page."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_seeks"
down_revision = "0003_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("name", sa.String(32)),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_table(
        "lobby_paired",
        sa.Column("person", sa.String(64), primary_key=True),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "lobby_people",
        sa.Column("person", sa.String(64), primary_key=True),
        sa.Column("until", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lobby_people")
    op.drop_table("lobby_paired")
    op.drop_table("seeks")
