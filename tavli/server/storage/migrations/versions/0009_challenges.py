"""Challenges: a seek addressed to one person (``target``, empty for a seek anyone may accept). A
person now has one open seek and one live challenge to each other person, so the seeks are kept
unique by owner and target together, no longer by owner alone; the table is made again with its
rows (SQLite cannot drop a column's unique constraint in place)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_challenges"
down_revision = "0008_game_endings"
branch_labels = None
depends_on = None

COLUMNS = "id, owner, account_id, name, rating, settings, created, until, address"


def seeks_table(name: str, *, target: bool) -> None:
    op.create_table(
        name,
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False, unique=not target),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id")),
        sa.Column("name", sa.String(32)),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=False),
        sa.Column("address", sa.String(64)),
        *([sa.Column("target", sa.String(64), nullable=False, server_default="")] if target else []),
    )


def upgrade() -> None:
    seeks_table("seeks_next", target=True)
    op.execute(f"INSERT INTO seeks_next ({COLUMNS}, target) SELECT {COLUMNS}, '' FROM seeks")
    op.drop_index("ix_seeks_address", "seeks")
    op.drop_table("seeks")
    op.rename_table("seeks_next", "seeks")
    op.create_index("ix_seeks_address", "seeks", ["address"])
    op.create_index("ix_seeks_owner_target", "seeks", ["owner", "target"], unique=True)
    op.create_index("ix_seeks_target", "seeks", ["target"])


def downgrade() -> None:
    seeks_table("seeks_before", target=False)
    op.execute(f"INSERT INTO seeks_before ({COLUMNS}) SELECT {COLUMNS} FROM seeks WHERE target = ''")
    op.drop_index("ix_seeks_target", "seeks")
    op.drop_index("ix_seeks_owner_target", "seeks")
    op.drop_index("ix_seeks_address", "seeks")
    op.drop_table("seeks")
    op.rename_table("seeks_before", "seeks")
    op.create_index("ix_seeks_address", "seeks", ["address"])
