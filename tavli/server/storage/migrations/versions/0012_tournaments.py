"""Tournaments (docs/tournaments.md): the tournaments, their players and their pairings, round by
round. New tables only: everything already stored stays as it was."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_tournaments"
down_revision = "0011_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("organiser_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("starts_at", sa.Float),
        sa.Column("started", sa.Float),
        sa.Column("finished", sa.Float),
        sa.Column("ends_at", sa.Float),
        sa.Column("winner_id", sa.Integer, sa.ForeignKey("accounts.id")),
    )
    op.create_index("ix_tournaments_status_created", "tournaments", ["status", "created"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
        sa.Column("paused", sa.Boolean, nullable=False),
    )
    op.create_index("ix_tournament_players_account_id", "tournament_players", ["account_id"])
    op.create_table(
        "tournament_pairings",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("stage", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("board", sa.Integer, primary_key=True),
        sa.Column("white_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("black_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("match_id", sa.String(32), unique=True),
        sa.Column("winner_id", sa.Integer),
        sa.Column("ending", sa.String(16)),
        sa.Column("why", sa.Text, nullable=False, server_default="{}"),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float),
    )


def downgrade() -> None:
    op.drop_table("tournament_pairings")
    op.drop_index("ix_tournament_players_account_id", "tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status_created", "tournaments")
    op.drop_table("tournaments")
