"""The database's schema changes, as Alembic migrations, applied when the server starts
(``tavli.server.storage.migrate``): a database made by an earlier version upgrades in place."""
