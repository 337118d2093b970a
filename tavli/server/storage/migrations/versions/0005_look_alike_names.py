"""Accounts' look-alike keys (``tavli.server.storage.names``): no new account's name may look like
another's. The accounts made before get theirs here, oldest first; of two made before whose names
look the same, the younger gets none (both keep their names)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tavli.server.storage.names import look_alike_key

revision = "0005_look_alike_names"
down_revision = "0004_seeks"
branch_labels = None
depends_on = None

LOOK_KEY_LENGTH = 200  # as tavli.server.storage.schema has it now


def upgrade() -> None:
    op.add_column("accounts", sa.Column("look_key", sa.String(LOOK_KEY_LENGTH)))
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("deleted", sa.Boolean), sa.column("look_key", sa.String))
    bind = op.get_bind()
    rows = bind.execute(sa.select(accounts.c.id, accounts.c.name).where(accounts.c.deleted.is_(False))
                        .order_by(accounts.c.id)).all()
    given: set[str] = set()
    for account_id, name in rows:
        key = look_alike_key(name)[:LOOK_KEY_LENGTH]
        if key not in given:
            given.add(key)
            bind.execute(sa.update(accounts).where(accounts.c.id == account_id).values(look_key=key))
    op.create_index("ix_accounts_look_key", "accounts", ["look_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_look_key", "accounts")
    op.drop_column("accounts", "look_key")
