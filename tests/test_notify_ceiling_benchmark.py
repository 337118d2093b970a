"""``benchmarks/speed/notify_ceiling.py`` run tiny as a process of its own, so that it keeps working.

The figures themselves (how many commits, how late) are the benchmark's business, not the test's.
``TAVLI_TEST_POSTGRES=postgresql://user:pass@host/db`` runs it on that database.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "speed" / "notify_ceiling.py"


def run_script(*options: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *options], capture_output=True, text=True, timeout=120,
                          env=env)


@pytest.mark.slow
def test_without_a_database_it_says_so_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TAVLI_TEST_POSTGRES"}
    done = run_script(env=env)
    assert done.returncode == 0 and done.stdout.startswith("skipped: no PostgreSQL")
    assert len(done.stdout.splitlines()) == 1 and not done.stderr


async def schema_exists(url: str, schema: str) -> bool:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        return bool(await conn.fetchval("SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema))
    finally:
        await conn.close()


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("TAVLI_TEST_POSTGRES"), reason="TAVLI_TEST_POSTGRES is not set")
def test_both_kinds_of_commit_are_measured_and_the_schema_dropped(tmp_path: Path) -> None:
    out = tmp_path / "ceiling.json"
    done = run_script("--writers", "1,3", "--seconds", "0.4", "--rounds", "1", "--actions", "2",
                      "--hear", "50", "--json", str(out), env=dict(os.environ))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "ceiling:" in done.stdout
    result: dict[str, Any] = json.loads(out.read_text())
    assert [row["writers"] for row in result["levels"]] == [1, 3]
    for row in result["levels"]:
        assert row["plain_per_s"] > 0 and row["notifying_per_s"] > 0
        assert row["ratio"] == pytest.approx(row["notifying_per_s"] / row["plain_per_s"], rel=0.01)
        assert row["heard"] > 0 and row["unheard"] == 0  # every announcement reached the listener
        assert 0 < row["heard_p50_ms"] <= row["heard_p99_ms"]
    assert result["hearing"]["announcements"] == 50 and result["hearing"]["heard_per_s"] > 0
    assert not asyncio.run(schema_exists(os.environ["TAVLI_TEST_POSTGRES"], result["schema"]))
