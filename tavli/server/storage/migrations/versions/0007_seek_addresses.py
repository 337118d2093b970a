"""Each seek's client address: the lobby keeps a few live seeks per address, however many guest
cookies one client makes."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_seek_addresses"
down_revision = "0006_outages"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seeks", sa.Column("address", sa.String(64)))
    op.create_index("ix_seeks_address", "seeks", ["address"])


def downgrade() -> None:
    op.drop_index("ix_seeks_address", "seeks")
    op.drop_column("seeks", "address")
