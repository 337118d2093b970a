"""The servers' heartbeat: when one was last alive, so that the clocks charge nobody for the time
no server ran."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_clocks"
down_revision = "0002_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("alive", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("heartbeat")
