"""Alembic's entry: runs the migrations on the connection ``tavli.server.storage.migrate`` hands over
(the server's own engine, SQLite or PostgreSQL), inside its transaction."""

from __future__ import annotations

from alembic import context

from tavli.server.storage.schema import metadata

connection = context.config.attributes["connection"]
# batch mode lets SQLite alter a table by copying it, as it has no ALTER for most changes
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
