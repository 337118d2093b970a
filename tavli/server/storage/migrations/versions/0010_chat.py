"""Chat: the lines said at a match's table and among its spectators (``chat_lines``), the players
each signed-in player has muted (``chat_mutes``), and the reports of players for a moderator to
read (``reports``). New tables only: every row already stored stays as it was."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_chat"
down_revision = "0009_challenges"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("name", sa.String(32)),
        sa.Column("phrase", sa.String(32)),
        sa.Column("text", sa.Text),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_lines_match_room", "chat_lines", ["match_id", "room", "id"])
    op.create_table(
        "chat_mutes",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("muted", sa.String(64), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("reporter_name", sa.String(32)),
        sa.Column("reported", sa.String(32), nullable=False),
        sa.Column("reported_account", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("match_id", sa.String(32)),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.Text, nullable=False, server_default=""),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("status", sa.String(12), nullable=False, server_default="open"),
    )
    op.create_index("ix_reports_status_at", "reports", ["status", "at"])
    op.create_index("ix_reports_reporter_at", "reports", ["reporter", "at"])


def downgrade() -> None:
    op.drop_index("ix_reports_reporter_at", "reports")
    op.drop_index("ix_reports_status_at", "reports")
    op.drop_table("reports")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_lines_match_room", "chat_lines")
    op.drop_table("chat_lines")
