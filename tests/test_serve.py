"""``tavli serve`` as a real process with real WebSocket clients: a match, a kill -9, the dice check."""

from __future__ import annotations

import json
import re
import signal
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import run_tavli
from serve_process import Server, alive, children
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection

Message = dict[str, Any]


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop(signal.SIGKILL)


def receive(ws: ClientConnection, done: Callable[[Message], bool]) -> Message:
    for _ in range(500):
        msg = json.loads(ws.recv(timeout=60))
        if done(msg):
            return dict(msg)
    raise AssertionError("the expected message never came")


def hello(ws: ClientConnection, token: str) -> Message:
    ws.send(json.dumps({"type": "hello", "token": token}))
    return receive(ws, lambda m: m["type"] == "state")


def act(ws: ClientConnection, state: Message) -> Message:
    """Roll or play the first legal play, and return the next state where the seat must act or the match ended.

    A client this fast meets the rate limit: it waits and sends again, as the error asks.
    """
    if state["can_roll"]:
        message = {"type": "roll", "seq": state["seq"]}
    else:
        message = {"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]}
    while True:
        ws.send(json.dumps(message))
        answer = receive(ws, lambda m: m["type"] == "error" or (m["type"] == "state" and m["seq"] > state["seq"]
                         and (m["can_roll"] or m["can_play"] or m["over"])))
        if answer["type"] == "state":
            return answer
        assert answer["code"] == "rate-limited", answer
        time.sleep(0.2)


@pytest.mark.slow
def test_a_bot_match_survives_kill_9_and_its_dice_check_out(tmp_path: Path, servers: list[Server]) -> None:
    db = tmp_path / "tavli.db"
    servers.append(Server(db))
    first = servers[0]
    links = first.post("/api/matches", {"opponent": "beginner", "length": 1, "games": "portes"})
    with first.socket(links["match"]) as ws:
        state = hello(ws, links["token"])
        for _ in range(4):
            state = act(ws, state)
    bot_processes = children(first.process.pid)
    assert bot_processes, "the bot answered from a bot process"
    first.stop(signal.SIGKILL)
    # the killed server's bot processes see it gone and end too, rather than wait for ever
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in bot_processes) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in bot_processes if alive(pid)]

    servers.append(Server(db))
    second = servers[1]
    with second.socket(links["match"]) as ws:
        resumed = hello(ws, links["token"])
        for key in ("seq", "game", "dice", "score", "turn"):
            assert resumed[key] == state[key], key
        state = resumed
        while not state["over"]:
            state = act(ws, state)
    assert max(state["score"].values()) >= 1

    check = run_tavli("verify-dice", second.url + links["play"], timeout=120)
    assert check.returncode == 0, check.stderr
    assert "1 finished game(s) checked" in check.stdout
    second.stop()
    assert second.process.returncode in (0, -signal.SIGTERM)


@pytest.mark.slow
def test_tampered_dice_are_caught(tmp_path: Path, servers: list[Server]) -> None:
    servers.append(Server(tmp_path / "tavli.db"))
    links = servers[0].post("/api/matches", {"opponent": "beginner", "length": 1, "games": "fevga"})
    with servers[0].socket(links["match"]) as ws:
        state = hello(ws, links["token"])
        while not state["over"]:
            state = act(ws, state)
    with urllib.request.urlopen(f"{servers[0].url}/api/matches/{links['match']}/dice", timeout=60) as answer:
        record = json.load(answer)
    saved = tmp_path / "dice.json"
    saved.write_text(json.dumps(record))
    honest = run_tavli("verify-dice", str(saved), timeout=120)
    assert honest.returncode == 0 and "1 finished game(s) checked" in honest.stdout, honest.stderr
    roll = record["games"][0]["rolls"][5]
    roll[0] = roll[0] % 6 + 1  # a dishonest record: one die changed
    saved.write_text(json.dumps(record))
    check = run_tavli("verify-dice", str(saved), timeout=120)
    assert check.returncode == 2
    assert check.stderr.count("\n") == 1 and "but the seed gives" in check.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["--database", "mysql://x@y/z"], "unsupported database 'mysql'"),
    (["--port", "70000"], "70000"),
])
@pytest.mark.slow
def test_bad_serve_options_are_one_line(args: list[str], words: str) -> None:
    run = run_tavli("serve", *args, timeout=120, env={"NO_COLOR": "1"})
    assert run.returncode == 2 and words in run.stderr


def test_verify_dice_needs_a_match_address() -> None:
    run = run_tavli("verify-dice", "http://127.0.0.1:9/elsewhere", timeout=120)
    assert run.returncode == 2 and "give the match's address" in run.stderr


@pytest.mark.slow
def test_a_busy_port_fails_at_once_before_the_warm_up() -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        run = run_tavli("serve", "--port", str(port), timeout=120, env={"NO_COLOR": "1"})
        assert run.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in run.stderr
        assert "Getting ready" not in run.stderr  # refused before the warm-up's work


@pytest.mark.slow
def test_the_warm_up_says_each_stage(tmp_path: Path, servers: list[Server]) -> None:
    servers.append(Server(tmp_path / "tavli.db"))
    servers[0].stop()
    assert servers[0].process.stderr is not None
    told = servers[0].process.stderr.read()
    assert "Getting ready" in told
    for stage in ("the rules kernel", "the bear-off tables", "the networks and the bots' search"):
        assert re.search(rf"  {re.escape(stage)}… \d+\.\d s", told), told


def open_slowly(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that start a request's headers and never finish them (slowloris)."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        s.setblocking(False)
        socks.append(s)
    return socks


def closed_by_server(s: socket.socket) -> bool:
    try:
        s.send(b"X-Slow: 1\r\n")  # one more header line, as a slow client does
        return s.recv(1024) == b""
    except BlockingIOError:
        return False
    except OSError:  # reset or broken pipe: closed
        return True


@pytest.mark.slow
def test_slow_headers_and_silent_sockets_are_cut_off(tmp_path: Path, servers: list[Server]) -> None:
    servers.append(Server(tmp_path / "tavli.db", options=("--header-timeout", "1.5")))
    server = servers[0]
    links = server.post("/api/matches", {"opponent": "friend"})
    # a WebSocket that never says hello, and one that does
    with server.socket(links["match"]) as silent, server.socket(links["match"]) as joined:
        hello(joined, links["token"])
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=5)  # connects and sends nothing
        slow = open_slowly(server.port, 50)
        started = time.monotonic()
        open_ones = list(slow)
        while open_ones and time.monotonic() - started < 8:
            time.sleep(0.25)
            open_ones = [s for s in open_ones if not closed_by_server(s)]
        took = time.monotonic() - started
        assert not open_ones, f"{len(open_ones)} of {len(slow)} slow connections still open after {took:.1f} s"
        assert 1.0 < took < 5
        idle.settimeout(5)
        assert idle.recv(1024) == b""
        for s in [*slow, idle]:
            s.close()
        # the server still answers, and a WebSocket that said hello outlives the header deadline
        with urllib.request.urlopen(server.url + "/healthz", timeout=30) as answer:
            assert json.load(answer) == {"ok": True}
        joined.send(json.dumps({"type": "ping", "id": "still"}))
        assert receive(joined, lambda m: m["type"] == "pong")["id"] == "still"
        told = receive(silent, lambda m: m["type"] == "error")  # hello is due within 5 s
        assert told["code"] == "not-joined"
        with pytest.raises(ConnectionClosed):
            silent.recv(timeout=10)
        assert time.monotonic() - started < 12


def create_codes(server: Server, forwarded: list[str]) -> list[int]:
    codes = []
    for address in forwarded:
        try:
            server.post("/api/matches", {"opponent": "friend"}, {"X-Forwarded-For": address})
            codes.append(201)
        except urllib.error.HTTPError as refused:
            codes.append(refused.code)
    return codes


@pytest.mark.slow
def test_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path, servers: list[Server]) -> None:
    servers.append(Server(tmp_path / "tavli.db", options=("--create-limit", "2")))
    forged = ["203.0.113.1", "203.0.113.2", "203.0.113.3"]
    assert create_codes(servers[0], forged) == [201, 201, 429]  # one client forging headers: one address
    servers[0].stop()
    servers.append(Server(tmp_path / "tavli.db", options=("--create-limit", "2", "--trusted-proxy", "127.0.0.1")))
    assert create_codes(servers[1], forged) == [201, 201, 201]  # behind a named proxy: each client counts
    assert create_codes(servers[1], ["198.51.100.7"] * 3) == [201, 201, 429]


@pytest.mark.slow
def test_websocket_origins_on_a_real_server(tmp_path: Path, servers: list[Server]) -> None:
    servers.append(Server(tmp_path / "tavli.db", options=("--allow-origin", "https://friends.example")))
    server = servers[0]
    links = server.post("/api/matches", {"opponent": "friend"})
    for origin in (None, server.url, "https://friends.example"):
        with server.socket(links["match"], {"Origin": origin} if origin else None) as ws:
            assert hello(ws, links["token"])["type"] == "state"
    with pytest.raises(InvalidStatus) as refused:
        server.socket(links["match"], {"Origin": "https://evil.example"})
    assert refused.value.response.status_code == 403


@pytest.mark.slow
def test_bad_serve_security_options_are_one_line() -> None:
    for args, words in ((["--trusted-proxy", "proxy.example"], "not an IP address"),
                        (["--allow-origin", "friends.example"], "is not an origin")):
        run = run_tavli("serve", "--port", "0", *args, timeout=120, env={"NO_COLOR": "1"})
        assert run.returncode == 2 and words in run.stderr and run.stderr.count("\n") == 1, run.stderr
