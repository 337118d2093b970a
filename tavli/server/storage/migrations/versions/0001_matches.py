"""The schema before migrations: the matches, their tokens, seeds, actions, presence, open seats,
players' names and reviews.

A database made by an earlier version has some or all of these tables already (the server made
the missing ones at each start): only the missing ones are made, so that it joins the migrations
at this step with nothing lost.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0001_matches"
down_revision = None
branch_labels = None
depends_on = None


def _matches() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("white", sa.String(32), nullable=False),
        sa.Column("black", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def _tokens() -> None:
    op.create_table(
        "tokens",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
    )
    op.create_index("ix_tokens_match_id", "tokens", ["match_id"])


def _seeds() -> None:
    op.create_table(
        "seeds",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("game", sa.Integer, primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
    )


def _actions() -> None:
    op.create_table(
        "actions",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.String(8), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def _presence() -> None:
    op.create_table(
        "presence",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.String(8), primary_key=True),
        sa.Column("until", sa.Float, nullable=False),
    )


def _open_seats() -> None:
    op.create_table(
        "open_seats",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def _names() -> None:
    op.create_table(
        "names",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.String(8), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
    )


def _analyses() -> None:
    op.create_table(
        "analyses",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


TABLES: dict[str, Callable[[], None]] = {
    "matches": _matches, "tokens": _tokens, "seeds": _seeds, "actions": _actions, "presence": _presence,
    "open_seats": _open_seats, "names": _names, "analyses": _analyses,
}
"""Each table of this step and what makes it, the referenced one first."""


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    for name, make in TABLES.items():
        if name not in existing:
            make()


def downgrade() -> None:
    for name in reversed(TABLES):
        op.drop_table(name)
