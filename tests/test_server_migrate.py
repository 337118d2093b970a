"""Schema migrations (tavli.server.storage.migrate): a new database gets every table, and a database made
by the server before accounts (tests/data/before-accounts.*, written by that version) upgrades in
place with every match still replaying."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text
from starlette.testclient import TestClient

from tavli.server.app import create_app
from tavli.server.storage.migrate import current, head
from tavli.server.storage.schema import metadata
from tavli.server.storage.store import Store

DATA = Path(__file__).parent / "data"
SQLITE_BEFORE = {
    # what the server before accounts said of the matches in before-accounts.sqlite
    "IqM9LKuqc9CJ": {"seq": 144, "over": True, "score": {"white": 0, "black": 2},
                     "watch": "crwci8xnAwIZRRC0MOgowipRFZ-QKKIb", "reviewed": True},
    "Xj8Y1UwdQ3DG": {"seq": 298, "over": True, "score": {"white": 0, "black": 4},
                     "watch": "Y8L24A1s9cDN2LaTPXTuU8-p0HBXVN_B", "reviewed": True},
    "OnIOfKlqD2E1": {"seq": 30, "over": False, "score": {"white": 0, "black": 0},
                     "watch": "IJd_Iy9agGlPJAWuUpgv4nnYjcfkKe4V", "reviewed": False},
}
POSTGRES_BEFORE = {"mKA6oUsKY8KL": {"seq": 56, "over": True}}


async def tables_and_version(url: str) -> tuple[set[str], str | None]:
    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            names = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            version = await conn.run_sync(current)
    finally:
        await store.engine.dispose()
    return names, version


def spectate(client: TestClient, match_id: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{match_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        for _ in range(20):
            message = dict(ws.receive_json())
            if message["type"] in ("state", "error"):
                return message
    raise AssertionError("no state came")


def test_a_new_database_gets_every_table_at_the_newest_step(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    asyncio.run(Store(url).create_tables())
    names, version = asyncio.run(tables_and_version(url))
    assert set(metadata.tables) | {"alembic_version"} == names
    assert version == head() == "0012_tournaments"


def test_a_database_from_before_accounts_upgrades_in_place_and_every_match_replays(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    shutil.copy(DATA / "before-accounts.sqlite", db)
    url = f"sqlite:///{db}"
    names, version = asyncio.run(tables_and_version(url))
    assert "accounts" not in names and "matches" in names and version is None
    for start in range(2):  # the second start finds it upgraded and changes nothing
        with TestClient(create_app(url)) as client:
            for match_id, before in SQLITE_BEFORE.items():
                state = spectate(client, match_id, str(before["watch"]))
                assert (state["over"], state["score"]) == (before["over"], before["score"])
                # the unfinished match is the bot's turn: the server plays it on
                assert state["seq"] == before["seq"] if before["over"] else state["seq"] >= before["seq"]
                record = client.get(f"/api/matches/{match_id}/record")
                assert record.status_code == 200 and record.json()["games"]
                review = client.get(f"/api/matches/{match_id}/analysis")
                assert (review.status_code == 200) == before["reviewed"], (start, match_id, review.status_code)
            named = spectate(client, "IqM9LKuqc9CJ", str(SQLITE_BEFORE["IqM9LKuqc9CJ"]["watch"]))
            assert named["players"]["white"]["name"] == "Ελένη"
    names, version = asyncio.run(tables_and_version(url))
    assert set(metadata.tables) <= names and version == head()


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("TAVLI_TEST_POSTGRES"),
                    reason="set TAVLI_TEST_POSTGRES to a PostgreSQL database")
def test_a_postgresql_database_from_before_accounts_upgrades_in_place() -> None:
    # the old tables are loaded into a schema of their own, so that the tests sharing the
    # database's own schema go on undisturbed
    base = os.environ["TAVLI_TEST_POSTGRES"]
    schema = f"before_accounts_{secrets.token_hex(4)}"
    dump = (DATA / "before-accounts.postgresql.sql").read_text(encoding="utf-8")
    dump = dump.replace("public.", f"{schema}.").replace("set_config('search_path', '', false)",
                                                           f"set_config('search_path', '{schema}', false)")
    psql = shutil.which("psql")
    if psql is None:
        pytest.skip("psql is not installed")
    subprocess.run([psql, base, "-q", "-v", "ON_ERROR_STOP=1", "-c", f"CREATE SCHEMA {schema}"], check=True)
    try:
        subprocess.run([psql, base, "-q", "-v", "ON_ERROR_STOP=1"], input=dump, text=True, check=True,
                       capture_output=True)
        url = f"{base}?schema={schema}"
        names, version = asyncio.run(tables_and_version(url))
        assert "accounts" not in names and "matches" in names and version is None
        with TestClient(create_app(url)) as client:
            for match_id, before in POSTGRES_BEFORE.items():
                record = client.get(f"/api/matches/{match_id}/record")
                assert record.status_code == 200, record.text
                with client.websocket_connect(f"/ws/{match_id}") as ws:  # no token: refused, the match there
                    ws.send_json({"type": "hello", "token": "x"})
                    assert ws.receive_json()["code"] == "bad-token"
                assert len(record.json()["games"]) == 1 and before["over"]
                assert client.get(f"/api/matches/{match_id}/dice").json()["games"][0]["seed"]
        names, version = asyncio.run(tables_and_version(url))
        assert set(metadata.tables) <= names and version == head()
    finally:
        subprocess.run([psql, base, "-q", "-c", f"DROP SCHEMA {schema} CASCADE"], check=True)


async def _schema_text(url: str) -> str:
    store = Store(url)
    async with store.engine.connect() as conn:
        rows = (await conn.execute(text("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"))).all()
    await store.engine.dispose()
    return "\n".join(str(r[0]) for r in rows)


def test_the_migrations_make_the_tables_the_schema_module_describes(tmp_path: Path) -> None:
    # metadata.create_all and the migrations must agree: each table, column and index
    migrated, described = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    asyncio.run(Store(migrated).create_tables())

    async def create_all() -> None:
        store = Store(described)
        async with store.engine.begin() as conn:
            await conn.run_sync(metadata.create_all)
        await store.engine.dispose()
    asyncio.run(create_all())

    def shape(url: str) -> dict[str, Any]:
        async def read() -> dict[str, Any]:
            store = Store(url)
            async with store.engine.connect() as conn:
                found = await conn.run_sync(lambda c: {
                    t: (sorted((col["name"], str(col["type"]), col["nullable"]) for col in inspect(c).get_columns(t)),
                        sorted(tuple(ix["column_names"]) for ix in inspect(c).get_indexes(t)),
                        sorted(inspect(c).get_pk_constraint(t)["constrained_columns"]))
                    for t in inspect(c).get_table_names() if t != "alembic_version"})
            await store.engine.dispose()
            return found
        return asyncio.run(read())
    assert shape(migrated) == shape(described)
