"""The database brought to the current schema with Alembic (``tavli.server.storage.migrations``).

A new database gets every table; one made by an earlier version (before migrations, or at an
older step) gets the steps it lacks, in place, keeping every row. The server runs this at each
start (``Store.create_tables``); several servers starting at once on one PostgreSQL database take
turns through an advisory lock.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection

MIGRATIONS = "tavli.server.storage:migrations"
"""Where the migrations are, as Alembic names a package's folder."""
LOCK = 7_340_021
"""The PostgreSQL advisory lock that servers starting together take in turn."""


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for Tavli's migrations, run on ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", MIGRATIONS)
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest migration's name: the schema this version of Tavli uses.

    >>> head()
    '0012_tournaments'
    """
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    """The migration the database is at (None: made before migrations, or empty)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection) -> None:
    """Bring the database on ``connection`` (in a transaction) to ``head()``."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
    command.upgrade(config(connection), "head")
