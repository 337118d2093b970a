"""The outages: each time no server process was alive, so that a turn that spans several is
charged for none of them (the heartbeat alone knew only the last)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_outages"
down_revision = "0005_look_alike_names"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("down", sa.Float, nullable=False),
        sa.Column("up", sa.Float, nullable=False),
    )
    op.create_index("ix_outages_up", "outages", ["up"])


def downgrade() -> None:
    op.drop_index("ix_outages_up", "outages")
    op.drop_table("outages")
