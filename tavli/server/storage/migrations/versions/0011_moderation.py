"""Moderators: an account's moderator role (``accounts.moderator``), the time until which a
moderator has closed its chat (``accounts.chat_banned_until``), and the log of every moderator's
action (``moderation_actions``), whose warnings, mutes and renamings are shown to their player
until he has read them (``seen``). Every account already stored stays as it was: no moderator, its
chat open."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_moderation"
down_revision = "0010_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # added in place (no copy of the table): a constant default fills the rows already there
    op.add_column("accounts", sa.Column("moderator", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("accounts", sa.Column("chat_banned_until", sa.Float))
    op.create_table(
        "moderation_actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("moderator_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("account_name", sa.String(40)),
        sa.Column("action", sa.String(12), nullable=False),
        sa.Column("report_id", sa.Integer),
        sa.Column("note", sa.Text, nullable=False, server_default=""),
        sa.Column("detail", sa.Text, nullable=False, server_default="{}"),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("seen", sa.Boolean),
    )
    op.create_index("ix_moderation_actions_at", "moderation_actions", ["at"])
    op.create_index("ix_moderation_actions_account_seen", "moderation_actions", ["account_id", "seen"])


def downgrade() -> None:
    op.drop_index("ix_moderation_actions_account_seen", "moderation_actions")
    op.drop_index("ix_moderation_actions_at", "moderation_actions")
    op.drop_table("moderation_actions")
    op.drop_column("accounts", "chat_banned_until")
    op.drop_column("accounts", "moderator")
