"""The lobby across two server processes on one PostgreSQL database: a seek posted on one is
pushed to the start pages of the other (NOTIFY, with polling off); of accepts made at once on both, one
wins, and a person is never put in two matches.

They need ``TAVLI_TEST_POSTGRES`` (``.ci/run`` sets it); the tables live in a schema of their own.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import secrets
import shutil
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from serve_process import Server
from websockets.sync.client import connect

pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not os.environ.get("TAVLI_TEST_POSTGRES"),
                                                      reason="set TAVLI_TEST_POSTGRES to a PostgreSQL database")]


@pytest.fixture
def pair() -> Iterator[tuple[Server, Server]]:
    """Two server processes, polling off: only NOTIFY carries the lobby from one to the other."""
    base = os.environ["TAVLI_TEST_POSTGRES"]
    psql = shutil.which("psql")
    if psql is None:
        pytest.skip("psql is not installed")
    schema = f"lobby_{secrets.token_hex(4)}"
    subprocess.run([psql, base, "-q", "-v", "ON_ERROR_STOP=1", "-c", f"CREATE SCHEMA {schema}"], check=True)
    url = f"{base}?schema={schema}"
    a = Server(url, options=("--poll-seconds", "0"))
    b = Server(url, options=("--poll-seconds", "0"))
    try:
        yield a, b
    finally:
        a.stop(signal.SIGTERM)
        b.stop(signal.SIGTERM)
        subprocess.run([psql, base, "-q", "-c", f"DROP SCHEMA {schema} CASCADE"], check=True)


def call(server: Server, path: str, guest: str, body: Any = None, method: str = "POST") -> tuple[int, Any]:
    request = urllib.request.Request(server.url + path, json.dumps(body or {}).encode(),
                                     {"Content-Type": "application/json", "Cookie": f"tavli_guest={guest}"},
                                     method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer) if answer.status != 204 else None
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


@pytest.mark.slow
def test_a_seek_on_one_process_is_pushed_by_the_other(pair: tuple[Server, Server]) -> None:
    a, b = pair
    url = b.url.replace("http", "ws") + "/ws/lobby"
    with connect(url, additional_headers={"Cookie": "tavli_guest=watcher"}) as lobby:
        assert json.loads(lobby.recv(timeout=30))["type"] == "seeks"
        status, seek = call(a, "/api/seeks", "poster", {"length": 3, "clock": "blitz"})
        assert status == 201
        while True:  # polling is off: only NOTIFY can bring it (how fast is the load benchmark's to say)
            message = json.loads(lobby.recv(timeout=30))
            if message["type"] == "seek":
                break
        assert message["seek"]["id"] == seek["id"]
        # the seeker, on the other process, is told his match when the watcher accepts
        with connect(a.url.replace("http", "ws") + "/ws/lobby", additional_headers={"Cookie": "tavli_guest=poster"}) \
                as seeker:
            assert json.loads(seeker.recv(timeout=30))["type"] == "seeks"
            status, seat = call(b, f"/api/seeks/{seek['id']}/accept", "watcher")
            assert status == 201
            while (told := json.loads(seeker.recv(timeout=5)))["type"] != "paired":
                pass
            assert told["match"] == seat["match"] and {told["seat"], seat["seat"]} == {"white", "black"}


@pytest.mark.slow
def test_accepts_at_once_on_both_processes_make_one_match(pair: tuple[Server, Server]) -> None:
    a, b = pair
    for round_ in range(5):
        _, seek = call(a, "/api/seeks", f"seeker{round_}", {})
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            takers = [pool.submit(call, (a, b)[i % 2], f"/api/seeks/{seek['id']}/accept", f"taker{round_}-{i}")
                      for i in range(4)]
            codes = [taker.result()[0] for taker in takers]
        assert sorted(codes) == [201, 409, 409, 409], codes


@pytest.mark.slow
def test_a_person_is_never_put_in_two_matches(pair: tuple[Server, Server]) -> None:
    a, b = pair
    for round_ in range(5):
        x, y, z = (f"{who}{round_}" for who in "xyz")
        _, seek_x = call(a, "/api/seeks", x, {})
        _, seek_y = call(b, "/api/seeks", y, {})
        with concurrent.futures.ThreadPoolExecutor(2) as pool:  # x accepts y's seek as z accepts x's
            first = pool.submit(call, a, f"/api/seeks/{seek_y['id']}/accept", x)
            second = pool.submit(call, b, f"/api/seeks/{seek_x['id']}/accept", z)
            codes = [first.result()[0], second.result()[0]]
        assert sorted(codes) == [201, 409], codes
        # the seek left, if any, goes: one address has only a few listed (lobby.SEEKS_PER_ADDRESS)
        for owner, seek in ((x, seek_x), (y, seek_y)):
            assert call(a, f"/api/seeks/{seek['id']}", owner, method="DELETE")[0] in (204, 404)
