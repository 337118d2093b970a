"""The web app in this process, through Starlette's test client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from tavli.server.app import create_app


def make_client(db: Path, **options: Any) -> TestClient:
    """The app on a SQLite file, with the per-connection message limits out of the tests' way."""
    options.setdefault("messages_per_second", 10_000)
    options.setdefault("message_burst", 10_000)
    return TestClient(create_app(f"sqlite:///{db}", **options))
